// The lesson pre-rendered into index.html and hydrated in place, and the laboratory as its
// own wasm module, loaded on demand (issue 12).
import { test, expect, openApp } from './fixtures';
import type { Page } from '@playwright/test';
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';

const LESSON_TABS = ['Gist', 'Maps', 'Q&A'];

/** The laboratory module's files: its JavaScript, its wasm and its stylesheet. */
const isLabFile = (url: string) => /^\/lab[^/]*\.(js|wasm|css)$/.test(new URL(url).pathname);

/** Every request for one of the laboratory's files, as they happen. */
function labRequests(page: Page): string[] {
  const seen: string[] = [];
  page.on('request', (request) => {
    if (isLabFile(request.url())) seen.push(new URL(request.url()).pathname);
  });
  return seen;
}

/** Holds the requests matching `pattern` until the returned function is called. */
async function hold(page: Page, pattern: RegExp): Promise<() => void> {
  let release!: () => void;
  const held = new Promise<void>((resolve) => (release = resolve));
  await page.route(pattern, async (route) => {
    await held;
    await route.fallback();
  });
  return release;
}

/** Holds `requestIdleCallback` callbacks until the test runs them with `runIdle`. */
async function holdIdle(page: Page) {
  await page.addInitScript(() => {
    const held: IdleRequestCallback[] = [];
    (window as unknown as { heldIdle: IdleRequestCallback[] }).heldIdle = held;
    window.requestIdleCallback = (callback) => held.push(callback);
  });
}

async function runIdle(page: Page) {
  await page.evaluate(() => {
    const held = (window as unknown as { heldIdle: IdleRequestCallback[] }).heldIdle;
    for (const callback of held.splice(0)) callback({ didTimeout: false, timeRemaining: () => 50 });
  });
}

/** What a reader takes in from the open panel: its headings (Q&A questions included),
 * its tables by caption, and how many cards it has. */
async function openPanelText(page: Page) {
  return page.locator('[role="tabpanel"]:not([hidden])').evaluate((panel) => ({
    headings: [...panel.querySelectorAll('h2, h3, h4')].map((h) => h.textContent!.trim()).filter(Boolean),
    tables: [...panel.querySelectorAll('table > caption')].map((c) => c.textContent!.trim()),
    cards: panel.querySelectorAll('.card').length,
  }));
}

test.describe('with wasm blocked', () => {
  // The aborted wasm is reported by the browser and by the page's start-up script.
  test.use({ allowedConsoleErrors: [[/Failed to load resource/, /Failed to fetch|WebAssembly|wasm/i], { scope: 'test' }] });

  test('every lesson tab is readable as text, follows its tab, and passes axe', async ({ page, checkA11y }) => {
    // What the interactive page shows on each tab…
    await openApp(page);
    const live = new Map<string, Awaited<ReturnType<typeof openPanelText>>>();
    for (const tab of LESSON_TABS) {
      await page.getByRole('tab', { name: tab }).click();
      await expect(page.getByRole('tab', { name: tab })).toHaveAttribute('aria-selected', 'true');
      live.set(tab, await openPanelText(page));
    }

    // …is there without the wasm, tab by tab.
    await page.route('**/*.wasm', (route) => route.abort());
    await page.goto('./');
    for (const tab of LESSON_TABS) {
      await page.getByRole('tab', { name: tab }).click();
      await expect(page.getByRole('tab', { name: tab })).toHaveAttribute('aria-selected', 'true');
      const expected = live.get(tab)!;
      expect(expected.headings.length).toBeGreaterThan(2);
      const panel = page.locator('[role="tabpanel"]:not([hidden])');
      await expect(panel).toHaveCount(1);
      for (const heading of expected.headings) {
        await expect(panel.getByRole('heading', { name: heading, exact: true }).first()).toBeVisible();
      }
      for (const caption of expected.tables) {
        await expect(panel.getByRole('table', { name: caption })).toBeVisible();
      }
      expect(await openPanelText(page)).toEqual(expected);
      await checkA11y(page);
    }
    expect(await page.locator('html').getAttribute('data-hydrated')).toBeNull();

    // A link into a tab shows it from the start.
    await page.goto('./#/qa');
    await expect(page.getByRole('tab', { name: 'Q&A' })).toHaveAttribute('aria-selected', 'true');
    await expect(page.locator('#panel-gist')).toBeHidden();
    await expect(page.getByRole('heading', { name: live.get('Q&A')!.headings[0] })).toBeVisible();
  });
});

test.describe('without JavaScript', () => {
  test.use({ javaScriptEnabled: false });

  test('every panel shows, links lead to each, and the lab says what it needs', async ({ page }) => {
    await page.goto('./');
    await expect(page.getByRole('tabpanel')).toHaveCount(4);
    for (const panel of await page.getByRole('tabpanel').all()) await expect(panel).toBeVisible();
    const links = page.getByRole('navigation', { name: 'Lesson sections' }).getByRole('link');
    await expect(links).toHaveText([...LESSON_TABS, 'Sandbox']);
    await links.filter({ hasText: 'Q&A' }).click();
    await expect(page).toHaveURL(/#panel-qa$/);
    await expect(page.locator('#panel-qa')).toBeInViewport();
    await expect(page.locator('#panel-sandbox')).toContainText(/needs JavaScript and WebAssembly/);
    // The voice controls say why they are disabled.
    const readout = page.getByRole('group', { name: 'Voice readout' }).first();
    await expect(readout.getByRole('button', { name: /Read this tab aloud/ })).toBeDisabled();
    await expect(readout).toContainText(/needs JavaScript/);
  });
});

test('with wasm, the page hydrates the pre-rendered lesson in place, without a warning', async ({ page }) => {
  const messages: string[] = [];
  page.on('console', (message) => messages.push(`${message.type()}: ${message.text()}`));
  const release = await hold(page, /lease-lab-[0-9a-f]+_bg\.wasm$/);

  await page.goto('./#/maps');
  // Before the wasm: the linked tab is the one showing, from the pre-rendered markup.
  await expect(page.getByRole('tab', { name: 'Maps' })).toHaveAttribute('aria-selected', 'true');
  await expect(page.locator('#panel-maps')).toBeVisible();
  await expect(page.locator('#panel-gist')).toBeHidden();
  const heading = await page.locator('#panel-maps h2').first().elementHandle();
  const title = await page.getByRole('heading', { level: 1 }).elementHandle();
  expect(await page.locator('html').getAttribute('data-hydrated')).toBeNull();
  // With scripts on, nothing says the page needs them, even before the wasm.
  await expect(page.getByText(/needs JavaScript/).filter({ visible: true })).toHaveCount(0);

  release();
  await expect(page.locator('html')).toHaveAttribute('data-hydrated', '');
  // Hydration adopted the very nodes the server wrote.
  expect(await heading!.evaluate((node) => node.isConnected)).toBe(true);
  expect(await title!.evaluate((node) => node.isConnected)).toBe(true);
  // As before, only the open panel has content.
  await expect(page.locator('#panel-gist > *')).toHaveCount(0);
  await expect(page.locator('#panel-qa > *')).toHaveCount(0);

  // The page works as before: tabs, and a diagram part by keyboard.
  await page.getByRole('tab', { name: 'Gist' }).click();
  await expect(page).toHaveURL(/#\/gist$/);
  await expect(page.locator('#panel-maps > *')).toHaveCount(0);
  await page.getByRole('tab', { name: 'Gist' }).press('ArrowRight');
  await expect(page.getByRole('tab', { name: 'Maps' })).toHaveAttribute('aria-selected', 'true');
  const node = page.locator('#panel-maps .node[role="button"]').first();
  await node.focus();
  await node.press('Enter');
  await expect(node).toHaveAttribute('aria-pressed', 'true');
  await expect(page).toHaveURL(/[?&]sel=architecture\./);

  expect(messages.filter((m) => /hydrat|mismatch/i.test(m))).toEqual([]);
  expect(messages.filter((m) => m.startsWith('error'))).toEqual([]);
});

test('a key pressed on Copy link before the lesson has hydrated is pressed once it has, and only the last such press', async ({ page }) => {
  const release = await hold(page, /lease-lab-[0-9a-f]+_bg\.wasm$/);
  await page.goto('./#/qa');
  await page.getByRole('button', { name: 'Embed', exact: true }).press(' ');
  await page.getByRole('button', { name: 'Copy link' }).press('Enter');
  expect(await page.locator('html').getAttribute('data-hydrated')).toBeNull();
  await expect(page.getByRole('textbox', { name: 'Link to this state' })).toHaveCount(0);

  release();
  await expect(page.getByRole('textbox', { name: 'Link to this state' })).toHaveValue(/#\/qa(\?|$)/);
  await expect(page.getByRole('heading', { name: 'Embed this view in a course page' })).toHaveCount(0);
});

test('a key pressed before the lesson has hydrated is dropped when the focus has moved on', async ({ page }) => {
  const release = await hold(page, /lease-lab-[0-9a-f]+_bg\.wasm$/);
  await page.goto('./#/maps');
  await page.getByRole('button', { name: 'Copy link' }).press('Enter');
  await page.getByRole('button', { name: 'Embed', exact: true }).focus();
  release();
  await expect(page.locator('html')).toHaveAttribute('data-hydrated', '');
  await page.getByRole('button', { name: 'Embed', exact: true }).press('Enter');
  await expect(page.getByRole('heading', { name: 'Embed this view in a course page' })).toBeVisible();
  await expect(page.getByRole('textbox', { name: 'Link to this state' })).toHaveCount(0);
});

test('the voice note about JavaScript stays hidden while the app takes over from the first-paint script', async ({ page }) => {
  // The app marks the page hydrated and drops the first-paint script's tab choice in one
  // step, while the pre-rendered readout (note included) is still there until its re-render:
  // that in-between state, held here with the wasm, must not show the note.
  const release = await hold(page, /lease-lab-[0-9a-f]+_bg\.wasm$/);
  await page.goto('./#/sandbox');
  const note = page.getByText(/Reading aloud needs JavaScript/);
  await expect(note).toBeAttached();
  await expect(note).toBeHidden();
  await page.evaluate(() => {
    document.documentElement.setAttribute('data-hydrated', '');
    document.documentElement.removeAttribute('data-tab');
  });
  await expect(note).toBeHidden();
  release();
});

test('Gist, Maps and Q&A request nothing of the lab until the page is idle', async ({ page }) => {
  await holdIdle(page);
  const requested = labRequests(page);
  await openApp(page);
  await expect(page.locator('html')).toHaveAttribute('data-hydrated', '');
  for (const tab of ['Maps', 'Q&A', 'Gist']) {
    await page.getByRole('tab', { name: tab }).click();
    await expect(page.getByRole('tab', { name: tab })).toHaveAttribute('aria-selected', 'true');
  }
  await page.waitForTimeout(500);
  expect(requested).toEqual([]);

  await runIdle(page);
  await expect.poll(() => requested.slice().sort()).toEqual(['/lab.css', '/lab.js', '/lab_bg.wasm']);
  // Loaded at idle, the lab is there as soon as its tab opens.
  await page.getByRole('tab', { name: 'Sandbox' }).click();
  await expect(page.getByRole('heading', { name: 'Lease laboratory' })).toBeVisible();
  await expect(page.locator('.lab-mount')).toHaveAttribute('data-lab-ready', '');
  expect(requested).toHaveLength(3);
});

/** The committed trace hash of a preset (tests/model_preset_hashes.in, from the native model). */
function presetHash(id: string): string {
  const file = fileURLToPath(new URL('../model_preset_hashes.in', import.meta.url));
  const line = readFileSync(file, 'utf8').split('\n').find((l) => l.includes(`("${id}",`));
  return line!.match(/0x([0-9a-f]{16})/)![1];
}

test('while a Sandbox link waits for the lab, its mount says so and the lesson works', async ({ page }) => {
  const release = await hold(page, /\/lab_bg\.wasm$/);
  await openApp(page, '#/sandbox?v=1&preset=3');
  await expect(page.locator('html')).toHaveAttribute('data-hydrated', '');
  const panel = page.getByRole('tabpanel', { name: 'Sandbox' });
  await expect(panel.getByRole('status').filter({ hasText: /Loading the laboratory/ })).toBeVisible();
  await expect(page.getByText(/needs JavaScript/).filter({ visible: true })).toHaveCount(0);
  // The tabs take clicks without waiting for the lab.
  await page.getByRole('tab', { name: 'Maps' }).click({ timeout: 3_000 });
  await expect(page.getByRole('tab', { name: 'Maps' })).toHaveAttribute('aria-selected', 'true');
  await page.getByRole('tab', { name: 'Sandbox' }).click();
  release();
  await expect(page.getByRole('button', { name: 'Play', exact: true })).toBeEnabled();
  await expect(panel.getByText(/Loading the laboratory/)).toHaveCount(0);
});

test.describe('with the lab\'s stylesheet failing', () => {
  test.use({ allowedConsoleErrors: [[/Failed to load resource/], { scope: 'test' }] });

  test('a Sandbox link still starts the laboratory, even when it failed before the lesson ran', async ({ page }) => {
    const release = await hold(page, /lease-lab-[0-9a-f]+_bg\.wasm$/);
    await page.route(/\/lab\.css$/, (route) => route.abort());
    const failed = page.waitForEvent('requestfailed', (request) => request.url().endsWith('/lab.css'));
    await page.goto('./#/sandbox?v=1&preset=1');
    await failed;
    release();
    await expect(page.getByRole('button', { name: 'Play', exact: true })).toBeEnabled();
  });
});

test('a Sandbox link loads the lab at once and restores the same run', async ({ page }) => {
  await holdIdle(page);
  const requested = labRequests(page);
  const wasmFetched: string[] = [];
  page.on('request', (request) => {
    if (request.url().endsWith('.wasm')) wasmFetched.push(new URL(request.url()).pathname);
  });
  await openApp(page, '#/sandbox?v=1&preset=2&t=17s');
  await expect(page.locator('.lab-mount')).toHaveAttribute('data-lab-ready', '');
  await expect(page.locator('.clock .now')).toHaveText('t = 17.000 s');
  await expect(page.locator('.trace-id')).toContainText(`Trace hash ${presetHash('2')}`);
  expect(requested).toContain('/lab_bg.wasm');
  // The first paint compiles both modules early; each is still fetched only once.
  expect(wasmFetched.sort()).toEqual([expect.stringMatching(/^\/lab_bg\.wasm$/), expect.stringMatching(/^\/lease-lab-[0-9a-f]+_bg\.wasm$/)]);

  // The lab's changes reach the address and Copy link, which the shell owns.
  await page.getByRole('button', { name: 'Copy link' }).click();
  await expect(page.getByRole('textbox', { name: 'Link to this state' })).toHaveValue(/#\/sandbox\?v=1&preset=2&t=17s$/);
  // Away and back, the lab is the same.
  await page.getByRole('tab', { name: 'Q&A' }).click();
  await page.getByRole('tab', { name: 'Sandbox' }).click();
  await expect(page.locator('.trace-id')).toContainText(`Trace hash ${presetHash('2')}`);
});

test('an embedded diagram or Q&A never requests the lab', async ({ page }) => {
  await holdIdle(page);
  const requested = labRequests(page);
  await page.goto('./?embed&diagram=architecture#/maps');
  await expect(page.locator('main.embed svg').first()).toBeVisible();
  await page.goto('./?embed#/qa');
  await expect(page.locator('main.embed').getByRole('heading', { level: 2 }).first()).toBeVisible();
  await runIdle(page);
  await page.waitForTimeout(500);
  expect(requested).toEqual([]);
});
