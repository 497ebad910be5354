// Trunk's post-build step. Trunk starts every hook of a stage at once, so the steps that
// must run in order live here, one after another, on the staging folder.
import { execFileSync } from 'node:child_process';
import { readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { withPolicy } from './csp.mjs';
import { precompress } from './precompress.mjs';

const staging = process.env.TRUNK_STAGING_DIR ?? process.argv[2] ?? 'dist';

// The laboratory's stylesheet (its own and the snippets'), loaded with its module by
// www/shell/lab-loader.js.
writeFileSync(
  join(staging, 'lab.css'),
  ['www/lab.css', 'www/snippets/snippets.css'].map((file) => readFileSync(file, 'utf8')).join('\n'),
);

// The lesson, pre-rendered by the app's own components (src/bin/prerender.rs), goes into
// #app; the first-paint and course-detection scripts into the head, and links to each panel
// for readers without JavaScript before it. All of it before the policy, which hashes the inline scripts.
const index = join(staging, 'index.html');
writeFileSync(index, withPolicy(withInlineStyle(withPrerender(readFileSync(index, 'utf8')))));

/**
 * The lesson's style sheet, inlined where Trunk linked it: a linked sheet holds up the first
 * paint by a request of its own (`make load-timing --levers` measures it). Its file goes.
 */
function withInlineStyle(html) {
  const link = /<link\b[^>]*rel="stylesheet"[^>]*href="\.?\/?(app-[^"/]+\.css)"[^>]*>/;
  const found = link.exec(html);
  if (!found) throw new Error('index.html links no app-*.css style sheet to inline');
  const sheet = join(staging, found[1]);
  const css = readFileSync(sheet, 'utf8');
  if (css.includes('</style')) throw new Error(`${found[1]} cannot be inlined: it contains </style`);
  rmSync(sheet);
  return html.replace(link, () => `<style>${css}</style>`);
}

function withPrerender(html) {
  const output = execFileSync('cargo', ['run', '--quiet', '--features', 'prerender', '--bin', 'prerender'], {
    encoding: 'utf8',
    maxBuffer: 64 << 20,
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  const newline = output.indexOf('\n');
  const tabs = JSON.parse(output.slice(0, newline));
  const app = output.slice(newline + 1).trim();
  const { page, lessonModule } = compiledEarly(html);
  const firstPaint = readFileSync('www/shell/first-paint.js', 'utf8')
    .replace('const tabs = TAB_SLUGS;', `const tabs = ${JSON.stringify(tabs.map(([slug]) => slug))};`)
    .replace('const lessonModule = LESSON_MODULE;', `const lessonModule = ${JSON.stringify(lessonModule)};`);
  // Finds a course platform's API; only then is the course bridge loaded. Its comments stay
  // in the source: every page carries this script.
  const courseDetect = readFileSync('www/shell/course-detect.js', 'utf8').replace(/^\s*\/\/.*\n/gm, '');
  const links = tabs.map(([slug, label]) => `<a href="#panel-${slug}">${escapeHtml(label)}</a>`).join(' · ');
  const appElement = /<div id="app">[\s\S]*?<\/div>(?=\s*<\/body>)/;
  if (!appElement.test(page)) throw new Error('index.html has no <div id="app"> at the end of its body');
  return page
    .replace('</head>', `<script>${firstPaint}</script>\n<script>${courseDetect}</script>\n</head>`)
    .replace(appElement, () =>
      `<noscript><nav class="noscript-tabs" aria-label="Lesson sections">${links}</nav></noscript>\n  <div id="app">${app}</div>`);
}

/**
 * The first-paint script preloads and imports the lesson's scripts and compiles its wasm
 * itself, when the link says (a Sandbox link's come after the laboratory's): Trunk's preloads
 * go, and Trunk's start-up script takes script and wasm from it (or, where it is not there,
 * fetches them).
 */
function compiledEarly(html) {
  const preload = /<link rel="preload" href="([^"]+_bg\.wasm)"[^>]*\bintegrity="([^"]+)"[^>]*>\n?/.exec(html);
  if (!preload) throw new Error("index.html has no preload of the lesson's wasm to take over");
  const [link, wasm, integrity] = preload;
  const start = `init({ module_or_path: '${wasm}' })`;
  if (!html.includes(start)) throw new Error(`Trunk's start-up script no longer reads ${start}`);
  const imported = /import init, \* as bindings from '([^']+\.js)';/.exec(html);
  if (!imported) throw new Error("Trunk's start-up script no longer imports the lesson's script as init and bindings");
  const [statement, script] = imported;
  const modulePreloads = [...html.matchAll(/<link rel="modulepreload" href="([^"]+)"[^>]*\bintegrity="([^"]+)"[^>]*>\n?/g)];
  if (!modulePreloads.some(([, href]) => href === script)) throw new Error("index.html has no modulepreload of the lesson's script to take over");
  // Trunk preloads every snippet of the crate; the lesson's script imports only some.
  const lessonImports = new Set(
    [...readFileSync(join(staging, script), 'utf8').matchAll(/^import\b[^'"]*from\s*'\.\/([^']+)'/gm)].map((m) => `./${m[1]}`),
  );
  const preloads = modulePreloads
    .filter(([, href]) => href === script || lessonImports.has(href))
    .map(([, href, integrity]) => ({ href, integrity }));
  const page = modulePreloads
    .reduce((page, [tag]) => page.replace(tag, ''), html)
    .replace(link, '')
    .replace(statement, `const bindings = await (window.leaseLabWasm?.lessonScript ?? import('${script}'));\nconst init = bindings.default;`)
    .replace(start, `init({ module_or_path: window.leaseLabWasm?.lesson ?? '${wasm}' })`);
  return { page, lessonModule: { script, preloads, wasm, integrity } };
}

function escapeHtml(text) {
  return text.replaceAll('&', '&amp;').replaceAll('<', '&lt;');
}

// Compression comes last: it must see every file in its final form.
const count = precompress(staging);
console.log(`post-build: policy added to index.html; precompressed ${count} files (.br and .gz beside each)`);
