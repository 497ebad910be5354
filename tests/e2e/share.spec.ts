// Share links: a sandbox state survives a trip through its link into a fresh page, the
// address follows the lab without flooding history, and bad links explain themselves as
// plain text while the page stays usable.
import { test, expect, openApp } from './fixtures';
import type { Page } from '@playwright/test';

async function addFault(page: Page, kind: string, node: string, at: string, amount?: string) {
  await page.locator('#fault-kind').selectOption(kind);
  await page.locator('#fault-node').selectOption(node);
  await page.locator('#fault-at').fill(at);
  if (amount !== undefined) await page.locator('#fault-amount').fill(amount);
  await page.getByRole('button', { name: 'Add fault' }).click();
}

/** Moves the time slider the way a drag does: set the value, fire `input`. */
async function seek(page: Page, ms: number) {
  await page.locator('#lab-time').evaluate((input: HTMLInputElement, value) => {
    input.value = String(value);
    input.dispatchEvent(new Event('input', { bubbles: true }));
  }, ms);
}

/** What a learner sees of the run: trace hash, time, fencing, checks and storage. */
async function outcome(page: Page) {
  return {
    trace: await page.locator('.trace-id').innerText(),
    time: await page.locator('.clock .now').innerText(),
    fencing: await page.getByRole('checkbox', { name: 'Fencing at storage' }).isChecked(),
    checks: await page.getByRole('region', { name: 'Checks' }).innerText(),
    storage: await page.getByRole('region', { name: /^Storage/ }).innerText(),
  };
}

test('a preset with two more faults, fencing off and a time comes back the same from its link', async ({
  page,
  context,
}) => {
  await context.grantPermissions(['clipboard-read', 'clipboard-write']);
  await openApp(page, '#/sandbox');
  await page.getByLabel('Scenario').selectOption('2');
  await addFault(page, 'crash', 'B', '20');
  await addFault(page, 'pause', 'B', '12', '3');
  await page.getByRole('checkbox', { name: 'Fencing at storage' }).uncheck();
  await seek(page, 17_250);
  await expect(page.locator('.clock .now')).toHaveText('t = 17.250 s');
  // Written against the closest preset: 2 with fencing off is preset 2-unfenced.
  await expect(page).toHaveURL(/#\/sandbox\?v=1&preset=2-unfenced&t=17\.25s&fault=pause:B@12s\+3s&fault=crash:B@20s$/);
  const before = await outcome(page);
  expect(before.trace).toMatch(/^Trace hash [0-9a-f]{16}/);

  await page.getByRole('button', { name: 'Copy link' }).click();
  await expect(page.getByText('Copied to the clipboard.')).toBeVisible();
  const link = await page.getByLabel('Link to this state').inputValue();
  expect(await page.evaluate(() => navigator.clipboard.readText())).toBe(link);

  const fresh = await context.newPage();
  await fresh.goto(link);
  await expect(fresh.getByRole('tablist', { name: 'Lesson sections' })).toBeVisible();
  await expect(fresh.locator('.clock .now')).toHaveText('t = 17.250 s');
  expect(await outcome(fresh)).toEqual(before);
  await expect(fresh.getByText('Part of this link could not be read')).toHaveCount(0);
  await fresh.close();
});

test('deliberate changes add history entries that Back replays; scrubbing does not', async ({ page }) => {
  await openApp(page, '#/sandbox');
  await page.getByLabel('Scenario').selectOption('2');
  await expect(page).toHaveURL(/preset=2&t=0s$/);
  const entries = await page.evaluate(() => history.length);
  const trace = await page.locator('.trace-id').innerText();
  await page.getByRole('checkbox', { name: 'Fencing at storage' }).uncheck();
  await expect(page).toHaveURL(/preset=2-unfenced&t=0s$/);
  for (const ms of [1_000, 2_000, 3_000, 4_000]) await seek(page, ms);
  await expect(page).toHaveURL(/preset=2-unfenced&t=4s$/);
  expect(await page.evaluate(() => history.length)).toBe(entries + 1);
  await expect(page.locator('.trace-id')).not.toHaveText(trace);
  await page.goBack();
  await expect(page).toHaveURL(/preset=2&t=0s$/);
  await expect(page.locator('.trace-id')).toHaveText(trace);
  await expect(page.getByRole('button', { name: 'Back to Prefer' })).toBeDisabled();
  await expect(page.locator('.clock .now')).toHaveText('t = 0 ms');
});

// Markup that would announce itself if it ever ran or became an element.
const IMG = '<img id=pwned src=x onerror="window.pwned=1;alert(1)">';
const SCRIPT = '<script id=pwned>window.pwned=1</script>';
/** How a message quotes link text: at most 40 characters, then an ellipsis. */
const q = (text: string) => `“${text.length > 40 ? `${text.slice(0, 40)}…` : text}”`;

const BAD_LINKS: [string, string, string][] = [
  ['wrong version', '#/sandbox?v=9&preset=2', 'uses format version “9”, which this Lease Lab cannot read'],
  ['truncated fault', '#/sandbox?v=1&preset=2&fault=pause:A@2', 'has a stop-the-world pause without its amount'],
  ['truncated time', '#/sandbox?v=1&preset=2&t=17.', 'time (“17.”) is not a number'],
  ['huge', `#/sandbox?v=1&py=${'A'.repeat(40_000)}`, 'characters long, more than the 32768 Lease Lab reads'],
  ['negative duration', '#/sandbox?v=1&preset=2&fault=pause:A@2s-15s', 'has a stop-the-world pause with a negative duration'],
  ['negative number', '#/sandbox?v=1&preset=2&clients=-3', 'number of clients (“-3”) is negative'],
  ['NaN', '#/sandbox?v=1&preset=2&ttl=NaN', 'TTL (“NaN”) is not a number'],
  ['overflow', '#/sandbox?v=1&seed=99999999999999999999999', 'seed (“99999999999999999999999”) is too large'],
  ['out of range', '#/sandbox?v=1&preset=2&ttl=5ms', 'does not hold together (Lease TTL (T): 5 ms is not between'],
  ['unknown preset', '#/sandbox?v=1&preset=42', 'names a preset “42” that does not exist'],
  ['unknown switch value', '#/sandbox?v=1&preset=2&fencing=maybe', '(“maybe”) should be on or off'],
  ['unknown comparison', '#/sandbox?v=1&preset=2&compare=sideways', 'compares with a switch “sideways” that does not exist'],
  ['unknown fault kind', '#/sandbox?v=1&preset=2&fault=meteor:A@1s', 'a fault of an unknown kind'],
  ['unknown tab', '#/basement', 'asks for a tab “basement” that does not exist'],
  ['unknown theme', '#/qa?embed=0&theme=neon', 'asks for a theme “neon” that does not exist'],
  ['markup as a tab', `#/${IMG}`, `asks for a tab ${q(IMG)}`],
  ['markup as a version', `#/sandbox?v=${SCRIPT}`, `uses format version ${q(SCRIPT)}`],
  ['markup as a preset', `#/sandbox?v=1&preset=${IMG}`, `names a preset ${q(IMG)}`],
  ['markup as a time', `#/sandbox?v=1&preset=2&t=${IMG}`, `time (${q(IMG)}) is not a number`],
  ['markup as a field name', `#/sandbox?v=1&${IMG}`, 'has a field “<img id” that Lease Lab does not know'],
  ['markup as a fault', `#/sandbox?v=1&preset=2&fault=${SCRIPT}`, `revoke) (${q(SCRIPT)})`],
  ['markup as a switch', `#/sandbox?v=1&preset=2&compare=${SCRIPT}`, `compares with a switch ${q(SCRIPT)}`],
  ['markup as a selection', `#/maps?v=1&sel=${IMG}`, `selects a diagram part ${q(IMG)}`],
  ['markup as a diagram', `#/maps?v=1&diagram=${IMG}`, `asks for a diagram ${q(IMG)}`],
  ['markup as code', '#/sandbox?v=1&py=PHNjcmlwdD4=%3C', 'Python code could not be decoded'],
];

test.describe('bad links explain themselves and leave the page usable', () => {
  for (const [name, fragment, message] of BAD_LINKS) {
    test(name, async ({ page }) => {
      const dialogs: string[] = [];
      page.on('dialog', (dialog) => {
        dialogs.push(dialog.message());
        void dialog.dismiss();
      });
      await openApp(page, fragment);
      const notice = page.getByRole('status').filter({ hasText: 'Part of this link could not be read' });
      await expect(notice).toBeVisible();
      await expect(notice.getByRole('listitem').filter({ hasText: message })).toHaveCount(1);
      expect(await page.locator('#pwned').count()).toBe(0);
      expect(await page.evaluate(() => (window as unknown as { pwned?: number }).pwned)).toBeUndefined();
      expect(dialogs).toEqual([]);

      await notice.getByRole('button', { name: 'Dismiss' }).click();
      await expect(notice).toHaveCount(0);
      await page.getByRole('tab', { name: /Sandbox/ }).click();
      await page.getByRole('button', { name: 'Jump to end' }).click();
      await expect(page.locator('.clock .now')).not.toHaveText('t = 0 ms');
      await page.getByRole('tab', { name: /Maps/ }).click();
      await expect(page.getByRole('tab', { name: /Maps/ })).toHaveAttribute('aria-selected', 'true');
    });
  }
});

test('a link with nothing wrong shows no notice and opens its tab', async ({ page }) => {
  await openApp(page, '#/sandbox?v=1&preset=5b&t=4.5s&compare=feel-ttl');
  await expect(page.locator('.clock .now')).toHaveText('t = 4.500 s');
  await expect(page.getByLabel('Scenario')).toHaveValue('5b');
  await expect(page.locator('#lab-compare')).toHaveValue('feel-ttl');
  await expect(page.getByText('Part of this link could not be read')).toHaveCount(0);
});

test('a selected diagram part travels in the link and is selected again when it opens', async ({ page, context }) => {
  await openApp(page, '#/gist');
  await page.getByRole('button', { name: /^State 4 Lost/ }).click();
  await expect(page).toHaveURL(/[?&]sel=lifecycle\.lost(&|$)/);
  const link = page.url();
  const fresh = await context.newPage();
  await fresh.goto(link);
  const lost = fresh.getByRole('button', { name: /^State 4 Lost/ });
  await expect(lost).toHaveAttribute('aria-pressed', 'true');
  await expect(fresh.getByRole('button', { name: /^State 2 Holding/ })).toHaveAttribute('aria-pressed', 'false');

  await fresh.close();

  const maps = await context.newPage();
  await maps.goto(link.replace('#/gist', '#/maps').replace('sel=lifecycle.lost', 'sel=architecture.edge.renew'));
  await expect(maps.getByRole('button', { name: /^Edge renew if token/ })).toHaveAttribute('aria-pressed', 'true');
  await maps.close();
});

test('a fault after the end of the run is refused beside the form, naming the end, and changes nothing', async ({ page }) => {
  await openApp(page, '#/sandbox?v=1&dur=45s&ttl=6s');
  await expect(page.getByLabel('Lease TTL (T)', { exact: true })).toHaveValue('6');
  const before = page.url();
  await addFault(page, 'pause', 'A', '47.5', '3');
  const form = page.getByRole('form', { name: 'Add a fault' });
  await expect(form.getByRole('alert')).toHaveText(
    'Can’t add this fault to this run. Faults: a fault at 47.500 s is after the end of the run (45.000 s).',
  );
  await expect(page.getByRole('button', { name: /^Remove / })).toHaveCount(0);
  expect(page.url()).toBe(before);
  // A time inside the run adds it, and the refusal goes.
  await addFault(page, 'pause', 'A', '44.5', '3');
  await expect(page.getByRole('button', { name: /^Remove / })).toHaveCount(1);
  await expect(form.getByRole('alert')).toHaveCount(0);
});

test('the fault form marks the input a refusal is about, and refuses a fault that would change nothing', async ({ page }) => {
  await openApp(page, '#/sandbox?v=1&dur=38s&ttl=7s');
  await expect(page.getByLabel('Lease TTL (T)', { exact: true })).toHaveValue('7');
  const form = page.getByRole('form', { name: 'Add a fault' });
  const at = page.locator('#fault-at');
  const amount = page.locator('#fault-amount');
  await addFault(page, 'partition', 'A', '3', '0');
  await expect(form.getByRole('alert')).toHaveText('Can’t add a partition with an amount of 0: it would change nothing.');
  await expect(amount).toHaveAttribute('aria-invalid', 'true');
  await expect(at).toHaveAttribute('aria-invalid', 'false');
  await expect(page.getByText('No faults planned')).toBeVisible();
  await addFault(page, 'pause', 'B', '2 min', '1');
  await expect(form.getByRole('alert')).toContainText('has a unit Lease Lab does not read');
  await expect(at).toHaveAttribute('aria-invalid', 'true');
  await expect(at).toHaveAccessibleDescription(await form.getByRole('alert').innerText());
  await expect(amount).toHaveAttribute('aria-invalid', 'false');
  await addFault(page, 'pause', 'B', '39', '1');
  await expect(form.getByRole('alert')).toContainText('after the end of the run (38.000 s)');
  await expect(at).toHaveAttribute('aria-invalid', 'true');
  await addFault(page, 'pause', 'B', '2.25', '1');
  await expect(form.getByRole('alert')).toHaveCount(0);
  await expect(at).toHaveAttribute('aria-invalid', 'false');
  await expect(page.getByRole('button', { name: /^Remove / })).toHaveCount(1);
});

test('a planned fault moved to a time it cannot take stays where it was, with the reason beside it', async ({ page }) => {
  await openApp(page, '#/sandbox?v=1&dur=38s&faults=none&fault=pause:A@4.5s+2s');
  const time = page.getByLabel(/^Time of .*, in seconds$/);
  await expect(time).toHaveValue('4.5');
  const trace = await page.locator('.trace-id').innerText();
  for (const [typed, why] of [
    ['soon', 'The time “soon” is not a number'],
    ['3h', 'The time “3h” has a unit'],
    ['40', 'after the end of the run (38.000 s)'],
  ]) {
    await time.fill(typed);
    await time.press('Enter');
    const alert = page.getByRole('region', { name: 'Faults', exact: true }).getByRole('alert');
    await expect(alert).toContainText('Can’t move this fault there.');
    await expect(alert).toContainText(why);
    await expect(time).toHaveAttribute('aria-invalid', 'true');
    // The run is the one it was: the fault did not move, not even to 0.
    await expect(page.locator('.trace-id')).toHaveText(trace);
    expect(page.url()).toContain('pause:A@4.5s+2s');
  }
  await time.fill('6.25');
  await time.press('Enter');
  await expect(page).toHaveURL(/pause:A@6\.25s\+2s/);
  await expect(page.getByLabel(/^Time of .*, in seconds$/)).toHaveValue('6.25');
  await expect(page.getByLabel(/^Time of .*, in seconds$/)).toHaveAttribute('aria-invalid', 'false');
  await expect(page.locator('.trace-id')).not.toHaveText(trace);
});
