import { chromium } from 'playwright';
import { startServer } from '../tools/static-server.mjs';
const server = await startServer('dist');
const browser = await chromium.launch({ executablePath: '/usr/bin/chromium' });
for (const frag of ['#/sandbox?v=1&ttl=abc&sel=zzz', '#/sandbox?v=2&ttl=abc', '#/sandbox?v=1&ttl=abc&theme=purple&speed=9', '#/sandbox?v=1&ttl=abc&zzz=1', '#/sandbox?ttl=abc']) {
  const page = await browser.newPage({ viewport: { width: 1280, height: 900 } });
  await page.goto(`${server.url}/${frag}`);
  await page.waitForSelector('.lab-mount[data-lab-ready]', { timeout: 30000 });
  await page.waitForTimeout(800);
  const notices = await page.locator('.link-notice').allInnerTexts();
  const ids = await page.locator('#link-notice-title').count();
  console.log(frag, 'notices', notices.length, 'ids', ids, JSON.stringify(notices).slice(0, 600));
  if (notices.length > 1) await page.screenshot({ path: '/tmp/two-notices.png' });
  await page.close();
}
await browser.close();
await server.close();
