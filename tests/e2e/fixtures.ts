// Fixtures every end-to-end test uses: a server for the release build, a guard against
// requests that leave the page's origin, against console errors and against any
// Content-Security-Policy violation, an axe-core check, and screenshots kept under artifacts/.
import { test as base, expect, type Page } from '@playwright/test';
import AxeBuilder from '@axe-core/playwright';
import { mkdirSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { startServer } from '../../tools/static-server.mjs';

const DIST = fileURLToPath(new URL('../../dist', import.meta.url));
const TEST_PAGES = fileURLToPath(new URL('./pages', import.meta.url));
// Mermaid from npm, served locally so the lesson test can prove the exports really parse.
const MERMAID = fileURLToPath(new URL('../../node_modules/mermaid/dist', import.meta.url));
// A SCORM runtime from npm, for the test page that plays the LMS, and the course packages
// unzipped by course.spec.ts.
const SCORM_AGAIN = fileURLToPath(new URL('../../node_modules/scorm-again/dist/esm', import.meta.url));
export const COURSE_PACKAGES = fileURLToPath(new URL('../../artifacts/course-packages', import.meta.url));
const SCREENSHOTS = fileURLToPath(new URL('../../artifacts/screenshots', import.meta.url));

export type Server = { url: string; requests: string[]; close(): Promise<void> };

type TestFixtures = {
  /** Console errors matching one of these are expected by the test and not reported. */
  allowedConsoleErrors: RegExp[];
  /** Requests that left the page's origin (blocked); the test fails if any happened. */
  offOriginRequests: string[];
  /** CSP violations that a test provokes on purpose, matched against `cspViolations` entries. */
  allowedCspViolations: RegExp[];
  /**
   * Every `securitypolicyviolation` event in any frame of the page, as
   * "<directive> blocked <uri> in <frame url>"; the test fails on any not allowed.
   */
  cspViolations: string[];
  /** Fails on serious or critical axe violations inside `selector` (the whole page by default). */
  checkA11y: (page: Page, selector?: string) => Promise<void>;
  /** Saves a full-page screenshot as artifacts/screenshots/<name>.png. */
  shot: (page: Page, name: string) => Promise<void>;
};

export const test = base.extend<TestFixtures, { server: Server }>({
  server: [
    async ({}, use) => {
      const server = await startServer(DIST, 0, {
        '/__test/': TEST_PAGES,
        '/__mermaid/': MERMAID,
        '/__scorm-again/': SCORM_AGAIN,
        '/__package/': COURSE_PACKAGES,
      });
      await use(server);
      await server.close();
    },
    { scope: 'worker' },
  ],

  baseURL: async ({ server }, use) => {
    await use(`${server.url}/`);
  },

  allowedConsoleErrors: [[], { option: true }],

  allowedCspViolations: [[], { option: true }],

  cspViolations: async ({ context, allowedCspViolations }, use) => {
    const violations: string[] = [];
    // A binding and an init script reach every frame, the snippet sandbox's and an embedding
    // page's included, and neither is itself subject to the page's policy.
    await context.exposeBinding('__reportCspViolation', ({ frame }, text: string) => {
      violations.push(`${text} in ${frame.url()}`);
    });
    await context.addInitScript(() => {
      addEventListener('securitypolicyviolation', (event) => {
        const report = (window as unknown as { __reportCspViolation?: (text: string) => void }).__reportCspViolation;
        report?.(`${event.effectiveDirective} blocked ${event.blockedURI || '(inline)'} (${event.sourceFile}:${event.lineNumber})`);
      });
    });
    await use(violations);
    const unexpected = violations.filter((text) => !allowedCspViolations.some((pattern) => pattern.test(text)));
    expect(unexpected, 'Content-Security-Policy violations').toEqual([]);
  },

  offOriginRequests: async ({ context, baseURL }, use) => {
    const origin = new URL(baseURL!).origin;
    const offOrigin: string[] = [];
    await context.route('**/*', (route) => {
      const url = new URL(route.request().url());
      if (url.origin === origin || url.protocol === 'data:' || url.protocol === 'blob:') {
        return route.continue();
      }
      offOrigin.push(url.href);
      return route.abort('blockedbyclient');
    });
    await use(offOrigin);
    expect(offOrigin, 'requests that left the page origin').toEqual([]);
  },

  page: async ({ page, offOriginRequests, cspViolations, allowedConsoleErrors }, use) => {
    void offOriginRequests;
    void cspViolations;
    const errors: string[] = [];
    const unexpected = (text: string) => !allowedConsoleErrors.some((pattern) => pattern.test(text));
    page.on('console', (message) => {
      if (message.type() === 'error' && unexpected(message.text())) errors.push(message.text());
    });
    page.on('pageerror', (error) => {
      if (unexpected(error.message)) errors.push(`uncaught: ${error.message}`);
    });
    await use(page);
    expect(errors, 'console errors').toEqual([]);
  },

  checkA11y: async ({}, use) => {
    await use(async (page, selector) => {
      let builder = new AxeBuilder({ page });
      if (selector) builder = builder.include(selector);
      const { violations } = await builder.analyze();
      const serious = violations
        .filter((v) => v.impact === 'serious' || v.impact === 'critical')
        .map((v) => `${v.id} (${v.impact}): ${v.help} at ${v.nodes.map((n) => n.target.join(' ')).join(', ')}`);
      expect(serious, 'serious or critical accessibility violations').toEqual([]);
    });
  },

  shot: async ({}, use) => {
    mkdirSync(SCREENSHOTS, { recursive: true });
    await use(async (page, name) => {
      await page.screenshot({ path: `${SCREENSHOTS}/${name}.png`, fullPage: true });
    });
  },
});

export { expect };

/**
 * Opens the app at `fragment` and waits until its tab list shows and the lesson has hydrated.
 * On a Sandbox link the tabs and the lab work before the lesson does, so a test acting on the
 * rest of the page right after the tabs show would race the hydration; a test of a page whose
 * lesson never hydrates (its wasm refused) passes `{ hydrated: false }`.
 */
export async function openApp(page: Page, fragment = '', { hydrated = true } = {}) {
  await page.goto(fragment ? `./${fragment}` : './');
  await expect(page.getByRole('tablist', { name: 'Lesson sections' })).toBeVisible();
  if (hydrated) await expect(page.locator('html')).toHaveAttribute('data-hydrated', '');
}
