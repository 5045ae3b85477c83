// Online play through the real uttt-server that serves these tests: two
// browser contexts play a whole game against each other, one reloads in the
// middle and comes back to its seat, and a third context watches.

import { test, expect } from './support/fixtures.js';
import { open, showTab, cell, expectMarks, markCount, aiIdle, myName, person } from './game-helpers.js';

const onlineState = (page) => page.locator('html');

/** Opens the page, creates a Classic room with this page playing X, and returns the invitation link. */
async function createRoom(page) {
  await open(page);
  await showTab(page, 'online');
  await page.selectOption('#online-kind', 'classic');
  await page.selectOption('#online-colour', 'x');
  await page.locator('[data-action="online-create"]').click();
  await expect(onlineState(page)).toHaveAttribute('data-online-state', 'waiting');
  return page.locator('[data-online-link]').getAttribute('href');
}

test('two people play a whole game online; one reloads and returns to its seat; a third watches', async ({ page, browser }) => {
  const errors = [];
  const link = await createRoom(page);
  expect(link).toMatch(/\?room=[0-9a-z]{16}$/);
  // The creator's own address now names the room, so a reload goes back to it.
  expect(page.url()).toBe(link);
  // The server draws the link as a QR code.
  const qr = page.locator('[data-online-qr]');
  await expect(qr).toHaveJSProperty('complete', true);
  expect(await qr.evaluate((img) => img.naturalWidth)).toBeGreaterThan(100);

  const friend = await person(browser, errors);
  await friend.page.goto(link);
  await expect(onlineState(friend.page)).toHaveAttribute('data-online-state', 'playing');
  await expect(onlineState(page)).toHaveAttribute('data-online-state', 'playing');
  await expect(friend.page.locator('#player-o-name')).toHaveText(await myName(friend.page));

  // O may not move first; the refusal comes from the page, nothing is sent.
  await cell(friend.page, 0, 4).click();
  await expectMarks(friend.page, 0);

  const moves = [
    [page, 0],
    [friend.page, 3],
    [page, 1],
    [friend.page, 4],
  ];
  for (const [n, [who, c]] of moves.entries()) {
    await cell(who, 0, c).click();
    await expectMarks(page, n + 1);
    await expectMarks(friend.page, n + 1);
  }

  // O reloads: back in the same seat, the same position, X's turn.
  await friend.page.reload();
  await expect(onlineState(friend.page)).toHaveAttribute('data-online-state', 'playing');
  await expectMarks(friend.page, 4);
  await expect(friend.page.locator('#player-o-name')).toHaveText(await myName(friend.page));

  const watcher = await person(browser, errors);
  await watcher.page.goto(link);
  await expect(onlineState(watcher.page)).toHaveAttribute('data-online-state', 'playing');
  await expectMarks(watcher.page, 4);
  await expect(watcher.page.locator('.online-who')).toContainText('watching');
  // The players hear the count of watchers as they come and go (a count,
  // not a whole state each time).
  await expect(page.locator('.online-who')).toContainText('Watching: 1.');
  const passerBy = await person(browser, errors);
  await passerBy.page.goto(link);
  await expect(onlineState(passerBy.page)).toHaveAttribute('data-online-state', 'playing');
  await expect(friend.page.locator('.online-who')).toContainText('Watching: 2.');
  await passerBy.context.close();
  await expect(page.locator('.online-who')).toContainText('Watching: 1.');
  await cell(watcher.page, 0, 8).click();
  await expectMarks(watcher.page, 4);

  // X completes the top row.
  await cell(page, 0, 2).click();
  for (const p of [page, friend.page, watcher.page]) {
    await expect(onlineState(p)).toHaveAttribute('data-online-state', 'over');
    await expectMarks(p, 5);
  }
  await expect(page.locator('#status')).toHaveText('You win!');
  await expect(friend.page.locator('#status')).toHaveText('You lose.');
  await expect(watcher.page.locator('#status')).toHaveText('X wins!');

  // The finished game is in each player's own history, as an online game.
  const entry = async (p) =>
    p.evaluate(() => JSON.parse(localStorage.getItem('uttt.history')).games.find((g) => g.mode === 'online'));
  expect(await entry(page)).toMatchObject({ mode: 'online', side: 'x', result: 'x', record: 'classic:a1a2b1b2c1' });
  expect(await entry(friend.page)).toMatchObject({ mode: 'online', side: 'o', result: 'x' });

  // A rematch swaps the colours: the friend plays X now.
  await page.locator('[data-action="online-rematch"]').click();
  await friend.page.locator('[data-action="online-rematch"]').click();
  await expect(onlineState(page)).toHaveAttribute('data-online-state', 'playing');
  await expectMarks(page, 0);
  await expect(friend.page.locator('#player-x-name')).toHaveText(await myName(friend.page));

  // Leaving brings back the local game the creator had before (in mid-game
  // it asks first, as it resigns).
  await page.locator('[data-action="online-leave"]').click();
  await page.locator('dialog[open] [data-answer="ok"]').click();
  await expect(onlineState(page)).not.toHaveAttribute('data-online-state', /.*/);
  expect(new URL(page.url()).search).toBe('');

  await friend.context.close();
  await watcher.context.close();
  expect(errors).toEqual([]);
});

test('where no game server answers, the Online tab says online play is not available here and the local game stays', async ({ page }) => {
  // As on a static host: the WebSocket is refused.
  await page.routeWebSocket(/\/ws$/, (ws) => ws.close());
  await open(page);
  await cell(page, 4, 4).click();
  await aiIdle(page);
  const before = await markCount(page);
  expect(before).toBeGreaterThan(0);
  await showTab(page, 'online');
  await page.locator('[data-action="online-create"]').click();
  await expect(onlineState(page)).toHaveAttribute('data-online-state', 'unavailable');
  await expect(page.locator('.online-unavailable')).toBeVisible();
  await expect(page.locator('.online-unavailable')).toContainText('Online play isn’t available here. You can still play the AI or a friend on this device.');
  await expect(page.locator('.online-unavailable')).not.toContainText(/cargo|xtask|server|websocket/i);
  // The form is back, and the game on the board is the local one.
  await expect(page.locator('[data-action="online-create"]')).toBeVisible();
  await expect.poll(() => page.evaluate(() => new URL(location.href).search)).toBe('');
  await expectMarks(page, before);
});

test('a link to a room the server does not know says so and gives back the form and the local game', async ({ page }) => {
  await open(page, './?room=nosuchroom0000');
  await expect(page.locator('.online-unavailable')).toContainText('No room has that link');
  await expect(page.locator('[data-action="online-create"]')).toBeVisible();
  await expect(onlineState(page)).not.toHaveAttribute('data-online-state', /.*/);
  await expect.poll(() => page.evaluate(() => new URL(location.href).search)).toBe('');
  // The local game plays again (the AI may already have answered).
  await cell(page, 4, 4).click();
  await expect.poll(() => markCount(page)).toBeGreaterThanOrEqual(1);
});

test('a dropped connection reconnects on its own, back into the same seat, and the game goes on', async ({ page, browser }) => {
  const errors = [];
  const link = await createRoom(page);

  const friend = await person(browser, errors);
  const sockets = [];
  // Each of the friend's connections goes through here to the real server.
  await friend.page.routeWebSocket(/\/ws$/, (ws) => {
    sockets.push(ws);
    ws.connectToServer();
  });
  await friend.page.goto(link);
  await expect(onlineState(friend.page)).toHaveAttribute('data-online-state', 'playing');
  await cell(page, 0, 4).click();
  await expectMarks(friend.page, 1);

  // The network drops the friend's connection.
  await sockets[0].close({ code: 1006 });
  await expect.poll(() => sockets.length).toBe(2);
  await expect(onlineState(friend.page)).toHaveAttribute('data-online-state', 'playing');
  await expect(friend.page.locator('#player-o-name')).toHaveText(await myName(friend.page));
  await cell(friend.page, 0, 0).click();
  await expectMarks(page, 2);
  await expect(page.locator('#status')).toContainText('Your turn');

  await friend.context.close();
  expect(errors).toEqual([]);
});
