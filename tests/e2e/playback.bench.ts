// Measures main-thread long tasks while the sandbox plays: 30 s of wall time at 10× with
// every panel open. Run alone by `make bench` (tests/e2e/bench.config.ts), never by
// `make test`. The figure is written to artifacts/perf/playback.json and printed; the
// README reports it. Only the playback itself is asserted, never a timing.
import { test, expect, openApp } from './fixtures';
import { mkdirSync, writeFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';

const OUT = fileURLToPath(new URL('../../artifacts/perf', import.meta.url));
const PLAY_MS = 30_000;

test('30 s of playback at 10× with every panel open: long tasks are measured', async ({ page }) => {
  test.setTimeout(120_000);
  await page.addInitScript(() => {
    const w = window as unknown as { __longTasks: number[] };
    w.__longTasks = [];
    new PerformanceObserver((list) => {
      for (const entry of list.getEntries()) w.__longTasks.push(entry.duration);
    }).observe({ type: 'longtask', buffered: true });
  });
  await openApp(page, '#/sandbox');
  await page.getByLabel('Scenario').selectOption('1');
  await page.getByLabel('Run length').fill('600');
  await page.getByLabel('Run length').press('Enter');
  await expect(page.getByLabel('Simulation time')).toContainText('of 600.000 s');
  await page.getByText(/^Event log/).click();
  await page.getByText(/^Mermaid export: Run sequence/).click();
  await page.getByRole('group', { name: 'Playback' }).getByRole('slider', { name: 'Speed', exact: true }).fill('20');
  await expect(page.getByRole('group', { name: 'Playback' }).locator('output')).toHaveText('10×');

  await page.evaluate(() => {
    (window as unknown as { __longTasks: number[] }).__longTasks.length = 0;
  });
  await page.getByRole('group', { name: 'Playback' }).getByRole('button', { name: 'Play', exact: true }).click();
  const started = Date.now();
  await page.waitForTimeout(PLAY_MS);
  const elapsed = Date.now() - started;
  const simSeconds = await page
    .getByRole('slider', { name: 'Time' })
    .inputValue()
    .then((ms) => Number(ms) / 1000);
  const longTasks: number[] = await page.evaluate(() => (window as unknown as { __longTasks: number[] }).__longTasks);

  expect(simSeconds, 'model time advanced at about 10× wall time').toBeGreaterThan(100);
  const report = {
    wallSeconds: elapsed / 1000,
    simSeconds,
    speed: '10x',
    longTasksOver50ms: longTasks.length,
    longestTaskMs: longTasks.length ? Math.max(...longTasks) : 0,
    totalLongTaskMs: longTasks.reduce((a, b) => a + b, 0),
  };
  mkdirSync(OUT, { recursive: true });
  writeFileSync(`${OUT}/playback.json`, `${JSON.stringify(report, null, 2)}\n`);
  console.log(`playback: ${JSON.stringify(report)}`);
});
