// The release build in Debian's Firefox ESR, driven over WebDriver BiDi by puppeteer-core:
// hydration and the tabs, a diagram click, a preset's outcome, a share link's trace hash, links
// followed in the open page (a refused one explained, a challenge try landing), the
// counterexample search and its story, a live-mode freeze, a Python client run in the lab, a
// TypeScript client's clocks (Temporal, timeOrigin, a date format), a run the time limit stops
// (the call that hung and its printed lines) and the voice
// control. Every test fails on a page error or a console error in any of its pages, so an
// error thrown in Firefox only fails this layer (the Chromium layers cannot see it); the
// first test proves the guard with an error planted in Firefox only.
//
// Run: node --test --test-concurrency=1 tests/firefox/ (after `trunk build --release`).
// FIREFOX=/path/to/firefox picks the browser; FIREFOX_PLANT_ERROR=1 plants a page error in
// Firefox only into every test, to see the whole layer fail.
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import puppeteer from 'puppeteer-core';
import { startServer } from '../../tools/static-server.mjs';

const DIST = fileURLToPath(new URL('../../dist', import.meta.url));
const HASHES = fileURLToPath(new URL('../model_preset_hashes.in', import.meta.url));
const TIMEOUT = 30_000;
// Python's first start takes seconds, far more on a busy 2-core machine.
const PYTHON_TIMEOUT = 120_000;

/**
 * Console errors that are expected: Pyodide probes for a classic worker with
 * `importScripts("data:text/javascript,")`, which the snippet sandbox's policy refuses, as it
 * should; Firefox reports the refusal on the console (Chromium does not, for a worker).
 */
const EXPECTED_ERRORS = [/blocked a script \(script-src-elem\) at data:text\/javascript, from being executed/];

/** Throws once the page has loaded, in Firefox only. */
const PLANTED_ERROR = `addEventListener('load', () => {
  if (navigator.userAgent.includes('Firefox')) setTimeout(() => { throw new Error('planted: thrown in Firefox only'); });
});`;

let browser;
let server;

before(async () => {
  server = await startServer(DIST, 0);
  browser = await puppeteer.launch({
    browser: 'firefox',
    executablePath: process.env.FIREFOX ?? '/usr/bin/firefox-esr',
    headless: true,
  });
});

after(async () => {
  await browser?.close();
  await server?.close();
});

/**
 * Runs `body` with a fresh page in a fresh context at `fragment`, once hydrated (unless
 * `hydrated` is false), and fails on any page error or console error it caused
 * (`expectErrors` turns that around, for the guard's proof). `prepare` gets the page first.
 */
async function withPage(fragment, body, { plant = process.env.FIREFOX_PLANT_ERROR === '1', expectErrors = false, prepare, hydrated = true } = {}) {
  const context = await browser.createBrowserContext();
  const page = await context.newPage();
  const errors = [];
  const report = (text) => EXPECTED_ERRORS.some((pattern) => pattern.test(text)) || errors.push(text);
  page.on('pageerror', (error) => report(`uncaught: ${error.message}`));
  page.on('console', (message) => {
    if (message.type() === 'error') report(message.text());
  });
  page.setDefaultTimeout(TIMEOUT);
  if (plant) await page.evaluateOnNewDocument(PLANTED_ERROR);
  await prepare?.(page);
  try {
    await page.goto(`${server.url}/${fragment}`);
    if (hydrated) await page.waitForSelector('html[data-hydrated]');
    await body(page);
    // Errors thrown asynchronously by the last step still count.
    await new Promise((resolve) => setTimeout(resolve, 200));
  } finally {
    await context.close();
  }
  if (expectErrors) assert.notDeepEqual(errors, [], 'the planted error was not reported');
  else assert.deepEqual(errors, [], 'page errors in Firefox');
}

/**
 * The visible element matching `css` whose accessible name (aria-label, else its text) matches
 * `name` (a string is matched whole), waited for: how a person finds a control.
 */
async function find(page, css, name, timeout = TIMEOUT) {
  const pattern = typeof name === 'string' ? { source: `^${name.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}$`, flags: '' } : { source: name.source, flags: name.flags };
  const handle = await page.waitForFunction(
    (css, { source, flags }) => {
      const wanted = new RegExp(source, flags);
      const textOf = (element) => {
        const copy = element.cloneNode(true);
        for (const hidden of copy.querySelectorAll('[aria-hidden="true"]')) hidden.remove();
        return copy.textContent;
      };
      const nameOf = (element) => {
        const labelledBy = element.getAttribute('aria-labelledby');
        const label = labelledBy ? document.getElementById(labelledBy)?.textContent : element.getAttribute('aria-label');
        return (label ?? textOf(element)).replace(/\s+/g, ' ').trim();
      };
      return [...document.querySelectorAll(css)].find((element) => element.checkVisibility() && wanted.test(nameOf(element)));
    },
    { timeout, polling: 100 },
    css,
    pattern,
  );
  return handle;
}

/** The form control labelled `label` (by its <label>), waited for. */
async function field(page, label) {
  return page.waitForFunction(
    (label) => [...document.querySelectorAll('label')].find((l) => l.textContent.replace(/\s+/g, ' ').trim().startsWith(label))?.control,
    { timeout: TIMEOUT, polling: 100 },
    label,
  );
}

/** Waits until the text of the first visible `css` element matches `pattern`; returns it. */
async function textOf(page, css, pattern, timeout = TIMEOUT) {
  const handle = await page.waitForFunction(
    (css, source, flags) => {
      const element = [...document.querySelectorAll(css)].find((e) => e.checkVisibility());
      const text = element?.innerText ?? '';
      return new RegExp(source, flags).test(text) && text;
    },
    { timeout, polling: 100 },
    css,
    pattern.source,
    pattern.flags,
  );
  return handle.jsonValue();
}

/**
 * Opens Your client in TypeScript and puts `code` in its editor as one edit (BiDi sends one
 * character at a time, and typing would auto-close brackets), waiting until `shown` is there.
 */
async function typeScriptClientWith(page, code, shown) {
  await (await find(page, '.lab-mode button', 'Your client')).click();
  await (await find(page, '.own-client .lab-mode button', 'TypeScript')).click();
  await find(page, 'section.snippet', 'Your client in TypeScript');
  await page.waitForSelector('.own-client .cm-content');
  await page.click('.own-client .cm-content');
  await page.keyboard.down('Control');
  await page.keyboard.press('a');
  await page.keyboard.up('Control');
  await page.evaluate((code) => document.execCommand('insertText', false, code), code);
  await textOf(page, '.own-client .cm-content', shown);
}

/** Waits until live mode's state badge of client `who` matches `pattern`. */
async function badge(page, who, pattern, timeout) {
  await page.waitForFunction(
    (who, source) =>
      [...document.querySelectorAll('.live-run [aria-label="State at the cursor"] li, [aria-label="State at the cursor"] li')]
        .some((item) => item.innerText.includes(`Client ${who}`) && new RegExp(source).test(item.innerText)),
    { timeout, polling: 100 },
    who,
    pattern.source,
  );
}

test('the guard fails a test on a page error thrown in Firefox only', async () => {
  await withPage('#/gist', async (page) => {
    await find(page, '[role=tab]', 'Maps');
  }, { plant: true, expectErrors: true });
});

test('hydration: the tabs open by click and the address follows', async () => {
  await withPage('', async (page) => {
    for (const [name, slug, heading] of [['Maps', 'maps', /^Lesson map$/], ['Q&A', 'qa', /^Interview Q&A$/], ['Sandbox', 'sandbox', /^Sandbox$/], ['Gist', 'gist', /^How you know you still hold the lease$/]]) {
      const tab = await find(page, '[role=tab]', name);
      await tab.click();
      await page.waitForFunction((slug) => document.getElementById(`tab-${slug}`).getAttribute('aria-selected') === 'true' && location.hash.startsWith(`#/${slug}`), { polling: 100 }, slug);
      await textOf(page, `#panel-${slug} h2`, heading);
      const hidden = await page.$$eval('.panel', (panels) => panels.filter((p) => !p.hidden).map((p) => p.id));
      assert.deepEqual(hidden, [`panel-${slug}`]);
    }
  });
});

test('a diagram click selects the state and puts it in the address', async () => {
  await withPage('#/gist', async (page) => {
    const lost = await find(page, '[role=button]', /^State 4 Lost/);
    await lost.click();
    await page.waitForFunction(() => /[?&]sel=lifecycle\.lost(&|$)/.test(location.hash), { polling: 100 });
    assert.equal(await lost.evaluate((e) => e.getAttribute('aria-pressed')), 'true');
    const holding = await find(page, '[role=button]', /^State 2 Holding/);
    assert.equal(await holding.evaluate((e) => e.getAttribute('aria-pressed')), 'false');
  });
});

test("a Sandbox link's lab works before the lesson has hydrated, and the lesson adopts it as it is", async () => {
  let release;
  const held = new Promise((resolve) => (release = resolve));
  const holdLesson = async (page) => {
    await page.setRequestInterception(true);
    page.on('request', (request) => {
      if (/\/lease-lab-[0-9a-f]+_bg\.wasm$/.test(request.url())) held.then(() => request.continue());
      else request.continue();
    });
  };
  await withPage('#/sandbox?v=1&ttl=8s&renew=1/4&slice=250ms&dur=40s&faults=none&fault=pause:B@5s+12s&t=21.5s', async (page) => {
    await textOf(page, '.clock .now', /^t = 21\.500 s$/);
    await (await find(page, 'button.play', 'Play')).click();
    await (await find(page, 'button.play', 'Pause')).click();
    const moved = await textOf(page, '.clock .now', /^t = (?!21\.500 s)/);
    await page.$eval('.clock .now', (clock) => clock.setAttribute('data-before-hydration', ''));
    assert.equal(await page.$eval('html', (html) => html.hasAttribute('data-hydrated')), false);
    release();
    await page.waitForSelector('html[data-hydrated]');
    assert.equal(await textOf(page, '.clock .now[data-before-hydration]', /./), moved);
    const seconds = Number(moved.match(/t = ([\d.]+) s/)[1]);
    await page.waitForFunction((t) => location.hash.includes(`t=${t}s`) && location.hash.includes('ttl=8s'), { polling: 100 }, seconds);
    await (await find(page, '[role=tab]', 'Maps')).click();
    await (await find(page, '[role=tab]', 'Sandbox')).click();
    await textOf(page, '.clock .now', new RegExp(`^${moved.replace(/\./g, '\\.')}$`));
  }, { prepare: holdLesson, hydrated: false });
});

test('preset 2 with fencing off: the zombie write breaks the order of writes', async () => {
  await withPage('#/sandbox', async (page) => {
    await (await field(page, 'Scenario')).select('2');
    const fencing = await field(page, 'Fencing at storage');
    await fencing.click();
    assert.equal(await fencing.evaluate((e) => e.checked), false);
    await (await find(page, 'button', 'Jump to end')).click();
    const check = await page.waitForFunction(
      () => [...document.querySelectorAll('[aria-label="Checks"] li, section li')].find((li) => li.innerText.includes('Accepted writes are ordered by fencing token'))?.innerText,
      { polling: 100 },
    );
    const text = await check.jsonValue();
    assert.match(text, /Broken at t = 17\.\d+ s/);
    assert.match(text, /What would have prevented it: Fence at storage/);
  });
});

test("a share link opens at its time with the preset's committed trace hash", async () => {
  const committed = new Map([...readFileSync(HASHES, 'utf8').matchAll(/\("([^"]+)", 0x([0-9a-f]{16})\)/g)].map((m) => [m[1], m[2]]));
  for (const [preset, time, shown] of [['2-unfenced', '17.25s', 't = 17.250 s'], ['5b', '4.5s', 't = 4.500 s']]) {
    await withPage(`#/sandbox?v=1&preset=${preset}&t=${time}`, async (page) => {
      await textOf(page, '.clock .now', new RegExp(`^${shown.replace(/\./g, '\\.')}$`));
      const trace = await textOf(page, '.trace-id', /^Trace hash [0-9a-f]{16}/);
      assert.equal(trace.slice('Trace hash '.length, 'Trace hash '.length + 16), committed.get(preset), preset);
    });
  }
});

test('links followed in the open page: a refused time is said and the address shows what is on screen; a challenge try lands', async () => {
  await withPage('#/gist', async (page) => {
    await page.waitForSelector('html[data-hydrated]');
    await page.evaluate(() => (location.hash = '#/sandbox?v=1&dur=30s&ttl=5s&t=31s'));
    await textOf(page, '.link-notice', /This link's time \(“31s”\) is after the end of the run \(30\.000 s\); starting at 0 s instead\./);
    await textOf(page, '.clock .now', /^t = 0 ms$/);
    await page.waitForFunction(() => location.hash === '#/sandbox?v=1&t=0s&dur=30s&ttl=5s', { polling: 100 });

    // A try of "Survive a 400 ms pause" with T = 1 s, its link taken from the page, then
    // followed from the Gist once the challenge is closed.
    const challenge = await find(page, '.challenges button', /^Survive a 400 ms pause/);
    await challenge.click();
    const tried = await field(page, 'Lease TTL (T) (from');
    await tried.evaluate((e) => { e.value = ''; });
    await tried.type('1s');
    await (await find(page, '.challenges button', 'Check my answer')).click();
    await textOf(page, '.challenges', /Solved\./);
    await (await find(page, '.challenges button', 'Copy a link to this try')).click();
    const link = await (await field(page, 'Link to this try')).evaluate((e) => e.value);
    assert.match(link, /&ttl=1s&.*challenge=pitfall\.[0-9a-f]{16}$/);
    await challenge.click();
    await (await find(page, '[role=tab]', 'Gist')).click();
    await page.evaluate((hash) => (location.hash = hash), link.slice(link.indexOf('#')));
    await textOf(page, '.challenges', /The link's try is filled in below/);
    const ttl = await field(page, 'Lease TTL (T) (from');
    assert.equal(await ttl.evaluate((e) => e.value), '1s');
    // A link read whole clears the notice.
    await page.waitForFunction(() => !document.querySelector('.link-notice'), { polling: 100 });
  });
});

test('a Sandbox link lands from Maps and from Q&A, and Back and Forward move between lab links', async () => {
  const ttl = async (page, value) =>
    page.waitForFunction((value) => [...document.querySelectorAll('label')].find((l) => l.textContent.trim().startsWith('Lease TTL (T)'))?.control?.value === value, { polling: 100 }, value);
  await withPage('#/maps', async (page) => {
    await page.evaluate(() => (location.hash = '#/sandbox?v=1&clients=3&ttl=7s&renew=1/4&dur=25s&faults=none&fault=pause:C@2.5s+6s&t=9.75s'));
    await textOf(page, '.clock .now', /^t = 9\.750 s$/);
    await ttl(page, '7');
    await find(page, 'button', /^Remove stop-the-world pause/);
    await page.evaluate(() => (location.hash = '#/sandbox?v=1&ttl=4s&dur=20s&t=3s'));
    await textOf(page, '.clock .now', /^t = 3\.000 s$/);
    await ttl(page, '4');
    await page.evaluate(() => history.back());
    await textOf(page, '.clock .now', /^t = 9\.750 s$/);
    await ttl(page, '7');
    await page.evaluate(() => history.forward());
    await textOf(page, '.clock .now', /^t = 3\.000 s$/);
    await (await find(page, '[role=tab]', 'Q&A')).click();
    await page.evaluate(() => (location.hash = '#/sandbox?v=1&ttl=12s&dur=45s&t=40.5s'));
    await textOf(page, '.clock .now', /^t = 40\.500 s$/);
    await ttl(page, '12');
  });
});

test('the counterexample search breaks fencing off, shrinks, and tells its story', async () => {
  await withPage('#/sandbox', async (page) => {
    await (await field(page, 'Scenario')).select('1');
    await (await field(page, 'Fencing at storage')).click();
    for (const [name, wanted] of [
      ['Stop-the-world pause (GC)', true], ['Pause inside the write path', true], ['Network blip or partition', false],
      ['Delay the next packet', false], ['NTP step of the wall clock', false], ['Clock drift', false], ['Crash', false],
      ['Revoke the lease at the service', false],
    ]) {
      const box = await page.waitForFunction(
        (name) => [...document.querySelectorAll('.search-panel label')].find((l) => l.textContent.trim() === name)?.control,
        { polling: 100 },
        name,
      );
      if ((await box.evaluate((e) => e.checked)) !== wanted) await box.click();
    }
    await (await find(page, '.search-panel button', 'Start')).click();
    const summary = await textOf(page, '.search-panel', /Counterexample: plan \d+ of seed \d+ broke a check\./, 60_000);
    assert.match(summary, /Faults in the plan: \d+ as found, [12] after shrinking\./);
    const story = await page.$$eval('.search-panel ol li, .search-panel ul li', (items) => items.map((i) => i.innerText));
    assert.ok(story.some((line) => /froze for/.test(line)), story.join('\n'));
    assert.ok(story.some((line) => /acquired the lease with token/.test(line)), story.join('\n'));
    assert.ok(story.some((line) => line.includes('Accepted writes are ordered by fencing token')), story.join('\n'));
  });
});

test('live mode: freezing the page in the write path for 3 × T hands the lease to B', async () => {
  const params = 'faults=none&ttl=1s&timeout=250ms&retry=100ms&acquire=250ms&slice=200ms&margin=50ms&jitter=2ms';
  await withPage(`#/sandbox?v=1&${params}`, async (page) => {
    await (await find(page, 'button', 'Live')).click();
    for (let attempt = 1; ; attempt += 1) {
      await (await find(page, 'button', 'Start live run')).click();
      await badge(page, 'A', /Holding/, 20_000);
      await new Promise((resolve) => setTimeout(resolve, 1_500));
      await (await field(page, "at A's next write (in the write path)")).click();
      const freezeFor = await field(page, 'Freeze this page for');
      await freezeFor.evaluate((input) => (input.value = ''));
      await freezeFor.type('3000');
      await (await find(page, 'button', 'Freeze')).click();
      const notice = await textOf(page, '[role=alert]', /The page froze for|holds no lease/, 20_000);
      if (notice.includes('The page froze for') || attempt === 3) {
        assert.match(notice, /The page froze for/);
        // The service expired A's lease during the freeze: A wakes Lost.
        await badge(page, 'A', /Lost/, 10_000);
        break;
      }
      await (await find(page, 'button', 'Stop live run')).click();
    }
    await (await find(page, 'button', 'Stop live run')).click();
    const freeze = await textOf(page, '[aria-label="Freezes of this page"]', /froze at/);
    const [, measured] = /for ([\d.]+) s/.exec(freeze) ?? [];
    assert.ok(Number(measured) >= 2.7 && Number(measured) <= 3.5, freeze);
  });
});

test('a Python client runs in the lab in Firefox: the solution ends as the built-in client, every check holding, twice', async () => {
  await withPage('#/sandbox', async (page) => {
    await (await find(page, '.lab-mode button', 'Your client')).click();
    await (await find(page, '.own-client .lab-mode button', 'Python')).click();
    await page.waitForFunction(
      () => [...document.querySelectorAll('.own-client .lab-mode button')].find((b) => b.textContent.trim() === 'Python')?.getAttribute('aria-pressed') === 'true',
      { polling: 100 },
    );
    const panel = await find(page, 'section.snippet', 'Your client in Python');
    await (await find(page, 'section.snippet button', 'Show a solution')).click();
    await page.waitForFunction(
      () => [...document.querySelectorAll('section.snippet button')].find((b) => b.textContent.trim() === 'Show a solution')?.disabled === true,
      { polling: 100 },
    );
    // The first run boots CPython in full and snapshots it; the second restores that snapshot
    // in a fresh worker, and must end exactly as the first did.
    const hashes = [];
    for (const run of [1, 2]) {
      const before = await panel.evaluate((p) => p.querySelector('.snippet-status')?.textContent.trim() ?? '');
      await (await find(page, 'section.snippet button', 'Run in the lab')).click();
      // Polled from here: an in-page wait started while Python loads can miss its end in
      // Firefox after an earlier test's context closed (seen after the live-mode freeze).
      const status = () => panel.evaluate((p) => p.querySelector('.snippet-status')?.textContent.trim() ?? '');
      const deadline = Date.now() + PYTHON_TIMEOUT;
      // The status leaves the last run's "Ran in the lab" as the new run starts.
      while (run === 2 && (await status()) === before) {
        assert.ok(Date.now() < deadline, `run ${run} did not start: ${before}`);
        await new Promise((resolve) => setTimeout(resolve, 20));
      }
      while (!/^Ran in the lab in \d+ ms: the result is below, checked by the lab's own checkers\.$/.test(await status())) {
        assert.ok(Date.now() < deadline, `Python did not finish run ${run}: ${await status()}`);
        assert.doesNotMatch(await status(), /^Stopped|stopped with an error|could not start|ran out of memory/);
        await new Promise((resolve) => setTimeout(resolve, 200));
      }
      hashes.push(await textOf(page, '.own-client-run .trace-id', /^Trace hash [0-9a-f]{16} · \d+ events · ends at /));
      const titles = await panel.evaluate((p) =>
        [...p.querySelectorAll('.own-client-run .check-title')].map((t) => t.closest('li').textContent));
      assert.equal(titles.length, 4, titles.join('\n'));
      for (const check of titles) assert.doesNotMatch(check, /Broken at/);
    }
    assert.equal(hashes[1], hashes[0]);
    await (await find(page, 'section.snippet button', 'Compare with the built-in client')).click();
    await textOf(page, '.own-client-outcome', /^Both end the same way: .*; every check holds\.$/);
    // The calls' reference opens, in Python's spelling.
    await (await find(page, '.client-reference summary', 'The calls your client can make')).click();
    const reference = await textOf(page, '.client-reference', /node\.at_wall\(ms, name\)/);
    assert.doesNotMatch(reference, /atWall|renewEvery/);
  });
});

// Firefox has Temporal too (since 139): it, the worker's timeOrigin and a date format given no
// date read the node's clocks, as in Chromium (tests/e2e/client.spec.ts), never the real time.
test("a TypeScript client's Temporal.Now, timeOrigin and date format read the node's clocks in Firefox", async () => {
  await withPage('#/sandbox', async (page) => {
    const code = readFileSync(new URL('../sandbox/clients/clocks.ts', import.meta.url), 'utf8');
    await typeScriptClientWith(page, code, /performance\.timeOrigin/);
    await (await find(page, 'section.snippet button', 'Run in the lab')).click();
    await textOf(page, '.own-client .snippet-status', /^Ran in the lab in \d+ ms/);
    const printed = await textOf(page, '.own-client-run', /Printed by your code/);
    assert.match(printed, /0 ms A: 1000000000 1970-01-12T13:46:40 0 13:46:40\n/);
    assert.match(printed, /100 ms B: 1000000100 1970-01-12T13:46:40\.1 100 13:46:40\n/);
  });
});

// A handler that never returns: the time limit ends the run, and the page still says which
// call hung and keeps what the code printed, in that call too (the worker sends it as printed).
test("a TypeScript run the time limit stops names the call that never returned and keeps its lines, in Firefox", async () => {
  await withPage('#/sandbox', async (page) => {
    const code = [
      'function start(node: any) { node.after(300, "tick"); }',
      'function reply(node: any, answer: any) {}',
      'function timer(node: any, name: string) {',
      '  console.log("tick", node.name, Math.round(node.monotonic()));',
      '  if (node.monotonic() > 1000) { console.log("about to spin"); for (;;) {} }',
      '  node.after(300, "tick");',
      '}',
      '',
    ].join('\n');
    await typeScriptClientWith(page, code, /about to spin/);
    const limit = await page.waitForSelector('.own-client input[type="number"]');
    await limit.click({ count: 3 });
    await limit.type('2');
    await limit.press('Enter');
    await (await find(page, 'section.snippet button', 'Run in the lab')).click();
    await textOf(page, '.own-client .snippet-status', /^Stopped: your code ran past the time limit of 2 s/);
    const errors = await textOf(page, '.own-client .snippet-stderr', /never returned/);
    assert.match(errors, /client A was still in timer\(node, "tick"\), a call it began when its monotonic clock read 1\.200 s/);
    const printed = await textOf(page, '.own-client .snippet-stdout', /about to spin/);
    assert.match(printed, /900 ms A: tick A 900\n[\s\S]*1\.200 s A: tick A 1200\n1\.200 s A: about to spin/);
  });
});

// An error of the file's top level is said to be there, and Firefox's stack names no
// function the learner never wrote (the wrapper is the module's default export).
test("a TypeScript client's top-level error is named as the top level, with Firefox's stack, in Firefox", async () => {
  await withPage('#/sandbox', async (page) => {
    await typeScriptClientWith(page, 'const limit = 3;\nconsole.log(limits);\nfunction start(node: any) {}\n', /limits/);
    await (await find(page, 'section.snippet button', 'Run in the lab')).click();
    await textOf(page, '.own-client .snippet-status', /^Ran in the lab in \d+ ms, but the run stopped early/);
    const alert = await textOf(page, '.own-client-run [role="alert"]', /top level/);
    assert.match(alert, /^Client A's code threw at the top level of its file, on line 2, while the lab was making the client \(before start\(node\)\): ReferenceError: limits is not defined\s+@client\.ts:2:\d+/);
    assert.doesNotMatch(alert, /default/);
  });
});

test('the voice control reads the open tab in reading order, and Stop stops it', async () => {
  await withPage('#/gist', async (page) => {
    // Firefox's engine needs a speech service this machine lacks: the utterances are recorded.
    await page.evaluate(() => {
      window.__spoken = [];
      speechSynthesis.speak = (utterance) => window.__spoken.push(utterance.text);
    });
    await (await find(page, 'button', 'Read this tab aloud')).click();
    const spoken = await page.evaluate(() => window.__spoken);
    assert.deepEqual(spoken.slice(0, 4), [
      'How you know you still hold the lease',
      'Two habits compete.',
      'Only one of them stays safe when clocks jump, packets stall or the runtime pauses.',
      'Prefer',
    ]);
    const stop = await find(page, 'button', 'Stop');
    assert.equal(await stop.evaluate((b) => b.disabled), false);
    await stop.click();
    await page.waitForFunction(() => [...document.querySelectorAll('button')].find((b) => b.textContent.trim() === 'Stop')?.disabled, { polling: 100 });
  });
});
