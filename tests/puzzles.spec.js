// Issue 23 end to end: puzzles from your own games. A finished game is
// reviewed; the position where the mover had one saving move and played
// another becomes a puzzle under the review: the board's own clicks answer
// it (a wrong try is told and retried, nothing is played), the answer can
// be shown, and what was done with it is kept with the game in the history.

import { test, expect } from './support/fixtures.js';
import { open, choose, showTab, cell, expectMarks, playAll } from './game-helpers.js';

const puzzles = (page) => page.getByTestId('review-puzzles');
const status = (page) => page.locator('#status');
const moveButtons = (page) => page.locator('.move-list button[data-ply]');

/**
 * Plays classic X a1, O a2, X b2, O c2, X c3 (X wins on the diagonal) by
 * two people and waits for its review. After a1, only the centre (b2)
 * saves O: a2 was the miss, so this is the game's one puzzle.
 */
async function playReviewedGame(page) {
  await open(page);
  await choose(page, { kind: 'classic', mode: 'human' });
  await playAll(page, [[0, 0], [0, 3], [0, 4], [0, 5], [0, 8]]);
  await expect(page.locator('#game-review')).toHaveAttribute('data-review', 'done', { timeout: 30_000 });
  await showTab(page, 'moves');
}

test('a puzzle is answered on the board: a wrong try, a retry, the answer; kept after a reload', async ({ page }) => {
  await playReviewedGame(page);
  await expect(puzzles(page)).toHaveAttribute('data-count', '1');
  await expect(puzzles(page)).toHaveAttribute('data-puzzle', 'none');
  const start = page.getByTestId('puzzle-start');
  await expect(start).toHaveAttribute('data-ply', '1');
  await expect(start).toHaveAttribute('data-solved', 'false');
  await expect(start).toHaveText('1… O to save the game');

  await start.click();
  await expect(puzzles(page)).toHaveAttribute('data-puzzle', 'open');
  await expect(status(page)).toHaveText('Puzzle: O to move. Find the one move that saves the game.');
  await expectMarks(page, 1);
  // Neither a hint nor the evaluation gives the answer away.
  await expect(page.locator('#btn-hint')).toBeDisabled();

  // A taken cell is refused as in play, and is not a try.
  await cell(page, 0, 0).click();
  await expect(status(page)).toHaveText('That cell is already taken.');
  await expect(page.getByTestId('puzzle-text')).not.toContainText('Tries');
  // A legal move that is not the answer: told, counted, not played.
  await cell(page, 0, 8).click();
  await expect(status(page)).toHaveText('Not that one. Try again, or show the answer.');
  await expect(page.getByTestId('puzzle-text')).toContainText('Tries so far: 1.');
  await expectMarks(page, 1);
  await expect(puzzles(page)).toHaveAttribute('data-puzzle', 'open');

  // The answer: solved, its line shown and its cell ringed; the game is unchanged.
  await cell(page, 0, 4).click();
  await expect(puzzles(page)).toHaveAttribute('data-puzzle', 'solved');
  await expect(page.getByTestId('puzzle-text')).toHaveText(/^Solved: b2 is the move\. The line: b2( [a-c][1-3])*\.$/);
  await expect(page.getByTestId('puzzle-card')).toContainText('In the game, a2 was played.');
  await expect(cell(page, 0, 4)).toHaveClass(/puzzle-answer/);
  await expect(status(page)).toHaveText('Puzzle solved: b2.');
  await expectMarks(page, 1);
  await expect(moveButtons(page)).toHaveCount(5);
  await expect(start).toHaveAttribute('data-solved', 'true');
  // A solved puzzle takes no more clicks; leaving it shows the game again.
  await cell(page, 0, 8).click();
  await expect(status(page)).toHaveText('This puzzle is done: leave it to play on.');
  await page.getByTestId('puzzle-leave').click();
  await expect(puzzles(page)).toHaveAttribute('data-puzzle', 'none');
  await expectMarks(page, 5);
  await expect(page.locator('#board .puzzle-answer')).toHaveCount(0);

  // Reloaded, the game keeps its puzzle, solved.
  await page.reload();
  await expect(page.locator('html')).toHaveAttribute('data-ready', 'true');
  await showTab(page, 'moves');
  await expect(page.getByTestId('puzzle-start')).toHaveAttribute('data-solved', 'true');
  await expect(page.getByTestId('puzzle-start')).toContainText('solved');
});

test('a puzzle can be shown, tried again, and left by moving through the game', async ({ page }) => {
  await playReviewedGame(page);
  const start = page.getByTestId('puzzle-start');
  await start.click();
  await page.getByTestId('puzzle-reveal').click();
  await expect(puzzles(page)).toHaveAttribute('data-puzzle', 'revealed');
  await expect(page.getByTestId('puzzle-text')).toHaveText(/^The move was b2\. The line: b2/);
  await expect(cell(page, 0, 4)).toHaveClass(/puzzle-answer/);
  await expect(start).toHaveAttribute('data-status', 'revealed');
  await expect(start).toHaveAttribute('data-solved', 'false');

  // Tried again and solved, it counts as solved.
  await start.click();
  await expect(puzzles(page)).toHaveAttribute('data-puzzle', 'open');
  await expect(page.locator('#board .puzzle-answer')).toHaveCount(0);
  await cell(page, 0, 4).click();
  await expect(start).toHaveAttribute('data-solved', 'true');

  // Showing another position of the game ends the puzzle.
  await start.click();
  await expect(puzzles(page)).toHaveAttribute('data-puzzle', 'open');
  await moveButtons(page).nth(2).click();
  await expect(puzzles(page)).toHaveAttribute('data-puzzle', 'none');
  await expectMarks(page, 3);
  await expect(page.locator('#btn-hint')).toBeEnabled();
});
