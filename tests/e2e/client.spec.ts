// "Your client" (issue 21): the learner's own lease client, in Python and in TypeScript, run
// in the snippet sandbox as every client of the lab's scenario and judged by the page's own
// checkers. Each test drives the page by role and visible text, in both languages: the
// starter breaks the lesson's check where the lesson says it does, the reference ends as the
// built-in client on every preset, the search finds the starter's flaw and none in the
// reference, a link brings the code back and runs it only on a click, bad code ends with a
// plain sentence and the next run works, and the code cannot leave its sandbox.
import { createHash } from 'node:crypto';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { chromium, type Locator, type Page } from '@playwright/test';
import { test, expect, openApp } from './fixtures';
import { BOOTSTRAP, BOOTSTRAP_HASH, SANDBOX_POLICY } from '../../www/snippets/sandbox/runner.js';

// One after another in one worker: parallel Python start-ups starve each other's timing.
test.describe.configure({ mode: 'default' });

type Language = 'Python' | 'TypeScript';
const LANGUAGES: Language[] = ['TypeScript', 'Python'];

const REFERENCE: Record<Language, string> = {
  Python: readFileSync(new URL('../../www/snippets/client/reference.py', import.meta.url), 'utf8'),
  TypeScript: readFileSync(new URL('../../www/snippets/client/reference.ts', import.meta.url), 'utf8'),
};

// Python's first start in a fresh page takes seconds, far more on a busy 2-core machine.
const FIRST_RUN_MS = 120_000;
const RAN = /^Ran in the lab in \d+ ms: the result is below, checked by the lab's own checkers\.$/;
// A run the learner's code (or the lab, refusing what it asked) ended before the scenario did.
const RAN_STOPPED = /^Ran in the lab in \d+ ms, but the run stopped early: see why below\.$/;
const NOT_RUN = 'Not run yet: nothing runs until you press Run in the lab.';
const TRACE = /^Trace hash ([0-9a-f]{16}) · (\d+) (events?) · ends at \d+(\.\d+)? m?s$/;
// Engine files: none may be fetched before the learner's first click.
const ENGINE_PATH = /\/vendor\/(pyodide\/|sucrase)|\/sandbox\/|client_worker/;

const NO_WRITE_AFTER_LOST = 'No write is issued after the lost flag is set';
const SINGLE_HOLDER = 'The lock service never has two unexpired holders';
const ALL_CHECKS = [
  SINGLE_HOLDER,
  'With fencing on, storage accepts no stale token',
  NO_WRITE_AFTER_LOST,
  'Accepted writes are ordered by fencing token',
];

// Every preset of the lab's Scenario picker (src/model/presets.rs).
const PRESETS = [
  '1', '2', '2-unfenced', '3', '3-trust-flag', '3-trust-flag-unfenced', '4', '5a', '5b', '6',
  '6-wall-timers', '6-write-until-wall-ttl', '7', '7-monotonic', '8', '8-unfenced', '9',
];

// Where "Show a solution" is compared with the built-in client in the page. A Python run
// starts a fresh interpreter, so Python covers a few presets here; the Node layer
// (tests/sandbox/solutions.test.mjs) shows its report byte-equal to TypeScript's on every
// preset, through the same wasm.
const SOLUTION_PRESETS: Record<Language, string[]> = {
  TypeScript: PRESETS,
  Python: ['2', '6', '8-unfenced'],
};

/** The workbench of one language, found the way a person would. */
function workbench(page: Page, language: Language) {
  const panel = page.getByRole('region', { name: `Your client in ${language}`, exact: true });
  const run = panel.locator('.own-client-run').first();
  return {
    panel,
    editor: panel.getByRole('textbox', { name: `Your client's ${language} code` }),
    run: panel.getByRole('button', { name: 'Run in the lab', exact: true }),
    stop: panel.getByRole('button', { name: 'Stop', exact: true }),
    reset: panel.getByRole('button', { name: 'Reset', exact: true }),
    solution: panel.getByRole('button', { name: 'Show a solution', exact: true }),
    limit: panel.getByRole('spinbutton', { name: 'Time limit (s)' }),
    status: panel.locator('.snippet-status'),
    errors: panel.getByRole('region', { name: /Errors$/ }),
    runView: run,
    runHeading: panel.getByRole('heading', { name: "Your client's run" }),
    alert: run.getByRole('alert'),
    trace: run.getByText(TRACE),
    cursor: run.getByRole('slider', { name: 'Cursor (ms)' }),
    checks: run.getByRole('region', { name: 'Checks' }),
    printed: run.getByRole('region', { name: 'Printed by your code' }),
    log: run.getByRole('log', { name: 'Event log' }),
    search: panel.getByRole('region', { name: 'Attack your client' }),
  };
}
type Workbench = ReturnType<typeof workbench>;

const check = (w: Workbench, title: string) => w.checks.getByRole('listitem').filter({ hasText: title });

/** Opens the lab at `fragment`, switches it to "Your client" in `language`. */
async function openClient(page: Page, language: Language, fragment = '#/sandbox'): Promise<Workbench> {
  await openApp(page, fragment);
  await switchToClient(page, language);
  return workbench(page, language);
}

async function switchToClient(page: Page, language: Language) {
  const modes = page.getByRole('group', { name: 'Run', exact: true });
  await modes.getByRole('button', { name: 'Your client', exact: true }).click();
  await expect(modes.getByRole('button', { name: 'Your client', exact: true })).toHaveAttribute('aria-pressed', 'true');
  await expect(page.getByRole('heading', { name: 'Your client', exact: true })).toBeVisible();
  const languages = page.getByRole('group', { name: 'Language of your client' });
  await languages.getByRole('button', { name: language, exact: true }).click();
  await expect(languages.getByRole('button', { name: language, exact: true })).toHaveAttribute('aria-pressed', 'true');
  // The code editor (CodeMirror) has replaced the plain textarea.
  await expect(workbench(page, language).panel.locator('.cm-content')).toHaveCount(1);
}

/** Picks a preset in the simulated lab, as sandbox.spec.ts does, then opens "Your client". */
async function loadPreset(page: Page, language: Language, id: string): Promise<Workbench> {
  const modes = page.getByRole('group', { name: 'Run', exact: true });
  await modes.getByRole('button', { name: 'Simulated', exact: true }).click();
  await page.getByLabel('Scenario').selectOption(id);
  await expect(page.getByLabel('Scenario')).toHaveValue(id);
  await switchToClient(page, language);
  return workbench(page, language);
}

/** Replaces the editor's whole text, as pasting would. */
async function replaceCode(editor: Locator, code: string) {
  await editor.click();
  await editor.press('ControlOrMeta+a');
  await editor.page().keyboard.insertText(code);
}

async function setLimit(w: Workbench, secs: number) {
  await w.limit.fill(String(secs));
  await w.limit.press('Enter');
  await expect(w.limit).toHaveValue(String(secs));
}

/** Presses Run in the lab and waits for the run to come back; returns its trace hash. */
async function runInLab(w: Workbench, ran = RAN): Promise<string> {
  await w.run.click();
  await expect(w.status).toHaveText(ran, { timeout: FIRST_RUN_MS });
  await expect(w.runHeading).toBeVisible();
  const [, hash, events, word] = (await w.trace.innerText()).match(TRACE)!;
  expect(word, `${events} ${word}`).toBe(Number(events) === 1 ? 'event' : 'events');
  return hash;
}

/** The check's "Broken at t = X s" time, in ms. */
async function brokenAtMs(item: Locator): Promise<number> {
  const text = await item.locator('.check-status').innerText();
  const at = text.match(/^Broken at t = (\d+\.\d+) s/);
  expect(at, text).not.toBeNull();
  return Math.round(Number(at![1]) * 1000);
}

/** Every line of "Printed by your code", without its time and client. */
async function printedLines(w: Workbench): Promise<string[]> {
  const text = await w.printed.locator('pre').innerText();
  return text.split('\n').filter((line) => line !== '');
}

// ------------------------------------------------------------------------------- the lesson

for (const language of LANGUAGES) {
  test.describe(language, () => {
    test(`${language}: the starter breaks "no write after the lost flag" on the NTP step and the write-path pause, with a working "Go to"`, async ({ page, checkA11y, shot }) => {
      test.setTimeout(240_000);
      let w = await openClient(page, language);
      await expect(w.editor).toContainText(language === 'Python' ? 'def start(node):' : 'function start(node: any) {');
      await expect(w.status).toHaveText(NOT_RUN);
      for (const preset of ['6', '2']) {
        w = await loadPreset(page, language, preset);
        await runInLab(w);
        const broken = check(w, NO_WRITE_AFTER_LOST);
        await expect(broken.locator('.check-status')).toHaveText(/^Broken at t = \d+\.\d+ s/);
        // Judged by what the client itself could know: its own monotonic clock had passed
        // any safe deadline (more than T since the send of the renewal that last succeeded).
        await expect(broken).toContainText(
          /issued a write with token \d+ although its own monotonic clock already showed more than T = \d+(\.\d+)? m?s since it sent, at \d+(\.\d+)? m?s, the acquire or renewal that last succeeded: its safe deadline had passed/,
        );
        const at = await brokenAtMs(broken);
        // The cursor starts at the end; "Go to" brings it to the moment the check broke.
        expect(Number(await w.cursor.inputValue())).toBeGreaterThan(at);
        await broken.getByRole('button', { name: /^Go to t = / }).click();
        await expect.poll(async () => Math.abs(Number(await w.cursor.inputValue()) - at)).toBeLessThanOrEqual(1);
        await expect(broken.locator('.check-status')).toHaveText(/^Broken at/);
        // The built-in Prefer client keeps every check in the same scenario.
        await w.panel.getByRole('button', { name: 'Compare with the built-in client' }).click();
        const side = w.panel.getByRole('region', { name: 'Your client and the built-in client, side by side' });
        await expect(side.getByRole('status')).toHaveText(
          new RegExp(`^Your client: .*; broken: .*${NO_WRITE_AFTER_LOST}.*\\. The built-in client: .*; every check holds\\.$`),
        );
        if (preset === '2') {
          await checkA11y(page, '.own-client');
          await shot(page, `client-${language.toLowerCase()}-starter-preset-2`);
        }
      }
    });

    if (language === 'TypeScript') {
      test('TypeScript: on preset 7 the solution is not blamed for the lease the lock service ended early, and ends as the built-in client does', async ({ page }) => {
        test.setTimeout(240_000);
        await openApp(page, '#/sandbox');
        const w = await loadPreset(page, language, '7');
        await w.solution.click();
        await expect(w.solution).toBeDisabled();
        await runInLab(w);
        await expect(w.alert).toHaveCount(0);
        // The service's clock jumped and it ended A's lease early: no client can see that,
        // so the lost flag's check holds (the fence rejects the writes that follow). What
        // breaks is the service's own promise, for the built-in client too.
        await expect(check(w, NO_WRITE_AFTER_LOST).locator('.check-status')).toHaveText('Holding');
        await expect(check(w, SINGLE_HOLDER).locator('.check-status')).toHaveText(/^Broken at/);
        await w.panel.getByRole('button', { name: 'Compare with the built-in client' }).click();
        const outcome = w.panel
          .getByRole('region', { name: 'Your client and the built-in client, side by side' })
          .getByRole('status');
        await expect(outcome).toHaveText(new RegExp(`^Both end the same way: .*; broken: ${SINGLE_HOLDER}\\.$`));
        await expect(outcome).not.toContainText(NO_WRITE_AFTER_LOST);
      });
    }

    test(`${language}: the reference of calls names every call and setting the runtime gives a node`, async ({ page, checkA11y }) => {
      test.setTimeout(180_000);
      const w = await openClient(page, language);
      // The runtime's own names, printed by a client: a call it gains and the reference
      // lacks fails here.
      const probe = language === 'Python'
        ? 'def start(node):\n    print(" ".join(n for n in dir(node) if not n.startswith("_")))\n    print(" ".join(type(node.settings).__slots__))\n'
        : 'function start(node: any) {\n  console.log(Object.keys(node).join(" "));\n  console.log(Object.keys(node.settings).join(" "));\n}\n';
      await replaceCode(w.editor, probe);
      await runInLab(w);
      const [calls, settings] = (await printedLines(w)).slice(0, 2).map((line) => line.replace(/^\S+ m?s A: /, '').split(' '));
      expect(calls).toContain('acquire');
      expect(settings).toContain('ttl');

      const reference = w.panel.getByRole('group').filter({ has: page.getByText('The calls your client can make', { exact: true }) });
      await reference.getByText('The calls your client can make', { exact: true }).click();
      const named = (await reference.getByRole('rowheader').allInnerTexts()).join(' ');
      for (const call of calls.filter((name) => name !== 'settings' && name !== 'name')) {
        expect(named, `node.${call}`).toMatch(new RegExp(`\\bnode\\.${call}\\(`));
      }
      expect(named).toContain('node.name');
      const settingsRow = await reference.getByRole('row', { name: /^node\.settings: / }).innerText();
      for (const setting of settings) expect(settingsRow, setting).toMatch(new RegExp(`\\b${setting}\\b`));
      // The other language's spelling is not shown.
      expect(named).not.toContain(language === 'Python' ? 'atWall' : 'at_wall');
      await checkA11y(page, '.client-reference');
    });

    test(`${language}: "Show a solution" ends ${SOLUTION_PRESETS[language] === PRESETS ? 'every preset' : 'a write-path pause, an NTP step and a late write'} as the built-in client does`, async ({ page }) => {
      test.setTimeout(600_000);
      await openApp(page, '#/sandbox');
      const seen: string[] = [];
      const presets = SOLUTION_PRESETS[language];
      for (const preset of presets) {
        const w = await loadPreset(page, language, preset);
        if (preset === presets[0]) {
          await w.solution.click();
          await expect(w.solution).toBeDisabled();
        }
        // The solution stays in the editor from one preset to the next.
        await expect(w.solution).toBeDisabled();
        await runInLab(w);
        await expect(w.alert).toHaveCount(0);
        await w.panel.getByRole('button', { name: 'Compare with the built-in client' }).click();
        const outcome = w.panel
          .getByRole('region', { name: 'Your client and the built-in client, side by side' })
          .getByRole('status');
        await expect(outcome).toHaveText(/^(Both end the same way|Your client): /);
        seen.push(`${preset}: ${await outcome.innerText()}`);
      }
      // All at once, so one disagreement does not hide the others.
      expect(seen.filter((line) => !/^\S+: Both end the same way: /.test(line))).toEqual([]);
    });

    test(`${language}: the search breaks the starter within two faults, and finds nothing against the solution with fencing on`, async ({ page }) => {
      test.setTimeout(300_000);
      const w = await openClient(page, language);
      const start = w.search.getByRole('button', { name: 'Start', exact: true });
      // The time limit covers the whole search: 2,000 plans need more than the default 5 s.
      await setLimit(w, 60);
      // The defaults: pauses, write-path pauses and clock steps, 2 faults, 2,000 plans, seed 1.
      await expect(w.search.getByLabel('Plans to try')).toHaveValue('2000');
      await start.click();
      const found = w.panel.getByText(/^Counterexample: plan \d+ of seed 1 broke a check\. Faults in the plan: \d+ as found, \d+ after shrinking\.$/);
      await expect(found).toBeVisible({ timeout: FIRST_RUN_MS });
      const shrunk = Number((await found.innerText()).match(/(\d+) after shrinking/)![1]);
      expect(shrunk).toBeGreaterThanOrEqual(1);
      expect(shrunk).toBeLessThanOrEqual(2);
      await expect(w.panel.getByRole('button', { name: 'Load this plan into the lab' })).toBeVisible();
      // The plan's run, re-checked on the page, breaks a check.
      await expect(w.checks.locator('.check-status').filter({ hasText: /^Broken at/ }).first()).toBeVisible();

      await w.solution.click();
      await expect(page.getByRole('checkbox', { name: 'Fencing at storage' })).toBeChecked();
      await start.click();
      await expect(w.search.getByText(/^\d+ of 2000 plans tried…$/)).toBeVisible({ timeout: FIRST_RUN_MS });
      await expect(w.panel.getByText('No counterexample in 2000 plans (seed 1).')).toBeVisible({ timeout: 180_000 });
    });

    test(`${language}: an edited client from a copied link, in a fresh page, runs only on a click and gives the same trace hash`, async ({ page, context, server }) => {
      test.setTimeout(300_000);
      // Other numbers than any preset: a 6 s TTL and three clients.
      const w = await openClient(page, language, '#/sandbox?v=1&ttl=6s&clients=3');
      const marker = language === 'Python' ? '# edited: a link test' : '// edited: a link test';
      const edited = `${marker}\n${REFERENCE[language]}`;
      await replaceCode(w.editor, edited);
      const hash = await runInLab(w);
      await expect(w.runView.getByText(/Client C/).first()).toBeVisible();
      await w.runView.getByRole('button', { name: 'Copy a link to your client and this scenario' }).click();
      const link = await w.runView.getByRole('textbox', { name: 'Link to your client and this scenario' }).inputValue();
      expect(link).toContain(language === 'Python' ? 'client=python' : 'client=typescript');
      expect(link).toMatch(language === 'Python' ? /[?&]pyz?=/ : /[?&]tsz?=/);
      expect(link).toContain('ttl=6s');
      // Written here, the code is the learner's own, in this page and after leaving the mode
      // and coming back (the address carries it, but no link brought it).
      const fromLink = (p: Page) => workbench(p, language).panel.getByText(/This code came with the link you opened/);
      await expect(fromLink(page)).toHaveCount(0);
      await page.getByRole('group', { name: 'Run', exact: true }).getByRole('button', { name: 'Simulated', exact: true }).click();
      await switchToClient(page, language);
      await expect(w.editor).toContainText(marker.slice(2).trim());
      await expect(fromLink(page)).toHaveCount(0);

      const earlier = server.requests.length;
      const fresh = await context.newPage();
      await fresh.goto(link);
      await expect(fresh.getByRole('tablist', { name: 'Lesson sections' })).toBeVisible();
      const again = workbench(fresh, language);
      await expect(fresh.getByRole('group', { name: 'Run', exact: true }).getByRole('button', { name: 'Your client', exact: true })).toHaveAttribute('aria-pressed', 'true');
      await expect(again.editor).toContainText(marker.slice(2).trim());
      await expect(fromLink(fresh)).toBeVisible();
      await expect(again.status).toHaveText(NOT_RUN);
      await fresh.waitForTimeout(500);
      expect(server.requests.slice(earlier).filter((path) => ENGINE_PATH.test(path))).toEqual([]);
      await expect(again.runHeading).toHaveCount(0);
      expect(await runInLab(again)).toBe(hash);
      await fresh.close();
    });

    test(`${language}: an endless loop, an exception and a million writes each end with a plain sentence, and the next run works`, async ({ page }) => {
      test.setTimeout(300_000);
      const w = await openClient(page, language);
      const py = language === 'Python';
      await setLimit(w, 3);

      // An endless loop inside a handler: stopped at the time limit.
      await replaceCode(
        w.editor,
        py
          ? 'def start(node):\n    node.after(1000, "work")\n\ndef timer(node, name):\n    while True: pass\n'
          : 'function start(node: any) {\n  node.after(1000, "work");\n}\nfunction timer(node: any, name: string) {\n  for (;;) {}\n}\n',
      );
      await w.run.click();
      await expect(w.status).toHaveText('Running… (stopped after 3 s)', { timeout: FIRST_RUN_MS });
      await expect(w.status).toHaveText(
        'Stopped: your code ran past the time limit of 3 s (an endless loop?). The next run starts fresh.',
        { timeout: 10_000 },
      );
      await expect(w.runHeading).toHaveCount(0);
      await w.solution.click();
      await runInLab(w);
      await expect(w.alert).toHaveCount(0);

      // An exception: the sentence names the client, the handler, the time and the line.
      await replaceCode(
        w.editor,
        py
          ? 'def start(node):\n    node.after(1000, "work")\n\ndef timer(node, name):\n    raise RuntimeError("boom")\n'
          : 'function start(node: any) {\n  node.after(1000, "work");\n}\nfunction timer(node: any, name: string) {\n  throw new Error("boom");\n}\n',
      );
      await runInLab(w, RAN_STOPPED);
      await expect(w.alert).toHaveText(/^Client A threw while handling timer\(node, "work"\) at 1\.000 s, on line 5: [\s\S]*boom/);

      // A million writes in one call: refused after the first thousand.
      await replaceCode(
        w.editor,
        py
          ? 'def start(node):\n    node.acquire(node.settings.ttl)\n\ndef reply(node, answer):\n    if answer.kind == "granted":\n        for i in range(1000000): node.write(answer.token)\n\ndef timer(node, name):\n    pass\n'
          : 'function start(node: any) {\n  node.acquire(node.settings.ttl);\n}\nfunction reply(node: any, answer: any) {\n  if (answer.kind === "granted") {\n    for (let i = 0; i < 1000000; i++) node.write(answer.token);\n  }\n}\nfunction timer(node: any, name: string) {}\n',
      );
      await runInLab(w, RAN_STOPPED);
      await expect(w.alert).toHaveText(
        /^(While handling reply\(node, answer\) for a granted answer at \d+(\.\d+)? m?s, client A asked for more than 1000 actions in one call, so the lab stopped the run|Client A threw while handling reply\(node, answer\) for a granted answer at \d+(\.\d+)? m?s(, on line \d+)?: [\s\S]*more than 1,000 actions)/,
      );

      // After all that, the solution runs as if nothing happened.
      await w.solution.click();
      await runInLab(w);
      await expect(w.alert).toHaveCount(0);
      await expect(check(w, NO_WRITE_AFTER_LOST).locator('.check-status')).toHaveText('Holding');
    });

    test(`${language}: the language's wall clock is the node's, so the NTP step moves it and the starter's renew goes out late`, async ({ page }) => {
      test.setTimeout(240_000);
      await openApp(page, '#/sandbox');
      // Preset 6: A's wall clock steps back 8 s at t = 5 s, T = 10 s.
      let w = await loadPreset(page, language, '6');
      await replaceCode(
        w.editor,
        language === 'Python'
          ? [
              'import time',
              'def start(node):',
              '    node.after(1000, "tick")',
              'def timer(node, name):',
              '    if node.name == "A":',
              '        print(f"wall-mono {round(time.time() * 1000 - time.monotonic() * 1000)}")',
              '    if node.monotonic() < 9000:',
              '        node.after(1000, "tick")',
              '',
            ].join('\n')
          : [
              'function start(node: any) {',
              '  node.after(1000, "tick");',
              '}',
              'function timer(node: any, name: string) {',
              '  if (node.name === "A") console.log(`wall-mono ${Math.round(Date.now() - performance.now())}`);',
              '  if (node.monotonic() < 9000) node.after(1000, "tick");',
              '}',
              '',
            ].join('\n'),
      );
      await runInLab(w);
      const lines = await printedLines(w);
      const offsets = lines.map((line) => {
        const m = line.match(/^(\d+\.\d{3}) s A: wall-mono (-?\d+)$/);
        expect(m, line).not.toBeNull();
        return { at: Number(m![1]), offset: Number(m![2]) };
      });
      const before = offsets.filter((o) => o.at < 5);
      const after = offsets.filter((o) => o.at > 5);
      expect(before.length).toBeGreaterThanOrEqual(3);
      expect(after.length).toBeGreaterThanOrEqual(3);
      for (const o of after) expect(Math.abs(o.offset - before[0].offset + 8000)).toBeLessThanOrEqual(2);
      for (const o of before) expect(Math.abs(o.offset - before[0].offset)).toBeLessThanOrEqual(2);

      // The starter schedules its renewals on that clock: after the renew at 3.333 s, the
      // next leaves 8 s late, at about 14.67 s, where the solution's leaves at 6.67 s.
      const renewTimes = async () => {
        const text = await w.log.innerText();
        return [...text.matchAll(/(\d+\.\d{3}) s client A: sends renew \(token \d+\)/g)].map((m) => Number(m[1]));
      };
      await w.reset.click();
      await runInLab(w);
      await w.runView.locator('summary').filter({ hasText: /^Event log/ }).click();
      await w.cursor.fill('14000');
      const starterEarly = await renewTimes();
      expect(starterEarly.filter((t) => t > 4 && t < 14)).toEqual([]);
      await w.cursor.fill('16000');
      const starterLate = await renewTimes();
      expect(starterLate.filter((t) => t > 14.4 && t < 15)).toHaveLength(1);

      await w.solution.click();
      await runInLab(w);
      await w.runView.locator('summary').filter({ hasText: /^Event log/ }).click();
      await w.cursor.fill('8000');
      expect((await renewTimes()).filter((t) => t > 6.5 && t < 6.8)).toHaveLength(1);
    });
  });
}

// The browser's other ways to the real time: Temporal.Now (in Chromium since 144), the worker's
// timeOrigin (which performance.now() is added to) and a date format given no date. Each reads
// the node's clocks, so the printed lines are exact: A's wall clock starts at 1,000,000 s.
test('TypeScript: Temporal.Now, performance.timeOrigin and a date format without a date read the node\'s clocks', async ({ page }) => {
  test.setTimeout(120_000);
  const w = await openClient(page, 'TypeScript');
  await replaceCode(w.editor, readFileSync(new URL('../sandbox/clients/clocks.ts', import.meta.url), 'utf8'));
  await runInLab(w);
  await expect(w.alert).toHaveCount(0);
  expect(await printedLines(w)).toEqual([
    '0 ms A: 1000000000 1970-01-12T13:46:40 0 13:46:40',
    '100 ms B: 1000000100 1970-01-12T13:46:40.1 100 13:46:40',
  ]);
});

// os._exit ends the interpreter itself: the run still comes back and says so in a sentence
// (it read "gave back something the lab cannot read"), and the next run, in a fresh worker, works.
test('Python: os._exit ends the run with a plain sentence, and the next run works', async ({ page }) => {
  test.setTimeout(FIRST_RUN_MS + 60_000);
  const w = await openClient(page, 'Python');
  await replaceCode(w.editor, 'import os\n\ndef start(node):\n    os._exit(3)\n');
  await runInLab(w, RAN_STOPPED);
  await expect(w.alert).toHaveText(/^Client A threw while handling start\(node\) at 0 ms[^:]*: Python itself stopped while running your code \(\w+: Program terminated with exit\(3\)\), so no client can go on\./);
  await w.solution.click();
  await runInLab(w);
  await expect(w.alert).toHaveCount(0);
});

// The console right under Run tells the run's own story: what the code printed and why it
// stopped (it read "Nothing printed." and "No errors." beside a run that threw or printed
// 5,000 lines), and a traceback keeps its lines, as text.
for (const language of LANGUAGES) {
  test(`${language}: the Printed and Errors consoles under Run show what the run printed and why it stopped`, async ({ page }) => {
    test.setTimeout(FIRST_RUN_MS + 120_000);
    await openApp(page, '#/sandbox');
    const w = await loadPreset(page, language, '6');
    const printed = w.panel.getByRole('region', { name: /Printed$/ });
    const py = language === 'Python';
    await replaceCode(
      w.editor,
      py
        ? 'def start(node): node.acquire(node.settings.ttl)\ndef reply(node, a): print("about to handle", a.kind); helper(a)\ndef helper(a): raise ValueError("boom from reply: " + a.kind)\ndef timer(node, name): pass\n'
        : 'function start(node: any) { node.acquire(node.settings.ttl); }\nfunction reply(node: any, a: any) { console.log("about to handle", a.kind); helper(a); }\nfunction helper(a: any) { throw new Error("boom from reply: " + a.kind); }\nfunction timer(node: any, name: string) {}\n',
    );
    await runInLab(w, RAN_STOPPED);
    const threw = /^Client A threw while handling reply\(node, answer\) for a granted answer at [\s\S]*boom from reply: granted/;
    await expect(w.alert).toHaveText(threw);
    await expect(w.errors).toHaveText(threw);
    // The stack's own lines, in the run's message and under Errors alike.
    for (const where of [w.alert, w.errors]) {
      const lines = (await where.innerText()).split('\n');
      expect(lines.length, lines.join('\n')).toBeGreaterThan(2);
      expect(lines.some((l) => /helper/.test(l) && !/^Client A/.test(l)), lines.join('\n')).toBe(true);
    }
    // The line printed just before the throw is kept: it is the one that explains it.
    await expect(printed).toHaveText(/^\d+ ms A: about to handle granted\n?$/);

    await replaceCode(
      w.editor,
      py
        ? 'def start(node):\n    for i in range(5000): print("line", i)\ndef reply(node, a): pass\ndef timer(node, name): pass\n'
        : 'function start(node: any) { for (let i = 0; i < 5000; i++) console.log("line", i); }\nfunction reply(node: any, a: any) {}\nfunction timer(node: any, name: string) {}\n',
    );
    await runInLab(w);
    await expect(w.alert).toHaveCount(0);
    await expect(w.errors).toHaveText('');
    expect(await w.errors.evaluate((e) => getComputedStyle(e, '::before').content)).toBe('"No errors."');
    const shown = (await printed.innerText()).split('\n').filter((l) => l !== '');
    expect(shown[0]).toBe('0 ms A: line 0');
    expect(shown.length).toBeGreaterThan(500);
    expect(shown).toEqual(await w.printed.locator('pre').innerText().then((t) => t.split('\n').filter((l) => l !== '')));
  });
}

// The runner and the sandbox's worker say why a run cannot go on as a reason; the page words
// it (content/sandbox.toml) under Errors, with the error's own text.
test.describe('when the engine does not come', () => {
  // The unfetchable engine's answer is logged by the browser itself.
  test.use({ allowedConsoleErrors: [[/Failed to load resource: the server responded with a status of 503/], { scope: 'test' }] });
  for (const [why, answer, said] of [
    ['engine arrives as bytes that are no WebAssembly', { status: 200, contentType: 'application/wasm', body: 'not wasm' }, /^The engine did not load: \S.*/],
    ['engine cannot be fetched', { status: 503, body: '' }, /^The sandbox could not start: \S*client_worker_bg\.wasm: HTTP 503/],
  ] as const) {
    test(`TypeScript: a run whose ${why} ends with the page's own sentence under Errors`, async ({ page }) => {
      const w = await openClient(page, 'TypeScript');
      await page.route('**/client_worker_bg.wasm', (route) => route.fulfill(answer));
      await w.run.click();
      await expect(w.status).toHaveText('TypeScript stopped with an error: see Errors below.', { timeout: FIRST_RUN_MS });
      await expect(w.errors).toHaveText(said);
      await expect(w.runHeading).toHaveCount(0);
    });
  }
});

// ------------------------------------------- the sandbox (ported from the snippets' tests)

test('the sandbox bootstrap hash in the policy matches the bootstrap', () => {
  const hash = createHash('sha256').update(BOOTSTRAP).digest('base64');
  expect(BOOTSTRAP_HASH).toBe(`sha256-${hash}`);
  expect(SANDBOX_POLICY).toContain("connect-src 'none'");
  expect(SANDBOX_POLICY).toContain("default-src 'none'");
});

test('no engine file is requested before the first Run in the lab, and TypeScript never fetches Python', async ({ page, server }) => {
  // The server lives as long as the Playwright worker, so only this test's requests count.
  const earlier = server.requests.length;
  const requestsNow = () => server.requests.slice(earlier);
  await openApp(page);
  expect(requestsNow().filter((path) => path.includes('/vendor/'))).toEqual([]);
  await page.getByRole('tab', { name: 'Sandbox' }).click();
  await switchToClient(page, 'Python');
  await switchToClient(page, 'TypeScript');
  const w = workbench(page, 'TypeScript');
  await expect(w.status).toHaveText(NOT_RUN);
  expect(requestsNow()).toContain('/vendor/editor.js');
  expect(requestsNow().filter((path) => ENGINE_PATH.test(path))).toEqual([]);

  await runInLab(w);
  const requested = requestsNow().filter((path) => ENGINE_PATH.test(path));
  expect(requested).toContain('/vendor/sucrase.js');
  expect(requested.some((path) => path.includes('client_worker'))).toBe(true);
  expect(requested.filter((path) => path.includes('pyodide'))).toEqual([]);
});

/** Probes written inside start(node), each printing "<name>: blocked" or "<name>: REACHED". */
function probes(language: Language, target: string): { code: string; names: string[] } {
  const ws = target.replace(/^http/, 'ws');
  if (language === 'TypeScript') {
    const attempts: [string, string][] = [
      ['fetch', `fetch("${target}/fetch")`],
      ['XMLHttpRequest', `{ const r = new XMLHttpRequest(); r.open("GET", "${target}/xhr", false); r.send(); }`],
      ['importScripts', `(self as any).importScripts("${target}/import-scripts.js")`],
      ['parent.document', '(self as any).parent.document.title'],
      ['localStorage', '(self as any).localStorage.getItem("lease-lab")'],
      ['indexedDB', '(self as any).indexedDB.open("lease-lab")'],
      ['document.cookie', '(self as any).document.cookie'],
      ['eval', 'eval("1 + 1")'],
      ['new Function', 'new Function("return 1")()'],
    ];
    return {
      names: attempts.map(([name]) => name),
      code: [
        'function probe(name: string, attempt: () => unknown) {',
        '  try { attempt(); console.log(`${name}: REACHED`); }',
        '  catch { console.log(`${name}: blocked`); }',
        '}',
        'function start(node: any) {',
        '  if (node.name !== "A") return;',
        ...attempts.map(([name, body]) => `  probe(${JSON.stringify(name)}, () => ${body});`),
        // Asynchronous ones: whatever they print, the server must never see them.
        `  import("${target}/import.js").catch(() => {});`,
        `  try { new WebSocket("${ws}/ws"); } catch {}`,
        '}',
        'function reply(node: any, answer: any) {}',
        'function timer(node: any, name: string) {}',
        '',
      ].join('\n'),
    };
  }
  const attempts: [string, string][] = [
    ['fetch', `__import__("js").fetch("${target}/py-fetch")`],
    ['XMLHttpRequest', `xhr("${target}/py-xhr")`],
    ['urllib', `__import__("urllib.request").request.urlopen("${target}/urllib")`],
    ['importScripts', `__import__("js").importScripts("${target}/py-import-scripts.js")`],
    ['parent.document', '__import__("js").parent.document.title'],
    ['localStorage', '__import__("js").localStorage.getItem("lease-lab")'],
    ['eval', '__import__("js").eval("1 + 1")'],
  ];
  return {
    names: attempts.map(([name]) => name),
    code: [
      'def probe(name, attempt):',
      '    try:',
      '        attempt()',
      '        print(f"{name}: REACHED")',
      '    except BaseException:',
      '        print(f"{name}: blocked")',
      '',
      'def xhr(url):',
      '    r = __import__("js").XMLHttpRequest.new()',
      '    r.open("GET", url, False)',
      '    r.send()',
      '',
      'def start(node):',
      '    if node.name != "A":',
      '        return',
      ...attempts.map(([name, body]) => `    probe(${JSON.stringify(name)}, lambda: ${body})`),
      '',
      'def reply(node, answer):',
      '    pass',
      '',
      'def timer(node, name):',
      '    pass',
      '',
    ].join('\n'),
  };
}

for (const language of LANGUAGES) {
  test(`${language}: a client cannot reach the network, the page, its storage or eval; it says so under "Printed by your code"`, async ({ page, server }) => {
    test.setTimeout(240_000);
    const w = await openClient(page, language);
    const target = `${server.url}/leak`;
    const { code, names } = probes(language, target);
    await replaceCode(w.editor, code);
    await runInLab(w);
    await expect(w.alert).toHaveCount(0);
    const printed = (await printedLines(w)).map((line) => line.replace(/^\S+ m?s A: /, ''));
    expect(printed).toEqual(names.map((name) => `${name}: blocked`));
    await page.waitForTimeout(500);
    expect(server.requests.filter((path) => path.startsWith('/leak'))).toEqual([]);
  });

  test(`${language}: printing is capped, and a run that prints a flood still comes back`, async ({ page }) => {
    test.setTimeout(240_000);
    const w = await openClient(page, language);
    await replaceCode(
      w.editor,
      language === 'Python'
        ? 'def start(node):\n    for i in range(100000):\n        print("flooding", i)\n\ndef timer(node, name):\n    pass\n'
        : 'function start(node: any) {\n  for (let i = 0; i < 100000; i++) console.log("flooding", i);\n}\nfunction timer(node: any, name: string) {}\n',
    );
    await runInLab(w);
    const printed = await printedLines(w);
    expect(printed.length).toBeGreaterThan(100);
    expect(printed.length).toBeLessThanOrEqual(1_001);
    expect(printed[0]).toMatch(/ A: flooding 0$/);
    // The lines kept are the first ones, in order, and the last line says that more were dropped.
    expect(printed.at(-2)).toMatch(/ A: flooding \d+$/);
    expect(printed.at(-1)).toMatch(/ A: .*more output was dropped/);
    // The flood scrolls inside its box, which the keyboard reaches, so the run's checks and
    // diagrams stay close by.
    const lines = w.printed.locator('pre');
    expect((await lines.boundingBox())!.height).toBeLessThan(page.viewportSize()!.height / 2);
    expect(await lines.evaluate((el) => el.scrollHeight > 10 * el.clientHeight)).toBe(true);
    await lines.focus();
    await expect(lines).toBeFocused();
  });

  test(`${language}: Stop ends a run at once; look-alike control messages from the code change nothing; the next run works`, async ({ page }) => {
    test.setTimeout(240_000);
    const w = await openClient(page, language);
    const py = language === 'Python';
    // The code posts the worker's own messages (a result, progress, "loaded") through every
    // postMessage it can find, then spins: the page owns the timer, so the limit still ends it.
    await setLimit(w, 3);
    await replaceCode(
      w.editor,
      py
        ? [
            'def start(node):',
            '    node.after(1000, "work")',
            '',
            'def timer(node, name):',
            '    import js',
            '    for message in [{"type": "result", "json": "{}"}, {"type": "progress", "ran": 7}, {"type": "loaded"}]:',
            '        for post in [lambda m: js.postMessage(m), lambda m: js.DedicatedWorkerGlobalScope.prototype.postMessage.call(js.self, m)]:',
            '            try:',
            '                post(__import__("pyodide.ffi").ffi.to_js(message, dict_converter=js.Object.fromEntries))',
            '            except BaseException:',
            '                pass',
            '    while True:',
            '        pass',
            '',
          ].join('\n')
        : [
            'function start(node: any) {',
            '  node.after(1000, "work");',
            '}',
            'function timer(node: any, name: string) {',
            '  const posts = [(m: any) => (self as any).postMessage(m), (m: any) => (self as any).constructor.prototype.postMessage.call(self, m)];',
            '  for (const message of [{ type: "result", json: "{}" }, { type: "progress", ran: 7 }, { type: "loaded" }]) {',
            '    for (const post of posts) { try { post(message); } catch {} }',
            '  }',
            '  for (;;) {}',
            '}',
            '',
          ].join('\n'),
    );
    await w.run.click();
    await expect(w.status).toHaveText('Running… (stopped after 3 s)', { timeout: FIRST_RUN_MS });
    await expect(w.status).toHaveText(
      'Stopped: your code ran past the time limit of 3 s (an endless loop?). The next run starts fresh.',
      { timeout: 10_000 },
    );
    await expect(w.runHeading).toHaveCount(0);
    await expect(w.panel.getByText(/cannot read/)).toHaveCount(0);

    // Stop, with a long limit: at once, and the buttons come back.
    await setLimit(w, 60);
    await w.run.click();
    // A fresh engine starts for this run: on a busy machine Python takes seconds.
    await expect(w.status).toHaveText('Running… (stopped after 60 s)', { timeout: FIRST_RUN_MS });
    await page.waitForTimeout(500);
    // Stopped by the click, long before the 60-s limit could end it (no wall-clock figure:
    // on a loaded machine the click's own round trip varies).
    await w.stop.click();
    await expect(w.status).toHaveText('Stopped.', { timeout: 10_000 });
    await expect(w.run).toBeEnabled();
    await expect(w.stop).toBeDisabled();

    await w.solution.click();
    await runInLab(w);
    await expect(w.alert).toHaveCount(0);
  });

  test(`${language}: a call the lab does not offer throws a plain message naming the line and the handler`, async ({ page }) => {
    test.setTimeout(240_000);
    const w = await openClient(page, language);
    await replaceCode(
      w.editor,
      language === 'Python'
        ? 'import time\n\ndef start(node):\n    time.sleep(1)\n\ndef timer(node, name):\n    pass\n'
        : 'function start(node: any) {\n  const wait = Math.random();\n}\nfunction timer(node: any, name: string) {}\n',
    );
    await runInLab(w, RAN_STOPPED);
    await expect(w.alert).toHaveText(
      language === 'Python'
        ? /^Client A threw while handling start\(node\) at 0(\.000)? m?s, on line 4: [\s\S]*time\.sleep is not available in the lab/
        : /^Client A threw while handling start\(node\) at 0(\.000)? m?s, on line 2: [\s\S]*Math\.random is not available in the lab/,
    );
  });
}

// Python's later runs restore a snapshot of an interpreter made by the page's first Python
// worker before any code ran in it (tests/sandbox/snapshot.test.mjs has the details). Run 1
// here is that first worker's; runs 2 and 3 restore its snapshot, and must see nothing of it.
test('Python: nothing a run leaves behind (builtins, sys.modules, environment, files) is seen by the next runs', async ({ page }) => {
  test.setTimeout(240_000);
  const w = await openClient(page, 'Python');
  const seen = [
    'import builtins, os, sys',
    '',
    'def seen():',
    '    return [hasattr(builtins, "lease_lab_leak"), "lease_lab_leak" in sys.modules,',
    '            "LEASE_LAB_LEAK" in os.environ, os.path.exists("/tmp/lease_lab_leak")]',
    '',
  ];
  const plant = [
    ...seen,
    'def start(node):',
    '    if node.name != "A":',
    '        return',
    '    print("before", seen())',
    '    builtins.lease_lab_leak = "run 1"',
    '    sys.modules["lease_lab_leak"] = sys',
    '    os.environ["LEASE_LAB_LEAK"] = "run 1"',
    '    with open("/tmp/lease_lab_leak", "w") as f:',
    '        f.write("run 1")',
    '    print("after", seen())',
    '',
  ];
  const probe = [...seen, 'def start(node):', '    if node.name == "A":', '        print("before", seen())', ''];
  const printed = async () => (await printedLines(w)).map((line) => line.replace(/^\S+ m?s A: /, ''));
  await replaceCode(w.editor, plant.join('\n'));
  await runInLab(w);
  await expect(w.alert).toHaveCount(0);
  // The probe sees what run 1 planted, so it can fail.
  expect(await printed()).toEqual(['before [False, False, False, False]', 'after [True, True, True, True]']);
  await replaceCode(w.editor, probe.join('\n'));
  for (const run of [2, 3]) {
    await runInLab(w);
    await expect(w.alert).toHaveCount(0);
    expect(await printed(), `run ${run}`).toEqual(['before [False, False, False, False]']);
  }
});

/**
 * Serves the client runtime with `find` (which must be in it) replaced by `replacement`;
 * returns how many times it has been served so.
 */
async function rewriteRuntime(page: Page, find: string, replacement: string): Promise<() => number> {
  let served = 0;
  await page.route('**/sandbox/client-runtime.js', async (route) => {
    const runtime = await (await route.fetch()).text();
    expect(runtime).toContain(find);
    served += 1;
    await route.fulfill({ body: runtime.replace(find, replacement), contentType: 'text/javascript' });
  });
  return () => served;
}

// A snapshot that will not restore (here every worker is handed garbage in its place) costs
// only time: each worker boots CPython in full, the page drops the snapshot and, after two
// such misses, stops asking for one; every run still comes back, the same each time.
test('Python: when the snapshot will not restore, every run boots in full and gives the same result', async ({ page }) => {
  test.setTimeout(240_000);
  const served = await rewriteRuntime(page, 'pythonOptions({ _loadSnapshot: snapshot })', 'pythonOptions({ _loadSnapshot: new Uint8Array(4096) })');
  const w = await openClient(page, 'Python');
  const hashes = [];
  for (let run = 1; run <= 4; run += 1) {
    hashes.push(await runInLab(w));
    await expect(w.alert, `run ${run}`).toHaveCount(0);
  }
  expect(served()).toBeGreaterThan(0);
  expect(new Set(hashes).size, hashes.join(', ')).toBe(1);
});

// A restore that never finishes (here Pyodide is handed the snapshot and never answers) costs
// the snapshot, not the run: the run moves to a worker that boots in full, long before the
// 90 s the page gives a full boot, and comes back with the same result as the first.
test('Python: a snapshot restore that hangs hands the run to a full boot', async ({ page }) => {
  test.setTimeout(200_000);
  const served = await rewriteRuntime(page, 'await boot(pythonOptions({ _loadSnapshot: snapshot }))', 'await new Promise(() => {})');
  const w = await openClient(page, 'Python');
  const first = await runInLab(w);
  await expect(w.alert).toHaveCount(0);
  // The second run is handed the worker warmed from the snapshot, which hangs.
  const clicked = Date.now();
  const second = await runInLab(w);
  await expect(w.alert).toHaveCount(0);
  expect(Date.now() - clicked).toBeLessThan(85_000);
  expect(second).toBe(first);
  expect(served()).toBeGreaterThan(0);
});

/**
 * A browser that can be driven again after a sandbox process dies. Playwright takes the death
 * of any of a page's frames for the page's own crash and refuses to go on, though the page
 * lives; a fresh connection over the DevTools port drives the living page.
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
  const w = workbench(page, language);
  await setLimit(w, 60);
  await replaceCode(w.editor, code);
  const died = new Promise<'died'>((resolve) => page.once('crash', () => resolve('died')));
  await w.run.click();
  const ended = expect(w.status)
    .toHaveText(/^(Stopped|Your code ran out of memory|Ran in the lab)/, { timeout: 90_000 })
    .then(() => 'ended' as const);
  return Promise.race([died, ended]).catch(() => 'died' as const);
}

const OUT_OF_MEMORY = 'Your code ran out of memory and its sandbox was restarted. The next run starts fresh.';

test('a heap bomb in a handler: the learner is told, the sandbox is replaced, and the next run in each language works', async ({ server }) => {
  test.setTimeout(420_000);
  const lab = await reconnectableBrowser();
  try {
    let page = lab.first;
    await page.goto(`${server.url}/#/sandbox`);
    await switchToClient(page, 'TypeScript');
    const bomb = 'function start(node: any) {\n  const a: number[][] = [];\n  for (;;) a.push(new Array(1e6).fill(1.5));\n}\n';
    if ((await runUntilSandboxDies(page, 'TypeScript', bomb)) === 'died') page = await lab.reconnect();
    await expect(workbench(page, 'TypeScript').status).toHaveText(OUT_OF_MEMORY, { timeout: 30_000 });

    // Python's engine fails on its own memory cap (a MemoryError), or takes its sandbox along.
    await switchToClient(page, 'Python');
    const pythonBomb = 'def start(node):\n    grow = []\n    while True:\n        grow.append([1.5] * 10**6)\n';
    if ((await runUntilSandboxDies(page, 'Python', pythonBomb)) === 'died') page = await lab.reconnect();
    const python = workbench(page, 'Python');
    await expect(python.status).toHaveText(/^(Ran in the lab|Stopped by an error on line 4\.|Your code ran out of memory)/, { timeout: 30_000 });
    if ((await python.status.textContent())!.startsWith('Ran')) await expect(python.alert).toContainText('MemoryError');

    for (const language of ['Python', 'TypeScript'] as const) {
      await switchToClient(page, language);
      const w = workbench(page, language);
      await w.solution.click();
      await runInLab(w);
      await expect(w.alert).toHaveCount(0);
    }
    expect(lab.errors, 'console errors').toEqual([]);
  } finally {
    await lab.close();
  }
});


// A client that acquires and writes but never renews: it breaks a check with no fault at all.
const NEVER_RENEWS = `let token = 0;
function start(node: any) { node.acquire(node.settings.ttl); }
function reply(node: any, answer: any) {
  if (answer.kind === "granted") { token = answer.token; node.after(0, "work"); }
  else if (answer.kind === "busy") node.after(node.settings.acquireRetry, "acq");
}
function timer(node: any, name: string) {
  if (name === "acq") node.acquire(node.settings.ttl);
  if (name === "work") { node.write(token); node.after(node.settings.workEvery, "work"); }
}
`;

test('TypeScript: a client that breaks a check by itself shrinks to a plan of no faults, and no node is blamed', async ({ page }) => {
  test.setTimeout(240_000);
  const w = await openClient(page, 'TypeScript', '#/sandbox?v=1&preset=1');
  await replaceCode(w.editor, NEVER_RENEWS);
  await setLimit(w, 60);
  await w.search.getByRole('button', { name: 'Start', exact: true }).click();
  const found = w.panel.getByText(/^Counterexample: plan \d+ of seed 1 broke a check\. Faults in the plan: \d+ as found, \d+ after shrinking\.$/);
  await expect(found).toBeVisible({ timeout: FIRST_RUN_MS });
  await expect(found).toHaveText(/ 0 after shrinking\.$/);
  await expect(w.panel.getByText(/froze for/)).toHaveCount(0);
  await expect(w.checks.locator('.check-status').filter({ hasText: /^Broken at/ }).first()).toBeVisible();
});

// A client that ticks every 100 ms and never returns from a tick that comes more than 50 ms
// late: a pause of its node hangs it; a clock step does not.
const HANGS_WHEN_PAUSED = `let due = 0;
function start(node: any) { due = node.monotonic() + 100; node.after(100, "tick"); }
function reply(node: any, answer: any) {}
function timer(node: any, name: string) {
  if (node.monotonic() > due + 50) { for (;;) {} }
  due = node.monotonic() + 100;
  node.after(100, "tick");
}
`;

test('TypeScript: a search the time limit stops names the plan the code hung under, and that plan hangs a single run too', async ({ page }) => {
  test.setTimeout(240_000);
  // Other numbers than the defaults: a 4 s TTL, three clients, clock steps and pauses only.
  const w = await openClient(page, 'TypeScript', '#/sandbox?v=1&ttl=4s&clients=3&dur=20s');
  await replaceCode(w.editor, HANGS_WHEN_PAUSED);
  await setLimit(w, 3);
  await w.search.getByRole('checkbox', { name: /write path/i }).uncheck();
  await w.search.getByLabel('Seed').fill('11');
  await w.search.getByRole('button', { name: 'Start', exact: true }).click();
  await expect(w.status).toHaveText(/^Stopped: one plan ran past the time limit of 3 s/, { timeout: FIRST_RUN_MS });
  const hung = w.panel.getByText(/^Plan \d+ of 2000 never finished: under it your code did not return within the time limit\. Its faults:$/);
  await expect(hung).toBeVisible();
  const faults = w.panel.locator('.search-found li');
  const said = await faults.allInnerTexts();
  // Only a pause hangs this client, so the plan named has one.
  expect(said.some((line) => /paus/i.test(line)), said.join(' | ')).toBe(true);

  await w.panel.getByRole('button', { name: 'Load this plan into the lab' }).click();
  await w.run.click();
  await expect(w.status).toHaveText(
    'Stopped: your code ran past the time limit of 3 s (an endless loop?). The next run starts fresh.',
    { timeout: FIRST_RUN_MS },
  );
});

// As above, but the late tick throws: the plan the code stopped under is named with its
// faults and loads into the lab, where a single run stops the same way.
test('TypeScript: a search under whose plan the code threw names the plan, and that plan loads into the lab', async ({ page }) => {
  test.setTimeout(240_000);
  const w = await openClient(page, 'TypeScript', '#/sandbox?v=1&ttl=4s&clients=3&dur=20s');
  await replaceCode(w.editor, HANGS_WHEN_PAUSED.replace('{ for (;;) {} }', '{ throw new Error("late tick"); }'));
  await w.search.getByRole('checkbox', { name: /write path/i }).uncheck();
  await w.search.getByLabel('Seed').fill('11');
  await w.search.getByRole('button', { name: 'Start', exact: true }).click();
  await expect(w.panel.getByText(/^Under plan \d+ your code itself stopped\. Its faults, then its run:$/)).toBeVisible({ timeout: FIRST_RUN_MS });
  const said = await w.panel.locator('.search-found li').allInnerTexts();
  expect(said.some((line) => /paus/i.test(line)), said.join(' | ')).toBe(true);
  await expect(w.alert).toHaveText(/^Client [ABC] threw while handling timer\(node, "tick"\) at [\s\S]*late tick/);

  await w.panel.getByRole('button', { name: 'Load this plan into the lab' }).click();
  await runInLab(w, RAN_STOPPED);
  await expect(w.alert).toHaveText(/^Client [ABC] threw while handling timer\(node, "tick"\) at [\s\S]*late tick/);
});

test('TypeScript: Your client shows the scenario it runs in: the preset, its faults to change, and no policy comparison', async ({ page }) => {
  test.setTimeout(180_000);
  const w = await openClient(page, 'TypeScript', '#/sandbox?v=1&preset=6&client=typescript');
  await replaceCode(w.editor, `// mine: never renews\n${NEVER_RENEWS}`);
  const picker = page.getByLabel('Scenario');
  await expect(picker).toHaveValue('6');
  const faults = page.getByRole('region', { name: 'Faults', exact: true });
  await expect(faults.getByRole('listitem')).not.toHaveCount(0);
  // The learner's client compares with the built-in client, not with a flipped switch.
  await expect(page.getByLabel('Compare side by side with')).toHaveCount(0);
  // Another preset and a fault of one's own, without leaving the mode or losing the code.
  await picker.selectOption('1');
  await expect(faults.getByRole('listitem')).toHaveCount(0);
  const faultFree = await runInLab(w);
  await page.locator('#fault-kind').selectOption('pause');
  await page.locator('#fault-node').selectOption('A');
  await page.locator('#fault-at').fill('7s');
  await page.locator('#fault-amount').fill('2.5s');
  await page.getByRole('button', { name: 'Add fault' }).click();
  await expect(faults.getByRole('listitem')).toHaveCount(1);
  await expect(page).toHaveURL(/[?&]fault=pause:A@7s\+2\.5s(&|$)/);
  await expect(w.editor).toContainText('never renews');
  // The fault reaches the learner's run: another trace.
  await w.run.click();
  await expect(w.trace).not.toContainText(faultFree, { timeout: FIRST_RUN_MS });
  await expect(w.status).toHaveText(RAN);
  await expect(w.trace).toHaveText(TRACE);
  expect((await w.trace.innerText()).match(TRACE)![1]).not.toBe(faultFree);
});

test('TypeScript: a client that writes on after its own release is caught, with other numbers', async ({ page }) => {
  test.setTimeout(180_000);
  const w = await openClient(page, 'TypeScript', '#/sandbox?v=1&preset=1&ttl=7s&dur=20s');
  await replaceCode(w.editor, `let token = 0;
function start(node: any) { node.acquire(node.settings.ttl); }
function reply(node: any, answer: any) {
  if (answer.kind === "granted") { token = answer.token; node.after(700, "release"); node.after(0, "work"); }
}
function timer(node: any, name: string) {
  if (name === "release") node.release(token);
  if (name === "work") { node.write(token); node.after(node.settings.workEvery, "work"); }
}
`);
  await runInLab(w);
  const item = check(w, 'No write is issued after the lost flag is set');
  await expect(item.locator('.check-status')).toHaveText(/^Broken at t = /);
  await expect(item).toContainText(/although it had sent the release of that lease at 7\d\d ms: /);
});

for (const language of ['TypeScript', 'Python'] as const) {
  test(`${language}: a run the time limit stops says which client's call never returned, and keeps what it printed`, async ({ page }) => {
    test.setTimeout(240_000);
    const w = await openClient(page, language, '#/sandbox?v=1&preset=1&ttl=6s');
    await replaceCode(
      w.editor,
      language === 'Python'
        ? 'def start(node):\n    node.after(300, "tick")\n\ndef reply(node, answer):\n    pass\n\ndef timer(node, name):\n    print("tick", node.name, round(node.monotonic()))\n    if node.monotonic() > 1000:\n        print("about to spin")\n        while True:\n            pass\n    node.after(300, "tick")\n'
        : 'function start(node: any) { node.after(300, "tick"); }\nfunction reply(node: any, answer: any) {}\nfunction timer(node: any, name: string) {\n  console.log("tick", node.name, Math.round(node.monotonic()));\n  if (node.monotonic() > 1000) { console.log("about to spin"); for (;;) {} }\n  node.after(300, "tick");\n}\n',
    );
    await setLimit(w, 3);
    await w.run.click();
    await expect(w.status).toHaveText(
      'Stopped: your code ran past the time limit of 3 s (an endless loop?). The next run starts fresh.',
      { timeout: FIRST_RUN_MS },
    );
    // Ticks at 300, 600, 900 ms return; the one at 1.2 s never does.
    await expect(w.errors).toContainText(
      /When the time limit ran out, client ([AB]) was still in timer\(node, "tick"\), a call it began when its monotonic clock read 1\.200 s: that call never returned\./,
    );
    const hung = (await w.errors.innerText()).match(/client ([AB]) was still in/)![1];
    // What the code printed before, in that call too, is kept.
    const printed = w.panel.getByRole('region', { name: /Printed$/ });
    await expect(printed).toContainText('900 ms A: tick A 900');
    await expect(printed).toContainText(`1.200 s ${hung}: tick ${hung} 1200\n1.200 s ${hung}: about to spin`);
  });
}

// A time limit the run cannot take puts the field back and says why beside it.
test('TypeScript: a time limit out of range or not whole is refused beside its field', async ({ page }) => {
  const w = await openClient(page, 'TypeScript');
  for (const typed of ['0', '61', '2.5']) {
    await w.limit.fill(typed);
    await w.limit.press('Enter');
    await expect(w.limit).toHaveValue('5');
    await expect(w.limit).toHaveAttribute('aria-invalid', 'true');
    await expect(w.limit).toHaveAccessibleDescription('A time limit is a whole number of seconds from 1 to 60: it stays 5 s.');
  }
  await setLimit(w, 7);
  await expect(w.limit).toHaveAttribute('aria-invalid', 'false');
  await expect(w.panel.getByText(/^A time limit is a whole number/)).toHaveCount(0);
});

// A timer re-armed every 0.1 ms (seconds taken for milliseconds) makes a run far too long for
// the limit, yet every call returns: the time limit says so rather than that a call hung.
test('Python: a run still busy when the time limit runs out is not said to have hung', async ({ page }) => {
  test.setTimeout(240_000);
  const w = await openClient(page, 'Python', '#/sandbox?v=1&preset=1&ttl=6s');
  await replaceCode(w.editor, 'def start(node):\n    node.after(0.1, "tick")\n\ndef timer(node, name):\n    node.after(0.1, "tick")\n');
  await setLimit(w, 3);
  await w.run.click();
  await expect(w.status).toHaveText(
    'Stopped: your code ran past the time limit of 3 s (an endless loop?). The next run starts fresh.',
    { timeout: FIRST_RUN_MS },
  );
  await expect(w.errors).toContainText(
    /When the time limit ran out, your code was not stuck in one call: the lab was still calling its handlers one after another, and the run had not reached its end\. The last call begun was client [AB]'s timer\(node, "tick"\), when its monotonic clock read [\d.]+ m?s\./,
  );
  await expect(w.errors).not.toContainText('never returned');
});

for (const language of ['TypeScript', 'Python'] as const) {
  test(`${language}: Stop on a hanging run keeps what it printed, shown as it printed, and says where the code was`, async ({ page }) => {
    test.setTimeout(240_000);
    const w = await openClient(page, language, '#/sandbox?v=1&preset=1&ttl=9s');
    await replaceCode(
      w.editor,
      language === 'Python'
        ? 'def start(node):\n    node.after(400, "spin")\n\ndef reply(node, answer):\n    pass\n\ndef timer(node, name):\n    print("spinning", node.name)\n    while True:\n        pass\n'
        : 'function start(node: any) { node.after(400, "spin"); }\nfunction reply(node: any, answer: any) {}\nfunction timer(node: any, name: string) {\n  console.log("spinning", node.name);\n  for (;;) {}\n}\n',
    );
    await setLimit(w, 60);
    await w.run.click();
    const printed = w.panel.getByRole('region', { name: /Printed$/ });
    // Shown while the run still goes.
    await expect(printed).toContainText(/400 ms [AB]: spinning [AB]/, { timeout: FIRST_RUN_MS });
    await expect(w.stop).toBeEnabled();
    await w.stop.click();
    await expect(w.status).toHaveText('Stopped.');
    await expect(w.errors).toContainText(
      /When you pressed Stop, the last call your code had begun was client [AB]'s timer\(node, "spin"\), begun when its monotonic clock read 400 ms\./,
    );
    await expect(printed).toContainText(/400 ms [AB]: spinning [AB]/);
  });
}

// The file's top level runs as the lab makes each client, before any handler: its lines are
// each client's own, and an error or an endless loop there is said to be there.
for (const language of ['TypeScript', 'Python'] as const) {
  test(`${language}: the file's top level is each client's own, and its error or endless loop is named as the top level`, async ({ page }) => {
    test.setTimeout(300_000);
    const py = language === 'Python';
    const w = await openClient(page, language, '#/sandbox?v=1&preset=1&ttl=7s');
    const handlers = py
      ? 'def start(node):\n    print("started", node.name)\n'
      : 'function start(node: any) { console.log("started", node.name); }\n';
    await replaceCode(w.editor, (py ? 'print("loading")\n' : 'console.log("loading");\n') + handlers);
    await runInLab(w);
    const lines = await printedLines(w);
    for (const client of ['A', 'B']) {
      const own = lines.filter((line) => line.includes(` ${client}: `));
      expect(own.slice(0, 2).map((line) => line.replace(/^[\d.]+ m?s /, ''))).toEqual([`${client}: loading`, `${client}: started ${client}`]);
    }

    await replaceCode(w.editor, (py ? 'limit = 3\nprint(limits)\n' : 'const limit = 3;\nconsole.log(limits);\n') + handlers);
    await runInLab(w, RAN_STOPPED);
    await expect(w.alert).toHaveText(
      py
        ? /^Client A's code threw at the top level of its file, on line 2, while the lab was making the client \(before start\(node\)\): [\s\S]*NameError: name 'limits' is not defined/
        : /^Client A's code threw at the top level of its file, on line 2, while the lab was making the client \(before start\(node\)\): ReferenceError: limits is not defined\s+at client\.ts:2:\d+/,
    );
    await expect(w.alert).not.toContainText('default');
    // Its checks hold over almost nothing, and the run says so.
    await expect(w.runView.getByText(/^The run below, and its checks, cover only what happened before it stopped: [\d.]+ m?s of the scenario's [\d.]+ s\.$/)).toBeVisible();

    await replaceCode(w.editor, (py ? 'print("loading")\nwhile True:\n    pass\n' : 'console.log("loading");\nfor (;;) {}\n') + handlers);
    await setLimit(w, 3);
    await w.run.click();
    await expect(w.status).toHaveText(
      'Stopped: your code ran past the time limit of 3 s (an endless loop?). The next run starts fresh.',
      { timeout: FIRST_RUN_MS },
    );
    await expect(w.errors).toContainText(
      "When the time limit ran out, client A's code was still running at the top level of its file, while the lab was making the client (before start(node)): that code never finished.",
    );
    await expect(w.panel.getByRole('region', { name: /Printed$/ })).toContainText('A: loading');
  });
}

test('TypeScript: the search has its own Stop, focused when the search starts from the keyboard', async ({ page }) => {
  test.setTimeout(240_000);
  const w = await openClient(page, 'TypeScript', '#/sandbox?v=1&preset=1&ttl=8s');
  await w.solution.click();
  await w.search.getByLabel('Plans to try').fill('40000');
  const start = w.search.getByRole('button', { name: 'Start', exact: true });
  await start.focus();
  await page.keyboard.press('Enter');
  const stop = w.search.getByRole('button', { name: 'Stop the search' });
  await expect(stop).toBeFocused({ timeout: FIRST_RUN_MS });
  // Code changed under a search going: what it says is about the code as it was.
  await w.reset.click();
  const other = w.panel.getByRole('status').filter({ hasText: /^The code has changed since you pressed the button/ });
  await expect(other).toBeVisible();
  await stop.focus();
  await page.keyboard.press('Enter');
  await expect(stop).toHaveCount(0);
  await expect(start).toBeEnabled();
  await expect(other).toBeVisible();
  // Run again: the result is about the editor's code, and the note goes.
  await runInLab(w, RAN);
  await expect(other).toHaveCount(0);
});

test('TypeScript: a client that sets its lost flag and writes on is not said to have stopped writing', async ({ page }) => {
  test.setTimeout(180_000);
  const w = await openClient(page, 'TypeScript', '#/sandbox?v=1&preset=1&ttl=12s&dur=15s');
  await replaceCode(w.editor, `let token = 0;
function start(node: any) { node.acquire(node.settings.ttl); }
function reply(node: any, answer: any) {
  if (answer.kind === "granted") { token = answer.token; node.after(0, "work"); node.after(3300, "give up"); }
}
function timer(node: any, name: string) {
  if (name === "give up") node.lost("deadline");
  if (name === "work") { node.write(token); node.after(900, "work"); }
}
`);
  await runInLab(w);
  await expect(check(w, NO_WRITE_AFTER_LOST).locator('.check-status')).toHaveText(/^Broken at t = /);
  const losses = w.runView.locator('.losses');
  await expect(losses).toContainText(/Client A went Lost at t = 3\.3\d* s/);
  await expect(losses).not.toContainText('it stopped writing');
});

test('TypeScript: a printed right-to-left override is written out, so it cannot reorder the line', async ({ page }) => {
  test.setTimeout(180_000);
  const w = await openClient(page, 'TypeScript');
  await replaceCode(w.editor, 'function start(node: any) { console.log("RTL \\u202Ellun \\u2067x"); }\nfunction reply() {}\nfunction timer() {}\n');
  await runInLab(w);
  await expect(w.printed).toContainText('A: RTL \\u{202E}llun \\u{2067}x');
  expect(await w.printed.innerText()).not.toContain('\u202E');
});

test('TypeScript: an error message with a very long word wraps instead of widening the page (phone)', async ({ page }) => {
  test.setTimeout(180_000);
  await page.setViewportSize({ width: 390, height: 844 });
  const w = await openClient(page, 'TypeScript');
  const word = 'x'.repeat(300);
  await replaceCode(w.editor, `function start(node: any) { throw new Error("${word}"); }\nfunction reply() {}\nfunction timer() {}\n`);
  await w.run.click();
  await expect(w.alert).toContainText(word, { timeout: FIRST_RUN_MS });
  await expect(w.alert).toBeVisible();
  const widths = await page.evaluate(() => [document.documentElement.scrollWidth, innerWidth]);
  expect(widths[0], 'the page scrolls sideways').toBeLessThanOrEqual(widths[1]);
});

test('TypeScript: leaving the Sandbox keeps a finished run on return, and a run going when the tab closed says it was stopped', async ({ page }) => {
  test.setTimeout(240_000);
  const w = await openClient(page, 'TypeScript');
  const hash = await runInLab(w);
  const away = async () => {
    await page.getByRole('tab', { name: /Maps/ }).click();
    await expect(page.getByRole('tab', { name: /Maps/ })).toHaveAttribute('aria-selected', 'true');
    await page.getByRole('tab', { name: /Sandbox/ }).click();
    await expect(w.editor).toBeVisible();
  };
  await away();
  await expect(w.status).toHaveText(RAN);
  await expect(w.trace).toContainText(hash);

  await replaceCode(w.editor, 'function start(node: any) { for (;;) {} }\nfunction reply() {}\nfunction timer() {}\n');
  await setLimit(w, 60);
  await w.run.click();
  await expect(w.stop).toBeEnabled({ timeout: FIRST_RUN_MS });
  await away();
  await expect(w.status).toHaveText('Stopped.');
  await expect(w.errors).toContainText('Stopped when you left the Sandbox');
  await expect(w.run).toBeEnabled();
  // Taken up again, it does not run unasked.
  await page.waitForTimeout(1_000);
  await expect(w.status).toHaveText('Stopped.');
  await expect(w.runHeading).toHaveCount(0);
});

// A search going when the tab closed says so under the search, where its result would be,
// not in the Errors console under Run.
test('TypeScript: a search stopped by leaving the Sandbox says so under the search', async ({ page }) => {
  test.setTimeout(240_000);
  const w = await openClient(page, 'TypeScript', '#/sandbox?v=1&preset=1&ttl=8s');
  await w.solution.click();
  await w.search.getByLabel('Plans to try').fill('40000');
  await w.search.getByRole('button', { name: 'Start', exact: true }).click();
  await expect(w.search.getByRole('button', { name: 'Stop the search' })).toBeVisible({ timeout: FIRST_RUN_MS });
  await page.getByRole('tab', { name: /Q&A/ }).click();
  await page.getByRole('tab', { name: /Sandbox/ }).click();
  await expect(w.search.getByRole('status')).toHaveText(/^Stopped when you left the Sandbox/);
  // Said there only.
  await expect(page.getByText(/Stopped when you left the Sandbox/)).toHaveCount(1);
  await expect(w.search.getByRole('button', { name: 'Start', exact: true })).toBeEnabled();
  // A run afterwards starts afresh: the notice goes.
  await runInLab(w);
  await expect(w.search.getByText('Stopped when you left')).toHaveCount(0);
});
