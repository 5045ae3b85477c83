// The end of a game: the end card (result, winning line, Rematch, Review,
// Share, Close/Escape, gone on Undo), the confetti (none under reduced
// motion), the cue on the board a move sends the opponent to, and the
// optional sounds (off by default, no console error when on).

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
  // A two-player win is celebrated, and the confetti goes away by itself.
  await expect.poll(() => page.evaluate(() => window.__bursts)).toBe(1);
  await expect(page.getByTestId('celebration')).toHaveCount(0, { timeout: 5000 });
  // The card sits over the board and leaves the controls clear.
  const [cardBox, boardBox, newBox, undoBox] = await Promise.all(
    [card, page.locator('#board'), page.locator('#btn-new'), page.locator('#btn-undo')].map((l) => l.boundingBox()),
  );
  expect(cardBox.y).toBeGreaterThanOrEqual(boardBox.y);
  expect(cardBox.y + cardBox.height).toBeLessThanOrEqual(boardBox.y + boardBox.height + 1);
  for (const control of [newBox, undoBox]) {
    const apart = cardBox.y + cardBox.height <= control.y || control.y + control.height <= cardBox.y
      || cardBox.x + cardBox.width <= control.x || control.x + control.width <= cardBox.x;
    expect(apart).toBe(true);
  }
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

test('the card fits on a small phone and a phone on its side', async ({ page }) => {
  for (const viewport of [{ width: 360, height: 640 }, { width: 640, height: 360 }]) {
    await page.setViewportSize(viewport);
    if (viewport.width === 360) await openTwoPlayer(page);
    else await page.getByTestId('rematch').click();
    await playClassicXWin(page);
    const card = page.getByTestId('end-card');
    await expect(card).toBeVisible();
    const box = await card.boundingBox();
    const controls = await page.locator('.controls').boundingBox();
    expect(box.x).toBeGreaterThanOrEqual(0);
    expect(box.y).toBeGreaterThanOrEqual(0);
    expect(box.x + box.width).toBeLessThanOrEqual(viewport.width);
    expect(box.y + box.height).toBeLessThanOrEqual(viewport.height);
    const apart = box.y + box.height <= controls.y || controls.y + controls.height <= box.y
      || box.x + box.width <= controls.x || controls.x + controls.width <= box.x;
    expect(apart, `the card covers the controls at ${viewport.width}x${viewport.height}`).toBe(true);
  }
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
