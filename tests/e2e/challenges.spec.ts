// The Sandbox's challenges, solved through the page the way a learner would: open each one,
// submit a wrong try and see the failed condition named with a "Go to" that moves the
// laboratory to that moment, then submit a right answer and see it solved; progress is kept
// in localStorage (and an unreadable record is reset with a notice); a try's link reopens it,
// and a tampered link is refused with a plain notice and marks nothing solved.
import { test, expect, openApp } from './fixtures';
import type { Locator, Page } from '@playwright/test';
import { readFileSync } from 'node:fs';

// The committed trace hashes of each challenge's reference answer (tests/challenge_hashes.in,
// asserted natively and in wasm too), in the order of the file.
const ANSWER_HASHES = [
  ...readFileSync(new URL('../challenge_hashes.in', import.meta.url), 'utf8').matchAll(/0x[0-9a-f]{16}, 0x([0-9a-f]{16})\)/g),
].map((m) => m[1]);

type Step =
  | { field: string; value: string }
  | { switch: string; on: boolean }
  | { faults: string };

type Case = {
  title: string;
  wrong: Step[];
  failed: RegExp;
  right: Step[];
};

const TTL = 'Lease TTL (T)';
const CASES: Case[] = [
  {
    title: 'Survive a 400 ms pause',
    wrong: [],
    failed: /This condition failed: Leases lost: at most 0\. .*starting .* into the renew period/,
    right: [{ field: TTL, value: '1s' }],
  },
  {
    title: 'No false alarm, and a fast failover',
    wrong: [{ field: TTL, value: '3s' }],
    failed: /This condition failed: Longest failover: at most 1\.500 s\./,
    right: [{ field: TTL, value: '1s' }],
  },
  {
    title: 'Which one switch stops the zombie?',
    wrong: [{ switch: 'Trust the lost flag only (no deadline check)', on: false }],
    failed: /This condition failed: “Accepted writes are ordered by fencing token” holds\. At t = .*the check broke/,
    right: [{ switch: 'Fencing at storage', on: true }],
  },
  {
    title: 'Break unfenced storage',
    wrong: [{ faults: 'pause-write:A@2s+20s' }],
    failed: /This condition failed: “Accepted writes are ordered by fencing token” is broken\. .*still held when the run ended/,
    right: [{ faults: 'pause-write:A@2s+40s' }],
  },
  {
    title: "Size etcd's lease for your numbers",
    wrong: [{ field: TTL, value: '4s' }],
    failed: /This condition failed: Leases lost: at most 0\./,
    right: [{ field: TTL, value: '10s' }],
  },
  {
    title: 'Let NTP step the clock',
    wrong: [{ switch: 'Fencing at storage', on: false }],
    failed: /This condition failed: Leases lost: at most 0\./,
    right: [{ switch: 'Wall-clock sleep for renewals', on: false }],
  },
  {
    title: 'A jump at the lock service',
    wrong: [{ field: TTL, value: '60s' }],
    failed: /This condition failed: “The lock service never has two unexpired holders” holds\..*That was plan \d+ of the search: step:service@/,
    right: [{ switch: 'Service expires leases on its wall clock', on: false }],
  },
  {
    title: 'Ride out a blip, renew sparingly',
    wrong: [],
    failed: /This condition failed: Renewals sent: at most 10\./,
    right: [{ field: 'Renew every', value: '1/2' }],
  },
];

const section = (page: Page) => page.getByRole('region', { name: 'Challenges' });
const titled = (title: string) => new RegExp(`^${title.replace(/[?()']/g, '.')}`);
const toggle = (page: Page, title: string) => section(page).getByRole('button', { name: titled(title) });
// `has` is looked up inside each item.
const card = (page: Page, title: string) =>
  section(page).getByRole('listitem').filter({ has: page.getByRole('button', { name: titled(title) }) });

async function answer(where: Locator, steps: Step[]) {
  for (const step of steps) {
    if ('field' in step) await where.getByLabel(new RegExp(`^${step.field.replace(/[()]/g, '.')} \\(from`)).fill(step.value);
    else if ('switch' in step) await where.getByRole('checkbox', { name: step.switch }).setChecked(step.on);
    else await where.getByRole('textbox', { name: /^Faults you add/ }).fill(step.faults);
  }
}

for (const viewport of [
  { width: 1280, height: 800, label: 'desktop' },
  { width: 390, height: 844, label: 'phone' },
]) {
  test(`every challenge fails a wrong try with a working Go to, then is solved (${viewport.label})`, async ({ page, checkA11y, shot }) => {
    test.setTimeout(120_000);
    await page.setViewportSize(viewport);
    await openApp(page, '#/sandbox');
    await expect(section(page)).toBeVisible();
    await expect(section(page).getByText(`0 of ${CASES.length} challenges solved`)).toBeVisible();
    await expect(section(page).getByText(/challenge in your own code.*Your client/)).toBeVisible();

    for (const c of CASES) {
      await toggle(page, c.title).click();
      const item = card(page, c.title);
      await expect(toggle(page, c.title)).toHaveAttribute('aria-expanded', 'true');
      await expect(item.getByRole('link')).toHaveAttribute('href', /^#\/(gist|maps)$/);
      // The search would break unfenced storage for the learner: hidden while that one is open.
      const search = page.getByRole('region', { name: 'Find a counterexample' });
      if (c.title === 'Break unfenced storage') await expect(search).toBeHidden();
      else await expect(search).toBeVisible();

      await answer(item, c.wrong);
      await item.getByRole('button', { name: 'Check my answer' }).click();
      const verdict = item.getByRole('status').filter({ hasText: 'Not yet.' });
      await expect(verdict).toContainText(c.failed);
      await expect(toggle(page, c.title)).toContainText('Tried');
      const goTo = item.getByRole('button', { name: /^Go to t = .* in the laboratory$/ });
      const at = (await goTo.innerText()).replace(/^Go to t = (.*) in the laboratory$/, '$1');
      await goTo.click();
      await expect(page.getByLabel('Simulation time')).toContainText(`t = ${at}`);
      await expect(page.getByRole('heading', { name: 'Lease laboratory' })).toBeInViewport();

      await item.getByRole('button', { name: 'Start again' }).click();
      await answer(item, c.right);
      await item.getByRole('button', { name: 'Check my answer' }).click();
      await expect(item.getByRole('status').filter({ hasText: 'Solved.' })).toBeVisible();
      await expect(toggle(page, c.title)).toContainText('Solved');
      // The same verdict and trace hash as natively: the right answers are the references.
      await expect(item.getByText(/^Trace [0-9a-f]{16}/)).toContainText(`Trace ${ANSWER_HASHES[CASES.indexOf(c)]}`);
      if (c === CASES[0]) {
        await checkA11y(page, '.challenges');
        await item.scrollIntoViewIfNeeded();
        await shot(page, `challenges-${viewport.label}`);
      }
      await toggle(page, c.title).click();
    }
    await expect(section(page).getByText(`${CASES.length} of ${CASES.length} challenges solved`)).toBeVisible();
    const saved = await page.evaluate(() => localStorage.getItem('lease-lab.challenges.v1'));
    expect(saved).toMatch(/^v=1;solved=[a-z-]+(,[a-z-]+){7};tried=;required=/);

    await page.reload();
    await expect(section(page).getByText(`${CASES.length} of ${CASES.length} challenges solved`)).toBeVisible();
  });
}

// Tries TTL 1 s on the pause challenge and returns the try's link, with nothing left solved in storage.
async function pauseTryLink(page: Page): Promise<string> {
  await openApp(page, '#/sandbox');
  await toggle(page, 'Survive a 400 ms pause').click();
  const item = card(page, 'Survive a 400 ms pause');
  await answer(item, [{ field: TTL, value: '1s' }]);
  await item.getByRole('button', { name: 'Check my answer' }).click();
  await item.getByRole('button', { name: 'Copy a link to this try' }).click();
  const link = await item.getByLabel('Link to this try').inputValue();
  await page.evaluate(() => localStorage.clear());
  return link;
}

test('a hint is revealed one at a time', async ({ page }) => {
  await openApp(page, '#/sandbox');
  await toggle(page, 'Break unfenced storage').click();
  const item = card(page, 'Break unfenced storage');
  const hints = item.getByRole('list').filter({ hasText: /lease has expired|write path|30 s/ });
  await item.getByRole('button', { name: 'Show a hint (0 of 3 shown)' }).click();
  await expect(item.getByText('The service only grants the lock to B once')).toBeVisible();
  await expect(item.getByText('A pause in the write path freezes A')).toHaveCount(0);
  await item.getByRole('button', { name: 'Show a hint (1 of 3 shown)' }).click();
  await item.getByRole('button', { name: 'Show a hint (2 of 3 shown)' }).click();
  await expect(item.getByRole('button', { name: 'Show a hint (3 of 3 shown)' })).toBeDisabled();
  await expect(hints.getByRole('listitem')).toHaveCount(3);
});

test('a refused answer names the unit it cannot read and marks the field it is about, until a try is checked', async ({ page }) => {
  await openApp(page, '#/sandbox');
  const title = 'Survive a 400 ms pause';
  await toggle(page, title).click();
  const item = card(page, title);
  const ttl = item.getByLabel(/^Lease TTL \(T\)/);
  await ttl.fill('7h');
  await item.getByRole('button', { name: 'Check my answer' }).click();
  const alert = item.getByRole('alert');
  await expect(alert).toContainText('“7h” has a unit Lease Lab does not read (write s, ms or us)');
  await expect(alert).not.toContainText('not a number');
  await expect(ttl).toHaveAttribute('aria-invalid', 'true');
  await expect(ttl).toHaveAccessibleDescription(await alert.innerText());
  // Another field is not blamed.
  const others = item.locator('input[type="text"]:not([aria-invalid="true"])');
  expect(await others.count()).toBeGreaterThan(0);
  await ttl.fill('1s');
  await item.getByRole('button', { name: 'Check my answer' }).click();
  await expect(item.getByRole('status').filter({ hasText: 'Solved.' })).toBeVisible();
  await expect(item.getByRole('alert')).toHaveCount(0);
  await expect(ttl).toHaveAttribute('aria-invalid', 'false');
});

test('the section a challenge builds on opens at that section, with focus on its heading', async ({ page }) => {
  for (const title of ['Ride out a blip, renew sparingly', 'Survive a 400 ms pause']) {
    await openApp(page, '#/sandbox');
    await toggle(page, title).click();
    const link = card(page, title).getByText(/^Builds on/).getByRole('link');
    const name = await link.innerText();
    await link.click();
    await expect(page.getByRole('tab', { name: /Maps/ })).toHaveAttribute('aria-selected', 'true');
    const heading = page.getByRole('heading', { name, exact: true });
    await expect(heading).toBeFocused();
    await expect(heading).toBeInViewport();
    // Far down the tab: a landing at its top would not show it.
    expect(await heading.evaluate((h) => h.getBoundingClientRect().top + scrollY)).toBeGreaterThan(1000);
  }
});

test("the section link keeps the laboratory's state in the address, as the tabs do", async ({ page }) => {
  await openApp(page, '#/sandbox?v=1&preset=4&ttl=14s&t=3s');
  await toggle(page, 'Ride out a blip, renew sparingly').click();
  await card(page, 'Ride out a blip, renew sparingly').getByText(/^Builds on/).getByRole('link').click();
  await expect(page.getByRole('tab', { name: /Maps/ })).toHaveAttribute('aria-selected', 'true');
  await expect(page).toHaveURL(/#\/maps\?v=1&.*ttl=14s/);
  await expect(page).toHaveURL(/[?&]preset=4(&|$)/);
  // A reload there, then the Sandbox tab, shows the same laboratory.
  await page.reload();
  await page.getByRole('tab', { name: /Sandbox/ }).click();
  await expect(page.getByLabel('Lease TTL (T)', { exact: true })).toHaveValue('14');
  await expect(page.getByLabel('Simulation time')).toContainText('t = 3.000 s');
});

test('an open challenge and its unchecked answer are still there after another tab', async ({ page }) => {
  await openApp(page, '#/sandbox');
  const title = 'No false alarm, and a fast failover';
  await toggle(page, title).click();
  await card(page, title).getByRole('button', { name: /^Show a hint/ }).click();
  await answer(card(page, title), [{ field: TTL, value: '777ms' }]);
  for (const tab of [/Gist/, /Q&A/]) {
    await page.getByRole('tab', { name: tab }).click();
    await page.getByRole('tab', { name: /Sandbox/ }).click();
    await expect(toggle(page, title)).toHaveAttribute('aria-expanded', 'true');
    await expect(card(page, title).getByLabel(/^Lease TTL .T. \(from/)).toHaveValue('777ms');
    await expect(card(page, title).getByRole('listitem').filter({ hasText: 'Failover takes about T' })).toHaveCount(1);
  }
  // Checked, the verdict stays too; closed, it stays closed.
  await card(page, title).getByRole('button', { name: 'Check my answer' }).click();
  const verdict = card(page, title).getByRole('status').filter({ hasText: /^(Solved|Not yet)\./ });
  await expect(verdict).toBeVisible();
  const said = await verdict.innerText();
  await page.getByRole('tab', { name: /Maps/ }).click();
  await page.getByRole('tab', { name: /Sandbox/ }).click();
  const kept = card(page, title).getByRole('status').filter({ hasText: /^(Solved|Not yet)\./ });
  await expect(kept).toBeVisible();
  expect(await kept.innerText()).toBe(said);
  await toggle(page, title).click();
  await page.getByRole('tab', { name: /Gist/ }).click();
  await page.getByRole('tab', { name: /Sandbox/ }).click();
  await expect(toggle(page, title)).toHaveAttribute('aria-expanded', 'false');
});

test('Go to from a challenge shows the simulated run, whatever mode the laboratory was in', async ({ page }) => {
  await openApp(page, '#/sandbox');
  const modes = page.getByRole('group', { name: 'Run', exact: true });
  await modes.getByRole('button', { name: 'Your client', exact: true }).click();
  await expect(modes.getByRole('button', { name: 'Your client', exact: true })).toHaveAttribute('aria-pressed', 'true');
  const title = 'Let NTP step the clock';
  await toggle(page, title).click();
  const item = card(page, title);
  await item.getByRole('button', { name: 'Check my answer' }).click();
  const goTo = item.getByRole('button', { name: /^Go to t = .* in the laboratory$/ });
  const at = (await goTo.innerText()).replace(/^Go to t = (.*) in the laboratory$/, '$1');
  await goTo.click();
  await expect(modes.getByRole('button', { name: 'Simulated', exact: true })).toHaveAttribute('aria-pressed', 'true');
  await expect(page.getByLabel('Simulation time')).toContainText(`t = ${at}`);
});

test("a try's link reopens it in the challenge and the lab, and is graded only when asked", async ({ page }) => {
  const link = await pauseTryLink(page);
  expect(link).toMatch(/#\/sandbox\?v=1&.*ttl=1s.*&challenge=pitfall\.[0-9a-f]{16}$/);

  // A fresh load: a hash change in the same document would be the lab's to replay.
  await page.goto('about:blank');
  await page.goto(link);
  const reopened = card(page, 'Survive a 400 ms pause');
  await expect(reopened.getByText("The link's try is filled in below")).toBeVisible();
  await expect(reopened.getByLabel(/^Lease TTL .T. \(from/)).toHaveValue('1s');
  await expect(toggle(page, 'Survive a 400 ms pause')).toContainText('Not tried');
  await reopened.getByRole('button', { name: 'Check my answer' }).click();
  await expect(reopened.getByRole('status').filter({ hasText: 'Solved.' })).toBeVisible();
});

// A course page's text may link to a try: followed in the open page (from a lesson tab,
// the laboratory already loaded), it lands as a fresh load does.
test("a try's link followed from a lesson tab opens its challenge with the try filled in", async ({ page }) => {
  const link = await pauseTryLink(page);

  await page.goto('about:blank');
  await openApp(page, '#/gist');
  await expect(page.locator('html[data-hydrated]')).toHaveCount(1);
  await page.evaluate((hash) => (location.hash = hash), link.slice(link.indexOf('#')));
  const reopened = card(page, 'Survive a 400 ms pause');
  await expect(reopened.getByText("The link's try is filled in below")).toBeVisible();
  await expect(reopened.getByLabel(/^Lease TTL .T. \(from/)).toHaveValue('1s');
  await expect(toggle(page, 'Survive a 400 ms pause')).toContainText('Not tried');

  // And from the Sandbox itself, with the laboratory mounted, after the challenge was closed.
  await toggle(page, 'Survive a 400 ms pause').click();
  await expect(toggle(page, 'Survive a 400 ms pause')).toHaveAttribute('aria-expanded', 'false');
  await page.evaluate((hash) => (location.hash = hash), link.slice(link.indexOf('#')).replace('ttl=1s', 'ttl=2s'));
  await expect(card(page, 'Survive a 400 ms pause').getByLabel(/^Lease TTL .T. \(from/)).toHaveValue('2s');
  await card(page, 'Survive a 400 ms pause').getByRole('button', { name: 'Check my answer' }).click();
  await expect(card(page, 'Survive a 400 ms pause').getByRole('status').filter({ hasText: 'Solved.' })).toBeVisible();
});

for (const [what, tamper, notice] of [
  ['a changed goal', (l: string) => l.replace(/challenge=pitfall\.[0-9a-f]+/, 'challenge=pitfall.0123456789abcdef'), /made for a different goal of “Survive a 400 ms pause”/],
  ['an unknown challenge', (l: string) => l.replace(/challenge=pitfall/, 'challenge=win-everything'), /there is no challenge called “win-everything”/],
  ['a value outside the range', (l: string) => l.replace('ttl=1s', 'ttl=20s'), /its Lease TTL \(T\) is 20s, outside the allowed range from 300ms to 3s/],
  ['a field it may not change', (l: string) => `${l}&seed=7`, /it changes Seed, which this challenge does not let you change/],
] as const) {
  test(`a challenge link with ${what} is refused and marks nothing solved`, async ({ page }) => {
    const link = await pauseTryLink(page);

    await page.goto('about:blank');
    await page.goto(tamper(link));
    await expect(section(page).getByRole('alert')).toContainText(notice);
    await expect(section(page).getByRole('alert')).toContainText('Nothing was graded or marked solved.');
    await expect(section(page).getByText('0 of 8 challenges solved')).toBeVisible();
    await expect(toggle(page, 'Survive a 400 ms pause')).toHaveAttribute('aria-expanded', 'false');
    expect(await page.evaluate(() => localStorage.getItem('lease-lab.challenges.v1'))).toBeNull();
    // Said at the top as well, where a link's unread parts are listed, and the address shows
    // what is on screen: the refused try is not in it.
    const linkNotice = page.getByRole('status', { name: 'Part of this link could not be read' });
    await expect(linkNotice).toContainText("This link's challenge try was not loaded; the Challenges section in the Sandbox says why.");
    await expect(page).not.toHaveURL(/challenge=/);
  });
}

test('an unreadable progress record is reset with a notice', async ({ page }) => {
  await openApp(page, '#/sandbox');
  // The section reads the record once, when it mounts: spoil it only after that, or the
  // first visit resets it and the reload has nothing to notice.
  await expect(section(page).getByText('0 of 8 challenges solved')).toBeVisible();
  await page.evaluate(() => localStorage.setItem('lease-lab.challenges.v1', 'solved=everything!'));
  await page.reload();
  await expect(section(page).getByText('Your saved challenge progress could not be read, so it was reset.')).toBeVisible();
  await expect(section(page).getByText('0 of 8 challenges solved')).toBeVisible();
  expect(await page.evaluate(() => localStorage.getItem('lease-lab.challenges.v1'))).toMatch(/^v=1;solved=;tried=;/);
});
