import { defineConfig } from '@playwright/test';
import base from './playwright.config';

// Measurements, run alone by `make bench` (scripts/bench.sh): one worker, so no other
// browser shares the machine while a figure is taken. The default configuration only
// matches *.spec.ts, so `make test` never runs these and reports no timing.
export default defineConfig({
  ...base,
  testMatch: '*.bench.ts',
  // One project: the default run's projects would bring heavy.spec.ts along.
  projects: [{ name: 'bench' }],
  workers: 1,
  fullyParallel: false,
});
