// @ts-check
// The offer of notifications (notify.js), in the status box beside the
// board (its notice, with two actions): made once a signed-in player's
// correspondence game has begun, while this browser can show
// notifications, has not been asked (or allowed them without keeping them
// for this player), and the player has not said "not now". Once a room a
// visit: Dismiss puts it away for the game. The browser's own question
// comes only from the tap on "Turn on notifications".
//
// Test hooks: `[data-push-offer]` (the notice's text),
// `[data-action="push-enable"]`, `[data-action="push-later"]`.

import { t, onLangChange } from './i18n.js';
import { el } from './dom.js';

/**
 * Offers notifications when a game of days begins.
 * @param {Controller} controller
 * @param {import('./notify.js').Notify} notify
 */
export function initPushOffer(controller, notify) {
  const notice = document.getElementById('notice');
  const actions = document.getElementById('status-actions');
  if (!notice || !actions) return;
  const text = el('span', { 'data-push-offer': '' });
  const yes = el('button', { type: 'button', class: 'btn primary status-action', 'data-action': 'push-enable', 'data-belongs': 'notice' });
  const later = el('button', { type: 'button', class: 'btn status-action', 'data-action': 'push-later', 'data-belongs': 'notice' });
  /** The room the offer was made for in this visit (made once a room). */
  let offeredFor = '';

  const wanted = () => {
    const { roomState, side } = controller.onlineRoom();
    const state = notify.state();
    const begun = Boolean(roomState?.options.days && side && roomState.xName && roomState.oName && !roomState.result);
    const askable = state.permission === 'default' || (state.permission === 'granted' && !state.thisDevice);
    return begun && Boolean(controller.account.me()) && state.supported && Boolean(state.kinds) && askable && !state.declined;
  };
  const label = () => {
    text.textContent = t('push.offer');
    yes.textContent = t('push.offerYes');
    later.textContent = t('push.offerLater');
  };
  const withdraw = () => {
    if (notice.contains(text)) notice.replaceChildren();
  };
  const render = () => {
    const room = controller.onlineRoom().roomState?.room ?? '';
    if (!wanted()) {
      withdraw();
      return;
    }
    if (offeredFor === room) return;
    offeredFor = room;
    label();
    // Another notice's actions go with it.
    for (const action of actions.querySelectorAll('[data-belongs="notice"]')) action.remove();
    actions.prepend(yes, later);
    notice.replaceChildren(text);
  };

  yes.addEventListener('click', async () => {
    yes.disabled = true;
    try {
      await notify.enable();
      // Refused in the browser's own question: said so, with where to allow it.
      if (notify.state().permission === 'denied') {
        yes.remove();
        later.remove();
        notice.replaceChildren(t('push.blocked'));
      } else withdraw();
    } catch {
      notice.replaceChildren(t('push.failed'));
    } finally {
      yes.disabled = false;
    }
  });
  later.addEventListener('click', () => {
    notify.decline();
    withdraw();
  });
  notify.onChange(render);
  controller.subscribe((change) => {
    if ('game' in change && change.cause === 'online') render();
  });
  onLangChange(() => {
    if (notice.contains(text)) label();
  });
}
