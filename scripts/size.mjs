// Prints every file of a build with its raw, gzip and brotli size, then the first-load
// total: index.html, what it references, and what those scripts import statically.
// Files loaded later (engines fetched by dynamic import or on demand) are totalled apart,
// and the counterexample search's worker (search_worker*, loaded when a search starts) apart again.
import { readFileSync, readdirSync, statSync } from 'node:fs';
import { dirname, join, normalize, relative } from 'node:path';
import { gzipSync, brotliCompressSync, constants } from 'node:zlib';

const root = process.argv[2] ?? 'dist';

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

function firstLoadFiles() {
  const found = new Set();
  const visit = (file) => {
    const path = normalize(file);
    if (found.has(path)) return;
    try {
      if (!statSync(path).isFile()) return;
    } catch {
      return;
    }
    found.add(path);
    const text = readFileSync(path, 'utf8');
    const references = path.endsWith('.html')
      ? [...text.matchAll(/\s(?:href|src)="([^"#?]+)"/g)].map((m) => m[1])
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

const kb = (n) => (n / 1024).toFixed(1).padStart(8);
// The .br and .gz copies beside each file (tools/precompress.mjs) are what a server sends,
// not more files: the table measures the originals.
const files = walk(root)
  .filter((file) => !/\.(br|gz)$/.test(file))
  .sort();
const initial = firstLoadFiles();
const totals = {
  first: { raw: 0, gzip: 0, brotli: 0 },
  later: { raw: 0, gzip: 0, brotli: 0 },
  worker: { raw: 0, gzip: 0, brotli: 0 },
};
const isSearchWorker = (file) => relative(root, file).startsWith('search_worker');

console.log(`${'file'.padEnd(60)}      raw KB  gzip KB  brotli KB  load`);
for (const file of files) {
  const s = sizes(file);
  const bucket = initial.has(normalize(file)) ? 'first' : isSearchWorker(file) ? 'worker' : 'later';
  for (const key of ['raw', 'gzip', 'brotli']) totals[bucket][key] += s[key];
  const name = relative(root, file);
  console.log(`${name.padEnd(60).slice(0, 60)} ${kb(s.raw)} ${kb(s.gzip)} ${kb(s.brotli)}   ${bucket}`);
}
console.log('');
console.log(
  `first load: ${kb(totals.first.raw).trim()} KB raw, ${kb(totals.first.gzip).trim()} KB gzip, ${kb(totals.first.brotli).trim()} KB brotli (${initial.size} files; budget 250 KB gzip)`,
);
console.log(
  `loaded on demand: ${kb(totals.later.raw).trim()} KB raw, ${kb(totals.later.gzip).trim()} KB gzip, ${kb(totals.later.brotli).trim()} KB brotli`,
);
console.log(
  `search worker (on the first search): ${kb(totals.worker.raw).trim()} KB raw, ${kb(totals.worker.gzip).trim()} KB gzip, ${kb(totals.worker.brotli).trim()} KB brotli`,
);
