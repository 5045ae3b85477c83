// Entry point: loads the wasm, starts the AI worker and the controller, and
// wires the board, the controls and the keyboard.

import { loadWasm, regionNames, levels, apiVersion } from './wasm.js';
import { setRegionNames, t, onLanguageChange } from './text.js';
import { BoardView } from './board.js';
import { AiClient } from './ai.js';
import { renderChrome, bindChrome, fillLevels } from './chrome.js';
import { bindKeyboard } from './keyboard.js';
import * as controller from './controller.js';
import { initReview } from './review.js';

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
  setRegionNames(regionNames());
  document.getElementById('version').textContent = `v${apiVersion()}`;

  const levelList = levels();
  const board = new BoardView(document.getElementById('board'), (b, c) => {
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
  controller.start({ render, aiClient: ai, levels: levelList });
  bindChrome(controller);
  bindKeyboard(controller);
  onLanguageChange(() => {
    fillLevels(levelList, controller.getState().level);
    controller.refresh();
  });
  document.documentElement.dataset.ready = 'true';
  // Navigation to a playable board, for the performance spec and the curious.
  performance.mark('uttt:playable');

  // review hooks: the review engineer's modules attach here.
  initReview(controller);
}

boot();
