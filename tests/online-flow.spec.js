// The online flow as two strangers (and a watcher) meet it, each in a
// browser context of their own, on the real uttt-server: finding a running
// game again after closing the tab, leaving a room, offers answered beside
// the board, Resign asking first, an invitation without the tutorial, an
// unknown room's error in view, the end card's reason and a watcher told
// of a player's disconnection, and the tab's title on your move.

import { test, expect } from './support/fixtures.js';
import { open, showTab, cell, expectMarks, myName, person, watched } from './game-helpers.js';

const PHONE = { width: 390, height: 844 };
const TITLE = 'Ultimate Tic-Tac-Toe';

const root = (page) => page.locator('html');

/**
 * Opens the page, creates a Classic room with this page playing X (its
 * clock `clock` seconds, by rewriting the form's frame, when given) and
 * returns the invitation link.
 */
async function createRoom(page, { clock = null } = {}) {
  if (clock) {
    await page.routeWebSocket(/\/ws$/, (ws) => {
      const server = ws.connectToServer();
      ws.onMessage((text) => {
        const message = JSON.parse(String(text));
        if (message.type === 'create') message.options.clock = { initial: clock, increment: 0 };
        server.send(JSON.stringify(message));
      });
    });
  }
  await open(page);
  await showTab(page, 'online');
  await page.selectOption('#online-kind', 'classic');
  await page.selectOption('#online-colour', 'x');
  if (clock) await page.selectOption('#online-clock', '1');
  await page.locator('[data-action="online-create"]').click();
  await expect(root(page)).toHaveAttribute('data-online-state', 'waiting');
  return page.locator('[data-online-link]').getAttribute('href');
}

/** `friend` opens `link` and both see the game begin. */
async function joinGame(page, friend, link) {
  await friend.goto(link);
  await expect(root(friend)).toHaveAttribute('data-online-state', 'playing');
  await expect(root(page)).toHaveAttribute('data-online-state', 'playing');
}

test('a player who closed the tab finds the running game again; the title says whose move', async ({ page, browser }) => {
  const errors = [];
  const link = await createRoom(page);
  const friend = await person(browser, errors, { context: { viewport: PHONE } });
  await joinGame(page, friend.page, link);

  // X to move: the tab of X's player says so, O's does not.
  await expect(page).toHaveTitle(`Your move · ${TITLE}`);
  await expect(friend.page).toHaveTitle(TITLE);
  await cell(page, 0, 4).click();
  await expectMarks(friend.page, 1);
  await expect(friend.page).toHaveTitle(`Your move · ${TITLE}`);
  await expect(page).toHaveTitle(TITLE);

  // O closes the tab and opens the site again, not the link.
  await friend.page.close();
  const again = await watched(friend.context, errors);
  await open(again);
  await expect(root(again)).not.toHaveAttribute('data-online-state', /.*/);
  const back = again.locator('[data-action="return-to-game"]');
  await expect(back).toBeVisible();
  await expect(back).toBeInViewport();
  await expect(back).toHaveText('Return to your game');
  // The list is a module of its own, for any view that shows running games.
  const listed = await again.evaluate(async () => {
    const { runningGames } = await import(new URL('www/running.js', document.baseURI).href);
    return runningGames();
  });
  expect(listed).toEqual([expect.objectContaining({ room: new URL(link).searchParams.get('room'), side: 'o' })]);

  await back.click();
  await expect(root(again)).toHaveAttribute('data-online-state', 'playing');
  await expectMarks(again, 1);
  await expect(again.locator('#player-o-name')).toHaveText(await myName(again));
  await expect(back).toBeHidden();
  await cell(again, 0, 0).click();
  await expectMarks(page, 2);

  await friend.context.close();
  expect(errors).toEqual([]);
});

test('leaving asks first and tells the opponent, whose Rematch waits; the link is still the leaver’s seat', async ({ page, browser }) => {
  const errors = [];
  const link = await createRoom(page);
  const friend = await person(browser, errors);
  await joinGame(page, friend.page, link);
  await cell(page, 0, 4).click();
  await expectMarks(friend.page, 1);

  // Leaving in mid-game says what it does first; keeping on changes nothing.
  await showTab(friend.page, 'online');
  await friend.page.locator('[data-action="online-leave"]').click();
  const question = friend.page.locator('dialog[open]');
  await expect(question).toContainText('Leaving resigns this game');
  await question.locator('[data-answer="cancel"]').click();
  await expect(root(friend.page)).toHaveAttribute('data-online-state', 'playing');
  await friend.page.locator('[data-action="online-leave"]').click();
  await friend.page.locator('dialog[open] [data-answer="ok"]').click();
  await expect(root(friend.page)).not.toHaveAttribute('data-online-state', /.*/);

  // The one who stays is told: the game was resigned, the opponent left,
  // and no rematch can start with nobody there.
  await expect(root(page)).toHaveAttribute('data-online-state', 'over');
  await expect(page.locator('#status')).toContainText('your opponent resigned');
  await expect(page.locator('#status')).toContainText('Your opponent left.');
  await expect(page.locator('[data-testid="end-line"]')).toHaveText('Won by resignation: O resigned.');
  await expect(page.locator('[data-testid="rematch"]')).toBeDisabled();
  await expect(page.locator('[data-action="online-rematch"]')).toBeDisabled();

  // The leaver opens the link again: their own seat, not a watcher's.
  await friend.page.goto(link);
  await expect(root(friend.page)).toHaveAttribute('data-online-state', 'over');
  await expect(friend.page.locator('#player-o-name')).toHaveText(await myName(friend.page));
  await expect(friend.page.locator('#status')).toHaveText('You resigned.');
  await expect(page.locator('#status')).not.toContainText('left');
  await expect(page.locator('[data-action="online-rematch"]')).toBeEnabled();

  await friend.context.close();
  expect(errors).toEqual([]);
});

test('offers show in the status area and are answered there; Resign asks first', async ({ page, browser }) => {
  const errors = [];
  const link = await createRoom(page);
  const friend = await person(browser, errors, { context: { viewport: PHONE } });
  await joinGame(page, friend.page, link);
  const status = friend.page.locator('#status');
  const accept = friend.page.locator('[data-action="accept-draw"]');
  const decline = friend.page.locator('[data-action="decline-draw"]');

  // X offers a draw: O sees it beside the board, with its answers, in view.
  await page.locator('[data-action="online-draw"]').click();
  await expect(status).toHaveText('They offer a draw.');
  await expect(accept).toBeInViewport();
  await expect(decline).toBeInViewport();
  await decline.click();
  await expect(accept).toBeHidden();
  await expect(status).not.toContainText('draw');
  await expect(page.locator('[data-action="online-draw"]')).toHaveText('Offer a draw');

  // Offered again and accepted there: a draw by agreement, and the end card says so.
  await page.locator('[data-action="online-draw"]').click();
  await accept.click();
  await expect(root(page)).toHaveAttribute('data-online-state', 'over');
  await expect(page.locator('[data-testid="end-line"]')).toHaveText('Draw agreed by both players.');
  await expect(friend.page.locator('[data-testid="end-line"]')).toHaveText('Draw agreed by both players.');

  // X asks for a rematch: O's end card says so, its Rematch accepts; once
  // the card is closed, the status area says it and answers.
  await page.locator('[data-testid="rematch"]').click();
  await expect(page.locator('#status')).toContainText('Rematch asked: waiting for your opponent.');
  const card = friend.page.locator('[data-testid="end-card"]');
  await expect(card).toContainText('Your opponent asks for a rematch.');
  await expect(card.locator('[data-testid="rematch"]')).toHaveText('Accept');
  await card.locator('[data-testid="close-end-card"]').click();
  await expect(status).toContainText('Your opponent asks for a rematch.');
  const rematch = friend.page.locator('[data-action="accept-rematch"]');
  await expect(rematch).toBeInViewport();
  await rematch.click();
  await expect(root(friend.page)).toHaveAttribute('data-online-state', 'playing');

  // Resign asks first, in place; the second tap resigns.
  await showTab(friend.page, 'online');
  const resign = friend.page.locator('[data-action="online-resign"]');
  await resign.click();
  await expect(resign).toHaveText('Tap again to resign');
  await expect(root(friend.page)).toHaveAttribute('data-online-state', 'playing');
  await resign.click();
  await expect(root(page)).toHaveAttribute('data-online-state', 'over');
  await expect(page.locator('#status')).toHaveText('You win: your opponent resigned.');

  await friend.context.close();
  expect(errors).toEqual([]);
});

test('an invitation opened on a first visit shows no tutorial; an unknown room says so in view', async ({ page, browser }) => {
  const errors = [];
  const link = await createRoom(page);
  const newcomer = await person(browser, errors, { fresh: true, context: { viewport: PHONE } });
  await newcomer.page.goto(link);
  await expect(root(newcomer.page)).toHaveAttribute('data-ready', 'true');
  await expect(root(newcomer.page)).toHaveAttribute('data-online-state', 'playing');
  await expect(newcomer.page.locator('[data-testid="tutorial"]')).toHaveCount(0);
  await expect(newcomer.page.locator('#status')).toBeInViewport();

  const lost = await person(browser, errors, { fresh: true, context: { viewport: PHONE } });
  await lost.page.goto('./?room=nosuchroom0000');
  await expect(root(lost.page)).toHaveAttribute('data-ready', 'true');
  await expect(lost.page.locator('[data-testid="tutorial"]')).toHaveCount(0);
  const said = lost.page.locator('#status');
  await expect(said).toContainText('No room has that link');
  await expect(said).toBeInViewport();

  await newcomer.context.close();
  await lost.context.close();
  expect(errors).toEqual([]);
});

test('a watcher is told of a player’s disconnection and return; a loss on time is named on the end card', async ({ page, browser }) => {
  test.setTimeout(90_000);
  const errors = [];
  const link = await createRoom(page, { clock: 20 });
  const friend = await person(browser, errors);
  await joinGame(page, friend.page, link);
  const watcher = await person(browser, errors);
  await watcher.page.goto(link);
  await expect(root(watcher.page)).toHaveAttribute('data-online-state', 'playing');

  // O's tab closes: the watcher is told, and told again when O is back.
  await friend.page.close();
  await expect(watcher.page.locator('#status')).toHaveText('O is disconnected; waiting for them to come back.');
  const back = await watched(friend.context, errors);
  await back.goto(link);
  await expect(root(back)).toHaveAttribute('data-online-state', 'playing');
  await expect(watcher.page.locator('#status')).toHaveText('O is back.');

  // X moves; O lets the clock run out.
  await cell(page, 0, 4).click();
  await expectMarks(back, 1);
  await expect(root(page)).toHaveAttribute('data-online-state', 'over', { timeout: 30_000 });
  await expect(page.locator('[data-testid="end-line"]')).toHaveText('Won on time: O ran out of time.');
  await expect(back.locator('[data-testid="end-line"]')).toHaveText('Won on time: O ran out of time.');
  // A player may look for a new opponent from the card; the watcher, who held no seat, is not offered it.
  await expect(page.getByTestId('end-card').locator('[data-action="new-opponent"]')).toBeVisible();
  await expect(watcher.page.getByTestId('end-card')).toBeVisible();
  await expect(watcher.page.getByTestId('end-card').locator('[data-action="new-opponent"]')).toBeHidden();

  await friend.context.close();
  await watcher.context.close();
  expect(errors).toEqual([]);
});
