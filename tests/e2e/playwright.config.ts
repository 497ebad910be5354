import { defineConfig } from '@playwright/test';

// Debian's Chromium, never a downloaded browser. The flags keep it off this machine's
// closed network (background updates and sync would only produce refused connections).
// The default run matches *.spec.ts only: measurements (*.bench.ts) run alone under
// bench.config.ts, so `make test` carries no timing figure. heavy.spec.ts bounds the
// longest task a heavy link causes, which is only meaningful on a machine no other test
// loads: it runs last, on its own, one test at a time (a long task measured beside another
// worker's Chromium on two cores took 483 ms where alone it takes 80 to 130 ms).
const HEAVY = '**/heavy.spec.ts';

export default defineConfig({
  testDir: '.',
  testMatch: '*.spec.ts',
  outputDir: '../../test-results',
  timeout: 60_000,
  expect: { timeout: 10_000 },
  fullyParallel: true,
  workers: 2,
  retries: 0,
  forbidOnly: true,
  reporter: [['list']],
  projects: [
    { name: 'page', testIgnore: HEAVY },
    { name: 'alone', testMatch: HEAVY, dependencies: ['page'], fullyParallel: false },
  ],
  use: {
    browserName: 'chromium',
    viewport: { width: 1280, height: 800 },
    screenshot: 'only-on-failure',
    trace: 'retain-on-failure',
    launchOptions: {
      executablePath: process.env.CHROMIUM ?? '/usr/bin/chromium',
      args: [
        '--no-sandbox',
        '--disable-gpu',
        '--disable-dev-shm-usage',
        '--disable-background-networking',
        '--disable-component-update',
        '--disable-sync',
        '--no-first-run',
      ],
    },
  },
});
