// Issue 7 end to end: the move list and browsing, branching, share links,
// import/export, the finished-games statistics, the evaluation bar and hint,
// the keyboard, the live-region announcements, English and Chinese, and
// offline play through the service worker.

import { test, expect } from './support/fixtures.js';
import { open, choose, showTab, cell, markCount, expectMarks, aiIdle, playAll } from './game-helpers.js';

const moveList = (page) => page.getByTestId('move-list');
const plyButton = (page, ply) => page.locator(`.move-list button[data-ply="${ply}"]`);
const message = (page) => page.getByTestId('review-message');

// X e5, O d4, X c3, O h8, X f4 (all legal in turn).
const FIVE = [[4, 4], [4, 0], [0, 8], [8, 4], [4, 2]];

test('the move list is numbered by move pair and browsing never loses the game', async ({ page }) => {
  await open(page);
  await choose(page, { mode: 'human' });
  await playAll(page, FIVE);
  const pairs = moveList(page).locator('li');
  await expect(pairs).toHaveCount(3);
  await expect(pairs.nth(0)).toHaveText(/^1\.\s*e5\s*d4$/);
  await expect(pairs.nth(2)).toHaveText(/^3\.\s*f4$/);
  await expect(plyButton(page, 5)).toHaveAttribute('aria-current', 'step');

  // Click a move: that position is shown, the later moves stay listed.
  await plyButton(page, 2).click();
  await expectMarks(page, 2);
  await expect(plyButton(page, 2)).toHaveAttribute('aria-current', 'step');
  await expect(plyButton(page, 5)).toBeVisible();
  await expect(page.getByTestId('review-note')).toContainText('move 2 of 5');

  // Keys in the list: Home, End, left, right.
  await plyButton(page, 2).focus();
  await page.keyboard.press('Home');
  await expectMarks(page, 0);
  await page.keyboard.press('ArrowRight');
  await expectMarks(page, 1);
  await page.keyboard.press('End');
  await expectMarks(page, 5);
  await page.keyboard.press('ArrowLeft');
  await expectMarks(page, 4);
  await expect(plyButton(page, 4)).toBeFocused();

  // A reload while browsing keeps every move.
  await page.reload();
  await expect(page.locator('html')).toHaveAttribute('data-ready', 'true');
  await expect(moveList(page).locator('button[data-ply]')).toHaveCount(5);
  await page.getByRole('button', { name: 'Last move' }).click();
  await expectMarks(page, 5);
});

const lines = (page) => page.getByTestId('move-lines');
const tree = (page) => page.getByTestId('move-tree');
const lineMove = (page, text) => tree(page).locator('button[data-node]', { hasText: new RegExp(`(^|\\s)${text}$`) });

test('playing from an earlier position keeps the later moves as a line; lines are promoted, deleted and kept', async ({ page, context }) => {
  // Four reloads and a second page, each with its own worker: 11-13 s alone,
  // but 37 s once with the whole suite on two cores, the longest spec.
  test.slow();
  await open(page);
  await choose(page, { mode: 'human' });
  await playAll(page, FIVE);
  await expect(lines(page)).toBeHidden();
  await plyButton(page, 1).click();
  await expectMarks(page, 1);
  // O must play in the centre board; d4 was played there, f6 is new: no
  // question, the five moves stay as the main line.
  await cell(page, 4, 8).click();
  await expectMarks(page, 2);
  await expect(page.getByRole('dialog')).toHaveCount(0);
  await expect(moveList(page).locator('button[data-ply]')).toHaveCount(2);
  await expect(plyButton(page, 2)).toHaveText('f6');
  await expect(lines(page)).toBeVisible();
  await expect(tree(page)).toHaveText('1. e5 d4 (1… f6) 2. c3 h8 3. f4');
  const f6 = lineMove(page, 'f6');
  await expect(f6).toHaveAttribute('aria-current', 'step');
  await expect(f6).toHaveAttribute('data-main', 'false');
  // A move the side line shares with the main line keeps the side line shown.
  await lineMove(page, 'e5').click();
  await expectMarks(page, 1);
  await expect(plyButton(page, 2)).toHaveText('f6');

  // A reload keeps the side line shown.
  await page.reload();
  await expect(page.locator('html')).toHaveAttribute('data-ready', 'true');
  await expect(tree(page)).toHaveText('1. e5 d4 (1… f6) 2. c3 h8 3. f4');
  await expectMarks(page, 1);
  await expect(moveList(page).locator('button[data-ply]')).toHaveCount(2);
  await expect(plyButton(page, 2)).toHaveText('f6');
  // So does a line cut short: d4 played again where the main line goes on after it.
  await cell(page, 4, 0).click();
  await expectMarks(page, 2);
  await expect(moveList(page).locator('button[data-ply]')).toHaveCount(2);
  await page.reload();
  await expect(page.locator('html')).toHaveAttribute('data-ready', 'true');
  await expect(moveList(page).locator('button[data-ply]')).toHaveCount(2);
  await expect(plyButton(page, 2)).toHaveText('d4');
  await expectMarks(page, 2);
  await lineMove(page, 'f6').click();
  await expectMarks(page, 2);

  // The main line is one click away, and back.
  await lineMove(page, 'f4').click();
  await expectMarks(page, 5);
  await expect(moveList(page).locator('button[data-ply]')).toHaveCount(5);
  await expect(page.getByTestId('line-promote')).toBeHidden();
  await lineMove(page, 'f6').click();
  await expectMarks(page, 2);

  // The side line becomes the main line; a reload keeps the lines and the line shown.
  await page.getByTestId('line-promote').click();
  await expect(tree(page)).toHaveText('1. e5 f6 (1… d4 2. c3 h8 3. f4)');
  await expect(lineMove(page, 'f6')).toHaveAttribute('data-main', 'true');
  await page.reload();
  await expect(page.locator('html')).toHaveAttribute('data-ready', 'true');
  await expect(tree(page)).toHaveText('1. e5 f6 (1… d4 2. c3 h8 3. f4)');
  await expectMarks(page, 2);
  await expect(plyButton(page, 2)).toHaveText('f6');

  // A shared link carries the lines.
  await context.grantPermissions(['clipboard-read', 'clipboard-write']);
  await showTab(page, 'share');
  await page.getByTestId('copy-link').click();
  const link = await page.evaluate(() => navigator.clipboard.readText());
  expect(decodeURIComponent(new URL(link).hash)).toBe('#ultimate-standard:e5f6(d4c3h8f4)');
  const other = await context.newPage();
  await other.goto(link);
  await expect(other.locator('html')).toHaveAttribute('data-ready', 'true');
  await showTab(other, 'moves');
  await expect(tree(other)).toHaveText('1. e5 f6 (1… d4 2. c3 h8 3. f4)');
  await other.close();

  // Deleting the side line shown goes back to where it left the main line.
  await showTab(page, 'moves');
  await lineMove(page, 'h8').click();
  await expectMarks(page, 4);
  await page.getByTestId('line-delete').click();
  await expectMarks(page, 1);
  await expect(lines(page)).toBeHidden();
  await expect(moveList(page).locator('button[data-ply]')).toHaveCount(2);

  // Imported as text, a record with lines reads as one.
  await showTab(page, 'share');
  await page.getByTestId('record-text').fill('ultimate-standard:e5d4(f6)c3');
  await page.getByTestId('import').click();
  await expect(page.getByTestId('share-message')).toContainText('Game imported: 3 moves');
  await showTab(page, 'moves');
  await expect(tree(page)).toHaveText('1. e5 d4 (1… f6) 2. c3');
});

test('a finished game keeps the lines tried after its end, and its replay shows the line that ended', async ({ page }) => {
  await open(page);
  await choose(page, { kind: 'classic', mode: 'human' });
  // X a1, O a2, X b2, O c2, X c3: X wins on the diagonal.
  await playAll(page, [[0, 0], [0, 3], [0, 4], [0, 5], [0, 8]]);
  await expect(page.locator('#game-review')).toHaveAttribute('data-review', 'done', { timeout: 30_000 });
  // Then a3 instead of c3, from the position before it.
  await plyButton(page, 4).click();
  await expectMarks(page, 4);
  await cell(page, 0, 6).click();
  await expectMarks(page, 5);
  await expect(tree(page)).toHaveText('1. a1 a2 2. b2 c2 3. c3 (3. a3)');

  // A new game asks nothing (the game is in the history), and the line is kept with it.
  await page.locator('#btn-new').click();
  await expect(page.getByRole('dialog')).toHaveCount(0);
  await expectMarks(page, 0);
  await showTab(page, 'stats');
  await page.locator('#stats-panel button.replay-button').first().click();
  await expect(tree(page)).toHaveText('1. a1 a2 2. b2 c2 3. c3 (3. a3)');
  await expect(moveList(page).locator('button[data-ply]')).toHaveCount(5);
  await expect(plyButton(page, 5)).toHaveText(/^c3/);
  await expect(page.locator('#game-review')).toHaveAttribute('data-review', 'done');
});

test('copy link, open it for review and continue; tampered links change nothing', async ({ page, context }) => {
  await context.grantPermissions(['clipboard-read', 'clipboard-write']);
  await open(page);
  await choose(page, { mode: 'human' });
  await playAll(page, FIVE);
  await showTab(page, 'share');
  await page.getByTestId('copy-link').click();
  await expect(page.getByTestId('share-message')).toHaveText('Link copied.');
  const link = await page.evaluate(() => navigator.clipboard.readText());
  expect(new URL(link).hash).toBe('#ultimate-standard:e5d4c3h8f4');
  expect(new URL(link).pathname).toBe(new URL(page.url()).pathname);

  // A fresh visitor opens the link.
  const other = await context.newPage();
  await other.goto(link);
  await expect(other.locator('html')).toHaveAttribute('data-ready', 'true');
  await expect(other.getByTestId('review-message')).toContainText('Opened a shared game: 5 moves');
  await expect(other.locator('.move-list button[data-ply]')).toHaveCount(5);
  await expect.poll(() => markCount(other)).toBe(5);
  // The fragment is consumed, so a reload shows the continued game, not the link again.
  await expect.poll(() => other.evaluate(() => location.hash)).toBe('');
  // ...and continues it: O answers in the top-right board.
  await cell(other, 2, 4).click();
  await expect.poll(() => markCount(other)).toBe(6);
  // Play went on: the message about opening the link is gone.
  await expect(other.getByTestId('review-message')).toBeEmpty();
  await expect(other.locator('.move-list button[data-ply]')).toHaveCount(6);
  await other.close();

  // Tampered links: the game on screen stays exactly as it was.
  for (const [hash, why] of [
    ['#ultimate-standard:e5e5', /move 2 \(character 21\) is illegal/],
    ['#chess:e2e4', /unknown game/],
    ['#ultimate-standard:e5z9', /character 21/],
    ['#ultimate-standard:e5%ZZ', /character/],
  ]) {
    await page.evaluate((h) => {
      location.hash = h;
    }, hash);
    await expect(message(page)).toContainText(why);
    await expect(message(page)).toContainText('Your current game is unchanged');
    await expect(moveList(page).locator('button[data-ply]')).toHaveCount(5);
    await expectMarks(page, 5);
  }
});

test('export and import the record as text; a malformed import changes nothing', async ({ page }) => {
  await open(page);
  await choose(page, { mode: 'human' });
  await playAll(page, FIVE.slice(0, 3));
  await showTab(page, 'share');
  await page.getByTestId('export').click();
  await expect(page.getByTestId('record-text')).toHaveValue('ultimate-standard:e5d4c3');

  await page.getByTestId('record-text').fill('classic:b2b2');
  await page.getByTestId('import').click();
  await expect(page.getByTestId('share-message')).toContainText('move 2 (character 11) is illegal');
  await expectMarks(page, 3);
  await expect(page.locator('#board')).toHaveAttribute('data-kind', 'ultimate');

  await page.getByTestId('record-text').fill('x'.repeat(9000));
  await page.getByTestId('import').click();
  await expect(page.getByTestId('share-message')).toContainText('too long');
  await expectMarks(page, 3);

  await page.getByTestId('record-text').fill('  classic: a1 b2 c3 ');
  await page.getByTestId('import').click();
  await expect(page.getByTestId('share-message')).toContainText('Game imported: 3 moves');
  await expect(page.locator('#board')).toHaveAttribute('data-kind', 'classic');
  await expectMarks(page, 3);
  await expect(moveList(page)).toContainText('a1');
});

test('a finished game is stored with statistics, a chart, and can be replayed', async ({ page }) => {
  // Two games against the AI already in the history (one won at Easy, one lost at Hard).
  await page.addInitScript(() => {
    if (sessionStorage.getItem('seeded')) return;
    sessionStorage.setItem('seeded', '1');
    const entry = (date, level, result, record) => ({
      date, kind: 'ultimate', rules: 'standard', mode: 'ai', level, side: 'x', result, record,
    });
    localStorage.setItem('uttt.history', JSON.stringify({
      v: 1,
      games: [
        entry('2026-11-01T10:00:00Z', 'easy', 'x', 'ultimate-standard:e5d4'),
        entry('2026-11-02T10:00:00Z', 'hard', 'o', 'ultimate-standard:e5d4c3'),
      ],
    }));
  });
  await open(page);
  await expect(page.getByTestId('stats-chart').locator('rect')).toHaveCount(2);
  await expect(page.locator('[data-testid="stats-levels"] tr[data-level="easy"] td').first()).toHaveText('1');

  // A real game: Classic, two players, X wins down the left column.
  await choose(page, { kind: 'classic', mode: 'human' });
  await playAll(page, [[0, 0], [0, 1], [0, 3], [0, 4], [0, 6]]);
  await expect(page.locator('#status')).toHaveText('X wins!');
  await expect(page.getByTestId('stats-human')).toContainText('X wins 1');
  const rows = page.getByTestId('history-list').locator('li');
  await expect(rows).toHaveCount(3);
  await expect(rows.first()).toHaveAttribute('data-record', 'classic:a1b1a2b2a3');

  // Replay the lost game (the middle row): it opens at the start, ready to step through.
  await expect(rows.nth(1)).toContainText('Lost');
  await showTab(page, 'stats');
  await rows.nth(1).getByRole('button').click();
  await expect(page.locator('#board')).toHaveAttribute('data-kind', 'ultimate');
  await expectMarks(page, 0);
  await expect(page.locator('.move-list button[data-ply]')).toHaveCount(3);
  await page.keyboard.press('ArrowRight');
  await expectMarks(page, 1);

  // The finished Classic game that was on the board is one click away.
  await page.getByTestId('back-to-game').click();
  await expect(page.locator('#board')).toHaveAttribute('data-kind', 'classic');
  await expectMarks(page, 5);
  await expect(page.getByTestId('review-message')).toContainText('Your previous game is back: 5 moves');
});

test('a long history shows the newest games and all of them on request', async ({ page }) => {
  await page.addInitScript(() => {
    const games = Array.from({ length: 15 }, (_, i) => ({
      date: new Date(Date.UTC(2026, 10, 1 + i)).toISOString(),
      kind: 'classic', rules: 'standard', mode: 'ai', level: 'beginner', side: 'o',
      result: i % 3 === 0 ? 'o' : 'draw', record: `classic:b2${'a1'.repeat(i % 2)}`,
    }));
    localStorage.setItem('uttt.history', JSON.stringify({ v: 1, games }));
  });
  await open(page);
  const items = page.getByTestId('history-list').locator('li');
  await expect(items).toHaveCount(12);
  await expect(page.getByTestId('stats-chart').locator('rect')).toHaveCount(15);
  await expect(page.locator('[data-testid="stats-levels"] tr[data-level="beginner"] td')).toHaveText(['5', '10', '0', '15']);
  await showTab(page, 'stats');
  await page.getByTestId('show-all').click();
  await expect(items).toHaveCount(15);
  await expect(items.nth(12).getByRole('button')).toBeFocused();
});

test('the evaluation bar and the hint follow the search, and both can be hidden', async ({ page }) => {
  await open(page);
  await choose(page, { mode: 'human', kind: 'classic' });
  await showTab(page, 'share');
  await page.getByTestId('record-text').fill('classic:a1b1a2b2');
  await page.getByTestId('import').click();
  await page.getByTestId('hint').click();
  await expect(page.getByTestId('hint-text')).toHaveText('Hint: a3 (bottom-left cell).');
  await expect(page.locator('button.hint-cell')).toHaveAttribute('data-cell', '6');
  await expect(page.getByTestId('eval-text')).toContainText('X wins in 1');
  // Once the game is over the bar shows the result, not the last search.
  const share = () => page.locator('#eval-bar .eval-fill').evaluate((e) => e.style.getPropertyValue('--x-share'));
  await page.locator('button.hint-cell').click();
  await expect(page.getByTestId('eval-text')).toHaveText('Evaluation: X has won');
  expect(await share()).toBe('1');
  await page.getByTestId('record-text').fill('classic:b2a1c3a3a2c2b3b1c1');
  await page.getByTestId('import').click();
  await expect(page.getByTestId('eval-text')).toHaveText('Evaluation: Drawn');
  expect(await share()).toBe('0.5');

  // In AI vs AI the bar follows the AIs' search (against the AI it keeps
  // it to itself until the game is over: engine-quiet.spec.js).
  await choose(page, { kind: 'ultimate', mode: 'watch' });
  await choose(page, { level: 'easy' });
  await expect.poll(() => markCount(page)).toBeGreaterThan(1);
  await expect(page.getByTestId('eval-text')).toContainText(/looked \d+ moves? ahead/);
  // The score is shown as the three chances of core's fitted mapping.
  await expect(page.getByTestId('eval-text')).toContainText(/X \d+% · draw \d+% · O \d+%/);

  await showTab(page, 'game');
  await page.locator('#opt-show-eval').uncheck();
  await page.locator('#opt-show-hint').uncheck();
  await showTab(page, 'moves');
  await expect(page.locator('#eval-bar')).toBeHidden();
  await expect(page.getByTestId('hint')).toBeHidden();
  await page.reload();
  await expect(page.locator('html')).toHaveAttribute('data-ready', 'true');
  await showTab(page, 'moves');
  await expect(page.locator('#eval-bar')).toBeHidden();
  await expect(page.getByTestId('hint')).toBeHidden();
});

test('the board is one tab stop: arrows cross small boards, Enter plays, the skip link lands on it', async ({ page }) => {
  await open(page);
  await choose(page, { mode: 'human' });
  await expect(page.locator('#board button[tabindex="0"]')).toHaveCount(1);
  await expect(page.locator('#board button[tabindex="-1"]')).toHaveCount(80);

  await page.locator('.skip-link').focus();
  await page.keyboard.press('Enter');
  const focused = () => page.evaluate(() => {
    const el = document.activeElement;
    return el && el.dataset.cell !== undefined ? `${el.dataset.board}/${el.dataset.cell}` : null;
  });
  await expect.poll(focused).toBe('0/0');
  // The focused cell shows a visible outline.
  const outline = await page.evaluate(() => {
    const style = getComputedStyle(document.activeElement);
    return { style: style.outlineStyle, width: parseFloat(style.outlineWidth) };
  });
  expect(outline.style).not.toBe('none');
  expect(outline.width).toBeGreaterThanOrEqual(2);
  // Right three times crosses into the top board; down three times into the left board.
  for (let i = 0; i < 3; i += 1) await page.keyboard.press('ArrowRight');
  expect(await focused()).toBe('1/0');
  for (let i = 0; i < 3; i += 1) await page.keyboard.press('ArrowDown');
  expect(await focused()).toBe('4/0');
  await page.keyboard.press('End');
  expect(await focused()).toBe('5/2');
  await page.keyboard.press('Control+Home');
  expect(await focused()).toBe('0/0');
  await page.keyboard.press('Control+End');
  expect(await focused()).toBe('8/8');
  await page.keyboard.press('Enter');
  await expect(cell(page, 8, 8)).toHaveAttribute('data-mark', 'x');
  // O must answer in the bottom-right board: the focus moves to its centre.
  await expect.poll(focused).toBe('8/4');
  // The cell three to the left is in another board.
  for (let i = 0; i < 3; i += 1) await page.keyboard.press('ArrowLeft');
  expect(await focused()).toBe('7/4');
  await page.keyboard.press(' ');
  await expect(page.locator('#status')).toContainText('Not there');
  // Still one tab stop after playing.
  await expect(page.locator('#board button[tabindex="0"]')).toHaveCount(1);
  // Tab leaves the board in one step.
  await page.keyboard.press('Shift+Tab');
  expect(await focused()).toBeNull();
});

test('moves, the AI reply and a won board are announced once in the live region', async ({ page }) => {
  await open(page);
  await expect(cell(page, 4, 4)).toHaveAttribute('aria-label', 'centre board, centre cell, empty, playable');
  await choose(page, { mode: 'human' });
  const announcer = page.getByTestId('announcer');
  await playAll(page, [[4, 0]]);
  await expect(announcer).toHaveText('X played d4: centre board, top-left cell.');
  await playAll(page, [[0, 4], [4, 1], [1, 4], [4, 2]]);
  await expect(announcer).toHaveText('X played f4: centre board, top-right cell. X won the centre board.');
  await expect(page.locator('#board .small[data-board="4"]')).toHaveAttribute('aria-label', /won by X/);

  // Against the AI its reply is announced as the AI's.
  await choose(page, { mode: 'ai-x' });
  await choose(page, { level: 'beginner' });
  await cell(page, 4, 4).click();
  await expect(announcer).toHaveText(/^The AI \(O\) replied [a-i][1-9]: centre board, .* cell\.$/);
  // Browsing is announced as a position, not as a move.
  await plyButton(page, 1).click();
  await expect(announcer).toHaveText('Showing the position after move 1 of 2.');
});

test.describe('in Chinese', () => {
  test.use({ locale: 'zh-CN' });

  test('the page follows the browser language, translates labels, and the choice persists', async ({ page }) => {
    await open(page);
    await expect(page.locator('html')).toHaveAttribute('lang', 'zh-CN');
    // The tab's title, in Chinese: the game against the AI waits for the person's move (title.js).
    await expect(page).toHaveTitle('轮到你了 · 终极井字棋');
    await expect(page.locator('#btn-new')).toContainText('新游戏');
    await expect(page.locator('#status')).toContainText('轮到你');
    await expect(cell(page, 2, 4)).toHaveAttribute('aria-label', /^右上棋盘，中格，空/);
    await expect(page.locator('#review-heading')).toHaveText('着法');
    // Every data-i18n text is translated (no Latin words left but X, O, AI names and notation).
    const untranslated = await page.locator('[data-i18n]').evaluateAll((els) =>
      els.filter((e) => e.textContent.trim() && !/[\u4e00-\u9fff]/.test(e.textContent)).map((e) => e.dataset.i18n));
    expect(untranslated).toEqual([]);

    await page.selectOption('#lang-select', 'en');
    await expect(page.locator('html')).toHaveAttribute('lang', 'en');
    await expect(page.locator('#btn-new')).toContainText('New game');
    await expect(cell(page, 2, 4)).toHaveAttribute('aria-label', /^top-right board, centre cell, empty/);
    await page.reload();
    await expect(page.locator('html')).toHaveAttribute('data-ready', 'true');
    await expect(page.locator('#btn-new')).toContainText('New game');
  });

  test('a bad link is explained in Chinese', async ({ page }) => {
    await open(page, './#ultimate-standard:e5e5');
    await expect(page.getByTestId('review-message')).toContainText('第 2 步（第 21 个字符）不合规则');
    await expect(page.getByTestId('review-message')).toContainText('当前棋局没有改变');
  });
});

test('installable, and playable against the AI offline after the first load', async ({ page, context }) => {
  await open(page);
  const manifest = await page.evaluate(async () => {
    const href = document.querySelector('link[rel="manifest"]').href;
    return (await fetch(href)).json();
  });
  expect(manifest.icons.map((i) => i.sizes)).toEqual(expect.arrayContaining(['192x192', '512x512']));
  const version = await page.evaluate(async () => {
    const reg = await navigator.serviceWorker.ready;
    const channel = new MessageChannel();
    const answer = new Promise((resolve) => {
      channel.port1.onmessage = (e) => resolve(e.data.version);
    });
    reg.active.postMessage({ type: 'VERSION' }, [channel.port2]);
    return answer;
  });
  expect(version).toMatch(/^[0-9a-f]{16}$/);
  const cached = await page.evaluate(async (v) => {
    const cache = await caches.open(`uttt-${v}`);
    return (await cache.keys()).map((r) => new URL(r.url).pathname);
  }, version);
  for (const module of ['uttt_page', 'uttt_worker']) {
    expect(cached.some((p) => p.endsWith(`/www/pkg/${module}_bg.wasm`))).toBe(true);
  }
  expect(cached.some((p) => p.endsWith('/www/worker.js'))).toBe(true);

  await context.setOffline(true);
  await page.reload();
  await expect(page.locator('html')).toHaveAttribute('data-ready', 'true');
  await choose(page, { level: 'beginner' });
  await cell(page, 4, 4).click();
  await expectMarks(page, 2, { timeout: 15_000 });
  await aiIdle(page);
  await context.setOffline(false);
});

test('a new version installs beside the old one, waits for Reload, then clears old caches', async ({ page }) => {
  await open(page);
  // Once the first worker is activated, not merely active: its activation
  // clears older releases' caches, and would take the stale one planted below.
  const current = await page.evaluate(async () => {
    const { active } = await navigator.serviceWorker.ready;
    while (active.state !== 'activated') await new Promise((done) => active.addEventListener('statechange', done, { once: true }));
    return caches.keys();
  });
  expect(current).toHaveLength(1);
  // What an earlier release left behind, and another app's cache that must survive.
  await page.evaluate(async () => {
    await (await caches.open('uttt-0000000000000000')).put('stale', new Response('old'));
    await (await caches.open('other-app')).put('keep', new Response('mine'));
  });
  // A new worker script URL is a new release to the browser (the static test
  // server cannot serve changed bytes): it installs and waits for the user.
  await page.evaluate(() => navigator.serviceWorker.register('sw.js?release=2', { scope: './' }));
  await expect(page.locator('#update-banner')).toContainText('A new version is ready.');
  expect((await page.evaluate(() => caches.keys())).sort()).toEqual(['other-app', current[0], 'uttt-0000000000000000'].sort());
  await Promise.all([page.waitForEvent('load'), page.locator('#update-banner button').click()]);
  await expect(page.locator('html')).toHaveAttribute('data-ready', 'true');
  await expect
    .poll(() => page.evaluate(() => navigator.serviceWorker.controller && navigator.serviceWorker.controller.scriptURL))
    .toMatch(/sw\.js\?release=2$/);
  expect((await page.evaluate(() => caches.keys())).sort()).toEqual(['other-app', current[0]].sort());
});
