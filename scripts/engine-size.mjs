// Prints the lazily loaded parts of "Your client" (raw and gzip) from a build, grouped by
// what pulls them in. Their speed in the page is scripts/client-bench.mjs (`make bench`).
// Usage: node scripts/engine-size.mjs [dist]
import { readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { gzipSync } from 'node:zlib';

const root = process.argv[2] ?? 'dist';
const GROUPS = [
  ['Python (Pyodide), fetched on the first Python run', [
    'vendor/pyodide/pyodide.mjs',
    'vendor/pyodide/pyodide.asm.mjs',
    'vendor/pyodide/pyodide.asm.wasm',
    'vendor/pyodide/python_stdlib.zip',
    'vendor/pyodide/pyodide-lock.json',
  ]],
  ['TypeScript (sucrase), fetched on the first TypeScript run', ['vendor/sucrase.js']],
  ['Sandbox runner, worker and client runtime, fetched on the first run', [
    'sandbox/runner.js',
    'sandbox/worker.js',
    'sandbox/client-runtime.js',
  ]],
  ["The lab's engine for your client, handed into the sandbox on the first run", [
    'client_worker.js',
    'client_worker_bg.wasm',
  ]],
  ['Editor (CodeMirror 6), imported when Your client opens', ['vendor/editor.js']],
];

const kb = (bytes) => `${(bytes / 1024).toFixed(1)} KB`.padStart(11);
for (const [title, files] of GROUPS) {
  console.log(title);
  let raw = 0;
  let gzip = 0;
  for (const file of files) {
    const path = join(root, file);
    try {
      statSync(path);
    } catch {
      console.error(`  missing: ${path} (build first: trunk build --release)`);
      process.exitCode = 1;
      continue;
    }
    const bytes = readFileSync(path);
    const zipped = gzipSync(bytes, { level: 9 }).length;
    raw += bytes.length;
    gzip += zipped;
    console.log(`  ${file.padEnd(36)} raw ${kb(bytes.length)}  gzip ${kb(zipped)}`);
  }
  console.log(`  ${'total'.padEnd(36)} raw ${kb(raw)}  gzip ${kb(gzip)}\n`);
}
