// What a careful learner trips over (issue 25): each test drives the page as that learner
// did, with other numbers than the report's, and fails on the page as it was before the fix.
import { test, expect, openApp } from './fixtures';
import type { BrowserContext, FrameLocator, Locator, Page } from '@playwright/test';

/** A static host that sends `Access-Control-Allow-Origin: *`, so a sandboxed frame loads the app. */
async function serveWithCors(context: BrowserContext, baseURL: string) {
  const origin = new URL(baseURL).origin;
  await context.route('**/*', async (route) => {
    if (new URL(route.request().url()).origin !== origin) return route.fallback();
    const response = await route.fetch();
    await route.fulfill({ response, headers: { ...response.headers(), 'access-control-allow-origin': '*' } });
  });
}

async function openEmbedded(page: Page, context: BrowserContext, baseURL: string, src: string): Promise<FrameLocator> {
  await serveWithCors(context, baseURL);
  await page.goto(`/__test/embed-parent.html?src=${encodeURIComponent(src)}`);
  return page.frameLocator('#lab');
}

const search = (root: Page | FrameLocator) => root.getByRole('region', { name: 'Find a counterexample' });

type Language = 'Python' | 'TypeScript';

/** "Your client" in `language`: its workbench, found by role and visible text. */
function snippet(page: Page, language: Language) {
  const panel = page.getByRole('region', { name: `Your client in ${language}`, exact: true });
  return {
    panel,
    editor: panel.getByRole('textbox', { name: `Your client's ${language} code` }),
    run: panel.getByRole('button', { name: 'Run in the lab', exact: true }),
    status: panel.locator('.snippet-status'),
  };
}

/** Opens the lab at `fragment` and switches it to "Your client" in `language`. */
async function openSnippets(page: Page, language: Language, fragment = '#/sandbox') {
  await openApp(page, fragment);
  await page.getByRole('group', { name: 'Run', exact: true }).getByRole('button', { name: 'Your client', exact: true }).click();
  await page.getByRole('group', { name: 'Language of your client' }).getByRole('button', { name: language, exact: true }).click();
  await expect(snippet(page, language).panel.locator('.cm-content')).toHaveCount(1);
}

/** Replaces the editor's whole text, as pasting would. */
async function replaceCode(editor: Locator, code: string) {
  await editor.click();
  await editor.press('ControlOrMeta+a');
  await editor.page().keyboard.insertText(code);
}

test.describe('1. the search works in the app\'s own embed', () => {
  test('inside <iframe sandbox="allow-scripts"> the search finds a counterexample', async ({ page, context, baseURL, checkA11y }) => {
    const frame = await openEmbedded(page, context, baseURL!, '/?embed#/sandbox?v=1&preset=1');
    await frame.getByRole('checkbox', { name: 'Fencing at storage' }).uncheck();
    await search(frame).getByLabel('Plans to try').fill('4000');
    await search(frame).getByRole('button', { name: 'Start' }).click();
    await expect(search(frame).getByText(/^Counterexample: plan \d+ of seed \d+ broke a check\./)).toBeVisible({ timeout: 30_000 });
    await expect(search(frame).getByText(/could not start/)).toHaveCount(0);
    await checkA11y(page);
  });
});

test.describe('4. a heavy search shows progress, the time left, and warns first', () => {
  // A plan here runs tens of thousands of events (a write every 10 ms for 250 s), so the
  // search lasts long enough to watch whatever the machine's speed.
  test('seven clients, 250 s, a write every 10 ms, every fault kind: warned, then progress each second', async ({ page }) => {
    await openApp(page, '#/sandbox?v=1&clients=7&dur=250s&slice=10ms');
    await expect(page.getByRole('heading', { name: 'Lease laboratory' })).toBeVisible();
    for (const box of await search(page).getByRole('checkbox').all()) await box.check();
    await search(page).getByLabel('Plans to try').fill('700000');
    await search(page).getByRole('button', { name: 'Start' }).click();
    const warning = search(page).getByRole('alert');
    await expect(warning).toContainText(/would take about \d+ h \d+ min/);
    await expect(warning).toContainText(/about \d+ fit in a minute/);
    await expect(search(page).getByRole('progressbar')).toHaveCount(0);

    await search(page).getByRole('button', { name: 'Start anyway' }).click();
    const stats = search(page).getByText(/^\d+ of 700000 plans tried/);
    await expect(stats).toContainText(/^[1-9]\d* of 700000 plans tried/, { timeout: 5_000 });
    await expect(stats).toContainText(/About (\d+ h )?\d+ (min|s)( \d+ s)? left at this speed\./, { timeout: 5_000 });
    // Progress keeps coming, at least once a second, whatever a plan costs.
    const tried = async () => Number(((await stats.innerText()).match(/^(\d+) of/) ?? [])[1]);
    const first = await tried();
    await expect.poll(tried, { timeout: 3_000, intervals: [250] }).toBeGreaterThan(first);
    await search(page).getByRole('button', { name: 'Cancel' }).click();
    await expect(search(page).getByText(/^Search cancelled after \d+ plans/)).toBeVisible();
  });

  // The same clients and length with a 40-ms lease: too short to keep, so a run takes a few
  // dozen steps and the whole search seconds. The model's own upper bound on its steps is
  // thousands of times that; the warning goes by a sample of the real run instead.
  test('a search that only looks heavy starts without a warning and finishes', async ({ page }) => {
    await openApp(page, '#/sandbox?v=1&clients=7&dur=250s&ttl=40ms&margin=5ms');
    await expect(page.getByRole('heading', { name: 'Lease laboratory' })).toBeVisible();
    for (const box of await search(page).getByRole('checkbox').all()) await box.check();
    await search(page).getByLabel('Plans to try').fill('300000');
    await search(page).getByRole('button', { name: 'Start' }).click();
    await expect(search(page).getByRole('button', { name: 'Start anyway' })).toHaveCount(0);
    await expect(search(page).getByText(/^(No counterexample in 300000 plans|Counterexample: plan \d+)/)).toBeVisible({ timeout: 120_000 });
  });
});

test.describe('3. edited code too long for a plain link field', () => {
  test('9,600 characters of client code travel compressed, and come back after a reload', async ({ page }) => {
    await openSnippets(page, 'Python');
    const python = snippet(page, 'Python');
    const lines = Array.from({ length: 330 }, (_, i) => `renewals_${i} = ${i * 37 % 101}  # beat ${i}`);
    const code = `${lines.join('\n')}\ndef start(node):\n    print("last line 331")\n`;
    expect(code.length).toBeGreaterThan(8_192);
    await replaceCode(python.editor, code);
    await expect.poll(() => page.url()).toMatch(/[?&]pyz=/);
    expect(page.url()).toContain('client=python');
    await expect(python.panel.getByText(/too long for a link/)).toHaveCount(0);
    await page.reload();
    // The link opens "Your client" in Python with the code, and runs nothing.
    await expect(python.panel.locator('.cm-content')).toHaveCount(1);
    await expect(python.editor).toContainText('renewals_0 = 0  # beat 0');
    await expect(python.status).toHaveText('Not run yet: nothing runs until you press Run in the lab.');
    // The editor draws only the lines in view: go to the end to see the last ones.
    await python.editor.click();
    await python.editor.press('ControlOrMeta+End');
    await expect(python.editor).toContainText('print("last line 331")');
    await expect(python.editor).toContainText('renewals_328 = ');
  });

  test('client code too long even compressed is said to be, kept, and offered as a download named client.ts', async ({ page }) => {
    await openSnippets(page, 'TypeScript');
    const typescript = snippet(page, 'TypeScript');
    let state = 20_261_202;
    const noise = Array.from({ length: 36_000 }, () => {
      state = (state * 1_103_515_245 + 12_345) % 2_147_483_648;
      return String.fromCharCode(33 + (state >> 16) % 90);
    }).join('');
    const code = `// ${noise}\nfunction start(node: any) { console.log("kept"); }\n`;
    await replaceCode(typescript.editor, code);
    const note = typescript.panel.getByText(/Your TypeScript code is too long for a link, even compressed/);
    await expect(note).toBeVisible();
    expect(page.url()).not.toMatch(/[?&]tsz?=/);
    await expect(typescript.editor).toContainText('console.log("kept");');
    const download = page.waitForEvent('download');
    await typescript.panel.getByRole('button', { name: 'Download the TypeScript code' }).click();
    const file = await download;
    expect(file.suggestedFilename()).toBe('client.ts');
    const saved = await file.createReadStream();
    const chunks: Buffer[] = [];
    for await (const chunk of saved) chunks.push(chunk as Buffer);
    expect(Buffer.concat(chunks).toString('utf8')).toBe(code);
  });
});

test.describe('2. the code editor never traps Tab', () => {
  for (const language of ['Python', 'TypeScript'] as const) {
    test(`${language}: a Tab walk leaves the editor for Run in the lab, shows the way out, and edits nothing`, async ({ page, checkA11y }) => {
      await openSnippets(page, language);
      const before = page.url();
      const s = snippet(page, language);
      // Arrive by keyboard from the control before the editor.
      await s.editor.focus();
      const keys = s.panel.getByText(/^Tab moves to the next control\./);
      await expect(keys).toBeVisible();
      const ring = await s.panel.locator('.cm-editor').evaluate((e) => getComputedStyle(e).outlineWidth);
      expect(parseFloat(ring)).toBeGreaterThanOrEqual(2);
      await page.keyboard.press('Tab');
      await expect(s.editor).not.toBeFocused();
      await expect(s.run).toBeFocused();
      await expect(keys).toBeHidden();
      await page.keyboard.press('Shift+Tab');
      await expect(s.editor).toBeFocused();
      await page.keyboard.press('Shift+Tab');
      await expect(s.editor).not.toBeFocused();
      expect(page.url()).toBe(before);

      // Once the learner types, Tab indents; Escape then Tab leaves, as the hint says.
      await s.editor.focus();
      await page.keyboard.press('End');
      await page.keyboard.type(language === 'Python' ? '#' : '//');
      await expect(s.panel.getByText('Tab indents. To leave the editor, press Esc, then Tab.')).toBeVisible();
      await page.keyboard.press('Tab');
      await expect(s.editor).toBeFocused();
      await page.keyboard.press('Escape');
      await page.keyboard.press('Tab');
      await expect(s.run).toBeFocused();
      await checkA11y(page, '.own-client');
    });
  }

  test('a full Tab walk of the Sandbox reaches Run in the lab right after the editor', async ({ page }) => {
    test.setTimeout(120_000);
    await openSnippets(page, 'TypeScript');
    // From the top of the page, not from the language button just clicked: the link keeps
    // "Your client" in TypeScript across the reload.
    await page.reload();
    await expect(snippet(page, 'TypeScript').panel.locator('.cm-content')).toHaveCount(1);
    const seen: string[] = [];
    for (let i = 0; i < 400 && !seen.includes('Run in the lab'); i++) {
      await page.keyboard.press('Tab');
      seen.push(await page.evaluate(() => {
        const e = document.activeElement as HTMLElement | null;
        return e?.getAttribute('aria-label') ?? e?.textContent?.trim().slice(0, 40) ?? '';
      }));
    }
    const editor = seen.indexOf("Your client's TypeScript code");
    expect(editor).toBeGreaterThan(0);
    expect(seen[editor + 1]).toBe('Run in the lab');
  });
});

test.describe('6. messages in the learner\'s words', () => {
  test('a link notice names the form\'s fields and plain ranges, and the margin behind a short TTL', async ({ page }) => {
    await openApp(page, '#/sandbox?v=1&loss=103%25');
    const notice = page.getByRole('status', { name: 'Part of this link could not be read' });
    await expect(page.getByText(/Packet loss: 103% is not between 0% and 100%/)).toBeVisible();
    await expect(notice).not.toContainText('loss_ppm');
    await page.goto('about:blank');
    await openApp(page, '#/sandbox?v=1&ttl=30ms');
    await expect(page.getByText(/Drift margin: 500 ms is not shorter than the lease TTL of 30 ms; .*lower the drift margin/)).toBeVisible();
  });

  test('the pitfall exercise rounds derived times instead of truncating them', async ({ page }) => {
    await openApp(page, '#/sandbox');
    const exercise = page.getByRole('region', { name: /Pitfall exercise/ });
    await exercise.getByLabel('Your T').fill('800');
    await expect(exercise.getByText('Heartbeat every T/3 = 266.667 ms.')).toBeVisible();
    await exercise.getByRole('slider').fill('360');
    await expect(exercise.getByText('The pause starts 96 ms into a renew period')).toBeVisible();
  });
});

test.describe('5. live mode keeps its run and follows its scenario', () => {
  const LIVE = 'faults=none&ttl=1200ms&timeout=250ms&retry=100ms&acquire=250ms&slice=200ms&margin=40ms';

  async function startLive(page: Page, params = LIVE) {
    await openApp(page, `#/sandbox?v=1&${params}`);
    await page.getByRole('button', { name: 'Live', exact: true }).click();
    await page.getByRole('button', { name: 'Start live run' }).click();
    await expect(page.getByRole('button', { name: 'Stop live run' })).toBeVisible();
    await expect(page.locator('.live-status')).toContainText('Live for', { timeout: 20_000 });
  }

  test('leaving the Sandbox tab stops the run, says so, and keeps its recording', async ({ page }) => {
    await startLive(page);
    await page.waitForTimeout(1_500);
    await page.getByRole('tab', { name: 'Gist' }).click();
    await page.getByRole('tab', { name: 'Sandbox' }).click();
    await expect(page.getByRole('button', { name: 'Live', exact: true })).toHaveAttribute('aria-pressed', 'true');
    await expect(page.getByRole('heading', { name: 'Recorded live run' })).toBeVisible();
    await expect(page.locator('.live-status')).toContainText('stopped when you left it');
    await expect.poll(() => page.evaluate(() => (window as unknown as { leaseLabLiveWorkers?: number }).leaseLabLiveWorkers)).toBe(0);
  });

  test('(6.) the freeze field names the real problem with what was typed', async ({ page }) => {
    await startLive(page);
    for (const typed of ['-4', '0.5', '']) {
      await page.getByLabel('Freeze this page for').fill(typed);
      await page.getByRole('button', { name: 'Freeze', exact: true }).click();
      await expect(page.getByRole('alert')).toHaveText('Type a whole number of milliseconds between 1 and 10000.');
    }
    await page.getByLabel('Freeze this page for').fill('12000');
    await page.getByRole('button', { name: 'Freeze', exact: true }).click();
    await expect(page.getByRole('alert')).toHaveText('A freeze lasts at most 10.000 s.');
    await page.getByRole('button', { name: 'Stop live run' }).click();
  });

  test('a link that changes the scenario stops the live run under it', async ({ page }) => {
    await startLive(page);
    await page.evaluate((params) => { location.hash = `#/sandbox?v=1&${params}`; }, LIVE.replace('ttl=1200ms', 'ttl=1700ms'));
    await expect(page.getByLabel('Lease TTL (T)')).toHaveValue('1.7');
    await expect(page.locator('.live-status')).toContainText('stopped because its scenario changed');
    await expect(page.getByRole('button', { name: 'Start live run' })).toBeVisible();
  });
});

test.describe('7. the lab\'s diagram follows the run', () => {
  test('the laboratory labels the acquire arrow with the run\'s T; the lesson keeps its 30 s', async ({ page }) => {
    await openApp(page, '#/sandbox?v=1&preset=1&ttl=4500ms');
    const live = page.getByRole('region', { name: 'Live diagrams' });
    await expect(live.getByText('acquire TTL=4.5s')).toBeVisible();
    await expect(live.getByText('acquire TTL=30s')).toHaveCount(0);
    await page.getByRole('tab', { name: 'Maps' }).click();
    await expect(page.getByRole('tabpanel').getByText('acquire TTL=30s').first()).toBeVisible();
  });
});

test.describe('8. smaller state problems', () => {
  test('with storage full, grading a card says once that progress is not kept', async ({ page }) => {
    await page.addInitScript(() => {
      if (sessionStorage.getItem('filled')) return;
      sessionStorage.setItem('filled', '1');
      // Fill every last byte: halve the block each time it no longer fits.
      let i = 0;
      for (let size = 1 << 22; size >= 1; ) {
        try {
          localStorage.setItem(`filler-${i}`, 'x'.repeat(size));
          i += 1;
        } catch {
          size = Math.floor(size / 2);
        }
      }
    });
    await openApp(page, '#/qa');
    const card = page.getByRole('listitem').filter({ hasText: 'Why renew at T/3?' });
    await card.getByRole('button', { name: 'Show answer' }).click();
    await card.getByRole('button', { name: 'Knew it' }).click();
    await expect(page.getByText(/^1 known/)).toBeVisible();
    // Said once, as a status a screen reader announces, not only as a note to stumble on.
    await expect(page.getByRole('status').filter({ hasText: 'your grades last only until you leave' })).toHaveCount(1);
    await card.getByRole('button', { name: 'Review again' }).click();
    await expect(page.getByText(/your grades last only until you leave/)).toHaveCount(1);
  });

  test('the Embed snippet carries the scenario on screen, not a malformed link', async ({ page }) => {
    await openApp(page, '#/sandbox?v=1&preset=2&ttl=1.5.5s');
    await expect(page.getByText(/This link's TTL .* showing the scenario of preset 2 instead/)).toBeVisible();
    await page.getByRole('button', { name: 'Embed' }).click();
    await page.getByRole('button', { name: 'Copy the iframe snippet' }).click();
    const snippetText = await page.getByLabel('Iframe snippet').inputValue();
    expect(snippetText).toContain('preset=2');
    expect(snippetText).not.toContain('ttl=');
    await page.getByRole('button', { name: 'Copy link' }).first().click();
    expect(await page.getByLabel('Link to this state').inputValue()).not.toContain('ttl=');
  });

  test('Copy link percent-encodes a packet loss', async ({ page }) => {
    await openApp(page, '#/sandbox');
    await page.getByLabel('Packet loss').fill('2.5');
    await page.getByLabel('Packet loss').press('Enter');
    await expect.poll(() => page.url()).toContain('loss=2.5%25');
  });

  for (const src of ['/?embed&diagram=lifecycle#/maps', '/?embed#/gist', '/?embed#/sandbox?v=1&preset=3']) {
    test(`embed mode has one h1 (${src})`, async ({ page, context, baseURL, checkA11y }) => {
      const frame = await openEmbedded(page, context, baseURL!, src);
      const title = frame.getByRole('heading', { level: 1 });
      await expect(title).toHaveCount(1);
      await expect(title).toHaveText('Lease Renewal, Clock Skew & Heartbeat Failure Modes');
      // Out of sight: each view starts with its own visible heading.
      await expect(title).toHaveClass(/visually-hidden/);
      await expect(frame.getByRole('heading', { level: 2 }).or(frame.getByRole('heading', { level: 3 })).first()).toBeVisible();
      await checkA11y(page);
    });
  }
});
