// @ts-check
// The Play view (`#/play`), one tap from the game screen (the top bar's
// Play): who plays here (the name, linking to the profile, and the
// account's button), their ratings in each performance they have played,
// Play now (playnow.js: the pools and their counts, the seek's wait,
// Cancel, the engine's offer), the player's games in play on any device
// (ongoing.js): "Your move" first, each with Play, then those waiting for
// the opponent with the online games this browser holds a seat in
// (running.js), each with Return; and the ways on: the leaderboards and
// a friend by link (the Online tab). A pairing that seats the player in a
// game closes the view by itself: the game is on the board. While a seek
// waits with the view closed, the status box offers its actions
// (seekstatus.js).
//
// Test hooks: the root `[data-view="play"]`, `[data-my-ratings]`, the
// "Your move" list `[data-your-move]` of `[data-game="ROOM"]` rows; every
// running game's row (those too) `[data-running-game="ROOM"]` with its
// `[data-action="return-running"]`.

import { t } from './i18n.js';
import { el } from './dom.js';
import { getApi, playerPath, leaderboardHash, PLAY_HASH, WATCH_HASH } from './api.js';
import { ratingsTable } from './profile.js';
import { runningGames } from './running.js';
import { DEFAULT_PERF } from './leaderboard.js';
import { dateText } from './ratings.js';
import { initSeekStatus } from './seekstatus.js';
import { daysClockText, timingLabel } from './timecontrol.js';

/**
 * @typedef {{ node: HTMLElement, who: HTMLElement, render: () => void }} PlayNow
 * @typedef {{ show: (name: string, options?: {focus?: boolean}) => void }} Tabs
 */

/**
 * The end card's New opponent, after an online game: out of its room
 * first, as Play now is not offered while in one (the game is over, so
 * leaving gives nothing up: onlinepanel.js's `leavingResigns`), then the
 * Play view, its Play now shown.
 * @param {Controller} controller
 */
export function newOpponent(controller) {
  controller.onlineLeave();
  location.hash = PLAY_HASH;
}

/**
 * Adds the Play view to `views` (views.js's router) and the seek's
 * actions to the status box. `playNow` is the Online tab's Play now
 * (onlinepanel.js makes it and keeps it drawn); `home` is where its row of
 * the name goes back to when the view closes; `tabs` the panel's.
 * @param {{ route: (prefix: string, render: (view: import('./views.js').View) => void) => void, open: (hash: string) => void }} views
 * @param {Controller} controller
 * @param {{ playNow: PlayNow, home: HTMLElement, tabs: Tabs, ongoing: import('./ongoing.js').Ongoing }} parts
 */
export function initPlay(views, controller, { playNow, home, tabs, ongoing }) {
  views.route(PLAY_HASH, (view) => renderPlay(view, { controller, playNow, home, tabs, ongoing }));
  initSeekStatus(controller, { openPlay: () => views.open(PLAY_HASH) });
}

/** The label key of each game, as the lists name it. */
const PLAY_GAMES = { ultimate: 'playnow.ultimate', tiebreak: 'playnow.tiebreak', classic: 'playnow.classic' };

/** What the view says when the API cannot answer. */
function problemText(problem) {
  if (problem === 'unavailable') return t('play.needsServer');
  if (problem === 'offline') return t('play.offline');
  return t('views.failed');
}

/**
 * Fills `view` with the Play view.
 * @param {import('./views.js').View} view
 * @param {{ controller: Controller, playNow: PlayNow, home: HTMLElement, tabs: Tabs, ongoing: import('./ongoing.js').Ongoing }} parts
 */
function renderPlay(view, { controller, playNow, home, tabs, ongoing }) {
  const { root, signal } = view;
  root.dataset.view = 'play';
  view.setTitle(t('play.title'));

  const problem = el('p', { class: 'view-status', role: 'status' });
  const ratingsHead = el('h3', { text: t('play.ratings') });
  const ratings = el('div', { class: 'play-ratings', 'data-my-ratings': '' });
  const yourMove = el('ul', { class: 'play-running', 'data-your-move': '' });
  const yourMoveHead = el('h3', { id: 'play-your-move-head' });
  const yourMovePart = el('section', { class: 'play-running-part', 'aria-labelledby': 'play-your-move-head' }, yourMoveHead, yourMove);
  const running = el('ul', { class: 'play-running' });
  // The games in progress come before Play now, where they are seen first; none, nothing is said.
  const runningPart = el('section', { class: 'play-running-part', 'aria-labelledby': 'play-running-head' }, el('h3', { id: 'play-running-head', text: t('play.running') }), running);
  // While a game of this page is on, Play now has nothing to offer (one game at a time): this says why.
  const inGame = el('p', { class: 'play-in-game', text: t('play.inGame') });
  const pool = el('div', { class: 'play-now' }, playNow.node);
  const friend = el('button', { type: 'button', class: 'btn', 'data-action': 'play-friend', text: t('play.friend') });
  const links = el(
    'p',
    { class: 'play-links' },
    el('a', { class: 'btn', href: leaderboardHash(DEFAULT_PERF), 'data-action': 'open-leaderboards', text: t('views.leaderboards') }),
    el('a', { class: 'btn', href: WATCH_HASH, 'data-action': 'open-watch', text: t('watching.title') }),
    friend,
  );
  const content = el(
    'div',
    { class: 'play-content' },
    playNow.who,
    ratingsHead,
    ratings,
    yourMovePart,
    runningPart,
    inGame,
    pool,
    el('h3', { text: t('play.more') }),
    links,
  );
  root.replaceChildren(problem, content);
  // The name's row is on the page once: back to the Online tab when the view goes.
  signal.addEventListener('abort', () => home.prepend(playNow.who));
  playNow.render();

  /** Set once the view asked to close: later changes must not go back in the history again. */
  let closing = false;
  const close = () => {
    if (closing) return Promise.resolve();
    closing = true;
    return view.close();
  };

  /** The player's ratings (GET /api/players/{me}); without a name, whether there is a server to play on. */
  const load = async () => {
    const name = controller.account.me()?.name ?? '';
    ratingsHead.hidden = !name;
    ratings.hidden = !name;
    const answer = await getApi(name ? `players/${playerPath(name)}` : 'pools', signal);
    if (signal.aborted) return;
    const unreachable = !answer.ok && (answer.problem === 'unavailable' || answer.problem === 'offline');
    problem.textContent = unreachable ? problemText(answer.problem) : '';
    if (unreachable) problem.dataset.problem = answer.problem;
    else delete problem.dataset.problem;
    content.hidden = unreachable;
    if (!name) return;
    if (!answer.ok) {
      ratings.replaceChildren(el('p', { class: 'hint', text: problemText(answer.problem) }));
      return;
    }
    const perfs = answer.data.perfs ?? {};
    ratings.replaceChildren(
      Object.keys(perfs).length > 0 ? ratingsTable(perfs) : el('p', { class: 'hint', text: t('play.noRatings') }),
    );
  };

  const drawRunning = () => {
    const { code, inSession, seek, challenge } = controller.onlineRoom();
    // A seek or a challenge waiting is a session with no game yet: Play now shows it.
    inGame.hidden = !inSession || Boolean(seek) || Boolean(challenge);
    pool.hidden = !inGame.hidden;
    const onBoard = (room) => inSession && code === room;
    const listed = ongoing.games();
    const mine = listed.filter((g) => g.yourMove);
    yourMoveHead.textContent = t('play.yourMove', { count: mine.length });
    yourMove.replaceChildren(...mine.map((game) => ongoingRow(game, onBoard(game.room))));
    yourMovePart.hidden = mine.length === 0;
    // This browser's own notes of its seats, but for the games the server listed.
    const local = runningGames().filter((game) => !listed.some((g) => g.room === game.room));
    running.replaceChildren(
      ...listed.filter((g) => !g.yourMove).map((game) => ongoingRow(game, onBoard(game.room))),
      ...local.map((game) => runningRow(game, onBoard(game.room))),
    );
    runningPart.hidden = running.childElementCount === 0;
  };

  /** The button that takes the player to `room`'s game, or back to the board. */
  const goButton = (room, label, onBoard) => {
    const go = el('button', { type: 'button', class: 'btn primary', 'data-action': 'return-running', 'data-room': room, text: t(onBoard ? 'play.onBoard' : label) });
    go.addEventListener('click', () => {
      void close().then(() => {
        if (onBoard) return;
        tabs.show('online');
        controller.onlineJoin(room);
      });
    });
    return go;
  };

  /** One of the player's games as the server lists it: the opponent, the game, its timing, the time left to move. */
  const ongoingRow = (game, onBoard) => {
    const who = t('play.asAgainst', { side: game.side.toUpperCase(), name: game.opponent ?? t('play.guest') });
    const what = [who, t(PLAY_GAMES[game.rules === 'tiebreak' ? 'tiebreak' : game.kind]), timingLabel(game)].join(' · ');
    const left = game.deadline !== null ? t('play.timeLeft', { time: daysClockText(game.deadline - Date.now()) }) : '';
    return el(
      'li',
      { class: 'play-running-game', 'data-game': game.room, 'data-running-game': game.room },
      el('p', {}, el('span', { class: 'play-running-what', text: what }), ' ', el('span', { class: 'hint', text: left })),
      goButton(game.room, game.yourMove ? 'play.play' : 'play.return', onBoard),
    );
  };

  /** One running game this browser noted: the side played, when it was last seen, and the way back to it. */
  const runningRow = (game, onBoard) => {
    const what = game.side ? t('play.runningAs', { side: game.side.toUpperCase() }) : t('play.runningGame');
    return el(
      'li',
      { class: 'play-running-game', 'data-running-game': game.room },
      el('p', {}, el('span', { class: 'play-running-what', text: what }), ' ', el('span', { class: 'hint', text: t('play.seen', { date: dateText(game.since, true) }) })),
      goButton(game.room, 'play.return', onBoard),
    );
  };

  // Taking the engine's offer starts a game on the board: the view gives way to it.
  playNow.node.addEventListener(
    'click',
    (event) => {
      if (/** @type {HTMLElement} */ (event.target).closest('[data-action="play-bot"]')) void close();
    },
    { signal },
  );
  friend.addEventListener('click', () => {
    void close().then(() => tabs.show('online', { focus: true }));
  });

  // A pairing (or any room entered from here) puts its game on the board:
  // the view gives way to it.
  const openedIn = controller.onlineRoom().code;
  const stop = controller.subscribe((change) => {
    if (!('game' in change)) return;
    const { code } = controller.onlineRoom();
    if (code && code !== openedIn) void close();
    else drawRunning();
  });
  const forget = controller.account.onMe(() => {
    void load().catch(quiet);
  });
  const forgetOngoing = ongoing.onChange(drawRunning);
  const quiet = (error) => {
    if (!signal.aborted) throw error;
  };
  signal.addEventListener('abort', () => {
    stop();
    forget();
    forgetOngoing();
  });
  window.addEventListener('storage', drawRunning, { signal });
  drawRunning();
  void ongoing.refresh();
  void load().catch(quiet);
}
