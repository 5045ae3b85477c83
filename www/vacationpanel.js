// @ts-check
// The account panel's part for vacation (docs/protocol.md, "Vacation"):
// the days left this year, and leaving for some of them; while away, until
// when, and coming back. The server keeps the days and stops the clocks.
//
// Test hooks: `[data-vacation-state]` (the part: "away" or "here"),
// `[data-vacation-days]` (the select), `[data-action="vacation-leave"]`,
// `[data-action="vacation-back"]`.

import { t, tn, lang } from './i18n.js';
import { el } from './dom.js';
import { api } from './accountapi.js';

/**
 * The part, its `render()` and `load()`, which the panel calls. `act(work)`
 * runs a change as the panel runs its own (buttons disabled, what failed
 * or was done said); `csrf()` is the session's token.
 * @param {(work: () => Promise<string | void>) => Promise<void>} act
 * @param {() => string} csrf
 */
export function vacationPart(act, csrf) {
  const heading = el('h3', {});
  const hint = el('p', { class: 'hint' });
  const status = el('p', { class: 'hint', role: 'status' });
  const days = el('select', { 'data-vacation-days': '' });
  const daysLabel = el('span', {});
  const leave = el('button', { type: 'button', class: 'btn', 'data-action': 'vacation-leave' });
  const back = el('button', { type: 'button', class: 'btn', 'data-action': 'vacation-back' });
  const choose = el('p', { class: 'account-row' }, el('label', { class: 'field' }, daysLabel, days), leave);
  const node = el('section', { class: 'account-push', 'data-vacation-state': 'here' }, heading, hint, status, choose, el('p', { class: 'account-row' }, back));
  /** @type {{daysPerYear: number, daysLeft: number, until: number | null} | null} */
  let known = null;

  const render = () => {
    node.hidden = !known;
    if (!known) return;
    const away = known.until !== null;
    node.dataset.vacationState = away ? 'away' : 'here';
    heading.textContent = t('vacation.heading');
    hint.textContent = t('vacation.hint', { days: known.daysPerYear });
    status.textContent = away
      ? t('vacation.away', { date: new Date(/** @type {number} */ (known.until)).toLocaleString(lang(), { dateStyle: 'medium', timeStyle: 'short' }) })
      : tn('vacation.left', known.daysLeft);
    daysLabel.textContent = t('vacation.days');
    leave.textContent = t('vacation.leave');
    back.textContent = t('vacation.back');
    choose.hidden = away || known.daysLeft === 0;
    back.hidden = !away;
    const chosen = days.value;
    days.replaceChildren(...Array.from({ length: known.daysLeft }, (_, i) => el('option', { value: String(i + 1), text: String(i + 1) })));
    if (chosen && Number(chosen) <= known.daysLeft) days.value = chosen;
  };

  const load = async () => {
    known = await api('GET', 'me/vacation');
    render();
  };

  leave.addEventListener('click', () =>
    act(async () => {
      known = await api('POST', 'me/vacation', { csrf: csrf(), body: { days: Number(days.value) } });
      return t('vacation.gone');
    }),
  );
  back.addEventListener('click', () =>
    act(async () => {
      known = await api('DELETE', 'me/vacation', { csrf: csrf() });
      return t('vacation.returned');
    }),
  );
  return { node, render, load, clear: () => void (known = null) };
}
