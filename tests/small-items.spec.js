// Issue 40's smaller items: texts for players where online play cannot
// happen, a Copy button for the exported record with words for touch, the
// tutorial's last card without keys on touch, no AI level in Two players,
// the worth overlay's legend, the tab title on the person's move, the score
// card read in words, the buttons disabled while loading, the manifest's
// colours, and what the review's accuracy means.

import { test, expect } from './support/fixtures.js';
import { open, choose, showTab, cell, expectMarks, aiIdle, setOverlay } from './game-helpers.js';

/** Words for developers that a player should never be shown. */
const DEVELOPER_WORDS = /cargo|xtask|websocket|console|server|服务器/i;

/** Opens the page in Chinese. */
async function openChinese(page, path = './') {
  await page.addInitScript(() => localStorage.setItem('uttt.lang', 'zh-CN'));
  await open(page, path);
}

test.describe('online play where it cannot happen', () => {
  test('no game server: the Online tab tells the player what they can do, in both languages', async ({ page }) => {
    await page.routeWebSocket(/\/ws$/, (ws) => ws.close());
    await open(page);
    await showTab(page, 'online');
    await page.locator('[data-action="online-create"]').click();
    const note = page.locator('.online-unavailable');
    await expect(note).toHaveText('Online play isn’t available here. You can still play the AI or a friend on this device.');
    await expect(note).not.toContainText(DEVELOPER_WORDS);
    await expect(page.locator('#status')).not.toContainText(DEVELOPER_WORDS);

    await page.locator('#lang-select').selectOption('zh-CN');
    await expect(note).toHaveText('这里无法在线对战。你仍可以在本机与 AI 或好友对战。');
  });

  test('offline: the Online tab says so and offers no room until the network is back', async ({ page, context }) => {
    await open(page);
    await showTab(page, 'online');
    const note = page.locator('.online-unavailable');
    const create = page.locator('[data-action="online-create"]');
    await expect(note).toBeHidden();
    await expect(create).toBeEnabled();
    await context.setOffline(true);
    await expect(note).toHaveText('You’re offline. Online games will be back when you reconnect.');
    await expect(create).toBeDisabled();
    await context.setOffline(false);
    await expect(note).toBeHidden();
    await expect(create).toBeEnabled();
  });

  test('no text in either language speaks of cargo, xtask, the server, WebSockets or the console', async ({ page }) => {
    await open(page);
    const found = await page.evaluate(async (source) => {
      const words = new RegExp(source, 'i');
      const { tables } = await import('./www/i18n.js');
      const hits = [];
      for (const [code, table] of Object.entries(tables)) {
        for (const [key, value] of Object.entries(table)) {
          const forms = typeof value === 'string' ? [value] : Object.values(value);
          if (forms.some((form) => words.test(form))) hits.push(`${code} ${key}`);
        }
      }
      return hits;
    }, DEVELOPER_WORDS.source);
    expect(found).toEqual([]);
  });
});

test.describe('the exported record on a touch screen', () => {
  test.use({ hasTouch: true });

  test('a Copy record button copies it, and the words speak of tapping, not Ctrl+C', async ({ page, context }) => {
    await context.grantPermissions(['clipboard-read', 'clipboard-write']);
    await open(page, './#classic:a1b2c3');
    expect(await page.evaluate(() => matchMedia('(hover: hover) and (pointer: fine)').matches)).toBe(false);
    await showTab(page, 'share');
    const copy = page.getByTestId('copy-record');
    const message = page.getByTestId('share-message');
    await expect(copy).toBeHidden();
    await page.getByTestId('export').click();
    await expect(page.getByTestId('record-text')).toHaveValue('classic:a1b2c3');
    await expect(message).toHaveText('The record is below: tap Copy record to copy it.');
    await expect(copy).toBeVisible();
    await copy.click();
    await expect(message).toHaveText('Record copied.');
    expect(await page.evaluate(() => navigator.clipboard.readText())).toBe('classic:a1b2c3');
    await expect(page.locator('#pane-share')).not.toContainText('Ctrl');
  });

  test('where the clipboard is refused, the record is selected and the words say how to copy by touch', async ({ page }) => {
    await page.addInitScript(() => {
      Object.defineProperty(navigator, 'clipboard', { value: { writeText: () => Promise.reject(new Error('refused')) } });
    });
    await open(page, './#classic:a1b2c3');
    await showTab(page, 'share');
    await page.getByTestId('export').click();
    await page.getByTestId('copy-record').click();
    await expect(page.getByTestId('share-message')).toHaveText('Could not copy here: press and hold the record, then choose Copy.');
    const selection = await page.getByTestId('record-text').evaluate((area) => [area.selectionStart, area.selectionEnd, area.value.length]);
    expect(selection).toEqual([0, 14, 14]);
  });
});

test('with a mouse, Export selects the record and names Ctrl+C beside the Copy record button', async ({ page }) => {
  await open(page, './#classic:a1b2c3');
  await showTab(page, 'share');
  await page.getByTestId('export').click();
  await expect(page.getByTestId('share-message')).toHaveText('The record is below and selected: press Copy record, or Ctrl+C.');
  await expect(page.getByTestId('copy-record')).toBeVisible();
  const selection = await page.getByTestId('record-text').evaluate((area) => [area.selectionStart, area.selectionEnd]);
  expect(selection).toEqual([0, 14]);
});

test.describe('the tutorial on a touch screen', () => {
  test.use({ tutorial: true, hasTouch: true });

  test('its last card lists no keyboard shortcuts and says where the buttons are', async ({ page }) => {
    await open(page);
    const dialog = page.getByTestId('tutorial');
    const tutorialCell = (b, c) => page.locator(`#tutorial-board button[data-board="${b}"][data-cell="${c}"]`);
    // The four lessons, each with its move (as in tutorial.spec.js), then Next.
    for (const [n, [b, c]] of [[1, 2], [0, 2], [6, 4], [8, 6]].entries()) {
      await expect(page.getByTestId('tutorial-count')).toHaveText(`${n + 1} / 5`);
      // The third lesson opens with O's scripted reply; the board takes taps after it.
      await expect(page.locator('#tutorial-board')).toHaveAttribute('data-interactive', 'true');
      await tutorialCell(b, c).tap();
      await expect(tutorialCell(b, c)).toHaveAttribute('data-mark', 'x');
      await page.getByTestId('tutorial-next').tap();
    }
    await expect(page.getByTestId('tutorial-count')).toHaveText('5 / 5');
    await expect(dialog).toContainText('e5');
    await expect(page.locator('#tutorial-title')).toHaveText('Coordinates and buttons');
    await expect(dialog.locator('kbd')).toHaveCount(0);
    await expect(dialog).not.toContainText('Ctrl');
    await expect(page.getByTestId('tutorial-touch')).toHaveText(/^Tap a cell to play it\. Undo takes a move back, Hint suggests one/);
  });
});

test('Two players shows no AI level; the AI modes do', async ({ page }) => {
  await open(page);
  await showTab(page, 'game');
  const level = page.locator('#field-level');
  await expect(level).toBeVisible();
  await choose(page, { mode: 'human' });
  await showTab(page, 'game');
  await expect(level).toBeHidden();
  expect(await page.locator('#pane-game').innerText()).not.toContain('AI level');
  await choose(page, { mode: 'watch' });
  await showTab(page, 'game');
  await expect(level).toBeVisible();
  await expect(page.locator('#set-level-label')).toHaveText("X's level");
  await choose(page, { mode: 'ai-o' });
  await showTab(page, 'game');
  await expect(level).toBeVisible();
  await expect(page.locator('#set-level-label')).toHaveText('AI level');
});

test.describe('the worth overlay’s legend', () => {
  test('shows in the Moves tab under the evaluation bar while the overlay is on, never over the board', async ({ page }) => {
    await open(page);
    await choose(page, { mode: 'human' });
    const legend = page.getByTestId('worth-legend');
    await expect(legend).toBeHidden();
    await setOverlay(page, true);
    await expect(legend).toBeVisible();
    await expect(legend).toContainText('what that move is worth to the player to move');
    await expect(legend).toContainText('the best move (ringed)');
    await expect(legend).toContainText('5 to 20 points worse');
    await expect(legend).toContainText('wins or loses in 3 moves');
    // In the Moves pane, right after the evaluation bar.
    expect(await legend.evaluate((node) => node.closest('#pane-moves') !== null && node.previousElementSibling?.id === 'eval-bar')).toBe(true);
    await expect.poll(() => page.locator('#board [data-worth]').count(), { timeout: 10_000 }).toBeGreaterThan(0);
    const [board, box] = [await page.locator('#board').boundingBox(), await legend.boundingBox()];
    const overlaps = box.x < board.x + board.width && board.x < box.x + box.width && box.y < board.y + board.height && board.y < box.y + box.height;
    expect(overlaps).toBe(false);
    await setOverlay(page, false);
    await expect(legend).toBeHidden();
  });

  test('is in Chinese on the Chinese page', async ({ page }) => {
    await openChinese(page);
    await setOverlay(page, true);
    const legend = page.getByTestId('worth-legend');
    await expect(legend).toContainText('棋盘上的每个数字是这步棋对走棋方的价值');
    await expect(legend).toContainText('比最佳差 5 到 20 个百分点');
    await expect(legend).toHaveAttribute('aria-label', '棋盘上数字的含义');
  });
});

test.describe('the tab title', () => {
  test('says when it is the person’s move against the AI, and not while the AI thinks', async ({ page }) => {
    await open(page);
    await expect(page).toHaveTitle('Your move · Ultimate Tic-Tac-Toe');
    // While the AI thinks the title is plain; its reply brings "Your move" back.
    await page.evaluate(() => {
      window.__titles = [];
      new MutationObserver(() => window.__titles.push(document.title)).observe(document.querySelector('title'), { childList: true });
    });
    await cell(page, 4, 4).click();
    await expectMarks(page, 2);
    await aiIdle(page);
    await expect(page).toHaveTitle('Your move · Ultimate Tic-Tac-Toe');
    expect(await page.evaluate(() => window.__titles)).toContain('Ultimate Tic-Tac-Toe');

    await page.locator('#lang-select').selectOption('zh-CN');
    await expect(page).toHaveTitle('轮到你了 · 终极井字棋');
    await page.locator('#lang-select').selectOption('en');

    // Two players at one screen: nobody to call back, the plain title.
    await choose(page, { mode: 'human' });
    await expect(page).toHaveTitle('Ultimate Tic-Tac-Toe');
  });

  test('online, calls the player whose move it is, once the friend has come', async ({ page, browser }) => {
    await open(page);
    await showTab(page, 'online');
    await page.selectOption('#online-kind', 'classic');
    await page.selectOption('#online-colour', 'x');
    await page.locator('[data-action="online-create"]').click();
    await expect(page.locator('html')).toHaveAttribute('data-online-state', 'waiting');
    // Alone in the room nobody can move yet.
    await expect(page).toHaveTitle('Ultimate Tic-Tac-Toe');
    const link = await page.locator('[data-online-link]').getAttribute('href');
    const context = await browser.newContext();
    await context.addInitScript(() => localStorage.setItem('uttt.tutorial', 'done'));
    const friend = await context.newPage();
    await friend.goto(link);
    await expect(friend.locator('html')).toHaveAttribute('data-online-state', 'playing');
    await expect(page).toHaveTitle('Your move · Ultimate Tic-Tac-Toe');
    await expect(friend).toHaveTitle('Ultimate Tic-Tac-Toe');
    await cell(page, 0, 4).click();
    await expect(friend).toHaveTitle('Your move · Ultimate Tic-Tac-Toe');
    await expect(page).toHaveTitle('Ultimate Tic-Tac-Toe');
    await context.close();
  });

  test('says the result of a finished game against the AI', async ({ page }) => {
    // X (the person) wins the top row of a classic game.
    await open(page, './#classic:a1a2b1b2c1');
    await expect(page).toHaveTitle('You won · Ultimate Tic-Tac-Toe');
    // Looking back at an earlier position is not the game waiting.
    await page.locator('.move-list button[data-ply="2"]').click();
    await expect(page).toHaveTitle('Ultimate Tic-Tac-Toe');
  });
});

test.describe('the score card for screen readers', () => {
  test('each chip reads as who plays which side and their wins, and the draws', async ({ page }) => {
    await open(page);
    const players = page.locator('#players');
    await expect(players).toMatchAriaSnapshot(`
      - text: "You (X). Wins: 0 Draws: 0 AI Medium (O). Wins: 0"
    `);
    expect(await players.ariaSnapshot()).not.toContain('·');
    // The visible pieces are still there for the eye (and the other specs).
    await expect(page.locator('#player-o-name')).toHaveText('AI · Medium');
    await expect(page.locator('#score-x')).toHaveText('0');

    await choose(page, { mode: 'human' });
    await expect(players).toMatchAriaSnapshot(`
      - text: "Player X. Wins: 0 Draws: 0 Player O. Wins: 0"
    `);
  });

  test('in Chinese too', async ({ page }) => {
    await openChinese(page);
    await expect(page.locator('#players')).toMatchAriaSnapshot(`
      - text: "你（X）。胜：0 平局：0 电脑 中等（O）。胜：0"
    `);
  });

  test('online, each chip reads its player and the time left on its clock', async ({ page }) => {
    await open(page);
    await showTab(page, 'online');
    await page.selectOption('#online-colour', 'x');
    await page.selectOption('#online-clock', '1');
    await page.locator('[data-action="online-create"]').click();
    await expect(page.locator('html')).toHaveAttribute('data-online-state', 'waiting');
    const players = page.locator('#players');
    await expect.poll(() => players.ariaSnapshot()).toBe('- text: "You (X). Time left: 1:00 Opponent (O). Time left: 1:00"');
    await page.locator('[data-action="online-leave"]').click();
    await expect(page.locator('html')).not.toHaveAttribute('data-online-state', /.*/);
  });
});

test('Undo, Redo and Hint are disabled while the game loads, and come alive with it', async ({ page }) => {
  let release;
  const gate = new Promise((resolve) => (release = resolve));
  await page.route(/uttt_page_bg\.wasm$/, async (route) => {
    await gate;
    await route.continue();
  });
  await page.goto('./', { waitUntil: 'domcontentloaded' });
  await expect(page.locator('#status')).toHaveText('Loading the game…');
  for (const id of ['btn-undo', 'btn-redo', 'btn-hint']) await expect(page.locator(`#${id}`)).toBeDisabled();
  release();
  await expect(page.locator('html')).toHaveAttribute('data-ready', 'true');
  // Nothing to take back yet; a hint is there to ask for.
  await expect(page.locator('#btn-undo')).toBeDisabled();
  await expect(page.locator('#btn-redo')).toBeDisabled();
  await expect(page.locator('#btn-hint')).toBeEnabled();
  await cell(page, 4, 4).click();
  await aiIdle(page);
  await expect(page.locator('#btn-undo')).toBeEnabled();
  await expect(page.locator('#btn-hint')).toBeEnabled();
});

test('the manifest’s colours are the page’s own light background, as is the light theme-color', async ({ page }) => {
  await open(page);
  const seen = await page.evaluate(async () => {
    const manifest = await (await fetch(document.querySelector('link[rel="manifest"]').href)).json();
    const meta = (scheme) => document.querySelector(`meta[name="theme-color"][media="(prefers-color-scheme: ${scheme})"]`).content;
    return { theme: manifest.theme_color, background: manifest.background_color, light: meta('light'), dark: meta('dark') };
  });
  const pageBg = () => page.evaluate(() => getComputedStyle(document.documentElement).getPropertyValue('--bg').trim());
  await page.emulateMedia({ colorScheme: 'light' });
  const light = await pageBg();
  await page.emulateMedia({ colorScheme: 'dark' });
  const dark = await pageBg();
  expect(seen).toEqual({ theme: light, background: light, light, dark });
  expect(light).not.toBe(dark);
});

test('the review says what accuracy measures, and its figure is the mean of the moves’ losses', async ({ page }) => {
  // X a1, O b2, X c3, O c1 (O's blunder: X forks), X a3.
  await open(page, './#classic:a1b2c3c1a3');
  await page.getByTestId('review-start').click();
  await expect(page.locator('#game-review')).toHaveAttribute('data-review', 'done', { timeout: 30_000 });
  const note = page.getByTestId('review-accuracy-note');
  await expect(note).toBeVisible();
  await expect(note).toHaveText(/^Accuracy: how much of the best move’s winning chance a player’s moves kept on average/);
  await expect(page.getByTestId('review-summary')).toHaveAttribute('aria-describedby', 'review-accuracy-note');

  // O's accuracy is 100 less the mean of O's losses (moves 2 and 4), as each move's detail gives them.
  const loss = async (ply) => {
    await page.locator(`.move-list button[data-ply="${ply}"]`).click();
    const text = await page.getByTestId('review-detail').textContent();
    return Number(text.match(/\(−(\d+)%\)/)?.[1] ?? 0);
  };
  const mean = ((await loss(2)) + (await loss(4))) / 2;
  const shown = parseFloat(await page.locator('[data-testid="review-summary"] tr[data-side="o"] td').first().textContent());
  expect(Math.abs(shown - (100 - mean))).toBeLessThanOrEqual(1);
  await expect(page.locator('.move-list button[data-ply="4"]')).toHaveAttribute('data-mark', 'blunder');

  await page.locator('#lang-select').selectOption('zh-CN');
  await expect(note).toHaveText(/^准确率：一方的每步棋平均保住了最佳着法获胜机会的多少/);
});
