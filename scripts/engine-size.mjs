// Prints the lazily loaded snippet engines' sizes (raw and gzip) from a build, grouped by
// what pulls them in. With --timings it also opens the build in headless Chromium and
// measures Python's first load, a warm Python run, the first TypeScript run, how soon an
// endless loop is stopped after its time limit, and sucrase's transform time.
// Usage: node scripts/engine-size.mjs [dist] [--timings]
import { readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { gzipSync } from 'node:zlib';

const args = process.argv.slice(2);
const root = args.find((arg) => !arg.startsWith('--')) ?? 'dist';
const GROUPS = [
  ['Python (Pyodide), fetched on the first Python run', [
    'vendor/pyodide/pyodide.mjs',
    'vendor/pyodide/pyodide.asm.mjs',
    'vendor/pyodide/pyodide.asm.wasm',
    'vendor/pyodide/python_stdlib.zip',
    'vendor/pyodide/pyodide-lock.json',
  ]],
  ['TypeScript (sucrase), fetched on the first TypeScript run', ['vendor/sucrase.js']],
  ['Sandbox runner and worker, fetched on the first run', ['sandbox/runner.js', 'sandbox/worker.js']],
  ['Editor (CodeMirror 6), imported when the Sandbox tab shows the snippets', ['vendor/editor.js']],
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

if (args.includes('--timings')) await measureTimings();

async function measureTimings() {
  const { chromium } = await import('@playwright/test');
  const { startServer } = await import('../tools/static-server.mjs');
  const server = await startServer(root, 0);
  const browser = await chromium.launch({
    executablePath: process.env.CHROMIUM ?? '/usr/bin/chromium',
    args: ['--no-sandbox', '--disable-gpu', '--disable-dev-shm-usage'],
  });
  try {
    const page = await browser.newPage();
    await page.goto(`${server.url}/`);
    // Drives the same runner the panels use; resolves with the times the run reported.
    const run = (language, code, limitMs = 10_000) =>
      page.evaluate(
        async ([language, code, limitMs]) => {
          const runner = await import(new URL('sandbox/runner.js', document.baseURI).href);
          const clicked = performance.now();
          return new Promise((resolve) => {
            let running = 0;
            runner.startRun(language, code, limitMs, (kind, text, number) => {
              if (kind === 'status' && text === 'Running…') running = performance.now();
              if (kind === 'end') {
                resolve({ outcome: text, untilRunning: (running || performance.now()) - clicked, codeMs: number });
              }
            });
          });
        },
        [language, code, limitMs],
      );
    const python = readFileSync('www/snippets/lost_flag.py', 'utf8');
    const typescript = readFileSync('www/snippets/lost_flag.ts', 'utf8');
    const report = (label, result) =>
      console.log(`  ${label.padEnd(44)} ${Math.round(result.untilRunning)} ms to start, code ran ${result.codeMs} ms (${result.outcome})`);
    console.log('Load times (headless Chromium, localhost, this machine)');
    report('Python, first run (download + start-up)', await run('python', python));
    await page.waitForTimeout(6000); // the warm worker starts after a run; let it finish
    report('Python, next run (warm worker)', await run('python', python));
    report('TypeScript, first run (download + start-up)', await run('typescript', typescript));
    for (const [language, loop] of [['python', 'while True: pass'], ['typescript', 'for (;;) {}']]) {
      const stopped = await run(language, loop, 1000);
      console.log(`  ${`${language} endless loop, 1 s limit`.padEnd(44)} stopped ${stopped.codeMs - 1000} ms after the limit (${stopped.outcome})`);
      await page.waitForTimeout(4000);
    }
    const transformMs = await page.evaluate(async (code) => {
      await new Promise((loaded) => {
        const script = document.createElement('script');
        script.src = new URL('vendor/sucrase.js', document.baseURI).href;
        script.onload = loaded;
        document.head.append(script);
      });
      const times = [];
      for (let i = 0; i < 5; i += 1) {
        const start = performance.now();
        window.sucrase.transform(code, { transforms: ['typescript'], disableESTransforms: true });
        times.push(performance.now() - start);
      }
      return { first: times[0], best: Math.min(...times) };
    }, typescript);
    console.log(`  ${'sucrase transform of lost_flag.ts'.padEnd(44)} first ${transformMs.first.toFixed(1)} ms, then ${transformMs.best.toFixed(1)} ms`);
  } finally {
    await browser.close();
    await server.close();
  }
}
