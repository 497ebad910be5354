// What a careful learner trips over (issue 25): each test drives the page as that learner
// did, with other numbers than the report's, and fails on the page as it was before the fix.
import { test, expect, openApp } from './fixtures';
import type { BrowserContext, FrameLocator, Locator, Page } from '@playwright/test';

/** A static host that sends `Access-Control-Allow-Origin: *`, so a sandboxed frame loads the app. */
async function serveWithCors(context: BrowserContext, baseURL: string) {
  const origin = new URL(baseURL).origin;
  await context.route('**/*', async (route) => {
    if (new URL(route.request().url()).origin !== origin) return route.fallback();
    const response = await route.fetch();
    await route.fulfill({ response, headers: { ...response.headers(), 'access-control-allow-origin': '*' } });
  });
}

async function openEmbedded(page: Page, context: BrowserContext, baseURL: string, src: string): Promise<FrameLocator> {
  await serveWithCors(context, baseURL);
  await page.goto(`/__test/embed-parent.html?src=${encodeURIComponent(src)}`);
  return page.frameLocator('#lab');
}

const search = (root: Page | FrameLocator) => root.getByRole('region', { name: 'Find a counterexample' });

type Language = 'Python' | 'TypeScript';
const HEADINGS: Record<Language, string> = {
  Python: 'Lost flag stops writes (Python)',
  TypeScript: 'The same idea in TypeScript',
};

function snippet(page: Page, language: Language) {
  const panel = page.getByRole('region', { name: HEADINGS[language], exact: true });
  return {
    panel,
    editor: panel.getByRole('textbox', { name: `${language} code` }),
    run: panel.getByRole('button', { name: 'Run', exact: true }),
    status: panel.locator('.snippet-status'),
    errors: panel.getByRole('region', { name: /Errors$/ }),
  };
}

async function openSnippets(page: Page, fragment = '#/sandbox') {
  await openApp(page, fragment);
  await expect(page.locator('.snippet .cm-content')).toHaveCount(2);
}

/** Replaces the editor's whole text, as pasting would. */
async function replaceCode(editor: Locator, code: string) {
  await editor.click();
  await editor.press('ControlOrMeta+a');
  await editor.page().keyboard.insertText(code);
}

test.describe('1. the search works in the app\'s own embed', () => {
  test('inside <iframe sandbox="allow-scripts"> the search finds a counterexample', async ({ page, context, baseURL, checkA11y }) => {
    const frame = await openEmbedded(page, context, baseURL!, '/?embed#/sandbox?v=1&preset=1');
    await frame.getByRole('checkbox', { name: 'Fencing at storage' }).uncheck();
    await search(frame).getByLabel('Plans to try').fill('4000');
    await search(frame).getByRole('button', { name: 'Start' }).click();
    await expect(search(frame).getByText(/^Counterexample: plan \d+ of seed \d+ broke a check\./)).toBeVisible({ timeout: 30_000 });
    await expect(search(frame).getByText(/could not start/)).toHaveCount(0);
    await checkA11y(page);
  });
});
