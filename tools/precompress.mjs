// Writes a brotli (quality 11) and a gzip (level 9) copy beside every compressible file of a
// build, so a server can send the smallest one the browser accepts (tools/static-server.mjs
// does). A host that ignores them still serves the plain files. Runs as Trunk's last
// post-build step, on the staging folder, or by hand: `node tools/precompress.mjs dist`.
import { createHash } from 'node:crypto';
import { existsSync, mkdirSync, readdirSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { dirname, extname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { brotliCompressSync, constants, gzipSync } from 'node:zlib';

/** Text and wasm compress well; zip archives and images are already compressed. */
export const COMPRESSIBLE = new Set(['.html', '.js', '.mjs', '.css', '.wasm', '.json', '.svg', '.txt', '.py', '.ts']);

/** Below this a compressed copy saves less than its headers cost. */
const MIN_BYTES = 1024;

/** Brotli 11 takes seconds on the Python engine, so each result is kept by content hash. */
const CACHE = join(dirname(fileURLToPath(import.meta.url)), '..', 'target', 'precompress');

function cached(bytes, suffix, compress) {
  const key = createHash('sha256').update(bytes).digest('hex');
  const path = join(CACHE, `${key}${suffix}`);
  if (existsSync(path)) return readFileSync(path);
  const result = compress(bytes);
  mkdirSync(CACHE, { recursive: true });
  writeFileSync(path, result);
  return result;
}

const brotli = (bytes) =>
  brotliCompressSync(bytes, {
    params: {
      [constants.BROTLI_PARAM_QUALITY]: 11,
      [constants.BROTLI_PARAM_SIZE_HINT]: bytes.length,
    },
  });
const gzip = (bytes) => gzipSync(bytes, { level: 9 });

function walk(dir) {
  return readdirSync(dir).flatMap((name) => {
    const path = join(dir, name);
    return statSync(path).isDirectory() ? walk(path) : [path];
  });
}

/** Compresses every eligible file under `root`; returns how many files it wrote copies of. */
export function precompress(root) {
  let count = 0;
  for (const file of walk(root)) {
    if (!COMPRESSIBLE.has(extname(file))) continue;
    const bytes = readFileSync(file);
    if (bytes.length < MIN_BYTES) continue;
    writeFileSync(`${file}.br`, cached(bytes, '.br', brotli));
    writeFileSync(`${file}.gz`, cached(bytes, '.gz', gzip));
    count += 1;
  }
  return count;
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  const root = process.argv[2] ?? process.env.TRUNK_STAGING_DIR ?? 'dist';
  const count = precompress(root);
  console.log(`precompressed ${count} files in ${root} (.br and .gz beside each)`);
}
