// "Your client" speed in the page (issue 21's budgets), from a release build in dist/: for
// the TypeScript and Python reference clients, one 60-s run of the healthy holder (best of
// three once the engine is up) and the counterexample search's 2,000 plans against it with
// fencing on, each timed inside the sandbox's worker (the status line's "in N ms"). Headless
// Chromium, one page, nothing else running. Called by `make bench` (scripts/bench.sh).
import { chromium } from '@playwright/test';
import { startServer } from '../tools/static-server.mjs';

const GOALS = {
  typescript: { run: 50, plans: 2_000 },
  python: { run: 500, plans: 100 },
};
const server = await startServer('dist', 0);
const browser = await chromium.launch({
  executablePath: process.env.CHROMIUM ?? '/usr/bin/chromium',
  args: ['--no-sandbox', '--disable-gpu'],
});

/** Clicks `name` and waits for the task's ending; the worker's time in ms, or the status. */
async function timed(page, click) {
  // Watched in the page from before the click: two runs that take the same time end with
  // the same status text, so comparing the text before and after would wait forever.
  await page.evaluate(() => {
    const status = document.querySelector('.snippet-status');
    window.benchTaskEnded = new Promise((resolve, reject) => {
      const observer = new MutationObserver(() => {
        if (/^(Starting|Running|Searching|Downloading)/.test(status.textContent)) return;
        observer.disconnect();
        resolve();
      });
      observer.observe(status, { subtree: true, childList: true, characterData: true });
      setTimeout(() => reject(new Error('the task did not end in 300 s')), 300_000);
    });
  });
  await click();
  await page.evaluate(() => window.benchTaskEnded);
  const status = await page.locator('.snippet-status').textContent();
  const ms = status.match(/in (\d+) ms/);
  if (!ms) throw new Error(`no time in the status: ${status}`);
  return Number(ms[1]);
}

try {
  for (const [language, name] of [['typescript', 'TypeScript'], ['python', 'Python']]) {
    const page = await browser.newPage();
    await page.goto(`${server.url}/#/sandbox?v=1&client=${language}&preset=1&dur=60s`);
    await page.getByRole('button', { name: 'Show a solution' }).click();
    await page.getByRole('spinbutton', { name: 'Time limit (s)' }).fill('60');
    await page.getByRole('spinbutton', { name: 'Time limit (s)' }).press('Tab');
    const run = () => page.getByRole('button', { name: 'Run in the lab' }).click();
    await timed(page, run); // the engine's first start
    const runs = [];
    for (let i = 0; i < 3; i += 1) runs.push(await timed(page, run));
    const search = page.getByRole('region', { name: 'Attack your client' });
    const searchMs = await timed(page, () => search.getByRole('button', { name: 'Start' }).click());
    const outcome = await page.locator('.search-outcome').first().textContent();
    const plans = Number(outcome.match(/in (\d+) plans/)?.[1] ?? 0);
    const rate = Math.round((plans * 1000) / Math.max(1, searchMs));
    const goal = GOALS[language];
    const best = Math.min(...runs);
    console.log(
      `your client, ${name} reference: one 60-s run ${best} ms (runs ${runs.join(', ')}; goal <= ${goal.run} ms: ${best <= goal.run ? 'met' : 'missed'}); ` +
        `search ${rate} checked plans/s in one worker (${plans} plans in ${searchMs} ms, "${outcome.trim()}"; goal >= ${goal.plans}: ${rate >= goal.plans ? 'met' : 'missed'})`,
    );
    await page.close();
  }
} finally {
  await browser.close();
  await server.close();
}
