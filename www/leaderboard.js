// @ts-check
// The leaderboard view (`#/leaderboard/<perf>`): a picker of the fifteen
// performances, grouped by game (Ultimate, Tie-break, Classic) and ordered
// by speed, and the board of that performance from the server (rank, name
// linking to the profile, rating, games). Only established ratings are
// listed (docs/api.md): an empty board says who will appear there.
//
// Test hooks: the root `[data-view="leaderboard"]`, each row
// `[data-leaderboard-row]`.

import { t } from './i18n.js';
import { el } from './dom.js';
import { getApi, profileHash, leaderboardHash, GAMES, SPEEDS, PERFS } from './api.js';
import { perfName, ratingText } from './ratings.js';

/** The board shown for `#/leaderboard/` alone. */
export const DEFAULT_PERF = 'ultimate-blitz';

/**
 * Fills `view` (see views.js) with the leaderboard of the performance
 * `view.rest` names (the default one when it names none).
 * @param {import('./views.js').View} view
 * @param {{problemText: (problem: string) => string}} options
 */
export function renderLeaderboard(view, { problemText }) {
  const { root, signal } = view;
  const perf = view.rest === '' ? DEFAULT_PERF : view.rest;
  root.dataset.view = 'leaderboard';
  root.dataset.perf = perf;
  view.setTitle(t('leaderboard.title'));
  const status = el('p', { class: 'view-status', role: 'status' });
  root.replaceChildren(picker(perf), status);
  if (!PERFS.includes(perf)) {
    status.textContent = t('leaderboard.unknown');
    return;
  }
  status.textContent = t('views.loading');
  getApi(`leaderboard/${perf}`, signal).then(
    (answer) => {
      if (!answer.ok) {
        status.textContent = answer.problem === 'not-found' ? t('leaderboard.unknown') : problemText(answer.problem);
        status.dataset.problem = answer.problem;
        return;
      }
      const players = answer.data.players ?? [];
      status.textContent = players.length === 0 ? t('leaderboard.empty', { perf: perfName(perf) }) : '';
      status.dataset.empty = String(players.length === 0);
      if (players.length > 0) root.append(board(players), el('p', { class: 'hint', text: t('leaderboard.about') }));
    },
    (error) => {
      if (!signal.aborted) throw error;
    },
  );
}

/** The performance picker: a select grouped by game; a choice goes to its board. */
function picker(perf) {
  const select = el('select', { id: 'leaderboard-perf', 'data-action': 'pick-perf' });
  for (const game of GAMES) {
    const group = el('optgroup', { label: t(`perf.game.${game}`) });
    for (const speed of SPEEDS) {
      const key = `${game}-${speed}`;
      group.append(el('option', { value: key, text: perfName(key) }));
    }
    select.append(group);
  }
  select.value = PERFS.includes(perf) ? perf : '';
  // A new board is a new entry in the history, as a link would be.
  select.addEventListener('change', () => {
    location.hash = leaderboardHash(select.value);
  });
  return el('label', { class: 'field leaderboard-pick' }, el('span', { text: t('leaderboard.pick') }), select);
}

/** The table of `players` (the API's rows, best first). */
function board(players) {
  const head = el(
    'tr',
    {},
    el('th', { scope: 'col', class: 'num', text: t('leaderboard.rank') }),
    el('th', { scope: 'col', text: t('leaderboard.player') }),
    el('th', { scope: 'col', class: 'num', text: t('profile.rating') }),
    el('th', { scope: 'col', class: 'num', text: t('profile.gamesCol') }),
  );
  const rows = players.map((p) =>
    el(
      'tr',
      { 'data-leaderboard-row': p.name },
      el('td', { class: 'num', text: String(p.rank) }),
      el('td', {}, el('a', { href: profileHash(p.name), class: 'player-link', text: p.name })),
      el('td', { class: 'num', text: ratingText(p.rating) }),
      el('td', { class: 'num', text: String(p.games) }),
    ),
  );
  return el('table', { class: 'view-table leaderboard-table' }, el('thead', {}, head), el('tbody', {}, ...rows));
}
