// @ts-check
// Online offers answered beside the board: while the opponent's draw offer
// stands, Accept and Decline; after a game, when the opponent asked for a
// rematch, Rematch. They sit in the status box's actions (#status-actions),
// next to the status line that says what is offered (status.js), so a
// player sees and answers an offer without leaving the board. The Online
// tab keeps its own buttons for the same actions.

import { t, onLangChange } from './i18n.js';
import { el } from './dom.js';
import { opponentHere } from './features/room.js';

/**
 * Which answers the room in `online` (controller.onlineRoom()) asks of
 * this page's player: `{draw, rematch}`, both false for a watcher.
 */
export function pendingOffers({ roomState: rs, side, phase }) {
  if (!rs || !side || phase === 'reconnecting') return { draw: false, rematch: false };
  const other = side === 'x' ? 'o' : 'x';
  return {
    draw: rs.result === null && rs.drawOffer === other,
    rematch: rs.result !== null && rs.rematch.includes(other) && !rs.rematch.includes(side) && opponentHere(rs, side),
  };
}

/**
 * Puts the answers to offers in the status box and keeps them in step with
 * the room, from the controller's changes.
 * @param {Controller} controller
 */
export function initOffers(controller) {
  const actions = document.getElementById('status-actions');
  if (!actions) return;
  const accept = el('button', { type: 'button', class: 'btn primary status-action', 'data-action': 'accept-draw', hidden: '' });
  const decline = el('button', { type: 'button', class: 'btn status-action', 'data-action': 'decline-draw', hidden: '' });
  const rematch = el('button', { type: 'button', class: 'btn primary status-action', 'data-action': 'accept-rematch', hidden: '' });
  // Before Dismiss, which stays last.
  actions.prepend(accept, decline, rematch);

  const render = () => {
    const offers = pendingOffers(controller.onlineRoom());
    accept.hidden = !offers.draw;
    decline.hidden = !offers.draw;
    rematch.hidden = !offers.rematch;
    accept.textContent = t('online.acceptDrawShort');
    decline.textContent = t('online.decline');
    rematch.textContent = t('online.rematch');
  };
  accept.addEventListener('click', () => controller.onlineOfferDraw());
  decline.addEventListener('click', () => controller.onlineDeclineDraw());
  rematch.addEventListener('click', () => controller.rematch());
  controller.subscribe((change) => {
    if ('game' in change) render();
  });
  onLangChange(render);
  render();
}
