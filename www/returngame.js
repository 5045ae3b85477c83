// @ts-check
// "Return to your game" on the game screen: while the page is in no online
// session and this browser holds a seat in a game last seen running
// (running.js), a button in the status box's actions takes the player back
// into it, the most recent first. So closing the tab and opening the site
// again never leaves a running game and its clock behind unseen. Without
// one, a game of the player's waiting for their move on any device
// (ongoing.js) is offered the same way, "Your move against NAME": the
// page's own notice of it while it is open.

import { t, onLangChange } from './i18n.js';
import { el } from './dom.js';
import { runningGames } from './running.js';

/**
 * Adds the button (`[data-action="return-to-game"]`) and keeps it shown
 * exactly while there is a game to return to. `tabs.show('online')` opens
 * the room's tab once back in it.
 * @param {Controller} controller
 * @param {{ tabs?: { show(name: string): void }, ongoing?: import('./ongoing.js').Ongoing }} [options]
 */
export function initReturnToGame(controller, { tabs, ongoing } = {}) {
  const actions = document.getElementById('status-actions');
  if (!actions) return;
  const button = el('button', { type: 'button', class: 'btn primary status-action', 'data-action': 'return-to-game', hidden: '' });
  actions.prepend(button);

  /**
   * The game the button returns to, or null while in a session or with
   * none: this browser's running game, else one waiting for the player's
   * move (`opponent` then names who waits).
   */
  const target = () => {
    if (controller.onlineRoom().inSession) return null;
    const waiting = ongoing?.games().find((g) => g.yourMove);
    return runningGames()[0] ?? (waiting ? { room: waiting.room, opponent: waiting.opponent ?? t('play.guest') } : null);
  };
  const render = () => {
    const game = target();
    button.hidden = !game;
    button.textContent = game && 'opponent' in game ? t('online.yourMoveAgainst', { name: game.opponent }) : t('online.returnToGame');
    if (game) button.dataset.room = game.room;
    else delete button.dataset.room;
  };
  button.addEventListener('click', () => {
    const game = target();
    if (!game) return;
    tabs?.show('online');
    controller.onlineJoin(game.room);
  });
  controller.subscribe((change) => {
    if ('game' in change) render();
  });
  // Another tab of this site joined, finished or left a game; a game came to the player's move.
  window.addEventListener('storage', render);
  ongoing?.onChange(render);
  onLangChange(render);
  render();
}
