// Playwright runs the end-to-end tests in tests/ against the static site.
// `cargo xtask test` builds dist/, serves it under a sub-path on a free
// port and passes the address in UTTT_BASE_URL. Run directly
// (`npx playwright test`), it starts `cargo xtask serve` itself.

import { availableParallelism } from 'node:os';
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
  // Two at least: Playwright's default, half the cores, is one on the
  // 2-core machines CI runs on, and the specs spend much of their time
  // waiting on the page.
  workers: Math.max(2, Math.floor(availableParallelism() / 2)),
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
  // The specs tagged @quiet measure the page's speed on the way to their
  // checks (see tests/support/figures.js). They run after all the others,
  // one at a time, so their figures are the page's own. The `bench` project
  // is `cargo xtask bench --page`'s alone.
  projects: [
    { name: 'game', grepInvert: /@quiet/ },
    { name: 'quiet', grep: /@quiet/, dependencies: ['game'], workers: 1 },
    ...(process.env.UTTT_BENCH ? [{ name: 'bench', testDir: 'tests/bench', testMatch: '*.bench.js', workers: 1 }] : []),
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
