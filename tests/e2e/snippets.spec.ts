// The runnable lost-flag snippets: they run, report errors with lines, stop on time, and
// cannot reach the network or the page from their sandbox.
import { createHash } from 'node:crypto';
import { readFileSync } from 'node:fs';
import type { Locator, Page } from '@playwright/test';
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
    const s = snippet(page, language);
    await s.limit.fill('2');
    await s.limit.press('Enter');
    await replaceCode(s.editor, loop);
    await s.run.click();
    await expect(s.status).toHaveText('Running… (stopped after 2 s)', { timeout: PYTHON_START_MS });
    const started = Date.now();
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
    expect(Date.now() - started).toBeLessThan(4_000);

    await s.reset.click();
    await s.run.click();
    await expectFinishedWithLog(s, EXPECTED_LOG);
  });
}

for (const [language, flood] of [
  ['Python', 'while True:\n    print("flooding the console")\n'],
  ['TypeScript', 'for (;;) console.log("flooding the console");\n'],
] as const) {
  test(`${language}: a print loop is cut off and stopped, and the page keeps up`, async ({ page }) => {
    test.slow(language === 'Python'); // starts Python
    await openSnippets(page);
    const s = snippet(page, language);
    await s.limit.fill('2');
    await s.limit.press('Enter');
    await replaceCode(s.editor, flood);
    await s.run.click();
    await expect(s.status).toHaveText('Running… (stopped after 2 s)', { timeout: PYTHON_START_MS });
    const other = snippet(page, language === 'Python' ? 'TypeScript' : 'Python');
    await other.limit.fill('9');
    await other.limit.press('Tab');
    await expect(other.limit).toHaveValue('9');
    await expect(s.status).toHaveText('Stopped: the time limit of 2 s ran out.', { timeout: 5_000 });
    const output = (await s.output.textContent()) ?? '';
    expect(output.length).toBeLessThanOrEqual(100_100);
    expect(output).toMatch(/^flooding the console\n/);
    expect(output).toContain('[output cut: too much]');
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
