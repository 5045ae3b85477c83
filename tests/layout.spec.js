// The game screen as a player holds it (issue 40), at every size, in both
// themes and both languages: nothing covers the board (a hint lives in the
// status box and every cell of row 1 takes its tap), the board and the
// controls never move nor leave the view through ten moves, no label is cut
// off, dialogs fit, and touch targets are big enough. Buttons are tapped,
// as on a phone.

import { test, expect } from './support/fixtures.js';
import { openWith, cell, cellSelector, markCount, expectMarks } from './game-helpers.js';

const EN_LIGHT = { locale: 'en-US', colorScheme: 'light' };
const ZH_DARK = { locale: 'zh-CN', colorScheme: 'dark' };

// The phone and laptop sizes players hold most, in English and light and
// again in Chinese and dark (the language changes every label's length, the
// theme only its colours); the sizes between and beyond them in one look
// each, which is where their layouts differ from those (landscape phone,
// tablet, a wide screen), and so the smaller laptop (1280x720 lays the game
// out as 1366x768 does, a little tighter: English, the longer labels there).
const SIZES = [
  [360, 640, [EN_LIGHT, ZH_DARK]],
  [390, 844, [EN_LIGHT, ZH_DARK]],
  [640, 360, [EN_LIGHT, ZH_DARK]],
  [844, 390, [ZH_DARK]],
  [768, 1024, [EN_LIGHT]],
  [1280, 720, [EN_LIGHT]],
  [1366, 768, [EN_LIGHT, ZH_DARK]],
  [1920, 1080, [ZH_DARK]],
];

/**
 * The smallest cell side the page must reach at a viewport: 40 px where
 * the viewport leaves room for it, else what its shorter usable side allows
 * (the board with its coordinates across the width upright, across the
 * height lying down; measured in the note of issue 40).
 */
function cellFloor(width, height) {
  if (width >= 440 && height >= 440) return 40;
  const side = Math.min(width, height);
  return side >= 390 ? 37 : side >= 360 ? 33.5 : 33;
}

/** Opens the page as a returning player of two-player games (or of `settings`). */
function openTwoPlayer(page, settings = {}) {
  return openWith(page, { mode: 'human', ...settings });
}

// The checks below read the page in the page: each step is one evaluate
// that waits there for what the step waits for and reads that moment's
// measures, so a hint or a move is seen as it comes, all is read at one
// moment, and a step costs one round trip. The page's half is installed
// before the page's own scripts on every load (page.addInitScript) under
// one window property, `__layoutSpec`, in four parts: what they share, the
// measures, the waits and the taps. Each part is a function run in the
// page, so it reads only what the parts before it put there.

/** In the page: what the other parts share. */
function installBasics() {
  const cells = () => [...document.querySelectorAll('#board button[data-cell]')];
  window.__layoutSpec = {
    // The board and the controls beside it, which must never move.
    CONTROLS: ['board', 'status-box', 'btn-new', 'btn-undo', 'btn-redo', 'btn-hint'],
    cells,
    markCount: () => cells().filter((c) => c.dataset.mark).length,
    // As a locator's boundingBox gives it: null for a node not shown.
    box: (node) => {
      if (!node || node.getClientRects().length === 0) return null;
      const r = node.getBoundingClientRect();
      return { x: r.x, y: r.y, width: r.width, height: r.height };
    },
    // As Playwright's toBeVisible has it.
    visible: (node) => {
      const r = node.getBoundingClientRect();
      return node.checkVisibility() && getComputedStyle(node).visibility === 'visible' && r.width > 0 && r.height > 0;
    },
  };
}

/**
 * In the page: the measures a step may take, by name, and `read`, which
 * takes them with the boxes of some selectors (see measure).
 * - controls: where the board and the controls beside it are laid out,
 *   from the layout's offsets, in whole pixels of the page: where the
 *   layout put them whatever the scroll (scrollY and outOfView check that);
 * - outOfView: those of them that are not wholly in the viewport;
 * - overflowing: labelled controls and texts whose content is wider or
 *   taller than their box;
 * - smallTargets: visible controls (outside the board) smaller than 44x44 px;
 * - smallestCell: the smallest cell's side on the board;
 * - marked: each mark on the board, as "board:cell mark";
 * - hintText: the hint's text, trimmed; dismissShown: whether Dismiss is
 *   visible;
 * - scrollY, marks (how many on the board), over (the board's data-over),
 *   legal (the box of the first cell that takes a move).
 */
function installMeasures() {
  const spec = window.__layoutSpec;
  const { CONTROLS, cells, box } = spec;
  spec.measures = {
    controls: () =>
      CONTROLS.map((id) => {
        const node = document.getElementById(id);
        let [left, top] = [0, 0];
        for (let e = node; e; e = e.offsetParent) [left, top] = [left + e.offsetLeft, top + e.offsetTop];
        return `${id} ${left},${top} ${node.offsetWidth}x${node.offsetHeight}`;
      }),
    outOfView: () =>
      CONTROLS.filter((id) => {
        const r = document.getElementById(id).getBoundingClientRect();
        return !(r.width > 0 && r.top >= 0 && r.left >= 0 && r.bottom <= innerHeight && r.right <= innerWidth);
      }),
    overflowing: () => {
      const selector = [
        'button', 'select', '[role="tab"]', 'label', '.player-name', '.brand-name', '.status', '.notice',
        '.hint-text', '.player-draws', '.eval-text', 'h1', 'h2', 'h3',
      ].join(',');
      // Shown, and not a label kept for screen readers only (clipped to 1 px).
      const shown = (e) => e.getClientRects().length > 0 && getComputedStyle(e).visibility !== 'hidden' && e.clientWidth > 1;
      return [...document.querySelectorAll(selector)]
        .filter((e) => shown(e) && !e.closest('#board, [hidden], dialog:not([open])'))
        .filter((e) => e.scrollWidth > e.clientWidth + 1 || e.scrollHeight > e.clientHeight + 1)
        .map((e) => `${e.id || e.className || e.tagName}: "${e.textContent.trim().slice(0, 40)}" ${e.scrollWidth}x${e.scrollHeight} in ${e.clientWidth}x${e.clientHeight}`);
    },
    smallTargets: () => {
      const shown = (e) => e.getClientRects().length > 0 && getComputedStyle(e).visibility !== 'hidden';
      // A checkbox inside a label.option is tapped through that label, which
      // is the target; any other checkbox is a target of its own.
      const controls = [
        ...document.querySelectorAll('button, select, [role="tab"], a[href], label.option, input[type="checkbox"]'),
      ]
        .filter((e) => shown(e) && !e.closest('#board, [hidden], .skip-link'))
        .filter((e) => !e.matches('label.option > input'));
      return controls
        .map((e) => [e, e.getBoundingClientRect()])
        .filter(([, r]) => r.width < 43.5 || r.height < 43.5)
        .map(([e, r]) => `${e.id || e.className || e.tagName} "${e.textContent.trim().slice(0, 20)}" ${Math.round(r.width)}x${Math.round(r.height)}`);
    },
    // Layout sizes, not the drawn box: a mark just placed is still scaling in.
    smallestCell: () => Math.min(...cells().map((c) => parseFloat(getComputedStyle(c).width))),
    marked: () => cells().filter((c) => c.dataset.mark).map((c) => `${c.dataset.board}:${c.dataset.cell} ${c.dataset.mark}`),
    hintText: () => document.getElementById('hint-text').textContent.trim(),
    dismissShown: () => spec.visible(document.getElementById('btn-dismiss')),
    scrollY: () => scrollY,
    marks: spec.markCount,
    over: () => document.getElementById('board').getAttribute('data-over'),
    legal: () => box(document.querySelector('#board button[data-legal="true"]')),
  };
  spec.read = (take, boxes) => ({
    ...Object.fromEntries(take.map((name) => [name, spec.measures[name]()])),
    boxes: Object.fromEntries(Object.entries(boxes).map(([name, selector]) => [name, box(document.querySelector(selector))])),
  });
}

/**
 * In the page: `waitFor(until, timeout)`, true once every condition of
 * `until` holds, looking every 50 ms, or false after `timeout` ms. The
 * conditions: marks (exactly that many marks), marksAbove (more marks than
 * that), idle (whether the AI is idle: true is what aiIdle waits for),
 * hints (how many cells a hint rings). `stateNow` says what a step that
 * timed out saw.
 */
function installWaits() {
  const spec = window.__layoutSpec;
  const tone = () => document.getElementById('status').dataset.tone;
  const conditions = {
    marks: (n) => spec.markCount() === n,
    marksAbove: (n) => spec.markCount() > n,
    idle: (idle) => (tone() !== 'thinking') === idle,
    hints: (n) => document.querySelectorAll('#board .hint-cell').length === n,
  };
  const holds = (until) => Object.entries(until).every(([name, value]) => conditions[name](value));
  spec.waitFor = async (until, timeout) => {
    for (const deadline = performance.now() + timeout; !holds(until); ) {
      if (performance.now() > deadline) return false;
      await new Promise((done) => setTimeout(done, 50));
    }
    return true;
  };
  spec.stateNow = () => `${spec.markCount()} marks, the status's tone ${tone()}, the hint's text "${spec.measures.hintText()}"`;
}

/**
 * In the page: `tappable(selector, timeout)`, looking once a frame, gives
 * the box of the button `selector` as soon as it takes a tap at its centre
 * as a locator's tap waits for: visible, enabled, the same box two frames
 * running, its centre in the viewport (scrolled there if not, as a
 * locator's tap does) and the button itself, or what it holds, on top
 * there. After `timeout` ms it gives {failed: why not} instead.
 */
function installTaps() {
  const spec = window.__layoutSpec;
  const frame = () => new Promise((done) => requestAnimationFrame(done));
  const same = (a, b) => Boolean(a && b) && a.x === b.x && a.y === b.y && a.width === b.width && a.height === b.height;
  const centre = (r) => [r.x + r.width / 2, r.y + r.height / 2];
  const inView = ([x, y]) => x >= 0 && y >= 0 && x < innerWidth && y < innerHeight;
  const named = (node) => (node ? node.closest('[id]')?.id || node.tagName : 'nothing');
  // Why `node`, whose box is `now` and was `before` a frame ago, does not take a tap; '' if it does.
  const whyNot = (node, now, before) => {
    if (!node) return 'not in the page';
    if (!spec.visible(node)) return 'not visible';
    if (node.matches(':disabled') || node.getAttribute('aria-disabled') === 'true') return 'disabled';
    if (!inView(centre(now))) return 'out of view';
    if (!same(now, before)) return 'moving';
    const top = document.elementFromPoint(...centre(now));
    return node.contains(top) ? '' : `covered by ${named(top)}`;
  };
  spec.tappable = async (selector, timeout) => {
    const deadline = performance.now() + timeout;
    for (let before = null; ; await frame()) {
      const node = document.querySelector(selector);
      const now = spec.box(node);
      const why = whyNot(node, now, before);
      if (!why) return { box: now };
      if (performance.now() > deadline) return { failed: why };
      if (why === 'out of view') node.scrollIntoView({ block: 'nearest', inline: 'nearest' });
      before = now;
    }
  };
}

// Every test here reads the page through `__layoutSpec`, from its first load.
test.beforeEach(async ({ page }) => {
  for (const part of [installBasics, installMeasures, installWaits, installTaps]) await page.addInitScript(part);
});

/**
 * Waits in the page until every condition of `until` holds (see
 * installWaits), then reads the measures named in `take` and the box of
 * each selector of `boxes` ({name: selector}; null for one not shown) at
 * that moment, in one round trip (see installMeasures). Fails after
 * `timeout` ms, naming `what` and what the page showed.
 */
async function measureWhen(page, what, until, { take = [], boxes = {}, timeout = 10_000 } = {}) {
  const seen = await page.evaluate(
    async (step) => {
      const spec = window.__layoutSpec;
      return (await spec.waitFor(step.until, step.timeout)) ? spec.read(step.take, step.boxes) : { timedOut: spec.stateNow() };
    },
    { until, take, boxes, timeout },
  );
  if (seen.timedOut) throw new Error(`${timeout} ms waiting for ${what}: ${seen.timedOut}`);
  return seen;
}

/** Reads the measures named in `take` and the boxes of `boxes` as the page is now (see measureWhen). */
function measure(page, { take = [], boxes = {} } = {}) {
  return measureWhen(page, 'nothing', {}, { take, boxes });
}

/**
 * Taps the button `selector` at its centre with the touchscreen, as a
 * finger would, as soon as the page says it takes a tap there (see
 * installTaps). One round trip lies between that look and the touch, as
 * between a locator's checks and its tap; the box has held still for a
 * frame by then.
 */
async function tapButton(page, selector, timeout = 10_000) {
  const seen = await page.evaluate((step) => window.__layoutSpec.tappable(step.selector, step.timeout), { selector, timeout });
  if (seen.failed) throw new Error(`${timeout} ms waiting for ${selector} to take a tap: ${seen.failed}`);
  await page.touchscreen.tap(seen.box.x + seen.box.width / 2, seen.box.y + seen.box.height / 2);
}

/**
 * Taps the centre of `box` (a cell's, read by the step before) where a
 * finger would, without waiting: whatever is on top there gets it, which
 * is what the hint test checks.
 */
async function tapCentre(page, box) {
  expect(box, 'the cell to tap is shown').not.toBeNull();
  await page.touchscreen.tap(box.x + box.width / 2, box.y + box.height / 2);
}

/**
 * The open question fits the viewport: its buttons whole, 44 px high, the
 * safe choice first; it is answered with that choice, which changes nothing.
 */
async function expectDialogFits(page, width, height) {
  const dialog = page.locator('dialog[open]');
  await expect(dialog).toBeVisible();
  const boxes = await dialog.locator('button').evaluateAll((buttons) =>
    buttons.map((b) => {
      const r = b.getBoundingClientRect();
      return { answer: b.dataset.answer, left: r.left, right: r.right, top: r.top, bottom: r.bottom, height: r.height, cut: b.scrollWidth > b.clientWidth + 1 };
    }),
  );
  expect(boxes.map((b) => b.answer)).toEqual(['cancel', 'ok']);
  for (const b of boxes) {
    expect(b.left).toBeGreaterThanOrEqual(0);
    expect(b.right).toBeLessThanOrEqual(width);
    expect(b.top).toBeGreaterThanOrEqual(0);
    expect(b.bottom).toBeLessThanOrEqual(height);
    expect(b.height).toBeGreaterThanOrEqual(44);
    expect(b.cut).toBe(false);
  }
  const { marks, overflowing } = await measure(page, { take: ['marks', 'overflowing'] });
  expect(overflowing).toEqual([]);
  await dialog.locator('[data-answer="cancel"]').click();
  await expect(dialog).toHaveCount(0);
  expect(await markCount(page)).toBe(marks);
}

for (const [width, height, looks] of SIZES) {
  for (const look of looks) {
    test.describe(`${width}x${height} ${look.locale} ${look.colorScheme}`, () => {
      test.use({ viewport: { width, height }, hasTouch: true, locale: look.locale, colorScheme: look.colorScheme });

      test('after a hint every cell of row 1 takes its tap; nothing moves or is cut off; targets are big enough; questions fit', async ({ page }) => {
        test.slow();
        await openTwoPlayer(page);
        const { controls: start } = await measure(page, { take: ['controls'] });
        // The smallest upright phone, where row 1 is nearest the status
        // box, tries its every cell in English; the other sizes and looks
        // one cell of each of its boards.
        const upright = width === 360 && height > width && look.locale === 'en-US';
        const row1 = [0, 1, 2].flatMap((b) => (upright ? [0, 1, 2] : [b]).map((c) => [b, c]));
        for (const [b, c] of row1) {
          await tapButton(page, '#btn-hint');
          const hinted = await measureWhen(page, 'one cell ringed by the hint', { hints: 1 }, {
            take: ['dismissShown', 'controls', 'overflowing'],
            boxes: { hint: '#hint-text', board: '#board', cell: cellSelector(b, c) },
            timeout: 20_000,
          });
          expect(hinted.dismissShown, 'Dismiss is shown with the hint').toBe(true);
          // The hint sits in the status box, clear of the board.
          const { hint, board } = hinted.boxes;
          expect(hint, 'the hint is shown').not.toBeNull();
          expect(board, 'the board is shown').not.toBeNull();
          const apart = hint.y + hint.height <= board.y || hint.x >= board.x + board.width;
          expect(apart).toBe(true);
          expect(hinted.controls).toEqual(start);
          expect(hinted.overflowing).toEqual([]);
          await tapCentre(page, hinted.boxes.cell);
          // The one mark is X's, on the cell tapped; the hint has gone.
          const played = await measureWhen(page, '1 mark', { marks: 1 }, { take: ['marked', 'hintText', 'controls'] });
          expect(played.marked).toEqual([`${b}:${c} x`]);
          expect(played.hintText).toBe('');
          expect(played.controls).toEqual(start);
          await tapButton(page, '#btn-undo');
          await measureWhen(page, 'no mark', { marks: 0 });
        }
        // A hint can be dismissed, and the status comes back.
        await tapButton(page, '#btn-hint');
        await measureWhen(page, 'one cell ringed by the hint', { hints: 1 }, { timeout: 20_000 });
        await tapButton(page, '#btn-dismiss');
        await expect(page.locator('#hint-text')).toBeEmpty();
        await expect(page.locator('#board .hint-cell')).toHaveCount(0);
        await expect(page.locator('#btn-dismiss')).toBeHidden();
        await expect(page.locator('#status')).toBeVisible();
        const after = await measure(page, { take: ['scrollY', 'smallTargets', 'smallestCell'] });
        expect(after.scrollY).toBe(0);
        expect(after.smallTargets).toEqual([]);
        expect(after.smallestCell).toBeGreaterThanOrEqual(cellFloor(width, height));
        // The questions before a game under way is replaced: New game, and
        // a setting changed (longer labels).
        await cell(page, 4, 4).click();
        await expectMarks(page, 1);
        await page.locator('#btn-new').click();
        await expectDialogFits(page, width, height);
        await page.locator('#tab-game').click();
        await page.selectOption('#set-rules', 'tiebreak');
        await expectDialogFits(page, width, height);
      });

      test('ten moves against the AI never move the controls or cut a label; every pane fits', async ({ page }) => {
        test.slow();
        await openWith(page, { mode: 'ai-x' });
        // What each move needs is read with the checks before it: whether
        // the game is over, how many marks, the first cell that takes one.
        const NEXT = ['over', 'marks', 'legal'];
        let idle = await measureWhen(page, 'the AI idle', { idle: true }, { take: ['controls', ...NEXT] });
        const start = idle.controls;
        for (let i = 0; i < 10; i += 1) {
          if (idle.over === 'true') break;
          await tapCentre(page, idle.legal);
          // Read as soon as the move shows: while the AI thinks when it is
          // the only new mark; when the AI has answered too, this is the
          // check after its answer, made once more.
          const moved = await measureWhen(page, 'the move on the board', { marksAbove: idle.marks }, { take: ['controls', 'marks'] });
          const when = moved.marks === idle.marks + 1 ? 'while the AI thinks' : 'once the AI had answered';
          expect(moved.controls, `the controls ${when}`).toEqual(start);
          idle = await measureWhen(page, 'the AI idle', { idle: true }, { take: ['controls', 'scrollY', 'outOfView', 'overflowing', ...NEXT] });
          expect(idle.controls).toEqual(start);
          expect(idle.scrollY).toBe(0);
          expect(idle.outOfView).toEqual([]);
          expect(idle.overflowing).toEqual([]);
        }
        expect(await markCount(page)).toBeGreaterThanOrEqual(10);
        // The AI's level is on its chip, whole.
        await expect(page.locator('#player-o-name')).toContainText(look.locale === 'en-US' ? 'Beginner' : '入门');
        // Back at the first move, with the AI to move: the status and
        // Continue share the box, whole, and still nothing moves.
        await page.locator('.move-list button[data-ply="1"]').click();
        await expect(page.locator('#btn-continue')).toBeVisible();
        const back = await measure(page, { take: ['controls', 'overflowing', 'smallTargets'] });
        expect(back.controls).toEqual(start);
        expect(back.overflowing).toEqual([]);
        expect(back.smallTargets).toEqual([]);
        // Every pane of the panel, with a game under way.
        for (const name of ['game', 'stats', 'share', 'online', 'moves']) {
          await page.locator(`#tab-${name}`).click();
          await expect(page.locator(`#pane-${name}`)).toBeVisible();
          const pane = await measure(page, { take: ['overflowing', 'smallTargets'] });
          expect(pane.overflowing, name).toEqual([]);
          expect(pane.smallTargets, name).toEqual([]);
        }
        // The Play view, one tap away, with its clocks.
        await page.locator('[data-action="open-play"]').click();
        await expect(page.locator('[data-view="play"] [data-action="play-now"]').first()).toBeVisible();
        const play = await measure(page, { take: ['overflowing', 'smallTargets'] });
        expect(play.overflowing, 'the Play view').toEqual([]);
        expect(play.smallTargets, 'the Play view').toEqual([]);
      });

      test('AI vs AI: Pause and Step sit beside the board, in view', async ({ page }) => {
        await openWith(page, { mode: 'watch', speed: 'normal' });
        const seen = await measure(page, { take: ['overflowing', 'smallTargets'], boxes: { 'btn-pause': '#btn-pause', 'btn-step': '#btn-step' } });
        for (const [id, box] of Object.entries(seen.boxes)) {
          expect(box, id).not.toBeNull();
          expect(box.y).toBeGreaterThanOrEqual(0);
          expect(box.y + box.height).toBeLessThanOrEqual(height);
          expect(box.x + box.width).toBeLessThanOrEqual(width);
        }
        await expect(page.locator('#btn-undo')).toBeHidden();
        await expect(page.locator('#btn-hint')).toBeHidden();
        expect(seen.overflowing).toEqual([]);
        expect(seen.smallTargets).toEqual([]);
      });
    });
  }
}

test('AI vs AI: P pauses and resumes, S plays one move while paused', async ({ page }) => {
  await openWith(page, { mode: 'watch', speed: 'normal' });
  await measureWhen(page, 'a first move', { marksAbove: 0 });
  await page.keyboard.press('p');
  await expect(page.locator('#btn-pause')).toHaveAttribute('aria-pressed', 'true');
  const { marks: paused } = await measureWhen(page, 'the AI idle', { idle: true }, { take: ['marks'] });
  await page.keyboard.press('s');
  await measureWhen(page, 'the one move of S', { marks: paused + 1 });
  const { marks: stepped } = await measureWhen(page, 'the AI idle', { idle: true }, { take: ['marks'] });
  expect(stepped).toBe(paused + 1);
  await page.keyboard.press('u');
  expect(await markCount(page)).toBe(paused + 1);
  await page.keyboard.press('p');
  await expect(page.locator('#btn-pause')).toHaveAttribute('aria-pressed', 'false');
  await measureWhen(page, 'two moves after resuming', { marksAbove: paused + 2 });
});

for (const [width, height, locale] of [[360, 640, 'en-US'], [844, 390, 'zh-CN']]) {
  test.describe(`${width}x${height} ${locale}`, () => {
    test.use({ viewport: { width, height }, locale });
    test("a shared link's notice and its way back stay in the status box", async ({ page }) => {
      await openTwoPlayer(page);
      await cell(page, 0, 0).click();
      await cell(page, 0, 4).click();
      await expectMarks(page, 2);
      await page.goto('./#ultimate-standard:e5e4d2');
      await expect(page.locator('html')).toHaveAttribute('data-ready', 'true');
      await expectMarks(page, 3);
      const back = page.getByTestId('back-to-game');
      await expect(back).toBeVisible();
      const [box, board, notice, button] = await Promise.all(
        ['#status-box', '#board', '#notice'].map((s) => page.locator(s).boundingBox()).concat(back.boundingBox()),
      );
      for (const inner of [notice, button]) {
        expect(inner.y).toBeGreaterThanOrEqual(box.y);
        expect(inner.y + inner.height).toBeLessThanOrEqual(box.y + box.height);
      }
      expect(box.y + box.height <= board.y || box.x >= board.x + board.width).toBe(true);
      expect((await measure(page, { take: ['overflowing'] })).overflowing).toEqual([]);
      expect(button.height).toBeGreaterThanOrEqual(44);
      await back.click();
      await expectMarks(page, 2);
      await expect(page.locator('#notice')).toContainText(locale === 'en-US' ? 'previous game is back' : '之前的棋局');
      await page.locator('#btn-dismiss').click();
      await expect(page.locator('#notice')).toBeEmpty();
      await expect(back).toHaveCount(0);
    });
  });
}
