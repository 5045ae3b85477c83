// Profiles and leaderboards (www/views.js, profile.js, leaderboard.js)
// against the real uttt-server: two signed-in players play a short rated
// Classic game over the WebSocket protocol (the page cannot start a rated
// game yet), and then each one's profile shows it, the winner's game opens
// in the review, the leaderboard explains why it is empty, an unknown name
// says so, and every way back (the Back button, the browser's Back,
// Escape) finds the game on the board as it was.

import { test, expect } from './support/fixtures.js';
import { openWith, cell, expectMarks, showTab, person } from './game-helpers.js';

/** What Chromium logs of a sign-up refused for now (see signIn): the page itself logs nothing. */
const SIGN_UP_LATER = /Failed to load resource: the server responded with a status of 429/;

/**
 * Signs the page's browser in (a new player with a proposed name) and
 * returns the name. The whole suite signs up from one address, which the
 * server lets make 10 players at once and then 6 a minute: a refusal for
 * that is asked again until a place frees up.
 */
async function signIn(page) {
  let answer = null;
  await expect
    .poll(async () => {
      answer = await page.evaluate(async () => {
        const response = await fetch('api/session', { method: 'POST' });
        return { status: response.status, body: await response.json() };
      });
      return answer.status;
    }, { timeout: 30_000, intervals: [2_000] })
    .not.toBe(429);
  expect(answer.status).toBe(201);
  return answer.body.name;
}

/**
 * Opens a game connection in `page` (signed in by its cookie) that creates
 * a room with `options`, or joins room `room`; returns the room's code. The
 * room's states are kept in `window.seat.states`.
 */
async function takeSeat(page, { options = null, room = null }) {
  await page.evaluate(({ options, room }) => {
    const url = new URL('ws', location.href);
    url.protocol = url.protocol === 'https:' ? 'wss:' : 'ws:';
    const ws = new WebSocket(url.href);
    const seat = { ws, states: [], room: null, errors: [] };
    Object.assign(window, { seat });
    ws.addEventListener('message', (event) => {
      const message = JSON.parse(event.data);
      if (message.type === 'joined') seat.room = message.room;
      if (message.type === 'state') seat.states.push(message.state);
      if (message.type === 'error') seat.errors.push(message.code);
    });
    ws.addEventListener('open', () => {
      const first = options ? { type: 'create', options } : { type: 'join', room, token: null };
      ws.send(JSON.stringify({ v: 1, ...first }));
    });
  }, { options, room });
  await page.waitForFunction(() => window.seat.room !== null);
  return page.evaluate(() => window.seat.room);
}

/** Plays Classic's `cell` (0-8, reading order) as move `ply` from `page`, and waits until both seats see it. */
async function move(page, ply, at, both) {
  await page.evaluate(({ ply, at }) => window.seat.ws.send(JSON.stringify({ v: 1, type: 'move', ply, board: 0, cell: at })), { ply, at });
  for (const p of both) {
    await p.waitForFunction((n) => {
      const last = window.seat.states.at(-1);
      return last && last.record.length - last.record.indexOf(':') - 1 === 2 * n;
    }, ply + 1);
  }
  expect(await page.evaluate(() => window.seat.errors)).toEqual([]);
}

/** The view layer's root of `name` ('profile', 'leaderboard'). */
const view = (page, name) => page.locator(`[data-view="${name}"]`);

/** Goes to `hash` as a link would. */
const go = (page, hash) => page.evaluate((h) => {
  location.hash = h;
}, hash);

test.use({ allowedErrors: [SIGN_UP_LATER] });

test('a rated game shows on both profiles, opens in the review, and the views leave the game as it was', async ({ page, browser }) => {
  // Room for the sign-ups to wait their turn (see signIn).
  test.setTimeout(120_000);
  const errors = [];
  // A game of two players on this device, two moves in: what every way back must find.
  await openWith(page, { mode: 'human' });
  await cell(page, 4, 4).click();
  await cell(page, 4, 0).click();
  await expectMarks(page, 2);

  const other = await person(browser, errors, { allowed: SIGN_UP_LATER });
  await other.page.goto('./');
  await expect(other.page.locator('html')).toHaveAttribute('data-ready', 'true');
  const winner = await signIn(page);
  const loser = await signIn(other.page);

  // Classic, 3+2 (blitz: 180 + 25 x 2 s is under 8 minutes), rated. X: b2,
  // O: a1, X: c1, O: b1, X: a3 wins on the a3-b2-c1 diagonal.
  const room = await takeSeat(page, { options: { kind: 'classic', rules: 'standard', colour: 'x', clock: { initial: 180, increment: 2 }, rated: true } });
  await takeSeat(other.page, { room });
  await page.waitForFunction(() => window.seat.states.at(-1)?.o === 'connected');
  const seats = [page, other.page];
  for (const [ply, [who, at]] of [[page, 4], [other.page, 0], [page, 2], [other.page, 1], [page, 6]].entries()) {
    await move(who, ply, at, seats);
  }
  expect(await page.evaluate(() => window.seat.states.at(-1).result)).toEqual({ winner: 'x', reason: 'won' });
  // The archive is written with the game's end; the views read it after.
  await expect
    .poll(() => page.evaluate((n) => fetch(`api/players/${n}/games`).then((r) => r.json()).then((d) => d.games.length), winner))
    .toBe(1);

  // The winner's profile: a provisional Classic blitz rating, the game with its gain.
  await go(page, `#/@/${winner}`);
  const profile = view(page, 'profile');
  await expect(profile).toHaveAttribute('data-profile-name', winner);
  await expect(page.locator('#view-title')).toHaveText(winner);
  const rating = profile.locator('[data-perf="classic-blitz"] [data-rating] span');
  await expect(rating).toHaveText(/^\d{4}\?$/);
  await expect(rating).toHaveAttribute('data-provisional', '');
  expect(Number((await rating.textContent()).slice(0, -1))).toBeGreaterThan(1500);
  const game = profile.locator('[data-archived-game]');
  await expect(game).toHaveCount(1);
  await expect(game).toContainText(loser);
  await expect(game).toContainText('Won');
  await expect(game).toContainText('Classic · Blitz');
  const gain = Number(await game.locator('[data-rating-change]').getAttribute('data-rating-change'));
  expect(gain).toBeGreaterThan(0);
  await expect(game.locator('.rating-change')).toContainText(`+${gain}`);
  await expect(profile.locator('[data-graph="classic-blitz"] polyline')).toBeVisible();
  await expect(profile.locator('[data-results]')).toHaveText('1 won · 0 drawn · 0 lost');
  // The game screen waits under the view, out of reach of the keyboard.
  expect(await page.locator('.app').evaluate((app) => app.inert)).toBe(true);

  // The view's Back button: the game as it was.
  await page.locator('[data-action="close-view"]').click();
  await expect(profile).toHaveCount(0);
  expect(await page.evaluate(() => location.hash)).toBe('');
  await expectMarks(page, 2);
  await expect(page.locator('#board')).toHaveAttribute('data-kind', 'ultimate');

  // The loser's profile through the winner's game: the loss and what it cost.
  await go(page, `#/@/${winner}`);
  await game.locator(`a[href="#/@/${loser}"]`).click();
  await expect(profile).toHaveAttribute('data-profile-name', loser);
  await expect(game).toContainText('Lost');
  await expect(game).toContainText(winner);
  expect(Number(await game.locator('[data-rating-change]').getAttribute('data-rating-change'))).toBeLessThan(0);
  await expect(profile.locator('[data-results]')).toHaveText('0 won · 0 drawn · 1 lost');
  // The browser's Back goes one view back; the Back button then to the game, past both.
  await page.goBack();
  await expect(profile).toHaveAttribute('data-profile-name', winner);
  await go(page, `#/@/${loser}`);
  await expect(profile).toHaveAttribute('data-profile-name', loser);
  await page.locator('[data-action="close-view"]').click();
  await expect(profile).toHaveCount(0);
  await expectMarks(page, 2);

  // The leaderboard, from the Online tab: nobody established yet, and who will be.
  await showTab(page, 'online');
  await page.locator('[data-view-link="leaderboard"]').click();
  const board = view(page, 'leaderboard');
  await expect(board).toBeVisible();
  await page.locator('#leaderboard-perf').selectOption('classic-blitz');
  await expect(board).toHaveAttribute('data-perf', 'classic-blitz');
  await expect(board.locator('[data-leaderboard-row]')).toHaveCount(0);
  await expect(board.locator('.view-status')).toContainText('Nobody is on the Classic · Blitz leaderboard yet');
  await expect(board.locator('.view-status')).toContainText('at least 10 rated games');
  // Escape goes back to the game.
  await page.keyboard.press('Escape');
  await expect(board).toHaveCount(0);
  await expectMarks(page, 2);
  expect(await page.evaluate(() => location.hash)).toBe('');

  // The browser's Back from a view, too.
  await go(page, `#/@/${winner}`);
  await expect(game).toHaveCount(1);
  await page.goBack();
  await expect(profile).toHaveCount(0);
  await expectMarks(page, 2);

  // Opening the game: the Classic game on the board, its moves listed, reviewed.
  await go(page, `#/@/${winner}`);
  await game.locator('[data-action="open-review"]').click();
  await expect(profile).toHaveCount(0);
  await expect(page.locator('#board')).toHaveAttribute('data-kind', 'classic');
  await expect(page.locator('#tab-moves')).toHaveAttribute('aria-selected', 'true');
  await expect(page.getByTestId('move-list').locator('button[data-ply]')).toHaveCount(5);
  await expect(page.locator('#game-review')).toHaveAttribute('data-review', /running|done/);
  await expect(page.locator('#game-review')).toHaveAttribute('data-review', 'done');
  // And the game that was on the board is one tap away.
  await page.getByTestId('back-to-game').click();
  await expect(page.locator('#board')).toHaveAttribute('data-kind', 'ultimate');
  await expectMarks(page, 2);

  // A page opened on a shared profile has no game behind it: Back, even a
  // view later, drops the view's address and shows the game.
  // (Another query, so the page loads anew.)
  await page.goto(`./?shared=1#/@/${winner}`);
  await game.locator(`a[href="#/@/${loser}"]`).click();
  await expect(profile).toHaveAttribute('data-profile-name', loser);
  await page.locator('[data-action="close-view"]').click();
  await expect(page.locator('.view-layer')).toBeHidden();
  expect(await page.evaluate(() => location.hash)).toBe('');
  await expect(page.locator('#board')).toBeVisible();

  await other.context.close();
  expect(errors).toEqual([]);
});

test.describe('a name nobody has', () => {
  // The API answers an unknown name 404, and Chromium logs every failed
  // fetch on its own; the page itself logs nothing.
  test.use({ allowedErrors: [/Failed to load resource: the server responded with a status of 404/] });

  test('says there is no such player, in the view', async ({ page }) => {
    await openWith(page, { mode: 'human' });
    await go(page, '#/@/NoSuchPlayer404');
    await expect(view(page, 'profile').locator('.view-status')).toHaveText('No player has that name.');
    await expect(view(page, 'profile').locator('[data-archived-game]')).toHaveCount(0);
  });
});

test.describe('without the online server', () => {
  // The static build's host answers /api/ with a page of its own; the
  // service worker is kept out so that the page's requests meet the stand-in.
  test.use({ allowedErrors: [/Failed to load resource: the server responded with a status of 404/], serviceWorkers: 'block' });

  test('the views say they need it, and an unknown route is the game', async ({ page }) => {
    await page.route('**/api/**', (route) => route.fulfill({ status: 404, contentType: 'text/html', body: '<!doctype html><title>Not found</title>' }));
    await openWith(page, { mode: 'human' });
    await go(page, '#/leaderboard/ultimate-rapid');
    await expect(view(page, 'leaderboard').locator('.view-status')).toHaveText(/come with online play/);
    await go(page, '#/@/Somebody');
    await expect(view(page, 'profile').locator('.view-status')).toHaveText(/come with online play/);
    await go(page, '#/nowhere');
    await expect(page.locator('.view-layer')).toBeHidden();
    await expect(view(page, 'profile')).toHaveCount(0);
    expect(await page.evaluate(() => location.hash)).toBe('');
  });
});
