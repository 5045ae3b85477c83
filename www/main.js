// @ts-check
// Entry point: loads the wasm, starts the AI worker and the controller, and
// wires the board, the controls, the panel's tabs and panes, and the
// keyboard. The panes only talk to the game through the controller's
// functions and the changes it tells (controller.subscribe), so every
// rule is still decided by core.

import { loadWasm, levels, apiVersion } from './wasm.js';
import { t, tn, onLangChange, languageSwitch } from './i18n.js';
import { BoardView } from './board.js';
import { AiClient } from './ai.js';
import { renderChrome, bindChrome, fillLevels } from './chrome.js';
import { bindKeyboard } from './keyboard.js';
import { confirmDialog } from './dialog.js';
import { initTabs } from './tabs.js';
import { createAnnouncer, focusRequiredBoard, initBoardKeys } from './a11y.js';
import { createController } from './controller.js';
import { initDisplayOptions } from './display.js';
import { initEvalBar } from './evalbar.js';
import { initHint } from './hint.js';
import { initWorthOverlay } from './worth.js';
import { initMoveList } from './movelist.js';
import { initGameReview } from './gamereview.js';
import { initSharing } from './sharing.js';
import { initOnline } from './onlinepanel.js';
import { initStats } from './stats.js';
import { registerServiceWorker } from './offline.js';
import { createHelp } from './tutorial.js';
import { initEndCard } from './endcard.js';
import { initSound } from './sound.js';
import { initTitle } from './title.js';
import { initStatusBox } from './statusbox.js';
import { initPlayerViews } from './playerviews.js';
import { initOffers } from './offers.js';
import { initReturnToGame } from './returngame.js';
import { createOngoing } from './ongoing.js';
import { createNotify, KINDS } from './notify.js';
import { PLAY_HASH } from './api.js';
import { initPushOffer } from './pushoffer.js';
import { input } from './dom.js';

/** The question before a game in progress is replaced. */
function confirmLeave(question, { moves }) {
  return confirmDialog(t(`leave.${question}.title`), tn('leave.body', moves), {
    ok: t(`leave.${question}.ok`),
    cancel: t('leave.keep'),
  });
}

async function boot() {
  const status = document.getElementById('status');
  status.textContent = t('app.loading');
  try {
    await loadWasm();
  } catch (error) {
    status.textContent = t('app.loadFailed', { error: error.message ?? String(error) });
    status.dataset.tone = 'error';
    return null;
  }
  document.getElementById('version').textContent = `v${apiVersion()}`;

  const levelList = levels();
  const boardRoot = document.getElementById('board');
  const controller = createController();
  const board = new BoardView(boardRoot, (b, c) => {
    controller.play(b, c).then((result) => {
      if (!result.ok && result.code !== 'declined') board.refuse(b, c);
    });
  });
  const render = (page) => {
    board.render(page.view, { interactive: page.interactive });
    renderChrome(page);
  };
  const ai = new AiClient({
    onProgress: controller.aiProgress,
    onAnalysis: controller.aiAnalysis,
    onSurvey: controller.aiSurvey,
    onTrouble: controller.aiTrouble,
  });
  fillLevels(levelList, 'medium');
  controller.start({ render, aiClient: ai, levels: levelList, confirm: confirmLeave });
  bindChrome(controller);
  // The board and its controls are drawn and take taps once this task ends
  // (`cargo xtask bench --page`'s time to the board).
  performance.mark('uttt:board');
  onLangChange(() => {
    const { level, levelO } = controller.getState();
    fillLevels(levelList, level, levelO);
    controller.refresh();
  });
  // The board is drawn: the panes beside it are made after the browser may
  // paint it, a few at a time in tasks of their own, so that a tap on the
  // board never waits behind all of them (on a slow phone each pane's
  // first drawing takes tens of milliseconds). A pane made after a move
  // reads the game as it is then.
  await nextTask();

  const tabs = initTabs(document.getElementById('panel'));
  languageSwitch(document.getElementById('topbar-actions'));
  const announcer = createAnnouncer();
  initBoardKeys(boardRoot, controller, announcer);
  registerServiceWorker();
  const display = initDisplayOptions(document.getElementById('display-options'));
  await nextTask();
  const evalBar = initEvalBar(document.getElementById('eval-bar'), controller, display);
  // The live evaluation runs only while the bar shows it on screen (see
  // evalBar.live) or the overlay is shown.
  initWorthOverlay(boardRoot, controller, { display });
  const liveEval = () => controller.setLiveEval(evalBar.live, { worth: display.showWorth });
  liveEval();
  display.onChange(liveEval);
  evalBar.onLiveChange(liveEval);
  const hint = initHint(controller, { display, evalBar });
  initStatusBox({ onDismiss: hint.dismiss });
  await nextTask();
  initGameReview(document.getElementById('game-review'), controller);
  const moves = initMoveList(document.getElementById('review-panel'), controller, announcer);
  await nextTask();
  const sharing = initSharing(document.getElementById('share-host'), controller, {
    focusMoves: moves.focus,
    withoutMoveAnnouncements: announcer.withoutMoveAnnouncements,
  });
  await nextTask();
  initStats(document.getElementById('stats-panel'), controller, {
    announce: announcer.announce,
    onReplay: async (entry) => {
      const opened = await sharing.openRecord(entry.tree ?? entry.record, {
        badKey: 'share.badImport',
        startAt: 0,
        line: entry.line ?? 0,
      });
      if (opened) {
        tabs.show('moves');
        moves.focus();
      }
    },
  });
  await nextTask();
  const notify = createNotify(controller.account);
  const online = initOnline(document.getElementById('online-host'), controller, { tabs, notify });
  const ongoing = createOngoing(controller);
  // A notice that came while this page is in view (the service worker
  // hands it here): the lists of games say it, and a screen reader hears it.
  notify.onNotice((notice) => {
    void ongoing.refresh();
    const name = notice.opponent ?? notice.from ?? '';
    if (/** @type {string[]} */ (KINDS).includes(notice.kind)) announcer.announce(t(`push.heard.${notice.kind}`, { name }));
  });
  // A notification tapped while this page is open: its game opens here as
  // the Return button opens one; a challenge, in the Play view's list.
  notify.onOpen((notice) => {
    const { inSession, roomState } = controller.onlineRoom();
    if (notice.kind === 'challenge' || typeof notice.room !== 'string') window.location.hash = PLAY_HASH;
    else if (!(inSession && roomState?.room === notice.room)) {
      tabs.show('online');
      controller.onlineJoin(notice.room);
    }
  });
  initPlayerViews(controller, { openRecord: sharing.openRecord, tabs, focusMoves: moves.focus, online: { ...online, ongoing } });
  initOffers(controller);
  initPushOffer(controller, notify);
  initReturnToGame(controller, { tabs, ongoing });
  await nextTask();
  initEndCard(controller, { tabs });
  initSound(controller);
  const help = createHelp();
  initTitle(controller, ongoing);
  bindKeyboard({
    newGame: controller.newGame,
    undo: controller.undo,
    redo: controller.redo,
    hint: hint.hint,
    pause: () => document.getElementById('btn-pause').click(),
    step: () => document.getElementById('btn-step').click(),
    focusBoard: () => focusRequiredBoard(boardRoot),
    help: help.open,
  });
  const coords = input('opt-coords');
  const frame = document.getElementById('board-frame');
  coords.checked = frame.dataset.coords !== 'off';
  coords.addEventListener('change', () => {
    frame.dataset.coords = coords.checked ? 'on' : 'off';
    try {
      localStorage.setItem('uttt.coords', frame.dataset.coords);
    } catch {
      // Kept for this visit only.
    }
  });
  // Navigation to a page made whole: the board was playable from the first
  // task (uttt:board), and now every pane around it listens too (the
  // performance spec's and `cargo xtask bench --page`'s time to a playable page).
  performance.mark('uttt:playable');
  // First visit: the tutorial opens once the page is made, in a task of
  // its own (it builds a board of its own); Help reopens it. Not over a
  // game joined by its link, whose clock may be running.
  await nextTask();
  help.start({ welcome: !new URLSearchParams(window.location.search).has('room') });
  // Ready: every part is made, and on a first visit the tutorial is open.
  document.documentElement.dataset.ready = 'true';
  return controller;
}

/**
 * Resolves in a later task of the event loop, after the browser may paint
 * and take input: `scheduler.yield()` where there is one (it resumes ahead
 * of other queued work), else a timeout.
 */
function nextTask() {
  const scheduler = /** @type {{yield?: () => Promise<void>} | undefined} */ (globalThis.scheduler);
  if (typeof scheduler?.yield === 'function') return scheduler.yield();
  return new Promise((resolve) => setTimeout(resolve, 0));
}

// The coordinates' choice is read before the first render, so the board does not jump.
try {
  if (localStorage.getItem('uttt.coords') === 'off') document.getElementById('board-frame').dataset.coords = 'off';
} catch {
  // Storage refused: coordinates stay on.
}

/**
 * The page's controller once the page is made (null when the wasm could not
 * load): what a script watching the page subscribes to, as the tests do.
 */
export const booted = boot();
