// The end of a game: the end card (result, winning line, Rematch, Review,
// Share, Close/Escape, gone on Undo), where it sits at every screen size
// (never over the winning line or the board, inside the viewport, nothing
// cut off, touch-sized buttons), the status box's Rematch once it is
// closed, counted words in the singular and plural, the confetti (none
// under reduced motion), the cue on the board a move sends the opponent to,
// and the optional sounds (off by default, no console error when on).

import { test, expect } from './support/fixtures.js';

/** Opens the page with saved settings: two players, `kind`, the tutorial seen. */
async function openTwoPlayer(page, { kind = 'classic', sound = null } = {}) {
  await page.addInitScript(
    ({ kind, sound }) => {
      if (sessionStorage.getItem('endcard.seeded')) return;
      sessionStorage.setItem('endcard.seeded', '1');
      const data = { kind, mode: 'human', level: 'medium', levelO: 'medium', rules: 'standard', speed: 'normal' };
      localStorage.setItem('uttt.settings', JSON.stringify({ v: 1, data }));
      localStorage.setItem('uttt.tutorial', 'done');
      if (sound) localStorage.setItem('uttt.sound', sound);
      // Counts the notes the page starts, to tell sound on from sound off,
      // the confetti bursts added and the boards cued, however briefly.
      window.__notes = 0;
      window.__bursts = 0;
      window.__cues = [];
      new MutationObserver((changes) => {
        for (const change of changes) {
          for (const node of change.addedNodes) if (node.classList?.contains('celebration')) window.__bursts += 1;
          if (change.type === 'attributes' && change.target.classList.contains('send-cue')
            && !change.oldValue?.includes('send-cue')) window.__cues.push(change.target.dataset.board);
        }
      }).observe(document, { childList: true, subtree: true, attributes: true, attributeFilter: ['class'], attributeOldValue: true });
      const start = OscillatorNode.prototype.start;
      OscillatorNode.prototype.start = function counted(...args) {
        window.__notes += 1;
        return start.apply(this, args);
      };
    },
    { kind, sound },
  );
  await page.goto('./');
  await expect(page.locator('html')).toHaveAttribute('data-ready', 'true');
}

const cell = (page, board, c) => page.locator(`#board button[data-board="${board}"][data-cell="${c}"]`);

/** Whether two boxes ({x, y, width, height}) share any area. */
function meets(a, b) {
  return a.x < b.x + b.width && b.x < a.x + a.width && a.y < b.y + b.height && b.y < a.y + a.height;
}

/** Classic, two players: X takes the top row (X 0, O 3, X 1, O 4, X 2). */
async function playClassicXWin(page) {
  for (const c of [0, 3, 1, 4, 2]) await cell(page, 0, c).click();
}

test('a win shows the end card with the result and the line; confetti; Rematch starts afresh', async ({ page }) => {
  await openTwoPlayer(page);
  const card = page.getByTestId('end-card');
  await expect(card).toBeHidden();
  await playClassicXWin(page);
  await expect(card).toBeVisible();
  await expect(card).toHaveAttribute('role', 'dialog');
  await expect(card).toHaveAttribute('aria-labelledby', 'end-title');
  await expect(page.getByTestId('end-result')).toHaveText('X wins!');
  await expect(page.getByTestId('end-line')).toHaveText('Three in a row: the top row.');
  // New opponent is for online games only.
  await expect(card.locator('[data-action="new-opponent"]')).toBeHidden();
  // A two-player win is celebrated, and the confetti goes away by itself.
  await expect.poll(() => page.evaluate(() => window.__bursts)).toBe(1);
  await expect(page.getByTestId('celebration')).toHaveCount(0, { timeout: 5000 });
  // Beside the board (1280x720): it leaves the board and the controls clear.
  const [cardBox, frameBox, newBox, undoBox] = await Promise.all(
    [card, page.locator('#board-frame'), page.locator('#btn-new'), page.locator('#btn-undo')].map((l) => l.boundingBox()),
  );
  for (const other of [frameBox, newBox, undoBox]) expect(meets(cardBox, other)).toBe(false);
  await page.getByTestId('rematch').click();
  await expect(card).toBeHidden();
  await expect(page.locator('#board button[data-mark]')).toHaveCount(0);
});

/** Takes back the winning move and plays it again: the game ends again, and so the card is back. */
async function undoAndWinAgain(page) {
  await page.locator('#btn-undo').click();
  await expect(page.getByTestId('end-card')).toBeHidden();
  await cell(page, 0, 2).click();
  await expect(page.getByTestId('end-card')).toBeVisible();
}

test('Undo hides the card; Escape and Close dismiss it', async ({ page }) => {
  await openTwoPlayer(page);
  const card = page.getByTestId('end-card');
  await playClassicXWin(page);
  await expect(card).toBeVisible();
  await page.locator('#btn-undo').click();
  await expect(card).toBeHidden();
  await expect(page.locator('#board button[data-mark]')).toHaveCount(4);
  await cell(page, 0, 2).click();
  await expect(card).toBeVisible();
  await page.keyboard.press('Escape');
  await expect(card).toBeHidden();
  await undoAndWinAgain(page);
  await page.getByTestId('close-end-card').click();
  await expect(card).toBeHidden();
});

test('Review opens the move list with the focus in it; Share opens the share tab', async ({ page }) => {
  await openTwoPlayer(page);
  const card = page.getByTestId('end-card');
  await playClassicXWin(page);
  await expect(card).toBeVisible();
  await page.getByTestId('review').click();
  await expect(card).toBeHidden();
  await expect(page.locator('#tab-moves')).toHaveAttribute('aria-selected', 'true');
  await expect(page.getByTestId('move-list').locator('button:focus')).toHaveCount(1);
  await undoAndWinAgain(page);
  await page.getByTestId('share-game').click();
  await expect(card).toBeHidden();
  await expect(page.locator('#tab-share')).toHaveAttribute('aria-selected', 'true');
});

test('a move in Ultimate rings the board it sends the opponent to, briefly', async ({ page }) => {
  await openTwoPlayer(page, { kind: 'ultimate' });
  await cell(page, 4, 2).click();
  await expect.poll(() => page.evaluate(() => window.__cues)).toEqual(['2']);
  await expect(page.locator('#board .small.send-cue')).toHaveCount(0, { timeout: 3000 });
  // O is sent back to the centre board: that one is cued next.
  await cell(page, 2, 4).click();
  await expect.poll(() => page.evaluate(() => window.__cues)).toEqual(['2', '4']);
});

test.describe('under prefers-reduced-motion', () => {
  test.use({ reducedMotion: 'reduce' });

  test('no confetti, but the card still shows', async ({ page }) => {
    await openTwoPlayer(page);
    await playClassicXWin(page);
    await expect(page.getByTestId('end-card')).toBeVisible();
    await expect(page.getByTestId('end-result')).toHaveText('X wins!');
    // The confetti would come with the card.
    await page.waitForTimeout(300);
    expect(await page.evaluate(() => window.__bursts)).toBe(0);
  });

  test('no cue on the board sent to', async ({ page }) => {
    await openTwoPlayer(page, { kind: 'ultimate' });
    await cell(page, 4, 2).click();
    await expect(page.locator('#board button[data-mark]')).toHaveCount(1);
    await page.waitForTimeout(100);
    expect(await page.evaluate(() => window.__cues)).toEqual([]);
  });
});

test('sounds are off by default; turned on, moves and the end play without a console error', async ({ page }) => {
  await openTwoPlayer(page);
  await cell(page, 0, 0).click();
  await expect(page.locator('#board button[data-mark]')).toHaveCount(1);
  expect(await page.evaluate(() => window.__notes)).toBe(0);

  await page.locator('#tab-game').click();
  const toggle = page.getByTestId('sound-toggle');
  await expect(toggle).not.toBeChecked();
  await toggle.check();
  expect(await page.evaluate(() => localStorage.getItem('uttt.sound'))).toBe('on');
  for (const c of [3, 1, 4, 2]) await cell(page, 0, c).click();
  await expect(page.getByTestId('end-card')).toBeVisible();
  // The click on turning it on, four moves, and the fanfare.
  await expect.poll(() => page.evaluate(() => window.__notes)).toBeGreaterThan(10);
  expect(await page.evaluate(() => document.readyState)).toBe('complete');

  await toggle.uncheck();
  expect(await page.evaluate(() => localStorage.getItem('uttt.sound'))).toBe('off');
});

test('a saved "on" starts the audio at the first gesture, not before', async ({ page }) => {
  await openTwoPlayer(page, { sound: 'on' });
  await expect(page.getByTestId('sound-toggle')).toBeChecked();
  expect(await page.evaluate(() => window.__notes)).toBe(0);
  await cell(page, 0, 4).click();
  await expect.poll(() => page.evaluate(() => window.__notes)).toBeGreaterThan(0);
});

// ---- where the card sits, at every size ----

/**
 * Ultimate games that X wins with its last move, as [board, cell] pairs
 * (two players, or X against the AI: the AI never moves in them, since the
 * page opens with all but the last move played and X to move).
 */
const WINS = {
  // The diagonal through the centre board, which a card over the board would cover on phones.
  diagonal: [[0, 2], [2, 4], [4, 6], [6, 8], [8, 6], [6, 4], [4, 2], [2, 0], [0, 6], [6, 2], [2, 2], [2, 3], [3, 2], [2, 1],
    [1, 2], [2, 8], [8, 7], [7, 8], [8, 4], [4, 0], [0, 4], [4, 8], [8, 1], [1, 4], [4, 4]],
  // The top row: the boards nearest the card when it sits above the board.
  topRow: [[1, 4], [4, 2], [2, 7], [7, 1], [1, 3], [3, 0], [0, 4], [4, 0], [0, 3], [3, 2], [2, 8], [8, 2], [2, 6], [6, 0],
    [0, 5], [5, 1], [1, 5]],
  antiDiagonal: [[4, 0], [0, 2], [2, 8], [8, 4], [4, 8], [8, 6], [6, 8], [8, 3], [3, 5], [5, 2], [2, 0], [0, 6], [6, 0], [0, 5],
    [5, 1], [1, 6], [6, 4], [4, 2], [2, 5], [5, 4], [4, 3], [3, 4], [4, 4], [1, 2], [2, 3], [3, 2], [2, 2]],
};
const LINE_BOARDS = { diagonal: ['0', '4', '8'], topRow: ['0', '1', '2'], antiDiagonal: ['2', '4', '6'] };

/** A move's name in a record: column a-i, row 1-9. */
function moveName([board, c]) {
  const col = (board % 3) * 3 + (c % 3);
  const row = Math.floor(board / 3) * 3 + Math.floor(c / 3) + 1;
  return `${'abcdefghi'[col]}${row}`;
}

/**
 * Opens the page on all but the last move of `moves` (saved as the game in
 * progress) with `mode` ('human' or 'ai-x') and `lang`, plays the last one
 * and waits for the card.
 */
async function winAt(page, { moves, mode = 'human', lang = 'en' }) {
  const record = `ultimate-standard:${moves.slice(0, -1).map(moveName).join('')}`;
  await page.addInitScript(
    ({ mode, lang, record, cursor }) => {
      if (sessionStorage.getItem('endcard.seeded')) return;
      sessionStorage.setItem('endcard.seeded', '1');
      const data = { kind: 'ultimate', mode, level: 'medium', levelO: 'medium', rules: 'standard', speed: 'normal' };
      localStorage.setItem('uttt.settings', JSON.stringify({ v: 1, data }));
      localStorage.setItem('uttt.lang', lang);
      localStorage.setItem('uttt.game', JSON.stringify({ v: 1, data: { record, cursor } }));
    },
    { mode, lang, record, cursor: moves.length - 1 },
  );
  await page.goto('./');
  await expect(page.locator('html')).toHaveAttribute('data-ready', 'true');
  await expect(page.locator('#board button[data-mark]')).toHaveCount(moves.length - 1);
  const [board, c] = moves.at(-1);
  await cell(page, board, c).click();
  await expect(page.getByTestId('end-card')).toBeVisible();
  // The card comes in with a short animation; its place is measured once it has landed.
  await page.waitForFunction(() => document.querySelector('[data-testid="end-card"]').getAnimations().every((a) => a.playState !== 'running'));
}

/**
 * Everything about the card's place that the page can measure: the winning
 * line's cells it hides (the cell is not what is at its centre, or the
 * card's box meets it), its box against the viewport, the board's frame and
 * the controls, its buttons' sizes, and any text cut off.
 */
function measureCard() {
  const card = document.querySelector('[data-testid="end-card"]');
  const box = (node) => {
    const r = node.getBoundingClientRect();
    return { x: r.x, y: r.y, width: r.width, height: r.height };
  };
  const meets = (a, b) => a.x < b.x + b.width && b.x < a.x + a.width && a.y < b.y + b.height && b.y < a.y + a.height;
  const cardBox = box(card);
  const lineBoards = [...document.querySelectorAll('#board .small[data-line]')];
  const cells = lineBoards.flatMap((b) => [...b.querySelectorAll('button[data-cell]')]);
  const hidden = cells
    .filter((c) => {
      const r = box(c);
      const hit = document.elementFromPoint(r.x + r.width / 2, r.y + r.height / 2);
      return !hit || !c.contains(hit) || meets(cardBox, r);
    })
    .map((c) => `${c.dataset.board}/${c.dataset.cell}`);
  const shown = [...card.querySelectorAll('*')].filter((n) => n.getClientRects().length > 0 && !(n instanceof SVGElement));
  return {
    lineBoards: lineBoards.map((b) => b.dataset.board),
    cells: cells.length,
    hidden,
    card: cardBox,
    viewport: { width: innerWidth, height: innerHeight },
    meetsFrame: meets(cardBox, box(document.getElementById('board-frame'))),
    meetsControls: meets(cardBox, box(document.querySelector('.controls'))),
    portrait: innerHeight > innerWidth,
    buttons: [...card.querySelectorAll('button:not([hidden])')].map((b) => ({ id: b.dataset.testid, ...box(b) })),
    cut: shown.filter((n) => n.scrollWidth > n.clientWidth || n.scrollHeight > n.clientHeight + 1)
      .map((n) => `${n.className}: ${n.scrollWidth}x${n.scrollHeight} in ${n.clientWidth}x${n.clientHeight}`),
    cardScrolls: card.scrollHeight > card.clientHeight || card.scrollWidth > card.clientWidth,
    fit: card.dataset.fit,
    noteShown: card.querySelector('.end-note').getClientRects().length > 0,
  };
}

/** The card's place checked: nothing of the line hidden, inside the viewport, buttons touch-sized, nothing cut. */
async function expectCardPlaced(page, line, where) {
  const m = await page.evaluate(measureCard);
  expect(m.lineBoards, where).toEqual(LINE_BOARDS[line]);
  expect(m.cells, where).toBe(27);
  expect(m.hidden, `cells of the winning line the card hides at ${where}`).toEqual([]);
  expect(m.meetsFrame, `the card meets the board's frame at ${where}`).toBe(false);
  // Upright, the card is above the board and the controls below it.
  if (m.portrait) expect(m.meetsControls, `the card meets the controls at ${where}`).toBe(false);
  expect(m.card.x, where).toBeGreaterThanOrEqual(0);
  expect(m.card.y, where).toBeGreaterThanOrEqual(0);
  expect(m.card.x + m.card.width, where).toBeLessThanOrEqual(m.viewport.width);
  expect(m.card.y + m.card.height, where).toBeLessThanOrEqual(m.viewport.height);
  expect(m.buttons.map((b) => b.id), where).toEqual(['close-end-card', 'rematch', 'review', 'share-game']);
  for (const b of m.buttons) expect(b.height, `${b.id} at ${where}`).toBeGreaterThanOrEqual(44);
  expect(m.buttons[0].width, `the close button at ${where}`).toBeGreaterThanOrEqual(44);
  expect(m.cut, `text cut off at ${where}`).toEqual([]);
  expect(m.cardScrolls, `the card's content overflows at ${where}`).toBe(false);
  return m;
}

/**
 * Every size, each with the lines it is tried on: upright the card sits
 * above the board, so there the top row (nearest it) and the diagonal
 * through the centre; beside the board in landscape, either one.
 */
const SIZES = [
  [360, 640, ['diagonal', 'topRow']],
  [390, 844, ['diagonal', 'topRow']],
  [640, 360, ['diagonal']],
  [844, 390, ['topRow']],
  [768, 1024, ['diagonal', 'topRow']],
  [1280, 720, ['topRow']],
  [1366, 768, ['diagonal']],
  [1920, 1080, ['topRow']],
];

test.describe('the card never hides the winning line: English, light, two players', () => {
  test.use({ colorScheme: 'light' });
  for (const [width, height, lines] of SIZES) {
    for (const line of lines) {
      test(`${width}x${height}, ${line}`, async ({ page }) => {
        await page.setViewportSize({ width, height });
        await winAt(page, { moves: WINS[line] });
        await expect(page.getByTestId('end-result')).toHaveText('X wins!');
        await expectCardPlaced(page, line, `${width}x${height} ${line}`);
      });
    }
  }
});

test.describe('the card never hides the winning line: Chinese, dark, against the AI', () => {
  test.use({ colorScheme: 'dark' });
  for (const [width, height] of [[360, 640], [844, 390], [1366, 768]]) {
    test(`${width}x${height}`, async ({ page }) => {
      await page.setViewportSize({ width, height });
      await winAt(page, { moves: WINS.antiDiagonal, mode: 'ai-x', lang: 'zh-CN' });
      await expect(page.getByTestId('end-result')).toHaveText('你赢了！');
      const m = await expectCardPlaced(page, 'antiDiagonal', `${width}x${height} zh-CN dark`);
      // The note on the rematch's colours shows where it fits, and is always the Rematch button's description.
      expect(m.noteShown).toBe(m.fit === 'full');
      await expect(page.getByTestId('rematch')).toHaveAccessibleDescription('再来一局时你执 O。');
    });
  }
});

test('against the AI the card says the rematch swaps colours, where it has the room', async ({ page }) => {
  await page.setViewportSize({ width: 640, height: 360 });
  await winAt(page, { moves: WINS.diagonal, mode: 'ai-x' });
  const m = await expectCardPlaced(page, 'diagonal', '640x360 against the AI');
  expect(m.fit).toBe('full');
  await expect(page.locator('.end-note')).toHaveText('In the rematch you play O.');
  await expect(page.locator('.end-note')).toBeVisible();
  // Upright on a small phone the short card is title, detail and buttons; the note is the button's description.
  await page.setViewportSize({ width: 360, height: 640 });
  await expect(page.getByTestId('end-card')).toHaveAttribute('data-fit', 'short');
  await expect(page.locator('.end-note')).toBeHidden();
  await expect(page.getByTestId('rematch')).toHaveAccessibleDescription('In the rematch you play O.');
  await expectCardPlaced(page, 'diagonal', '360x640 against the AI, after turning');
});

// ---- Rematch once the card is closed ----

for (const how of ['review', 'share-game']) {
  test(`after ${how} closes the card, the status box offers Rematch, which swaps colours against the AI`, async ({ page }) => {
    await page.setViewportSize({ width: 390, height: 844 });
    await winAt(page, { moves: WINS.topRow, mode: 'ai-x' });
    const statusRematch = page.locator('#btn-rematch');
    // While the card is up, its own Rematch is the one offered.
    await expect(statusRematch).toBeHidden();
    await page.getByTestId(how).click();
    await expect(page.getByTestId('end-card')).toBeHidden();
    await expect(statusRematch).toBeVisible();
    await expect(statusRematch).toHaveText('Rematch');
    const size = await statusRematch.boundingBox();
    expect(size.height).toBeGreaterThanOrEqual(44);
    expect(await statusRematch.evaluate((b) => b.scrollWidth <= b.clientWidth)).toBe(true);
    await statusRematch.click();
    // A new game with the colours swapped: the AI has X now, and the person O.
    await expect(page.locator('#player-o-name')).toHaveText('You');
    await expect(page.locator('#player-x-name')).toHaveText('AI · Medium');
    expect(await page.evaluate(() => JSON.parse(localStorage.getItem('uttt.settings')).data.mode)).toBe('ai-o');
    await expect(statusRematch).toBeHidden();
    await expect.poll(() => page.locator('#board button[data-mark]').count()).toBeLessThanOrEqual(1);
  });
}

test('two players: after Close the status box offers Rematch; it is gone on Undo and back at the end', async ({ page }) => {
  await page.setViewportSize({ width: 844, height: 390 });
  await winAt(page, { moves: WINS.diagonal, lang: 'zh-CN' });
  const statusRematch = page.locator('#btn-rematch');
  await page.getByTestId('close-end-card').click();
  await expect(statusRematch).toBeVisible();
  await expect(statusRematch).toHaveText('再来一局');
  expect(await statusRematch.evaluate((b) => b.scrollWidth <= b.clientWidth)).toBe(true);
  await page.locator('#btn-undo').click();
  await expect(statusRematch).toBeHidden();
  await page.locator('#btn-redo').click();
  await expect(statusRematch).toBeVisible();
  // Two players keep their colours: a fresh board, X to move.
  await statusRematch.click();
  await expect(page.locator('#board button[data-mark]')).toHaveCount(0);
  await expect(page.locator('#board')).toHaveAttribute('data-turn', 'x');
  await expect(statusRematch).toBeHidden();
});

// ---- counted words ----

test('counted words take the singular for one and the plural otherwise; Chinese has one form', async ({ page }) => {
  await openTwoPlayer(page);
  const said = await page.evaluate(async () => {
    const i18n = await import(new URL('www/i18n.js', document.baseURI).href);
    const say = (code) => {
      i18n.setLang(code);
      return {
        kicker: [0, 1, 2, 25].map((n) => i18n.tn('end.kicker', n)),
        moves: [1, 2].map((n) => i18n.tn('stats.movesCount', n)),
        summary: [1, 3].map((n) => i18n.tn('stats.chartSummary', n, { wins: 1, draws: 0, losses: n - 1 })),
        imported: [1, 2].map((n) => i18n.tn('share.imported', n)),
        // A plural entry read through t() takes its count too.
        viaT: i18n.t('review.shared', { count: 1 }),
      };
    };
    const result = { en: say('en'), zh: say('zh-CN') };
    i18n.setLang('en');
    return result;
  });
  expect(said.en.kicker).toEqual(['Game over · 0 moves', 'Game over · 1 move', 'Game over · 2 moves', 'Game over · 25 moves']);
  expect(said.en.moves).toEqual(['1 move', '2 moves']);
  expect(said.en.summary).toEqual([
    '1 won, 0 drawn, 0 lost in the last game against the AI.',
    '1 won, 0 drawn, 2 lost in the last 3 games against the AI.',
  ]);
  expect(said.en.imported).toEqual(['Game imported: 1 move.', 'Game imported: 2 moves.']);
  expect(said.en.viaT).toBe('Opened a shared game: 1 move. Browse it or play on.');
  expect(said.zh.kicker).toEqual(['对局结束 · 共 0 步', '对局结束 · 共 1 步', '对局结束 · 共 2 步', '对局结束 · 共 25 步']);
  expect(said.zh.moves).toEqual(['1 步', '2 步']);
  expect(said.zh.summary[0]).toBe('最近 1 局对战电脑：胜 1，平 0，负 0。');
  expect(said.zh.viaT).toBe('已打开分享的棋局：共 1 步。可以浏览或继续下。');
});

test('Stats says "the last game" and "1 move" for one, in both languages', async ({ page }) => {
  await page.addInitScript(() => {
    if (sessionStorage.getItem('stats.seeded')) return;
    sessionStorage.setItem('stats.seeded', '1');
    const date = '2026-01-05T10:00:00.000Z';
    const games = [
      // One finished game against the AI (X takes the a column) and a two-player game left after one move.
      { id: 'g-ai', date, kind: 'classic', rules: 'standard', mode: 'ai', level: 'medium', side: 'x', result: 'x', record: 'classic:a1b1a2b2a3' },
      { id: 'g-one', date, kind: 'ultimate', rules: 'standard', mode: 'human', result: 'unfinished', record: 'ultimate-standard:e5' },
    ];
    localStorage.setItem('uttt.history', JSON.stringify({ v: 1, games }));
  });
  await page.goto('./');
  await expect(page.locator('html')).toHaveAttribute('data-ready', 'true');
  await page.locator('#tab-stats').click();
  const summary = page.locator('.stats-summary');
  const items = page.getByTestId('history-list').locator('.history-what');
  await expect(summary).toHaveText('1 won, 0 drawn, 0 lost in the last game against the AI.');
  await expect(items).toHaveText([/· 1 move$/, /· 5 moves$/]);
  await page.locator('#lang-select').selectOption('zh-CN');
  await expect(summary).toHaveText('最近 1 局对战电脑：胜 1，平 0，负 0。');
  await expect(items).toHaveText([/· 1 步$/, /· 5 步$/]);
});
