// The page's size and speed in headless Chromium: wasm size (raw and gzip),
// navigation to a playable board, and the longest main-thread task while the
// AI thinks. The bounds are those only a defect crosses; the figures go to
// `cargo xtask bench --page`.

import { test, expect } from './support/fixtures.js';
import { reportFigures, median } from './support/figures.js';
import { open, choose, timedMove } from './game-helpers.js';

// @quiet: measured alone after the other specs (see playwright.config.js),
// so the figures are the page's, not those of another spec's search.
test('wasm size, time to a playable board, longest task while the AI thinks', { tag: '@quiet' }, async ({ page }, testInfo) => {
  await open(page);
  const sizes = await page.evaluate(async () => {
    const sizeOf = async (name) => {
      const response = await fetch(new URL(`www/pkg/${name}_bg.wasm`, document.baseURI));
      const raw = await response.arrayBuffer();
      const gz = await new Response(new Blob([raw]).stream().pipeThrough(new CompressionStream('gzip'))).arrayBuffer();
      return { raw: raw.byteLength, gzip: gz.byteLength };
    };
    return { page: await sizeOf('uttt_page'), worker: await sizeOf('uttt_worker') };
  });

  const loads = [];
  for (let i = 0; i < 5; i += 1) {
    await page.reload();
    await expect(page.locator('html')).toHaveAttribute('data-ready', 'true');
    loads.push(await page.evaluate(() => performance.getEntriesByName('uttt:playable')[0].startTime));
  }

  await choose(page, { level: 'master' });
  await page.evaluate(() => {
    window.__longest = 0;
    new PerformanceObserver((list) => {
      for (const entry of list.getEntries()) window.__longest = Math.max(window.__longest, entry.duration);
    }).observe({ type: 'longtask' });
  });
  const aiMs = await timedMove(page, 4, 4, 2);
  const longest = await page.evaluate(() => window.__longest);

  reportFigures(testInfo, {
    pageWasmRawBytes: sizes.page.raw,
    pageWasmGzipBytes: sizes.page.gzip,
    workerWasmRawBytes: sizes.worker.raw,
    workerWasmGzipBytes: sizes.worker.gzip,
    playableMs: Math.round(median(loads)),
    masterReplyMs: aiMs,
    longestTaskWhileThinkingMs: longest,
  });

  expect(sizes.page.raw + sizes.worker.raw).toBeLessThan(1_000_000);
  expect(median(loads)).toBeLessThan(5000);
  // 0 means no task over 50 ms happened at all. A search on the main thread
  // would show as one task of about the whole 3 s budget.
  expect(longest).toBeLessThan(1000);
});
