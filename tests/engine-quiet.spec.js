// The engine keeps its thoughts to itself during a game against the AI:
// the evaluation bar shows no chances, no best line and no depth at any
// position of a game still being played (hidden by default, or a calm
// sentence in words with the "who is ahead" option), and the worker rests
// while the player thinks. Everything comes back once the game is over, in
// two-player games and in AI vs AI. The live evaluation stops at its cap,
// when its pane is closed and when the bar is scrolled away, and "Keep
// analysing" lets it run on.
//
// The worker's activity is read from the root's data-ai-work (see
// AiClient.work in www/ai.js: 'idle' only when nothing the page asked for
// may still be searching) and from the worker's own messages.

import { test, expect } from './support/fixtures.js';
import { open, choose, cell, expectMarks, aiIdle, showTab, playAll, setOption } from './game-helpers.js';

/** Anything of the engine's search that words-only must never show. */
const NUMBERS = /\d|%|Best line|moves? ahead|depth/;
/** The sentences the bar may say during a game against the AI. */
const WORDS = /^Evaluation: (About even|[XO] is (well )?ahead|[XO] is winning|No evaluation yet: it appears while the engine searches\.)$/;

const bar = (page) => page.locator('#eval-bar');
const work = (page) => page.evaluate(() => document.documentElement.dataset.aiWork);

/** Logs every message the worker sends the page in window.__fromWorker: `{at, type}`. */
async function logWorker(page) {
  await page.addInitScript(() => {
    window.__fromWorker = [];
    const PageWorker = window.Worker;
    window.Worker = class extends PageWorker {
      constructor(...args) {
        super(...args);
        this.addEventListener('message', (event) => {
          window.__fromWorker.push({ at: performance.now(), type: event.data?.type });
        });
      }
    };
  });
}

/** How many search reports (progress, analysis, survey) the worker sent since `since` (page clock). */
function reportsSince(page, since) {
  return page.evaluate(
    (t) => window.__fromWorker.filter((m) => m.at > t && ['progress', 'analysis', 'survey'].includes(m.type)).length,
    since,
  );
}

/** The bar's text as the page holds it (hidden or not), and whether it is shown. */
async function barState(page) {
  return bar(page).evaluate((host) => ({
    hidden: host.hidden,
    view: host.dataset.view,
    text: host.textContent,
    line: host.querySelector('[data-testid="eval-line"]').textContent,
  }));
}

/**
 * The bar is quiet (`words` as expectQuiet) at the two-move game's end, at
 * its start, and back at its end: looking back gives nothing away either.
 */
async function expectQuietBackAndForth(page, { words }) {
  await expectQuiet(page, { words });
  await page.locator('#review-panel [data-nav="first"]').click();
  await expectMarks(page, 0);
  await expectQuiet(page, { words });
  await page.locator('#review-panel [data-nav="last"]').click();
  await expectMarks(page, 2);
}

/** Checks the bar shows nothing of the search: hidden and empty, or words only. */
async function expectQuiet(page, { words }) {
  const state = await barState(page);
  expect(state.line).toBe('');
  if (words) {
    expect(state.view).toBe('words');
    await expect(bar(page)).toBeVisible();
    await expect(page.getByTestId('eval-text')).toHaveText(WORDS);
    await expect(bar(page).locator('.eval-track')).toBeHidden();
    await expect(page.getByTestId('eval-more')).toBeHidden();
  } else {
    expect(state.view).toBe('off');
    await expect(bar(page)).toBeHidden();
  }
  expect(state.text.replace(/^Evaluation: /, '')).not.toMatch(NUMBERS);
}

test('against the AI by default the bar shows nothing of the engine, and the worker rests while the player thinks', async ({ page }) => {
  test.slow();
  await logWorker(page);
  await open(page);
  // The defaults: you (X) against the AI at Medium, which does not ponder.
  await expectQuiet(page, { words: false });
  await cell(page, 4, 4).click();
  // While the AI searches, its reports stay off the bar.
  await expect.poll(() => reportsSince(page, 0)).toBeGreaterThan(0);
  await expectQuiet(page, { words: false });
  await expectMarks(page, 2);
  await aiIdle(page);
  // Looking back would give the same away.
  await expectQuietBackAndForth(page, { words: false });

  // The player thinks for ten seconds: nothing searches.
  const thinkFrom = await page.evaluate(() => performance.now());
  await page.waitForTimeout(10_000);
  expect(await work(page)).toBe('idle');
  expect(await reportsSince(page, thinkFrom)).toBe(0);
  await expectQuiet(page, { words: false });
});

test('with "who is ahead" on, the bar says who is ahead in words only, at every position of the game', async ({ page }) => {
  await open(page);
  await setOption(page, '#opt-show-ahead', true);
  await choose(page, { level: 'easy' });
  await cell(page, 4, 4).click();
  await expectMarks(page, 2);
  await aiIdle(page);
  await expect(page.getByTestId('eval-text')).not.toHaveText(/No evaluation yet/, { timeout: 15_000 });
  await expectQuietBackAndForth(page, { words: true });

  // The hint still names its move, but puts no numbers on the bar.
  await page.getByTestId('hint').click();
  await expect(page.getByTestId('hint-text')).toContainText(/Hint: [a-i][1-9]/);
  await expectQuiet(page, { words: true });

  // The words are in Chinese too.
  await page.evaluate(() => {
    localStorage.setItem('uttt.lang', 'zh-CN');
  });
  await page.reload();
  await expect(page.locator('html')).toHaveAttribute('data-ready', 'true');
  await expect(page.getByTestId('eval-text')).toHaveText(/^局面评估: (双方大致持平|[XO] (明显)?领先|[XO] 已占胜势|暂无评估：引擎计算时显示。)$/);
  expect((await barState(page)).text).not.toMatch(/\d|%/);
});

test('once the game against the AI is over, the whole bar comes back, looking back too', async ({ page }) => {
  await open(page);
  await choose(page, { kind: 'classic' });
  // Classic, you (X) to move and win at a3: the game is still on.
  await showTab(page, 'share');
  await page.getByTestId('record-text').fill('classic:a1b1a2b2');
  await page.getByTestId('import').click();
  await showTab(page, 'moves');
  await expectMarks(page, 4);
  await expectQuiet(page, { words: false });
  await cell(page, 0, 6).click();
  await expect(page.getByTestId('eval-text')).toHaveText('Evaluation: X has won');
  await expect(bar(page)).toHaveAttribute('data-view', 'full');
  // An earlier position: the chances, how deep it looked, and the line.
  await page.locator('#review-panel [data-nav="first"]').click();
  await expectMarks(page, 0);
  // The review fills the pane: the bar is looked at once scrolled back to.
  await bar(page).scrollIntoViewIfNeeded();
  await expect(page.getByTestId('eval-text')).toHaveText(/^Evaluation: X \d+% · draw \d+% · O \d+% · looked \d+ moves? ahead$/);
  await expect(page.getByTestId('eval-line')).toHaveText(/^Best line: [a-c][1-3]/);
});

test('in two-player games and AI vs AI the bar shows the chances, the line and how deep it looked', async ({ page }) => {
  await open(page);
  await choose(page, { mode: 'human' });
  await expect(page.getByTestId('eval-text')).toHaveText(/^Evaluation: X \d+% · draw \d+% · O \d+% · looked \d+ moves? ahead$/);
  await expect(page.getByTestId('eval-line')).toHaveText(/^Best line: [a-i][1-9]( [a-i][1-9])+/);
  await choose(page, { mode: 'watch' });
  await choose(page, { level: 'easy' });
  await expect.poll(async () => (await barState(page)).view).toBe('full');
  await expect(page.getByTestId('eval-text')).toHaveText(/X \d+% · draw \d+% · O \d+% · looked \d+ moves? ahead|[XO] wins in \d+/);
});

test('the live evaluation stops at its cap, "Keep analysing" lets it run on, and it rests while nobody looks', async ({ page }) => {
  test.slow();
  await open(page);
  await choose(page, { mode: 'human' });
  await expect.poll(() => work(page)).toBe('analyse');
  // The cap (5 s of search) passes: the worker stops, the bar keeps what it found.
  await expect.poll(() => work(page), { timeout: 30_000 }).toBe('idle');
  await expect(page.getByTestId('eval-text')).toHaveText(/X \d+% · draw \d+% · O \d+% · looked \d+ moves? ahead/);
  await expect(page.getByTestId('eval-line')).toHaveText(/^Best line: /);
  const more = page.getByTestId('eval-more');
  await expect(more).toBeVisible();
  await expect(more).toHaveText('Keep analysing');
  const box = await more.boundingBox();
  expect(box.width).toBeGreaterThanOrEqual(44);
  expect(box.height).toBeGreaterThanOrEqual(44);
  // Nothing restarts it by itself.
  await page.waitForTimeout(2000);
  expect(await work(page)).toBe('idle');

  // Asked for, it runs on past the cap.
  await more.click();
  await expect.poll(() => work(page)).toBe('analyse');
  await expect(more).toBeHidden();
  await page.waitForTimeout(8000);
  expect(await work(page)).toBe('analyse');

  // Another tab of the panel: nobody looks at the bar, the worker rests; back, it runs again.
  await showTab(page, 'game');
  await expect.poll(() => work(page)).toBe('idle');
  await showTab(page, 'moves');
  await expect.poll(() => work(page)).toBe('analyse');

  // A move: a new position, with the cap again.
  await playAll(page, [[4, 4]]);
  await expect(more).toBeHidden();
  await expect.poll(() => work(page), { timeout: 30_000 }).toBe('idle');
  await expect(more).toBeVisible();
});

test('scrolled out of view, the bar lets the worker rest', async ({ page }) => {
  // A phone held upright: the panel is under the board and the controls.
  await page.setViewportSize({ width: 360, height: 640 });
  await open(page);
  await choose(page, { mode: 'human' });
  await bar(page).scrollIntoViewIfNeeded();
  await expect.poll(() => work(page)).toBe('analyse');
  // Back at the top of the page the bar is below the fold.
  await page.evaluate(() => window.scrollTo(0, 0));
  await expect.poll(() => bar(page).evaluate((host) => host.getBoundingClientRect().top > window.innerHeight)).toBe(true);
  await expect.poll(() => work(page)).toBe('idle');
  await bar(page).scrollIntoViewIfNeeded();
  await expect.poll(() => work(page)).toBe('analyse');
});

test('while a puzzle is open the bar says its evaluation is hidden', async ({ page }) => {
  await open(page);
  await choose(page, { kind: 'classic', mode: 'human' });
  await playAll(page, [[0, 0], [0, 3], [0, 4], [0, 5], [0, 8]]);
  await expect(page.locator('#game-review')).toHaveAttribute('data-review', 'done', { timeout: 30_000 });
  await showTab(page, 'moves');
  await page.getByTestId('puzzle-start').click();
  await expect(page.getByTestId('review-puzzles')).toHaveAttribute('data-puzzle', 'open');
  await expect(page.getByTestId('eval-text')).toHaveText('Evaluation: The evaluation is hidden while the puzzle is open.');
  await expect(page.getByTestId('eval-line')).toBeHidden();
  expect(await work(page)).not.toBe('analyse');
});
