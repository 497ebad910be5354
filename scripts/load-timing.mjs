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
//   first paint    first contentful paint, as the browser reports it (`paint` entries).
// First paint is also compared with a bare static page (a heading and a line), with this
// build's page without its scripts, and with that page without its style sheet too, all in
// the same run. Then a slow profile (CDP: 1.6 Mbit/s down, 150 ms round trip, the CPU 4
// times slower) times first paint and hydration of the lesson and a Sandbox link's lab
// ready, against absolute goals.
// With --levers, first paint is also taken for variants of the page without scripts, each
// one lever changed (the style sheet inlined; its shadows dropped; its light-dark() colours
// resolved to the light one; the closed tabs' panels left out of the DOM), to see what each
// would buy before building it into the page.
// Usage: node scripts/load-timing.mjs [dist] [--baseline DIR] [--runs N] [--levers]
// Exits 1 when a budget is missed. Measure on a quiet machine: other work makes it noise.
import { chromium } from '@playwright/test';
import { copyFileSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
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
const levers = args.includes('--levers');
const SANDBOX_LINK = '#/sandbox?v=1&preset=1';
const BUDGET = { text: 1.2, interactive: 2.0, cls: 0.02, sandbox: 1.3, paint: 1.5 };
// The slow profile's goals, in ms from navigation start.
const SLOW_GOALS = { paint: 600, interactive: 1200, lab: 2500 };
const SLOW_NETWORK = { offline: false, latency: 150, downloadThroughput: 1_600_000 / 8, uploadThroughput: 750_000 / 8 };
const SLOW_CPU = 4;
const BARE_PAGE =
  '<!doctype html><html lang="en"><head><meta charset="utf-8"><title>Lease Lab</title></head>' +
  '<body><h1>Lease Lab</h1><p>How you know you still hold the lease.</p></body></html>';

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
  // The same without its style sheets: what the style sheet costs the first paint. The build
  // inlines the lesson's sheet as the page's first <style> (tools/post-build.mjs); the rule
  // added above, which keeps the first view, stays.
  writeFileSync(
    join(folder, 'unstyled.html'),
    page.replace(/<link\b[^>]*rel="stylesheet"[^>]*>/g, '').replace(/<style>[\s\S]*?<\/style>(?=[\s\S]*<style>\.panel ~ \.panel)/, ''),
  );
  writeFileSync(join(folder, 'bare.html'), BARE_PAGE);
  if (levers) writeLevers(folder, page);
  return folder;
}

/** Replaces each `light-dark(a, b)` in `css` with `a` (nested parentheses allowed). */
function lightOnly(css) {
  let out = '';
  let at = 0;
  for (let start = css.indexOf('light-dark(', at); start >= 0; start = css.indexOf('light-dark(', at)) {
    let depth = 0;
    let comma = -1;
    let end = start + 'light-dark'.length;
    for (; end < css.length; end += 1) {
      if (css[end] === '(') depth += 1;
      else if (css[end] === ')' && --depth === 0) break;
      else if (css[end] === ',' && depth === 1 && comma < 0) comma = end;
    }
    // `light-dark()` without two colours (in a comment) stays as it is.
    const light = comma < 0 ? css.slice(start, end + 1) : css.slice(start + 'light-dark('.length, comma).trim();
    out += css.slice(at, start) + light;
    at = end + 1;
  }
  return out + css.slice(at);
}

/** The page without scripts with one lever changed each, as lever-*.html beside it. */
function writeLevers(folder, page) {
  // The page's style sheet, linked, or inlined by tools/post-build.mjs (its first <style>).
  const linked = /<link\b[^>]*rel="stylesheet"[^>]*href="\.?\/?([^"]+)"[^>]*>/;
  const inline = /<style>([\s\S]*?)<\/style>/;
  const sheet = linked.exec(page);
  const css = sheet ? readFileSync(join(dist, sheet[1]), 'utf8') : inline.exec(page)[1];
  const withCss = (text) => page.replace(sheet ? linked : inline, () => `<style>${text}</style>`);
  const variants = {
    inlined: withCss(css),
    'no-shadows': withCss(css.replace(/(^|[;{\s])box-shadow:[^;}]*;?/g, '$1')),
    'light-only': withCss(lightOnly(css)),
    // Only the first tab's panel keeps its content (the others' sections stay, empty).
    'first-panel-only': page.replace(/(<section id="panel-(?!gist")[^"]*"[^>]*>)[\s\S]*?(<\/section>\s*(?=<section id="panel-|<\/main>))/g, '$1$2'),
  };
  for (const [name, html] of Object.entries(variants)) writeFileSync(join(folder, `lever-${name}.html`), html);
}
const LEVERS = ['inlined', 'no-shadows', 'light-only', 'first-panel-only'];

// Runs in every page before its own scripts; `kind` says what "interactive" means there.
function probe({ heading, kind }) {
  const found = { text: null, interactive: null, lab: null, paint: null, cls: 0 };
  window.__loadProbe = found;
  new PerformanceObserver((list) => {
    for (const entry of list.getEntries()) if (entry.name === 'first-contentful-paint') found.paint = entry.startTime;
  }).observe({ type: 'paint', buffered: true });
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

/**
 * One fresh-context load (on the slow profile if `slow`); resolves to the probe's figures
 * once `until` has all been seen.
 */
async function load(url, kind, until, viewport = DESKTOP, slow = false) {
  const context = await browser.newContext({ viewport });
  await context.addInitScript(probe, { heading: HEADING, kind });
  const page = await context.newPage();
  if (slow) {
    const cdp = await context.newCDPSession(page);
    await cdp.send('Network.enable');
    await cdp.send('Network.emulateNetworkConditions', SLOW_NETWORK);
    await cdp.send('Emulation.setCPUThrottlingRate', { rate: SLOW_CPU });
  }
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
  { name: 'bare page', url: `${server.url}/static/bare.html`, kind: 'static', until: ['paint'] },
  { name: 'static page', url: `${server.url}/static/`, kind: 'static', until: ['text', 'interactive', 'paint'] },
  { name: 'static page, unstyled', url: `${server.url}/static/unstyled.html`, kind: 'static', until: ['text', 'paint'] },
  { name: 'Lease Lab', url: `${server.url}/`, kind: kindOf(dist), until: ['text', 'interactive', 'paint'] },
  { name: 'Sandbox link', url: `${server.url}/${SANDBOX_LINK}`, kind: kindOf(dist), until: ['interactive', 'lab'] },
  { name: 'Lease Lab, phone', url: `${server.url}/`, kind: kindOf(dist), until: ['text', 'interactive'], viewport: PHONE },
  { name: 'Sandbox link, phone', url: `${server.url}/${SANDBOX_LINK}`, kind: kindOf(dist), until: ['interactive', 'lab'], viewport: PHONE },
  { name: 'Sandbox link, tall window', url: `${server.url}/${SANDBOX_LINK}`, kind: kindOf(dist), until: ['interactive', 'lab'], viewport: TALL },
];
if (levers) {
  for (const lever of LEVERS) {
    targets.push({ name: `lever ${lever}`, url: `${server.url}/static/lever-${lever}.html`, kind: 'static', until: ['paint'] });
  }
}
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
const slowTargets = [
  { name: 'Lease Lab, slow', url: `${server.url}/`, kind: kindOf(dist), until: ['paint', 'interactive'] },
  { name: 'Sandbox link, slow', url: `${server.url}/${SANDBOX_LINK}`, kind: kindOf(dist), until: ['paint', 'interactive', 'lab'] },
];
for (const target of slowTargets) results[target.name] = [];
for (let round = 0; round < runs; round += 1) {
  for (let i = 0; i < slowTargets.length; i += 1) {
    const target = slowTargets[(round + i) % slowTargets.length];
    results[target.name].push(await load(target.url, target.kind, target.until, DESKTOP, true));
  }
}
await browser.close();
await server.close();
await baseline?.close();
rmSync(staticFolder, { recursive: true, force: true });

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
ratio('first contentful paint, Lease Lab vs bare page', of('Lease Lab', 'paint'), of('bare page', 'paint'), BUDGET.paint);
const also = (label, value, base) => console.log(`${label}: ${ms(value)} vs ${ms(base)} = ${(value / base).toFixed(2)}x`);
also('first contentful paint, Lease Lab vs itself without scripts', of('Lease Lab', 'paint'), of('static page', 'paint'));
also('first contentful paint, without scripts vs bare page', of('static page', 'paint'), of('bare page', 'paint'));
also('first contentful paint, without scripts or style sheet vs bare page', of('static page, unstyled', 'paint'), of('bare page', 'paint'));
if (levers) {
  // The style sheet's own levers are taken on the inlined sheet, so they compare with it.
  for (const [lever, base, baseName] of [
    ['inlined', 'static page', 'as built'],
    ['no-shadows', 'lever inlined', 'inlined'],
    ['light-only', 'lever inlined', 'inlined'],
    ['first-panel-only', 'static page', 'as built'],
  ]) {
    also(`first contentful paint, without scripts, lever ${lever} vs ${baseName}`, of(`lever ${lever}`, 'paint'), of(base, 'paint'));
  }
}
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
const goal = (label, value, limit) => {
  checks.push({ label, ok: value <= limit });
  console.log(`${label}: ${ms(value)} (goal <= ${ms(limit)}) ${value <= limit ? 'within' : 'MISSED'}`);
};
console.log(`slow profile (1.6 Mbit/s down, ${SLOW_NETWORK.latency} ms RTT, CPU ${SLOW_CPU}x slower), median of ${runs}:`);
goal('  first contentful paint, Lease Lab', of('Lease Lab, slow', 'paint'), SLOW_GOALS.paint);
goal('  hydrated, Lease Lab', of('Lease Lab, slow', 'interactive'), SLOW_GOALS.interactive);
goal('  lab ready, Sandbox link', of('Sandbox link, slow', 'lab'), SLOW_GOALS.lab);
process.exit(checks.every((c) => c.ok) ? 0 : 1);
