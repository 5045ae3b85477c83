// The game screen (issue 19): the whole game in one view at every size,
// nothing lost by accident, one source of truth for scores, Continue from
// here, AI vs AI pause and step, and keyboard play in few key presses.

import { test, expect } from './support/fixtures.js';
import { open, openWith, showTab, cell, markCount, expectMarks, aiIdle } from './game-helpers.js';

// Keyboard play at a phone upright and lying down and a laptop: the other
// sizes differ from these only in their layout, which tests/layout.spec.js
// holds to the same rules (nothing moves or scrolls) move by move.
const SIZES = [
  [360, 640],
  [640, 360],
  [1366, 768],
];

/** Every control the issue names, each fully inside the viewport. */
async function offScreen(page) {
  return page.evaluate(() => {
    const ids = ['board', 'status', 'btn-new', 'btn-undo', 'btn-redo', 'btn-hint'];
    return ids.filter((id) => {
      const box = document.getElementById(id).getBoundingClientRect();
      return !(box.width > 0 && box.top >= 0 && box.left >= 0 && box.bottom <= innerHeight && box.right <= innerWidth);
    });
  });
}

/** Waits for the person's turn against the AI (or the end). */
async function yourTurn(page) {
  await aiIdle(page);
  await expect(page.locator('#board')).toHaveAttribute('data-interactive', /true|false/);
  await expect
    .poll(() => page.locator('#board').evaluate((b) => b.dataset.interactive === 'true' || b.dataset.over === 'true'))
    .toBe(true);
}

for (const [width, height] of SIZES) {
  test.describe(`at ${width}x${height}`, () => {
    test.use({ viewport: { width, height }, hasTouch: true });

    // Ten moves by tap at these sizes and more: tests/layout.spec.js.

    test('ten moves by keyboard never scroll the page, in at most 3 key presses a move (median)', async ({ page }, info) => {
      await openWith(page, {});
      await page.locator('#board button[data-legal="true"]').first().focus();
      const presses = [];
      // A fixed sequence of choices so the figure is repeatable.
      const choice = [4, 0, 8, 2, 6, 1, 5, 3, 7, 4];
      for (let i = 0; i < 10; i += 1) {
        await yourTurn(page);
        if ((await page.locator('#board').getAttribute('data-over')) === 'true') break;
        const plan = await page.evaluate((pick) => {
          const at = (b) => {
            const r = Math.floor(Number(b.dataset.board) / 3) * 3 + Math.floor(Number(b.dataset.cell) / 3);
            const c = (Number(b.dataset.board) % 3) * 3 + (Number(b.dataset.cell) % 3);
            return [r, c];
          };
          const legal = [...document.querySelectorAll('#board button[data-legal="true"]')];
          const target = legal.find((b) => Number(b.dataset.cell) === pick) ?? legal[0];
          const [r0, c0] = at(document.activeElement);
          const [r1, c1] = at(target);
          return { dr: r1 - r0, dc: c1 - c0, inBoard: document.getElementById('board').contains(document.activeElement) };
        }, choice[i]);
        expect(plan.inBoard).toBe(true);
        let count = 0;
        for (let k = 0; k < Math.abs(plan.dr); k += 1, count += 1) await page.keyboard.press(plan.dr > 0 ? 'ArrowDown' : 'ArrowUp');
        for (let k = 0; k < Math.abs(plan.dc); k += 1, count += 1) await page.keyboard.press(plan.dc > 0 ? 'ArrowRight' : 'ArrowLeft');
        const before = await markCount(page);
        await page.keyboard.press('Enter');
        count += 1;
        presses.push(count);
        // The AI's reply may already be on the board too.
        await expect.poll(() => markCount(page)).toBeGreaterThan(before);
        expect(await page.evaluate(() => scrollY)).toBe(0);
        expect(await offScreen(page)).toEqual([]);
      }
      const sorted = [...presses].sort((a, b) => a - b);
      const median = sorted[Math.floor(sorted.length / 2)];
      info.annotations.push({ type: 'key presses a move', description: `${presses.join(',')} (median ${median})` });
      expect(median).toBeLessThanOrEqual(3);
    });
  });
}

test('a double-click on a cell plays one move and nothing else', async ({ page }) => {
  await openWith(page, { mode: 'human' });
  await cell(page, 4, 4).dblclick();
  await expectMarks(page, 1);
  await page.waitForTimeout(300);
  expect(await markCount(page)).toBe(1);
  expect(await page.evaluate(() => scrollY)).toBe(0);
});

test('N in the middle of a game asks first, and the game left is kept in the history', async ({ page }) => {
  await openWith(page, { mode: 'human' });
  for (const [b, c] of [[4, 4], [4, 0], [0, 8]]) await cell(page, b, c).click();
  await page.keyboard.press('n');
  const dialog = page.locator('dialog[open]');
  await expect(dialog).toContainText('3 moves');
  // While the question is open the shortcuts and the board stand still.
  await page.keyboard.press('u');
  await page.keyboard.press('r');
  await page.keyboard.press('n');
  await expect(page.locator('dialog[open]')).toHaveCount(1);
  await expectMarks(page, 3);
  await page.keyboard.press('Escape');
  await expect(dialog).toHaveCount(0);
  await expectMarks(page, 3);
  // The safe choice has the focus: Enter alone keeps the game.
  await page.keyboard.press('n');
  await expect(page.locator('dialog[open] [data-answer="cancel"]')).toBeFocused();
  await expect(page.locator('dialog[open] .dialog-buttons > button').first()).toHaveAttribute('data-answer', 'cancel');
  await page.keyboard.press('Enter');
  await expect(dialog).toHaveCount(0);
  await expectMarks(page, 3);
  // Agreed, the game goes to the history as unfinished and can be replayed.
  await page.keyboard.press('n');
  await page.locator('dialog[open] [data-answer="ok"]').click();
  await expectMarks(page, 0);
  await showTab(page, 'stats');
  const rows = page.getByTestId('history-list').locator('li');
  await expect(rows).toHaveCount(1);
  await expect(rows.first()).toContainText('Unfinished');
  await rows.first().getByRole('button').click();
  await expect(page.locator('.move-list button[data-ply]')).toHaveCount(3);
});

test('a settings change in mid-game asks, and Keep playing changes nothing', async ({ page }) => {
  await openWith(page, { mode: 'human' });
  await cell(page, 4, 4).click();
  await showTab(page, 'game');
  await page.selectOption('#set-kind', 'classic');
  await page.locator('dialog[open] [data-answer="cancel"]').click();
  await expect(page.locator('#set-kind')).toHaveValue('ultimate');
  await expect(page.locator('#board')).toHaveAttribute('data-kind', 'ultimate');
  await expectMarks(page, 1);
});

test('undo and replay of a win counts it once, in the score card and the statistics alike', async ({ page }) => {
  await openWith(page, { kind: 'classic', mode: 'human' });
  for (const c of [0, 3, 1, 4, 2]) await cell(page, 0, c).click();
  await expect(page.locator('#status')).toHaveText('X wins!');
  for (let i = 0; i < 3; i += 1) {
    await page.locator('#btn-undo').click();
    await cell(page, 0, 2).click();
    await expect(page.locator('#status')).toHaveText('X wins!');
  }
  await expect(page.locator('#score-x')).toHaveText('1');
  await expect(page.getByTestId('stats-human')).toContainText('X wins 1');
});

test('against the AI the score card is kept per level', async ({ page }) => {
  await page.addInitScript(() => {
    const entry = (level, result) => ({
      date: '2026-11-01T10:00:00Z', kind: 'ultimate', rules: 'standard', mode: 'ai', level, side: 'x', result, record: 'ultimate-standard:e5',
    });
    localStorage.setItem('uttt.history', JSON.stringify({ v: 1, games: [entry('easy', 'x'), entry('easy', 'x'), entry('hard', 'o')] }));
  });
  await openWith(page, { level: 'easy' });
  await expect(page.locator('#score-x')).toHaveText('2');
  await expect(page.locator('#score-o')).toHaveText('0');
  await showTab(page, 'game');
  await page.selectOption('#set-level', 'hard');
  await expect(page.locator('#score-x')).toHaveText('0');
  await expect(page.locator('#score-o')).toHaveText('1');
});

test('with storage full the player is told at once, and no move is lost', async ({ page }) => {
  await openWith(page, { mode: 'human' });
  await cell(page, 4, 4).click();
  // Fill the origin's storage to its quota.
  await page.evaluate(() => {
    let chunk = 'x'.repeat(1 << 20);
    for (let i = 0; chunk.length > 0; ) {
      try {
        localStorage.setItem(`filler.${i}`, chunk);
        i += 1;
      } catch {
        chunk = chunk.slice(0, Math.floor(chunk.length / 2));
      }
    }
  });
  // Full to within a few characters: six moves make the saved record 12 longer.
  for (const [b, c] of [[4, 0], [0, 8], [8, 4], [4, 2], [2, 4], [4, 1]]) await cell(page, b, c).click();
  await expect(page.locator('#status')).toContainText('storage is full');
  await expectMarks(page, 7);
  // Room again: the next move (or the retry) saves everything.
  await page.evaluate(() => {
    for (const key of Object.keys(localStorage)) if (key.startsWith('filler.')) localStorage.removeItem(key);
  });
  await cell(page, 1, 3).click();
  await expect(page.locator('#status')).not.toContainText('storage is full');
  await page.reload();
  await expect(page.locator('html')).toHaveAttribute('data-ready', 'true');
  await expectMarks(page, 8);
});

test('a browser that refuses storage altogether still plays, and says the game will not be kept', async ({ page }) => {
  // As Chrome does with cookies blocked: even reading window.localStorage throws.
  await page.addInitScript(() => {
    Object.defineProperty(window, 'localStorage', {
      get() {
        throw new DOMException('The operation is insecure.', 'SecurityError');
      },
    });
  });
  await open(page);
  await expect(page.locator('#status')).toContainText('does not let the page save games');
  await cell(page, 4, 4).click();
  await expectMarks(page, 2, { timeout: 20_000 });
  await showTab(page, 'stats');
  await expect(page.locator('#stats-panel')).toBeVisible();
});

test('an unreadable history entry is set aside under its own key, never deleted', async ({ page }) => {
  await page.addInitScript(() => {
    if (sessionStorage.getItem('seeded.history')) return;
    sessionStorage.setItem('seeded.history', '1');
    localStorage.setItem('uttt.history', JSON.stringify({
      v: 1,
      games: [
        { date: '2026-11-01T10:00:00Z', kind: 'ultimate', rules: 'standard', mode: 'human', result: 'x', record: 'ultimate-standard:e5' },
        { date: 'someday', kind: 'chess', result: 'x', record: 'e4e5' },
      ],
    }));
  });
  await openWith(page, { kind: 'classic', mode: 'human' });
  for (const c of [0, 3, 1, 4, 2]) await cell(page, 0, c).click();
  await expect(page.locator('#status')).toHaveText('X wins!');
  const aside = await page.evaluate(() =>
    Object.keys(localStorage).filter((k) => k.startsWith('uttt.history.unreadable.')).map((k) => localStorage.getItem(k)).join());
  expect(aside).toContain('chess');
  const kept = await page.evaluate(() => JSON.parse(localStorage.getItem('uttt.history')).games.length);
  expect(kept).toBe(2);
});

test('from an earlier position against the AI, Continue from here lets the AI move', async ({ page }) => {
  await openWith(page, {});
  await cell(page, 4, 4).click();
  await expectMarks(page, 2);
  await yourTurn(page);
  // Back to the position after your first move: it is the AI's turn there.
  await page.locator('.move-list button[data-ply="1"]').click();
  await expectMarks(page, 1);
  // The status says where the person is; Continue from here stands beside it.
  await expect(page.locator('#status')).toContainText('Viewing move 1 of 2');
  await expect(page.locator('#btn-continue')).toBeVisible();
  await cell(page, 0, 0).click();
  await expect(page.locator('#status')).toContainText('Continue from here');
  await page.locator('#btn-continue').click();
  await expectMarks(page, 2);
  await yourTurn(page);
  await expect(page.locator('#btn-continue')).toBeHidden();
  await expect(page.locator('.move-list button[data-ply]')).toHaveCount(2);
});

test('AI vs AI pauses, steps one move at a time, and resumes, each side at its own level', async ({ page }) => {
  // At the normal speed (600 ms a move) the game is still on when Pause is
  // pressed, however busy the machine; at the fast speed it could be over.
  await openWith(page, { mode: 'watch', level: 'beginner', levelO: 'easy', speed: 'normal' });
  await expect(page.locator('#player-o-name')).toContainText('Easy');
  await expect(page.locator('#player-x-name')).toContainText('Beginner');
  await expect.poll(() => markCount(page)).toBeGreaterThan(0);
  // Pause sits in the controls row, beside the board.
  await page.locator('#btn-pause').click();
  await aiIdle(page);
  const paused = await markCount(page);
  await page.waitForTimeout(1000);
  expect(await markCount(page)).toBe(paused);
  await expect(page.locator('#status')).toContainText('Paused');
  await page.locator('#btn-step').click();
  await expectMarks(page, paused + 1);
  await page.waitForTimeout(800);
  expect(await markCount(page)).toBe(paused + 1);
  await page.locator('#btn-pause').click();
  await expect.poll(() => markCount(page)).toBeGreaterThan(paused + 2);
});

test('coordinates are on the board edges and can be hidden', async ({ page }) => {
  await openWith(page, { mode: 'human' });
  await expect(page.locator('#coords-cols')).toHaveText('abcdefghi');
  await expect(page.locator('#coords-rows')).toHaveText('123456789');
  await showTab(page, 'game');
  await page.locator('#opt-coords').uncheck();
  await expect(page.locator('#coords-cols')).toBeHidden();
  await page.reload();
  await expect(page.locator('html')).toHaveAttribute('data-ready', 'true');
  await expect(page.locator('#coords-cols')).toBeHidden();
});
