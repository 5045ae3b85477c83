// @ts-check
// Play now, in the Play view (playview.js): the pools the server offers (GET
// /api/pools: Ultimate standard, tie-break and Classic, each at four
// clocks and six days a move, rated or casual) as one button per clock
// with how many wait in it, the correspondence games (days a move) apart; while a seek waits, how long, with whom, a Cancel, and after
// ENGINE_OFFER_MS alone the house engine at a level matched to the
// player's rating (the seek goes on until the player takes it). The seek
// itself is features/online.js's (controller.onlineSeek ...); this view
// renders controller.onlineRoom() and the signed-in name (api.js), in its
// own row (`who`, with the account's button), which the Play view shows
// while it is open and the Online tab otherwise, so the name is on the
// page once.
//
// Hooks (a public test API): `[data-action="play-now"][data-tc="1+1"]`
// (one per clock of the chosen game; `[data-tc="3d"]` for three days a move), `[data-action="cancel-seek"]`,
// `[data-action="play-bot"]`, the signed-in name in `[data-me]`.

import { t, tn, onLangChange } from './i18n.js';
import { el } from './dom.js';
import { call, profileHash } from './api.js';
import { createChallenges } from './challenges.js';
import { timeControl, timingLabel } from './timecontrol.js';

/** How long a player waits alone before the engine is offered. */
export const ENGINE_OFFER_MS = 20_000;
/** How often the pools' counts are asked for while the buttons show. */
const POOLS_EVERY_MS = 5000;

/** The games the buttons are grouped by, in the order shown. */
const GAMES = [
  { id: 'ultimate', kind: 'ultimate', rules: 'standard', label: 'playnow.ultimate' },
  { id: 'tiebreak', kind: 'ultimate', rules: 'tiebreak', label: 'playnow.tiebreak' },
  { id: 'classic', kind: 'classic', rules: 'standard', label: 'playnow.classic' },
];

/**
 * The engine's level for a player rated `rating`: an even game as near as
 * the levels allow (the page's choice, not a rule).
 * @param {number | null} rating
 */
export function engineLevelFor(rating) {
  const r = rating ?? 1500;
  if (r < 1200) return 'beginner';
  if (r < 1450) return 'easy';
  if (r < 1700) return 'medium';
  if (r < 1950) return 'hard';
  return 'master';
}

/** Seconds as m:ss. */
function elapsed(ms) {
  const s = Math.max(0, Math.floor(ms / 1000));
  return `${Math.floor(s / 60)}:${String(s % 60).padStart(2, '0')}`;
}

/**
 * Builds the Play now section; returns its node, the row of the player's
 * name (`who`) and its render (called on every online change). `account`,
 * when given, is the account's button, shown beside the player's name.
 * @param {any} controller
 * @param {{ account?: Node }} [parts]
 */
export function createPlayNow(controller, { account } = {}) {
  /** The pools as the server last listed them; null until it answered (or when it has none). */
  let pools = null;
  let game = GAMES[0];
  let rated = true;

  const heading = el('h3', { id: 'playnow-heading' });
  const me = el('p', { class: 'playnow-me', 'data-me': '' });
  const games = el('div', { class: 'playnow-games', role: 'radiogroup', 'aria-labelledby': 'playnow-heading' });
  const buttons = el('div', { class: 'playnow-buttons' });
  const dayButtons = el('div', { class: 'playnow-buttons playnow-days', 'aria-labelledby': 'playnow-days-heading' });
  const daysHeading = el('p', { class: 'playnow-days-heading', id: 'playnow-days-heading', 'data-label': 'playnow.days' });
  const ratedBox = el('input', { type: 'checkbox', name: 'rated', id: 'playnow-rated', checked: '' });
  const ratedLabel = el('label', { class: 'option playnow-rated', for: 'playnow-rated' }, ratedBox, el('span'));
  const choose = el('div', { class: 'playnow-choose' }, games, buttons, daysHeading, dayButtons, ratedLabel);

  const waitText = el('p', { class: 'playnow-wait', role: 'status' });
  const cancel = el('button', { type: 'button', class: 'btn', 'data-action': 'cancel-seek' });
  const offerText = el('p', { class: 'playnow-offer-text' });
  const playBot = el('button', { type: 'button', class: 'btn primary', 'data-action': 'play-bot' });
  const offer = el('div', { class: 'playnow-offer' }, offerText, playBot);
  const waiting = el('div', { class: 'playnow-waiting' }, waitText, el('p', { class: 'online-actions' }, cancel), offer);

  const who = el('div', { class: 'playnow-who' }, me, ...(account ? [account] : []));
  const node = el('section', { class: 'playnow', 'aria-labelledby': 'playnow-heading' }, heading, choose, waiting, createChallenges(controller).node);

  for (const g of GAMES) {
    const input = el('input', { type: 'radio', name: 'playnow-game', value: g.id, id: `playnow-${g.id}` });
    if (g === game) input.setAttribute('checked', '');
    input.addEventListener('change', () => {
      game = g;
      render();
    });
    games.append(el('label', { class: 'playnow-game', for: `playnow-${g.id}` }, input, el('span', { 'data-label': g.label })));
  }
  ratedBox.addEventListener('change', () => {
    rated = /** @type {HTMLInputElement} */ (ratedBox).checked;
    render();
  });
  choose.addEventListener('click', (event) => {
    const button = /** @type {HTMLElement} */ (event.target).closest('[data-action="play-now"]');
    const pool = shownPools().find((p) => timeControl(p) === button?.getAttribute('data-tc'));
    if (!pool) return;
    void controller.onlineSeek({ kind: pool.kind, rules: pool.rules, clock: pool.clock, days: pool.days ?? undefined, rated: pool.rated });
  });
  cancel.addEventListener('click', () => void controller.onlineCancelSeek());
  playBot.addEventListener('click', () => {
    const seek = controller.onlineRoom().seek;
    void controller.playEngineInstead(engineLevelFor(seek?.rating ?? null));
  });

  /** The offered pools of the chosen game and rating, in the server's order. */
  const shownPools = () =>
    (pools ?? []).filter((p) => p.kind === game.kind && p.rules === game.rules && p.rated === rated && (p.clock || p.days));

  /** Asks the server for its pools and their counts (not while the browser is offline: nothing would answer). */
  async function refreshPools() {
    if (navigator.onLine === false) return;
    const answer = await call('api/pools');
    pools = answer.ok && Array.isArray(answer.body.pools) ? answer.body.pools : null;
    render();
  }

  let poller = 0;
  /** Counts are asked for while the buttons or a seek show, and the tab is visible. */
  function keepPolling(on) {
    if (on && !poller) {
      // Only while someone can see the counts: the tab in view, the pane shown.
      poller = window.setInterval(() => {
        if (document.visibilityState === 'visible' && node.checkVisibility()) void refreshPools();
      }, POOLS_EVERY_MS);
    } else if (!on && poller) {
      window.clearInterval(poller);
      poller = 0;
    }
  }

  let ticker = 0;
  /** Redraws the wait every second while a seek waits. */
  function keepTicking(on) {
    if (on && !ticker) ticker = window.setInterval(render, 1000);
    else if (!on && ticker) {
      window.clearInterval(ticker);
      ticker = 0;
    }
  }

  /** Draws one button per pool of `shown` into `into` (live clocks, or days a move). */
  function renderButtons(into, shown, disabled) {
    const keys = shown.map((p) => timeControl(p)).join(' ');
    if (into.dataset.keys !== keys) {
      into.dataset.keys = keys;
      into.replaceChildren(
        ...shown.map((p) =>
          el(
            'button',
            { type: 'button', class: 'btn playnow-button', 'data-action': 'play-now', 'data-tc': timeControl(p) },
            el('span', { class: 'playnow-tc' }),
            el('span', { class: 'playnow-count' }),
          ),
        ),
      );
    }
    for (const [i, button] of [...into.children].entries()) {
      const pool = shown[i];
      /** @type {HTMLButtonElement} */ (button).disabled = disabled;
      button.querySelector('.playnow-tc').textContent = timingLabel(pool);
      button.querySelector('.playnow-count').textContent = tn('playnow.waitingCount', pool.waiting);
      button.setAttribute('aria-label', t('playnow.buttonLabel', { tc: timingLabel(pool), waiting: tn('playnow.waitingCount', pool.waiting) }));
    }
  }

  function render() {
    const { seek, inSession } = controller.onlineRoom();
    heading.textContent = t('playnow.title');
    for (const label of node.querySelectorAll('[data-label]')) label.textContent = t(/** @type {HTMLElement} */ (label).dataset.label);
    /** @type {HTMLElement} */ (ratedLabel.querySelector('span')).textContent = t('playnow.rated');
    const name = controller.account.me()?.name ?? '';
    me.dataset.me = name;
    if (!name) me.textContent = t('playnow.noName');
    else if (me.textContent !== t('playnow.playingAs', { name })) {
      // The name links to the player's profile, wherever the sentence puts it.
      const [before, after = ''] = t('playnow.playingAs', { name: '\u0001' }).split('\u0001');
      me.replaceChildren(before, el('a', { href: profileHash(name), class: 'player-link', text: name }), after);
    }

    // Without a server the section has nothing to offer: the view says why.
    node.hidden = pools === null && !seek;
    choose.hidden = Boolean(seek) || inSession;
    waiting.hidden = !seek;
    const shown = shownPools();
    renderButtons(buttons, shown.filter((p) => p.clock), navigator.onLine === false);
    renderButtons(dayButtons, shown.filter((p) => !p.clock), navigator.onLine === false);
    daysHeading.hidden = dayButtons.childElementCount === 0;
    keepPolling(!inSession || Boolean(seek));
    keepTicking(Boolean(seek));
    if (!seek) return;
    const waited = performance.now() - seek.since;
    const tc = timingLabel(seek.options);
    const what = t(seek.options.rated ? 'playnow.seekRated' : 'playnow.seekCasual', { tc, game: t(GAMES.find((g) => g.kind === seek.options.kind && g.rules === seek.options.rules)?.label ?? 'playnow.ultimate') });
    waitText.textContent = seek.cancelling
      ? t('playnow.cancelling')
      : t('playnow.looking', { what, time: elapsed(waited), waiting: tn('playnow.waitingCount', Math.max(seek.waiting, 1)) });
    cancel.textContent = t('playnow.cancel');
    cancel.disabled = seek.cancelling;
    const left = ENGINE_OFFER_MS - waited;
    const level = engineLevelFor(seek.rating);
    playBot.hidden = left > 0 || seek.cancelling;
    playBot.textContent = t('playnow.playBot', { level: t(`level.${level}`) });
    offerText.textContent =
      left > 0
        ? tn('playnow.offerIn', Math.ceil(left / 1000))
        : t('playnow.offer', { level: t(`level.${level}`), rating: seek.rating ?? 1500 });
  }

  onLangChange(render);
  window.addEventListener('online', () => void refreshPools());
  controller.account.onMe(render);
  void controller.account.fetchMe();
  void refreshPools();
  return { node, who, render };
}
