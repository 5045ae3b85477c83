// @ts-check
// The Hint button (#btn-hint, also the H key): a one-second search of the
// shown position by the worker, the suggested cell ringed on the board, the
// move in words in the status box (#hint-text, over the status until the
// position changes or it is dismissed), and its evaluation on the bar.

import { t, regionName } from './i18n.js';
import { button as buttonById, element } from './dom.js';

const HINT_MS = 1000;

/**
 * Wires the Hint button to `controller.analyse`; `display` says whether it
 * is shown, `evalBar.show` takes the answer's evaluation. Returns
 * `{ hint(), dismiss() }`: what the H key calls, and what takes the hint away.
 * @param {Controller} controller
 */
export function initHint(controller, { display, evalBar }) {
  const button = buttonById('btn-hint');
  const text = element('hint-text');
  let state = controller.getState();
  let ringed = null;
  // Which request is current: clear() moves it on, so an answer to a hint
  // dismissed (or replaced) while it was being looked for is dropped.
  let asking = 0;

  // No hint while the AI thinks, online, or for a puzzle's answer.
  const unavailable = () => Boolean(state.over || state.thinking || state.mode === 'online' || state.puzzle === 'open');
  const clear = () => {
    asking += 1;
    if (ringed) ringed.classList.remove('hint-cell');
    ringed = null;
    text.textContent = '';
  };
  // AI vs AI has nobody to hint: Pause and Step take the row there.
  const render = () => {
    button.hidden = !display.showHint || state.mode === 'watch';
    button.disabled = unavailable();
  };

  button.addEventListener('click', async () => {
    if (!controller.analyse || button.disabled || button.hidden) return;
    clear();
    const request = asking;
    text.textContent = t('hint.thinking');
    button.disabled = true;
    try {
      const answer = await controller.analyse({ ms: HINT_MS });
      if (request !== asking) return;
      if (!answer) {
        text.textContent = t('hint.unavailable');
        return;
      }
      const cell = document.querySelector(`button[data-board="${answer.board}"][data-cell="${answer.cell}"]`);
      if (cell) {
        cell.classList.add('hint-cell');
        ringed = cell;
      }
      text.textContent =
        state.kind === 'classic'
          ? t('hint.resultClassic', { move: answer.move, cell: regionName(answer.cell) })
          : t('hint.result', { move: answer.move, board: regionName(answer.board), cell: regionName(answer.cell) });
      if (typeof answer.score === 'number' || typeof answer.mate === 'number') {
        const { score, mate, xWins, draw, oWins, depth } = answer;
        evalBar.show({ score, mate, xWins, draw, oWins, depth });
      }
    } catch {
      if (request === asking) text.textContent = t('hint.unavailable');
    } finally {
      button.disabled = unavailable();
    }
  });

  controller.subscribe((change) => {
    if (!('game' in change)) return;
    state = change.game;
    // The hint was about the position that was shown.
    if (change.moved) clear();
    render();
  });
  display.onChange(() => {
    if (!display.showHint) clear();
    render();
  });
  render();
  return { hint: () => button.click(), dismiss: clear };
}
