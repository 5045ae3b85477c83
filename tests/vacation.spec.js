// Vacation (docs/protocol.md, "Vacation") through the real uttt-server:
// two strangers play a game of two days a move; the player to move goes
// on vacation for three days from the account panel, and both players'
// clocks show their clock standing still ("away"); back early, it runs
// again and the whole days not begun are theirs again.

import { test, expect } from './support/fixtures.js';
import { open, openPlay, showTab, cell, expectMarks, person } from './game-helpers.js';

const root = (page) => page.locator('html');

test('a player on vacation has their clock stand still, for both players to see', async ({ page, browser }) => {
  const errors = [];
  const other = await person(browser, errors);
  for (const who of [page, other.page]) {
    await open(who);
    await openPlay(who);
    await who.locator('[data-action="play-now"][data-tc="2d"]').click();
  }
  for (const who of [page, other.page]) await expect(root(who)).toHaveAttribute('data-online-state', 'playing');
  const iAmX = await page.evaluate(() => document.querySelector('#player-x-name')?.textContent?.includes(document.querySelector('[data-me]')?.getAttribute('data-me') ?? '?'));
  const [x, o] = iAmX ? [page, other.page] : [other.page, page];
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
