// Play now, in the Play view (`#/play`, the top bar's Play), through the
// real uttt-server that serves these tests: two strangers press the same
// clock, are paired into a rated game (the view gives way to the board),
// see each other's names and ratings, find the running game again from
// the view after leaving the page, play it to the end and see the change
// there; a third waits alone, is offered the engine and takes it; a
// fourth cancels. Each test uses its own pool, so tests running side by
// side never pair.

import { test, expect } from './support/fixtures.js';
import { open, openWith, openPlay, cell, expectMarks, myName, person } from './game-helpers.js';

const root = (page) => page.locator('html');
const playView = (page) => page.locator('[data-view="play"]');

/** Opens the page and the Play view, and presses Play now for `game` ('ultimate' | 'tiebreak' | 'classic') at clock `tc`. */
async function playNow(page, game, tc) {
  await open(page);
  await openPlay(page);
  await page.locator(`label[for="playnow-${game}"]`).click();
  await page.locator(`[data-action="play-now"][data-tc="${tc}"]`).click();
}

/** How many wait in the pool of `perf` at clock `tc` (rated), as GET /api/pools says. */
async function waiting(page, perf, initial) {
  const answer = await page.request.get('api/pools');
  const { pools } = await answer.json();
  return pools.find((p) => p.perf === perf && p.rated && p.clock.initial === initial)?.waiting;
}

test('two strangers press Play now, play a rated game and see their ratings change', async ({ page, browser }) => {
  const errors = [];
  await playNow(page, 'classic', '1+1');
  await expect(root(page)).toHaveAttribute('data-online-state', 'seeking');
  await expect(page.locator('[data-action="cancel-seek"]')).toBeVisible();
  await expect.poll(() => waiting(page, 'classic-bullet', 60)).toBe(1);
  // The view closed, the game screen says the seek waits and offers its actions.
  await page.keyboard.press('Escape');
  await expect(playView(page)).toHaveCount(0);
  await expect(page.locator('#status')).toContainText('Looking for an opponent');
  await expect(page.locator('[data-action="status-cancel-seek"]')).toBeVisible();
  await expect(page.locator('[data-action="status-open-play"]')).toBeVisible();

  const other = await person(browser, errors);
  await playNow(other.page, 'classic', '1+1');
  await expect(root(page)).toHaveAttribute('data-online-state', 'playing');
  await expect(root(other.page)).toHaveAttribute('data-online-state', 'playing');
  // The pairing put the game on the board: the view that was open gave way.
  await expect(playView(other.page)).toHaveCount(0);
  await expect(page.locator('[data-action="status-cancel-seek"]')).toBeHidden();
  const [mine, theirs] = [await myName(page), await myName(other.page)];
  expect(mine).not.toBe(theirs);

  // Each sees both names, each rated 1500 and provisional, and the stakes.
  const xName = await page.locator('#player-x-name').textContent();
  const iAmX = xName.startsWith(mine);
  const [x, o] = iAmX ? [page, other.page] : [other.page, page];
  for (const who of [page, other.page]) {
    await expect(who.locator('#player-x-name')).toHaveText(`${iAmX ? mine : theirs}\n1500?`);
    await expect(who.locator('#player-o-name')).toHaveText(`${iAmX ? theirs : mine}\n1500?`);
    await expect(who.locator('.online-who')).toContainText('Rated: a win +162, a draw ±0, a loss −162.');
  }

  // X wins on the diagonal c1-b2-a3.
  const moves = [[x, 4], [o, 0], [x, 2], [o, 1], [x, 6]];
  for (const [n, [who, c]] of moves.entries()) {
    await cell(who, 0, c).click();
    await expectMarks(x, n + 1);
    await expectMarks(o, n + 1);
    if (n !== 1) continue;
    // Mid-game, this player opens the site anew (not the room's link): the
    // Play view lists the running game, and Return goes back into it.
    await open(page, './');
    await expect(root(page)).not.toHaveAttribute('data-online-state', /.*/);
    await openPlay(page);
    const running = playView(page).locator('[data-running-game]');
    await expect(running).toHaveCount(1);
    await expect(running).toContainText(`You play ${iAmX ? 'X' : 'O'}`);
    await running.locator('[data-action="return-running"]').click();
    await expect(playView(page)).toHaveCount(0);
    await expect(root(page)).toHaveAttribute('data-online-state', 'playing');
    await expectMarks(page, 2);
  }
  await expect(root(x)).toHaveAttribute('data-online-state', 'over');
  for (const who of [x, o]) {
    await expect(who.locator('#player-x-name')).toHaveText(/1662 \(\+162\)$/);
    await expect(who.locator('#player-o-name')).toHaveText(/1338 \(−162\)$/);
  }
  // One tap from the end card (its New opponent): out of the finished
  // game's room, the player's name and new rating, no game running, and
  // Play now to press; Back returns to the local game, the card closed.
  const card = page.getByTestId('end-card');
  await card.locator('[data-action="new-opponent"]').click();
  const view = playView(page);
  await expect(view).toBeVisible();
  await expect(card).toBeHidden();
  await expect(view.locator('[data-me]')).toHaveAttribute('data-me', mine);
  await expect(view.locator('[data-me] a')).toHaveAttribute('href', `#/@/${mine}`);
  await expect(view.locator('[data-my-ratings] [data-perf="classic-bullet"] [data-rating]')).toHaveText(iAmX ? '1662?' : '1338?');
  await expect(view.locator('[data-running-game]')).toHaveCount(0);
  await expect(view.locator('[data-action="play-now"][data-tc="1+1"]')).toBeVisible();
  await expect(root(page)).not.toHaveAttribute('data-online-state', /.*/);
  await page.locator('[data-action="close-view"]').click();
  await expect(view).toHaveCount(0);
  await expect(root(page)).not.toHaveAttribute('data-online-state', /.*/);
  expect(errors).toEqual([]);
  await other.context.close();
});

test('a player alone is offered the engine after a countdown, stays in the pool, and takes it', async ({ page }) => {
  // The page's clock is Playwright's, so the 20 s countdown is jumped over.
  await page.clock.install();
  await playNow(page, 'ultimate', '3+2');
  await expect(root(page)).toHaveAttribute('data-online-state', 'seeking');
  const bot = page.locator('[data-action="play-bot"]');
  await expect(bot).toBeHidden();
  await expect(page.locator('.playnow-offer-text')).toContainText('The engine is offered in');
  // The offer comes at 20 s, to the status box too while the view is
  // closed; the seek stays in the pool meanwhile.
  await page.keyboard.press('Escape');
  await expect(page.locator('[data-action="status-open-play"]')).toBeVisible();
  await page.clock.fastForward(21_000);
  await expect(page.locator('[data-action="status-play-bot"]')).toBeVisible();
  await expect(page.locator('[data-action="status-open-play"]')).toBeHidden();
  await expect.poll(() => waiting(page, 'ultimate-blitz', 180)).toBe(1);
  await openPlay(page);
  await expect(bot).toHaveText('Play the engine (Medium)');

  await bot.click();
  await expect(playView(page)).toHaveCount(0);
  await expect(root(page)).not.toHaveAttribute('data-online-state', /.*/);
  await expect(page.locator('#player-o-name')).toHaveText('AI · Medium');
  expect(await waiting(page, 'ultimate-blitz', 180)).toBe(0);
  // A fresh Ultimate game against the engine: the player's move, then its reply.
  await cell(page, 4, 4).click();
  await expectMarks(page, 2);
});

test('a cancelled seek leaves the pool and the local game comes back', async ({ page }) => {
  await playNow(page, 'tiebreak', '10+5');
  await expect(root(page)).toHaveAttribute('data-online-state', 'seeking');
  await expect.poll(() => waiting(page, 'tiebreak-rapid', 600)).toBe(1);
  await page.locator('[data-action="cancel-seek"]').click();
  await expect(root(page)).not.toHaveAttribute('data-online-state', /.*/);
  await expect(page.locator('[data-action="play-now"][data-tc="10+5"]')).toBeVisible();
  expect(await waiting(page, 'tiebreak-rapid', 600)).toBe(0);
});

test.describe('without the online server', () => {
  // The static build's host answers /api/ with a page of its own; the
  // service worker is kept out so that the page's requests meet the stand-in.
  test.use({ allowedErrors: [/Failed to load resource: the server responded with a status of 404/], serviceWorkers: 'block' });

  test('the Play view says what needs it, and the local game goes on', async ({ page }) => {
    await page.route('**/api/**', (route) => route.fulfill({ status: 404, contentType: 'text/html', body: '<!doctype html><title>Not found</title>' }));
    await openWith(page, { mode: 'human' });
    await openPlay(page);
    await expect(playView(page).locator('.view-status')).toHaveText(/Play now, ratings and challenges come with online play/);
    await expect(page.locator('[data-action="play-now"]')).toHaveCount(0);
    await page.keyboard.press('Escape');
    await cell(page, 4, 4).click();
    await expectMarks(page, 1);
  });
});
