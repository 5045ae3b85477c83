// The shared Playwright fixture: every spec imports `test` and `expect`
// from here instead of '@playwright/test', so any console error, uncaught
// page error or crash fails the test that caused it.
//
//   import { test, expect } from './support/fixtures.js';
//
// A test that provokes an error on purpose lists what it expects:
//
//   test.use({ allowedErrors: [/expected failure text/] });
//
// The first-visit tutorial is marked as seen before each page loads, so it
// never covers the page; a spec about it opts in with
//
//   test.use({ tutorial: true });

import { test as base, expect } from '@playwright/test';

export { expect };

export const test = base.extend({
  /** Regular expressions for console or page errors a test expects. */
  allowedErrors: [[], { option: true }],

  /**
   * Whether the first-visit tutorial may open by itself. Off by default, so
   * its modal dialog does not cover the page in every other spec; the
   * tutorial's own spec turns it on with `test.use({ tutorial: true })`.
   */
  tutorial: [false, { option: true }],

  /** Errors seen so far in this test, as readable lines. */
  pageErrors: async ({}, use) => {
    await use([]);
  },

  page: async ({ page, allowedErrors, pageErrors, tutorial }, use) => {
    const allowed = (text) => allowedErrors.some((pattern) => pattern.test(text));
    const record = (text) => {
      if (!allowed(text)) pageErrors.push(text);
    };
    page.on('console', (message) => {
      if (message.type() === 'error') {
        const where = message.location();
        const at = where && where.url ? ` (${where.url}:${where.lineNumber})` : '';
        record(`console.error: ${message.text()}${at}`);
      }
    });
    page.on('pageerror', (error) => record(`uncaught page error: ${error.stack || error.message}`));
    page.on('crash', () => record('the page crashed'));
    // Errors thrown inside a Web Worker reach neither listener above.
    page.on('worker', (worker) => {
      worker.on('console', (message) => {
        if (message.type() === 'error') record(`worker console.error: ${message.text()}`);
      });
    });

    if (!tutorial) {
      await page.addInitScript(() => {
        try {
          localStorage.setItem('uttt.tutorial', 'done');
        } catch {
          // No storage (about:blank, or a spec that refuses it): nothing opens by itself then.
        }
      });
    }

    await use(page);

    expect(pageErrors, 'the page logged errors (console.error, uncaught exceptions or a crash)').toEqual([]);
  },
});
