// How soon the lesson is readable and interactive, next to a static page of the same lesson
// text, in one run: fresh browser contexts (empty cache), loads alternated in a rotating
// order, median of N each. Also the layout shift (CLS) from hydration and the lab's
// arrival (at desktop and phone width, and in a tall window), and how soon a link straight
// into the Sandbox has a working laboratory, against an older build when `--baseline DIR`
// is given (the budget: at most 1.3 times its time).
//
// The static page is this build's index.html with every script removed: the pre-rendered
// lesson and the style sheets, nothing to run, showing the first tab's panel only. Times are
// read in the page, from navigation start, by performance.now() in the first animation frame
// in which the condition holds (not the frame's own timestamp, which is taken when the frame
// was due and so can fall before a long task that made the condition true):
//   text visible   the Gist tab's first heading is laid out and visible;
//   interactive    static page: its load event; this build: <html data-hydrated> (set by
//                  the main wasm once hydrated); a build without pre-rendering: the tabs exist;
//   lab ready      a Play (or Pause) button is there and enabled.
// Usage: node scripts/load-timing.mjs [dist] [--baseline DIR] [--runs N]
// Exits 1 when a budget is missed. Measure on a quiet machine: other work makes it noise.
import { chromium } from '@playwright/test';
import { copyFileSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { startServer } from '../tools/static-server.mjs';

const args = process.argv.slice(2);
const option = (name, fallback) => {
  const at = args.indexOf(name);
  return at >= 0 ? args[at + 1] : fallback;
};
const positional = args.filter((arg, i) => !arg.startsWith('--') && !args[i - 1]?.startsWith('--'));
const dist = positional[0] ?? 'dist';
const baselineDist = option('--baseline', null);
const runs = Number(option('--runs', 9));
const SANDBOX_LINK = '#/sandbox?v=1&preset=1';
const BUDGET = { text: 1.2, interactive: 2.0, cls: 0.02, sandbox: 1.3 };

const html = readFileSync(join(dist, 'index.html'), 'utf8');
const firstHeading = /<h2\b[^>]*>([\s\S]*?)<\/h2>/.exec(html);
if (!firstHeading) {
  console.error(`load-timing: ${dist}/index.html has no pre-rendered heading to wait for`);
  process.exit(2);
}
const decode = (text) =>
  text.replace(/<[^>]+>/g, '').replace(/&lt;/g, '<').replace(/&gt;/g, '>').replace(/&quot;/g, '"')
    .replace(/&#39;/g, "'").replace(/&amp;/g, '&').replace(/\s+/g, ' ').trim();
const HEADING = decode(firstHeading[1]);

/** This build's page without its scripts, with the style sheets it links, in a folder. */
function staticCopy() {
  const folder = mkdtempSync(join(tmpdir(), 'lease-lab-static-'));
  // The same first view as the app's: only the first tab's panel shows (by CSS alone).
  const page = html
    .replace(/<script\b[\s\S]*?<\/script>/g, '')
    .replace(/<link\b[^>]*rel="(?:modulepreload|preload)"[^>]*>/g, '')
    .replace('</head>', '<style>.panel ~ .panel { display: none }</style></head>');
  writeFileSync(join(folder, 'index.html'), page);
  for (const [, href] of page.matchAll(/<link\b[^>]*rel="stylesheet"[^>]*href="\.?\/?([^"]+)"/g)) {
    copyFileSync(join(dist, href), join(folder, href));
  }
  return folder;
}

// Runs in every page before its own scripts; `kind` says what "interactive" means there.
function probe({ heading, kind }) {
  const found = { text: null, interactive: null, lab: null, cls: 0 };
  window.__loadProbe = found;
  new PerformanceObserver((list) => {
    for (const entry of list.getEntries()) if (!entry.hadRecentInput) found.cls += entry.value;
  }).observe({ type: 'layout-shift', buffered: true });
  const visible = (element) => {
    const box = element.getBoundingClientRect();
    return box.width > 0 && box.height > 0 && element.checkVisibility({ visibilityProperty: true });
  };
  const headingShown = () =>
    [...document.querySelectorAll('h2')].some((h) => h.textContent.replace(/\s+/g, ' ').trim() === heading && visible(h));
  const interactive = () => {
    if (kind === 'static') return document.readyState === 'complete';
    if (kind === 'prerendered') return document.documentElement.hasAttribute('data-hydrated');
    return document.querySelector('[role="tab"]') !== null;
  };
  const labReady = () =>
    [...document.querySelectorAll('button')].some((b) => /^(Play|Pause)$/.test(b.textContent.trim()) && !b.disabled && visible(b));
  const tick = () => {
    const now = performance.now();
    if (found.text === null && headingShown()) found.text = now;
    if (found.interactive === null && interactive()) found.interactive = now;
    if (found.lab === null && labReady()) found.lab = now;
    requestAnimationFrame(tick);
  };
  requestAnimationFrame(tick);
}

const staticFolder = staticCopy();
const server = await startServer(dist, 0, { '/static/': staticFolder });
const baseline = baselineDist ? await startServer(baselineDist, 0) : null;
const kindOf = (folder) => (readFileSync(join(folder, 'index.html'), 'utf8').includes('role="tab"') ? 'prerendered' : 'client');
const browser = await chromium.launch({
  executablePath: process.env.CHROMIUM ?? '/usr/bin/chromium',
  args: ['--no-sandbox', '--disable-gpu', '--disable-dev-shm-usage', '--disable-background-networking'],
});

/** One fresh-context load; resolves to the probe's figures once `until` has all been seen. */
async function load(url, kind, until, viewport = DESKTOP) {
  const context = await browser.newContext({ viewport });
  await context.addInitScript(probe, { heading: HEADING, kind });
  const page = await context.newPage();
  await page.goto(url);
  await page.waitForFunction((keys) => keys.every((key) => window.__loadProbe[key] !== null), until, { timeout: 30_000 });
  await page.waitForTimeout(500); // late shifts (the lab's arrival) still count
  const figures = await page.evaluate(() => ({ ...window.__loadProbe }));
  await context.close();
  return figures;
}

const DESKTOP = { width: 1280, height: 800 };
// Layout shift also at a phone's width and in a window tall enough to show the page's end
// under the lab's mount: what moves depends on what the first screen holds.
const PHONE = { width: 390, height: 844 };
const TALL = { width: 1920, height: 1600 };
const targets = [
  { name: 'static page', url: `${server.url}/static/`, kind: 'static', until: ['text', 'interactive'] },
  { name: 'Lease Lab', url: `${server.url}/`, kind: kindOf(dist), until: ['text', 'interactive'] },
  { name: 'Sandbox link', url: `${server.url}/${SANDBOX_LINK}`, kind: kindOf(dist), until: ['interactive', 'lab'] },
  { name: 'Lease Lab, phone', url: `${server.url}/`, kind: kindOf(dist), until: ['text', 'interactive'], viewport: PHONE },
  { name: 'Sandbox link, phone', url: `${server.url}/${SANDBOX_LINK}`, kind: kindOf(dist), until: ['interactive', 'lab'], viewport: PHONE },
  { name: 'Sandbox link, tall window', url: `${server.url}/${SANDBOX_LINK}`, kind: kindOf(dist), until: ['interactive', 'lab'], viewport: TALL },
];
if (baseline) {
  targets.push({ name: 'Sandbox link, baseline', url: `${baseline.url}/${SANDBOX_LINK}`, kind: kindOf(baselineDist), until: ['interactive', 'lab'] });
}
const results = Object.fromEntries(targets.map((t) => [t.name, []]));
for (let round = 0; round < runs; round += 1) {
  for (let i = 0; i < targets.length; i += 1) {
    const target = targets[(round + i) % targets.length];
    results[target.name].push(await load(target.url, target.kind, target.until, target.viewport));
  }
}
await browser.close();
await server.close();
await baseline?.close();

const median = (values) => {
  const sorted = values.filter((v) => v !== null).sort((a, b) => a - b);
  return sorted.length % 2 ? sorted[(sorted.length - 1) / 2] : (sorted[sorted.length / 2 - 1] + sorted[sorted.length / 2]) / 2;
};
const ms = (value) => `${value.toFixed(0)} ms`;
const of = (name, key) => median(results[name].map((r) => r[key]));
const worstCls = (name) => Math.max(...results[name].map((r) => r.cls));

console.log(`load timing: median of ${runs} fresh-context loads each, alternated (heading waited for: "${HEADING}")`);
const checks = [];
const ratio = (label, value, base, budget) => {
  const r = value / base;
  checks.push({ label, ok: r <= budget });
  console.log(`${label}: ${ms(value)} vs ${ms(base)} = ${r.toFixed(2)}x (budget <= ${budget}x) ${r <= budget ? 'within' : 'MISSED'}`);
};
ratio('text visible, Lease Lab vs static page', of('Lease Lab', 'text'), of('static page', 'text'), BUDGET.text);
ratio('interactive, Lease Lab vs static page', of('Lease Lab', 'interactive'), of('static page', 'interactive'), BUDGET.interactive);
for (const name of ['Lease Lab', 'Sandbox link', 'Lease Lab, phone', 'Sandbox link, phone', 'Sandbox link, tall window']) {
  const cls = worstCls(name);
  checks.push({ ok: cls < BUDGET.cls });
  console.log(`layout shift (CLS, worst of ${runs}), ${name}: ${cls.toFixed(4)} (budget < ${BUDGET.cls}) ${cls < BUDGET.cls ? 'within' : 'MISSED'}`);
}
if (baseline) {
  ratio('Sandbox link, lab ready, this build vs baseline', of('Sandbox link', 'lab'), of('Sandbox link, baseline', 'lab'), BUDGET.sandbox);
} else {
  console.log(`Sandbox link, lab ready: ${ms(of('Sandbox link', 'lab'))} (no --baseline build to compare with)`);
}
process.exit(checks.every((c) => c.ok) ? 0 : 1);
