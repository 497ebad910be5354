// Prints every file of a build with its raw, gzip and brotli size, sorted into what loads
// when, and checks the first-load budgets (exits 1 when one is exceeded):
// - readable: index.html and the style sheets it links: the pre-rendered lesson is
//   readable once these have arrived;
// - interactive: everything index.html references and what those scripts import
//   statically (HTML, JS, the main wasm, CSS): the lesson's tabs, diagrams, Q&A and voice.
// Files loaded later are totalled apart: the laboratory module (lab*, imported when the
// Sandbox opens or at idle), the search worker (search_worker*, on the first search), the
// live-mode worker (live_worker*, when live mode starts), the course bridge (course/, only in
// a SCORM package) and the rest (snippet engines
// and runner, fetched on the first run; `node scripts/engine-size.mjs` details them).
// KB here means 1024 bytes; gzip is level 9, brotli quality 11 (as tools/precompress.mjs).
import { readFileSync, readdirSync, statSync } from 'node:fs';
import { dirname, join, normalize, relative } from 'node:path';
import { gzipSync, brotliCompressSync, constants } from 'node:zlib';

const root = process.argv[2] ?? 'dist';
const BUDGETS_GZIP_KB = { readable: 30, interactive: 150 };

function walk(dir) {
  return readdirSync(dir).flatMap((name) => {
    const path = join(dir, name);
    return statSync(path).isDirectory() ? walk(path) : [path];
  });
}

function sizes(path) {
  const bytes = readFileSync(path);
  return {
    raw: bytes.length,
    gzip: gzipSync(bytes, { level: 9 }).length,
    brotli: brotliCompressSync(bytes, { params: { [constants.BROTLI_PARAM_QUALITY]: 11 } }).length,
  };
}

const isFile = (path) => {
  try {
    return statSync(path).isFile();
  } catch {
    return false;
  }
};

/** The files a fresh load of index.html fetches before anything is asked for. */
function firstLoadFiles() {
  const found = new Set();
  const visit = (file) => {
    const path = normalize(file);
    if (found.has(path) || !isFile(path)) return;
    found.add(path);
    const text = readFileSync(path, 'utf8');
    // The page's start-up script names the lesson's script in its import() and its wasm in
    // its init call (the first-paint script preloads one and compiles the other; there is
    // no preload link for either in the page).
    const references = path.endsWith('.html')
      ? [
          ...[...text.matchAll(/\s(?:href|src)="([^"#?]+)"/g)].map((m) => m[1]),
          ...[...text.matchAll(/\bimport\(\s*['"]([^'"]+\.js)['"]\s*\)/g)].map((m) => m[1]),
          ...[...text.matchAll(/module_or_path:[^'"]*['"]([^'"]+\.wasm)['"]/g)].map((m) => m[1]),
        ]
      : path.endsWith('.js') || path.endsWith('.mjs')
        ? [
            ...[...text.matchAll(/(?:^|[\s;])(?:import|export)\s[^'"]*?from\s*['"]([^'"]+)['"]/g)].map((m) => m[1]),
            ...[...text.matchAll(/(?:^|[\s;])import\s*['"]([^'"]+)['"]/g)].map((m) => m[1]),
            ...[...text.matchAll(/new URL\(\s*['"]([^'"]+\.wasm)['"]/g)].map((m) => m[1]),
          ]
        : [];
    for (const reference of references) {
      if (/^[a-z]+:/i.test(reference)) continue;
      visit(join(dirname(path), reference));
    }
  };
  visit(join(root, 'index.html'));
  return found;
}

/** index.html and the style sheets it links: what the pre-rendered lesson needs to be read. */
function readableFiles() {
  const index = join(root, 'index.html');
  const html = readFileSync(index, 'utf8');
  const sheets = [...html.matchAll(/<link\b[^>]*>/g)]
    .map((m) => m[0])
    .filter((tag) => /\brel="stylesheet"/.test(tag))
    .map((tag) => /\bhref="([^"#?]+)"/.exec(tag)?.[1])
    .filter((href) => href && !/^[a-z]+:/i.test(href))
    .map((href) => normalize(join(root, href)));
  return new Set([normalize(index), ...sheets.filter(isFile)]);
}

const LATER = [
  ['lab', 'the laboratory module (when the Sandbox opens, a link points into it, or at idle)', /^lab[-_.]/],
  ['search', 'the search worker (on the first search)', /^search_worker/],
  ['live', 'the live-mode worker (when live mode starts)', /^live_worker/],
  ['client', "Your client's engine (handed into the snippet sandbox on the first run)", /^client_worker/],
  ['course', 'the course bridge (only in a course package, launched by a learning platform)', /^course\//],
  ['later', 'the rest, fetched on demand (snippet engines and runner)', /./],
];

const kb = (n) => (n / 1024).toFixed(1);
const zero = () => ({ raw: 0, gzip: 0, brotli: 0, files: 0 });
const add = (total, s) => {
  for (const key of ['raw', 'gzip', 'brotli']) total[key] += s[key];
  total.files += 1;
};

// The .br and .gz copies beside each file (tools/precompress.mjs) are what a server sends,
// not more files: the table measures the originals.
const files = walk(root)
  .filter((file) => !/\.(br|gz)$/.test(file))
  .sort();
const initial = firstLoadFiles();
const readable = readableFiles();
const totals = Object.fromEntries(['readable', 'interactive', ...LATER.map(([key]) => key)].map((key) => [key, zero()]));

console.log(`${'file'.padEnd(60)}      raw KB  gzip KB  brotli KB  load`);
for (const file of files) {
  const s = sizes(file);
  const name = relative(root, file);
  const path = normalize(file);
  let bucket;
  if (initial.has(path) || readable.has(path)) {
    bucket = readable.has(path) ? 'readable' : 'interactive';
    add(totals.interactive, s);
    if (readable.has(path)) add(totals.readable, s);
  } else {
    bucket = LATER.find(([, , pattern]) => pattern.test(name))[0];
    add(totals[bucket], s);
  }
  console.log(`${name.padEnd(60).slice(0, 60)} ${kb(s.raw).padStart(8)} ${kb(s.gzip).padStart(8)} ${kb(s.brotli).padStart(8)}   ${bucket}`);
}

const line = (title, t) =>
  `${title}: ${kb(t.raw)} KB raw, ${kb(t.gzip)} KB gzip, ${kb(t.brotli)} KB brotli (${t.files} files)`;
console.log('');
let failed = false;
for (const [key, title] of [
  ['readable', 'lesson readable (HTML + CSS)'],
  ['interactive', 'lesson interactive (HTML + JS + wasm + CSS)'],
]) {
  const budget = BUDGETS_GZIP_KB[key];
  const over = totals[key].gzip > budget * 1024;
  failed ||= over;
  console.log(`${line(title, totals[key])}; budget ${budget} KB gzip: ${over ? 'EXCEEDED' : 'within'}`);
}
for (const [key, title] of LATER) console.log(line(title, totals[key]));
if (failed) {
  console.error('\nsize: a first-load budget is exceeded (see above)');
  process.exit(1);
}
