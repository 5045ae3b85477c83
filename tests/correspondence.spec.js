// Correspondence games (days a move) through the real uttt-server that
// serves these tests: two strangers press Play now at two days a move and
// are paired; the clocks count days; the player whose move it is sees the
// count on the tab's title and the app's icon badge; leaving gives nothing
// up; the game waits in "Your move" in the Play view, on this device and
// on another one signed in to the same account (whose game screen says so
// too), and is played on from it.

import { test, expect } from './support/fixtures.js';
import { open, openPlay, showTab, cell, expectMarks, person } from './game-helpers.js';

const root = (page) => page.locator('html');

/** Records the app badge the page sets (a stand-in for the installed app's icon). */
async function watchBadge(context) {
  await context.addInitScript(() => {
    /** @type {any} */ (window).badge = null;
    Object.assign(navigator, {
      setAppBadge: (n) => Promise.resolve(void (/** @type {any} */ (window).badge = n)),
      clearAppBadge: () => Promise.resolve(void (/** @type {any} */ (window).badge = 0)),
    });
  });
}

test('a game of two days a move waits under Your move, on every device', async ({ page, browser }) => {
  const errors = [];
  await watchBadge(page.context());
  const other = await person(browser, errors);
  await watchBadge(other.context);
  for (const who of [page, other.page]) {
    await open(who);
    await openPlay(who);
    await who.locator('label[for="playnow-classic"]').click();
    await expect(who.locator('.playnow-days-heading')).toHaveText('Correspondence: days a move');
    await expect(who.locator('[data-action="play-now"][data-tc="2d"]')).toContainText('2 days');
    await who.locator('[data-action="play-now"][data-tc="2d"]').click();
  }
  for (const who of [page, other.page]) await expect(root(who)).toHaveAttribute('data-online-state', 'playing');

  // The clocks count days and hours.
  await expect(page.locator('[data-clock="x"]')).toHaveText(/^(2d 0h|1d 23h)$/);
  const iAmX = await page.evaluate(() => document.querySelector('#player-x-name')?.textContent?.includes(document.querySelector('[data-me]')?.getAttribute('data-me') ?? '?'));
  const [x, o] = iAmX ? [page, other.page] : [other.page, page];
  const oContext = iAmX ? other.context : page.context();

  await cell(x, 0, 4).click();
  await expectMarks(o, 1);
  // O's move: the app's badge counts it; the title says "Your move" (the
  // game is on the board), and counts it once the game is not.
  await expect.poll(() => o.evaluate(() => /** @type {any} */ (window).badge)).toBe(1);
  await expect(o).toHaveTitle(/^Your move · /);
  await expect(x).not.toHaveTitle(/^\(/);

  // O leaves: a correspondence game goes on (no question, no resignation).
  await showTab(o, 'online');
  await o.locator('[data-action="online-leave"]').click();
  await expect(root(o)).not.toHaveAttribute('data-online-state', /.*/);
  await expect(o.locator('dialog[open]')).toHaveCount(0);
  await expect(root(x)).toHaveAttribute('data-online-state', 'playing');
  await expect(o).toHaveTitle(/^\(1\) /);

  // On another device signed in to O's account (its session, as signing
  // in there leaves it), the game waits under Your move.
  const device = await browser.newContext();
  await device.addCookies(await oContext.cookies());
  await device.addInitScript(() => {
    localStorage.setItem('uttt.tutorial', 'done');
    localStorage.setItem('uttt.signedIn', '1');
  });
  const phone = await device.newPage();
  phone.on('pageerror', (error) => errors.push(`uncaught page error: ${error.message}`));
  await open(phone);
  // The page's own notice: the game waiting for this player's move.
  await expect(phone.locator('[data-action="return-to-game"]')).toHaveText(/^Your move against \S+$/);
  await openPlay(phone);
  const row = phone.locator('[data-your-move] [data-game]');
  await expect(row).toHaveCount(1);
  await expect(row).toContainText(/^You play O against \S+ · Classic · 2 days/);
  await expect(row.locator('.hint')).toHaveText(/^1d 23h left$/);
  await expect(phone).toHaveTitle(/^\(1\) /);

  // Played on from there: back in O's seat, the move goes to X.
  await row.locator('[data-action="return-running"]').click();
  await expect(root(phone)).toHaveAttribute('data-online-state', 'playing');
  await expectMarks(phone, 1);
  await cell(phone, 0, 0).click();
  await expectMarks(x, 2);
  await expect(x).toHaveTitle(/^Your move · /);
  await expect.poll(() => x.evaluate(() => /** @type {any} */ (window).badge)).toBe(1);
  await expect(phone).not.toHaveTitle(/^\(/);
  // O's first device, asked again, has nothing waiting for it.
  await openPlay(o);
  await expect(o.locator('[data-your-move] [data-game]')).toHaveCount(0);
  await expect(o.locator('[data-running-game]')).toHaveCount(1);
  await expect(o.locator('[data-running-game]')).toContainText(/^You play O against/);
  expect(errors).toEqual([]);
  await device.close();
  await other.context.close();
});
