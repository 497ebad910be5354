// The runnable lost-flag snippets: they run, report errors with lines, stop on time, cap
// their output in bytes, survive a sandbox that runs out of memory, and cannot reach the
// network or the page from their sandbox.
import { createHash } from 'node:crypto';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { chromium, type Locator, type Page } from '@playwright/test';
import { test, expect, openApp } from './fixtures';
import { BOOTSTRAP, BOOTSTRAP_HASH, SANDBOX_POLICY } from '../../www/snippets/sandbox/runner.js';

// One after another in one worker: parallel Python start-ups starve each other's timing.
test.describe.configure({ mode: 'default' });

const PYTHON = readFileSync(new URL('../../www/snippets/lost_flag.py', import.meta.url), 'utf8');
const TYPESCRIPT = readFileSync(new URL('../../www/snippets/lost_flag.ts', import.meta.url), 'utf8');

const EXPECTED_LOG = [
  'A acquired the lease, token 1 (T = 240 ms, heartbeat every 80 ms)',
  'beat 1: renew ok; write a1 with token 1 accepted',
  'beat 2: renew ok; write a2 with token 1 accepted',
  'beat 3: renew timed out, budget left, retry; write a3 sent with token 1',
  'A freezes in a 300 ms stop-the-world pause; write a3 is still in flight',
  "B acquired the lease, token 2, once A's lease expired; write b1 with token 2 accepted",
  'A wakes; its in-flight write a3 lands: rejected, token 1 < 2',
  'beat 4: renew timed out past its budget: LOST (unlock sent, not awaited); write a4 skipped (lost flag set)',
  'beat 5: lost, no renew; write a5 skipped (lost flag set)',
  'storage holds a1 a2 b1; nothing from A after its lost flag',
].join('\n');

// Python's first start in a fresh page takes seconds, far more on a busy 2-core machine.
const PYTHON_START_MS = 120_000;

const ENGINE_PATH = /\/vendor\/(pyodide\/|sucrase)|\/sandbox\//;

type Language = 'Python' | 'TypeScript';
const HEADINGS: Record<Language, string> = {
  Python: 'Lost flag stops writes (Python)',
  TypeScript: 'The same idea in TypeScript',
};

/** One snippet panel, found the way a person would: by its heading, buttons and labels. */
function snippet(page: Page, language: Language) {
  const panel = page.getByRole('region', { name: HEADINGS[language], exact: true });
  return {
    panel,
    editor: panel.getByRole('textbox', { name: `${language} code` }),
    run: panel.getByRole('button', { name: 'Run', exact: true }),
    stop: panel.getByRole('button', { name: 'Stop', exact: true }),
    reset: panel.getByRole('button', { name: 'Reset to original' }),
    limit: panel.getByRole('spinbutton', { name: 'Time limit (s)' }),
    status: panel.getByRole('status'),
    output: panel.getByRole('region', { name: /Output$/ }),
    errors: panel.getByRole('region', { name: /Errors$/ }),
  };
}

async function openSnippets(page: Page) {
  await openApp(page, '#/sandbox');
  // The code editor (CodeMirror) has replaced the plain textarea in both panels.
  await expect(page.locator('.snippet .cm-content')).toHaveCount(2);
}

/** Replaces the editor's whole text, as pasting would. */
async function replaceCode(editor: Locator, code: string) {
  await editor.click();
  await editor.press('ControlOrMeta+a');
  await editor.page().keyboard.insertText(code);
}

/**
 * Waits for the run to finish and checks its log. The snippets time the holder with the real
 * monotonic clock, so a starved test machine can really stall it past its budget, and the
 * snippet then rightly prints an earlier LOST; such a run is repeated, at most twice.
 */
async function expectFinishedWithLog(s: ReturnType<typeof snippet>, log: string) {
  for (let attempt = 1; ; attempt += 1) {
    await expect(s.status).toHaveText(/^Finished in \d+ ms\.$/, { timeout: PYTHON_START_MS });
    const printed = await s.output.innerText();
    if (printed.trimEnd() === log || !printed.includes('LOST') || attempt === 3) break;
    await s.run.click();
    await expect(s.status).not.toHaveText(/^Finished/);
  }
  await expect(s.output).toHaveText(log + '\n', { useInnerText: true });
  await expect(s.errors).toHaveText('');
}

// What the README promises a run may print at most, in UTF-8 bytes and in lines.
const OUTPUT_CAP_BYTES = 1_000_000;
const OUTPUT_CAP_LINES = 10_000;
const OUTPUT_LIMIT_REACHED = /^Output limit reached: .+\. The run was stopped\.$/;
const OUT_OF_MEMORY = 'The snippet ran out of memory and its sandbox was restarted.';
// How late a stop may come: the limit or the click, plus this.
const STOP_WITHIN_MS = 200;

function expectWithinOutputCaps(output: string) {
  expect(Buffer.byteLength(output, 'utf8')).toBeLessThanOrEqual(OUTPUT_CAP_BYTES);
  expect(output.split('\n').length - 1).toBeLessThanOrEqual(OUTPUT_CAP_LINES);
}

type Timed = { text: string; at: number };

/** Records, in the page's own clock, every status text of each panel and every button click. */
async function recordTimings(page: Page) {
  await page.evaluate(() => {
    const w = window as unknown as { __statuses: Record<string, Timed[]>; __clicks: Timed[] };
    w.__statuses = {};
    w.__clicks = [];
    for (const status of document.querySelectorAll('.snippet [role=status]')) {
      const heading = status.closest('section')!.querySelector('h3')!.textContent!;
      const seen: Timed[] = (w.__statuses[heading] = []);
      new MutationObserver(() => seen.push({ text: status.textContent!, at: performance.now() })).observe(status, {
        subtree: true,
        childList: true,
        characterData: true,
      });
    }
    document.addEventListener(
      'click',
      (event) => {
        const button = (event.target as Element).closest('button');
        if (button) w.__clicks.push({ text: button.textContent!, at: performance.now() });
      },
      true,
    );
  });
}

/** When `language`'s status first matched `pattern` after `after` (page clock), if it did. */
async function statusAt(page: Page, language: Language, pattern: RegExp, after = 0): Promise<number> {
  const seen: Timed[] = await page.evaluate(
    (heading) => (window as unknown as { __statuses: Record<string, Timed[]> }).__statuses[heading],
    HEADINGS[language],
  );
  const found = seen.find((entry) => entry.at >= after && pattern.test(entry.text));
  expect(found, `status ${pattern} of ${language} in ${JSON.stringify(seen)}`).toBeDefined();
  return found!.at;
}

async function lastClickAt(page: Page, button: string): Promise<number> {
  const clicks: Timed[] = await page.evaluate(() => (window as unknown as { __clicks: Timed[] }).__clicks);
  return clicks.filter((click) => click.text === button).at(-1)!.at;
}

async function setLimit(s: ReturnType<typeof snippet>, secs: number) {
  await s.limit.fill(String(secs));
  await s.limit.press('Enter');
}

test('the sandbox bootstrap hash in the policy matches the bootstrap', () => {
  const hash = createHash('sha256').update(BOOTSTRAP).digest('base64');
  expect(BOOTSTRAP_HASH).toBe(`sha256-${hash}`);
  expect(SANDBOX_POLICY).toContain("connect-src 'none'");
  expect(SANDBOX_POLICY).toContain("default-src 'none'");
});

test('no engine file is requested before the first Run', async ({ page, server }) => {
  // The server lives as long as the Playwright worker, so only this test's requests count.
  const earlier = server.requests.length;
  const requestsNow = () => server.requests.slice(earlier);
  await openApp(page);
  expect(requestsNow().filter((path) => path.includes('/vendor/'))).toEqual([]);
  await page.getByRole('tab', { name: 'Sandbox' }).click();
  await expect(page.locator('.snippet .cm-content')).toHaveCount(2);
  await expect(snippet(page, 'Python').status).toHaveText('Not run yet: nothing runs until you press Run.');
  expect(requestsNow()).toContain('/vendor/editor.js');
  expect(requestsNow().filter((path) => ENGINE_PATH.test(path))).toEqual([]);

  await snippet(page, 'TypeScript').run.click();
  await expect(snippet(page, 'TypeScript').status).toHaveText(/^Finished/);
  const requested = requestsNow().filter((path) => ENGINE_PATH.test(path));
  expect(requested).toContain('/vendor/sucrase.js');
  expect(requested.filter((path) => path.includes('pyodide'))).toEqual([]);
});

test('the default Python snippet runs and prints the lost-flag log', async ({ page }) => {
  test.slow(); // starts Python
  await openSnippets(page);
  const python = snippet(page, 'Python');
  await expect(python.editor).toContainText('import time');
  await python.run.click();
  // Python's first load shows its progress while the engine downloads and starts.
  await expect(python.status).toHaveText(/Downloading Python|Starting Python/);
  await expectFinishedWithLog(python, EXPECTED_LOG);
});

test('the default TypeScript snippet runs and prints the same log', async ({ page }) => {
  await openSnippets(page);
  const typescript = snippet(page, 'TypeScript');
  await expect(typescript.editor).toContainText('const TTL_MS = 240;');
  await typescript.run.click();
  await expectFinishedWithLog(typescript, EXPECTED_LOG);
});

test('an edited snippet prints accordingly, and Reset brings the original back', async ({ page }) => {
  test.slow(); // starts Python
  await openSnippets(page);
  for (const [language, original, edited] of [
    ['Python', PYTHON, PYTHON.replace('RENEWS_FAIL_FROM_BEAT = 3 ', 'RENEWS_FAIL_FROM_BEAT = 99')],
    ['TypeScript', TYPESCRIPT, TYPESCRIPT.replace('RENEWS_FAIL_FROM_BEAT = 3;', 'RENEWS_FAIL_FROM_BEAT = 99;')],
  ] as const) {
    expect(edited).not.toBe(original);
    const s = snippet(page, language);
    await replaceCode(s.editor, edited);
    await s.run.click();
    // With every renew reaching the service, beat 3 renews fine and the loss after the pause
    // comes from the service's NOT_OWNER answer instead of a spent budget.
    const log = EXPECTED_LOG.replace(
      'beat 3: renew timed out, budget left, retry;',
      'beat 3: renew ok;',
    ).replace('renew timed out past its budget: LOST', 'renew answered NOT_OWNER: LOST');
    expect(log).not.toBe(EXPECTED_LOG);
    await expectFinishedWithLog(s, log);

    await s.reset.click();
    await expect(s.editor).toContainText('RENEWS_FAIL_FROM_BEAT = 3');
    await expect(s.reset).toBeDisabled();
    await s.run.click();
    await expectFinishedWithLog(s, EXPECTED_LOG);
  }
});

test('a syntax error is reported with its line', async ({ page }) => {
  test.slow(); // starts Python
  await openSnippets(page);
  const python = snippet(page, 'Python');
  await replaceCode(python.editor, 'print("first line is fine")\nif True print("no colon")\n');
  await python.run.click();
  await expect(python.status).toHaveText('Stopped by an error on line 2.', { timeout: PYTHON_START_MS });
  await expect(python.errors).toContainText('File "snippet.py", line 2');
  await expect(python.errors).toContainText('SyntaxError');
  await expect(python.output).toHaveText('');

  const typescript = snippet(page, 'TypeScript');
  await replaceCode(typescript.editor, 'const fine: number = 1;\nconst broken = ;\n');
  await typescript.run.click();
  await expect(typescript.status).toHaveText('Stopped by an error on line 2.');
  await expect(typescript.errors).toContainText('SyntaxError on line 2');
});

test('a runtime error names its line in the learner\'s code', async ({ page }) => {
  await openSnippets(page);
  const typescript = snippet(page, 'TypeScript');
  await replaceCode(typescript.editor, 'console.log("before");\nconst lease: any = null;\nlease.renew();\n');
  await typescript.run.click();
  await expect(typescript.status).toHaveText('Stopped by an error on line 3.');
  await expect(typescript.output).toHaveText('before\n', { useInnerText: true });
  await expect(typescript.errors).toContainText('TypeError');
  await expect(typescript.errors).toContainText('snippet.ts:3');
});

for (const [language, loop] of [
  ['Python', 'print("spinning")\nwhile True: pass\n'],
  ['TypeScript', 'console.log("spinning");\nfor (;;) {}\n'],
] as const) {
  test(`${language}: an endless loop is stopped at the time limit, the page stays responsive, and the next run works`, async ({ page }) => {
    test.slow(language === 'Python'); // starts Python
    await openSnippets(page);
    await recordTimings(page);
    const s = snippet(page, language);
    await s.limit.fill('2');
    await s.limit.press('Enter');
    await replaceCode(s.editor, loop);
    await s.run.click();
    await expect(s.status).toHaveText('Running… (stopped after 2 s)', { timeout: PYTHON_START_MS });
    await expect(s.output).toHaveText('spinning\n', { useInnerText: true });

    // While the loop spins, the page still handles clicks and typing elsewhere.
    const other = snippet(page, language === 'Python' ? 'TypeScript' : 'Python');
    await other.limit.fill('7');
    await other.limit.press('Tab');
    await expect(other.limit).toHaveValue('7');
    await other.editor.click();
    await page.keyboard.press('ControlOrMeta+End');
    await page.keyboard.insertText('\n// still typing');
    await expect(other.editor).toContainText('still typing');
    await expect(other.reset).toBeEnabled();

    await expect(s.status).toHaveText('Stopped: the time limit of 2 s ran out.', { timeout: 5_000 });
    // The page's own clock: the test runner's lag on a loaded machine is not the page's.
    const started = await statusAt(page, language, /^Running/);
    const ended = await statusAt(page, language, /^Stopped: the time limit/, started);
    expect(ended - started).toBeGreaterThanOrEqual(2_000 - 50);
    expect(ended - started).toBeLessThan(3_000);

    await s.reset.click();
    await s.run.click();
    await expectFinishedWithLog(s, EXPECTED_LOG);
  });
}

for (const [language, flood] of [
  ['Python', 'while True:\n    print("flooding the console")\n'],
  ['TypeScript', 'for (;;) console.log("flooding the console");\n'],
] as const) {
  test(`${language}: a print loop is stopped at the output limit, and the page keeps up`, async ({ page }) => {
    test.slow(language === 'Python'); // starts Python
    await openSnippets(page);
    const s = snippet(page, language);
    await s.limit.fill('2');
    await s.limit.press('Enter');
    await replaceCode(s.editor, flood);
    await s.run.click();
    // The cap ends the run within moments of its start, long before its 2 s are up.
    await expect(s.status).toHaveText(OUTPUT_LIMIT_REACHED, { timeout: PYTHON_START_MS });
    const other = snippet(page, language === 'Python' ? 'TypeScript' : 'Python');
    await other.limit.fill('9');
    await other.limit.press('Tab');
    await expect(other.limit).toHaveValue('9');
    const output = (await s.output.textContent()) ?? '';
    expectWithinOutputCaps(output);
    expect(output).toMatch(/^(flooding the console\n)+/);
  });
}

test('Stop ends a run at once, and look-alike control messages from the code change nothing', async ({ page }) => {
  await openSnippets(page);
  const typescript = snippet(page, 'TypeScript');
  await typescript.limit.fill('3');
  await typescript.limit.press('Enter');
  // The code posts the worker's own "started" message over and over, as if to restart the
  // timer; the page trusts "started" once, so the time limit still ends the run.
  await replaceCode(
    typescript.editor,
    [
      'postMessage({ type: "loaded" });',
      'let next = 0;',
      'for (;;) {',
      '  if (performance.now() > next) { postMessage({ type: "started" }); next = performance.now() + 200; }',
      '}',
    ].join('\n'),
  );
  await typescript.run.click();
  await expect(typescript.status).toHaveText('Running… (stopped after 3 s)');
  await expect(typescript.status).toHaveText('Stopped: the time limit of 3 s ran out.', { timeout: 6_000 });

  await typescript.limit.fill('60');
  await typescript.limit.press('Enter');
  await replaceCode(typescript.editor, 'for (;;) {}');
  await typescript.run.click();
  await expect(typescript.status).toHaveText('Running… (stopped after 60 s)');
  const clicked = Date.now();
  await typescript.stop.click();
  await expect(typescript.status).toHaveText('Stopped.');
  expect(Date.now() - clicked).toBeLessThan(1_000);
  await expect(typescript.run).toBeEnabled();
});

test('TypeScript code cannot reach the network, the page or its storage', async ({ page, server }) => {
  await openSnippets(page);
  const target = `${server.url}/leak`;
  const typescript = snippet(page, 'TypeScript');
  await replaceCode(
    typescript.editor,
    [
      'const attempts: [string, () => Promise<unknown>][] = [',
      `  ["fetch", () => fetch("${target}/fetch")],`,
      '  ["XMLHttpRequest", () => new Promise((done, fail) => {',
      '    const request = new XMLHttpRequest();',
      '    request.onload = done; request.onerror = () => fail(new Error("network error"));',
      `    request.open("GET", "${target}/xhr"); request.send();`,
      '  })],',
      '  ["WebSocket", () => new Promise((done, fail) => {',
      `    const socket = new WebSocket("${target.replace('http', 'ws')}/ws");`,
      '    socket.onopen = done; socket.onerror = () => fail(new Error("socket error"));',
      '  })],',
      `  ["import", () => import("${target}/import.js")],`,
      `  ["importScripts", async () => (self as any).importScripts("${target}/import-scripts.js")],`,
      `  ["sendBeacon", async () => { if (!navigator.sendBeacon("${target}/beacon", "x")) throw new Error("refused"); }],`,
      '  ["parent.document", async () => (self as any).parent.document.title],',
      '  ["localStorage", async () => (self as any).localStorage.getItem("lease-lab")],',
      '  ["document.cookie", async () => (self as any).document.cookie],',
      '];',
      'for (const [name, attempt] of attempts) {',
      '  try { await attempt(); console.log(`${name}: REACHED`); }',
      '  catch { console.log(`${name}: blocked`); }',
      '}',
    ].join('\n'),
  );
  await typescript.run.click();
  await expect(typescript.status).toHaveText(/^Finished/);
  await expect(typescript.output).toHaveText(
    [
      'fetch: blocked',
      'XMLHttpRequest: blocked',
      'WebSocket: blocked',
      'import: blocked',
      'importScripts: blocked',
      'sendBeacon: blocked',
      'parent.document: blocked',
      'localStorage: blocked',
      'document.cookie: blocked',
      '',
    ].join('\n'),
    { useInnerText: true },
  );
  expect(server.requests.filter((path) => path.startsWith('/leak'))).toEqual([]);
});

test('Python code cannot reach the network, the page or its storage', async ({ page, server }) => {
  test.slow(); // starts Python
  await openSnippets(page);
  const target = `${server.url}/leak`;
  const python = snippet(page, 'Python');
  await replaceCode(
    python.editor,
    [
      'import js',
      'from pyodide.http import pyfetch',
      'import urllib.request',
      '',
      'async def attempt(name, action):',
      '    try:',
      '        result = action()',
      '        if hasattr(result, "__await__"):',
      '            await result',
      '        print(f"{name}: REACHED")',
      '    except Exception:',
      '        print(f"{name}: blocked")',
      '',
      `await attempt("fetch", lambda: js.fetch("${target}/py-fetch"))`,
      `await attempt("pyfetch", lambda: pyfetch("${target}/pyfetch"))`,
      `await attempt("urllib", lambda: urllib.request.urlopen("${target}/urllib"))`,
      'await attempt("parent.document", lambda: js.parent.document.title)',
      'await attempt("localStorage", lambda: js.localStorage.getItem("lease-lab"))',
    ].join('\n'),
  );
  await python.run.click();
  await expect(python.status).toHaveText(/^Finished/, { timeout: PYTHON_START_MS });
  await expect(python.output).toHaveText(
    ['fetch: blocked', 'pyfetch: blocked', 'urllib: blocked', 'parent.document: blocked', 'localStorage: blocked', ''].join('\n'),
    { useInnerText: true },
  );
  expect(server.requests.filter((path) => path.startsWith('/leak'))).toEqual([]);
});

// One write far past the cap, in several sizes and characters: the run ends at the cap, well
// within its limit, what it printed stays within the caps, and the next run works.
for (const [language, flood, limitSecs] of [
  ['TypeScript', "const s = 'x'.repeat(5e7); for (;;) console.log(s);", 5],
  ['TypeScript', "const s = 'é'.repeat(3e6);\nfor (let i = 0; ; i++) console.log(i, s);", 3],
  ['Python', 's = "x" * 20_000_000\nwhile True:\n    print(s)\n', 4],
] as const) {
  test(`${language}: a flood of ${flood.match(/repeat\((\w+)\)|\* (\S+)/)!.slice(1).join('')}-character lines stops within its ${limitSecs} s limit, and the next run works`, async ({ page }) => {
    test.slow(language === 'Python'); // starts Python
    await openSnippets(page);
    await recordTimings(page);
    const s = snippet(page, language);
    await setLimit(s, limitSecs);
    await replaceCode(s.editor, flood);
    await s.run.click();
    await expect(s.status).toHaveText(OUTPUT_LIMIT_REACHED, { timeout: PYTHON_START_MS });
    const started = await statusAt(page, language, /^Running/);
    const ended = await statusAt(page, language, OUTPUT_LIMIT_REACHED, started);
    expect(ended - started).toBeLessThanOrEqual(limitSecs * 1000 + STOP_WITHIN_MS);
    const output = (await s.output.textContent()) ?? '';
    expect(output.length).toBeGreaterThan(0);
    expectWithinOutputCaps(output);

    await s.reset.click();
    await s.run.click();
    await expectFinishedWithLog(s, EXPECTED_LOG);
  });
}

// Output under the caps, paced so the run lasts: the page's timer ends it on time.
for (const [language, paced, limitSecs] of [
  ['TypeScript', "for (let i = 0; ; i++) {\n  console.log(i, 'y'.repeat(700));\n  await new Promise((done) => setTimeout(done, 5));\n}", 3],
  ['Python', 'import time\ni = 0\nwhile True:\n    print(i, "y" * 300)\n    i += 1\n    time.sleep(0.004)\n', 4],
] as const) {
  test(`${language}: a steady printer is stopped when its ${limitSecs} s run out, not later than ${STOP_WITHIN_MS} ms after`, async ({ page }) => {
    test.slow(language === 'Python'); // starts Python
    await openSnippets(page);
    await recordTimings(page);
    const s = snippet(page, language);
    await setLimit(s, limitSecs);
    await replaceCode(s.editor, paced);
    await s.run.click();
    const timedOut = `Stopped: the time limit of ${limitSecs} s ran out.`;
    await expect(s.status).toHaveText(timedOut, { timeout: PYTHON_START_MS });
    const started = await statusAt(page, language, /^Running/);
    const ended = await statusAt(page, language, /^Stopped: the time limit/, started);
    expect(ended - started).toBeGreaterThanOrEqual(limitSecs * 1000 - 50);
    expect(ended - started).toBeLessThanOrEqual(limitSecs * 1000 + STOP_WITHIN_MS);
    const output = (await s.output.textContent()) ?? '';
    expect(output.split('\n').length).toBeGreaterThan(20);
    expectWithinOutputCaps(output);
  });
}

for (const [language, busy] of [
  ['TypeScript', "for (let i = 0; ; i++) {\n  console.log(i, 'z'.repeat(900));\n  await new Promise((done) => setTimeout(done, 3));\n}"],
  ['TypeScript', "console.log('spinning');\nconst junk: number[][] = [];\nfor (let i = 0; ; i++) { junk.push([i]); if (junk.length > 1e5) junk.length = 0; }"],
  ['Python', 'print("spinning")\nx = 0\nwhile True:\n    x = (x * 31 + 7) % 1_000_003\n'],
] as const) {
  test(`${language}: Stop acts within ${STOP_WITHIN_MS} ms of the click, whatever the code does (${busy.split('\n')[0].slice(0, 24)}…)`, async ({ page }) => {
    test.slow(language === 'Python'); // starts Python
    await openSnippets(page);
    await recordTimings(page);
    const s = snippet(page, language);
    await setLimit(s, 60);
    await replaceCode(s.editor, busy);
    await s.run.click();
    await expect(s.status).toHaveText('Running… (stopped after 60 s)', { timeout: PYTHON_START_MS });
    await expect(s.output).not.toHaveText('');
    await page.waitForTimeout(1_000);
    await s.stop.click();
    await expect(s.status).toHaveText('Stopped.');
    const clicked = await lastClickAt(page, 'Stop');
    expect((await statusAt(page, language, /^Stopped\.$/, clicked)) - clicked).toBeLessThanOrEqual(STOP_WITHIN_MS);
    await expect(s.run).toBeEnabled();

    await s.reset.click();
    await s.run.click();
    await expectFinishedWithLog(s, EXPECTED_LOG);
  });
}

/**
 * A browser that can be driven again after a snippet's sandbox process dies. Playwright takes
 * the death of any of a page's frames for the page's own crash and refuses to go on, though
 * the page lives; a fresh connection over the DevTools port drives the living page.
 */
async function reconnectableBrowser() {
  const profile = mkdtempSync(join(tmpdir(), 'lease-lab-heap-'));
  const context = await chromium.launchPersistentContext(profile, {
    executablePath: process.env.CHROMIUM ?? '/usr/bin/chromium',
    args: ['--no-sandbox', '--disable-gpu', '--disable-dev-shm-usage', '--no-first-run', '--remote-debugging-port=0'],
  });
  const port = readFileSync(join(profile, 'DevToolsActivePort'), 'utf8').split('\n')[0];
  const connections: Awaited<ReturnType<typeof chromium.connectOverCDP>>[] = [];
  const errors: string[] = [];
  const watch = (page: Page) => {
    page.on('console', (message) => {
      if (message.type() === 'error') errors.push(message.text());
    });
    page.on('pageerror', (error) => errors.push(`uncaught: ${error.message}`));
    return page;
  };
  return {
    errors,
    first: watch(context.pages()[0] ?? (await context.newPage())),
    /** The same living page, through a fresh connection. */
    async reconnect(): Promise<Page> {
      const browser = await chromium.connectOverCDP(`http://127.0.0.1:${port}`);
      connections.push(browser);
      return watch(browser.contexts()[0].pages().find((page) => page.url().includes('#/sandbox'))!);
    },
    async close() {
      for (const browser of connections) await browser.close();
      await context.close();
      rmSync(profile, { recursive: true, force: true });
    },
  };
}

/** Runs `code` and waits until the sandbox died (Playwright's "crash") or the run ended. */
async function runUntilSandboxDies(page: Page, language: Language, code: string) {
  const s = snippet(page, language);
  await setLimit(s, 60);
  await replaceCode(s.editor, code);
  const died = new Promise<'died'>((resolve) => page.once('crash', () => resolve('died')));
  await s.run.click();
  const ended = expect(s.status)
    .toHaveText(/^(Stopped|The snippet)/, { timeout: 90_000 })
    .then(() => 'ended' as const);
  return Promise.race([died, ended]).catch(() => 'died' as const);
}

test('a heap bomb: the learner is told, the sandbox is replaced, and the next Run in each language works', async ({ server }) => {
  test.setTimeout(420_000);
  const lab = await reconnectableBrowser();
  try {
    let page = lab.first;
    await page.goto(`${server.url}/#/sandbox`);
    await expect(page.locator('.snippet .cm-content')).toHaveCount(2);
    const bomb = 'const a = [];\nfor (;;) a.push(new Array(1e6).fill(1.5));\n';
    if ((await runUntilSandboxDies(page, 'TypeScript', bomb)) === 'died') page = await lab.reconnect();
    let typescript = snippet(page, 'TypeScript');
    await expect(typescript.status).toHaveText(OUT_OF_MEMORY, { timeout: 30_000 });

    // Python's engine fails on its own memory cap (a MemoryError), or takes its sandbox along.
    const pythonBomb = 'grow = []\nwhile True:\n    grow.append([1.5] * 10**6)\n';
    if ((await runUntilSandboxDies(page, 'Python', pythonBomb)) === 'died') page = await lab.reconnect();
    const python = snippet(page, 'Python');
    await expect(python.status).toHaveText(/^(Stopped by an error on line 3\.|The snippet ran out of memory)/, {
      timeout: 30_000,
    });
    if ((await python.status.textContent())!.startsWith('Stopped')) await expect(python.errors).toContainText('MemoryError');

    typescript = snippet(page, 'TypeScript');
    for (const [s, code] of [
      [typescript, 'console.log("after the bomb", 6 * 7);\n'],
      [python, 'print("after the bomb", 6 * 7)\n'],
    ] as const) {
      await replaceCode(s.editor, code);
      await s.run.click();
      await expect(s.status).toHaveText(/^Finished in \d+ ms\.$/, { timeout: PYTHON_START_MS });
      await expect(s.output).toHaveText('after the bomb 42\n', { useInnerText: true });
    }
    expect(lab.errors, 'console errors').toEqual([]);
  } finally {
    await lab.close();
  }
});

test('the snippet panels pass axe before and after a run, and look right', async ({ page, checkA11y, shot }) => {
  test.slow(); // starts Python
  await openSnippets(page);
  await checkA11y(page, '.snippets');
  const typescript = snippet(page, 'TypeScript');
  await typescript.run.click();
  await expectFinishedWithLog(typescript, EXPECTED_LOG);
  const python = snippet(page, 'Python');
  await replaceCode(python.editor, 'print("to stdout")\nraise RuntimeError("renew failed")\n');
  await python.run.click();
  await expect(python.status).toHaveText('Stopped by an error on line 2.', { timeout: PYTHON_START_MS });
  await checkA11y(page, '.snippets');
  await shot(page, 'snippets-after-run');
});
