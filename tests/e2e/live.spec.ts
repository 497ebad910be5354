// Live mode with real timers: client A on the page, the lock service with storage and
// contender B in Web Workers. Margins are wide on purpose (a loaded 2-core machine): T = 1 s,
// a freeze of 3 × T, and every assertion reads the recorded run after it stopped, by scrubbing
// to moments well inside the freeze and after it.
import { test, expect } from './fixtures';
import type { FrameLocator, Locator, Page } from '@playwright/test';
import { cpus, loadavg } from 'node:os';

test.describe.configure({ mode: 'serial' });

const T_MS = 1000;
/** T = 1 s, renew every T/3 (the default fraction), short timeouts and a write every 200 ms. */
const PARAMS = 'faults=none&ttl=1s&timeout=250ms&retry=100ms&acquire=250ms&slice=200ms&margin=50ms&jitter=2ms';

type Root = Page | FrameLocator;

async function openLive(page: Page, extra = '', params = PARAMS) {
  await page.goto(`/#/sandbox?v=1&${params}${extra}`);
  await page.getByRole('button', { name: 'Live', exact: true }).click();
  await expect(page.getByRole('heading', { name: 'Live run' })).toBeVisible();
}

async function startAndHold(root: Root) {
  await root.getByRole('button', { name: 'Start live run' }).click();
  await expect(badge(root, 'A')).toContainText('Holding', { timeout: 20_000 });
}

function workers(page: Page): Promise<number> {
  return page.evaluate(() => (window as unknown as { leaseLabLiveWorkers?: number }).leaseLabLiveWorkers ?? -1);
}

async function watchLongTasks(page: Page) {
  await page.evaluate(() => {
    const w = window as unknown as { longTasks: { start: number; duration: number }[] };
    w.longTasks = [];
    new PerformanceObserver((list) => {
      for (const e of list.getEntries()) w.longTasks.push({ start: e.startTime, duration: e.duration });
    }).observe({ type: 'longtask' });
  });
}

/** Seconds in a printed time ("3.004 s", "250 ms"). */
function seconds(text: string): number {
  const m = /([\d.]+) (s|ms)\b/.exec(text);
  if (!m) throw new Error(`no time in ${text}`);
  return Number(m[1]) / (m[2] === 'ms' ? 1000 : 1);
}

/**
 * Starts a run and freezes the page for `ms` at A's next write; returns the notice after
 * waking. With T = 1 s a page starved by a loaded machine can lose the lease by itself
 * before the freeze is asked (exactly what the lesson warns of): then that run is stopped
 * and a fresh one started, at most three times.
 */
async function holdThenFreezeInWritePath(page: Page, ms: number, settle = 1_000): Promise<string> {
  const notice = page.getByRole('alert');
  for (let attempt = 1; ; attempt++) {
    await startAndHold(page);
    await page.waitForTimeout(settle);
    await page.getByLabel("at A's next write (in the write path)").check();
    await page.getByLabel('Freeze this page for').fill(String(ms));
    await page.getByRole('button', { name: 'Freeze', exact: true }).click();
    await expect(notice).toContainText(/The page froze for|holds no lease/, { timeout: 20_000 });
    const text = (await notice.textContent()) ?? '';
    if (text.includes('The page froze for') || attempt === 3) return text;
    await page.getByRole('button', { name: 'Stop live run' }).click();
    await expect(page.getByRole('heading', { name: 'Recorded live run' })).toBeVisible();
  }
}

/** The freeze line of the recorded run: when it began and how long it really lasted. */
async function recordedFreeze(page: Page): Promise<{ at: number; measured: number; asked: number }> {
  const line = (await page.getByRole('list', { name: 'Freezes of this page' }).getByRole('listitem').first().textContent()) ?? '';
  const m = /froze at ([\d.]+ m?s) for ([\d.]+ m?s) \(asked: ([\d.]+ m?s)\)/.exec(line);
  if (!m) throw new Error(`unreadable freeze line: ${line}`);
  return { at: seconds(m[1]), measured: seconds(m[2]), asked: seconds(m[3]) };
}

async function scrubTo(page: Page, s: number) {
  await page.getByLabel('Time in the recorded run').fill(String(Math.round(s * 1000)));
}

/** The live run's panel: it draws with the simulated laboratory's own views. */
function liveRun(root: Root): Locator {
  return root.getByRole('region', { name: 'Live run' });
}

/** A client's lifecycle badge in the state summary. */
function badge(root: Root, who: string): Locator {
  return liveRun(root).getByLabel('State at the cursor').getByRole('listitem').filter({ hasText: `Client ${who}` });
}

/** The sentence naming the lock service's holder. */
function holder(root: Root): Locator {
  return liveRun(root).getByLabel('State at the cursor').getByRole('paragraph');
}

function check(page: Page, title: string): Locator {
  return liveRun(page).getByRole('region', { name: 'Checks' }).getByRole('listitem').filter({ hasText: title });
}

/** The count of `label` as of the cursor, from the counts table. */
function count(page: Page, label: string): Locator {
  return liveRun(page).getByRole('region', { name: 'Checks' }).getByRole('row', { name: label }).getByRole('cell').first();
}


test('the option that changes what Freeze does comes before the Freeze button in Tab order', async ({ page }) => {
  await openLive(page);
  await startAndHold(page);
  await page.getByLabel('Freeze this page for').focus();
  await page.keyboard.press('Tab');
  await expect(page.getByLabel("at A's next write (in the write path)")).toBeFocused();
  await page.keyboard.press('Tab');
  await expect(page.getByRole('button', { name: 'Freeze', exact: true })).toBeFocused();
  await page.getByRole('button', { name: 'Stop live run' }).click();
  await expect(page.getByRole('heading', { name: 'Recorded live run' })).toBeVisible();
});
test('freezing the page for 3 × T hands the lease to B, A goes Lost on waking, and the fence rejects its held write', async ({ page, context, shot, checkA11y }) => {
  await context.grantPermissions(['clipboard-read', 'clipboard-write']);
  await openLive(page);
  await watchLongTasks(page);
  const notice = await holdThenFreezeInWritePath(page, 3 * T_MS, 1_500);
  expect(await workers(page)).toBe(2);
  const measured = seconds(notice.replace(/^.*froze for /, ''));
  expect(Math.abs(measured - 3) / 3).toBeLessThan(0.1);
  await expect(badge(page, 'A')).toContainText('Lost', { timeout: 10_000 });
  await page.waitForTimeout(1_000);

  // The live run's own tasks: from before Start until Stop (what follows is scrubbing).
  const longTasks = await page.evaluate(() => (window as unknown as { longTasks: { start: number; duration: number }[] }).longTasks);
  await shot(page, 'live-running-after-freeze');
  await page.getByRole('button', { name: 'Stop live run' }).click();
  await expect(page.getByRole('heading', { name: 'Recorded live run' })).toBeVisible();
  await expect.poll(() => workers(page)).toBe(0);

  const freeze = await recordedFreeze(page);
  expect(freeze.asked).toBe(3);
  expect(Math.abs(freeze.measured - freeze.asked) / freeze.asked).toBeLessThan(0.1);

  // The timeline marks B's takeover only once the cursor has passed the grant, worded with
  // the counts panel's longest failover at the same cursor.
  const failovers = liveRun(page).getByRole('img', { name: /^Timeline from 0 to/ }).locator('title').filter({ hasText: /^Failover from/ });
  await scrubTo(page, freeze.at);
  await expect(holder(page)).toContainText('holder is client A');
  await expect(failovers).toHaveCount(0);
  // Well inside the freeze: the service has expired A's lease and granted it to B.
  await scrubTo(page, freeze.at + freeze.measured - 0.3);
  await expect(holder(page)).toContainText('holder is client B with token 2');
  const took = await count(page, 'Longest failover').innerText();
  expect(took).toMatch(/^\d+(\.\d+)? m?s$/);
  await expect(failovers).toHaveText(`Failover from client A to client B: ${took}`);
  await expect(badge(page, 'A')).toContainText(/Holding|Renew in flight/);
  // Just after waking: A is Lost, and its held write reached storage and was rejected.
  await scrubTo(page, freeze.at + freeze.measured + 0.6);
  await expect(badge(page, 'A')).toContainText('Lost');
  const rejected = liveRun(page).getByRole('region', { name: /^Storage/ }).getByRole('row').filter({ hasText: 'Rejected' });
  await expect(rejected.first().getByRole('cell').nth(1)).toHaveText('A');
  await expect(check(page, 'ordered by fencing token')).toContainText('Holding');
  await expect(check(page, 'two unexpired holders')).toContainText('Holding');

  const freezes = longTasks.filter((t) => t.duration > 2_000);
  expect(freezes).toHaveLength(1);
  // The budget is 50 ms. On an oversubscribed machine (other builds and browsers on these
  // two cores) the OS preempts the page mid-task and any task's wall time stretches, so
  // the limit follows the load measured now: it still catches a page that does real work
  // in one go (rebuilding the run, rendering everything), never a descheduled one.
  const perCore = loadavg()[0] / cpus().length;
  const limit = perCore > 1.5 ? 250 : 50;
  test.info().annotations.push({ type: 'long-task limit', description: `${limit} ms at load ${perCore.toFixed(1)} per core` });
  const others = longTasks.filter((t) => t.duration <= 2_000 && t.duration > limit);
  expect(others, `long tasks over ${limit} ms of the live run apart from the deliberate freeze`).toEqual([]);

  await checkA11y(page, '.live-lab');
  await shot(page, 'live-recorded');

  // The recorded run's link reopens the same recorded trace.
  const hash = (await page.locator('.live-trace-id').textContent()) ?? '';
  expect(hash).toMatch(/Trace hash [0-9a-f]{16} · \d+ events/);
  await page.getByRole('button', { name: 'Link to this recorded run' }).click();
  const link = await page.getByLabel("The recorded run's link").inputValue();
  expect(link).toContain('live=');
  await page.goto('about:blank');
  await page.goto(link);
  await expect(page.getByRole('heading', { name: 'Recorded live run' })).toBeVisible();
  await expect(page.locator('.live-trace-id')).toHaveText(hash);
  expect(await recordedFreeze(page)).toEqual(freeze);

  // Simulate this plan: the model shows the same takeover, and the differences are named.
  await page.getByRole('button', { name: 'Simulate this plan' }).click();
  const compare = page.getByRole('region', { name: 'Live and simulated, side by side' });
  await expect(compare).toContainText('Timer lateness on A');
  await expect(compare).toContainText('Messages arrived later than their planned latency');
  await expect(compare).toContainText(`asked 3.000 s, measured`);
  await shot(page, 'live-compare');
});

/** The accessible shape of a laboratory's run views: what a screen reader meets, by role. */
async function viewShape(root: Locator) {
  const storage = root.getByRole('region', { name: /^Storage/ });
  const checks = root.getByRole('region', { name: 'Checks' });
  const timeline = root.getByRole('img', { name: /^Timeline from 0 to / });
  await expect(timeline).toHaveCount(1);
  const lanes = /Lanes: (.*)\.$/.exec((await timeline.getAttribute('aria-label')) ?? '')?.[1];
  return {
    lanes,
    diagrams: await root.getByRole('region', { name: 'Live diagrams' }).locator('svg').evaluateAll((svgs) =>
      svgs.map((svg) => svg.getAttribute('aria-label'))),
    clients: await root.getByLabel('State at the cursor').getByRole('listitem').evaluateAll((items) =>
      items.map((li) => li.querySelector('.client-name')?.textContent)),
    storageColumns: await storage.getByRole('columnheader').allTextContents(),
    checks: await checks.getByRole('list').first().getByRole('listitem').evaluateAll((items) =>
      items.map((li) => li.querySelector('.check-title')?.textContent)),
    counts: await checks.getByRole('table').getByRole('rowheader').allTextContents(),
  };
}

test('the live run draws with the simulated laboratory\'s own timeline, badges, diagrams, storage table, checks and counts', async ({ page, shot }) => {
  await openLive(page);
  await startAndHold(page);
  const storageTimes = liveRun(page).getByRole('region', { name: /^Storage/ }).getByRole('row').locator('td:first-child');
  await expect(storageTimes.first()).toBeVisible({ timeout: 10_000 });
  const live = await viewShape(liveRun(page));
  // Real milliseconds since the live run started: never the trace's microseconds.
  for (const time of await storageTimes.allTextContents()) expect(time).toMatch(/^\d+(\.\d{3})? m?s$/);
  await shot(page, 'live-running-shared-views');
  await page.getByRole('button', { name: 'Stop live run' }).click();
  await expect(page.getByRole('heading', { name: 'Recorded live run' })).toBeVisible();
  const recorded = await viewShape(liveRun(page));

  await page.getByRole('button', { name: 'Simulated', exact: true }).click();
  await expect(liveRun(page)).toHaveCount(0);
  await page.getByRole('button', { name: 'Jump to end' }).click();
  const simulated = await viewShape(page.getByRole('region', { name: 'Lease laboratory' }));
  expect(simulated.checks).toHaveLength(4);
  expect(simulated.diagrams.length).toBeGreaterThan(1);
  expect(simulated.storageColumns.length).toBeGreaterThan(0);
  expect(simulated.lanes).toContain('Client B');
  expect(simulated.counts.length).toBeGreaterThan(5);
  expect(live).toEqual(simulated);
  expect(recorded).toEqual(simulated);
});

test('with fencing off, the same freeze in the write path breaks the order of writes', async ({ page }) => {
  await openLive(page, '&fencing=off');
  await holdThenFreezeInWritePath(page, 3 * T_MS);
  await page.waitForTimeout(1_000);
  await page.getByRole('button', { name: 'Stop live run' }).click();
  await expect(check(page, 'ordered by fencing token')).toContainText('Broken at');
});

/** T = 2 s here: the wall-clock step, not a starved page, should be what loses the lease. */
const WALL_PARAMS = PARAMS.replace('ttl=1s', 'ttl=2s');

async function stepBackAndWait(page: Page): Promise<void> {
  await startAndHold(page);
  await page.waitForTimeout(1_000);
  await page.getByLabel("Step this page's wall clock by").fill('-5000');
  await page.getByRole('button', { name: 'Step', exact: true }).click();
  await page.waitForTimeout(7_000);
  await page.getByRole('button', { name: 'Stop live run' }).click();
  await expect(page.getByRole('heading', { name: 'Recorded live run' })).toBeVisible();
}

test('under wall-clock timers, stepping the wall clock back loses the lease', async ({ page }) => {
  await openLive(page, '&wall-timers=on', WALL_PARAMS);
  await stepBackAndWait(page);
  await expect(count(page, 'Leases lost')).not.toHaveText('0');
  await expect(holder(page)).toContainText('holder is client B');
});

test('under Prefer, the same step of the wall clock changes nothing', async ({ page }) => {
  await openLive(page, '', WALL_PARAMS);
  await stepBackAndWait(page);
  await expect(count(page, 'Leases lost')).toHaveText('0');
  await expect(badge(page, 'A')).toContainText(/Holding|Renew in flight/);
  await expect(holder(page)).toContainText('holder is client A with token 1');
});

test('leaving the Sandbox tab terminates the live workers', async ({ page }) => {
  await openLive(page);
  await startAndHold(page);
  expect(await workers(page)).toBe(2);
  await page.getByRole('tab', { name: 'Gist' }).click();
  await expect.poll(() => workers(page)).toBe(0);
});

test('hiding the tab stops the live run and says that timers are throttled there', async ({ page }) => {
  await openLive(page);
  await startAndHold(page);
  await page.evaluate(() => {
    Object.defineProperty(document, 'hidden', { configurable: true, get: () => true });
    Object.defineProperty(document, 'visibilityState', { configurable: true, get: () => 'hidden' });
    document.dispatchEvent(new Event('visibilitychange'));
  });
  await expect(page.locator('.live-status')).toContainText('because this tab was hidden');
  await expect(page.locator('.live-status')).toContainText('throttle timers');
  await expect(page.getByRole('heading', { name: 'Recorded live run' })).toBeVisible();
  await expect.poll(() => workers(page)).toBe(0);
});

test('a freeze longer than the cap is refused with the cap named', async ({ page }) => {
  await openLive(page);
  // The cap is the field's own rule: a running run is enough, whether A still holds or a
  // loaded machine has already cost it the lease.
  await page.getByRole('button', { name: 'Start live run' }).click();
  await expect(page.getByRole('button', { name: 'Stop live run' })).toBeVisible();
  await page.getByLabel('Freeze this page for').fill('600000');
  await page.getByRole('button', { name: 'Freeze', exact: true }).click();
  await expect(page.getByRole('alert')).toContainText('A freeze lasts at most 10.000 s.');
  await page.getByRole('button', { name: 'Stop live run' }).click();
  await expect(page.getByRole('list', { name: 'Freezes of this page' })).toHaveCount(0);
});

test.describe('embedded', () => {
  test.beforeEach(async ({ page, context, baseURL }) => {
    void page; // the fixture's blocking route first, so this one runs before it
    const origin = new URL(baseURL!).origin;
    await context.route('**/*', async (route) => {
      if (new URL(route.request().url()).origin !== origin) return route.fallback();
      const response = await route.fetch();
      await route.fulfill({ response, headers: { ...response.headers(), 'access-control-allow-origin': '*' } });
    });
  });

  test('live mode runs inside <iframe sandbox="allow-scripts">', async ({ page }) => {
    const src = `/?embed#/sandbox?v=1&${PARAMS}`;
    await page.goto(`/__test/embed-parent.html?src=${encodeURIComponent(src)}`);
    const frame = page.frameLocator('#lab');
    await frame.getByRole('button', { name: 'Live', exact: true }).click();
    await startAndHold(frame);
    await expect(badge(frame, 'B')).toContainText('Acquiring');
    await frame.getByRole('button', { name: 'Stop live run' }).click();
    await expect(frame.getByRole('heading', { name: 'Recorded live run' })).toBeVisible();
  });
});

test('a scenario with more clients than a live run has says which clients run live', async ({ page }) => {
  await openLive(page, '', 'clients=4&ttl=5s');
  await expect(page.getByText('This scenario has 4 clients; a live run has A and B only.')).toBeVisible();
  await openLive(page, '', 'clients=2&ttl=5s');
  await expect(page.getByRole('button', { name: 'Start live run' })).toBeVisible();
  await expect(page.getByText(/a live run has A and B only/)).toHaveCount(0);
});
