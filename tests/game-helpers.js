// Helpers for the game's specs: reading the board from the DOM contract
// (data-board, data-cell, data-mark, data-playable) and driving the page.

import { expect } from './support/fixtures.js';

/** Opens the page with a fresh game and waits until the board is drawn. */
export async function open(page, path = './') {
  await page.goto(path);
  await expect(page.locator('html')).toHaveAttribute('data-ready', 'true');
}

/** Chooses settings through the form (each change starts a new game). */
export async function choose(page, { kind, mode, level, rules } = {}) {
  if (kind) await page.selectOption('#set-kind', kind);
  if (rules) await page.selectOption('#set-rules', rules);
  if (level) await page.selectOption('#set-level', level);
  if (mode) await page.selectOption('#set-mode', mode);
}

/** The cell button at `cell` of small board `board`. */
export function cell(page, board, c) {
  return page.locator(`#board button[data-board="${board}"][data-cell="${c}"]`);
}

/** Every cell's mark as a string per cell ('' | 'x' | 'o'), in DOM order. */
export async function marks(page) {
  return page.locator('#board button[data-cell]').evaluateAll((cells) => cells.map((c) => c.dataset.mark ?? ''));
}

/** How many marks are on the board. */
export async function markCount(page) {
  return (await marks(page)).filter(Boolean).length;
}

/** The data-playable flag of each small board, as booleans. */
export async function playable(page) {
  return page.locator('#board .small').evaluateAll((boards) => boards.map((b) => b.dataset.playable === 'true'));
}

/** Waits until exactly `n` marks are on the board. */
export async function expectMarks(page, n, options) {
  await expect.poll(() => markCount(page), options).toBe(n);
}

/** Waits until the AI is not thinking. */
export async function aiIdle(page, timeout = 10_000) {
  await expect(page.locator('#status')).not.toHaveAttribute('data-tone', 'thinking', { timeout });
}
