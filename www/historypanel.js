// @ts-check
// The account panel's part for this browser's games (historysync.js):
// "This browser has N finished games (M with reviews)", the button that
// keeps them with the account (with none, brings the account's here), then
// the setting that sends the games this browser finishes later, and what
// was kept.
//
// Test hooks: `[data-action="attach-history"]`, the part's
// `[data-history-attached]` ("true" once this browser's games go to the
// account) and its setting `[data-history-sending]`.

import { t, tn } from './i18n.js';
import { el } from './dom.js';

/**
 * The part, and `render()`, which the panel calls when it draws (and the
 * part calls when the sync's state changes). `act(work)` runs a change
 * as the panel runs its own (buttons disabled, what failed said).
 * @param {import('./historysync.js').HistorySync} sync
 * @param {(work: () => Promise<string | void>) => Promise<void>} act
 */
export function historyPart(sync, act) {
  const heading = el('h3', {});
  const count = el('p', { class: 'hint', 'data-history-count': '' });
  const attach = el('button', { type: 'button', class: 'btn primary', 'data-action': 'attach-history' });
  const sending = el('input', { type: 'checkbox', 'data-history-sending': '' });
  const sendingText = el('span', {});
  const setting = el('label', { class: 'account-check' }, sending, sendingText);
  const kept = el('p', { class: 'hint', role: 'status', 'data-history-status': '' });
  const node = el('section', { class: 'account-history', 'data-history-attached': 'false' }, heading, count, el('p', { class: 'account-row' }, attach), setting, kept);

  const render = () => {
    const { games, reviews } = sync.counts();
    const attached = sync.attached();
    node.dataset.historyAttached = String(attached);
    heading.textContent = t('history.heading');
    count.textContent = games === 0 ? t('history.none') : `${tn('history.count', games)}${reviews > 0 ? tn('history.reviews', reviews) : t('history.countEnd')}`;
    // With no games of its own, attaching brings the account's here (historysync.js).
    attach.textContent = t(games === 0 ? 'history.attachNone' : 'history.attach');
    attach.hidden = attached;
    setting.hidden = !attached;
    sending.checked = attached;
    sendingText.textContent = t('history.sending');
    const { state, kept: total } = sync.status();
    kept.textContent =
      state === 'sending' ? t('history.busy') : state === 'waiting' ? t('history.waiting') : total !== null && attached ? tn('history.kept', total) : '';
  };

  // What was kept is said in the part (`kept`), which stays after the panel's message is gone.
  attach.addEventListener('click', () =>
    act(async () => {
      await sync.attach();
    }),
  );
  sending.addEventListener('change', () => {
    sync.setSending(sending.checked);
    render();
  });
  sync.onStatus(render);
  return { node, render };
}
