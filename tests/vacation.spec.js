// Vacation (docs/protocol.md, "Vacation") through the real uttt-server:
// two strangers play a game of two days a move; the player to move goes
// on vacation for three days from the account panel, and both players'
// clocks show their clock standing still ("away"); back early, it runs
// again and the whole days not begun are theirs again.

import { test, expect } from './support/fixtures.js';
import { showTab, cell, expectMarks, pairedByPlayNow } from './game-helpers.js';

test('a player on vacation has their clock stand still, for both players to see', async ({ page, browser }) => {
  const errors = [];
  const { x, o, other } = await pairedByPlayNow(page, browser, errors);
  await cell(x, 4, 4).click();
  await expectMarks(o, 1);

  // O, to move, leaves for three days.
  await showTab(o, 'online');
  await o.locator('[data-action="account"]').click();
  const part = o.locator('[data-vacation-state]');
  await expect(part).toContainText('14 days left this year.');
  await o.locator('[data-vacation-days]').selectOption('3');
  await o.locator('[data-action="vacation-leave"]').click();
  await expect(part).toHaveAttribute('data-vacation-state', 'away');
  await expect(part).toContainText('On vacation until');
  await expect(o.locator('[data-account-message]')).toHaveText('You are on vacation: your clocks stand still.');
  for (const who of [x, o]) {
    await expect(who.locator('[data-clock="o"]')).toHaveText('away');
    await expect(who.locator('[data-clock="o"]')).toHaveAttribute('data-vacation', /^\d+$/);
    await expect(who.locator('[data-clock="x"]')).toHaveText(/^(2d 0h|1d 23h)$/);
  }

  // Back at once: the first day was begun, the two others come back.
  await o.locator('[data-action="vacation-back"]').click();
  await expect(part).toHaveAttribute('data-vacation-state', 'here');
  await expect(part).toContainText('13 days left this year.');
  for (const who of [x, o]) {
    await expect(who.locator('[data-clock="o"]')).toHaveText(/^(2d 0h|1d 23h)$/);
    await expect(who.locator('[data-clock="o"]')).not.toHaveAttribute('data-vacation', /.*/);
  }
  expect(errors).toEqual([]);
  await other.context.close();
});
