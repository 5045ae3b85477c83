// The Watch view through the real uttt-server that serves these tests (other
// tests' games are listed beside this one's, so it looks for its own by
// room): two strangers play, a third finds their game under Playing now
// and watches it (the watchers' chat, not the players'), follows the top
// game and stops by leaving; one of the players keeps their games off the
// page, and the game leaves the list.

import { test, expect } from './support/fixtures.js';
import { open, openPlay, showTab, cell, expectMarks, person } from './game-helpers.js';

const root = (page) => page.locator('html');

/** Opens the Watch view from the Play view. */
async function openWatch(page) {
  await openPlay(page);
  await page.locator('[data-action="open-watch"]').click();
  await expect(page.locator('[data-view="watch"]')).toBeVisible();
}

test('a stranger watches a game from the Watch view, follows the top game, and a player hides theirs', async ({ page, browser }) => {
  const errors = [];
  await open(page);
  await showTab(page, 'online');
  await page.selectOption('#online-colour', 'x');
  await page.locator('[data-action="online-create"]').click();
  await expect(root(page)).toHaveAttribute('data-online-state', 'waiting');
  const link = await page.locator('[data-online-link]').getAttribute('href');
  const room = new URL(link).searchParams.get('room');
  const friend = await person(browser, errors);
  await friend.page.goto(link);
  await expect(root(friend.page)).toHaveAttribute('data-online-state', 'playing');
  await cell(page, 4, 4).click();
  await expectMarks(friend.page, 1);

  // A stranger finds the game and watches it.
  const fan = await person(browser, errors);
  await open(fan.page);
  await openWatch(fan.page);
  const row = fan.page.locator(`[data-watch-game="${room}"]`);
  await expect(row).toContainText('Ultimate · 1 move');
  await row.locator('[data-action="watch-game"]').click();
  await expect(fan.page.locator('[data-view="watch"]')).toHaveCount(0);
  await expect(root(fan.page)).toHaveAttribute('data-online-state', 'playing');
  await expectMarks(fan.page, 1);
  await expect(fan.page.locator('.chat-heading')).toHaveText('Spectators’ chat');

  // The watcher's evaluation comes two moves late; the players see none.
  await showTab(fan.page, 'moves');
  await expect(fan.page.getByTestId('eval-text')).toContainText('(the empty board: watchers see it two moves late)');
  await cell(friend.page, 4, 0).click();
  await expectMarks(page, 2);
  await cell(page, 0, 4).click();
  await expectMarks(fan.page, 3);
  await expect(fan.page.getByTestId('eval-text')).toContainText(/X \d+% · draw \d+% · O \d+%.* \(after move 1: watchers see it two moves late\)$/);
  await expect(fan.page.getByTestId('eval-line')).toHaveText('');
  await showTab(friend.page, 'moves');
  await expect(friend.page.getByTestId('eval-text')).not.toContainText('%');

  // Following the top game watches one, until the watcher leaves.
  await showTab(fan.page, 'online');
  await fan.page.locator('[data-action="online-leave"]').click();
  await expect(root(fan.page)).not.toHaveAttribute('data-online-state', /.*/);
  await openWatch(fan.page);
  await fan.page.locator('[data-action="watch-top"]').click();
  await expect(root(fan.page)).toHaveAttribute('data-following', /^[0-9a-z]+$/);
  await expect(root(fan.page)).toHaveAttribute('data-online-state', /playing|over/);
  await showTab(fan.page, 'online');
  await fan.page.locator('[data-action="online-leave"]').click();
  await expect(root(fan.page)).not.toHaveAttribute('data-following', /.*/);

  // A player keeps their games off the page: this game leaves the list.
  await openWatch(page);
  const mine = page.locator('#watch-show-mine');
  await expect(mine).toBeChecked();
  await mine.uncheck();
  await expect.poll(async () => (await page.request.get('api/watch')).json().then((w) => w.live.some((g) => g.room === room))).toBe(false);
  // The view is in the address: a reload opens it again.
  await page.reload();
  await expect(page.locator('[data-view="watch"]')).toBeVisible();
  await expect(page.locator('#watch-show-mine')).not.toBeChecked();
  await openWatch(fan.page);
  await expect(fan.page.locator(`[data-watch-game="${room}"]`)).toHaveCount(0);
  expect(errors).toEqual([]);
  await friend.context.close();
  await fan.context.close();
});
