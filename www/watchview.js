// @ts-check
// The Watch view (`#/watch`, from the Play view): the games in play anyone
// may watch (GET /api/watch), the best rated first, each with Watch; Follow
// the top game, which watches the first and, when it ends, the next one
// (follow.js); the games ended last, each opening in the review; and, for a
// signed-in player, whether their own games are listed here
// (`/api/me/settings`). The list is asked for again every WATCH_EVERY_MS
// while the view shows.
//
// Test hooks: the root `[data-view="watch"]`, each live game
// `[data-watch-game="ROOM"]` with `[data-action="watch-game"]`,
// `[data-action="watch-top"]`, each recent game `[data-watch-recent]`, and
// the setting `#watch-show-mine`.

import { t, tn } from './i18n.js';
import { el } from './dom.js';
import { getApi, WATCH_HASH } from './api.js';
import { api } from './accountapi.js';
import { timeControl, timingLabel } from './timecontrol.js';

/** How often the list is asked for while the view shows. */
const WATCH_EVERY_MS = 10_000;

/** The label key of each game. */
const GAME_LABELS = { ultimate: 'playnow.ultimate', tiebreak: 'playnow.tiebreak', classic: 'playnow.classic' };
const gameLabel = (game) => t(GAME_LABELS[game.rules === 'tiebreak' ? 'tiebreak' : game.kind] ?? 'playnow.ultimate');

/** A seat as the list writes it: the name and rating ("?" while provisional), or a guest. */
function seatText(seat) {
  if (!seat) return t('play.guest');
  return `${seat.name} (${seat.rating}${seat.provisional ? '?' : ''})`;
}

/**
 * Adds the Watch view to `views` (views.js's router).
 * @param {{ route: (prefix: string, render: (view: import('./views.js').View) => void) => void }} views
 * @param {Controller} controller
 * @param {{ tabs: { show: (name: string) => void }, follow: import('./follow.js').Follow, openGame: (record: string) => string | null }} parts
 */
export function initWatch(views, controller, { tabs, follow, openGame }) {
  views.route(WATCH_HASH, (view) => renderWatch(view, { controller, tabs, follow, openGame }));
}

/**
 * Fills `view` with the Watch view.
 * @param {import('./views.js').View} view
 * @param {{ controller: Controller, tabs: { show: (name: string) => void }, follow: import('./follow.js').Follow, openGame: (record: string) => string | null }} parts
 */
function renderWatch(view, { controller, tabs, follow, openGame }) {
  const { root, signal } = view;
  root.dataset.view = 'watch';
  view.setTitle(t('watching.title'));
  const problem = el('p', { class: 'view-status', role: 'status' });
  const top = el('button', { type: 'button', class: 'btn primary', 'data-action': 'watch-top', text: t('watching.followTop') });
  const live = el('ul', { class: 'play-running' });
  const none = el('p', { class: 'hint', text: t('watching.none') });
  const recent = el('ul', { class: 'play-running' });
  const recentHead = el('h3', { text: t('watching.recent') });
  const mine = el('input', { type: 'checkbox', id: 'watch-show-mine' });
  const setting = el('label', { class: 'option', for: 'watch-show-mine', hidden: '' }, mine, el('span', { text: t('watching.showMine') }));
  root.replaceChildren(
    problem,
    el('p', { class: 'hint', text: t('watching.intro') }),
    el('p', { class: 'online-actions' }, top),
    el('h3', { text: t('watching.live') }),
    live,
    none,
    recentHead,
    recent,
    setting,
  );

  const watch = (room) =>
    void view.close().then(() => {
      tabs.show('online');
      controller.onlineJoin(room);
    });
  top.addEventListener('click', () => void view.close().then(() => follow.start()));

  const liveRow = (game) => {
    const go = el('button', { type: 'button', class: 'btn primary', 'data-action': 'watch-game', text: t('watching.watch') });
    go.addEventListener('click', () => {
      follow.stop();
      watch(game.room);
    });
    const what = [gameLabel(game), timeControl(game) && timingLabel(game), tn('watching.moves', game.ply)].filter(Boolean).join(' · ');
    return el(
      'li',
      { class: 'play-running-game', 'data-watch-game': game.room },
      el('p', {}, el('span', { class: 'play-running-what', text: `${seatText(game.x)} – ${seatText(game.o)}` }), ' ', el('span', { class: 'hint', text: what })),
      go,
    );
  };
  const recentRow = (game) => {
    const open = el('button', { type: 'button', class: 'btn', 'data-action': 'watch-review', text: t('watching.review') });
    open.addEventListener('click', () => {
      // Refused while an online game holds the board: the reason is said.
      problem.textContent = openGame(game.record) ?? '';
    });
    const winner = game.result?.winner;
    const result = winner === 'x' ? '1–0' : winner === 'o' ? '0–1' : '½–½';
    return el(
      'li',
      { class: 'play-running-game', 'data-watch-recent': String(game.id) },
      el('p', {}, el('span', { class: 'play-running-what', text: `${game.x ?? t('play.guest')} ${result} ${game.o ?? t('play.guest')}` })),
      open,
    );
  };

  const load = async () => {
    const answer = await getApi('watch', signal);
    if (signal.aborted) return;
    problem.textContent = answer.ok ? '' : t(answer.problem === 'unavailable' ? 'watching.needsServer' : 'views.failed');
    if (!answer.ok) return;
    const games = Array.isArray(answer.data.live) ? answer.data.live : [];
    live.replaceChildren(...games.map(liveRow));
    none.hidden = games.length > 0;
    top.disabled = games.length === 0;
    recent.replaceChildren(...(Array.isArray(answer.data.recent) ? answer.data.recent : []).map(recentRow));
    recentHead.hidden = recent.childElementCount === 0;
  };
  const loadSetting = async () => {
    const me = controller.account.me();
    setting.hidden = !me;
    if (!me) return;
    const answer = await getApi('me/settings', signal);
    if (answer.ok) /** @type {HTMLInputElement} */ (mine).checked = !answer.data.hideGames;
  };
  mine.addEventListener('change', () => {
    const me = controller.account.me();
    const show = /** @type {HTMLInputElement} */ (mine).checked;
    void api('POST', 'me/settings', { csrf: me?.csrf, body: { hideGames: !show } }).catch(() => {
      /** @type {HTMLInputElement} */ (mine).checked = !show;
    });
  });
  const every = window.setInterval(() => {
    if (document.visibilityState === 'visible') void load().catch(quiet);
  }, WATCH_EVERY_MS);
  signal.addEventListener('abort', () => window.clearInterval(every));
  const quiet = (error) => {
    if (!signal.aborted) throw error;
  };
  void load().catch(quiet);
  void loadSetting().catch(quiet);
}
