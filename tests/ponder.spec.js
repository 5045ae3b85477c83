// Pondering in the browser: after its move, Hard thinks on in the worker
// while the person thinks, in slices that return to the worker's event loop,
// so the person's move is taken at once and the search carries on from the
// pondered depth. Figures for the note are attached and printed.

import { test, expect } from './support/fixtures.js';
import { reportFigures } from './support/figures.js';
import { open, choose, cell, expectMarks, aiIdle, showTab } from './game-helpers.js';

// Without Playwright's trace: its recorder snapshots the DOM in the page
// after every action, a main-thread task of its own that would count as the
// page's in the longest-task figure. The tests run alone (@quiet), so the
// depths reached in a given time are the worker's, not another spec's.
test.use({ trace: 'off' });

/** How long the person "thinks" in these tests. */
const THINK_MS = 2500;

// @quiet: depths in a given time, measured alone after the other specs.
test('the worker ponders in slices: the expected reply carries on deeper, a new request is taken at once', { tag: '@quiet' }, async ({ page }, testInfo) => {
  await open(page);
  const figures = await page.evaluate(async (thinkMs) => {
    const spawn = async () => {
      const worker = new Worker(new URL('www/worker.js', document.baseURI), { type: 'module' });
      await next(worker, (m) => m.type === 'ready');
      return worker;
    };
    function next(worker, wanted) {
      return new Promise((resolve) => {
        const on = (event) => {
          if (!wanted(event.data)) return;
          worker.removeEventListener('message', on);
          resolve({ message: event.data, at: performance.now() });
        };
        worker.addEventListener('message', on);
      });
    }
    /** Searches `text` at Hard; the answer, its depths reported and when 'received' came. */
    async function search(worker, id, text, { ponder = false, budgetMs = 300 } = {}) {
      const depths = [];
      const on = (event) => {
        if (event.data.type === 'progress' && event.data.id === id) depths.push(event.data.report.depth);
      };
      worker.addEventListener('message', on);
      const received = next(worker, (m) => m.type === 'received' && m.id === id);
      const done = next(worker, (m) => (m.type === 'result' || m.type === 'error') && m.id === id);
      const sent = performance.now();
      worker.postMessage({ type: 'search', id, text, level: 'hard', budgetMs, ponder });
      const ack = await received;
      const end = await done;
      worker.removeEventListener('message', on);
      if (end.message.type !== 'result') throw new Error(JSON.stringify(end.message));
      return { reply: end.message.reply, depths, ackMs: ack.at - sent };
    }
    const pause = (ms) => new Promise((resolve) => setTimeout(resolve, ms));

    const pondering = await spawn();
    const first = await search(pondering, 1, 'ultimate-standard:e5', { ponder: true });
    const expected = `ultimate-standard:e5${first.reply.pv[0]}${first.reply.pv[1]}`;
    await pause(thinkMs);
    const carried = await search(pondering, 2, expected, { ponder: true });
    // Pondering again: another position's request is taken at once too.
    await pause(500);
    const other = await search(pondering, 3, 'ultimate-standard:a1', { budgetMs: 100 });
    // A stop during a search is answered under the search's id, and the
    // engine searches on afterwards.
    const stopped = next(pondering, (m) => m.type === 'error' && m.id === 4);
    pondering.postMessage({ type: 'search', id: 4, text: 'ultimate-standard:e5', level: 'hard', budgetMs: 60000 });
    await pause(200);
    const stopSent = performance.now();
    pondering.postMessage({ type: 'stop' });
    const stop = await stopped;
    pondering.terminate();

    const fresh = await spawn();
    const alone = await search(fresh, 1, expected);
    fresh.terminate();
    return {
      expected,
      ponderedDepth: carried.reply.depth,
      ponderedFirstReportedDepth: carried.depths[0] ?? null,
      freshDepth: alone.reply.depth,
      freshFirstReportedDepth: alone.depths[0] ?? null,
      ackWhilePonderingMs: [carried.ackMs, other.ackMs],
      stopAnsweredMs: stop.at - stopSent,
      stopCode: stop.message.code,
      otherFirstDepth: other.depths[0] ?? null,
    };
  }, THINK_MS);
  reportFigures(testInfo, {
    ponderedDepth: figures.ponderedDepth,
    freshDepth: figures.freshDepth,
    ackWhilePonderingMs: Math.max(...figures.ackWhilePonderingMs),
    stopAnsweredMs: figures.stopAnsweredMs,
  });

  expect(figures.freshFirstReportedDepth).toBe(1);
  // The pondered search went on from where the pondering got: deeper in the
  // same 300 ms, and it never repeated the first depths.
  expect(figures.ponderedDepth).toBeGreaterThan(figures.freshDepth);
  expect(figures.ponderedFirstReportedDepth ?? figures.ponderedDepth).toBeGreaterThan(4);
  expect(figures.otherFirstDepth).toBe(1);
  expect(figures.stopCode).toBe('cancelled');
  // Slices are 10 ms: a worker that searched without returning to its loop
  // would take the request only after seconds.
  for (const ms of [...figures.ackWhilePonderingMs, figures.stopAnsweredMs]) expect(ms).toBeLessThan(1500);
});

/** Records the AI's progress reports and the longest main-thread task. */
async function watchPage(page) {
  await page.evaluate(async () => {
    window.__reports = [];
    window.__longest = 0;
    const { subscribe } = await (await import(new URL('www/main.js', document.baseURI).href)).booted;
    subscribe((change) => {
      if (change.cause === 'progress') window.__reports.push(change.report);
    });
    new PerformanceObserver((list) => {
      for (const entry of list.getEntries()) window.__longest = Math.max(window.__longest, entry.duration);
    }).observe({ type: 'longtask' });
  });
}

/**
 * Plays e5 against Hard, waits for its reply, thinks THINK_MS, and plays the
 * reply Hard expected (the second move of its answer, the last report). The
 * depth first reported by Hard's next search, and the longest main-thread
 * task meanwhile.
 */
async function playTheExpectedReply(page) {
  await cell(page, 4, 4).click();
  await expectMarks(page, 2, { timeout: 10_000 });
  await aiIdle(page);
  const expected = await page.evaluate(() => window.__reports.at(-1).pv[1]);
  await page.waitForTimeout(THINK_MS);
  // Notation: a column letter a-i and a row digit 1-9 (top to bottom) on
  // the 9x9 grid.
  const col = expected.charCodeAt(0) - 97;
  const row = Number(expected[1]) - 1;
  const small = Math.floor(row / 3) * 3 + Math.floor(col / 3);
  const inner = (row % 3) * 3 + (col % 3);
  await page.evaluate(() => {
    window.__reports = [];
  });
  await cell(page, small, inner).click();
  await expectMarks(page, 4, { timeout: 10_000 });
  return page.evaluate(() => ({ first: window.__reports[0]?.depth ?? null, longest: window.__longest }));
}

// @quiet: measured alone, like the first test.
test('the page ponders after Hard moves, stays responsive, and can be told not to', { tag: '@quiet' }, async ({ page }, testInfo) => {
  await open(page);
  await choose(page, { kind: 'ultimate', mode: 'ai-x', level: 'hard' });
  await showTab(page, 'game');
  await expect(page.getByTestId('ponder-toggle')).toBeChecked();
  await showTab(page, 'moves');
  await watchPage(page);
  const on = await playTheExpectedReply(page);

  await showTab(page, 'game');
  await page.getByTestId('ponder-toggle').uncheck();
  await page.reload();
  await expect(page.locator('html')).toHaveAttribute('data-ready', 'true');
  await showTab(page, 'game');
  await expect(page.getByTestId('ponder-toggle')).not.toBeChecked();
  await choose(page, { kind: 'classic' });
  await choose(page, { kind: 'ultimate' });
  await watchPage(page);
  const off = await playTheExpectedReply(page);

  const longestTaskMs = Math.max(on.longest, off.longest);
  reportFigures(testInfo, { firstDepthPondering: on.first, longestTaskMs });
  // Hard carried on from its pondering: its first report is past depth 1.
  expect(on.first).toBeGreaterThan(1);
  expect(off.first).toBe(1);
  // The search and the pondering run in the worker: the page's wasm has no
  // search code (cargo xtask build checks it), and the longest task is a
  // figure of `cargo xtask bench --page`, not a bound a busy machine crosses.
});
