// A Sandbox link shows its own state however the page arrives at it: a fresh load, a hash
// change from each lesson tab (typed into the address bar, clicked in a course page's text,
// set by a script), with the laboratory not yet loaded, loading or already loaded, Back and
// Forward across lab links, and a reload. Going from `#/gist` to `#/sandbox?…` in the same
// document is a `hashchange`, not a load (DESIGN.md, "A trap in hash navigation").
import { test, expect, openApp } from './fixtures';
import type { Page } from '@playwright/test';

/** A link and what the laboratory must show for it. */
type Link = {
  fragment: string;
  time: string;
  fields: Record<string, string>;
  fencing: boolean;
  faults: string[];
};

// The issue's example, and others with other TTLs, renew fractions, fault plans, cursor
// times and fencing on and off; each differs from the default scenario in every field shown.
const LINKS: Record<string, Link> = {
  issue: {
    fragment:
      '#/sandbox?v=1&clients=2&ttl=6s&renew=1/3&slice=500ms&dur=30s&faults=none&fault=pause-write:A@1.2s+9s&t=12s&fencing=off',
    time: 't = 12.000 s',
    fields: { 'Lease TTL (T)': '6', 'Renew every': '1/3', 'Work slice (one write each)': '500', 'Run length': '30' },
    fencing: false,
    faults: ['pause in the write path'],
  },
  quarter: {
    fragment: '#/sandbox?v=1&ttl=8s&renew=1/4&slice=250ms&dur=40s&faults=none&fault=pause:B@5s+12s&t=21.5s',
    time: 't = 21.500 s',
    fields: { 'Lease TTL (T)': '8', 'Renew every': '1/4', 'Work slice (one write each)': '250', 'Run length': '40' },
    fencing: true,
    faults: ['stop-the-world pause'],
  },
  crash: {
    fragment: '#/sandbox?v=1&ttl=12s&renew=2/5&slice=750ms&dur=50s&faults=none&fault=crash:A@15s&fault=pause:B@30s+4s&t=7.25s&fencing=off',
    time: 't = 7.250 s',
    fields: { 'Lease TTL (T)': '12', 'Renew every': '2/5', 'Work slice (one write each)': '750', 'Run length': '50' },
    fencing: false,
    faults: ['crash', 'stop-the-world pause'],
  },
  partition: {
    fragment: '#/sandbox?v=1&ttl=4s&renew=1/2&slice=200ms&dur=20s&faults=none&fault=partition:A-service@3s+6s&t=9.75s',
    time: 't = 9.750 s',
    fields: { 'Lease TTL (T)': '4', 'Renew every': '1/2', 'Work slice (one write each)': '200', 'Run length': '20' },
    fencing: true,
    faults: ['partition'],
  },
};

/** Asserts that the laboratory shows `link`'s state: its cursor time, fields, fencing and faults. */
async function expectLab(page: Page, link: Link) {
  await expect(page.locator('.clock .now')).toHaveText(link.time);
  for (const [label, value] of Object.entries(link.fields)) {
    await expect(page.getByLabel(label, { exact: true }), label).toHaveValue(value);
  }
  await expect(page.getByRole('checkbox', { name: 'Fencing at storage' })).toBeChecked({ checked: link.fencing });
  const planned = page.getByRole('button', { name: /^Remove / });
  await expect(planned).toHaveCount(link.faults.length);
  for (const [index, fault] of link.faults.entries()) {
    await expect(planned.nth(index)).toHaveAccessibleName(new RegExp(`^Remove ${fault}`));
  }
  await expect(page.getByRole('tab', { name: /Sandbox/ })).toHaveAttribute('aria-selected', 'true');
  await expect(page.getByText('Part of this link could not be read')).toHaveCount(0);
}

/** Opens `tab` by its tab button, as a learner does. */
async function openTab(page: Page, tab: string) {
  await page.getByRole('tab', { name: new RegExp(tab) }).click();
  await expect(page.getByRole('tab', { name: new RegExp(tab) })).toHaveAttribute('aria-selected', 'true');
}

/** The ways of following a link inside an open page. */
const WAYS: Record<string, (page: Page, fragment: string) => Promise<void>> = {
  // What typing it into the address bar does: a same-document navigation to the fragment.
  'the address bar': async (page, fragment) => {
    await page.goto(new URL(fragment, page.url()).href);
  },
  // A course page's text linking into the lab, clicked in the open panel.
  'a clicked link': async (page, fragment) => {
    await page.locator('.panel:not([hidden])').evaluate((panel, href) => {
      const link = document.createElement('a');
      link.href = href;
      link.textContent = 'Try it in the lab';
      panel.prepend(link);
    }, fragment);
    await page.getByRole('link', { name: 'Try it in the lab' }).first().click(); // the newest, prepended
  },
  'location.hash': async (page, fragment) => {
    await page.evaluate((hash) => (location.hash = hash), fragment);
  },
};

test.describe('a Sandbox link opened fresh shows its state', () => {
  for (const [name, link] of Object.entries(LINKS)) {
    test(name, async ({ page }) => {
      await openApp(page, link.fragment);
      await expectLab(page, link);
    });
  }
});

// A Sandbox link opened fresh starts its laboratory before the lesson, whose bytes come after
// the lab's: the lab works before the lesson has hydrated, and the lesson then adopts it as
// it is, with what was done in it, what it could not read, and a link followed meanwhile.
test.describe('a Sandbox link opened fresh, before the lesson has hydrated', () => {
  /** Holds the lesson's wasm back until the returned function is called. */
  async function holdLesson(page: Page): Promise<() => void> {
    let release!: () => void;
    const held = new Promise<void>((resolve) => (release = resolve));
    await page.route(/\/lease-lab-[0-9a-f]+_bg\.wasm$/, async (route) => {
      await held;
      await route.fallback();
    });
    return release;
  }
  /** Holds animation frames, as a hidden tab does, until the lesson has hydrated: the lab cannot settle. */
  async function holdFrames(page: Page) {
    await page.addInitScript(() => {
      const held: FrameRequestCallback[] = [];
      const frame = window.requestAnimationFrame.bind(window);
      window.requestAnimationFrame = (callback) => {
        if (document.documentElement.hasAttribute('data-hydrated')) return frame(callback);
        held.push(callback);
        return held.length;
      };
      const watch = setInterval(() => {
        if (!document.documentElement?.hasAttribute('data-hydrated')) return;
        clearInterval(watch);
        for (const callback of held.splice(0)) frame(callback);
      }, 20);
    });
  }
  /** A link whose TTL is HTML, so it cannot be read whole, and what the page then shows. */
  const UNREADABLE = '#/sandbox?v=1&ttl=<i>7</i>&t=3s';
  async function expectUnreadableShown(page: Page) {
    await expect(page.getByRole('status').filter({ hasText: 'Part of this link could not be read' })).toContainText(
      /TTL \(“<i>7<\/i>”\) is not a number; showing the default scenario instead/,
    );
    await expect(page.locator('.clock .now')).toHaveText('t = 3.000 s');
    await expect(page.getByLabel('Lease TTL (T)', { exact: true })).toHaveValue('10');
    await expect(page).toHaveURL((url) => url.hash === '#/sandbox?v=1&t=3s');
  }
  const play = (page: Page) => page.getByRole('group', { name: 'Playback' }).getByRole('button', { name: 'Play', exact: true });
  const pause = (page: Page) => page.getByRole('group', { name: 'Playback' }).getByRole('button', { name: 'Pause', exact: true });
  const notHydrated = (page: Page) => expect(page.locator('html')).not.toHaveAttribute('data-hydrated', '');
  const hydrated = (page: Page) => expect(page.locator('html')).toHaveAttribute('data-hydrated', '');

  test('the lab works, and the lesson adopts it as it is', async ({ page }) => {
    const release = await holdLesson(page);
    await page.goto(`./${LINKS.crash.fragment}`);
    await expect(play(page)).toBeEnabled();
    await notHydrated(page);
    await expect(page.locator('.clock .now')).toHaveText(LINKS.crash.time);
    await expect(page.getByLabel('Lease TTL (T)', { exact: true })).toHaveValue(LINKS.crash.fields['Lease TTL (T)']);
    await play(page).click();
    await expect(page.locator('.clock .now')).not.toHaveText(LINKS.crash.time);
    await pause(page).click();
    const moved = await page.locator('.clock .now').textContent();
    await page.locator('.clock .now').evaluate((clock) => clock.setAttribute('data-before-hydration', ''));
    await notHydrated(page);

    release();
    await hydrated(page);
    // The same elements, not a lab mounted afresh, and one lab only.
    await expect(page.locator('.clock .now[data-before-hydration]')).toHaveText(moved!);
    await expect(page.locator('.lab-mount[data-lab-ready]')).toHaveCount(1);
    await expect(page.getByRole('tab', { name: /Sandbox/ })).toHaveAttribute('aria-selected', 'true');
    // What the lab said before the shell was there reached the address.
    const seconds = Number(moved!.match(/t = ([\d.]+) s/)![1]);
    await expect(page).toHaveURL((url) => url.hash.includes(`t=${seconds}s`) && url.hash.includes('ttl=12s'));
    await play(page).click();
    await pause(page).click();
    await expect(page.locator('.clock .now')).not.toHaveText(moved!);
    const later = await page.locator('.clock .now').textContent();
    await openTab(page, 'Maps');
    await openTab(page, 'Sandbox');
    await expect(page.locator('.clock .now')).toHaveText(later!);
  });

  test('a link followed meanwhile is the one shown', async ({ page }) => {
    const release = await holdLesson(page);
    await page.goto(`./${LINKS.crash.fragment}`);
    await expect(play(page)).toBeEnabled();
    await WAYS['location.hash'](page, LINKS.partition.fragment);
    release();
    await hydrated(page);
    await expectLab(page, LINKS.partition);
  });

  // Once with the lab settled and adopted, once with frames held so that it is taken down.
  for (const [how, holdingFrames] of [['the lab adopted', false], ['the lab taken down', true]] as const) {
    test(`what of a link followed meanwhile it could not read is said once the lesson is there (${how})`, async ({ page }) => {
      if (holdingFrames) await holdFrames(page);
      const release = await holdLesson(page);
      await page.goto(`./${LINKS.quarter.fragment}`);
      await expect(play(page)).toBeEnabled();
      await WAYS['location.hash'](page, UNREADABLE);
      release();
      await hydrated(page);
      await expectUnreadableShown(page);
    });
  }

  test('a link followed while the lesson waits for the lab to settle is the one the lesson hydrates', async ({ page }) => {
    await holdFrames(page);
    const release = await holdLesson(page);
    await page.goto(`./${LINKS.quarter.fragment}`);
    await expect(play(page)).toBeEnabled();
    release();
    // The lesson has started and waits (up to 2 s) for the lab, which cannot settle here.
    await page.waitForFunction(() => (window as any).leaseLabWasm?.lessonStarted === true, null, { polling: 20 });
    await notHydrated(page);
    await WAYS['location.hash'](page, UNREADABLE);
    await hydrated(page);
    await expectUnreadableShown(page);
    await WAYS['location.hash'](page, LINKS.partition.fragment);
    await expectLab(page, LINKS.partition);
  });

  test('what of the link it could not read is said once the lesson is there', async ({ page }) => {
    const release = await holdLesson(page);
    await page.goto('./#/sandbox?v=1&ttl=<b>9</b>&t=2s');
    await expect(play(page)).toBeEnabled();
    release();
    await hydrated(page);
    await expect(page.getByRole('status').filter({ hasText: 'Part of this link could not be read' })).toContainText(
      /TTL \(“<b>9<\/b>”\) is not a number; showing the default scenario instead/,
    );
    await expect(page.locator('.clock .now')).toHaveText('t = 2.000 s');
    await expect(page).toHaveURL((url) => url.hash === '#/sandbox?v=1&t=2s');
  });

  test('a lab that cannot settle (no animation frames, as in a background tab) is taken down, and one mounted afresh works', async ({ page }) => {
    // Frames are held, as a hidden tab's are, until the lesson has hydrated.
    await holdFrames(page);
    const release = await holdLesson(page);
    await page.goto(`./${LINKS.quarter.fragment}`);
    await expect(play(page)).toBeEnabled();
    await page.locator('.clock .now').evaluate((clock) => clock.setAttribute('data-before-hydration', ''));
    release();
    await hydrated(page);
    await expect(page.locator('[data-before-hydration]')).toHaveCount(0);
    await expectLab(page, LINKS.quarter);
    await expect(page.getByRole('region', { name: 'Challenges' })).toBeVisible();
    await play(page).click();
    await pause(page).click();
    await expect(page.locator('.clock .now')).not.toHaveText(LINKS.quarter.time);
  });

  test('its tabs work too: left for another tab meanwhile, the lesson opens that tab, and the Sandbox works after', async ({ page }) => {
    const release = await holdLesson(page);
    await page.goto(`./${LINKS.quarter.fragment}`);
    await expect(play(page)).toBeEnabled();
    await openTab(page, 'Maps');
    await expect(page.getByRole('heading', { name: 'Lesson map' })).toBeVisible();
    await notHydrated(page);
    release();
    await hydrated(page);
    await expect(page.getByRole('tab', { name: /Maps/ })).toHaveAttribute('aria-selected', 'true');
    await openTab(page, 'Sandbox');
    await expect(page.locator('.lab-mount[data-lab-ready]')).toHaveCount(1);
    await play(page).click();
    await pause(page).click();
    await expect(page.locator('.clock .now')).not.toHaveText('t = 0 ms');
  });

  test('its tab strip takes the tabs pattern\'s keys: the arrows wrap, Home and End go to either end', async ({ page }) => {
    const release = await holdLesson(page);
    await page.goto(`./${LINKS.crash.fragment}`);
    await expect(play(page)).toBeEnabled();
    const tab = (name: RegExp) => page.getByRole('tab', { name });
    await tab(/Sandbox/).focus();
    // From the last tab, the right arrow wraps to the first; each key opens the tab it reaches.
    const steps: [string, RegExp, string][] = [
      ['ArrowRight', /Gist/, 'gist'],
      ['ArrowLeft', /Sandbox/, 'sandbox'],
      ['Home', /Gist/, 'gist'],
      ['ArrowRight', /Maps/, 'maps'],
      ['End', /Sandbox/, 'sandbox'],
      ['ArrowLeft', /Q&A/, 'qa'],
    ];
    for (const [key, name, slug] of steps) {
      await page.keyboard.press(key);
      await expect(tab(name)).toBeFocused();
      await expect(tab(name)).toHaveAttribute('aria-selected', 'true');
      await expect(page.locator(`#panel-${slug}`)).toBeVisible();
      await expect(page.locator('[role="tabpanel"]:visible')).toHaveCount(1);
    }
    await expect(page.getByRole('tab', { selected: true })).toHaveCount(1);
    await notHydrated(page);
    release();
    await hydrated(page);
    await expect(tab(/Q&A/)).toHaveAttribute('aria-selected', 'true');
  });
});

// From each lesson tab, each way, with a different link each time; the laboratory has
// loaded by then (the Sandbox was opened first, or the page fetched it when idle).
const FROM: [string, string, keyof typeof LINKS][] = [
  ['Gist', 'location.hash', 'issue'],
  ['Maps', 'the address bar', 'quarter'],
  ['Q&A', 'a clicked link', 'crash'],
  ['Gist', 'a clicked link', 'partition'],
  ['Maps', 'location.hash', 'crash'],
  ['Q&A', 'the address bar', 'issue'],
];

test.describe('a Sandbox link followed from a lesson tab shows its state', () => {
  for (const [tab, way, name] of FROM) {
    test(`from ${tab}, by ${way} (${name}), the lab loaded before`, async ({ page }) => {
      await openApp(page, '#/sandbox');
      await expect(page.locator('.lab-mount[data-lab-ready]')).toHaveCount(1);
      await openTab(page, tab);
      await WAYS[way](page, LINKS[name].fragment);
      await expectLab(page, LINKS[name]);
    });
  }

  for (const [tab, way, name] of FROM.slice(0, 3)) {
    test(`from ${tab}, by ${way} (${name}), the lab still loading`, async ({ page }) => {
      // The lab's module is held back until the link has been followed.
      let release!: () => void;
      const held = new Promise<void>((resolve) => (release = resolve));
      await page.route('**/lab.js', async (route) => {
        await held;
        await route.continue();
      });
      await openApp(page, `#/${tab === 'Q&A' ? 'qa' : tab.toLowerCase()}`);
      await expect(page.locator('html[data-hydrated]')).toHaveCount(1);
      await WAYS[way](page, LINKS[name].fragment);
      await expect(page.getByRole('tab', { name: /Sandbox/ })).toHaveAttribute('aria-selected', 'true');
      release();
      await expectLab(page, LINKS[name]);
    });
  }

  test('from Gist, on a page opened with another Sandbox link', async ({ page }) => {
    await openApp(page, LINKS.quarter.fragment);
    await expectLab(page, LINKS.quarter);
    await openTab(page, 'Gist');
    await WAYS['location.hash'](page, LINKS.partition.fragment);
    await expectLab(page, LINKS.partition);
    // The page's Copy link carries the followed link's state, not the one it opened with.
    await page.getByRole('button', { name: 'Copy link' }).click();
    const copied = await page.getByLabel('Link to this state').inputValue();
    expect(copied).toContain('ttl=4s');
    expect(copied).toContain('t=9.75s');
  });

  test('from the Sandbox, by the address bar', async ({ page }) => {
    await openApp(page, LINKS.issue.fragment);
    await expectLab(page, LINKS.issue);
    await WAYS['the address bar'](page, LINKS.crash.fragment);
    await expectLab(page, LINKS.crash);
  });

  test('from the Sandbox, to a link that also carries a search and Python code', async ({ page }) => {
    await openApp(page, LINKS.quarter.fragment);
    await expectLab(page, LINKS.quarter);
    const code = 'print("opened from a link")\n';
    const py = Buffer.from(code).toString('base64url');
    await WAYS['location.hash'](page, `${LINKS.partition.fragment}&search=4242/pause.pause-write/2/5000&py=${py}`);
    await expectLab(page, LINKS.partition);
    const search = page.getByRole('region', { name: 'Find a counterexample' });
    await expect(search.getByLabel('Seed')).toHaveValue('4242');
    await expect(search.getByLabel('Most faults per plan')).toHaveValue('2');
    await expect(search.getByLabel('Plans to try')).toHaveValue('5000');
    // Without client= the lab stays simulated; Your client opens in the link's language.
    await expect(page.getByRole('textbox', { name: /Python code/ })).toHaveCount(0);
    await page.getByRole('button', { name: 'Your client', exact: true }).click();
    await expect(page.getByRole('button', { name: 'Python', exact: true })).toHaveAttribute('aria-pressed', 'true');
    await expect(page.getByRole('textbox', { name: /Python code/ })).toContainText('print("opened from a link")');
  });

  test('from the Sandbox, to a link that opens Your client with TypeScript code', async ({ page }) => {
    await openApp(page, LINKS.quarter.fragment);
    await expectLab(page, LINKS.quarter);
    const ts = Buffer.from('// opened from a link\n').toString('base64url');
    await WAYS['location.hash'](page, `${LINKS.crash.fragment}&client=typescript&ts=${ts}`);
    await expect(page.getByRole('button', { name: 'Your client', exact: true })).toHaveAttribute('aria-pressed', 'true');
    await expect(page.getByRole('textbox', { name: /TypeScript code/ })).toContainText('// opened from a link');
    await expect(page.getByLabel('Lease TTL (T)', { exact: true })).toHaveValue('12');
  });
});

test('Back and Forward across lab links, and a reload, show each link', async ({ page }) => {
  await openApp(page, LINKS.issue.fragment);
  await expectLab(page, LINKS.issue);
  await openTab(page, 'Gist');
  await WAYS['location.hash'](page, LINKS.quarter.fragment);
  await expectLab(page, LINKS.quarter);
  await WAYS['the address bar'](page, LINKS.crash.fragment);
  await expectLab(page, LINKS.crash);
  await openTab(page, 'Maps');
  await WAYS['a clicked link'](page, LINKS.partition.fragment);
  await expectLab(page, LINKS.partition);

  await page.goBack(); // Maps
  await expect(page.getByRole('tab', { name: /Maps/ })).toHaveAttribute('aria-selected', 'true');
  await page.goBack();
  await expectLab(page, LINKS.crash);
  await page.goBack();
  await expectLab(page, LINKS.quarter);
  await page.goBack(); // Gist
  await expect(page.getByRole('tab', { name: /Gist/ })).toHaveAttribute('aria-selected', 'true');
  await page.goBack();
  await expectLab(page, LINKS.issue);
  await page.goForward(); // Gist
  await page.goForward();
  await expectLab(page, LINKS.quarter);
  await page.goForward();
  await expectLab(page, LINKS.crash);

  await page.reload();
  await expectLab(page, LINKS.crash);
  await page.goForward(); // Maps
  await page.goForward();
  await expectLab(page, LINKS.partition);
  await page.reload();
  await expectLab(page, LINKS.partition);
});

test('a change made as soon as a followed Sandbox link shows reaches the address, Copy link and Back', async ({ page }) => {
  await openApp(page, LINKS.quarter.fragment);
  await expectLab(page, LINKS.quarter);
  // Written otherwise than the lab writes it: other order, no time.
  await WAYS['location.hash'](page, '#/sandbox?v=1&dur=40s&renew=1/5&ttl=7s');
  await expect(page.getByLabel('Lease TTL (T)', { exact: true })).toHaveValue('7');
  await page.getByRole('checkbox', { name: 'Fencing at storage' }).uncheck();
  await expect(page).toHaveURL(/[?&]fencing=off(&|$)/);
  await expect(page).toHaveURL(/[?&]ttl=7s(&|$)/);
  await page.getByRole('button', { name: 'Copy link' }).click();
  await expect(page.getByLabel('Link to this state')).toHaveValue(/[?&]fencing=off(&|$)/);

  await page.goBack();
  await expect(page.getByLabel('Lease TTL (T)', { exact: true })).toHaveValue('7');
  await expect(page.getByRole('checkbox', { name: 'Fencing at storage' })).toBeChecked();
  await page.goBack();
  await expectLab(page, LINKS.quarter);
});

// A link followed in the open page that cannot be read whole is explained as one opened
// fresh is: the notice names what was refused, the lab shows the defaults, and the address
// (so Copy link and Back) carries what is on screen; the next link read whole clears it.
test.describe('a Sandbox link followed in the open page that cannot be read whole says so', () => {
  const REFUSED = [
    // What is refused, the link, the sentence, and the time, TTL and address then shown.
    ['a time past the end', '#/sandbox?v=1&dur=30s&ttl=5s&t=31s', /time \(“31s”\) is after the end of the run/, 't = 0 ms', '5', '#/sandbox?v=1&t=0s&dur=30s&ttl=5s'],
    ['HTML for a TTL', '#/sandbox?v=1&ttl=<b>9</b>&t=2s', /TTL \(“<b>9<\/b>”\) is not a number; showing the default scenario instead/, 't = 2.000 s', '10', '#/sandbox?v=1&t=2s'],
    ['a fault after the end', '#/sandbox?v=1&dur=30s&faults=none&fault=pause:A@31s+5s', /a fault at 31.000 s is after the end/, 't = 0 ms', '10', '#/sandbox?v=1&t=0s'],
  ] as const;
  for (const [from, start] of [['Gist', '#/sandbox'], ['the Sandbox', LINKS.quarter.fragment]] as const) {
    for (const [what, fragment, sentence, time, ttl, address] of REFUSED) {
      test(`${what}, from ${from}`, async ({ page }) => {
        await openApp(page, start);
        await expect(page.locator('.lab-mount[data-lab-ready]')).toHaveCount(1);
        if (from === 'Gist') await openTab(page, 'Gist');
        await WAYS['location.hash'](page, fragment);
        const notice = page.getByRole('status').filter({ hasText: 'Part of this link could not be read' });
        await expect(notice).toContainText(sentence);
        await expect(page.locator('.link-notice b')).toHaveCount(0);
        await expect(page.locator('.clock .now')).toHaveText(time);
        await expect(page.getByLabel('Lease TTL (T)', { exact: true })).toHaveValue(ttl);
        await expect(page).toHaveURL((url) => url.hash === address);
        await page.getByRole('button', { name: 'Copy link' }).click();
        expect(await page.getByLabel('Link to this state').inputValue()).toMatch(new RegExp(`${address.replace(/[?]/g, '\\?')}$`));

        await WAYS['location.hash'](page, LINKS.partition.fragment);
        await expectLab(page, LINKS.partition);
      });
    }
  }

  test('a refused challenge try, then another Sandbox link: the refusal goes with its link', async ({ page }) => {
    await openApp(page, LINKS.quarter.fragment);
    await expectLab(page, LINKS.quarter);
    await WAYS['location.hash'](page, '#/sandbox?v=1&preset=2&challenge=nosuch.1');
    const refusal = page.getByText(/there is no challenge called “nosuch”/);
    await expect(refusal).toBeVisible();
    await WAYS['location.hash'](page, LINKS.partition.fragment);
    await expectLab(page, LINKS.partition);
    await expect(refusal).toHaveCount(0);
    await expect(page).toHaveURL((url) => !url.hash.includes('challenge='));
  });

  test('what the lab could not read of the last link goes when a link it does not read is followed', async ({ page }) => {
    await openApp(page, '#/sandbox');
    await WAYS['location.hash'](page, `${LINKS.quarter.fragment}&x=1&y=2`);
    const notice = page.getByRole('status').filter({ hasText: 'Part of this link could not be read' });
    await expect(notice).toContainText('“x”');
    await expect(page.getByLabel('Lease TTL (T)', { exact: true })).toHaveValue('8');
    await WAYS['location.hash'](page, '#/maps?v=1&sel=no-such-part');
    await expect(notice).toContainText('“no-such-part”');
    await expect(notice).not.toContainText('“x”');
    await expect(notice).not.toContainText('“y”');
  });

  test('a diagram part that does not exist, from the Sandbox to Maps', async ({ page }) => {
    await openApp(page, '#/sandbox');
    await WAYS['location.hash'](page, '#/maps?v=1&sel=no-such-part');
    await expect(page.getByRole('status').filter({ hasText: 'Part of this link could not be read' })).toContainText(
      'This link selects a diagram part “no-such-part” that the diagram does not have',
    );
    await expect(page).toHaveURL((url) => url.hash.startsWith('#/maps?v=1') && !url.hash.includes('sel='));
  });

  test('a tab that does not exist, from the Sandbox', async ({ page }) => {
    await openApp(page, '#/sandbox');
    await expect(page.locator('.lab-mount[data-lab-ready]')).toHaveCount(1);
    await WAYS['location.hash'](page, '#/<i>nope</i>?v=1');
    await expect(page.getByRole('status').filter({ hasText: 'Part of this link could not be read' })).toContainText(
      'This link asks for a tab “<i>nope</i>” that does not exist; showing the Gist instead.',
    );
    await expect(page.getByRole('tab', { name: /Gist/ })).toHaveAttribute('aria-selected', 'true');
    await expect(page).toHaveURL((url) => url.hash.startsWith('#/gist?v=1'));
    // Said once, though both the shell and the laboratory read links.
    await expect(page.getByText('that does not exist; showing the Gist')).toHaveCount(1);
  });
});

test('a link opened fresh with a diagram part that does not exist drops it from the address', async ({ page }) => {
  await openApp(page, '#/maps?v=1&sel=no-such-part');
  await expect(page.getByRole('status').filter({ hasText: 'Part of this link could not be read' })).toContainText(
    '“no-such-part” that the diagram does not have',
  );
  await expect(page).toHaveURL((url) => url.hash === '#/maps?v=1');
});

// A diagram on screen shows a followed link's selection, by each way of following one, and
// Back and Forward across the selections clicked on it.
for (const way of Object.keys(WAYS)) {
  test(`a diagram part followed on its own tab by ${way} is selected`, async ({ page }) => {
    const pressed = (name: RegExp) => page.getByRole('button', { name, pressed: true });
    await openApp(page, '#/maps?v=1&sel=architecture.client');
    await expect(pressed(/^Node 1 Client/)).toHaveCount(1);
    await WAYS[way](page, '#/maps?v=1&sel=architecture.edge.fail');
    await expect(pressed(/^Edge /)).toHaveAccessibleName(/^Edge .*fail/i);
    await expect(pressed(/^Node 1 Client/)).toHaveCount(0);
    // A link with no selection on the same tab selects nothing.
    await WAYS[way](page, '#/maps?v=1&ttl=4s');
    await expect(page.locator('.panel:not([hidden]) [aria-pressed=true]')).toHaveCount(0);
  });
}

test('Back and Forward across clicked diagram parts select each again', async ({ page }) => {
  const state = (name: string) => page.getByRole('button', { name: new RegExp(`^State \\d ${name}`) });
  await openApp(page, '#/gist');
  await state('Holding').click();
  await state('Lost').click();
  await expect(state('Lost')).toHaveAttribute('aria-pressed', 'true');
  await page.goBack();
  await expect(page).toHaveURL(/sel=lifecycle\.holding/);
  await expect(state('Holding')).toHaveAttribute('aria-pressed', 'true');
  await expect(state('Lost')).toHaveAttribute('aria-pressed', 'false');
  await page.goForward();
  await expect(state('Lost')).toHaveAttribute('aria-pressed', 'true');
});

// The shell reads a link's tab, theme and selection, the laboratory's module its scenario:
// what neither could read is said in one notice, with one heading and one Dismiss.
test.describe('one notice for what of a link the shell and the laboratory could not read', () => {
  const NOTICE = 'Part of this link could not be read';
  const THEME = /theme “sepia” that does not exist/;
  const TTL = /TTL \(“zz7”\) is not a number/;
  const FIELD = /field “tempo” that Lease Lab does not know/;

  async function expectOneNotice(page: Page, sentences: RegExp[]) {
    await expect(page.locator('.lab-mount[data-lab-ready]')).toHaveCount(1);
    const notice = page.getByRole('status', { name: NOTICE });
    for (const sentence of sentences) await expect(notice).toContainText(sentence);
    await expect(page.getByText(NOTICE)).toHaveCount(1);
    await expect(notice.getByRole('listitem')).toHaveCount(sentences.length);
    await notice.getByRole('button', { name: 'Dismiss' }).click();
    await expect(page.getByText(NOTICE)).toHaveCount(0);
  }

  test('opened fresh', async ({ page }) => {
    await openApp(page, '#/sandbox?v=1&ttl=zz7&theme=sepia&tempo=2');
    await expectOneNotice(page, [THEME, FIELD, TTL]);
  });

  test('followed from the Gist, then another followed from the Sandbox', async ({ page }) => {
    await openApp(page, '#/gist');
    await WAYS['location.hash'](page, '#/sandbox?v=1&ttl=zz7&sel=no-part-3');
    await expectOneNotice(page, [/diagram part “no-part-3”/, TTL]);
    await WAYS['location.hash'](page, '#/sandbox?v=1&dur=45s&ttl=zz7&sel=no-part-4');
    await expectOneNotice(page, [/diagram part “no-part-4”/, TTL]);
  });
});

// The page shows no theme a link forces (embed mode does), but a followed link's theme that
// does not exist is said, as a fresh link's is.
test('a followed link with a theme that does not exist says so, as a fresh one does', async ({ page }) => {
  await openApp(page, '#/gist');
  for (const way of ['location.hash', 'the address bar'] as const) {
    await WAYS[way](page, `#/qa?v=1&theme=neon-${way.length}`);
    const notice = page.getByRole('status', { name: 'Part of this link could not be read' });
    await expect(notice).toContainText(`theme “neon-${way.length}” that does not exist`);
    await notice.getByRole('button', { name: 'Dismiss' }).click();
    await expect(notice).toHaveCount(0);
  }
});

test('the lab\'s state stays in the address from tab to tab, so a reload after a round trip restores it', async ({ page }) => {
  await openApp(page, LINKS.crash.fragment);
  await expectLab(page, LINKS.crash);
  // A change of the learner's own, on top of the link.
  await page.getByRole('checkbox', { name: 'Fencing at storage' }).check();
  await expect(page).toHaveURL((url) => !url.hash.includes('fencing=off'));
  const changed = { ...LINKS.crash, fencing: true };
  await openTab(page, 'Maps');
  await expect(page).toHaveURL((url) => url.hash.startsWith('#/maps?v=1&') && url.hash.includes('ttl=12s'));
  await openTab(page, 'Sandbox');
  await expect(page).toHaveURL((url) => url.hash.startsWith('#/sandbox?v=1&') && url.hash.includes('ttl=12s'));
  await expectLab(page, changed);
  await page.reload();
  await expectLab(page, changed);
  // Back: the Maps entry, then the Sandbox as changed, then as the link opened it.
  await page.goBack();
  await expect(page.getByRole('tab', { name: /Maps/ })).toHaveAttribute('aria-selected', 'true');
  await page.goBack();
  await expectLab(page, changed);
  await page.goBack();
  await expectLab(page, LINKS.crash);
});
