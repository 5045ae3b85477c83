// @ts-check
// The signed-in player's online games in play, on whichever device each
// began (GET /api/me/playing, docs/api.md): the one owner of the list the
// Play view shows ("Your move" first) and of its count, which the tab's
// title (title.js) and the app's icon badge (where the browser has one)
// show. Asked again every ONGOING_EVERY_MS while the tab is visible, when
// it comes back into view, when the signed-in player changes, and soon
// after the page's own online game changes; never without a player.

import { call } from './api.js';

/** How often the list is asked for while the tab is visible. */
const ONGOING_EVERY_MS = 60_000;
/** How long a change of the page's own game waits before the list is asked for (moves come in bursts). */
const SOON_MS = 1500;

/**
 * @typedef {{
 *   room: string, kind: 'ultimate' | 'classic', rules: 'standard' | 'tiebreak',
 *   clock: { initial: number, increment: number } | null, days: number | null,
 *   rated: boolean, side: 'x' | 'o', opponent: string | null, record: string,
 *   ply: number, yourMove: boolean, deadline: number | null,
 * }} OngoingGame
 * @typedef {{
 *   games: () => OngoingGame[],
 *   yourMoves: (except?: string | null) => number,
 *   refresh: () => Promise<void>,
 *   soon: () => void,
 *   onChange: (listener: () => void) => () => void,
 * }} Ongoing
 */

/** Whether `game` is a game as the server lists them (anything else is dropped). */
function valid(game) {
  return (
    game !== null &&
    typeof game === 'object' &&
    typeof game.room === 'string' &&
    (game.side === 'x' || game.side === 'o') &&
    typeof game.yourMove === 'boolean' &&
    typeof game.ply === 'number'
  );
}

/**
 * The games in play of the controller's signed-in player (its account).
 * @param {Controller} controller
 * @returns {Ongoing}
 */
export function createOngoing({ account, subscribe, onlineRoom }) {
  /** @type {OngoingGame[]} */
  let games = [];
  const listeners = new Set();
  let soonTimer = 0;
  /** The request under way: a newer one replaces what it would say. */
  let asked = 0;

  const changed = (next) => {
    const before = JSON.stringify(games);
    games = next;
    if (JSON.stringify(games) === before) return;
    showBadge(yourMoves());
    for (const listener of listeners) listener();
  };
  /** The games waiting for the player's move, but room `except` (the one on the board, which says so itself). */
  const yourMoves = (except = null) => games.filter((g) => g.yourMove && g.room !== except).length;

  async function refresh() {
    const ask = ++asked;
    if (!account.me()) {
      changed([]);
      return;
    }
    // The page's game connection says the server is away (a restart): ask
    // once it is back, not into a refused connection.
    if (onlineRoom().phase === 'reconnecting') {
      soon();
      return;
    }
    const answer = await call('api/me/playing');
    if (ask !== asked) return;
    // A failed answer keeps what was known; a session ended elsewhere empties it.
    if (answer.ok && Array.isArray(answer.body.games)) changed(answer.body.games.filter(valid));
    else if (!answer.ok && answer.status === 401) changed([]);
  }

  const soon = () => {
    window.clearTimeout(soonTimer);
    soonTimer = window.setTimeout(() => void refresh(), SOON_MS);
  };

  window.setInterval(() => {
    if (document.visibilityState === 'visible') void refresh();
  }, ONGOING_EVERY_MS);
  document.addEventListener('visibilitychange', () => {
    if (document.visibilityState === 'visible') void refresh();
  });
  account.onMe(() => void refresh());
  // Whose move it is in the game this page plays online changed (a move,
  // its end): the list is asked for again. Watching asks nothing.
  let seen = '';
  subscribe((change) => {
    if (!('game' in change) || change.cause !== 'online') return;
    const { side, roomState } = onlineRoom();
    const now = side && roomState ? `${roomState.room}:${roomState.toMove}:${roomState.result !== null}` : '';
    if (now !== seen && now) soon();
    seen = now;
  });

  return {
    games: () => games,
    yourMoves,
    refresh,
    soon,
    onChange(listener) {
      listeners.add(listener);
      return () => listeners.delete(listener);
    },
  };
}

/** The app's icon shows `count` (none: no badge), where the browser can. */
function showBadge(count) {
  const nav = /** @type {any} */ (navigator);
  const shown = count > 0 ? nav.setAppBadge?.(count) : nav.clearAppBadge?.();
  // A browser that has the call but refuses it (not installed) says so by rejecting.
  shown?.catch?.(() => {});
}
