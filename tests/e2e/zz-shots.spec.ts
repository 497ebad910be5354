import { test, expect } from './fixtures';
const PARAMS = 'faults=none&ttl=1s&timeout=250ms&retry=100ms&acquire=250ms&slice=200ms&margin=50ms&jitter=2ms';
for (const [w, theme] of [[1280, 'light'], [390, 'dark']] as const) {
  test(`shots ${w} ${theme}`, async ({ page }) => {
    await page.setViewportSize({ width: w, height: 900 });
    await page.goto(`/?theme=${theme}#/sandbox?v=1&${PARAMS}`);
    await page.getByRole('button', { name: 'Live', exact: true }).click();
    await page.getByRole('button', { name: 'Start live run' }).click();
    await expect(page.locator('.live-badge').first()).toContainText('Holding', { timeout: 20000 });
    await page.waitForTimeout(1000);
    await page.getByLabel('Freeze this page for').fill('3000');
    await page.getByRole('button', { name: 'Freeze', exact: true }).click();
    await expect(page.getByRole('alert')).toContainText('The page froze for', { timeout: 20000 });
    await page.waitForTimeout(1500);
    await page.locator('.live-lab').screenshot({ path: `/tmp/shot-running-${w}-${theme}.png` });
    await page.getByRole('button', { name: 'Stop live run' }).click();
    await page.getByRole('button', { name: 'Simulate this plan' }).click();
    await page.locator('.live-lab').screenshot({ path: `/tmp/shot-recorded-${w}-${theme}.png` });
  });
}
