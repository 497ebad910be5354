// The course packages (`make package`) in a learning platform: a test page plays the LMS with
// scorm-again's SCORM 1.2 and 2004 runtimes (tests/e2e/pages/lms.js) and launches the
// unzipped package in a frame. A learner opens every tab, grades every card and solves the
// last challenge; the runtime then holds completion, score and the resume data, and a second
// launch (with this browser's own storage cleared) restores the grades, the challenges and
// the laboratory's link from it. A
// platform that throws, fails or answers nonsense (or has no API) leaves the lesson working,
// says so once, and loses none of the learner's local progress.
import { execFileSync } from 'node:child_process';
import { existsSync, mkdirSync, rmSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { COURSE_PACKAGES, expect, test } from './fixtures';
import type { FrameLocator, Page } from '@playwright/test';

const PACKAGES = fileURLToPath(new URL('../../packages', import.meta.url));
const BUILD = fileURLToPath(new URL('../../dist/index.html', import.meta.url));
const NOT_REPORTING = 'Your course platform is not receiving your progress';
const FORMATS = ['scorm12', 'scorm2004'] as const;
type Format = (typeof FORMATS)[number];

/** The package of `format` unzipped for this worker; its folder under /__package/. */
function unzipped(format: Format, worker: number): string {
  const zip = join(PACKAGES, `lease-lab-${format}.zip`);
  if (!existsSync(zip) || statSync(zip).mtimeMs < statSync(BUILD).mtimeMs) {
    throw new Error(`${zip} is missing or older than the build: run \`make package\` first`);
  }
  const folder = `${format}-${worker}`;
  const target = join(COURSE_PACKAGES, folder);
  rmSync(target, { recursive: true, force: true });
  mkdirSync(target, { recursive: true });
  execFileSync('unzip', ['-q', zip, '-d', target]);
  return folder;
}

const folders = new Map<Format, string>();
test.beforeAll(({}, info) => {
  for (const format of FORMATS) folders.set(format, unzipped(format, info.workerIndex));
});

type Launch = { api?: string; prior?: unknown; fragment?: string };

/** Opens the LMS page with the package of `format`; the course's frame once it works. */
async function launch(page: Page, format: Format, { api = 'scorm-again', prior, fragment }: Launch = {}) {
  const query = new URLSearchParams({ format, package: folders.get(format)!, api });
  if (prior) query.set('prior', JSON.stringify(prior));
  if (fragment) query.set('fragment', fragment);
  await page.goto(`/__test/lms.html?${query}`);
  const course = page.frameLocator('#course');
  await expect(course.locator('html[data-hydrated]')).toHaveCount(1);
  return course;
}

async function openTab(course: FrameLocator, name: string) {
  await course.getByRole('tab', { name }).click();
  await expect(course.getByRole('tab', { name })).toHaveAttribute('aria-selected', 'true');
}

/** Grades every card: the first `knew` as known, the rest to review. */
async function gradeCards(course: FrameLocator, knew: number) {
  const cards = course.locator('ol.qa-cards > li');
  const count = await cards.count();
  for (let i = 0; i < count; i++) {
    await cards.nth(i).getByRole('button', { name: 'Show answer' }).click();
    await cards.nth(i).getByRole('button', { name: i < knew ? 'Knew it' : 'Review again' }).click();
  }
  return count;
}

/** The runtime's data model, read the same way for both formats. */
async function record(page: Page, format: Format) {
  const cmi = await page.evaluate(() => (window as any).lms.cmi());
  return format === 'scorm12'
    ? { status: cmi.core.lesson_status, score: cmi.core.score, suspend: cmi.suspend_data, exit: cmi.core.exit }
    : { status: cmi.completion_status, score: cmi.score, suspend: cmi.suspend_data, exit: cmi.exit, progress: cmi.progress_measure };
}

/** Ends the launch as an LMS does (the frame goes away); the runtime has finished. */
async function close(page: Page) {
  await page.evaluate(() => (window as any).lms.close());
  await expect.poll(() => page.evaluate(() => (window as any).lms.terminated())).toBe(true);
}

/** What a next launch gets from this one: the resume data and the status. */
function resumeFrom(format: Format, kept: Awaited<ReturnType<typeof record>>) {
  return format === 'scorm12'
    ? { suspend_data: kept.suspend, core: { lesson_status: kept.status } }
    : { suspend_data: kept.suspend, completion_status: kept.status };
}

// The laboratory's record of the challenges (src/lab/challenge/progress.rs): every one but
// "Which one switch stops the zombie?" solved on an earlier visit in this browser.
const CHALLENGES_KEY = 'lease-lab.challenges.v1';
const ALL_CHALLENGES = 'pitfall,pause-and-failover,one-switch,break-it,etcd-sizing,ntp-step,service-jump,blip-renewals';
const SOLVED_BEFORE = `v=1;solved=${ALL_CHALLENGES.replace('one-switch,', '')};tried=;required=${ALL_CHALLENGES};total=8`;

/** Solves "Which one switch stops the zombie?" through the Challenges section. */
async function solveOneSwitch(course: FrameLocator) {
  const challenges = course.getByRole('region', { name: 'Challenges' });
  await challenges.getByRole('button', { name: /^Which one switch stops the zombie/ }).click();
  const item = challenges.getByRole('listitem').filter({ has: course.getByRole('button', { name: /^Which one switch stops the zombie/ }) });
  await item.getByRole('checkbox', { name: 'Fencing at storage' }).setChecked(true);
  await item.getByRole('button', { name: 'Check my answer' }).click();
  await expect(item.getByRole('status').filter({ hasText: 'Solved.' })).toBeVisible();
}

for (const format of FORMATS) {
  test(`${format}: completion, score and the lab's link reach the LMS, and the next launch restores them`, async ({ page, shot }) => {
    let course = await launch(page, format);
    await page.evaluate(([key, saved]) => localStorage.setItem(key, saved), [CHALLENGES_KEY, SOLVED_BEFORE]);
    await openTab(course, 'Maps');
    await openTab(course, 'Q&A');
    const total = await gradeCards(course, 9);
    expect(total).toBe(12);
    // Every tab but the Sandbox, every card graded: not complete yet. The score already
    // counts the seven challenges this browser solved before.
    await expect.poll(async () => Number((await record(page, format)).score.raw)).toBe(9 + 7);
    expect((await record(page, format)).status).not.toBe('completed');

    await openTab(course, 'Sandbox');
    await course.getByLabel('Scenario').selectOption('5b');
    await expect(course.getByLabel('Scenario')).toHaveValue('5b');
    // The last required challenge, solved in the page, completes the course.
    await solveOneSwitch(course);

    await expect.poll(async () => (await record(page, format)).status).toBe('completed');
    const reported = await record(page, format);
    expect(Number(reported.score.raw)).toBe(9 + 8);
    expect(Number(reported.score.min)).toBe(0);
    expect(Number(reported.score.max)).toBe(12 + 8);
    if (format === 'scorm2004') {
      expect(Number(reported.score.scaled)).toBe(0.85);
      expect(Number(reported.progress)).toBe(1);
    }
    await expect(course.getByText(NOT_REPORTING)).toHaveCount(0);
    // Completion is committed at once, and so is everything when the page is hidden.
    const commits = () => page.evaluate(() => (window as any).lms.commits());
    await expect.poll(commits).toBe(1);
    await course.locator('body').evaluate(() => {
      Object.defineProperty(document, 'visibilityState', { value: 'hidden', configurable: true });
      document.dispatchEvent(new Event('visibilitychange'));
    });
    await expect.poll(commits).toBe(2);
    await shot(page, `course-${format}-first-launch`);
    await close(page);
    const kept = await record(page, format);
    expect(kept.exit).toBe('suspend');
    expect(kept.suspend).toContain('preset=5b');

    // This browser forgets the grades: only the LMS can bring them back.
    await page.evaluate(() => localStorage.clear());
    course = await launch(page, format, { prior: resumeFrom(format, kept) });
    await openTab(course, 'Q&A');
    await expect(course.getByText('9 known, 3 to review, 0 not graded yet, of 12')).toBeVisible();
    await openTab(course, 'Sandbox');
    await expect(course.getByLabel('Scenario')).toHaveValue('5b');
    await expect(course.getByRole('region', { name: 'Challenges' }).getByText('8 of 8 challenges solved')).toBeVisible();
    await expect.poll(async () => (await record(page, format)).status).toBe('completed');
  });
}

test('scorm12: a laboratory link too long for 4,096 characters is left out, and the grades are kept', async ({ page }) => {
  // 3,000 bytes of Python in the link: about 4,000 characters of base64url.
  const code = Buffer.from(`print("lease")\n${'#'.repeat(3_000)}\n`).toString('base64url');
  let course = await launch(page, 'scorm12', { fragment: `#/qa?v=1&py=${code}` });
  await gradeCards(course, 5);
  await expect.poll(async () => Number((await record(page, 'scorm12')).score.raw)).toBe(5);
  // No challenge tried yet, and the laboratory never opened: the maximum counts them anyway.
  expect(Number((await record(page, 'scorm12')).score.max)).toBe(12 + 8);
  await close(page);
  const kept = await record(page, 'scorm12');
  expect(kept.suspend.length).toBeLessThanOrEqual(4096);
  expect(kept.suspend).not.toContain('py=');
  expect(kept.suspend).toContain('grades');

  await page.evaluate(() => localStorage.clear());
  course = await launch(page, 'scorm12', { prior: resumeFrom('scorm12', kept) });
  await openTab(course, 'Q&A');
  await expect(course.getByText('5 known, 7 to review, 0 not graded yet, of 12')).toBeVisible();
});

for (const api of ['throwing', 'failing', 'garbage', 'too-long', 'none']) {
  test(`an LMS whose API is ${api === 'none' ? 'missing' : api} leaves the lesson working and says so once`, async ({ page, shot, checkA11y }) => {
    const course = await launch(page, 'scorm12', { api });
    await openTab(course, 'Q&A');
    await gradeCards(course, 2);
    await openTab(course, 'Maps');
    await expect(course.getByText(NOT_REPORTING)).toHaveCount(1);
    await expect(course.getByText(NOT_REPORTING)).toBeVisible();
    if (api === 'throwing') {
      await checkA11y(page);
      await shot(page, 'course-lms-throwing');
    }

    // The grades stay in this browser: a working platform's next launch shows them.
    await page.evaluate(() => (window as any).lms.close());
    const again = await launch(page, 'scorm12');
    await openTab(again, 'Q&A');
    await expect(again.getByText('2 known, 10 to review, 0 not graded yet, of 12')).toBeVisible();
    await expect(again.getByText(NOT_REPORTING)).toHaveCount(0);
  });
}

test('outside a learning platform the page loads no course bridge', async ({ page }) => {
  const requested: string[] = [];
  page.on('request', (request) => requested.push(new URL(request.url()).pathname));
  await page.goto('./#/qa');
  await expect(page.locator('html[data-hydrated]')).toHaveCount(1);
  await page.getByRole('tab', { name: 'Maps' }).click();
  expect(requested.filter((path) => path.includes('/course/'))).toEqual([]);
  expect(await page.evaluate(() => 'leaseLabCourse' in window)).toBe(false);
});
