// The storage table: newest first, rejected and stale writes marked in words as well as in
// colour, and every column whole on a 390 px phone in both themes.
import { test, expect, openApp } from './fixtures';
import type { Page } from '@playwright/test';

const storage = (page: Page) => page.getByRole('region', { name: /^Storage/ });
const seconds = (text: string) => Number(/^([\d.]+) s/.exec(text.trim())?.[1]);

async function atEnd(page: Page, link: string) {
  await openApp(page, link);
  await page.getByRole('group', { name: 'Playback' }).getByRole('button', { name: 'Jump to end' }).click();
  await expect(page.getByRole('group', { name: 'Playback' }).getByRole('button', { name: 'Play', exact: true })).toBeVisible();
}

test('the newest write comes first and a long run still shows its latest writes', async ({ page }) => {
  await atEnd(page, '#/sandbox?v=1&preset=1&dur=900s&slice=150ms');
  const rows = storage(page).getByRole('row');
  const times: number[] = [];
  for (const row of (await rows.all()).slice(1)) times.push(seconds(await row.getByRole('cell').first().innerText()));
  expect(times.length).toBeGreaterThan(10);
  expect(times, 'newest first').toEqual([...times].sort((a, b) => b - a));
  expect(times[0], 'the latest write is in view').toBeGreaterThan(899);
  await expect(storage(page)).toContainText(/Showing the newest \d+ of \d+ writes so far/);
});

test('rejected and stale writes stand out in words, not only in colour', async ({ page }) => {
  await atEnd(page, '#/sandbox?v=1&preset=2');
  const rejected = storage(page).getByRole('row').filter({ hasText: 'Rejected: token 33 is below 34' });
  await expect(rejected).toHaveCount(1);
  const weight = await rejected.getByRole('cell').last().locator('strong').evaluate((e) => getComputedStyle(e).fontWeight);
  expect(Number(weight)).toBeGreaterThanOrEqual(600);
  const accepted = storage(page).getByRole('row').filter({ hasText: /Accepted$/ }).first();
  await expect(accepted.locator('strong')).toHaveCount(0);

  await atEnd(page, '#/sandbox?v=1&preset=2-unfenced');
  const stale = storage(page).getByRole('row').filter({ hasText: 'stale write' });
  await expect(stale.first()).toContainText('Accepted although token 34 was already stored');
  await expect(stale.first().locator('strong')).toHaveCount(1);
  await expect(storage(page)).toContainText(/\(1 of them stale\)/);
});

for (const colorScheme of ['light', 'dark'] as const) {
  test(`at 390 px (${colorScheme}) every column of the storage table is whole`, async ({ page, shot }) => {
    await page.emulateMedia({ colorScheme });
    await page.setViewportSize({ width: 390, height: 844 });
    await atEnd(page, '#/sandbox?v=1&preset=2-unfenced');
    const wrap = storage(page).getByRole('group', { name: 'Storage log, scrollable' });
    const fit = await wrap.evaluate((w) => {
      const box = w.getBoundingClientRect();
      const cells = [...w.querySelectorAll('th, td')].map((c) => c.getBoundingClientRect());
      return {
        scroll: w.scrollWidth - w.clientWidth,
        overRight: Math.max(...cells.map((c) => c.right - box.right)),
      };
    });
    expect(fit.scroll, 'the table needs no sideways scrolling').toBeLessThanOrEqual(0);
    expect(fit.overRight, 'no cell pokes past the right edge').toBeLessThanOrEqual(0.5);
    await storage(page).scrollIntoViewIfNeeded();
    await expect(storage(page).getByRole('columnheader', { name: 'Verdict' })).toBeInViewport({ ratio: 1 });
    // The stale write in view inside the table, the table in the middle of the screen
    // (clear of the sticky playback bar), for the photograph.
    await storage(page).getByRole('row').filter({ hasText: 'stale write' }).first().evaluate((row) => {
      const wrap = row.closest('.storage-scroll') as HTMLElement;
      wrap.scrollTop = (row as HTMLElement).offsetTop - 40;
      wrap.scrollIntoView({ block: 'center' });
    });
    await wrap.screenshot({ path: `artifacts/screenshots/storage-390-${colorScheme}.png` });
    await shot(page, `sandbox-390-${colorScheme}`);
  });
}
