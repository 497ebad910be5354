// The page's Content-Security-Policy: present in the built page, allowing exactly Trunk's
// inline start-up script, and enforced by the browser (the fixtures fail every test on a
// violation; this file provokes some on purpose to prove they are seen).
import { createHash } from 'node:crypto';
import { test, expect, openApp } from './fixtures';

/** The policy of the served page, as directive → sources. */
async function servedPolicy(baseURL: string) {
  const html = await (await fetch(baseURL)).text();
  const meta = html.match(/<meta http-equiv="Content-Security-Policy" content="([^"]+)">/);
  expect(meta, 'a Content-Security-Policy meta tag').not.toBeNull();
  expect(html.indexOf(meta![0])).toBeLessThan(html.indexOf('<script'));
  const policy = new Map(
    meta![1].split(';').map((part) => {
      const [directive, ...sources] = part.trim().split(/\s+/);
      return [directive, sources] as const;
    }),
  );
  return { html, policy };
}

test('the built page carries a strict policy that allows its own inline scripts only', async ({ baseURL }) => {
  const { html, policy } = await servedPolicy(baseURL!);
  expect(policy.get('default-src')).toEqual(["'self'"]);
  expect(policy.get('connect-src')).toEqual(["'self'"]);
  expect(policy.get('object-src')).toEqual(["'none'"]);
  expect(policy.get('base-uri')).toEqual(["'none'"]);
  expect(policy.get('worker-src')).toEqual(expect.arrayContaining(["'self'", 'blob:']));
  const scripts = policy.get('script-src')!;
  expect(scripts).toContain("'wasm-unsafe-eval'");
  expect(scripts).not.toContain("'unsafe-inline'");
  expect(scripts).not.toContain("'unsafe-eval'");
  const inline = [...html.matchAll(/<script(?![^>]*\bsrc=)[^>]*>([\s\S]*?)<\/script>/g)].map((m) => m[1]);
  expect(inline.length).toBeGreaterThan(0);
  for (const body of inline) {
    expect(scripts).toContain(`'sha256-${createHash('sha256').update(body).digest('base64')}'`);
  }
});

test.describe('the browser enforces it', () => {
  // Wrapped, since test.use reads a two-element array as [value, options].
  test.use({
    allowedCspViolations: [[/^script-src-elem blocked inline/, /^connect-src blocked http:\/\/192\.0\.2\.1/], { scope: 'test' }],
    allowedConsoleErrors: [[/violates the following Content Security Policy/, /Refused to connect because it violates/], { scope: 'test' }],
  });

  test('an injected inline script does not run and a request elsewhere is refused, and both are counted', async ({
    page,
    cspViolations,
  }) => {
    await openApp(page);
    await expect(page.getByRole('tablist', { name: 'Lesson sections' })).toBeVisible();
    const ran = await page.evaluate(async () => {
      const script = document.createElement('script');
      script.textContent = 'window.__injected = true;';
      document.head.append(script);
      await new Promise((done) => setTimeout(done, 100));
      return (window as unknown as { __injected?: boolean }).__injected === true;
    });
    expect(ran).toBe(false);
    const fetched = await page.evaluate(() =>
      fetch('http://192.0.2.1/beacon').then(
        () => 'reached',
        () => 'refused',
      ),
    );
    expect(fetched).toBe('refused');
    await expect.poll(() => cspViolations.length).toBe(2);
    expect(cspViolations[0]).toMatch(/^script-src-elem blocked inline/);
    expect(cspViolations[1]).toMatch(/^connect-src blocked http:\/\/192\.0\.2\.1/);
  });
});
