import { test, expect, openApp } from './fixtures';

const TABS = [
  { name: 'Gist', slug: 'gist' },
  { name: 'Maps', slug: 'maps' },
  { name: 'Q&A', slug: 'qa' },
  { name: 'Sandbox', slug: 'sandbox' },
];

test('the page loads with its masthead and four tabs, Gist open', async ({ page }) => {
  await openApp(page);
  await expect(page).toHaveTitle(/Lease Lab/);
  await expect(page.getByText('Concurrency · Part 5 of 6 · Distributed locks')).toBeVisible();
  await expect(
    page.getByRole('heading', { level: 1, name: 'Lease Renewal, Clock Skew & Heartbeat Failure Modes' }),
  ).toBeVisible();
  const tabs = page.getByRole('tab');
  await expect(tabs).toHaveText(TABS.map((t) => new RegExp(`${t.name.replace('?', '\\?')}$`)));
  await expect(page.getByRole('tab', { name: 'Gist' })).toHaveAttribute('aria-selected', 'true');
  await expect(page.getByRole('tabpanel')).toHaveCount(1);
});

test('every tab opens by click, puts itself in the URL, and survives a reload', async ({ page }) => {
  await openApp(page);
  for (const tab of TABS) {
    await page.getByRole('tab', { name: tab.name }).click();
    await expect(page.getByRole('tab', { name: tab.name })).toHaveAttribute('aria-selected', 'true');
    await expect(page).toHaveURL(new RegExp(`#/${tab.slug}$`));
    const panel = page.getByRole('tabpanel');
    await expect(panel).toHaveAttribute('id', `panel-${tab.slug}`);
    await expect(panel).toHaveAttribute('aria-labelledby', `tab-${tab.slug}`);
    await expect(panel).not.toBeEmpty();
  }
  await page.reload();
  await expect(page.getByRole('tab', { name: 'Sandbox' })).toHaveAttribute('aria-selected', 'true');
  await page.goBack();
  await expect(page.getByRole('tab', { name: 'Q&A' })).toHaveAttribute('aria-selected', 'true');
  await page.goForward();
  await expect(page.getByRole('tab', { name: 'Sandbox' })).toHaveAttribute('aria-selected', 'true');
});

test('a pasted link opens its tab directly', async ({ page }) => {
  await openApp(page, '#/qa');
  await expect(page.getByRole('tab', { name: 'Q&A' })).toHaveAttribute('aria-selected', 'true');
  await expect(page.getByRole('tabpanel')).toHaveAttribute('id', 'panel-qa');
});

test('the tablist follows the arrow, Home and End keys with roving focus', async ({ page }) => {
  await openApp(page);
  const gist = page.getByRole('tab', { name: 'Gist' });
  await gist.focus();
  const expectActive = async (name: string, slug: string) => {
    const tab = page.getByRole('tab', { name });
    await expect(tab).toHaveAttribute('aria-selected', 'true');
    await expect(tab).toBeFocused();
    await expect(tab).toHaveAttribute('tabindex', '0');
    await expect(page).toHaveURL(new RegExp(`#/${slug}$`));
  };
  await page.keyboard.press('ArrowRight');
  await expectActive('Maps', 'maps');
  await page.keyboard.press('End');
  await expectActive('Sandbox', 'sandbox');
  await page.keyboard.press('ArrowRight');
  await expectActive('Gist', 'gist');
  await page.keyboard.press('ArrowLeft');
  await expectActive('Sandbox', 'sandbox');
  await page.keyboard.press('Home');
  await expectActive('Gist', 'gist');
  await expect(page.getByRole('tab', { name: 'Maps' })).toHaveAttribute('tabindex', '-1');
  // Tab leaves the tablist for the open panel's content rather than visiting every tab.
  await page.keyboard.press('Tab');
  await expect(page.getByRole('tab', { name: 'Maps' })).not.toBeFocused();
});

test('arrow keys move from the focused tab, not the selected one (WAI-ARIA tabs)', async ({ page }) => {
  await openApp(page, '#/sandbox');
  const tab = (name: string) => page.getByRole('tab', { name });
  const expectOpen = async (name: string, slug: string) => {
    await expect(tab(name)).toHaveAttribute('aria-selected', 'true');
    await expect(tab(name)).toBeFocused();
    await expect(page).toHaveURL(new RegExp(`#/${slug}$`));
    // Roving tabindex: the open tab alone is in the Tab sequence.
    for (const other of ['Gist', 'Maps', 'Q&A', 'Sandbox']) {
      await expect(tab(other)).toHaveAttribute('tabindex', other === name ? '0' : '-1');
    }
    await expect(page.getByRole('tab', { selected: true })).toHaveCount(1);
  };
  await expect(tab('Sandbox')).toHaveAttribute('aria-selected', 'true');

  // Sandbox is selected, focus moves to Gist: ArrowRight goes on from Gist, to Maps.
  await tab('Gist').focus();
  await page.keyboard.press('ArrowRight');
  await expectOpen('Maps', 'maps');

  // Maps is selected, focus moves to Sandbox: ArrowRight wraps from Sandbox to Gist.
  await tab('Sandbox').focus();
  await page.keyboard.press('ArrowRight');
  await expectOpen('Gist', 'gist');

  // Gist is selected, focus moves to Q&A: ArrowLeft goes to Maps, not to Sandbox.
  await tab('Q&A').focus();
  await page.keyboard.press('ArrowLeft');
  await expectOpen('Maps', 'maps');

  // From the first tab ArrowLeft wraps to the last; Home and End ignore the selection.
  await tab('Gist').focus();
  await page.keyboard.press('ArrowLeft');
  await expectOpen('Sandbox', 'sandbox');
  await tab('Maps').focus();
  await page.keyboard.press('End');
  await expectOpen('Sandbox', 'sandbox');
  await tab('Q&A').focus();
  await page.keyboard.press('Home');
  await expectOpen('Gist', 'gist');

  // Other keys do nothing to the tablist.
  await page.keyboard.press('ArrowDown');
  await expectOpen('Gist', 'gist');

  // Tab leaves the tablist, and Shift+Tab comes back to the open tab (not the last one).
  await page.keyboard.press('Tab');
  await expect(page.getByRole('tab', { name: 'Gist' })).not.toBeFocused();
  await expect(page.locator('[role="tab"]:focus')).toHaveCount(0);
  await page.keyboard.press('Shift+Tab');
  await expectOpen('Gist', 'gist');

  // The open panel is in the Tab sequence after the share tools.
  for (let i = 0; i < 6; i += 1) {
    await page.keyboard.press('Tab');
    if (await page.getByRole('tabpanel').evaluate((panel) => panel === document.activeElement)) break;
  }
  await expect(page.getByRole('tabpanel')).toBeFocused();
});

for (const scheme of ['light', 'dark'] as const) {
  test(`every tab passes axe and is photographed in the ${scheme} theme`, async ({ page, checkA11y, shot }) => {
    await page.emulateMedia({ colorScheme: scheme, reducedMotion: 'reduce' });
    for (const viewport of [
      { width: 1280, height: 800, label: 'desktop' },
      { width: 375, height: 800, label: 'phone' },
    ]) {
      await page.setViewportSize(viewport);
      for (const tab of TABS) {
        await openApp(page, `#/${tab.slug}`);
        await expect(page.getByRole('tabpanel')).toHaveAttribute('id', `panel-${tab.slug}`);
        if (viewport.label === 'desktop') await checkA11y(page);
        await shot(page, `shell-${tab.slug}-${viewport.label}-${scheme}`);
      }
    }
    const background = await page.evaluate(() => getComputedStyle(document.body).backgroundColor);
    expect(background).toBe(scheme === 'dark' ? 'rgb(15, 18, 22)' : 'rgb(247, 248, 250)');
  });
}

test('the layout never scrolls sideways on a 360 px phone', async ({ page }) => {
  await page.setViewportSize({ width: 360, height: 740 });
  for (const tab of TABS) {
    await openApp(page, `#/${tab.slug}`);
    const overflow = await page.evaluate(() => document.documentElement.scrollWidth - window.innerWidth);
    expect(overflow, `horizontal overflow on ${tab.name}`).toBeLessThanOrEqual(0);
  }
});

// Every module is built with WebAssembly SIMD. A browser without it fails to compile them:
// here every way of compiling wasm rejects with the CompileError such a browser throws.
test.describe('in a browser that cannot compile the wasm (no SIMD)', () => {
  test.use({ allowedConsoleErrors: [/CompileError|invalid SIMD opcode/] });

  test('the pre-rendered lesson stays readable and its tabs still switch', async ({ page }) => {
    await page.addInitScript(() => {
      const refuse = () => new WebAssembly.CompileError('WebAssembly.Module(): invalid SIMD opcode');
      const reject = () => Promise.reject(refuse());
      Object.assign(WebAssembly, {
        compile: reject,
        compileStreaming: reject,
        instantiate: reject,
        instantiateStreaming: reject,
        Module: function Module() {
          throw refuse();
        },
      });
    });
    const refused: string[] = [];
    page.on('pageerror', (error) => refused.push(error.message));
    page.on('console', (message) => message.type() === 'error' && refused.push(message.text()));
    await openApp(page, '#/maps', { hydrated: false });
    await expect(page.getByRole('tab', { name: 'Maps' })).toHaveAttribute('aria-selected', 'true');
    await expect(page.getByRole('tabpanel')).toHaveAttribute('id', 'panel-maps');
    await page.getByRole('tab', { name: 'Gist' }).click();
    await expect(page).toHaveURL(/#\/gist$/);
    await expect(page.getByRole('tabpanel')).toHaveAttribute('id', 'panel-gist');
    await expect(
      page.getByRole('heading', { level: 1, name: 'Lease Renewal, Clock Skew & Heartbeat Failure Modes' }),
    ).toBeVisible();
    // The lesson never hydrated: it failed the way such a browser fails, not some other way.
    await expect(page.locator('html')).not.toHaveAttribute('data-hydrated');
    expect(refused.some((text) => /CompileError|invalid SIMD opcode/.test(text)), refused.join('\n')).toBe(true);
  });
});

// The shell's module and the laboratory's each run their own Yew, which numbers its roots
// from 1 and handles every click under its root whose element carries its root's number.
// The laboratory lives under the shell's root: with equal numbers the shell took the lab's
// clicks as its own and ran whichever of its listeners had the same number ("Jump to end"
// opened Maps).
test.describe('a click in the laboratory is the laboratory’s alone', () => {
  async function expectLabNumberedApart(page: import('@playwright/test').Page, { embedded = false } = {}) {
    // On a Sandbox link the lab starts first and steps out of the page while the lesson
    // hydrates: its numbers are read once both are in. Embed mode renders its one view
    // instead of hydrating the lesson, and starts no lab early.
    if (!embedded) await expect(page.locator('html')).toHaveAttribute('data-hydrated', '');
    await expect(page.locator('.lab-mount[data-lab-ready]')).toHaveCount(1);
    await expect(page.getByRole('button', { name: 'Jump to end', exact: true })).toBeVisible();
    const clash = await page.evaluate(() => {
      const number = (e: Element) => (e as unknown as { __yew_subtree_id?: number }).__yew_subtree_id;
      const host = document.querySelector('.lab-mount')!;
      const shells = new Set<number>();
      for (let e = host.parentElement; e; e = e.parentElement) if (number(e) !== undefined) shells.add(number(e)!);
      const labs = [host, ...host.querySelectorAll('*')].map(number).filter((n) => n !== undefined);
      return { shells: [...shells], labs: labs.length, clashing: labs.filter((n) => shells.has(n!)).length };
    });
    expect(clash.shells.length).toBeGreaterThan(0);
    expect(clash.labs).toBeGreaterThan(1);
    expect(clash.clashing).toBe(0);
  }

  for (const [name, address] of [
    ['a Sandbox link with a misread field', './#/sandbox?v=1&preset=42'],
    ['embed mode', './?embed#/sandbox?v=1&ttl=7s'],
  ]) {
    test(name, async ({ page }) => {
      await page.goto(address);
      await expectLabNumberedApart(page, { embedded: address.includes('?embed') });
      for (const label of ['Jump to end', 'Step back', 'Step forward']) {
        await page.getByRole('button', { name: label, exact: true }).click();
        await expect(page).toHaveURL(/#\/sandbox/);
      }
    });
  }

  test('after a followed link mounts the laboratory again', async ({ page }) => {
    await openApp(page, '#/gist');
    await page.evaluate(() => (location.hash = '#/sandbox?v=1&ttl=6s&t=3s'));
    await expect(page.locator('.clock .now')).toHaveText('t = 3.000 s');
    await page.evaluate(() => (location.hash = '#/sandbox?v=1&ttl=8s&t=2s'));
    await expect(page.locator('.clock .now')).toHaveText('t = 2.000 s');
    await expectLabNumberedApart(page);
    await page.getByRole('button', { name: 'Jump to end' }).click();
    await expect(page).toHaveURL(/#\/sandbox\?.*ttl=8s/);
    await expect(page.getByRole('tab', { name: /Sandbox/ })).toHaveAttribute('aria-selected', 'true');
  });
});
