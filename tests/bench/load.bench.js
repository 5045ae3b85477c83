// A first visit's time to a playable board and page, for `cargo xtask bench --page`
// only (the `bench` project exists when UTTT_BENCH is set): quiet, and as on
// a slow phone, Lighthouse's mobile profile (CPU 4x slower, 150 ms latency,
// 1.6 Mbps down). Every test has a fresh browser context: nothing cached.

import { test } from '../support/fixtures.js';
import { reportFigures } from '../support/figures.js';
import { open } from '../game-helpers.js';

/** Loads the page and reports when its board took taps, and when every pane around it did. */
async function firstVisit(page, testInfo) {
  await open(page);
  const figures = await page.evaluate(() => {
    const transferred = performance
      .getEntriesByType('resource')
      .reduce((sum, entry) => sum + (entry.transferSize || 0), 0);
    return {
      boardMs: Math.round(performance.getEntriesByName('uttt:board')[0].startTime),
      playableMs: Math.round(performance.getEntriesByName('uttt:playable')[0].startTime),
      transferredBytes: transferred,
    };
  });
  reportFigures(testInfo, figures);
}

test('a first visit', async ({ page }, testInfo) => {
  await firstVisit(page, testInfo);
});

test('a first visit on a slow phone', async ({ page }, testInfo) => {
  const cdp = await page.context().newCDPSession(page);
  await cdp.send('Network.enable');
  await cdp.send('Network.emulateNetworkConditions', {
    offline: false,
    latency: 150,
    downloadThroughput: (1.6 * 1024 * 1024) / 8,
    uploadThroughput: (750 * 1024) / 8,
  });
  await cdp.send('Emulation.setCPUThrottlingRate', { rate: 4 });
  await firstVisit(page, testInfo);
});
