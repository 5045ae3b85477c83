// @ts-check
// The profile view (`#/@/<name>`): a player's name and first day online,
// their ratings per performance (with "?" while provisional), a graph of
// each rating over its whole history (`players/{name}/history`, one fetch
// for the view), their results, and their archived games, newest first, a
// page of the API at a time ("Show older games"), each openable in the
// page's review. Everything comes from the server's API (docs/api.md); the
// results are counted from the games loaded, and say so.
//
// Test hooks: the root `[data-view="profile"]` with `[data-profile-name]`,
// each game `[data-archived-game]` with its `[data-action="open-review"]`,
// and `[data-action="challenge-player"]`, which opens the Play view with
// the challenge form (challenges.js) addressed to the player.

import { t, tn } from './i18n.js';
import { el } from './dom.js';
import { getApi, playerPath, profileHash, leaderboardHash, PERFS, PLAY_HASH } from './api.js';
import { CHALLENGE_EVENT } from './challenges.js';
import { perfName, ratingText, changeText, dateText, gameFor, resultText, ratingGraph } from './ratings.js';

/**
 * Fills `view` (see views.js) with the profile of the player `view.rest`
 * names. `openGame(record)` opens a game's record in the page's review
 * (or returns why it cannot now).
 * @param {import('./views.js').View} view
 * @param {{openGame: (record: string) => string | null, problemText: (problem: string) => string}} options
 */
export function renderProfile(view, { openGame, problemText }) {
  const { root, signal } = view;
  const name = view.rest.split('/')[0];
  root.dataset.view = 'profile';
  view.setTitle(name);
  const status = el('p', { class: 'view-status', role: 'status', text: t('views.loading') });
  root.replaceChildren(status);
  load(view, name, status, { openGame, problemText }).catch((error) => {
    if (!signal.aborted) throw error;
  });
}

/** Fetches the player and their first page of games, then draws them. */
async function load(view, name, status, { openGame, problemText }) {
  const { root, signal } = view;
  const player = await getApi(`players/${playerPath(name)}`, signal);
  if (!player.ok) {
    status.textContent = player.problem === 'not-found' ? t('profile.notFound') : problemText(player.problem);
    status.dataset.problem = player.problem;
    return;
  }
  const { data } = player;
  const history = getApi(`players/${playerPath(data.name)}/history`, signal);
  // Awaited after the first page; a view left before then drops it quietly.
  history.catch(() => {});
  view.setTitle(data.name);
  root.dataset.profileName = data.name;
  const games = el('ol', { class: 'archived-games' });
  const more = el('button', { type: 'button', class: 'btn', 'data-action': 'more-games', text: t('profile.more') });
  const results = el('p', { class: 'profile-results' });
  const graphs = el('div', { class: 'profile-graphs' });
  const gamesStatus = el('p', { class: 'view-status', role: 'status' });
  root.replaceChildren(
    el('p', { class: 'profile-since', text: t('profile.since', { date: dateText(data.created) }) }),
    challengeButton(data.name),
    el('h3', { text: t('profile.ratings') }),
    ratingsTable(data.perfs),
    graphs,
    el('h3', { text: t('profile.results') }),
    results,
    el('h3', { text: t('profile.games') }),
    games,
    gamesStatus,
    more,
  );
  /** Every game loaded so far, newest first. */
  const loaded = [];
  let page = 0;
  const next = async () => {
    more.disabled = true;
    const answer = await getApi(`players/${playerPath(data.name)}/games?page=${page + 1}`, signal);
    if (!answer.ok) {
      gamesStatus.textContent = problemText(answer.problem);
      more.disabled = false;
      return;
    }
    page += 1;
    const fresh = answer.data.games ?? [];
    loaded.push(...fresh);
    for (const game of fresh) games.append(gameRow(game, data.name, openGame));
    gamesStatus.textContent = loaded.length === 0 ? t('profile.noGames') : '';
    // The API gives 20 a page: a shorter page is the last.
    more.hidden = fresh.length < 20 || page >= 1000;
    more.disabled = false;
    drawResults(results, loaded, data.name);
  };
  more.addEventListener('click', () => {
    next().catch((error) => {
      if (!signal.aborted) throw error;
    });
  });
  await next();
  const ratings = await history;
  if (ratings.ok) drawGraphs(graphs, ratings.data.perfs ?? {});
}

/** The table of a player's ratings, by performance in the site's order; a sentence when there are none. */
export function ratingsTable(perfs) {
  const keys = PERFS.filter((perf) => perfs?.[perf]);
  if (keys.length === 0) return el('p', { class: 'hint', text: t('profile.noRatings') });
  const head = el(
    'tr',
    {},
    el('th', { scope: 'col', text: t('profile.perf') }),
    el('th', { scope: 'col', class: 'num', text: t('profile.rating') }),
    el('th', { scope: 'col', class: 'num', text: t('profile.gamesCol') }),
  );
  const rows = keys.map((perf) => {
    const { rating, rd, games, provisional } = perfs[perf];
    const shown = el('span', {
      text: ratingText(rating, provisional),
      title: t('profile.rd', { rating: ratingText(rating), rd: ratingText(rd) }),
    });
    if (provisional) shown.dataset.provisional = '';
    return el(
      'tr',
      { 'data-perf': perf },
      el('th', { scope: 'row' }, el('a', { href: leaderboardHash(perf), text: perfName(perf) })),
      el('td', { class: 'num', 'data-rating': '' }, shown),
      el('td', { class: 'num', text: String(games) }),
    );
  });
  const table = el('table', { class: 'view-table profile-ratings' }, el('thead', {}, head), el('tbody', {}, ...rows));
  const provisional = keys.some((perf) => perfs[perf].provisional);
  return el('div', {}, table, ...(provisional ? [el('p', { class: 'hint', text: t('profile.provisionalNote') })] : []));
}

/** The player's wins, draws and losses among `games`, and what they were counted from. */
function drawResults(host, games, name) {
  const count = { win: 0, draw: 0, loss: 0 };
  for (const game of games) count[gameFor(game, name).outcome] += 1;
  host.replaceChildren(
    el('span', { 'data-results': '', text: t('profile.record', { wins: count.win, draws: count.draw, losses: count.loss }) }),
    el('span', { class: 'hint', text: ` ${tn('profile.countedFrom', games.length)}` }),
  );
  host.hidden = games.length === 0;
}

/** One graph per performance of `perfs` (the API's rating history: points oldest first). */
function drawGraphs(host, perfs) {
  const figures = PERFS.filter((perf) => Array.isArray(perfs[perf]) && perfs[perf].length > 0).map((perf) => {
    const label = t('profile.graph', { perf: perfName(perf) });
    // From the rating before the first game shown (when known), then after each.
    const first = perfs[perf][0].before;
    const points = [...(typeof first === 'number' ? [first] : []), ...perfs[perf].map((point) => point.rating)];
    return el('figure', { class: 'profile-graph', 'data-graph': perf }, ratingGraph(points, label), el('figcaption', { text: label }));
  });
  host.replaceChildren(...figures);
  if (figures.length > 0) host.append(el('p', { class: 'hint', text: t('profile.graphNote') }));
}

/** One archived game: the opponent, the performance, the result, the change of rating, the date and a Review button. */
function gameRow(game, name, openGame) {
  const mine = gameFor(game, name);
  const opponent = mine.opponent
    ? el('a', { href: profileHash(mine.opponent), class: 'player-link', text: mine.opponent })
    : el('span', { text: t('profile.guest') });
  const change = mine.before === null
    ? el('span', { class: 'rating-change', 'data-rating-change': 'casual', text: t('profile.casual') })
    : el('span', {
      class: 'rating-change',
      'data-rating-change': String(Math.round(mine.after - mine.before)),
      'data-sign': String(Math.sign(Math.round(mine.after - mine.before))),
      text: `${ratingText(mine.after)} (${changeText(mine.after - mine.before)})`,
    });
  const review = el('button', {
    type: 'button',
    class: 'btn',
    'data-action': 'open-review',
    text: t('profile.review'),
    'aria-label': t('profile.reviewLabel', { name: mine.opponent ?? t('profile.guest') }),
  });
  const note = el('p', { class: 'hint archived-game-note', role: 'status' });
  review.addEventListener('click', () => {
    note.textContent = openGame(game.record) ?? '';
  });
  return el(
    'li',
    { class: 'archived-game', 'data-archived-game': String(game.id), 'data-outcome': mine.outcome },
    el(
      'div',
      { class: 'archived-game-info' },
      el('p', { class: 'archived-game-head' }, el('span', { class: 'archived-game-result', text: resultText(mine.outcome, mine.reason) }), ' ', change),
      el('p', { class: 'archived-game-vs' }, t('profile.vs', { side: mine.side.toUpperCase() }), ' ', opponent),
      el(
        'p',
        { class: 'archived-game-meta' },
        el('span', { text: perfName(game.perf) }),
        ' · ',
        el('time', { datetime: new Date(game.ended).toISOString(), text: dateText(game.ended, true) }),
      ),
    ),
    review,
    note,
  );
}

/** "Challenge": the Play view, its challenge form addressed to `name` (challenges.js). */
function challengeButton(name) {
  const button = el('button', { type: 'button', class: 'btn', 'data-action': 'challenge-player', text: t('profile.challenge') });
  button.addEventListener('click', () => {
    document.dispatchEvent(new CustomEvent(CHALLENGE_EVENT, { detail: name }));
    location.hash = PLAY_HASH;
  });
  return el('p', { class: 'online-actions' }, button);
}
