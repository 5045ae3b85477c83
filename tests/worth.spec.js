// The overlay of every legal move's worth: while a person is to move, each
// legal cell shows what playing there is worth (the worker's survey), one
// best cell is marked and agrees with the bar's best line, it deepens and
// follows the position, never plays, and does not slow the AI.

import { test, expect } from './support/fixtures.js';
import { reportFigures } from './support/figures.js';
import { open, choose, cell, markCount, expectMarks, aiIdle, showTab, newGame, timedMove, setOverlay } from './game-helpers.js';

/**
 * Collects the controller's 'worth' changes in window.__worth, and in
 * window.__pairs the best cell of each with the bar's line just before it.
 */
async function watchWorth(page) {
  await page.evaluate(async () => {
    window.__worth = [];
    window.__pairs = [];
    let line = null;
    const { subscribe } = await (await import(new URL('www/main.js', document.baseURI).href)).booted;
    subscribe((change) => {
      if (change.cause === 'analysis') line = change.report.pv;
      if (change.cause !== 'worth') return;
      window.__worth.push(change.worth);
      if (change.worth) window.__pairs.push({ best: change.worth.cells[0], line });
    });
  });
}

/** What the overlay shows, read at once: legal cells, cells with a worth, the best cells and what they say, cells with a worth that are not legal. */
function overlay(page) {
  return page.locator('#board button[data-cell]').evaluateAll((cells) => ({
    legal: cells.filter((c) => c.dataset.legal === 'true').length,
    worth: cells.filter((c) => c.dataset.legal === 'true' && c.dataset.worth !== undefined && c.querySelector('.worth-label')).length,
    best: cells.filter((c) => c.hasAttribute('data-worth-best')).map((c) => [Number(c.dataset.board), Number(c.dataset.cell)]),
    bestSays: cells.filter((c) => c.hasAttribute('data-worth-best')).map((c) => [c.dataset.worthTone, c.getAttribute('aria-description')]),
    stray: cells.filter((c) => c.dataset.legal !== 'true' && (c.dataset.worth !== undefined || c.querySelector('.worth-label'))).length,
  }));
}

/** The move in notation of cell `c` of small board `b` (column a-i, row 1-9 from the top). */
function notation(b, c) {
  const col = (b % 3) * 3 + (c % 3);
  const row = Math.floor(b / 3) * 3 + Math.floor(c / 3);
  return `${String.fromCharCode(97 + col)}${row + 1}`;
}

test('every legal cell shows its worth, one is best and leads the bar, and it follows the game', async ({ page }) => {
  await open(page);
  await choose(page, { mode: 'human' });
  // Off unless chosen: nothing is drawn.
  await page.waitForTimeout(600);
  expect((await overlay(page)).worth).toBe(0);
  await watchWorth(page);
  await setOverlay(page, true);
  await expect.poll(async () => (await overlay(page)).worth, { timeout: 10_000 }).toBe(81);
  // It deepens: several reports, and the best cell is the bar's best line.
  await expect.poll(() => page.evaluate(() => window.__worth.filter(Boolean).length), { timeout: 10_000 }).toBeGreaterThan(2);
  await page.waitForTimeout(300);
  const first = await overlay(page);
  expect(first.best).toHaveLength(1);
  expect(first.stray).toBe(0);
  // Every report's best cell is the first move of the line it gave the bar.
  const pairs = await page.evaluate(() => window.__pairs);
  expect(pairs.length).toBeGreaterThan(2);
  for (const { best, line } of pairs) expect(line[0]).toBe(notation(best.board, best.cell));
  const [[tone, words]] = first.bestSays;
  expect(tone).toBe('best');
  expect(words).toMatch(/^best move, (worth \d+%|wins in \d+)$/);
  expect(await markCount(page)).toBe(0);

  // A move: the old overlay goes at once, the new one covers O's nine cells in board 4.
  await cell(page, 4, 4).click();
  await expect.poll(async () => (await overlay(page)).legal).toBe(8);
  await expect.poll(async () => (await overlay(page)).worth, { timeout: 10_000 }).toBe(8);
  const second = await overlay(page);
  expect(second.stray).toBe(0);
  expect(second.best).toHaveLength(1);
  expect(second.best[0][0]).toBe(4);
  await page.waitForTimeout(800);
  expect(await markCount(page)).toBe(1);

  // Off: everything it drew goes, and no survey reports come.
  await setOverlay(page, false);
  expect((await overlay(page)).worth).toBe(0);
  await expect(page.locator('#board .worth-label')).toHaveCount(0);
  const count = await page.evaluate(() => window.__worth.length);
  await page.waitForTimeout(800);
  expect(await page.evaluate(() => window.__worth.filter(Boolean).length)).toBeLessThanOrEqual(count);
  expect((await overlay(page)).worth).toBe(0);
});

test('in Classic, the move that holds out longest is best and every move shows its loss', async ({ page }) => {
  await open(page);
  await choose(page, { kind: 'classic', mode: 'human' });
  await setOverlay(page, true);
  // X a1, O a2, X b2: X threatens c3, which O must take; X then forks
  // with b1 (a1-b1-c1 and b1-b2-b3), so O loses either way, later at c3.
  for (const c of [0, 3, 4]) await cell(page, 0, c).click();
  await expect.poll(async () => (await overlay(page)).worth, { timeout: 10_000 }).toBe(6);
  await expect.poll(async () => (await overlay(page)).best, { timeout: 10_000 }).toEqual([[0, 8]]);
  for (const c of [1, 2, 5, 6, 7]) {
    await expect(cell(page, 0, c)).toHaveAttribute('data-mate', '-2');
    await expect(cell(page, 0, c).locator('.worth-label')).toHaveText('L1');
  }
  await expect(cell(page, 0, 8)).toHaveAttribute('data-mate', '-4');
  await expect(cell(page, 0, 8).locator('.worth-label')).toHaveText('L2');
  await expect(cell(page, 0, 8)).toHaveAttribute('aria-description', 'best move, loses in 2');
});

test('a saved choice of the older display options reads the overlay as off, and a choice is kept', async ({ page }) => {
  await page.addInitScript(() => {
    if (!sessionStorage.getItem('seeded')) {
      localStorage.setItem('uttt.review', JSON.stringify({ showEval: true, showHint: false }));
      sessionStorage.setItem('seeded', '1');
    }
  });
  await open(page);
  await showTab(page, 'game');
  await expect(page.getByTestId('worth-toggle')).not.toBeChecked();
  await expect(page.locator('#opt-show-hint')).not.toBeChecked();
  await page.getByTestId('worth-toggle').check();
  await page.reload();
  await expect(page.locator('html')).toHaveAttribute('data-ready', 'true');
  await showTab(page, 'game');
  await expect(page.getByTestId('worth-toggle')).toBeChecked();
});

// @quiet: measured alone (see playwright.config.js).
test('the overlay\'s survey gives way to the AI\'s search, and the page stays responsive', { tag: '@quiet' }, async ({ page }, testInfo) => {
  await page.addInitScript(() => {
    window.longTasks = [];
    new PerformanceObserver((list) => {
      for (const entry of list.getEntries()) window.longTasks.push(entry.duration);
    }).observe({ type: 'longtask' });
    // The worker's messages, timed: what the survey costs the AI is the
    // wait between the search request and its start, and any survey report
    // that comes while the AI searches.
    window.__messages = [];
    const PageWorker = window.Worker;
    window.Worker = class extends PageWorker {
      constructor(...args) {
        super(...args);
        this.addEventListener('message', (event) => {
          window.__messages.push({ at: performance.now(), dir: 'in', type: event.data?.type, id: event.data?.id });
        });
      }
      postMessage(message, ...rest) {
        window.__messages.push({ at: performance.now(), dir: 'out', type: message?.type, id: message?.id });
        return super.postMessage(message, ...rest);
      }
    };
  });
  await open(page);
  await choose(page, { mode: 'ai-x', level: 'hard' });
  const budgetMs = 1000;
  const reply = async () => {
    await page.evaluate(() => {
      window.__messages = [];
    });
    const ms = await timedMove(page, 4, 4, 2);
    await aiIdle(page);
    const messages = await page.evaluate(() => window.__messages);
    const sent = messages.find((m) => m.dir === 'out' && m.type === 'search');
    const at = (type) => messages.find((m) => m.dir === 'in' && m.type === type && m.id === sent.id)?.at;
    const result = at('result');
    // From `started`, which the worker sends once it took the search up: a
    // survey report it posted at the end of a slice before it read the
    // request is still on its way when the page sends it, and comes after.
    const surveyedMeanwhile = messages.filter((m) => m.dir === 'in' && m.type === 'survey' && m.at > at('started') && m.at < result).length;
    return { ms, waitMs: Math.round(at('started') - sent.at), searchMs: Math.round(result - at('started')), surveyedMeanwhile };
  };
  const off = await reply();
  await newGame(page);
  await expectMarks(page, 0);
  await page.evaluate(() => {
    window.longTasks = [];
  });
  await setOverlay(page, true);
  // The person thinks while every move of the start position is surveyed.
  await expect.poll(async () => (await overlay(page)).worth, { timeout: 10_000 }).toBe(81);
  await page.waitForTimeout(2000);
  const on = await reply();
  const longestTaskMs = Math.max(0, ...(await page.evaluate(() => window.longTasks)));
  // After the AI's answer the overlay is back, for X's cells only.
  await expect.poll(async () => (await overlay(page)).worth, { timeout: 10_000 }).toBeGreaterThan(0);
  const after = await overlay(page);
  expect(after.worth).toBe(after.legal);
  expect(after.stray).toBe(0);
  reportFigures(testInfo, {
    replyMsOverlayOff: off.ms,
    replyMsOverlayOn: on.ms,
    waitMsOverlayOn: on.waitMs,
    searchMsOverlayOn: on.searchMs,
    longestTaskMs,
  });
  // No survey report comes while the AI searches: the worker stopped
  // surveying when the search came, and took it up only after.
  expect(on.surveyedMeanwhile).toBe(0);
  // A survey that did not yield to the search would hold it back for the
  // whole survey of the position (seconds); Hard keeps to its budget.
  expect(on.waitMs).toBeLessThan(1000);
  expect(on.searchMs).toBeLessThan(budgetMs + 2000);
  // The worker took the page's search and answered it: it said started
  // and result under the search's id (the page's wasm has no search code,
  // which cargo xtask build checks). The longest task is a figure of
  // `cargo xtask bench --page`.
  expect(Number.isFinite(on.waitMs) && Number.isFinite(on.searchMs)).toBe(true);
});
