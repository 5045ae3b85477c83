// A browser's games kept with the account (historysync.js, docs/api.md
// "Attached games") against the real uttt-server that serves these tests:
// a game finished and reviewed in one browser, attached in the account
// panel, is in the history of a fresh browser signed in as the same
// player once that browser attaches too, its review with it.

import { test, expect } from './support/fixtures.js';
import { open, showTab, choose, playAll, person } from './game-helpers.js';

/** Opens the account panel of `page` (on its Online tab). */
async function openAccount(page) {
  await showTab(page, 'online');
  await page.locator('[data-action="account"]').click();
  const dialog = page.locator('[data-account-dialog]');
  await expect(dialog).toBeVisible();
  return dialog;
}

test('a game attached in one browser is in the history of another signed in and attached', async ({ page, browser }) => {
  const errors = [];
  await open(page);
  await choose(page, { kind: 'classic', mode: 'human' });
  // X a1, O b1, X a2, O b2, X a3: X wins down the first column.
  await playAll(page, [[0, 0], [0, 1], [0, 3], [0, 4], [0, 6]]);
  await expect(page.locator('#game-review')).toHaveAttribute('data-review', 'done', { timeout: 30_000 });

  const dialog = await openAccount(page);
  await dialog.locator('[data-action="account-new"]').click();
  await expect(dialog.locator('[data-account-name]')).toHaveText(/^[A-Z][A-Za-z0-9_-]{2,19}$/);
  const name = await dialog.locator('[data-account-name]').textContent();
  await dialog.locator('[data-password-new]').fill('correct horse battery');
  await dialog.locator('[data-action="password-set"]').click();
  await expect(dialog.locator('[data-account-message]')).toHaveAttribute('data-tone', 'ok');

  const part = dialog.locator('[data-history-attached]');
  await expect(part).toHaveAttribute('data-history-attached', 'false');
  await expect(dialog.locator('[data-history-count]')).toHaveText('This browser has 1 finished game (1 with a review).');
  await dialog.locator('[data-action="attach-history"]').click();
  await expect(dialog.locator('[data-history-status]')).toHaveText('Your account keeps 1 game from your browsers. Only you see it.');
  await expect(part).toHaveAttribute('data-history-attached', 'true');
  await expect(dialog.locator('[data-history-sending]')).toBeChecked();
  await expect(dialog.locator('[data-action="attach-history"]')).toBeHidden();

  // Another browser, signed in with the password, has the game as its own.
  const other = await person(browser, errors);
  await open(other.page);
  const there = await openAccount(other.page);
  await there.locator('[data-signin-name]').fill(name);
  await there.locator('[data-signin-password]').fill('correct horse battery');
  await there.locator('[data-action="signin-password"]').click();
  await expect(there.locator('[data-account-name]')).toHaveText(name);
  // Signing in alone brings nothing here (a shared computer): only attaching does.
  await expect(there.locator('[data-history-count]')).toHaveText('This browser has no finished games yet.');
  await expect(there.locator('[data-history-attached]')).toHaveAttribute('data-history-attached', 'false');
  await there.locator('[data-action="attach-history"]').click();
  await expect(there.locator('[data-history-attached]')).toHaveAttribute('data-history-attached', 'true');
  await expect(there.locator('[data-history-count]')).toHaveText('This browser has 1 finished game (1 with a review).');
  await there.locator('[data-action="account-close"]').click();
  await showTab(other.page, 'stats');
  const games = other.page.getByTestId('history-list').locator('li');
  await expect(games).toHaveCount(1);
  await other.page.locator('#stats-panel button.replay-button').first().click();
  await expect(other.page.locator('#game-review')).toHaveAttribute('data-review', 'done');
  await expect(other.page.locator('.move-list button[data-ply="2"]')).toHaveAttribute('data-mark', 'blunder');

  await other.context.close();
  expect(errors).toEqual([]);
});
