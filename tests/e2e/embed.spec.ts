// Embed mode inside a course page: a parent page on the same server embeds the app in
// <iframe sandbox="allow-scripts"> (an opaque origin: no storage, no clipboard, and every
// request it makes is cross-origin with `Origin: null`).
import { test, expect, openApp } from './fixtures';
import type { BrowserContext, Page } from '@playwright/test';

/**
 * A static host that sends `Access-Control-Allow-Origin: *` (GitHub Pages does): a sandboxed
 * iframe can only load the app's module script and wasm with it. Same-origin requests only;
 * anything else falls through to the fixture that blocks and reports it.
 */
async function serveWithCors(context: BrowserContext, baseURL: string) {
  const origin = new URL(baseURL).origin;
  await context.route('**/*', async (route) => {
    if (new URL(route.request().url()).origin !== origin) return route.fallback();
    const response = await route.fetch();
    await route.fulfill({ response, headers: { ...response.headers(), 'access-control-allow-origin': '*' } });
  });
}

async function openParent(page: Page, src: string) {
  await page.goto(`/__test/embed-parent.html?src=${encodeURIComponent(src)}`);
  return page.frameLocator('#lab');
}

/** The heights the parent received, once at least one arrived. */
async function heights(page: Page): Promise<number[]> {
  await page.waitForFunction(() => (window as unknown as { heights: number[] }).heights.length > 0);
  return page.evaluate(() => (window as unknown as { heights: number[] }).heights);
}

test.beforeEach(async ({ page, context, baseURL }) => {
  void page; // the fixture's blocking route first, so this one runs before it
  await serveWithCors(context, baseURL!);
});

test.describe('in a tall window, so the whole frame is painted for the screenshot', () => {
  test.use({ viewport: { width: 1280, height: 4_000 } });

  test('the sandbox with a preset renders in a sandboxed iframe and sizes it by message', async ({ page, shot }) => {
    const frame = await openParent(page, '/?embed&theme=dark#/sandbox?v=1&preset=2&t=17s');
    await expect(frame.getByRole('heading', { name: 'Lease laboratory' })).toBeVisible();
    await expect(frame.locator('.clock .now')).toHaveText('t = 17.000 s');
    await expect(frame.locator('.trace-id')).toContainText(/Trace hash [0-9a-f]{16}/);
    await expect(frame.getByRole('tablist')).toHaveCount(0);
    await expect(frame.locator('html')).toHaveAttribute('data-theme', 'dark');

    const received = await heights(page);
    const last = received[received.length - 1];
    expect(last).toBeGreaterThan(600);
    expect(last).toBeLessThan(20_000);
    await expect
      .poll(() => page.locator('#lab').evaluate((f: HTMLIFrameElement) => f.getBoundingClientRect().height))
      .toBeGreaterThanOrEqual(last);
    // Sized by the message, the frame shows all of the view, its bottom padding too: it does not scroll.
    await expect.poll(() => frame.locator('html').evaluate((h) => h.scrollHeight - h.clientHeight)).toBeLessThanOrEqual(0);
    expect(page.url()).toContain('/__test/embed-parent.html');
    await page.locator('#lab').scrollIntoViewIfNeeded();
    const background = await frame.locator('body').evaluate((b) => getComputedStyle(b).backgroundColor);
    expect(background).toBe('rgb(15, 18, 22)');
    await shot(page, 'embed-sandbox-in-course-page');

    // A deliberate change inside the frame adds nothing to the course page's Back button.
    const entries = await page.evaluate(() => history.length);
    const trace = await frame.locator('.trace-id').innerText();
    await frame.getByRole('checkbox', { name: 'Fencing at storage' }).uncheck();
    await expect(frame.locator('.trace-id')).not.toHaveText(trace);
    expect(await page.evaluate(() => history.length)).toBe(entries);
    expect(page.url()).toContain('/__test/embed-parent.html');
  });
});

test('the height follows the content when it changes', async ({ page }) => {
  const frame = await openParent(page, '/?embed#/qa');
  await expect(frame.getByRole('heading').first()).toBeVisible();
  const first = await heights(page);
  await frame.locator('body').evaluate(() => {
    const spacer = document.createElement('div');
    spacer.style.height = '900px';
    document.querySelector('main.embed')!.appendChild(spacer);
  });
  await expect
    .poll(async () => (await heights(page)).length)
    .toBeGreaterThan(first.length);
  const all = await heights(page);
  expect(all[all.length - 1]).toBeGreaterThanOrEqual(first[first.length - 1] + 850);
});

test('one diagram alone, with the controls hidden, and clicks never navigate the top window', async ({
  page,
  shot,
}) => {
  const frame = await openParent(page, '/?embed&controls=off&diagram=lifecycle#/maps');
  const headings = frame.getByRole('heading', { level: 2 });
  await expect(headings).toHaveCount(1);
  await expect(frame.locator('svg').first()).toBeVisible();
  await frame.locator('[role=button]').first().focus();
  await frame.locator('[role=button]').first().press('Enter');
  await expect(frame.locator('.explanation')).not.toBeEmpty();
  await expect(frame.getByRole('button', { name: 'Copy link' })).toHaveCount(0);
  expect(page.url()).toContain('/__test/embed-parent.html');
  const received = await heights(page);
  expect(received[received.length - 1]).toBeGreaterThan(200);
  await shot(page, 'embed-lifecycle-diagram');
});

test('an embedded diagram names a selection it does not have, and still loads no lab', async ({ page }) => {
  const labFiles: string[] = [];
  page.on('request', (request) => {
    if (/^\/lab[^/]*\.(js|wasm|css)$/.test(new URL(request.url()).pathname)) labFiles.push(request.url());
  });
  const frame = await openParent(page, '/?embed&diagram=lifecycle#/maps?v=1&sel=lifecycle.holdng');
  await expect(frame.getByRole('status').filter({ hasText: 'Part of this link could not be read' }))
    .toContainText('lifecycle.holdng');
  await expect(frame.locator('[role=button][aria-pressed=true]')).toHaveCount(0);
  // A good selection is shown selected, with no notice.
  await openParent(page, '/?embed&diagram=lifecycle#/maps?v=1&sel=lifecycle.holding');
  await expect(frame.locator('[role=button][aria-pressed=true]')).toHaveCount(1);
  await expect(frame.getByText('Part of this link could not be read')).toHaveCount(0);
  await page.waitForTimeout(500);
  expect(labFiles).toEqual([]);
});

test('every diagram embedded alone shows the link\'s selected part with its explanation', async ({ page }) => {
  for (const [diagram, sel, name] of [
    ['sequence', 'sequence.4', /^Step 4\b/],
    ['architecture', 'architecture.edge.renew', /renew/i],
    ['lifecycle', 'lifecycle.lost', /^State \d Lost/],
  ] as const) {
    const frame = await openParent(page, `/?embed&diagram=${diagram}#/maps?v=1&sel=${sel}`);
    const pressed = frame.locator('[aria-pressed=true]');
    await expect(pressed).toHaveCount(1);
    await expect(pressed).toHaveAccessibleName(name);
    await expect(frame.locator('.explanation .explanation-title')).toBeVisible();
    await expect(frame.getByText('Part of this link could not be read')).toHaveCount(0);
  }
});

test("an embedded diagram follows a new selection in the frame's src", async ({ page }) => {
  const frame = await openParent(page, '/?embed&diagram=lifecycle#/maps?v=1&sel=lifecycle.holding');
  const pressed = frame.locator('[role=button][aria-pressed=true]');
  await expect(pressed).toHaveAccessibleName(/^State \d Holding/);
  await page.locator('#lab').evaluate((iframe: HTMLIFrameElement) => {
    iframe.src = iframe.src.replace('sel=lifecycle.holding', 'sel=lifecycle.lost');
  });
  await expect(pressed).toHaveAccessibleName(/^State \d Lost/);
});

test('the Q&A cards work without storage, and a sandbox without controls hides them', async ({ page }) => {
  const frame = await openParent(page, '/?embed&controls=off#/sandbox?v=1&preset=4&t=20s');
  await expect(frame.getByRole('heading', { name: 'Lease laboratory' })).toBeVisible();
  await expect(frame.getByRole('button', { name: 'Jump to end' })).toBeHidden();
  await expect(frame.getByRole('group', { name: 'Add a fault' })).toHaveCount(0);
  // No control is left: the scenario menu's label, the mode switch, the search.
  await expect(frame.getByText('Scenario', { exact: true })).toBeHidden();
  await expect(frame.getByRole('button', { name: 'Live', exact: true })).toBeHidden();
  await expect(frame.getByRole('button', { name: 'Start', exact: true })).toBeHidden();
  await expect(frame.getByText(/A keeps retrying inside its remaining budget/)).toBeVisible();
  // Hidden controls take their key hint with them, not what a diagram says under itself:
  // the arrows of the run's sequence still move the cursor, and the panel says so.
  await expect(frame.getByText(/^Keys inside the laboratory/)).toBeHidden();
  const runSequence = frame.locator('section').filter({ has: frame.getByRole('heading', { name: /^Sequence: the last/ }) });
  await expect(runSequence.getByText(/^Select an arrow to move the cursor/)).toBeVisible();

  const qa = await openParent(page, '/?embed#/qa');
  await expect(qa.getByRole('heading').first()).toBeVisible();
  await expect(qa.getByRole('button').first()).toBeVisible();
});

test("a theme that the link forces reaches every colour, the laboratory's too", async ({ page }) => {
  // The parent page is light; each frame is told its theme.
  const colours = async (theme: string) => {
    const frame = await openParent(page, `/?embed&theme=${theme}#/sandbox?v=1&preset=2&t=17s`);
    await expect(frame.locator('.tenure-swatch').first()).toBeVisible();
    return frame.locator('body').evaluate((body) => {
      const of = (selector: string, property: 'backgroundColor' | 'color') =>
        getComputedStyle(document.querySelector(selector)!)[property];
      return { page: of('body', 'backgroundColor'), client: of('.tenure-swatch', 'backgroundColor'), text: of('body', 'color') };
    });
  };
  const light = await colours('light');
  const dark = await colours('dark');
  expect(dark.page).not.toBe(light.page);
  expect(dark.text).not.toBe(light.text);
  expect(dark.client).not.toBe(light.client);
});

test('the Embed dialog builds a working iframe snippet for the current view', async ({ page, checkA11y }) => {
  await openApp(page, '#/sandbox?v=1&preset=3&t=5s');
  await page.getByRole('button', { name: 'Embed' }).click();
  const dialog = page.getByRole('dialog', { name: 'Embed this view in a course page' });
  await expect(dialog).toBeVisible();
  await dialog.getByLabel('Title').fill('Pause between writes');
  await dialog.getByLabel('dark').check();
  await dialog.getByLabel('Hide the controls').check();
  await dialog.getByLabel('Height (px)').fill('640');
  await dialog.getByRole('button', { name: 'Copy the iframe snippet' }).click();
  const snippet = await dialog.getByLabel('Iframe snippet').inputValue();
  expect(snippet).toMatch(
    /^<iframe src="http:\/\/127\.0\.0\.1:\d+\/\?embed&amp;theme=dark&amp;controls=off#\/sandbox\?v=1&amp;preset=3&amp;t=5s" title="Pause between writes" width="720" height="640" loading="lazy" sandbox="allow-scripts" style="border:0;max-width:100%"><\/iframe>$/,
  );
  await checkA11y(page, '#embed-panel');

  const src = snippet.match(/src="([^"]+)"/)![1].replaceAll('&amp;', '&');
  const frame = await openParent(page, src);
  await expect(frame.locator('.clock .now')).toHaveText('t = 5.000 s');
  await expect(frame.locator('html')).toHaveAttribute('data-theme', 'dark');
});

// A size is kept as typed while it is typed (a field that jumped to 120 at the first digit
// turned 500 into 1200), and a size the snippet cannot take says beside its field what it uses.
test('the Embed dialog keeps a size as typed and says what it uses for one out of range', async ({ page }) => {
  await openApp(page, '#/maps');
  await page.getByRole('button', { name: 'Embed', exact: true }).click();
  const dialog = page.getByRole('dialog', { name: 'Embed this view in a course page' });
  const width = dialog.getByLabel('Width (px)');
  const snippet = async () => {
    await dialog.getByRole('button', { name: 'Copy the iframe snippet' }).click();
    return dialog.getByLabel('Iframe snippet').inputValue();
  };
  await width.fill('');
  await width.pressSequentially('515');
  await expect(width).toHaveValue('515');
  await expect(width).toHaveAttribute('aria-invalid', 'false');
  expect(await snippet()).toContain(' width="515" ');
  for (const [typed, used] of [['64', 120], ['90000', 4000], ['', 720]] as const) {
    await width.fill(typed);
    await expect(width).toHaveValue(typed);
    await expect(width).toHaveAttribute('aria-invalid', 'true');
    await expect(width).toHaveAccessibleDescription(
      `A size is a whole number of pixels from 120 to 4000: the snippet uses ${used} px.`,
    );
    expect(await snippet()).toContain(` width="${used}" `);
  }
  await dialog.getByLabel('Height (px)').fill('333');
  await width.fill('1000');
  await expect(dialog.locator('.field-error')).toHaveCount(0);
  expect(await snippet()).toContain(' width="1000" height="333" ');
});

// Each field's input sits beside its label, each choice on one line beside its control, and
// the Embed button stays beside Copy link with the panel on the row below them.
for (const viewport of [
  { width: 1280, height: 900, label: 'desktop' },
  { width: 390, height: 844, label: 'phone' },
]) {
  test(`the Embed dialog is laid out as a form (${viewport.label})`, async ({ page, shot }) => {
    await page.setViewportSize(viewport);
    await openApp(page, '#/gist');
    const copy = page.getByRole('button', { name: 'Copy link' });
    const button = page.getByRole('button', { name: 'Embed', exact: true });
    await button.click();
    const dialog = page.getByRole('dialog', { name: 'Embed this view in a course page' });
    await expect(dialog).toBeVisible();
    const box = async (l: import('@playwright/test').Locator) => (await l.boundingBox())!;
    expect(Math.abs((await box(button)).y - (await box(copy)).y)).toBeLessThan(4);
    expect((await box(dialog)).y).toBeGreaterThan((await box(button)).y + (await box(button)).height - 1);
    const lineHeight = await dialog.evaluate((d) => parseFloat(getComputedStyle(d).lineHeight) || 24);
    for (const name of ['Title', 'Width (px)', 'Height (px)', 'Show']) {
      // A select's name takes in its chosen option's text.
      const input = name === 'Show' ? dialog.getByRole('combobox', { name: /^Show/ }) : dialog.getByLabel(name, { exact: true });
      const label = input.locator('xpath=ancestor::label[1]');
      const labelBox = await box(label);
      const inputBox = await box(input);
      // One row, and the input no further from the label's start than a short label's width.
      expect(labelBox.height).toBeLessThan(2.5 * lineHeight);
      expect(inputBox.x - labelBox.x).toBeLessThan(200);
    }
    for (const name of ['auto', 'light', 'dark', 'Hide the controls']) {
      const control = dialog.getByLabel(name, { exact: true });
      const label = control.locator('xpath=ancestor::label[1]');
      const labelBox = await box(label);
      const controlBox = await box(control);
      expect(labelBox.height).toBeLessThan(1.6 * lineHeight);
      expect(labelBox.width).toBeLessThan(260);
      expect(controlBox.x).toBeGreaterThanOrEqual(labelBox.x - 1);
    }
    await dialog.scrollIntoViewIfNeeded();
    await shot(page, `embed-dialog-${viewport.label}`);
  });
}

// The panel is a dialog (non-modal): keyboard only at phone width, Escape closes it from
// anywhere inside and gives focus back to the button that opened it.
test('the Embed dialog opens and closes by keyboard at phone width, Escape returning focus', async ({ page }) => {
  await page.setViewportSize({ width: 390, height: 844 });
  await openApp(page, '#/sandbox?v=1&preset=3&t=5s');
  const button = page.getByRole('button', { name: 'Embed' });
  await button.focus();
  await page.keyboard.press('Enter');
  const dialog = page.getByRole('dialog', { name: 'Embed this view in a course page' });
  await expect(dialog).toBeVisible();
  await expect(button).toHaveAttribute('aria-expanded', 'true');
  await page.keyboard.press('Tab');
  await expect(dialog.getByLabel('Title')).toBeFocused();
  await page.keyboard.press('Escape');
  await expect(dialog).toHaveCount(0);
  await expect(button).toHaveAttribute('aria-expanded', 'false');
  await expect(button).toBeFocused();
  // Escape on the button itself closes it too.
  await page.keyboard.press('Enter');
  await expect(dialog).toBeVisible();
  await page.keyboard.press('Escape');
  await expect(dialog).toHaveCount(0);
  await expect(button).toBeFocused();
});

// A course page may point its frame at another state of the lab by changing the fragment of
// the frame's src (a same-document navigation in the frame): the frame shows that link.
test("an embedded laboratory follows a new fragment in the frame's src", async ({ page }) => {
  const frame = await openParent(page, '/?embed#/sandbox?v=1&preset=2&t=5s');
  await expect(frame.locator('.clock .now')).toHaveText('t = 5.000 s');
  await page.locator('#lab').evaluate((iframe: HTMLIFrameElement) => {
    iframe.src = iframe.src.replace('preset=2&t=5s', 'ttl=8s&renew=1/4&dur=40s&faults=none&fault=pause:B@5s+12s&t=21.5s');
  });
  await expect(frame.locator('.clock .now')).toHaveText('t = 21.500 s');
  await expect(frame.getByLabel('Lease TTL (T)', { exact: true })).toHaveValue('8');
  await expect(frame.getByRole('button', { name: /^Remove stop-the-world pause/ })).toHaveCount(1);
  // A link it cannot read whole is said there too.
  await page.locator('#lab').evaluate((iframe: HTMLIFrameElement) => {
    iframe.src = iframe.src.replace(/#.*/, '#/sandbox?v=1&dur=30s&t=31s');
  });
  await expect(frame.getByRole('status').filter({ hasText: 'Part of this link could not be read' })).toContainText('after the end of the run');
  await expect(frame.locator('.clock .now')).toHaveText('t = 0 ms');
});

// A theme named in a new fragment is the frame's from then on, as a fresh link's would be;
// a fragment that names none keeps the theme on show.
test("an embedded view takes the theme a new fragment in the frame's src names", async ({ page }) => {
  const frame = await openParent(page, '/?embed#/qa?theme=dark');
  const html = frame.locator('html');
  await expect(html).toHaveAttribute('data-theme', 'dark');
  const point = (fragment: string) =>
    page.locator('#lab').evaluate((iframe: HTMLIFrameElement, f) => (iframe.src = iframe.src.replace(/#.*/, f)), fragment);
  await point('#/maps?theme=light');
  await expect(frame.getByRole('heading', { level: 2 }).first()).toBeVisible();
  await expect(html).toHaveAttribute('data-theme', 'light');
  await point('#/gist');
  await expect(frame.getByRole('heading', { name: 'How you know you still hold the lease' })).toBeVisible();
  await expect(html).toHaveAttribute('data-theme', 'light');
  await point('#/qa?theme=neon');
  await expect(frame.getByRole('status', { name: 'Part of this link could not be read' })).toContainText('theme “neon” that does not exist');
  await expect(html).not.toHaveAttribute('data-theme', /./);
});

// The controls and the one diagram are the link's too: a new fragment that names them sets
// them as a fresh load of it would, and one that names neither keeps them.
test("an embedded view takes the controls and the diagram a new fragment in the frame's src names", async ({ page }) => {
  const frame = await openParent(page, '/?embed#/sandbox?v=1&ttl=9s&t=4s');
  const point = (fragment: string) =>
    page.locator('#lab').evaluate((iframe: HTMLIFrameElement, f) => (iframe.src = iframe.src.replace(/#.*/, f)), fragment);
  const jump = frame.getByRole('button', { name: 'Jump to end' });
  await expect(jump).toBeVisible();
  await point('#/sandbox?v=1&ttl=9s&t=4s&controls=off');
  await expect(jump).toBeHidden();
  await expect(frame.locator('.clock .now')).toHaveText('t = 4.000 s');

  const headings = frame.getByRole('heading', { level: 2 });
  await point('#/maps?diagram=lifecycle');
  await expect(headings).toHaveText(['Lease lifecycle']);
  await expect(frame.getByRole('button', { name: 'Copy link' })).toHaveCount(0);
  await point('#/maps?v=1&sel=lifecycle.lost');
  await expect(headings).toHaveText(['Lease lifecycle']);
  await expect(frame.locator('[role=button][aria-pressed=true]')).toHaveAccessibleName(/^State \d Lost/);
  await point('#/maps?diagram=sequence&controls=on');
  await expect(headings).toHaveText(['Sequence']);
  await expect(frame.getByRole('button', { name: 'Copy link' })).toHaveCount(1);
  await point('#/maps?diagram=spiral');
  await expect(frame.getByRole('status', { name: 'Part of this link could not be read' })).toContainText('spiral');
  await expect(frame.getByRole('heading', { name: 'Architecture', level: 2 })).toBeVisible();
  await expect(headings.nth(1)).toBeVisible();
});

test('the embedded laboratory starts at its heading, with no rule above it', async ({ page }) => {
  const lab = (p: Page) => p.getByRole('region', { name: 'Lease laboratory' });
  const edge = (p: Page) =>
    lab(p).evaluate((section) => {
      const style = getComputedStyle(section);
      return { border: style.borderTopStyle === 'none' ? 0 : parseFloat(style.borderTopWidth), margin: style.marginTop };
    });
  // In the Sandbox tab a rule separates the tab's introduction from the laboratory…
  await openApp(page, '#/sandbox?v=1&preset=1');
  expect((await edge(page)).border).toBeGreaterThan(0);
  // …but embedded, the laboratory is all there is: nothing is drawn above its heading.
  await page.goto('./?embed#/sandbox?v=1&preset=1');
  await expect(lab(page).getByRole('heading', { name: 'Lease laboratory' })).toBeVisible();
  expect(await edge(page)).toEqual({ border: 0, margin: '0px' });
  const gap = await page.evaluate(() => {
    const main = document.querySelector('main.embed')!.getBoundingClientRect();
    const heading = document.querySelector('#lab-title')!.getBoundingClientRect();
    return heading.top - main.top;
  });
  expect(gap, 'the heading sits at the top of the view').toBeLessThan(60);
});

test('an embedded laboratory says in one notice what of its link neither the page nor the lab could read', async ({ page }) => {
  const frame = await openParent(page, '/?embed&theme=sepia#/sandbox?v=1&ttl=zz7&t=3s');
  await expect(frame.locator('.lab-mount[data-lab-ready]')).toHaveCount(1);
  const notice = frame.getByRole('status', { name: 'Part of this link could not be read' });
  await expect(notice).toContainText('theme “sepia” that does not exist');
  await expect(notice).toContainText('TTL (“zz7”) is not a number');
  await expect(frame.getByText('Part of this link could not be read')).toHaveCount(1);
  await expect(frame.locator('.clock .now')).toHaveText('t = 3.000 s');
});
