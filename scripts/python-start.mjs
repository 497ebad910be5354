// How long a learner waits for a Python run: from the click on "Run in the lab" to the
// status "Ran in the lab", timed in the page. Each round opens a fresh browser context (so
// the engine's files are fetched again, from this machine) on the healthy holder with the
// reference solution, then runs it three times: the first run (engine fetched and started),
// a second run clicked as soon as the first ended, and a third after 3 s idle (time for the
// sandbox to prepare the next worker). Several builds alternate round by round, so they share
// the machine's load.
//
//   node scripts/python-start.mjs [--rounds N] DIST [DIST...]   (default: dist, 5 rounds)
import { chromium } from '@playwright/test';
import { startServer } from '../tools/static-server.mjs';

const args = process.argv.slice(2);
let rounds = 5;
const dists = [];
for (let i = 0; i < args.length; i += 1) {
  if (args[i] === '--rounds') rounds = Number(args[(i += 1)]);
  else dists.push(args[i]);
}
if (dists.length === 0) dists.push('dist');

const RUN_MS = 300_000;
const RUNS = ['first', 'second at once', 'third after 3 s'];

const servers = await Promise.all(dists.map((dist) => startServer(dist, 0)));
const browser = await chromium.launch({
  executablePath: process.env.CHROMIUM ?? '/usr/bin/chromium',
  args: ['--no-sandbox', '--disable-gpu'],
});

/** Clicks Run and returns the ms from the click to "Ran in the lab", read in the page. */
async function timedRun(page) {
  await page.evaluate(() => {
    const w = window;
    w.__ranAt = null;
    const status = document.querySelector('.snippet-status');
    const observer = new MutationObserver(() => {
      if (/^Ran in the lab/.test(status.textContent)) {
        w.__ranAt = performance.now();
        observer.disconnect();
      }
    });
    observer.observe(status, { childList: true, characterData: true, subtree: true });
    const button = [...document.querySelectorAll('button')].find((b) => b.textContent.trim() === 'Run in the lab');
    button.addEventListener('click', () => (w.__clickAt = performance.now()), { capture: true, once: true });
  });
  await page.getByRole('button', { name: 'Run in the lab' }).click();
  await page.waitForFunction(() => window.__ranAt !== null, null, { timeout: RUN_MS, polling: 100 });
  return Math.round(await page.evaluate(() => window.__ranAt - window.__clickAt));
}

const times = dists.map(() => RUNS.map(() => []));
try {
  for (let round = 0; round < rounds; round += 1) {
    for (const [b, server] of servers.entries()) {
      const context = await browser.newContext();
      const page = await context.newPage();
      await page.goto(`${server.url}/#/sandbox?v=1&client=python&preset=1`);
      await page.getByRole('button', { name: 'Show a solution' }).click();
      await page.getByRole('spinbutton', { name: 'Time limit (s)' }).fill('60');
      await page.getByRole('spinbutton', { name: 'Time limit (s)' }).press('Tab');
      for (const [r] of RUNS.entries()) {
        if (r === 2) await page.waitForTimeout(3_000);
        times[b][r].push(await timedRun(page));
      }
      console.log(`round ${round + 1}, ${dists[b]}: ${RUNS.map((name, r) => `${name} ${times[b][r].at(-1)} ms`).join(', ')}`);
      await context.close();
    }
  }
} finally {
  await browser.close();
  await Promise.all(servers.map((server) => server.close()));
}

const median = (list) => [...list].sort((a, b) => a - b)[Math.floor(list.length / 2)];
console.log(`\nmedian of ${rounds} rounds (min–max), click to "Ran in the lab":`);
for (const [b, dist] of dists.entries()) {
  const cells = RUNS.map((name, r) => `${name} ${median(times[b][r])} ms (${Math.min(...times[b][r])}–${Math.max(...times[b][r])})`);
  console.log(`${dist}: ${cells.join('; ')}`);
}
