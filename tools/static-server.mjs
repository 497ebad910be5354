// A small static file server for dist/: `make serve` runs it, and the end-to-end tests start
// one per worker on a random port and read `requests` to prove what the page asked for.
import { createServer } from 'node:http';
import { readFile, stat } from 'node:fs/promises';
import { extname, join, normalize, resolve, sep } from 'node:path';
import { fileURLToPath } from 'node:url';

const TYPES = {
  '.html': 'text/html; charset=utf-8',
  '.js': 'text/javascript; charset=utf-8',
  '.mjs': 'text/javascript; charset=utf-8',
  '.css': 'text/css; charset=utf-8',
  '.wasm': 'application/wasm',
  '.json': 'application/json; charset=utf-8',
  '.svg': 'image/svg+xml',
  '.png': 'image/png',
  '.zip': 'application/zip',
  '.py': 'text/plain; charset=utf-8',
  '.ts': 'text/plain; charset=utf-8',
  '.mmd': 'text/plain; charset=utf-8',
  '.txt': 'text/plain; charset=utf-8',
};

/**
 * The precompressed copy to send (tools/precompress.mjs writes them), best first, or the
 * plain file. Only encodings the request accepts with a non-zero quality are chosen.
 */
async function negotiate(file, acceptEncoding = '') {
  const accepted = new Set(
    acceptEncoding
      .split(',')
      .map((part) => part.trim().split(';'))
      .filter(([, q]) => !q || Number(q.trim().replace(/^q=/, '')) > 0)
      .map(([name]) => name.trim().toLowerCase()),
  );
  for (const [encoding, suffix] of [['br', '.br'], ['gzip', '.gz']]) {
    if (!accepted.has(encoding)) continue;
    try {
      if ((await stat(file + suffix)).isFile()) return { path: file + suffix, encoding };
    } catch {
      // No copy in that encoding: try the next.
    }
  }
  return { path: file, encoding: null };
}

/**
 * Serves `root` on 127.0.0.1:`port` (0 picks a free port).
 * Resolves to { url, requests, close }, where `requests` lists every request path received.
 * `extraRoutes` maps a path prefix to another folder (tests use it to serve a parent page).
 */
export async function startServer(root, port = 0, extraRoutes = {}) {
  const base = resolve(root);
  const requests = [];
  const server = createServer(async (request, response) => {
    const path = decodeURIComponent(new URL(request.url, 'http://127.0.0.1').pathname);
    requests.push(path);
    let folder = base;
    let relative = path;
    for (const [prefix, dir] of Object.entries(extraRoutes)) {
      if (path.startsWith(prefix)) {
        folder = resolve(dir);
        relative = path.slice(prefix.length - 1);
      }
    }
    const file = normalize(join(folder, relative.endsWith('/') ? `${relative}index.html` : relative));
    if (file !== folder && !file.startsWith(folder + sep)) {
      response.writeHead(403).end();
      return;
    }
    try {
      const info = await stat(file);
      if (!info.isFile()) throw new Error('not a file');
      const chosen = await negotiate(file, request.headers['accept-encoding']);
      const body = await readFile(chosen.path);
      response.writeHead(200, {
        'Content-Type': TYPES[extname(file)] ?? 'application/octet-stream',
        'Cache-Control': 'no-cache',
        Vary: 'Accept-Encoding',
        ...(chosen.encoding ? { 'Content-Encoding': chosen.encoding } : {}),
        // A course page may embed the app in <iframe sandbox="allow-scripts">, whose opaque
        // origin needs CORS to load the app's own module script and wasm.
        'Access-Control-Allow-Origin': '*',
      });
      response.end(body);
    } catch {
      response.writeHead(404, { 'Content-Type': 'text/plain; charset=utf-8' }).end('Not found');
    }
  });
  // Node closes an idle kept-alive connection after 5 s; a client reusing it at that moment
  // reads ECONNRESET (seen in e2e: Playwright's route.fetch after a 5-s accessibility check).
  server.keepAliveTimeout = 120_000;
  await new Promise((done) => server.listen(port, '127.0.0.1', done));
  const url = `http://127.0.0.1:${server.address().port}`;
  return {
    url,
    requests,
    close: () => new Promise((done) => server.close(done)),
  };
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  const [root = 'dist', port = '8080'] = process.argv.slice(2);
  const { url } = await startServer(root, Number(port));
  console.log(`Lease Lab is being served at ${url}/ (Ctrl+C stops it)`);
}
