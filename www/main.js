// Entry point: loads the wasm, starts the AI worker and the controller, and
// wires the board, the controls, the panel's tabs and the keyboard.

import { loadWasm, levels, apiVersion } from './wasm.js';
import { t, onLangChange } from './i18n.js';
import { BoardView } from './board.js';
import { AiClient } from './ai.js';
import { renderChrome, bindChrome, fillLevels } from './chrome.js';
import { bindKeyboard } from './keyboard.js';
import { confirmDialog } from './dialog.js';
import { initTabs } from './tabs.js';
import { focusRequiredBoard } from './a11y.js';
import * as controller from './controller.js';
import { initReview } from './review.js';
import { initTutorial, openHelp } from './tutorial.js';
import { initEndCard } from './endcard.js';
import { initSound } from './sound.js';

/** The question before a game in progress is replaced. */
function confirmLeave(question, { moves }) {
  return confirmDialog(t(`leave.${question}.title`), t('leave.body', { moves }), {
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
    return;
  }
  document.getElementById('version').textContent = `v${apiVersion()}`;

  const levelList = levels();
  const boardRoot = document.getElementById('board');
  const board = new BoardView(boardRoot, (b, c) => {
    controller.play(b, c).then((result) => {
      if (!result.ok && result.code !== 'declined') board.refuse(b, c);
    });
  });
  const render = (page) => {
    board.render(page.view, { interactive: page.interactive });
    renderChrome(page);
  };
  const ai = new AiClient({ onProgress: controller.aiProgress, onTrouble: controller.aiTrouble });
  fillLevels(levelList, 'medium');
  controller.start({ render, aiClient: ai, levels: levelList, confirm: confirmLeave });
  bindChrome(controller);
  onLangChange(() => {
    const { level, levelO } = controller.getState();
    fillLevels(levelList, level, levelO);
    controller.refresh();
  });
  document.addEventListener('uttt:history', () => controller.refresh());

  const tabs = initTabs(document.getElementById('panel'));
  const review = initReview(controller, { tabs });
  initEndCard(controller, { tabs });
  initSound(controller);
  bindKeyboard({
    newGame: controller.newGame,
    undo: controller.undo,
    redo: controller.redo,
    hint: review.hint,
    focusBoard: () => focusRequiredBoard(boardRoot),
    help: openHelp,
  });
  const coords = document.getElementById('opt-coords');
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
  document.documentElement.dataset.ready = 'true';
  // First visit: the tutorial opens once the page is ready; Help reopens it.
  initTutorial();
  // Navigation to a playable board, for the performance spec and the curious.
  performance.mark('uttt:playable');
}

// The coordinates' choice is read before the first render, so the board does not jump.
try {
  if (localStorage.getItem('uttt.coords') === 'off') document.getElementById('board-frame').dataset.coords = 'off';
} catch {
  // Storage refused: coordinates stay on.
}

boot();
