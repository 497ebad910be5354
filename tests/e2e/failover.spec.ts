// The timeline marks each failover on the service lane, from the old holder's last renewal to
// the next grant, once the cursor has passed that grant and not before. Its title names both
// clients and the time it took: the counts panel's "Longest failover" at the same cursor.
import { test, expect, openApp } from './fixtures';
import type { Page } from '@playwright/test';

const timeline = (page: Page) => page.getByRole('img', { name: /^Timeline from 0 to/ });
const failoverTitles = (page: Page) => timeline(page).locator('title').filter({ hasText: /^Failover from/ });
const longestFailover = (page: Page) =>
  page.getByRole('region', { name: 'Checks' }).getByRole('row', { name: 'Longest failover' }).getByRole('cell').first();

async function loadPreset(page: Page, id: string) {
  await openApp(page, '#/sandbox');
  await page.getByLabel('Scenario').selectOption(id);
  await expect(page.getByLabel('Scenario')).toHaveValue(id);
}

async function scrubTo(page: Page, ms: number) {
  await page.getByRole('slider', { name: 'Time' }).fill(String(ms));
  await expect(page.getByLabel('Simulation time')).toContainText(`t = ${(ms / 1000).toFixed(3)} s`);
}

for (const viewport of [
  { width: 1280, height: 800, label: 'desktop' },
  { width: 390, height: 844, label: 'phone' },
]) {
  test(`a pause longer than the TTL draws B's takeover as a failover once the cursor passes the grant (${viewport.label})`, async ({ page, checkA11y, shot }) => {
    await page.setViewportSize(viewport);
    // Preset 2: A (T = 10 s) freezes for 15 s at 2 s; the service expires its lease and B
    // acquires at about 10.1 s.
    await loadPreset(page, '2');
    await scrubTo(page, 9_000);
    await expect(longestFailover(page)).toHaveText('none');
    await expect(failoverTitles(page)).toHaveCount(0);

    await scrubTo(page, 12_000);
    await expect(failoverTitles(page)).toHaveCount(1);
    const took = await longestFailover(page).innerText();
    expect(took).toMatch(/^\d+(\.\d+)? m?s$/);
    await expect(failoverTitles(page)).toHaveText(`Failover from client A to client B: ${took}`);

    // Drawn left of the cursor, about a third of the plot long (some 10 s of a 30 s run).
    const mark = await timeline(page).locator('g.failover').boundingBox();
    const cursor = await timeline(page).locator('.cursor').boundingBox();
    const plot = await timeline(page).boundingBox();
    expect(mark && cursor && plot).toBeTruthy();
    expect(mark!.width).toBeGreaterThan(plot!.width / 6);
    expect(mark!.x + mark!.width).toBeLessThanOrEqual(cursor!.x + cursor!.width + 1);
    await expect(page.getByText('failover: last renewal to next grant')).toBeVisible();

    // Stepping back before the grant takes the mark away again.
    await scrubTo(page, 10_000);
    await expect(failoverTitles(page)).toHaveCount(0);
    await scrubTo(page, 30_000);
    await expect(failoverTitles(page)).toHaveCount(1);
    await checkA11y(page, '.lab');
    await page.locator('figure.timeline').scrollIntoViewIfNeeded();
    await shot(page, `timeline-failover-${viewport.label}`);
  });
}

test('a healthy holder keeps the lease: no failover mark to the end', async ({ page }) => {
  await loadPreset(page, '1');
  await page.getByRole('group', { name: 'Playback' }).getByRole('button', { name: 'Jump to end', exact: true }).click();
  await expect(page.getByLabel('Simulation time')).toContainText('t = 120.000 s');
  await expect(longestFailover(page)).toHaveText('none');
  await expect(failoverTitles(page)).toHaveCount(0);
});

// The lanes change only at events, yet a lease held across the cursor reaches the cursor,
// between events too: it ended nowhere near where the drawing would otherwise stop.
test('a lease held at the cursor is drawn up to the cursor, between events too', async ({ page }) => {
  const cases = [
    { preset: '1', at: '3.456', shapes: ['g.tenure path', 'path.believed'] },
    { preset: '1', at: '27.9', shapes: ['g.tenure path', 'path.believed'] },
    // A frozen for 15 s from 2 s: no event of A's for a long while, yet it holds on.
    { preset: '2', at: '8.5', shapes: ['g.tenure path', 'path.believed', 'path.pause'] },
  ];
  for (const { preset, at, shapes } of cases) {
    await openApp(page, `#/sandbox?v=1&preset=${preset}&t=${at}s`);
    const drawn = timeline(page);
    await expect(drawn).toHaveAttribute('aria-label', new RegExp(`drawn up to t = ${Number(at).toFixed(3).replace('.', '\\.')} s`));
    for (const shape of shapes) {
      await expect
        .poll(async () => {
          const cursor = (await drawn.locator('.cursor').boundingBox())!;
          const rights = await drawn.locator(shape).evaluateAll((paths) => paths.map((p) => p.getBoundingClientRect().right));
          return Math.abs(Math.max(...rights) - (cursor.x + cursor.width / 2));
        }, { message: `${shape} at ${at} s in preset ${preset}` })
        .toBeLessThan(1.5);
    }
  }
});
