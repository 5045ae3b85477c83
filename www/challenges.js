// @ts-check
// Challenges, inside the Play now section (docs/protocol.md and
// docs/api.md, "Challenges"): the challenges addressed to this player
// (Accept, Decline), the open ones anyone may accept (the challenger's
// name linking to their profile, rating with "?" while provisional, game,
// clock, rated or casual, Accept), this page's own waiting challenge (with
// Cancel), and a form to make one: game, one of the offered clocks, rated
// or casual, the challenger's side, and anyone or one player by name. The
// lists come from GET /api/challenges, asked again every CHALLENGES_EVERY_MS
// while the section is shown and the tab visible. The challenge itself is
// features/challenge.js's (controller.onlineChallenge ...).
//
// While a challenge waits the page root's `data-online-state` is
// `challenging` (not `seeking`: nobody is being paired by rating, and its
// Cancel is this section's, not Play now's), and the status line says so.
// The profile view's "Challenge" button sends the `uttt:challenge` event
// (detail: the name): the form opens addressed to that player and its tab
// is shown.
//
// Hooks (a public test API): `[data-challenge="<id>"]` rows with
// `[data-action="accept-challenge"]` and (for you) `[data-action=
// "decline-challenge"]`; `[data-action="create-challenge"]` opens the
// form, `[data-action="send-challenge"]` sends it,
// `[data-action="cancel-challenge"]` withdraws the waiting challenge; the
// profile's button is `[data-action="challenge-player"]`.

import { t, onLangChange } from './i18n.js';
import { el } from './dom.js';
import { call, profileHash } from './api.js';
import { timeControl, timingLabel } from './timecontrol.js';

/** How often the lists are asked for while they show. */
const CHALLENGES_EVERY_MS = 4000;
/** The event the profile's Challenge button sends; its detail is the player's name. */
export const CHALLENGE_EVENT = 'uttt:challenge';

/** The games offered, as the form lists them. */
const GAMES = [
  { id: 'ultimate', kind: 'ultimate', rules: 'standard', label: 'playnow.ultimate' },
  { id: 'tiebreak', kind: 'ultimate', rules: 'tiebreak', label: 'playnow.tiebreak' },
  { id: 'classic', kind: 'classic', rules: 'standard', label: 'playnow.classic' },
];
/** The timings offered (those of Play now): the live clocks, then days a move. */
/** @type {import('./timecontrol.js').Timing[]} */
const TIMINGS = [
  { clock: { initial: 60, increment: 1 } },
  { clock: { initial: 180, increment: 2 } },
  { clock: { initial: 300, increment: 0 } },
  { clock: { initial: 600, increment: 5 } },
  ...[1, 2, 3, 5, 7, 14].map((days) => ({ days })),
];
/** The label key of the game of `kind` and `rules`. */
const gameLabel = (kind, rules) => GAMES.find((g) => g.kind === kind && g.rules === rules)?.label ?? 'playnow.ultimate';

/** A `<select>` named `name` of `[value, label key or text]` options. */
function select(name, options) {
  const node = el('select', { name, id: `challenge-${name}`, class: 'challenge-select' });
  for (const [value, label] of options) node.append(el('option', { value, 'data-label': label }));
  return node;
}

/**
 * Builds the challenges part of the Play now section; returns its node.
 * It redraws itself on every online change.
 * @param {any} controller
 */
export function createChallenges(controller) {
  /** The lists as GET /api/challenges last gave them; null until it answered. */
  let lists = null;
  let formOpen = false;

  const heading = el('h4', { class: 'challenges-heading' });
  const waitText = el('p', { class: 'challenge-wait', role: 'status' });
  const cancel = el('button', { type: 'button', class: 'btn', 'data-action': 'cancel-challenge' });
  const waiting = el('div', { class: 'challenge-waiting' }, waitText, cancel);
  const forYouHead = el('h5', { class: 'challenges-sub' });
  const forYou = el('ul', { class: 'challenge-list', 'data-list': 'for-you' });
  const openHead = el('h5', { class: 'challenges-sub' });
  const open = el('ul', { class: 'challenge-list', 'data-list': 'open' });
  const none = el('p', { class: 'hint challenges-none' });
  const create = el('button', { type: 'button', class: 'btn', 'data-action': 'create-challenge', 'aria-expanded': 'false' });

  const game = select('game', GAMES.map((g) => [g.id, g.label]));
  // Its options are labelled in render (a day count is in words).
  const clock = el('select', { name: 'clock', id: 'challenge-clock', class: 'challenge-select' }, ...TIMINGS.map((timing) => el('option', { value: timeControl(timing) })));
  clock.value = '3+2';
  const side = select('side', [['random', 'challenge.sideRandom'], ['x', 'challenge.sideX'], ['o', 'challenge.sideO']]);
  const ratedBox = el('input', { type: 'checkbox', name: 'challenge-rated', id: 'challenge-rated', checked: '' });
  const toInput = el('input', { type: 'text', name: 'to', id: 'challenge-to', autocomplete: 'off', spellcheck: 'false', maxlength: '24', class: 'challenge-to' });
  const field = (control, key) => el('label', { class: 'field challenge-field', for: control.id }, el('span', { 'data-label': key }), control);
  const send = el('button', { type: 'submit', class: 'btn primary', 'data-action': 'send-challenge' });
  const form = el(
    'form',
    { class: 'challenge-form', hidden: '' },
    field(game, 'challenge.game'),
    field(clock, 'challenge.clock'),
    field(side, 'challenge.side'),
    field(toInput, 'challenge.to'),
    el('label', { class: 'option challenge-rated', for: 'challenge-rated' }, ratedBox, el('span', { 'data-label': 'playnow.rated' })),
    el('p', { class: 'online-actions' }, send),
  );
  const node = el('div', { class: 'challenges', 'data-challenges': '' }, heading, waiting, forYouHead, forYou, openHead, open, none, create, form);

  create.addEventListener('click', () => {
    formOpen = !formOpen;
    render();
  });
  form.addEventListener('submit', (event) => {
    event.preventDefault();
    const g = GAMES.find((x) => x.id === /** @type {HTMLSelectElement} */ (game).value) ?? GAMES[0];
    const timing = TIMINGS.find((x) => timeControl(x) === /** @type {HTMLSelectElement} */ (clock).value) ?? TIMINGS[1];
    const to = /** @type {HTMLInputElement} */ (toInput).value.trim();
    formOpen = false;
    void controller.onlineChallenge(
      {
        kind: g.kind,
        rules: g.rules,
        colour: /** @type {HTMLSelectElement} */ (side).value,
        clock: timing.clock ?? null,
        days: timing.days,
        rated: /** @type {HTMLInputElement} */ (ratedBox).checked,
      },
      to || null,
    );
  });
  cancel.addEventListener('click', () => void controller.onlineCancelChallenge());
  node.addEventListener('click', (event) => {
    const target = /** @type {HTMLElement} */ (event.target);
    const row = target.closest('[data-challenge]');
    const id = row?.getAttribute('data-challenge');
    if (!id) return;
    if (target.closest('[data-action="accept-challenge"]')) void controller.onlineAcceptChallenge(id);
    if (target.closest('[data-action="decline-challenge"]')) {
      row.querySelectorAll('button').forEach((b) => (b.disabled = true));
      void controller.onlineDeclineChallenge(id).then(refresh);
    }
  });
  // The profile's Challenge button: the form, addressed to that player, in view.
  document.addEventListener(CHALLENGE_EVENT, (event) => {
    /** @type {HTMLInputElement} */ (toInput).value = String(/** @type {CustomEvent} */ (event).detail ?? '');
    formOpen = true;
    render();
    // The section shows in the Play view, which opens with the event (a
    // hash change, heard a moment later): the form is focused once there.
    const focusWhenShown = (frames) => {
      if (node.isConnected) {
        form.scrollIntoView({ block: 'nearest' });
        toInput.focus();
      } else if (frames > 0) requestAnimationFrame(() => focusWhenShown(frames - 1));
    };
    requestAnimationFrame(() => focusWhenShown(30));
  });

  /** Asks for the lists (not while the browser is offline: nothing would answer). */
  async function refresh() {
    if (navigator.onLine === false) return;
    const answer = await call('api/challenges');
    lists = answer.ok && Array.isArray(answer.body.open) ? answer.body : null;
    render();
  }

  window.setInterval(() => {
    // Only while someone can see the lists: the tab in view, the section shown.
    if (document.visibilityState === 'visible' && node.checkVisibility()) void refresh();
  }, CHALLENGES_EVERY_MS);

  /** One challenge's row: who, their rating, the game, and its buttons. */
  function row(c, addressed, busy) {
    const rating = `${c.rating}${c.provisional ? '?' : ''}`;
    const what = [t(gameLabel(c.kind, c.rules)), timingLabel(c), t(c.rated ? 'challenge.rated' : 'challenge.casual')].join(' · ');
    const accept = el('button', { type: 'button', class: 'btn primary', 'data-action': 'accept-challenge', text: t('challenge.accept') });
    accept.disabled = busy;
    const buttons = el('span', { class: 'challenge-buttons' }, accept);
    if (addressed) buttons.append(el('button', { type: 'button', class: 'btn', 'data-action': 'decline-challenge', text: t('challenge.decline') }));
    return el(
      'li',
      { class: 'challenge-row', 'data-challenge': c.id },
      el('span', { class: 'challenge-who' }, el('a', { href: profileHash(c.name), class: 'player-link', text: c.name }), ` ${rating}`),
      el('span', { class: 'challenge-what', text: what }),
      buttons,
    );
  }

  function render() {
    const { challenge, inSession } = controller.onlineRoom();
    heading.textContent = t('challenge.title');
    forYouHead.textContent = t('challenge.forYou');
    openHead.textContent = t('challenge.open');
    for (const label of node.querySelectorAll('[data-label]')) label.textContent = t(/** @type {HTMLElement} */ (label).dataset.label);
    for (const [i, option] of [...clock.options].entries()) option.textContent = timingLabel(TIMINGS[i]);
    create.textContent = t('challenge.create');
    send.textContent = t('challenge.send');
    toInput.setAttribute('placeholder', t('challenge.anyone'));

    waiting.hidden = !challenge;
    if (challenge) {
      const what = `${t(gameLabel(challenge.options.kind, challenge.options.rules))} ${timingLabel(challenge.options)}`;
      waitText.textContent = challenge.cancelling
        ? t('challenge.cancelling')
        : t(challenge.to ? 'challenge.waitingTo' : 'challenge.waiting', { what, name: challenge.to ?? '' });
      cancel.textContent = t('playnow.cancel');
      cancel.disabled = challenge.cancelling;
    }
    const busy = inSession;
    const shownForYou = lists?.forYou ?? [];
    const shownOpen = lists?.open ?? [];
    forYou.replaceChildren(...shownForYou.map((c) => row(c, true, busy)));
    open.replaceChildren(...shownOpen.map((c) => row(c, false, busy)));
    forYouHead.hidden = forYou.hidden = shownForYou.length === 0;
    openHead.hidden = open.hidden = shownOpen.length === 0;
    none.hidden = !lists || shownOpen.length > 0 || shownForYou.length > 0;
    none.textContent = t('challenge.none');
    create.hidden = inSession;
    create.setAttribute('aria-expanded', String(formOpen && !inSession));
    form.hidden = !formOpen || inSession;
  }

  /** The online phase last drawn: the lists are asked for again when it changes (a challenge made, ended, accepted). */
  let phase = null;
  controller.subscribe((change) => {
    if (change.cause !== 'online') return;
    render();
    const now = controller.onlineRoom().phase;
    if (now !== phase && node.checkVisibility()) void refresh();
    phase = now;
  });
  onLangChange(render);
  render();
  // Asked for as soon as the section comes into view (never in the static
  // build, whose Play now section stays hidden), then polled as above.
  new IntersectionObserver((entries) => {
    if (entries.some((e) => e.isIntersecting) && document.visibilityState === 'visible') void refresh();
  }).observe(node);
  return { node, render };
}
