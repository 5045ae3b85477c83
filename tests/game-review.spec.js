// Issue 23 end to end: the game review in the Moves tab. A game is reviewed
// by the worker on demand and at its end; the move list marks each move,
// the detail gives the better move and its line, the graph jumps to a move,
// each player gets a summary, and the review is kept with the game in the
// history (back after a reload and a replay). The page stays responsive
// while a long game is reviewed.

import { readFileSync } from 'node:fs';
import { test, expect } from './support/fixtures.js';
import { reportFigures } from './support/figures.js';
import { open, choose, showTab, expectMarks, playAll } from './game-helpers.js';

// Playwright's trace recorder snapshots the page after each step, which is
// itself a long task on a loaded machine (see ponder.spec.js): the timed
// test below must see only the page's own.
test.use({ trace: 'off' });

const reviewHost = (page) => page.locator('#game-review');
const plyButton = (page, ply) => page.locator(`.move-list button[data-ply="${ply}"]`);

/** Waits for the review on the board to be done. */
async function reviewDone(page, timeout = 30_000) {
  await expect(reviewHost(page)).toHaveAttribute('data-review', 'done', { timeout });
}

// X a1, O b2, X c3, O c1 (the corner: X forks), X a3. The fork is O's
// blunder; every other move keeps the game where it was.
const PLANTED = 'classic:a1b2c3c1a3';

test('a planted blunder is marked, explained and one click from the better move', async ({ page }) => {
  await open(page, `./#${PLANTED}`);
  await showTab(page, 'moves');
  await expect(reviewHost(page)).toHaveAttribute('data-review', 'none');
  await page.getByTestId('review-start').click();
  await reviewDone(page);

  // The move list: c1 (move 4) is a blunder, with its glyph and its label.
  const blunder = plyButton(page, 4);
  await expect(blunder).toHaveAttribute('data-mark', 'blunder');
  await expect(blunder).toHaveText('c1??');
  await expect(blunder).toHaveAttribute('aria-label', /c1, Blunder$/);
  for (const ply of [1, 2, 3, 5]) {
    await expect(plyButton(page, ply)).toHaveAttribute('data-mark', /^(best|good)$/);
  }

  // The summary: O made the one blunder, X none.
  const summary = page.getByTestId('review-summary');
  const row = (side) => summary.locator(`tr[data-side="${side}"] td`);
  await expect(row('o').nth(5)).toHaveText('1');
  await expect(row('x').nth(5)).toHaveText('0');
  const accuracy = async (side) => parseFloat(await row(side).first().textContent());
  expect(await accuracy('x')).toBeGreaterThan(await accuracy('o'));

  // The detail of the blunder: its loss, the engine's move and line.
  await blunder.click();
  const detail = page.getByTestId('review-detail');
  await expect(detail).toContainText('2… c1: Blunder (−');
  await expect(detail).toContainText('Best was ');
  const best = (await detail.textContent()).match(/Best was ([a-c][1-3])/)[1];
  expect(best).not.toBe('c1');
  // One click shows the position before it, where the better move was.
  await page.getByTestId('review-before').click();
  await expectMarks(page, 3);
  await expect(plyButton(page, 3)).toHaveAttribute('aria-current', 'step');
  await expect(detail).toContainText('c1: Blunder');
  await page.getByTestId('review-before').click();
  await expectMarks(page, 4);

  // The graph: a click at its left end shows the start, at its right end the last move.
  const graph = page.getByTestId('eval-graph');
  const clickAt = async (share) => {
    const box = await graph.boundingBox();
    await graph.click({ position: { x: box.width * share, y: box.height / 2 } });
  };
  await clickAt(0.03);
  await expectMarks(page, 0);
  await clickAt(0.97);
  await expectMarks(page, 5);
  await clickAt(0.5);
  await expectMarks(page, 3);
});

test('a game is reviewed at its end and the review is kept with it in the history', async ({ page }) => {
  await open(page);
  await choose(page, { kind: 'classic', mode: 'human' });
  // X a1, O b1, X a2, O b2, X a3: X wins down the first column.
  await playAll(page, [[0, 0], [0, 1], [0, 3], [0, 4], [0, 6]]);
  await reviewDone(page);
  // O's b1 (an edge against the corner) loses: X forces the win from there.
  await expect(plyButton(page, 2)).toHaveAttribute('data-mark', 'blunder');
  const marks = await page.locator('.move-list button[data-ply]').evaluateAll((bs) => bs.map((b) => b.dataset.mark));

  // Reloaded, the finished game comes back with its review, not reviewed again.
  await page.reload();
  await expect(page.locator('html')).toHaveAttribute('data-ready', 'true');
  await expect(reviewHost(page)).toHaveAttribute('data-review', 'done');
  expect(await page.locator('.move-list button[data-ply]').evaluateAll((bs) => bs.map((b) => b.dataset.mark))).toEqual(marks);

  // Replayed from the history after another game, it still has it.
  await page.locator('#btn-new').click();
  await expect(reviewHost(page)).toHaveAttribute('data-review', 'none');
  await showTab(page, 'stats');
  await page.locator('#stats-panel button.replay-button').first().click();
  await expect(reviewHost(page)).toHaveAttribute('data-review', 'done');
  expect(await page.locator('.move-list button[data-ply]').evaluateAll((bs) => bs.map((b) => b.dataset.mark))).toEqual(marks);
});

test('a review in progress shows its progress, can be stopped, and gives way to a new game', async ({ page }) => {
  const record = readFileSync(new URL('./support/game-59.txt', import.meta.url), 'utf8').trim();
  await open(page, `./#${record}`);
  await showTab(page, 'moves');
  await page.getByTestId('review-start').click();
  const bar = page.getByTestId('review-progress');
  await expect(bar).toBeVisible();
  await expect.poll(async () => Number(await bar.getAttribute('value'))).toBeGreaterThan(2);
  expect(await bar.getAttribute('max')).toBe('59');
  // Marks appear as the review goes.
  await expect(plyButton(page, 1)).toHaveAttribute('data-mark', /./);
  await page.getByTestId('review-stop').click();
  await expect(reviewHost(page)).toHaveAttribute('data-review', 'stopped');
  await expect(page.getByTestId('review-start')).toHaveText('Review again');

  await page.getByTestId('review-start').click();
  await expect(reviewHost(page)).toHaveAttribute('data-review', 'running');
  await page.locator('#btn-new').click();
  const dialog = page.locator('dialog[open]');
  if (await dialog.count()) await dialog.locator('[data-answer="ok"]').click();
  await expect(reviewHost(page)).toHaveAttribute('data-review', 'none');
  await expect(page.locator('.move-list button[data-mark]')).toHaveCount(0);
});

test('the page stays responsive while a 59-move game is reviewed @quiet', async ({ page }) => {
  const record = readFileSync(new URL('./support/game-59.txt', import.meta.url), 'utf8').trim();
  await page.addInitScript(() => {
    window.longTasks = [];
    new PerformanceObserver((list) => {
      for (const entry of list.getEntries()) window.longTasks.push(entry.duration);
    }).observe({ type: 'longtask' });
    // The worker's replies by type: the review's moves must come from it.
    window.fromWorker = {};
    const PageWorker = window.Worker;
    window.Worker = class extends PageWorker {
      constructor(...args) {
        super(...args);
        this.addEventListener('message', (event) => {
          const type = event.data?.type;
          window.fromWorker[type] = (window.fromWorker[type] ?? 0) + 1;
        });
      }
    };
  });
  await open(page, `./#${record}`);
  await showTab(page, 'moves');
  await page.evaluate(() => {
    window.longTasks = [];
  });
  const started = Date.now();
  await page.getByTestId('review-start').click();
  await reviewDone(page, 60_000);
  const ms = Date.now() - started;
  const longest = await page.evaluate(() => Math.max(0, ...window.longTasks));
  reportFigures(test.info(), { reviewMs: ms, longestTaskMs: Math.round(longest) });
  // The review searched in the worker (the page's wasm has no search):
  // every move came back from it, then both summaries.
  const replies = await page.evaluate(() => window.fromWorker);
  expect(replies.reviewMove).toBe(59);
  expect(replies.reviewed).toBe(1);
  await expect(page.locator('.move-list button[data-mark]')).toHaveCount(59);
  // The same accuracy as `uttt analyse --game` gives for this record: the
  // review is the terminal's, node for node.
  await expect(page.getByTestId('review-summary')).toContainText('96.5%');
});
