// @ts-check
// A Play now seek or a challenge seen from the game screen: while it waits
// and the Play view is closed, the status line says so (status.js) and the
// status box's actions (#status-actions) offer what the view does: Details
// (the view again) and Cancel, and once the engine is offered to a seek
// (playnow.js's ENGINE_OFFER_MS alone in the pool), Play the engine in
// place of Details.
// The view's own buttons keep their hooks (`cancel-seek`, `play-bot`);
// these are `status-open-play`, `status-cancel-seek`, `status-play-bot`.

import { t, onLangChange } from './i18n.js';
import { el } from './dom.js';
import { ENGINE_OFFER_MS, engineLevelFor } from './playnow.js';

/**
 * Puts the seek's actions in the status box and keeps them in step with
 * the controller's changes; `openPlay()` opens the Play view.
 * @param {Controller} controller
 * @param {{ openPlay: () => void }} options
 */
export function initSeekStatus(controller, { openPlay }) {
  const actions = document.getElementById('status-actions');
  if (!actions) return;
  const bot = el('button', { type: 'button', class: 'btn primary status-action', 'data-action': 'status-play-bot', hidden: '' });
  const details = el('button', { type: 'button', class: 'btn status-action', 'data-action': 'status-open-play', hidden: '' });
  const cancel = el('button', { type: 'button', class: 'btn status-action', 'data-action': 'status-cancel-seek', hidden: '' });
  // Before Dismiss, which stays last.
  actions.prepend(bot, details, cancel);

  /** Waits for the moment the engine is offered, to show its button then. */
  let timer = 0;
  const render = () => {
    const { seek, challenge } = controller.onlineRoom();
    const left = seek ? ENGINE_OFFER_MS - (performance.now() - seek.since) : 0;
    const wait = seek ?? challenge;
    const waiting = Boolean(wait) && !wait.cancelling;
    bot.hidden = !seek || !waiting || left > 0;
    details.hidden = !waiting || (Boolean(seek) && left <= 0);
    cancel.hidden = !waiting;
    bot.textContent = t('seek.playBot');
    details.textContent = t('seek.details');
    cancel.textContent = t('playnow.cancel');
    window.clearTimeout(timer);
    if (waiting && left > 0) timer = window.setTimeout(render, left);
  };
  bot.addEventListener('click', () => {
    const { seek } = controller.onlineRoom();
    if (seek) void controller.playEngineInstead(engineLevelFor(seek.rating));
  });
  details.addEventListener('click', openPlay);
  cancel.addEventListener('click', () => {
    if (controller.onlineRoom().challenge) void controller.onlineCancelChallenge();
    else void controller.onlineCancelSeek();
  });
  controller.subscribe((change) => {
    if ('game' in change) render();
  });
  onLangChange(render);
  render();
}
