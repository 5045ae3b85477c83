// Conditional moves (docs/protocol.md, "Conditional moves") through the
// real uttt-server: in a game of two days a move between two strangers,
// the player at the opponent's move keeps "if a1, then b2" in the Online
// tab (typed in the board's coordinates, checked by the core first); the
// opponent plays a1 and the answer comes at once, on both boards. The
// opponent never sees the line.

import { test, expect } from './support/fixtures.js';
import { open, openPlay, showTab, cell, expectMarks, person } from './game-helpers.js';

const root = (page) => page.locator('html');

test('a conditional move answers the opponent at once, seen by its player alone', async ({ page, browser }) => {
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
  await cell(o, 4, 0).click();
  await expectMarks(x, 2);

  // At X's move, O keeps an answer to a1.
  await showTab(o, 'online');
  const part = o.locator('[data-conditional]');
  await expect(part).toBeVisible();
  const input = part.locator('[data-conditional-input]');
  await input.fill('a1');
  await part.locator('[data-action="conditional-add"]').click();
  await expect(part.locator('[role="status"]')).toHaveText('Type their move and your answer, in pairs (up to 12 moves).');
  await input.fill('e5 b2');
  await part.locator('[data-action="conditional-add"]').click();
  await expect(part.locator('[role="status"]')).toHaveText('Move 1 (e5) cannot be played there.');
  await input.fill('a1 b2');
  await part.locator('[data-action="conditional-add"]').click();
  await expect(part.locator('[data-conditional-line]')).toHaveText(/^if a1, then b2 Remove$/);
  await expect(input).toHaveValue('');

  // X's Online tab says nothing of it.
  await showTab(x, 'online');
  await expect(x.locator('[data-conditional]')).toContainText('It is your move');
  await expect(x.locator('[data-conditional-line]')).toHaveCount(0);

  // X plays a1: O's b2 is played at once.
  await cell(x, 0, 0).click();
  for (const who of [x, o]) await expectMarks(who, 4);
  await expect(x.locator('[data-board="0"] [data-cell="4"]')).toHaveAttribute('aria-label', /O/);
  await expect(part.locator('[data-conditional-line]')).toHaveCount(0);
  await expect(x.locator('[data-conditional-line]')).toHaveCount(0);
  expect(errors).toEqual([]);
  await other.context.close();
});
