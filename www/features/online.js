// @ts-check
// Online play, the page's side: one session with the server (online.js's
// OnlineSession) and the room it is in. The server's game replaces the
// local one, which stays saved and comes back on leaving. Moves go to the
// server (after the core has checked them here) and the board follows the
// room states the server sends; no AI plays, nothing is undone, and a
// finished game enters the archive as mode 'online'. The Online pane
// (onlinepanel.js) renders `room()` and calls the actions.

import { t } from '../i18n.js';
import { WebGame } from '../wasm.js';
import { refusalOf } from './play.js';
import { awaits, phaseOf, sideOf } from './room.js';
import { createSeek } from './seek.js';
import { createChallenge } from './challenge.js';
import { noteRoom } from '../running.js';
import { createChat } from './chat.js';
import { createConditional } from './conditional.js';
/** The server's refusals a player may meet, by code; any other is said in general terms. */
const REFUSALS = new Set(['no-such-room', 'server-full', 'rate-limited', 'not-your-turn', 'stale-move', 'game-over', 'no-opponent',
  'no-such-player', 'own-challenge', 'not-for-you', 'too-many-challenges', 'no-such-challenge', 'challenge-withdrawn', 'challenge-expired', 'challenge-taken', 'challenge-declined',
  'bad-conditional']);

/**
 * The string key that says refusal `{code, message}` in the player's language.
 * @param {{code?: string}} refusal
 */
function refusalKey(refusal) {
  return REFUSALS.has(refusal?.code) ? `online.err.${refusal.code}` : 'online.err.other';
}

/**
 * @typedef {{
 *   connection: string,
 *   room: string | null,
 *   role: import('../protocol').Role | null,
 *   side: import('../protocol').Side | null,
 *   roomState: import('../protocol').RoomState | null,
 *   receivedAt: number,
 *   recorded: Set<string>,
 *   inPlay: Set<string>,
 *   seek: import('./seek.js').Seek | null,
 *   challenge: import('./challenge.js').Challenge | null,
 *   chat: import('../protocol').ChatLine[],
 *   conditional: import('../protocol').Point[][],
 * }} OnlineState
 */

/**
 * Online play in `state` (the controller's; `online` is this feature's to
 * change: an OnlineState while in a session, else null). `connect(on)`
 * opens a session (an OnlineSession with the listeners `on`). What it needs
 * of the controller: `announce(cause, options)`, `notify(text, tone)` and
 * `clearNotice()`; `stopAi()`, `endPuzzle()`; `record(result)` (into the
 * archive), `dropStaleReview()`, `startReview()`; `restore()` (the local
 * game as saved), `commit(cause)` and `jump(ply)`; `signIn()`, the
 * session a first online action makes (api.js's ensureSession);
 * `roomChanged(cause)`, told when the room's chat has new lines ('chat')
 * or the seat's conditional moves changed ('conditional').
 * @param {{
 *   state: any,
 *   connect: (on: any) => import('../online.js').OnlineSession,
 *   signIn: () => Promise<import('../api.js').Answer>,
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
 *   roomChanged: (cause: 'chat' | 'conditional') => void,
 * }} deps
 */
export function createOnline(deps) {
  const { state, connect, signIn, announce, notify, clearNotice, stopAi, endPuzzle, record, dropStaleReview, startReview, restore, commit, jump, roomChanged } = deps;
  /** @type {import('../online.js').OnlineSession | null} */
  let session = null;
  /** The string key of why the last attempt to create or join failed, or null. */
  let problem = null;
  /** True when the last attempt never reached a server. */
  let unavailable = false;

  /** Whether this page's player may move now (the server checks again). */
  function canMove() {
    const { online } = state;
    return Boolean(online?.roomState) && online.connection === 'open' && awaits(online.roomState, online.side);
  }

  /** Checks the move with the core, then sends it; the board moves when the server says so. */
  function play(board, cell, refuse) {
    const { online, view } = state;
    const rs = online.roomState;
    if (!rs || online.connection !== 'open') return refuse('onlineOffline');
    if (!online.side) return refuse('onlineWatching');
    // These say why it is not this side's turn; awaits is the rule.
    if (rs.result) return refuse('game-over');
    if (rs.x === 'empty' || rs.o === 'empty') return refuse('onlineAlone');
    if (!awaits(rs, online.side)) return refuse('onlineTheirTurn');
    if (view.ply < view.length) {
      jump(view.length);
      return refuse('changed');
    }
    const error = refusalOf(state.game, board, cell);
    if (error) return refuse(error.code ?? 'other', error);
    clearNotice();
    send({ type: 'move', ply: view.length, board, cell });
    return { ok: true };
  }

  /**
   * Sends `message` to the server; false when not connected.
   * @param {import('../protocol').ClientMessage} message
   */
  function send(message) {
    return session?.send(message) ?? false;
  }
  /** The room's chat (features/chat.js): its lines live in `state.online.chat`. */
  const chat = createChat({ state, send, changed: () => roomChanged('chat') });
  /** This seat's conditional moves (features/conditional.js): in `state.online.conditional`. */
  const conditional = createConditional({ state, send, changed: () => roomChanged('conditional') });


  /**
   * Opens a room with `options` (see docs/protocol.md) and enters it, as
   * the player this browser's session holds (made now if it has none; a
   * server without the API plays as a guest, in unrated rooms).
   */
  async function create(options) {
    await signIn();
    begin((s) => s.create(options));
  }

  /** Enters room `code`, back into this browser's seat if it holds one (signed in as `create` is). */
  async function join(code) {
    await signIn();
    begin((s) => s.join(code));
  }

  /** No player could be signed in for a seek or a challenge: no server behind this site, or it refused a new player. */
  function refused(signed) {
    unavailable = signed.status === 0;
    problem = unavailable ? null : refusalKey({ code: signed.error });
    announce('online');
  }

  /** A seek or a challenge ended without a game: the session closes, the local game comes back. */
  function end() {
    session?.close();
    session = null;
    backToLocal();
  }

  /** Play now (features/seek.js): the seek of this page's session. */
  const seeking = createSeek({ state, signIn, announce, begin, send, refused, end });

  /** Challenges (features/challenge.js): as a seek, in this page's session. */
  const challenging = createChallenge({
    state,
    signIn,
    announce,
    begin,
    send,
    refused,
    end,
    connect,
    told: (reason) => notify(t(`challenge.ended.${reason}`), 'warn'),
  });

  /**
   * Starts a session in place of any other and opens it with `open(session)`.
   * The local game stays saved; the board shows the room's game from the
   * first state on.
   */
  function begin(open) {
    session?.close();
    problem = null;
    unavailable = false;
    stopAi();
    clearNotice();
    if (state.puzzle) endPuzzle();
    /** @type {OnlineState} */
    const online = { connection: 'connecting', room: null, role: null, side: null, roomState: null, receivedAt: 0, recorded: new Set(), inPlay: new Set(), seek: null, challenge: null, chat: [], conditional: [] };
    state.online = online;
    const mine = connect(listeners(() => session === mine));
    session = mine;
    open(mine);
    announce('online');
  }

  /** The session's listeners; `current()` is false once another session took its place. */
  function listeners(current) {
    return {
      joined: (message) => current() && joined(message),
      state: (roomState) => current() && roomStateCame(roomState),
      spectators: (count) => current() && watchersCame(count),
      seeking: (message) => current() && seeking.came(message),
      seekEnded: () => current() && seeking.ended(),
      challenging: (message) => current() && challenging.came(message),
      challengeEnded: (message) => current() && challenging.ended(message),
      chat: (lines, whole) => current() && chat.came(lines, whole),
      conditional: (lines) => current() && conditional.came(lines),
      // Refused before any room was entered (no such room, too many rooms,
      // the server full): nothing to show but the reason.
      error: (message) => {
        if (!current()) return;
        if (state.online?.role === null) giveUp(refusalKey(message));
        else notify(t('online.refused', { error: t(refusalKey(message)) }), 'warn');
      },
      connection: (status) => current() && connectionIs(status),
    };
  }

  /** The connection's status: 'connecting' | 'open' | 'reconnecting' | 'restarting', or the session's end. */
  function connectionIs(status) {
    if (status === 'closed') return;
    if (status === 'refused') {
      giveUp('online.closedByServer');
      return;
    }
    if (status === 'unavailable') {
      // No server behind this site: back to the local game.
      session = null;
      unavailable = true;
      backToLocal();
      return;
    }
    state.online.connection = status;
    announce('online');
  }

  /** The server placed this page in a room as `role` ('seat0' | 'seat1' | 'spectator'). */
  function joined({ room, role }) {
    // A seek's wait is over: this is its pairing.
    seeking.paired();
    challenging.paired();
    Object.assign(state.online, { room, role });
    if (state.online.roomState) state.online.side = sideOf(state.online.roomState, role);
    announce('online');
  }

  /** Only the count of watchers changed: the pane says it, the board stays. */
  function watchersCame(count) {
    const { online } = state;
    if (!online.roomState || !Number.isInteger(count) || count < 0) return;
    online.roomState = { ...online.roomState, spectators: count };
    announce('online');
  }

  /**
   * A room state from the server: the board follows it.
   * @param {import('../protocol').RoomState} roomState
   */
  function roomStateCame(roomState) {
    const { online } = state;
    let game;
    try {
      game = WebGame.fromText(roomState.record);
    } catch {
      // A record the core refuses changes nothing here; the next state may do.
      notify(t('online.refused', { error: t('online.err.other') }), 'warn');
      return;
    }
    const previous = online.roomState;
    online.side = sideOf(roomState, online.role);
    online.roomState = roomState;
    // What running.js lists: this seat's game, running or not.
    if (online.side) noteRoom(roomState.room, { live: roomState.result === null, side: online.side });
    online.receivedAt = performance.now();
    const before = state.game && { id: state.gameId, record: state.game.record(), length: state.view.length };
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
      // The archive keeps one entry per id, so a game seen ending again
      // after a reload is not counted twice.
      if (online.side) record(roomState.result.winner ?? 'draw');
    }
    if (roomState.result === null) online.inPlay.add(key);
    // A move is told as played when the room's game is the one shown with one
    // more move; the end card is for a game seen being played, not one found finished.
    const played = Boolean(before) && before.id === state.gameId && oneMoreMove(before, game);
    announce('online', { forward: played, played, ended: finishedNow && online.inPlay.has(key) });
    dropStaleReview();
    if (finishedNow && online.inPlay.has(key)) startReview();
    const back = cameBack(previous, roomState, online.side);
    if (back) notify(online.side ? t('online.opponentBack') : t('online.playerBack', { player: back.toUpperCase() }), 'info');
  }

  /**
   * The side (not `mine`) whose player was disconnected in `before` and is
   * connected again in `now`, or null: the status line said they were away.
   */
  function cameBack(before, now, mine) {
    if (!before || before.room !== now.room) return null;
    return ['x', 'o'].find((s) => s !== mine && before[s] === 'disconnected' && now[s] === 'connected') ?? null;
  }

  /** Whether `game` (the room's, shown at its end) is the game `before` showed at its end with one more move. */
  function oneMoreMove(before, game) {
    const now = game.record();
    return Boolean(before.record && now) && state.view.length === before.length + 1 && now.startsWith(before.record);
  }

  /**
   * Back to the form and the local game, saying why (the key of a string)
   * in the Online pane and in the status line, where the player looks.
   */
  function giveUp(why) {
    session?.close();
    session = null;
    problem = why;
    if (state.online) backToLocal();
    else announce('online');
    notify(t(why), 'warn');
  }

  /** Leaves the room (a game in play is given up): the local game comes back. */
  function leave() {
    if (!session) return;
    const { online } = state;
    if (online?.room && online.side) noteRoom(online.room, { live: false, side: online.side });
    session.leave();
    session = null;
    backToLocal();
  }

  /** The local game comes back as it was saved. */
  function backToLocal() {
    if (!state.online) return;
    state.online = null;
    // A cancel waiting for its answer has it: no game came.
    seeking.settle(true);
    challenging.settle(true);
    const local = restore();
    if (state.game) state.game.free();
    state.game = local;
    clearNotice();
    commit('online');
  }

  /**
   * What the Online pane shows: `phase` (the page root's
   * `data-online-state`: connecting | seeking | challenging (a challenge
   * waits) | waiting | playing |
   * reconnecting | over, 'unavailable' when no server answered, null when
   * not online),
   * `problem` (the key of why the last attempt failed, or null), and while
   * in a room its code, its state, this page's side and when the state came.
   */
  function room() {
    const { online } = state;
    return {
      phase: unavailable ? 'unavailable' : online?.seek ? 'seeking' : online?.challenge ? 'challenging' : online ? phaseOf(online.roomState, online.connection) : null,
      problem,
      code: online?.room ?? null,
      roomState: online?.roomState ?? null,
      side: online?.side ?? null,
      receivedAt: online?.receivedAt ?? 0,
      inSession: session !== null,
      seek: online?.seek ?? null,
      challenge: online?.challenge ?? null,
      chat: online?.chat ?? [],
      conditional: online?.conditional ?? [],
    };
  }

  return {
    canMove,
    play,
    create,
    join,
    seek: seeking.seek,
    cancelSeek: seeking.cancel,
    challenge: challenging.challenge,
    acceptChallenge: challenging.accept,
    declineChallenge: challenging.decline,
    cancelChallenge: challenging.cancel,
    leave,
    room,
    resign: () => send({ type: 'resign' }),
    offerDraw: () => send({ type: 'offerDraw' }),
    declineDraw: () => send({ type: 'declineDraw' }),
    rematch: () => send({ type: 'rematch' }),
    /** The room's chat: says a preset or typed words, reports a line. */
    chat: { say: chat.say, report: chat.report },
    /** This seat's conditional moves: sets them all. */
    conditional: { set: conditional.set },
    isOnline: () => state.online !== null,
  };
}
