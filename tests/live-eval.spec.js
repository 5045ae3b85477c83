// The live evaluation: while a person is to move, the worker analyses the
// shown position and the evaluation bar and its best line follow it. It never
// plays a move, stops while the bar is hidden, and does not slow the AI.
// During a game against the AI the bar keeps its numbers to itself (see
// engine-quiet.spec.js): there the analysis runs only for the words of the
// "who is ahead" option, and its reports are read from the controller's changes.

import { test, expect } from './support/fixtures.js';
import { reportFigures } from './support/figures.js';
import { open, choose, cell, expectMarks, markCount, aiIdle, showTab, newGame, timedMove, setOption } from './game-helpers.js';

/** Counts the page's live-evaluation reports in window.__analysis. */
async function watchAnalysis(page) {
  await page.evaluate(async () => {
    window.__analysis = [];
    const { subscribe } = await (await import(new URL('www/main.js', document.baseURI).href)).booted;
    subscribe((change) => {
      if (change.cause === 'analysis') window.__analysis.push(change.report);
    });
  });
}

/** The small board (0-8) of a move in notation (column a-i, row 1-9 from the top). */
function boardOf(move) {
  const col = move.charCodeAt(0) - 97;
  const row = Number(move.slice(1)) - 1;
  return Math.floor(row / 3) * 3 + Math.floor(col / 3);
}

/** The first move of the bar's best line, or null. */
async function lineStart(page) {
  const text = await page.getByTestId('eval-line').textContent();
  return /Best line: ([a-i][1-9])/.exec(text)?.[1] ?? null;
}

async function setBar(page, shown) {
  await setOption(page, '#opt-show-eval', shown);
}

test('the bar follows the position a person is to move in, never plays, and rests while hidden', async ({ page }) => {
  await open(page);
  await choose(page, { mode: 'human' });
  await watchAnalysis(page);
  // Nobody searches for a move in two-player play: the evaluation is the live one.
  await expect(page.getByTestId('eval-text')).toContainText(/X \d+% · draw \d+% · O \d+% · looked \d+ moves? ahead/);
  await expect(page.getByTestId('eval-line')).toContainText(/^Best line: [a-i][1-9]( [a-i][1-9])+/);

  await cell(page, 4, 4).click();
  // O is sent to the centre board: the line from the new position starts there.
  await expect.poll(async () => boardOf((await lineStart(page)) ?? 'a1'), { timeout: 10_000 }).toBe(4);
  const depths = await page.evaluate(() => window.__analysis.map((r) => r.depth));
  expect(depths.length).toBeGreaterThan(2);
  await page.waitForTimeout(1000);
  expect(await markCount(page)).toBe(1);

  // O's move: a new position, whose analysis has its whole 5 s cap ahead
  // (see engine-quiet.spec.js), so the cap cannot be why it rests below.
  await page.evaluate(() => {
    window.__analysis = [];
  });
  await cell(page, 4, 0).click();
  await expect.poll(() => page.evaluate(() => window.__analysis.length), { timeout: 10_000 }).toBeGreaterThan(0);
  await setBar(page, false);
  await page.evaluate(() => {
    window.__analysis = [];
  });
  await page.waitForTimeout(1000);
  expect(await page.evaluate(() => window.__analysis.length)).toBe(0);
  await setBar(page, true);
  await expect.poll(() => page.evaluate(() => window.__analysis.length), { timeout: 10_000 }).toBeGreaterThan(0);
  expect(await markCount(page)).toBe(2);
});

/** The first move of the last live-evaluation report's line, or null. */
async function reportedStart(page) {
  return page.evaluate(() => window.__analysis.at(-1)?.pv?.[0] ?? null);
}

test('looking back in a game against the AI, the evaluation follows the shown position, the bar says only words, and the AI waits', async ({ page }) => {
  await open(page);
  await setOption(page, '#opt-show-ahead', true);
  await choose(page, { mode: 'ai-x', level: 'easy' });
  await cell(page, 4, 4).click();
  await expectMarks(page, 2);
  await aiIdle(page);
  await watchAnalysis(page);
  await page.locator('#review-panel [data-nav="first"]').click();
  await expectMarks(page, 0);
  // The start position: X to move anywhere, and the line is X's.
  await expect.poll(() => page.evaluate(() => window.__analysis.length), { timeout: 10_000 }).toBeGreaterThan(1);
  expect(await reportedStart(page)).toMatch(/^[a-i][1-9]$/);
  // The bar keeps the line to itself.
  await expect(page.locator('#eval-bar')).toHaveAttribute('data-view', 'words');
  await expect(page.getByTestId('eval-line')).toHaveText('');
  await page.waitForTimeout(800);
  await expectMarks(page, 0);
  await page.evaluate(() => {
    window.__analysis = [];
  });
  await page.locator('#review-panel [data-nav="last"]').click();
  await expectMarks(page, 2);
  // Back at the live position X is to move in the board O sent it to.
  const o = await page.locator('#board button[data-mark="o"]').getAttribute('data-cell');
  const free = await page.locator(`#board .small[data-board="${o}"]`).getAttribute('data-playable');
  if (free === 'true') await expect.poll(async () => boardOf((await reportedStart(page)) ?? 'a1'), { timeout: 10_000 }).toBe(Number(o));
  await expect(page.getByTestId('eval-line')).toHaveText('');
  await page.waitForTimeout(800);
  await expectMarks(page, 2);
});

// @quiet: measured alone (see playwright.config.js).
test('the live evaluation gives way to the AI\'s search', { tag: '@quiet' }, async ({ page }, testInfo) => {
  await open(page);
  await choose(page, { mode: 'ai-x', level: 'hard' });
  const reply = async () => {
    const ms = await timedMove(page, 4, 4, 2);
    await aiIdle(page);
    return ms;
  };
  // Against the AI the live evaluation runs for the "who is ahead" words.
  // Off first, so the run with it on meets the analyst already made.
  await setOption(page, '#opt-show-ahead', false);
  const off = await reply();
  await newGame(page);
  await expectMarks(page, 0);
  await setOption(page, '#opt-show-ahead', true);
  await watchAnalysis(page);
  // The person thinks while the analyst works on the start position.
  await expect.poll(() => page.evaluate(() => window.__analysis.length), { timeout: 10_000 }).toBeGreaterThan(2);
  await page.waitForTimeout(1000);
  const on = await reply();
  reportFigures(testInfo, { replyMsLiveEvaluationOff: off, replyMsLiveEvaluationOn: on });
  // Hard spends its whole second either way; a worker that went on with the
  // analysis before the search would add the analysis' seconds to it.
  expect(on).toBeLessThan(off + 2000);
});
