// Playwright runs the end-to-end tests in tests/ against the static site.
// `cargo xtask test` builds dist/, serves it under a sub-path on a free
// port and passes the address in UTTT_BASE_URL. Run directly
// (`npx playwright test`), it starts `cargo xtask serve` itself.

import { defineConfig } from '@playwright/test';
import { args, executablePath } from './tests/support/browser.js';

const servedByXtask = Boolean(process.env.UTTT_BASE_URL);
const baseURL = process.env.UTTT_BASE_URL || 'http://127.0.0.1:8123/';

export default defineConfig({
  testDir: 'tests',
  testMatch: '**/*.spec.js',
  fullyParallel: true,
  forbidOnly: Boolean(process.env.CI),
  retries: 0,
  workers: process.env.CI ? 2 : undefined,
  // A guard against hangs, not a measure: the long specs (four reloads and
  // a second page; ten moves with the live evaluation searching beside)
  // take 11-13 s alone but ran past 30 s twice in the whole suite on two
  // cores. What must be fast is bounded by the specs' own expectations.
  timeout: 60_000,
  expect: { timeout: 10_000 },
  reporter: [
    ['list'],
    ['json', { outputFile: process.env.UTTT_PLAYWRIGHT_JSON || 'test-results/report.json' }],
  ],
  use: {
    baseURL,
    browserName: 'chromium',
    headless: true,
    launchOptions: { executablePath, args },
    trace: 'retain-on-failure',
    screenshot: 'only-on-failure',
  },
  // The specs tagged @quiet time the page while the AI thinks. They run
  // after all the others, one at a time, so no other spec's search competes
  // for this 2-core machine's cores while they measure.
  projects: [
    { name: 'game', grepInvert: /@quiet/ },
    { name: 'quiet', grep: /@quiet/, dependencies: ['game'], workers: 1 },
  ],
  webServer: servedByXtask
    ? undefined
    : {
        command: 'cargo xtask serve --port 8123',
        url: baseURL,
        reuseExistingServer: true,
        timeout: 600_000,
      },
});
