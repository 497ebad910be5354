// The laboratory on a 390 px phone and a 1280 px desktop, in both themes: every diagram
// and table fits its container, the timeline's axis labels are whole, and a dense diagram
// opens larger in a dialog that the keyboard can open and Escape closes. The sticky playback
// bar stays small on a phone and never hides the control that Tab reaches.
import { test, expect, openApp } from './fixtures';
import type { Locator, Page } from '@playwright/test';
import { mkdirSync } from 'node:fs';
import { fileURLToPath } from 'node:url';

const SCREENSHOTS = fileURLToPath(new URL('../../artifacts/screenshots', import.meta.url));
const PHONE = { width: 390, height: 844 };
const DESKTOP = { width: 1280, height: 900 };
// A run with faults, a lost lease, a rejected write and a busy sequence at the cursor.
const BUSY_RUN = '#/sandbox?v=1&preset=2&t=20s';

const lab = (page: Page) => page.getByRole('region', { name: 'Lease laboratory' });

/** Opens a run and waits until every panel of the laboratory has drawn it. */
async function openRun(page: Page, fragment: string) {
  await openApp(page, fragment);
  await expect(lab(page).locator('.trace-id')).toContainText(/Trace hash [0-9a-f]{16}/);
  await expect(page.getByRole('img', { name: /^Timeline from 0 to/ })).toBeVisible();
  await expect(page.getByRole('group', { name: 'Messages of the run before the cursor' })).toBeVisible();
  await expect(page.getByRole('region', { name: 'Checks' })).toBeVisible();
}

type Overflow = { what: string; width: number; room: number };

/**
 * Every visible svg and table in the Sandbox tab that is wider than its container, or whose
 * container scrolls sideways (scrollWidth over clientWidth).
 */
async function overflowing(page: Page): Promise<{ checked: number; wide: Overflow[] }> {
  return page.getByRole('tabpanel').evaluate((panel) => {
    const wide: { what: string; width: number; room: number }[] = [];
    let checked = 0;
    // A drawing by its name, a table by its caption or the heading of its section.
    const name = (el: Element) => {
      const label =
        el.getAttribute('aria-label') ??
        el.querySelector('caption')?.textContent ??
        el.closest('section')?.querySelector('h2, h3, h4')?.textContent ??
        '';
      return `${el.tagName.toLowerCase()} "${label.slice(0, 48)}"`;
    };
    for (const el of panel.querySelectorAll('svg, table')) {
      // Icons inside a diagram are drawn by it; only outermost drawings count.
      if (el.tagName.toLowerCase() === 'svg' && el.parentElement?.closest('svg')) continue;
      const box = el.getBoundingClientRect();
      if (box.width === 0 || box.height === 0) continue;
      checked += 1;
      const container = el.parentElement!;
      const room = container.clientWidth;
      const width = Math.max(box.width, el.scrollWidth);
      if (width > room + 0.5) wide.push({ what: name(el), width, room });
      if (container.scrollWidth > container.clientWidth + 0.5) {
        wide.push({ what: `container of ${name(el)}`, width: container.scrollWidth, room: container.clientWidth });
      }
      if (box.right > document.documentElement.clientWidth + 0.5) {
        wide.push({ what: `${name(el)} past the page`, width: box.right, room: document.documentElement.clientWidth });
      }
    }
    return { checked, wide };
  });
}

async function photograph(part: Locator, name: string) {
  mkdirSync(SCREENSHOTS, { recursive: true });
  await part.scrollIntoViewIfNeeded();
  await part.screenshot({ path: `${SCREENSHOTS}/${name}.png` });
}

/** The parts of the laboratory a learner reads, each photographed on its own. */
function parts(page: Page): [string, Locator][] {
  return [
    ['timeline', page.locator('figure.timeline')],
    ['live-diagrams', page.getByRole('region', { name: 'Live diagrams' })],
    ['sequence', page.getByRole('region', { name: /^Sequence: the last/ })],
    ['storage', page.getByRole('region', { name: /^Storage/ })],
    ['checks', page.getByRole('region', { name: 'Checks' })],
    ['pitfall', page.locator('.pitfall')],
  ];
}

for (const scheme of ['light', 'dark'] as const) {
  for (const [label, viewport] of [['phone', PHONE], ['desktop', DESKTOP]] as const) {
    test(`no diagram or table in the Sandbox is wider than its container (${label}, ${scheme})`, async ({ page }) => {
      await page.emulateMedia({ colorScheme: scheme, reducedMotion: 'reduce' });
      await page.setViewportSize(viewport);
      await openRun(page, BUSY_RUN);
      // The sticky playback bar would cover the top of each part in its photograph; a
      // sticky box keeps its place in the flow, so the layout measured below is the same.
      await page.addStyleTag({ content: '.playback { position: static !important; }' });
      for (const [name, part] of parts(page)) await photograph(part, `lab-${name}-${label}-${scheme}`);
      const { checked, wide } = await overflowing(page);
      // The timeline, two live diagrams, the sequence, the storage and checks tables, the sweep.
      expect(checked, 'drawings and tables measured').toBeGreaterThanOrEqual(6);
      expect(wide, 'diagrams or tables wider than their container').toEqual([]);
      const page_overflow = await page.evaluate(() => document.documentElement.scrollWidth - window.innerWidth);
      expect(page_overflow, 'the page scrolls sideways').toBeLessThanOrEqual(0);
    });
  }
}

test('the timeline draws at its own width: labels keep their size and the last one is whole', async ({ page }) => {
  for (const viewport of [PHONE, DESKTOP, { width: 760, height: 900 }, { width: 360, height: 780 }, { width: 320, height: 640 }]) {
    await page.setViewportSize(viewport);
    // Run lengths that put the last tick at the very end and just before it, and a short
    // one whose round ticks crowd a narrow phone.
    for (const fragment of ['#/sandbox?v=1&preset=1&dur=30s&t=30s', '#/sandbox?v=1&preset=1&dur=40s&t=40s', '#/sandbox?v=1&preset=1&dur=37s&t=37s', '#/sandbox?v=1&preset=1&dur=600s&t=1s']) {
      await openRun(page, fragment);
      const svg = page.getByRole('img', { name: /^Timeline from 0 to/ });
      const report = await svg.evaluate((el) => {
        const drawing = el as unknown as SVGSVGElement;
        const box = drawing.getBoundingClientRect();
        const scale = box.width / drawing.viewBox.baseVal.width;
        const labels = [...drawing.querySelectorAll('.tick text')].map((t) => {
          const r = t.getBoundingClientRect();
          return { text: t.textContent, left: r.left - box.left, right: box.right - r.right, end: r.right - box.left };
        });
        const smallest = Math.min(
          ...[...drawing.querySelectorAll('text')].map((t) => parseFloat(getComputedStyle(t).fontSize) * scale),
        );
        return { labels, smallest, scale };
      });
      expect(report.labels.length, `${fragment} at ${viewport.width} px: ticks`).toBeGreaterThanOrEqual(2);
      for (const l of report.labels) {
        expect(l.left, `"${l.text}" starts inside the drawing`).toBeGreaterThanOrEqual(0);
        expect(l.right, `"${l.text}" ends inside the drawing (${fragment}, ${viewport.width} px)`).toBeGreaterThanOrEqual(0);
      }
      for (const [before, after] of report.labels.slice(0, -1).map((l, i) => [l, report.labels[i + 1]])) {
        expect(after.left, `"${after.text}" does not overlap "${before.text}"`).toBeGreaterThan(before.end);
      }
      expect(report.smallest, `smallest timeline text at ${viewport.width} px`).toBeGreaterThanOrEqual(11.5);
    }
  }
});

test('a dense diagram opens larger in a dialog: by keyboard, readable, Escape closes it', async ({ page, checkA11y }) => {
  await page.setViewportSize(PHONE);
  await openRun(page, BUSY_RUN);
  const enlarge = page.getByRole('button', { name: 'Enlarge: Lease lifecycle state machine' });
  await enlarge.scrollIntoViewIfNeeded();
  await enlarge.focus();
  await page.keyboard.press('Enter');
  const dialog = page.getByRole('dialog', { name: 'Lease lifecycle state machine, enlarged' });
  await expect(dialog).toBeVisible();
  // Focus moved into the modal dialog.
  await expect.poll(() => dialog.evaluate((d) => d.contains(document.activeElement))).toBe(true);

  const drawing = dialog.getByRole('group', { name: 'Lease lifecycle state machine' });
  const sizes = await drawing.evaluate((el) => {
    const svg = el as unknown as SVGSVGElement;
    const scale = svg.getBoundingClientRect().width / svg.viewBox.baseVal.width;
    const fonts = [...svg.querySelectorAll('text')].map((t) => parseFloat(getComputedStyle(t).fontSize) * scale);
    const scroller = svg.closest('.diagram-zoom-scroll')!;
    return { smallest: Math.min(...fonts), scale, scrolls: scroller.scrollWidth > scroller.clientWidth };
  });
  expect(sizes.scale, 'drawn at least at its natural size').toBeGreaterThanOrEqual(0.99);
  expect(sizes.smallest, 'no text under 12 px').toBeGreaterThanOrEqual(12);
  expect(sizes.scrolls, 'wider than the phone, so it scrolls').toBe(true);
  // The states in the enlarged copy are as live as the small one: B's badge is on one.
  await expect(drawing.getByRole('button', { name: /current state of client B/ })).toHaveCount(1);
  await checkA11y(page, '.diagram-zoom');
  await dialog.screenshot({ path: `${SCREENSHOTS}/lab-lifecycle-enlarged-phone.png` });

  await page.keyboard.press('Escape');
  await expect(dialog).toHaveCount(0);
  await expect(enlarge).toBeFocused();

  // The Close button closes it too, and the sequence opens the same way.
  const sequence = page.getByRole('button', { name: 'Enlarge: Messages of the run before the cursor' });
  await sequence.click();
  const sequenceDialog = page.getByRole('dialog', { name: 'Messages of the run before the cursor, enlarged' });
  await expect(sequenceDialog.getByRole('button', { name: /^Step 1:/ })).toBeVisible();
  await sequenceDialog.getByRole('button', { name: 'Close' }).press('Enter');
  await expect(sequenceDialog).toHaveCount(0);
  await expect(sequence).toBeFocused();

  // The dialog follows the dark theme too.
  await page.emulateMedia({ colorScheme: 'dark' });
  await enlarge.click();
  await expect(dialog).toBeVisible();
  const background = await dialog.evaluate((d) => getComputedStyle(d).backgroundColor);
  expect(background).toBe('rgb(23, 27, 33)');
  await dialog.screenshot({ path: `${SCREENSHOTS}/lab-lifecycle-enlarged-phone-dark.png` });
  await page.keyboard.press('Escape');
  await expect(dialog).toHaveCount(0);
});

test('the lesson diagrams fit a phone too, and enlarge with their explanation', async ({ page }) => {
  await page.setViewportSize(PHONE);
  for (const scheme of ['light', 'dark'] as const) {
    await page.emulateMedia({ colorScheme: scheme, reducedMotion: 'reduce' });
    for (const tab of ['gist', 'maps']) {
      await openApp(page, `#/${tab}`);
      const wide = await page.getByRole('tabpanel').evaluate((panel) =>
        [...panel.querySelectorAll('svg.diagram-svg')]
          .filter((svg) => svg.getBoundingClientRect().width > svg.parentElement!.clientWidth + 0.5)
          .map((svg) => svg.getAttribute('aria-label')),
      );
      expect(wide, `diagrams wider than their column on ${tab}`).toEqual([]);
      const figures = page.getByRole('tabpanel').locator('figure.diagram');
      for (let i = 0; i < (await figures.count()); i += 1) {
        await photograph(figures.nth(i), `lesson-${tab}-diagram-${i + 1}-phone-${scheme}`);
      }
    }
  }
  await page.getByRole('button', { name: 'Enlarge: Architecture: a client and a lock service' }).click();
  const dialog = page.getByRole('dialog', { name: 'Architecture: a client and a lock service, enlarged' });
  await dialog.getByRole('button', { name: 'Node 2 Lock service' }).click();
  await expect(dialog.locator('.explanation')).toContainText('single authority');
  await page.keyboard.press('Escape');
  await expect(dialog).toHaveCount(0);
});

test('on a phone an arrow of a diagram takes a tap a little off its line', async ({ page }) => {
  await page.setViewportSize(PHONE);
  await openRun(page, '#/sandbox?v=1&preset=2&t=17s');
  const edge = page.getByRole('button', { name: /^Edge renew if token, / });
  await edge.scrollIntoViewIfNeeded();
  const line = (await edge.locator('.line').boundingBox())!;
  // The drawing is scaled down to its column: its hit area of 20 units is under 10 px here.
  const scale = await edge.evaluate((e) => {
    const svg = e.closest('svg')!;
    return svg.getBoundingClientRect().width / svg.viewBox.baseVal.width;
  });
  expect(20 * scale).toBeLessThan(10);
  await page.mouse.click(line.x + line.width / 2, line.y + line.height / 2 + 6);
  await expect(edge).toHaveAttribute('aria-pressed', 'true');
});

for (const [label, viewport, touch] of [
  ['phone, touch', PHONE, true],
  ['phone, mouse and keys', PHONE, false],
  ['desktop', DESKTOP, false],
] as const) {
  test.describe(label, () => {
    test.use({ viewport, hasTouch: touch, isMobile: touch });

    test(`the sticky playback bar stays small, and Tab never leaves focus hidden under it (${label})`, async ({ page }) => {
      await openRun(page, BUSY_RUN);
      const bar = page.getByRole('group', { name: 'Playback' });
      // At most a quarter of a phone's screen, so the run it plays stays in sight.
      expect((await bar.boundingBox())!.height).toBeLessThanOrEqual(viewport.height / 4);
      await expect(bar.getByRole('button', { name: 'Play' })).toBeVisible();
      await expect(bar.getByRole('slider', { name: 'Time' })).toBeVisible();

      await bar.getByRole('button', { name: 'Play' }).focus();
      const hidden: string[] = [];
      let stuck = 0;
      for (let step = 0; step < 60; step++) {
        await page.keyboard.press('Tab');
        const seen = await page.evaluate(() => {
          const focused = document.activeElement as HTMLElement | null;
          const playback = document.querySelector('.playback');
          if (!focused || !playback || playback.contains(focused)) return null;
          const under = playback.getBoundingClientRect();
          const it = focused.getBoundingClientRect();
          const barStuck = under.top <= 1;
          const covered = barStuck && it.top < under.bottom - 1 && it.bottom > under.top;
          return { barStuck, covered, what: `${focused.tagName} ${focused.textContent?.trim().slice(0, 40)}` };
        });
        if (!seen) continue;
        if (seen.barStuck) stuck++;
        if (seen.covered) hidden.push(seen.what);
      }
      // The walk went far enough down for the bar to stick, and nothing focused sat under it.
      expect(stuck).toBeGreaterThan(5);
      expect(hidden).toEqual([]);
    });
  });
}

// WCAG 2.5.8: on a touchscreen every slider (the voice readout's speed, playback speed, the
// time scrubber, the pitfall exercise's pause offset) is a target at least 24 CSS px tall,
// not the browser's 16 px track.
test.describe('phone, touch: sliders', () => {
  test.use({ viewport: PHONE, hasTouch: true, isMobile: true });
  test('every slider is at least 24 px tall to a finger', async ({ page }) => {
    await openRun(page, BUSY_RUN);
    const sliders = page.getByRole('slider');
    await expect(sliders.nth(3)).toBeAttached();
    const sizes: string[] = [];
    for (const slider of await sliders.all()) {
      if (!(await slider.isVisible())) continue;
      await slider.scrollIntoViewIfNeeded();
      const box = (await slider.boundingBox())!;
      if (box.height < 24) sizes.push(`${await slider.getAttribute('aria-label') ?? await slider.evaluate((e) => (e as HTMLInputElement).labels?.[0]?.textContent)}: ${box.height} px`);
    }
    expect(sizes).toEqual([]);
  });
});
