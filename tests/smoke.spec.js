// Smoke test of the whole pipeline: the built site loads from the dist
// folder under a sub-path, the wasm module draws the board, and a move goes
// through the wasm API (legal: accepted; illegal: refused with a message).

import { test, expect } from './support/fixtures.js';

const cell = (page, board, index) =>
  page.locator(`button[data-board="${board}"][data-cell="${index}"]`);
const smallBoard = (page, board) =>
  page.locator(`[data-board="${board}"][data-playable]:not([data-cell])`);

/** Opens the page in two-player mode, so no AI move races the test. */
async function openTwoPlayerGame(page) {
  await page.goto('./');
  await expect(page.locator('button[data-board][data-cell]')).toHaveCount(81);
  const mode = page.locator('#set-mode');
  if ((await mode.count()) > 0 && (await mode.inputValue()) !== 'human') {
    await page.locator('#tab-game').click();
    await mode.selectOption('human');
  }
  await expect(smallBoard(page, 0)).toHaveAttribute('data-playable', 'true');
}

test('the page loads and draws the 9x9 board from the wasm module', async ({ page }) => {
  await page.goto('./');
  await expect(page.locator('button[data-board][data-cell]')).toHaveCount(81);
  await expect(page.locator('[data-board][data-playable]:not([data-cell])')).toHaveCount(9);
  // At the start every board is open to X.
  await expect(page.locator('[data-playable="true"]:not([data-cell])')).toHaveCount(9);
  await expect(page.getByRole('status')).not.toBeEmpty();
});

test('a legal click is accepted and an illegal one is refused with a message', async ({ page }) => {
  await openTwoPlayerGame(page);
  const status = page.getByRole('status');

  // X takes the top-left cell of the centre board, which sends O to the
  // top-left board: only that board stays playable.
  const first = cell(page, 4, 0);
  const emptyLabel = await first.getAttribute('aria-label');
  await first.click();
  await expect(first).not.toHaveAttribute('aria-label', emptyLabel);
  await expect(smallBoard(page, 0)).toHaveAttribute('data-playable', 'true');
  await expect(smallBoard(page, 4)).toHaveAttribute('data-playable', 'false');
  const statusAfterMove = await status.textContent();

  // O tries the centre board instead: refused, the cell stays empty, and
  // the status line says why.
  const wrong = cell(page, 4, 1);
  const wrongLabel = await wrong.getAttribute('aria-label');
  await wrong.click({ force: true });
  await expect(status).not.toHaveText(statusAfterMove);
  await expect(status).not.toBeEmpty();
  await expect(wrong).toHaveAttribute('aria-label', wrongLabel);
  await expect(smallBoard(page, 0)).toHaveAttribute('data-playable', 'true');
});

test.describe('the shared fixture', () => {
  // These tests are expected to fail: they prove that a console error or an
  // uncaught exception fails a test even when every assertion in it passes.
  // (Were the fixture broken, they would pass, and `test.fail` reports that.)
  test.fail();
  test('fails a test that logs a console error', async ({ page }) => {
    await page.setContent('<p>no errors yet</p>');
    await page.evaluate(() => console.error('deliberate error from the smoke test'));
    await expect(page.locator('p')).toHaveText('no errors yet');
  });

  test('fails a test whose page throws an uncaught exception', async ({ page }) => {
    await page.setContent('<p>no errors yet</p>');
    const thrown = page.waitForEvent('pageerror');
    await page.evaluate(() => setTimeout(() => { throw new Error('deliberate uncaught error'); }, 0));
    await thrown;
    await expect(page.locator('p')).toHaveText('no errors yet');
  });
});
