// Challenges through the real uttt-server that serves these tests: a
// stranger's open rated challenge is accepted from the list and both land
// in one game with each other's names; then a challenge by name from the
// other's profile (which opens the Play view's form) is declined, and the
// challenger is told.

import { test, expect } from './support/fixtures.js';
import { open, openPlay, showTab, myName, person } from './game-helpers.js';

const root = (page) => page.locator('html');

test('an open challenge is accepted from the list; one by name is declined', async ({ page, browser }) => {
  const errors = [];
  await open(page);
  await openPlay(page);
  await page.locator('[data-action="create-challenge"]').click();
  await page.locator('#challenge-game').selectOption('ultimate');
  await page.locator('#challenge-clock').selectOption('3+2');
  await expect(page.locator('#challenge-rated')).toBeChecked();
  await page.locator('[data-action="send-challenge"]').click();
  await expect(root(page)).toHaveAttribute('data-online-state', 'challenging');
  await expect(page.locator('#status')).toContainText('Your challenge waits for an opponent');
  await expect(page.locator('[data-action="cancel-challenge"]')).toBeVisible();
  const mine = await myName(page);

  // A stranger sees it in the open list, with the name, the rating and the game, and accepts.
  const other = await person(browser, errors);
  await open(other.page);
  await openPlay(other.page);
  const row = other.page.locator('[data-list="open"] [data-challenge]', { hasText: mine });
  await expect(row).toContainText(`${mine} 1500?`);
  await expect(row).toContainText('Ultimate · 3+2 · rated');
  await expect(row.locator('a')).toHaveAttribute('href', `#/@/${mine}`);
  await row.locator('[data-action="accept-challenge"]').click();
  for (const who of [page, other.page]) await expect(root(who)).toHaveAttribute('data-online-state', 'playing');
  const theirs = await myName(other.page);
  for (const who of [page, other.page]) {
    const chips = (await who.locator('#player-x-name').textContent()) + (await who.locator('#player-o-name').textContent());
    expect(chips).toContain(mine);
    expect(chips).toContain(theirs);
    await expect(who.locator('.online-who')).toContainText('Rated');
  }

  // The challenger leaves that game and challenges the stranger from their profile.
  await showTab(page, 'online');
  await page.locator('[data-action="online-leave"]').click();
  await page.locator('dialog[open] [data-answer="ok"]').click();
  await expect(root(page)).not.toHaveAttribute('data-online-state', /.*/);
  await page.evaluate((hash) => (location.hash = hash), `#/@/${theirs}`);
  await page.locator('[data-action="challenge-player"]').click();
  await expect(page.locator('[data-view="play"]')).toBeVisible();
  await expect(page.locator('#challenge-to')).toHaveValue(theirs);
  await expect(page.locator('#challenge-to')).toBeFocused();
  await page.locator('[data-action="send-challenge"]').click();
  await expect(root(page)).toHaveAttribute('data-online-state', 'challenging');
  // With the view closed, the status box says so and offers Cancel and the view again.
  await page.keyboard.press('Escape');
  await expect(page.locator('#status')).toContainText(`Waiting for ${theirs} to answer`);
  await expect(page.locator('[data-action="status-cancel-seek"]')).toBeVisible();
  await expect(page.locator('[data-action="status-open-play"]')).toBeVisible();

  // Not in anyone's open list; under "For you" for the stranger, who
  // leaves the game their opponent left and opens the Play view.
  await showTab(other.page, 'online');
  // Their opponent's leaving resigned the game: leaving it asks nothing.
  await expect(other.page.locator('[data-testid="end-line"]')).toContainText('resigned');
  await other.page.locator('[data-action="online-leave"]').click();
  await expect(root(other.page)).not.toHaveAttribute('data-online-state', /.*/);
  await openPlay(other.page);
  const forYou = other.page.locator('[data-list="for-you"] [data-challenge]', { hasText: mine });
  await expect(forYou).toBeVisible();
  await expect(other.page.locator('[data-list="open"] [data-challenge]', { hasText: mine })).toHaveCount(0);
  await forYou.locator('[data-action="decline-challenge"]').click();
  await expect(forYou).toHaveCount(0);
  await expect(root(page)).not.toHaveAttribute('data-online-state', /.*/);
  await expect(page.locator('#status')).toContainText('Your challenge was declined.');
  expect(errors).toEqual([]);
  await other.context.close();
});
