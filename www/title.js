// @ts-check
// The tab's title says when the person is wanted: "Your move · Ultimate
// Tic-Tac-Toe" on their turn against the AI or a friend online, so a player
// who switched tabs while the AI thought sees it came back to them; "You
// won", "You lost" or "Draw" once such a game ends; the plain title
// otherwise (two players at one screen, AI vs AI, browsing earlier moves).
// Before it, "(2)" while two of the player's other online games (not the
// one on the board, which the title names already) wait for their move
// (ongoing.js), as lichess counts them.

import { t, onLangChange } from './i18n.js';

/**
 * The key of the title's prefix for `state` (controller.getState()), or
 * null for the plain title; `canMove()` says whether the person may move
 * now (online: the room is full and connected), asked only when it matters.
 */
export function titleKey(state, canMove) {
  const { mode, humanSide, over, result, cursor, length } = state;
  if ((mode !== 'ai' && mode !== 'online') || !humanSide || state.puzzle) return null;
  // Looking back at an earlier position is not the game waiting for a move.
  if (mode === 'ai' && cursor !== length) return null;
  if (over) {
    if (result === 'draw') return 'title.draw';
    return result === humanSide ? 'title.won' : 'title.lost';
  }
  if (state.toMove !== humanSide || state.thinking) return null;
  return mode === 'online' && !canMove() ? null : 'title.yourMove';
}

/**
 * The whole title for a prefix key (or null), after the count of the
 * player's other games waiting for their move, when there are any.
 */
function titleText(key, waiting) {
  const text = key ? t('title.with', { what: t(key), app: t('app.title') }) : t('app.title');
  return waiting > 0 ? `(${waiting}) ${text}` : text;
}

/**
 * Keeps document.title in step with the game, from the controller's
 * changes of the game, its page state and the language, and with the
 * count of the player's games waiting for their move (`ongoing`).
 * @param {Controller} controller
 * @param {import('./ongoing.js').Ongoing} ongoing
 */
export function initTitle(controller, ongoing) {
  const update = () => {
    const text = titleText(titleKey(controller.getState(), () => controller.pageState().interactive), ongoing.yourMoves(controller.onlineRoom().code));
    if (document.title !== text) document.title = text;
  };
  controller.subscribe((change) => {
    if ('game' in change) update();
  });
  ongoing.onChange(update);
  onLangChange(update);
  update();
}
