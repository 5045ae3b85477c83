// The first-visit tutorial (www/tutorial.js): it opens by itself on a fresh
// profile, the learner plays each step on the tutorial's own board (a wrong
// click is refused with the core's reason), finishing or skipping is
// remembered, the Help button and the ? key bring it back, and while it is
// open the page's shortcuts stand still.

import { test, expect } from './support/fixtures.js';

// The shared fixture marks the tutorial as seen for every other spec; this
// one wants the first visit.
test.use({ tutorial: true });

const dialog = (page) => page.getByTestId('tutorial');
const count = (page) => page.getByTestId('tutorial-count');
const message = (page) => page.getByTestId('tutorial-message');
const task = (page) => page.getByTestId('tutorial-task');
const next = (page) => page.getByTestId('tutorial-next');
const tutorialBoard = (page) => page.locator('#tutorial-board');
const cell = (page, board, index) =>
  page.locator(`#tutorial-board button[data-board="${board}"][data-cell="${index}"]`);
const small = (page, board) => page.locator(`#tutorial-board .small[data-board="${board}"]`);
const stored = (page) => page.evaluate(() => localStorage.getItem('uttt.tutorial'));

/** Loads the page and waits until it is ready (the tutorial, if any, opens then). */
async function open(page) {
  await page.goto('./');
  await expect(page.locator('html')).toHaveAttribute('data-ready', 'true');
}

test('a first visit opens the tutorial; the learner plays every step, and it is not shown again', async ({ page }) => {
  // Five steps, a scripted reply and a reload: more than the default budget on a busy machine.
  test.setTimeout(60_000);
  await open(page);
  await expect(dialog(page)).toBeVisible();
  await expect(count(page)).toHaveText('1 / 5');
  // Its board is its own, outside #board: the page's board keeps its 81 cells.
  await expect(page.locator('#board button[data-cell]')).toHaveCount(81);
  await expect(page.locator('#tutorial-board button[data-board][data-cell]')).toHaveCount(81);
  await expect(dialog(page).locator('#board')).toHaveCount(0);

  // a. Sending: after e5 e4, X must play in the top board.
  await expect(small(page, 1)).toHaveAttribute('data-playable', 'true');
  await expect(small(page, 0)).toHaveAttribute('data-playable', 'false');
  await expect(message(page)).toBeHidden();
  await cell(page, 0, 0).click();
  await expect(message(page)).toHaveText('Not there: X must play in the top board.');
  await expect(cell(page, 0, 0)).not.toHaveAttribute('data-mark', /./);
  // The top-right cell of the top board sends O to the top-right board.
  await cell(page, 1, 2).click();
  await expect(cell(page, 1, 2)).toHaveAttribute('data-mark', 'x');
  await expect(tutorialBoard(page)).toHaveAttribute('data-turn', 'o');
  await expect(small(page, 2)).toHaveAttribute('data-playable', 'true');
  await expect(small(page, 1)).toHaveAttribute('data-playable', 'false');
  await expect(task(page)).toHaveText(/top-right cell, so O must now play in the top-right board/);
  await expect(message(page)).toBeHidden();
  await next(page).click();

  // b. A won board: X has a1 and b1 and must play in the top-left board.
  await expect(count(page)).toHaveText('2 / 5');
  await expect(small(page, 0)).toHaveAttribute('data-playable', 'true');
  await cell(page, 0, 4).click();
  await expect(message(page)).toHaveText('That cell is already taken.');
  // Legal, but not three in a row: taken back and explained.
  await cell(page, 0, 5).click();
  await expect(message(page)).toContainText('not three in a row');
  await expect(cell(page, 0, 5)).not.toHaveAttribute('data-mark', /./);
  await expect(tutorialBoard(page)).toHaveAttribute('data-turn', 'x');
  await cell(page, 0, 2).click();
  await expect(small(page, 0)).toHaveAttribute('data-winner', 'x');
  await expect(small(page, 0).locator('.big-mark')).toHaveAttribute('data-mark', 'x');
  await expect(task(page)).toContainText('the top-left board is yours');
  await next(page).click();

  // c. A free move: O's scripted g1 sends X to the top-left board, already won.
  await expect(count(page)).toHaveText('3 / 5');
  await expect(cell(page, 2, 0)).toHaveAttribute('data-mark', 'o');
  await expect(tutorialBoard(page)).toHaveAttribute('data-free', 'true');
  await expect(tutorialBoard(page)).toHaveAttribute('data-interactive', 'true');
  await expect(small(page, 0)).toHaveAttribute('data-playable', 'false');
  for (const b of [1, 2, 3, 4, 5, 6, 7, 8]) await expect(small(page, b)).toHaveAttribute('data-playable', 'true');
  await cell(page, 0, 3).click();
  await expect(message(page)).toHaveText('That board is already decided; pick an open one.');
  await cell(page, 6, 4).click();
  await expect(cell(page, 6, 4)).toHaveAttribute('data-mark', 'x');
  await expect(task(page)).toContainText('O must now play in the centre board');
  await next(page).click();

  // d. Winning the game: the bottom-right board completes the diagonal.
  await expect(count(page)).toHaveText('4 / 5');
  await expect(small(page, 8)).toHaveAttribute('data-playable', 'true');
  await cell(page, 8, 1).click();
  await expect(message(page)).toContainText('does not win the bottom-right board');
  await expect(cell(page, 8, 1)).not.toHaveAttribute('data-mark', /./);
  await cell(page, 8, 6).click();
  await expect(tutorialBoard(page)).toHaveAttribute('data-result', 'x');
  for (const b of [0, 4, 8]) await expect(small(page, b)).toHaveAttribute('data-line', '');
  await expect(task(page)).toContainText('you win the game');
  await next(page).click();

  // e. The last card: coordinates and keys; Play closes.
  await expect(count(page)).toHaveText('5 / 5');
  await expect(dialog(page)).toContainText('e5');
  await expect(dialog(page)).toContainText('Ctrl+Z');
  await expect(next(page)).toHaveText('Play');
  await next(page).click();
  await expect(dialog(page)).toHaveCount(0);
  expect(await stored(page)).toBe('done');

  // The main game was left alone: still the empty start position.
  await expect(page.locator('#board button[data-mark]')).toHaveCount(0);

  await page.reload();
  await expect(page.locator('html')).toHaveAttribute('data-ready', 'true');
  await expect(page.locator('#board button[data-cell]')).toHaveCount(81);
  await expect(dialog(page)).toHaveCount(0);
});

test('Back returns to the previous step from its start', async ({ page }) => {
  await open(page);
  await cell(page, 1, 4).click();
  await next(page).click();
  await expect(count(page)).toHaveText('2 / 5');
  await page.getByTestId('tutorial-back').click();
  await expect(count(page)).toHaveText('1 / 5');
  await expect(cell(page, 1, 4)).not.toHaveAttribute('data-mark', /./);
  await expect(tutorialBoard(page)).toHaveAttribute('data-turn', 'x');
});

test('Skip closes the tutorial for good', async ({ page }) => {
  await open(page);
  await expect(dialog(page)).toBeVisible();
  await page.getByTestId('tutorial-skip').click();
  await expect(dialog(page)).toHaveCount(0);
  expect(await stored(page)).toBe('done');
  await page.reload();
  await expect(page.locator('html')).toHaveAttribute('data-ready', 'true');
  await expect(page.locator('#board button[data-cell]')).toHaveCount(81);
  await expect(dialog(page)).toHaveCount(0);
});

test('the Help button and the ? key reopen it; Escape closes it', async ({ page }) => {
  await open(page);
  await page.getByTestId('tutorial-skip').click();
  await expect(dialog(page)).toHaveCount(0);

  await page.locator('#btn-help').click();
  await expect(dialog(page)).toBeVisible();
  await expect(count(page)).toHaveText('1 / 5');
  await page.keyboard.press('Escape');
  await expect(dialog(page)).toHaveCount(0);
  await expect(page.locator('#btn-help')).toBeFocused();

  await page.locator('body').press('?');
  await expect(dialog(page)).toBeVisible();
  // Its cells can be played from the keyboard too: arrows move, Enter plays.
  await cell(page, 1, 4).focus();
  await page.keyboard.press('ArrowRight');
  await expect(cell(page, 1, 5)).toBeFocused();
  await page.keyboard.press('Enter');
  await expect(cell(page, 1, 5)).toHaveAttribute('data-mark', 'x');
  await expect(next(page)).toBeFocused();
  await page.getByTestId('tutorial-skip').click();
  await expect(dialog(page)).toHaveCount(0);
});

test('while it is open, N does not start a new game on the main board', async ({ page }) => {
  await open(page);
  await page.getByTestId('tutorial-skip').click();
  // Two players, so no AI reply races the test; then one move on the main board.
  await page.locator('#tab-game').click();
  await page.locator('#set-mode').selectOption('human');
  const mainCell = page.locator('#board button[data-board="4"][data-cell="4"]');
  await mainCell.click();
  await expect(mainCell).toHaveAttribute('data-mark', 'x');

  await page.locator('#btn-help').click();
  await expect(dialog(page)).toBeVisible();
  await page.keyboard.press('n');
  await page.keyboard.press('u');
  // Nothing asked, nothing changed: the tutorial is the only dialog.
  await expect(page.locator('dialog[open]')).toHaveCount(1);
  await page.getByTestId('tutorial-skip').click();
  await expect(page.locator('dialog[open]')).toHaveCount(0);
  await expect(mainCell).toHaveAttribute('data-mark', 'x');
  await expect(page.locator('#board button[data-mark]')).toHaveCount(1);
});
