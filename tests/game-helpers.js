// Helpers for the game's specs: reading the board from the DOM contract
// (data-board, data-cell, data-mark, data-playable) and driving the page.

import { expect } from './support/fixtures.js';

/** Opens the page with a fresh game and waits until the board is drawn. */
export async function open(page, path = './') {
  await page.goto(path);
  await expect(page.locator('html')).toHaveAttribute('data-ready', 'true');
}

/**
 * Opens the page with these settings stored, as a returning player would:
 * Ultimate against a Beginner AI, playing X, unless `settings` say otherwise.
 */
export async function openWith(page, settings) {
  await page.addInitScript((data) => {
    if (sessionStorage.getItem('uttt.seeded')) return;
    sessionStorage.setItem('uttt.seeded', '1');
    localStorage.setItem('uttt.settings', JSON.stringify({ v: 1, data }));
  }, { kind: 'ultimate', mode: 'ai-x', level: 'beginner', levelO: 'beginner', rules: 'standard', speed: 'fast', ...settings });
  await open(page);
}

/** Opens the panel's tab `name` (moves, game, stats, share). */
export async function showTab(page, name) {
  await page.locator(`#tab-${name}`).click();
  await expect(page.locator(`#pane-${name}`)).toBeVisible();
}

/**
 * Chooses settings through the form in the Game tab (each change starts a
 * new game; with a game in progress, the question is answered yes), then
 * goes back to the Moves tab, where the specs read the game.
 */
export async function choose(page, { kind, mode, level, rules } = {}) {
  await showTab(page, 'game');
  const agree = async () => {
    const dialog = page.locator('dialog[open]');
    if (await dialog.count()) await dialog.locator('[data-answer="ok"]').click();
  };
  for (const [selector, value] of [['#set-kind', kind], ['#set-rules', rules], ['#set-level', level], ['#set-mode', mode]]) {
    if (!value) continue;
    await page.selectOption(selector, value);
    await agree();
  }
  await showTab(page, 'moves');
}

/** Presses New game (or N) and agrees to end a game in progress. */
export async function newGame(page) {
  await page.locator('#btn-new').click();
  const dialog = page.locator('dialog[open]');
  if (await dialog.count()) await dialog.locator('[data-answer="ok"]').click();
}

/** Plays moves in a two-player game, `[board, cell]` pairs, each seen on the board before the next. */
export async function playAll(page, moves) {
  for (const [b, c] of moves) {
    const before = await markCount(page);
    await cell(page, b, c).click();
    await expectMarks(page, before + 1);
  }
}

/** Checks or unchecks the Game tab's option `selector`, then shows the Moves tab. */
export async function setOption(page, selector, on) {
  await showTab(page, 'game');
  if (on) await page.locator(selector).check();
  else await page.locator(selector).uncheck();
  await showTab(page, 'moves');
}

/** Turns the overlay of every move's worth on or off (see setOption). */
export function setOverlay(page, shown) {
  return setOption(page, '[data-testid="worth-toggle"]', shown);
}

/** The CSS selector of the cell button at `cell` of small board `board` (for code run in the page). */
export function cellSelector(board, c) {
  return `#board button[data-board="${board}"][data-cell="${c}"]`;
}

/** The cell button at `cell` of small board `board`. */
export function cell(page, board, c) {
  return page.locator(cellSelector(board, c));
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

/**
 * Clicks cell `c` of small board `board` and waits until `n` marks are on
 * the board; the milliseconds from the click to the first frame that shows
 * them, by the page's clock. (Timing around expect.poll would add its
 * polling steps, up to a second, to the figure.)
 */
export async function timedMove(page, board, c, n, timeout = 10_000) {
  await page.evaluate(() => {
    window.__clickedAt = null;
    document.addEventListener('click', () => (window.__clickedAt = performance.now()), { capture: true, once: true });
  });
  await cell(page, board, c).click();
  const handle = await page.waitForFunction(
    (n) => {
      const shown = [...document.querySelectorAll('#board button[data-cell]')].filter((b) => b.dataset.mark).length;
      return shown === n && window.__clickedAt !== null && performance.now() - window.__clickedAt;
    },
    n,
    { polling: 'raf', timeout },
  );
  return Math.round(await handle.jsonValue());
}

/** Waits until the AI is not thinking. */
export async function aiIdle(page, timeout = 10_000) {
  await expect(page.locator('#status')).not.toHaveAttribute('data-tone', 'thinking', { timeout });
}

/** Opens the Play view (`#/play`) with one tap on the top bar's Play, and waits for it. */
export async function openPlay(page) {
  await page.locator('[data-action="open-play"]').click();
  await expect(page.locator('[data-view="play"]')).toBeVisible();
}

/** The signed-in player's name as the page shows it (`[data-me]`), once it has one. */
export async function myName(page) {
  const me = page.locator('[data-me]');
  await expect(me).not.toHaveAttribute('data-me', '');
  return me.getAttribute('data-me');
}

/**
 * Another person at another browser: a context of their own (made with
 * `context` options, e.g. a viewport or a locale; the tutorial marked
 * seen unless `fresh`, a first visit), their console and page errors
 * pushed to `errors` unless `allowed` matches them.
 * @param {import('@playwright/test').Browser} browser
 * @param {string[]} errors
 * @param {{ fresh?: boolean, context?: object, allowed?: RegExp | null }} [options]
 */
export async function person(browser, errors, { fresh = false, context: contextOptions = {}, allowed = null } = {}) {
  const context = await browser.newContext(contextOptions);
  if (!fresh) await context.addInitScript(() => localStorage.setItem('uttt.tutorial', 'done'));
  const page = await watched(context, errors, allowed);
  return { context, page };
}

/** A new page of `context` whose errors (but those `allowed` matches) go to `errors`. */
export async function watched(context, errors, allowed = null) {
  const page = await context.newPage();
  const record = (line) => {
    if (!allowed?.test(line)) errors.push(line);
  };
  page.on('pageerror', (error) => record(`uncaught page error: ${error.message}`));
  page.on('console', (message) => {
    if (message.type() === 'error') record(`console.error: ${message.text()}`);
  });
  return page;
}

/**
 * `page` and a new person (`other`: their context and page, with `context`
 * options, made ready by `prepare(context)` before their page opens) press
 * Play now at timing `tc` and are paired; resolves once both play, to
 * `{x, o, other}`, the pages of X and O.
 */
export async function pairedByPlayNow(page, browser, errors, { tc = '2d', context = {}, prepare = async () => {} } = {}) {
  const other = await person(browser, errors, { context });
  await prepare(other.context);
  for (const who of [page, other.page]) {
    await open(who);
    await openPlay(who);
    await who.locator(`[data-action="play-now"][data-tc="${tc}"]`).click();
  }
  for (const who of [page, other.page]) await expect(who.locator('html')).toHaveAttribute('data-online-state', 'playing');
  const pageIsX = await page.evaluate(() => document.querySelector('#player-x-name')?.textContent?.includes(document.querySelector('[data-me]')?.getAttribute('data-me') ?? '?'));
  const [x, o] = pageIsX ? [page, other.page] : [other.page, page];
  return { x, o, other };
}
