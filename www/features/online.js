// @ts-check
// Online play, the page's side: the server's game replaces the local one,
// which stays saved and comes back on leaving. Moves go to the server
// (after the core has checked them here) and the board follows the room
// state the server sends; no AI plays, nothing is undone, and a finished
// game enters the history as mode 'online'. onlinepanel.js holds the
// connection and calls enter, connection, joined, state, refused and leave.

import { WebGame } from '../wasm.js';
import { t } from '../i18n.js';
import { refusalOn } from './play.js';

/**
 * Online play in `state` (the controller's; `online` is this feature's to
 * change). What it needs of the controller: `announce(cause, options)`,
 * `notify(text, tone)` and `clearNotice()`; `stopAi()`, `endPuzzle()`;
 * `record(result)` (into the history), `dropStaleReview()`, `startReview()`;
 * `restore()` (the local game as saved), `commit(cause)` and `jump(ply)`.
 * @param {{
 *   state: any,
 *   announce: (cause: GameCause, options?: { forward?: boolean, played?: boolean, ended?: boolean }) => void,
 *   notify: (text: string, tone?: string) => void,
 *   clearNotice: () => void,
 *   stopAi: () => void,
 *   endPuzzle: () => void,
 *   record: (result: string) => void,
 *   dropStaleReview: () => void,
 *   startReview: () => void,
 *   restore: () => any,
 *   commit: (cause: GameCause) => void,
 *   jump: (ply: number) => void,
 * }} deps
 */
export function createOnline(deps) {
  const { state, announce, notify, clearNotice, stopAi, endPuzzle, record, dropStaleReview, startReview, restore, commit, jump } = deps;

  /** Online: whether this page's player may move now (the server checks again). */
  function onlineCanMove() {
    const rs = state.online.roomState;
    return Boolean(
      rs && state.online.side && state.online.connection === 'open' && rs.result === null &&
        rs.x !== 'empty' && rs.o !== 'empty' && rs.toMove === state.online.side,
    );
  }

  /** Online: checks the move with the core, then sends it; the board moves when the server says so. */
  function playOnline(board, cell, refuse) {
    const { online, view } = state;
    const rs = online.roomState;
    if (!rs || online.connection !== 'open') return refuse('onlineOffline');
    if (!online.side) return refuse('onlineWatching');
    if (rs.result) return refuse('game-over');
    if (rs.x === 'empty' || rs.o === 'empty') return refuse('onlineAlone');
    if (rs.toMove !== online.side) return refuse('onlineTheirTurn');
    if (view.ply < view.length) {
      jump(view.length);
      return refuse('changed');
    }
    const error = refusalOn(rs.record, view.length, board, cell);
    if (error) return refuse(error.code ?? 'other', error);
    clearNotice();
    online.send({ type: 'move', ply: view.length, board, cell });
    return { ok: true };
  }

  /**
   * Enters online play: `send(message)` reaches the server. The local game
   * stays saved; the board shows the room's game from the first state on.
   */
  function onlineEnter(send) {
    stopAi();
    clearNotice();
    if (state.puzzle) endPuzzle();
    state.online = {
      connection: 'connecting',
      room: null,
      role: null,
      side: null,
      roomState: null,
      send,
      recorded: new Set(),
      inPlay: new Set(),
    };
    announce('online');
  }

  /** The connection's status: 'connecting' | 'open' | 'reconnecting' | 'unavailable'. */
  function onlineConnection(connection) {
    if (!state.online) return;
    state.online.connection = connection;
    announce('online');
  }

  /** The server placed this page in `room` as `role` ('seat0' | 'seat1' | 'spectator'). */
  function onlineJoined(room, role) {
    if (!state.online) return;
    Object.assign(state.online, { room, role });
    announce('online');
  }

  /** A room state from the server: the board follows it. */
  function onlineState(roomState) {
    const { online } = state;
    if (!online) return;
    const seat = { seat0: 0, seat1: 1 }[online.role];
    online.side = seat === undefined ? null : seat === roomState.xSeat ? 'x' : 'o';
    online.roomState = roomState;
    const before = state.game && { id: state.gameId, record: state.game.record(), length: state.view.length };
    const game = WebGame.fromText(roomState.record);
    if (state.game) state.game.free();
    state.game = game;
    state.gameId = `online-${roomState.room}-${roomState.gameNumber}`;
    state.view = game.view();
    // A refusal shown earlier is about a position that has passed.
    clearNotice();
    const key = state.gameId;
    const finishedNow = roomState.result !== null && !online.recorded.has(key);
    if (finishedNow) {
      online.recorded.add(key);
      // The history keeps one entry per id, so a game seen ending again
      // after a reload is not counted twice.
      if (online.side) record(roomState.result.winner ?? 'draw');
    }
    if (roomState.result === null) online.inPlay.add(key);
    // A move is told as played when the room's game is the one shown with one
    // more move; the end card is for a game seen being played, not one found finished.
    const played = Boolean(before) && before.id === state.gameId && onlineOneMoreMove(before, game);
    announce('online', { forward: played, played, ended: finishedNow && online.inPlay.has(key) });
    dropStaleReview();
    if (finishedNow && online.inPlay.has(key)) startReview();
  }

  /** Whether `game` (the room's, shown at its end) is the game `before` showed at its end with one more move. */
  function onlineOneMoreMove(before, game) {
    const now = game.record();
    return Boolean(before.record && now) && state.view.length === before.length + 1 && now.startsWith(before.record);
  }

  /** A frame the server refused: shown in the status line. */
  function onlineRefused(message) {
    if (!state.online) return;
    notify(t('online.refused', { error: message }), 'warn');
  }

  /** Leaves online play: the local game comes back as it was saved. */
  function onlineLeave() {
    if (!state.online) return;
    state.online = null;
    const local = restore();
    if (state.game) state.game.free();
    state.game = local;
    clearNotice();
    commit('online');
  }

  /** Whether the page is in an online room. */
  function isOnline() {
    return state.online !== null;
  }

  return {
    canMove: onlineCanMove,
    play: playOnline,
    enter: onlineEnter,
    connection: onlineConnection,
    joined: onlineJoined,
    state: onlineState,
    refused: onlineRefused,
    leave: onlineLeave,
    isOnline,
  };
}
