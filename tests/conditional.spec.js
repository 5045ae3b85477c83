// Conditional moves (docs/protocol.md, "Conditional moves") through the
// real uttt-server: in a game of two days a move between two strangers,
// the player at the opponent's move keeps "if b1, then e2" typed in the
// board's coordinates (checked by the core first) and "if a1, then b2"
// played on the Online tab's small board; the opponent plays a1 and the
// answer comes at once, on both boards. The opponent never sees a line.

import { test, expect } from './support/fixtures.js';
import { showTab, cell, expectMarks, pairedByPlayNow } from './game-helpers.js';

test('a conditional move answers the opponent at once, seen by its player alone', async ({ page, browser }) => {
  const errors = [];
  const { x, o, other } = await pairedByPlayNow(page, browser, errors);
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
  // Typed: if b1, then e2.
  await input.fill('b1 e2');
  await part.locator('[data-action="conditional-add"]').click();
  await expect(part.locator('[data-conditional-line]')).toHaveText(/^if b1, then e2 Remove$/);
  await expect(input).toHaveValue('');
  // Played on the small board: if a1, then b2.
  const keep = part.locator('[data-action="plan-keep"]');
  await part.locator('[data-plan-board-cell="0-0"]').click();
  await expect(part.locator('[data-plan-line]')).toHaveText('Line: a1 (now your answer)');
  await expect(keep).toBeDisabled();
  await expect(part.locator('[data-plan-board-cell="4-4"]')).toBeDisabled();
  await part.locator('[data-plan-board-cell="0-4"]').click();
  await expect(part.locator('[data-plan-line]')).toHaveText('Line: a1 b2');
  await keep.click();
  await expect(part.locator('[data-conditional-line]')).toHaveCount(2);
  await expect(part.locator('[data-conditional-line]').nth(1)).toHaveText(/^if a1, then b2 Remove$/);
  await expect(part.locator('[data-plan-line]')).toHaveText('Play their move, then your answer, on the small board.');

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
