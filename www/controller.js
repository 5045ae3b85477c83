// @ts-check
// The game controller: owns the game, the settings and the AI's turns, turns
// clicks and buttons into core calls, asks the worker for AI moves, saves
// after every change, records finished and abandoned games in the history,
// and tells the page what changed: every change goes out once, through
// `subscribe` (the store of store.js), with its cause and what the panes
// need to know of it (the Change type of types.d.ts). A change of the game
// (it carries `game`, getState()) redraws the board and its controls first.

// Variations: a move from an earlier position starts a new line there and
// the later moves stay as another (core's tree, through WebGame); the page
// shows one line at a time, whose record (`record`) is the game for the
// history, the review and the AI, and `tree` holds every line for saving
// and sharing.
//
// Online (onlineEnter ... onlineLeave): the server's game replaces the local
// one, which stays saved and comes back on leaving. Moves go to the server
// (after the core has checked them here) and the board follows the room
// state the server sends; no AI plays, nothing is undone, and a finished
// game enters the history as mode 'online'.

import { WebGame } from './wasm.js';
import * as storage from './storage.js';
import { addGame, attachReview, findGame, finished as finishedEntry, keepLines, loadHistory, scoreCard } from './records.js';
import { packReview, unpackReview } from './reviews.js';
import { describe, refusal, humanSide } from './status.js';
import { t } from './i18n.js';
import { createStore } from './store.js';

/** The least time an AI move takes to appear, so play feels natural. */
export const MIN_AI_MS = 400;

/** The pause before each move of AI vs AI, by speed. */
export const WATCH_DELAY_MS = Object.freeze({ slow: 1400, normal: 600, fast: 0 });

/** How often a save that failed is tried again, while it keeps failing. */
const SAVE_RETRY_MS = 4000;

/** @type {Readonly<Settings>} */
export const DEFAULT_SETTINGS = Object.freeze({
  kind: 'ultimate',
  mode: 'ai-x',
  level: 'medium',
  levelO: 'medium',
  rules: 'standard',
  speed: 'normal',
  ponder: true,
});

const state = {
  /** @type {Settings} */
  settings: { ...DEFAULT_SETTINGS },
  /** @type {{name: string, budgetMs: number}[]} */
  levels: [],
  /** @type {import('./pkg/uttt_page.js').WebGame | null} */
  game: null,
  /** @type {import('./pkg/uttt_page.js').View | null} */
  view: null,
  /** Identifies the game in the history: undo and replay never make a second entry. */
  gameId: '',
  thinking: false,
  notice: null,
  /** AI vs AI only: no new move starts while paused (Step plays one). */
  paused: false,
  /** True once the player chose "Continue from here": the AI moves from an earlier position. */
  live: false,
  /** Whether the shown position is analysed while a person is to move (the bar is shown). */
  liveEval: false,
  /** Whether every legal move's worth is surveyed instead (the overlay is shown). */
  worthOverlay: false,
  /** The position the survey under way is of, or null. */
  surveyed: null,
  /** The survey's last report `{position, cells}` as drawn, or null. */
  worth: null,
  /** The pondering's last report, kept while the AI's move waits to be shown. */
  heldReport: null,
  /**
   * The review of the game on the board (see reviews.js for its fields;
   * status 'running', 'done' or 'stopped'), or null. It belongs to one
   * record: a move that changes the record drops it.
   */
  review: null,
  /**
   * The puzzle being solved, one of the review's (see startPuzzle), or
   * null: `{index, status, tries, answer, from}`: which puzzle, 'open' |
   * 'solved' | 'revealed' for this attempt, the wrong answers so far, the
   * answer's `{board, cell}`, and the ply shown before it started. Its
   * position is on the board; showing another position ends it.
   */
  puzzle: null,
  saveFailed: false,
  /**
   * While in an online room: `{connection, room, role, side, roomState,
   * send, recorded}`; `side` is 'x' | 'o' for a seat's player, null for a
   * spectator; `send(message)` goes to the server; `recorded` and
   * `inPlay` hold the ids of the games already put in the history and of
   * those seen being played.
   */
  online: null,
};

/** @type {import('./ai.js').AiClient | null} */
let ai = null;
/** @type {(question: string, details?: {moves?: number}) => Promise<boolean>} */
let ask = async () => true;
let renderPage = () => {};
let saveTimer = 0;
// Bumped whenever a pending AI answer must be ignored: undo, new game,
// settings, jump, load. An answer is used only if its token is current.
let token = 0;

/** @type {import('./store.js').Store<Change>} */
const store = createStore();

/**
 * Calls `listener(change)` for every later change (see Change in
 * types.d.ts), in the order they happen; returns what stops it.
 */
export const subscribe = store.subscribe;

/** Tells the panes of a change that is not one of the game (an engine report, the history, the review). */
function tell(change) {
  store.commit(change);
}

/**
 * Redraws the board and its controls, then tells the panes that the game
 * changed because of `cause`. `forward`: the board went one move on along
 * its line (played, or stepped over again); `played`: that move is new;
 * `ended`: it ended the game.
 * @param {GameCause} cause
 */
function announce(cause, { forward = false, played = false, ended = false } = {}) {
  renderPage();
  const game = getState();
  const moved = shown.record !== game.record || shown.cursor !== game.cursor;
  shown = { record: game.record, cursor: game.cursor };
  store.commit({ cause, game, moved, step: forward ? lastStep() : null, played, ended });
}

/** The game's line and cursor as last announced: a change says whether it shows another position. */
let shown = { record: /** @type {string | null} */ (null), cursor: -1 };

/**
 * The history of games changed (a game kept, a review attached, or the
 * history cleared in the Stats pane): the score card is redrawn, the panes told.
 */
export function historyChanged() {
  renderPage();
  tell({ cause: 'history' });
}

/**
 * The move the board's cursor last went over, as the panes are told it, or null.
 * @returns {Step | null}
 */
function lastStep() {
  const { view } = state;
  if (view.ply === 0 || view.lastBoard == null || view.lastCell == null) return null;
  const status = view.kind === 'ultimate' ? view.boardStatus[view.lastBoard] : 0;
  return {
    board: view.lastBoard,
    cell: view.lastCell,
    side: /** @type {Side} */ (view.sideToMove === 'x' ? 'o' : 'x'),
    notation: view.moves[view.ply - 1],
    decided: /** @type {Step['decided']} */ (status === 1 ? 'x' : status === 2 ? 'o' : status === 3 ? 'draw' : null),
  };
}

function newGameId() {
  const words = new Uint32Array(2);
  crypto.getRandomValues(words);
  return `${Date.now().toString(36)}-${words[0].toString(36)}${words[1].toString(36)}`;
}

/** The level that plays `side` ('x' | 'o') in the current settings. */
function levelOf(side) {
  const { mode, level, levelO } = state.settings;
  return mode === 'watch' && side === 'o' ? levelO : level;
}

/**
 * The game as the panes read it.
 * @returns {GameState}
 */
export function getState() {
  const { settings, view, online } = state;
  const human = online ? online.side : humanSide(settings.mode);
  const ended = online?.roomState?.result ?? null;
  return {
    kind: view.kind,
    rules: view.rules,
    mode: /** @type {GameState['mode']} */ (online ? 'online' : human ? 'ai' : settings.mode),
    level: settings.level,
    levelO: settings.levelO,
    humanSide: human,
    record: state.game.record() ?? null,
    tree: state.game.treeRecord() ?? null,
    node: view.node,
    lineEnd: view.lineEnd,
    sideLines: view.sideLines,
    position: state.game.positionString(),
    cursor: view.ply,
    length: view.length,
    moves: view.moves.slice(),
    toMove: view.sideToMove,
    over: online ? ended !== null : view.outcome !== null,
    result: online ? ended && (ended.winner ?? 'draw') : view.outcome,
    winLine: view.kind === 'ultimate' ? view.bigLine.slice() : view.boardLines.slice(0, 3).filter((c) => c !== 255),
    wonCounts: view.wonCounts.slice(),
    thinking: state.thinking,
    paused: state.paused,
    gameId: state.gameId,
    puzzle: state.puzzle?.status ?? null,
  };
}

/** Whether "Continue from here" applies: an earlier position of an AI game where the AI is to move. */
function canContinue() {
  const { view } = state;
  return view.ply < view.length && view.outcome === null && isAiTurn() && !state.live && !state.puzzle;
}

/** What the page needs to draw, beyond the view. */
export function pageState() {
  const status = state.notice ?? puzzleStatus() ?? describe(state.view, state);
  const { online, puzzle } = state;
  return {
    view: state.view,
    settings: state.settings,
    thinking: state.thinking,
    paused: state.paused,
    status,
    scores: scoreCard(loadHistory().games, state.settings),
    canUndo: undoSteps() > 0,
    canRedo: redoSteps() > 0,
    canContinue: canContinue(),
    interactive: online ? onlineCanMove() : puzzle ? puzzle.status === 'open' : !state.thinking && !isAiTurn(),
    levels: state.levels,
    online: online && { side: online.side, roomState: online.roomState, connection: online.connection },
  };
}

/** Online: whether this page's player may move now (the server checks again). */
function onlineCanMove() {
  const rs = state.online.roomState;
  return Boolean(
    rs && state.online.side && state.online.connection === 'open' && rs.result === null &&
      rs.x !== 'empty' && rs.o !== 'empty' && rs.toMove === state.online.side,
  );
}

function isAiTurn() {
  if (state.online) return false;
  const { mode } = state.settings;
  if (mode === 'watch') return true;
  const human = humanSide(mode);
  return human !== null && state.view.sideToMove !== human;
}

function budgetFor(level) {
  const found = state.levels.find((l) => l.name === level);
  return found ? found.budgetMs : 1000;
}

/**
 * Saves the game. A refused write (storage full) is told at once; the game
 * stays in memory and the save is tried again on every change and every few
 * seconds until it goes through.
 */
function persist() {
  // An online game is the server's to keep; the local game stays as saved.
  if (state.online) return;
  const record = state.game.treeRecord();
  const data = record
    ? { record, cursor: state.view.ply, line: state.view.lineEnd, id: state.gameId }
    : { position: state.game.positionString(), id: state.gameId };
  const saved = storage.saveGame(data);
  clearTimeout(saveTimer);
  if (saved) {
    if (state.saveFailed) {
      state.saveFailed = false;
      if (state.notice?.key === 'storage.saveFailed') state.notice = { text: t('storage.saved'), tone: 'info' };
    }
    return;
  }
  // A browser that refuses storage altogether was told about once, at start.
  if (!storage.storageAvailable()) return;
  state.saveFailed = true;
  state.notice = { text: t('storage.saveFailed'), tone: 'error', key: 'storage.saveFailed' };
  saveTimer = setTimeout(retrySave, SAVE_RETRY_MS);
}

function retrySave() {
  if (!state.saveFailed) return;
  persist();
  announce('notice');
}

/** The entry of the history for the game on the board, with `result`. */
function historyEntry(result) {
  const { settings, online } = state;
  if (online) {
    const { options } = online.roomState;
    return {
      id: state.gameId,
      kind: options.kind,
      rules: options.kind === 'classic' ? 'standard' : options.rules,
      mode: 'online',
      level: null,
      levelO: null,
      side: online.side,
      result,
      record: state.game.record(),
    };
  }
  const human = humanSide(settings.mode);
  const mode = human ? 'ai' : settings.mode;
  // The game's other lines go with it (the line that ended is the one shown).
  const tree = state.game.treeRecord();
  return {
    ...(tree ? { tree, line: state.view.lineEnd } : {}),
    id: state.gameId,
    kind: settings.kind,
    rules: settings.kind === 'classic' ? 'standard' : settings.rules,
    mode,
    level: mode === 'human' ? null : settings.level,
    levelO: mode === 'watch' ? settings.levelO : null,
    side: human,
    result,
    record: state.game.record(),
  };
}

function recordInHistory(result) {
  if (!state.game.record()) return;
  if (addGame(historyEntry(result))) historyChanged();
}

/**
 * The game on the board is about to be replaced: if it has moves and never
 * finished, it goes into the history as unfinished, so it can be replayed.
 */
function setAsideCurrentGame() {
  if (!state.game || state.view.length === 0) return;
  const known = findGame(state.gameId);
  if (!known) {
    recordInHistory('unfinished');
    return;
  }
  // A finished game keeps the lines tried after it ended.
  if (state.online) return;
  const line = state.game.lineOf(known.record);
  if (line !== undefined && keepLines(known.id, state.game.treeRecord(), line)) historyChanged();
}

/**
 * Re-reads the view, saves, and announces `cause` (`played`: a new move
 * took the board one on; `forward`: a move was stepped over again); starts
 * the AI if it is its turn.
 * @param {GameCause} cause
 */
function commit(cause, { played = false, forward = played } = {}) {
  state.view = state.game.view();
  persist();
  const finished = played && state.view.outcome !== null;
  if (finished) recordInHistory(state.view.outcome);
  dropStaleReview();
  if (state.puzzle && !puzzleShown()) setPuzzle(null);
  announce(cause, { forward, played, ended: finished });
  maybeStartAi();
  if (finished) reviewGame();
  maybeAnalyse();
}

/**
 * How long the live evaluation may search one position of a person's think
 * when nobody asked it to: the cap that keeps the bar from spending a whole
 * core (and a phone's battery) for as long as a person thinks. Five seconds
 * takes the analyst well past the depths where the chances shown still move
 * much (on a laptop its depth reports come every fraction of a second up to
 * the mid-teens; each depth after costs about twice the one before), and is
 * short next to a person's think. "Keep analysing" (keepAnalysing) lifts it
 * for the position shown; the worth overlay, which the player turns on to
 * see it, has none. Only the time the analysis actually runs counts: a
 * hidden tab, another pane or a bar scrolled away pause it.
 */
export const LIVE_EVAL_CAP_MS = 5000;

/**
 * The live evaluation's account of the shown position: which position,
 * how long it has been analysed (spentMs, plus since: when the running
 * stretch began, or null), its cap timer, whether it stopped at the cap,
 * and whether the player asked it to run on without one.
 */
const live = { position: null, spentMs: 0, since: null, timer: 0, capped: false, unlimited: false };

/** Says whether the live evaluation of the shown position stands at its cap. */
function setCapped(capped) {
  if (live.capped === capped) return;
  live.capped = capped;
  tell({ cause: 'eval-capped', capped });
}

/** Pauses the cap's clock: the analysis is not running now. */
function pauseLive() {
  clearTimeout(live.timer);
  live.timer = 0;
  if (live.since === null) return;
  live.spentMs += performance.now() - live.since;
  live.since = null;
}

/** A new position on the board starts a new account, with the whole cap. */
function liveFor(position) {
  if (live.position === position) return;
  pauseLive();
  Object.assign(live, { position, spentMs: 0, unlimited: false });
  setCapped(false);
}

/** The analysis of the shown position runs: the cap's clock runs too, unless the player lifted it. */
function runLive() {
  if (live.since !== null || live.unlimited) return;
  live.since = performance.now();
  live.timer = setTimeout(() => {
    pauseLive();
    setCapped(true);
    // Not wanted any more: maybeAnalyse stops the worker.
    maybeAnalyse();
  }, Math.max(0, LIVE_EVAL_CAP_MS - live.spentMs));
}

/**
 * Lets the live evaluation of the shown position run on without its cap
 * (the bar's "Keep analysing"), until another position is shown.
 */
export function keepAnalysing() {
  if (!state.game) return;
  liveFor(state.game.positionString());
  pauseLive();
  live.unlimited = true;
  setCapped(false);
  maybeAnalyse();
}

/** True when the live evaluation of the shown position stopped at its cap. */
export function evaluationCapped() {
  return live.capped;
}

/** The last record found to end in a finished position, or not: `{record, over}`. */
let lineEnd = { record: null, over: false };

/**
 * True when the line on the board ends in a finished position (the core's
 * view at the end of its record says so), wherever the cursor is.
 */
function lineOver() {
  if (state.view.outcome !== null) return true;
  if (state.view.ply === state.view.length) return false;
  const record = state.game.record();
  if (lineEnd.record !== record) {
    let end = null;
    try {
      end = WebGame.fromText(record);
      lineEnd = { record, over: end.view().outcome !== null };
    } catch {
      lineEnd = { record, over: false };
    } finally {
      if (end) end.free();
    }
  }
  return lineEnd.over;
}

/**
 * True while the game on the board is one against the AI still being
 * played: the evaluation bar then keeps the engine's numbers, best line and
 * depth to itself at every position of it (looking back too: they would
 * give the next moves away). False once the game is over (the history holds
 * it as finished, or its line ends in a finished position), in two-player
 * games and AI against AI, and online (whose bar shows no evaluation).
 */
export function evaluationQuiet() {
  const { mode } = state.settings;
  if (!state.game || state.online || (mode !== 'ai-x' && mode !== 'ai-o')) return false;
  const known = findGame(state.gameId);
  return !(known && finishedEntry(known)) && !lineOver();
}

/**
 * True when the shown position should be analysed: the bar is shown and
 * on screen (see setLiveEval) and has not reached its cap, or the worth
 * overlay is on; the tab is visible, the AI is not searching, the position
 * is not over, and a person is to move in it (or is looking back at an
 * earlier one). Never online, where it would help one player against the
 * other, nor in AI against AI, whose own searches are on the bar.
 */
function wantsAnalysis() {
  const { mode } = state.settings;
  const bar = state.liveEval && !live.capped;
  if (!ai || !(bar || state.worthOverlay) || document.hidden || state.online) return false;
  if (state.thinking || ai.busy || ai.reviewing || mode === 'watch') return false;
  // An evaluation would give the puzzle's answer away.
  if (state.view.outcome !== null || state.puzzle?.status === 'open') return false;
  return mode === 'human' || state.view.ply < state.view.length || !isAiTurn();
}

/**
 * Starts, keeps or stops the live evaluation of the shown position. At the
 * live position after the AI's answer, the pondering already searches it
 * (through the expected reply), so its reports are used instead. With the
 * overlay on, a survey of every move takes the analysis's place; at the
 * live position of a game against a pondering AI it runs on the AI's
 * engine, so it warms the AI's table as the pondering it replaces would.
 */
function maybeAnalyse() {
  if (!ai) return;
  const held = state.heldReport;
  state.heldReport = null;
  const position = state.game.positionString();
  if (state.worth && (state.worth.position !== position || !state.worthOverlay)) showWorth(null);
  liveFor(position);
  if (!wantsAnalysis()) {
    pauseLive();
    if (ai.analysed !== null && !ai.busy) ai.stopPondering();
    showWorth(null);
    return;
  }
  const atEnd = state.view.ply === state.view.length;
  // The survey (asked for by turning the overlay on) and the AI's own
  // pondering are not the bar's: the cap does not count them.
  if (state.worthOverlay) {
    pauseLive();
    if (ai.survey(position, { ponder: atEnd && pondering() })) state.surveyed = position;
    return;
  }
  if (ai.pondering && atEnd) {
    pauseLive();
    if (held) tell({ cause: 'analysis', report: held });
    return;
  }
  if (ai.analyse(position)) runLive();
  else pauseLive();
}

/** Draws `worth` ({position, cells}) on the board, or clears it (null). */
function showWorth(worth) {
  if (worth === null && state.worth === null) return;
  state.worth = worth;
  tell({ cause: 'worth', worth });
}

function notify(text, tone = 'warn') {
  state.notice = { text, tone };
  announce('notice');
}

function clearNotice() {
  // A failed save stays on screen until a save goes through.
  if (!state.saveFailed) state.notice = null;
}

function stopAi() {
  token += 1;
  if (state.thinking || (ai && ai.busy)) {
    state.thinking = false;
    if (ai) ai.cancel();
  } else if (ai) {
    ai.stopPondering();
  }
}

/**
 * True when the AI should think on the person's time after its move: the
 * setting is on and a person plays it (two AIs would only ponder for each
 * other's engine).
 */
function pondering() {
  const { mode, ponder } = state.settings;
  return ponder && (mode === 'ai-x' || mode === 'ai-o');
}

function maybeStartAi({ step = false } = {}) {
  const { view } = state;
  if (!ai || state.thinking || view.outcome || !isAiTurn()) return;
  if (view.ply < view.length && !state.live) return;
  const watching = state.settings.mode === 'watch';
  if (watching && state.paused && !step) return;
  const mine = ++token;
  const text = state.game.positionString();
  const level = levelOf(view.sideToMove);
  const started = performance.now();
  const least = watching ? Math.max(WATCH_DELAY_MS[state.settings.speed] ?? 0, 150) : MIN_AI_MS;
  state.thinking = true;
  announce('thinking');
  ai.search({ text, level, budgetMs: budgetFor(level), ponder: pondering() }).then(
    (result) => {
      // The answer may differ from the last depth reported: a better move
      // found in the depth the clock cut short.
      if (mine === token) aiProgress(result);
      const wait = Math.max(0, least - (performance.now() - started));
      setTimeout(() => applyAiMove(mine, text, result), wait);
    },
    (error) => {
      if (mine !== token) return;
      state.thinking = false;
      if (error.code === 'cancelled') return;
      notify(t('ai.failed', { error: error.message }), 'error');
    },
  );
}

function applyAiMove(mine, text, result) {
  // Stale if anything happened since the question was asked.
  if (mine !== token || state.game.positionString() !== text) return;
  state.thinking = false;
  clearNotice();
  try {
    state.game.play(result.board, result.cell);
  } catch (error) {
    notify(t('ai.failed', { error: error.message }), 'error');
    return;
  }
  commit('ai-move', { played: true });
}

/**
 * Plays a move for the human at `cell` of `board`. Returns
 * `{ok: true}` or `{ok: false, code, message}`; a refusal is also shown.
 */
export async function play(board, cell) {
  const refuse = (code, error) => {
    const message = refusal(code, state.view, error);
    notify(message);
    return { ok: false, code, message };
  };
  if (state.online) return playOnline(board, cell, refuse);
  if (state.thinking) return refuse('thinking');
  if (state.puzzle) return answerPuzzle(board, cell, refuse);
  if (!state.view.outcome) {
    if (state.settings.mode === 'watch') return refuse('watching');
    if (isAiTurn()) {
      if (canContinue()) return refuse('continueFirst');
      const result = refuse('aiTurn');
      // The AI may have given up earlier (worker failure): a click asks again.
      maybeStartAi();
      return result;
    }
  }
  // From an earlier position, a move other than the next one starts a new
  // line there; the later moves stay in the game as another line.
  try {
    state.game.play(board, cell);
  } catch (error) {
    return refuse(error.code ?? 'other', error);
  }
  state.live = false;
  clearNotice();
  commit('move', { played: true });
  return { ok: true };
}

/**
 * The core's refusal of a move at (`board`, `cell`) after `ply` moves of
 * the game read from `record`, tried on a copy; null when it is legal.
 */
function refusalOn(record, ply, board, cell) {
  const probe = WebGame.fromText(record);
  try {
    probe.jump(ply);
    probe.play(board, cell);
    return null;
  } catch (error) {
    return error;
  } finally {
    probe.free();
  }
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
export function onlineEnter(send) {
  stopAi();
  clearNotice();
  if (state.puzzle) setPuzzle(null);
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
export function onlineConnection(connection) {
  if (!state.online) return;
  state.online.connection = connection;
  announce('online');
}

/** The server placed this page in `room` as `role` ('seat0' | 'seat1' | 'spectator'). */
export function onlineJoined(room, role) {
  if (!state.online) return;
  Object.assign(state.online, { room, role });
  announce('online');
}

/** A room state from the server: the board follows it. */
export function onlineState(roomState) {
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
    if (online.side) recordInHistory(roomState.result.winner ?? 'draw');
  }
  if (roomState.result === null) online.inPlay.add(key);
  // A move is told as played when the room's game is the one shown with one
  // more move; the end card is for a game seen being played, not one found finished.
  const played = Boolean(before) && before.id === state.gameId && onlineOneMoreMove(before, game);
  announce('online', { forward: played, played, ended: finishedNow && online.inPlay.has(key) });
  dropStaleReview();
  if (finishedNow && online.inPlay.has(key)) reviewGame();
}

/** Whether `game` (the room's, shown at its end) is the game `before` showed at its end with one more move. */
function onlineOneMoreMove(before, game) {
  const now = game.record();
  return Boolean(before.record && now) && state.view.length === before.length + 1 && now.startsWith(before.record);
}

/** A frame the server refused: shown in the status line. */
export function onlineRefused(message) {
  if (!state.online) return;
  notify(t('online.refused', { error: message }), 'warn');
}

/** Leaves online play: the local game comes back as it was saved. */
export function onlineLeave() {
  if (!state.online) return;
  state.online = null;
  const local = restoreGame();
  if (state.game) state.game.free();
  state.game = local;
  clearNotice();
  commit('online');
}

/** Whether the page is in an online room. */
export function isOnline() {
  return state.online !== null;
}

/**
 * From an earlier position of a game against the AI where the AI is to move:
 * lets the AI play from here; the later moves stay in the game (as another
 * line, unless the AI plays them again).
 */
export async function continueHere() {
  if (!canContinue()) return false;
  state.game.truncate();
  state.live = true;
  clearNotice();
  commit('continue');
  return true;
}

/** How many plies Undo takes back: against the AI, your move and its reply. */
function undoSteps() {
  // AI vs AI has no move of a person's to take back: its moves are browsed
  // in the move list, and stepped through with Pause and Step.
  if (!state.view || state.online || state.settings.mode === 'watch') return 0;
  const { ply, sideToMove } = state.view;
  const human = humanSide(state.settings.mode);
  if (ply === 0) return 0;
  if (!human) return 1;
  // The side to move alternates: one ply back it is the other side's turn.
  const other = sideToMove === 'x' ? 'o' : 'x';
  if (other === human) return 1;
  return ply >= 2 ? 2 : 0;
}

/** How many plies Redo replays: against the AI, up to your next turn. */
function redoSteps() {
  if (state.online || state.settings.mode === 'watch') return 0;
  if (!state.view) return 0;
  const { ply, length, sideToMove } = state.view;
  const human = humanSide(state.settings.mode);
  const left = length - ply;
  if (left === 0) return 0;
  if (!human) return 1;
  const other = sideToMove === 'x' ? 'o' : 'x';
  return other === human || left === 1 ? 1 : 2;
}

/**
 * Steps the cursor `steps` times with `step` (undo or redo), cancelling a search.
 * @param {number} steps
 * @param {() => void} step
 * @param {'undo' | 'redo'} cause
 */
function walk(steps, step, cause) {
  if (steps === 0) return false;
  stopAi();
  clearNotice();
  state.live = false;
  for (let i = 0; i < steps; i += 1) step();
  commit(cause, { forward: cause === 'redo' && steps === 1 });
  return true;
}

/** Takes back the last move (against the AI: yours and its reply). Cancels a search. */
export function undo() {
  return walk(undoSteps(), () => state.game.undo(), 'undo');
}

/** Replays what Undo took back. */
export function redo() {
  return walk(redoSteps(), () => state.game.redo(), 'redo');
}

/** True while the game on the board has moves and has not finished: replacing it asks first. */
export function inProgress() {
  return state.view.length > 0 && !findGame(state.gameId);
}

function startFresh() {
  stopAi();
  clearNotice();
  setAsideCurrentGame();
  const fresh = new WebGame(state.settings.kind, state.settings.rules);
  if (state.game) state.game.free();
  state.game = fresh;
  state.gameId = newGameId();
  state.live = false;
  state.paused = false;
  setReview(null);
  if (ai && state.settings.mode !== 'human') ai.newGame(levelOf('x'));
  commit('new-game');
}

/**
 * Asks before a game in progress is replaced (the answer comes from the
 * dialog installed by start's `ask`). Resolves true when the player agreed
 * or there was nothing to lose.
 */
async function agreeToLeave(question) {
  if (!inProgress()) return true;
  return ask(question, { moves: state.view.length });
}

/** Starts a new game with the current settings, asking first if a game is in progress. */
export async function newGame() {
  if (state.online) return false;
  if (!(await agreeToLeave('newGame'))) return false;
  startFresh();
  return true;
}

/** Rematch: a new game with the colours swapped (against the AI), no question asked. */
export function rematch() {
  if (state.online) {
    state.online.send({ type: 'rematch' });
    return;
  }
  const { mode } = state.settings;
  if (mode === 'ai-x' || mode === 'ai-o') {
    state.settings = { ...state.settings, mode: mode === 'ai-x' ? 'ai-o' : 'ai-x' };
    storage.saveSettings(state.settings);
  }
  startFresh();
}

/** Settings that only change how the game is shown or paced, never the game itself. */
const LIVE_SETTINGS = new Set(['speed', 'ponder']);

/**
 * Changes settings (any of kind, mode, level, levelO, rules, speed,
 * ponder). A change of the game starts a new one, asking first if a game is
 * in progress; declined, nothing changes. Resolves true when applied.
 */
export async function updateSettings(changes) {
  if (state.online) {
    // The settings' controls go back to the game's.
    announce('settings');
    return false;
  }
  const next = { ...state.settings, ...changes };
  const restart = Object.keys(changes).some((k) => !LIVE_SETTINGS.has(k) && changes[k] !== state.settings[k]);
  if (restart && !(await agreeToLeave('settings'))) {
    announce('settings');
    return false;
  }
  state.settings = next;
  storage.saveSettings(state.settings);
  if (!next.ponder && ai) ai.stopPondering();
  if (restart) startFresh();
  else {
    announce('settings');
    // A survey on the AI's engine moves to the analyst once pondering is off.
    maybeAnalyse();
  }
  return true;
}

/** AI vs AI: pauses or resumes the game. */
export function setPaused(paused) {
  if (state.settings.mode !== 'watch') return;
  state.paused = Boolean(paused);
  if (state.paused) stopAi();
  commit('pause');
}

/** AI vs AI, paused: plays one move. */
export function step() {
  if (state.settings.mode !== 'watch' || !state.paused || state.thinking || state.puzzle) return;
  // Stepping from an earlier position goes on from there, like Continue.
  if (state.view.ply < state.view.length) {
    state.game.truncate();
    state.view = state.game.view();
  }
  state.live = true;
  maybeStartAi({ step: true });
}

/** Shows the position after `ply` moves without losing the later ones. */
export function jump(ply) {
  stopAi();
  clearNotice();
  state.live = false;
  if (state.settings.mode === 'watch') state.paused = true;
  const from = state.view.ply;
  state.game.jump(ply);
  commit('jump', { forward: ply === from + 1 });
}

/**
 * Replaces the game by one read from a record or position string (the game
 * on the board goes to the history if unfinished). On error returns
 * `{ok: false, error}` and leaves the current game untouched.
 */
export function loadRecord(text) {
  let loaded;
  try {
    loaded = WebGame.fromText(text);
  } catch (error) {
    return { ok: false, error };
  }
  stopAi();
  clearNotice();
  setAsideCurrentGame();
  state.game.free();
  state.game = loaded;
  const view = loaded.view();
  const settings = { ...state.settings, kind: view.kind, rules: view.rules };
  // Against the AI, a loaded game continues with you to move, so the AI
  // does not answer before you have looked at it.
  const human = humanSide(settings.mode);
  if (human && !view.outcome && human !== view.sideToMove) {
    settings.mode = view.sideToMove === 'x' ? 'ai-x' : 'ai-o';
  }
  if (settings.mode === 'watch') state.paused = true;
  if (JSON.stringify(settings) !== JSON.stringify(state.settings)) {
    state.settings = settings;
    storage.saveSettings(state.settings);
  }
  // The same game loaded again (a replay from the history) keeps its entry.
  const known = loadHistory().games.find((g) => (g.tree ?? g.record) === (loaded.treeRecord() ?? ''));
  state.gameId = known?.id ?? newGameId();
  state.live = false;
  setReview(storedReview(known, view));
  commit('load');
  return { ok: true };
}

/** Every line of the game in its record's order (see WebGame.lines in crates/web/src/lines.rs). */
export function getLines() {
  return state.game.lines();
}

/** Applies `edit` (a change of the shown line) as browsing does: the AI stops and waits. */
function editLines(edit) {
  stopAi();
  clearNotice();
  state.live = false;
  if (state.settings.mode === 'watch') state.paused = true;
  const done = edit();
  commit('lines');
  return done;
}

/** Shows the line through position `node` (an id from getLines), at that position. */
export function jumpToNode(node) {
  return editLines(() => {
    try {
      state.game.jumpTo(node);
      return true;
    } catch {
      return false;
    }
  });
}

/**
 * Shows in `game` the line that ends at position `line` (a view's
 * `lineEnd`; 0 for the main line) with `cursor` moves on the board, as it
 * was saved: the tree's continuation after `line`, if any, is not part of
 * it. Throws (from the core) if the game has no such line.
 */
function showSavedLine(game, line, cursor) {
  if (line > 0) {
    game.jumpTo(line);
    game.truncate();
  }
  game.jump(cursor);
}

/** Shows the line that ended at `line` (a state's `lineEnd`) at `cursor` moves, or the main line if there is none. */
export function showLine(line, cursor) {
  return editLines(() => {
    try {
      showSavedLine(state.game, line, cursor);
      return true;
    } catch {
      return false;
    }
  });
}

/** Makes the line through position `node` the main line. */
export function promoteLine(node) {
  return editLines(() => state.game.promote(node));
}

/** Deletes the move to position `node` and every move after it. */
export function deleteLine(node) {
  return editLines(() => state.game.deleteLine(node));
}

/**
 * Asks the engine about the current position without playing
 * (a hint): resolves `{move, board, cell, score, mate, xWins, draw, oWins, pv}`.
 */
export function analyse({ ms = 1000, level = 'master' } = {}) {
  if (!ai) return Promise.reject(new Error('the AI is not available'));
  if (state.thinking) return Promise.reject(Object.assign(new Error('the AI is thinking'), { code: 'busy' }));
  if (state.puzzle?.status === 'open') return Promise.reject(Object.assign(new Error('a puzzle is open'), { code: 'puzzle' }));
  const answer = ai.search({ text: state.game.positionString(), level, budgetMs: ms });
  // The live evaluation goes on once the hint is answered.
  answer.then(maybeAnalyse, maybeAnalyse);
  return answer;
}

/**
 * Turns the live evaluation on or off (the page calls it as the evaluation
 * bar starts or stops showing the engine's evaluation on screen: shown,
 * in the pane on view, scrolled into view), and the survey of every move's
 * worth (as the overlay is).
 */
export function setLiveEval(on, { worth = false } = {}) {
  state.liveEval = Boolean(on);
  state.worthOverlay = Boolean(worth);
  maybeAnalyse();
}

/** The review of the game on the board (see state.review), or null. */
export function getReview() {
  return state.review;
}

/** Replaces the review (stopping one under way) and says so. */
function setReview(review) {
  if (state.review?.status === 'running' && ai) ai.cancelReview();
  // A puzzle is one of the review's: it ends with it.
  if (state.puzzle) setPuzzle(null);
  state.review = review;
  tell({ cause: 'review', review });
}

/** The review kept with the history `entry`, if it is of the game on the board (whose view is `view`), or null. */
function storedReview(entry, view) {
  if (!entry?.review || entry.record !== state.game.record()) return null;
  return unpackReview(entry.review, entry.record, view.moves);
}

/**
 * Drops the review once the line on the board is no longer the one
 * reviewed; a line kept with a review in the history (the game as it
 * finished) brings its review back.
 */
function dropStaleReview() {
  if (state.review?.record === state.game.record()) return;
  const stored = storedReview(findGame(state.gameId), state.view);
  if (state.review || stored) setReview(stored);
}

/**
 * Reviews every move of the game on the board in the worker (at the end of
 * every game, and on demand): the review's progress comes as 'review'
 * events, and a finished review is kept with the game in the history.
 * False when there is nothing to review or it cannot be done now: no
 * moves, the AI is thinking, or an online game is still being played
 * (a review would help one player).
 */
export function reviewGame() {
  const record = state.game.record();
  const liveOnline = state.online && state.online.roomState?.result == null;
  if (!ai || !record || state.view.length === 0 || state.thinking || ai.busy || liveOnline) return false;
  const review = { record, status: 'running', total: state.view.length, moves: [], x: null, o: null };
  setReview(review);
  const current = () => state.review === review;
  const onMove = (move, done, total) => {
    if (!current()) return;
    review.moves.push(move);
    review.total = total;
    tell({ cause: 'review', review });
  };
  ai.review(record, onMove).then(
    ({ x, o, puzzles = [] }) => {
      if (!current()) return;
      Object.assign(review, { status: 'done', x, o, puzzles: puzzles.map((p) => ({ ...p, status: 'open' })) });
      if (attachReview(state.gameId, record, packReview(review))) historyChanged();
      tell({ cause: 'review', review });
      maybeAnalyse();
    },
    (error) => {
      if (!current()) return;
      review.status = 'stopped';
      review.error = error.code;
      tell({ cause: 'review', review });
      // The worker is free again: the live evaluation may go on.
      maybeAnalyse();
    },
  );
  return true;
}

/** Stops the review under way, keeping what it found so far. */
export function stopReview() {
  if (state.review?.status !== 'running') return;
  state.review.status = 'stopped';
  if (ai) ai.cancelReview();
  tell({ cause: 'review', review: state.review });
  maybeAnalyse();
}

/** The puzzle being solved, with its review's fields (see reviews.js) and `stored`, the review's status of it; or null. */
export function getPuzzle() {
  const { puzzle, review } = state;
  const found = puzzle && review?.puzzles?.[puzzle.index];
  if (!found) return null;
  return { ...found, stored: found.status, index: puzzle.index, status: puzzle.status, tries: puzzle.tries, answer: puzzle.answer };
}

function setPuzzle(puzzle) {
  state.puzzle = puzzle;
  tell({ cause: 'puzzle', puzzle: getPuzzle() });
}

/** Whether the board still shows the puzzle's position, of the game reviewed. */
function puzzleShown() {
  const found = state.review?.puzzles?.[state.puzzle.index];
  return Boolean(found && !state.online && state.review.record === state.game.record() && state.view.ply === found.ply);
}

/**
 * Where the first move of `line` lands after `ply` moves of the game on
 * the board, as `{board, cell}`, or null if the core does not take it
 * there: the record up to `ply` with the move appended is read back.
 */
function moveAt(ply, move) {
  const record = state.game.record();
  const head = record.slice(0, record.indexOf(':') + 1);
  let probe = null;
  try {
    probe = WebGame.fromText(head + state.view.moves.slice(0, ply).join('') + move);
    const view = probe.view();
    return view.length === ply + 1 ? { board: view.lastBoard, cell: view.lastCell } : null;
  } catch {
    return null;
  } finally {
    if (probe) probe.free();
  }
}

/**
 * Starts puzzle `index` of the finished review: its position is shown, and
 * a click on the board answers it (see answerPuzzle) instead of playing,
 * until the position is left. The AI and the live evaluation wait. False
 * if there is no such puzzle, or online.
 */
export function startPuzzle(index) {
  const found = state.review?.status === 'done' ? state.review.puzzles?.[index] : undefined;
  if (!found || state.online || state.review.record !== state.game.record()) return false;
  const answer = moveAt(found.ply, found.solution[0]);
  if (!answer) return false;
  const from = state.puzzle?.from ?? state.view.ply;
  stopAi();
  clearNotice();
  state.live = false;
  if (state.settings.mode === 'watch') state.paused = true;
  state.game.jump(found.ply);
  setPuzzle({ index, status: 'open', tries: 0, answer, from });
  commit('puzzle-start');
  return true;
}

/** A click at (`board`, `cell`) during a puzzle: the answer solves it; any other legal move is a wrong try, and nothing is played. */
function answerPuzzle(board, cell, refuse) {
  const { puzzle } = state;
  if (puzzle.status !== 'open') return refuse('puzzleOver');
  if (puzzle.answer.board === board && puzzle.answer.cell === cell) {
    clearNotice();
    settlePuzzle('solved');
    return { ok: true };
  }
  const error = refusalOn(state.game.record(), state.view.ply, board, cell);
  if (error) return refuse(error.code ?? 'other', error);
  puzzle.tries += 1;
  setPuzzle(puzzle);
  return refuse('puzzleWrong');
}

/** Shows the answer of the puzzle being solved: it is then done, unsolved. */
export function revealPuzzle() {
  if (state.puzzle?.status !== 'open') return false;
  clearNotice();
  settlePuzzle('revealed');
  return true;
}

/**
 * Ends this attempt as `status` ('solved' | 'revealed'). The review keeps
 * the puzzle's best outcome (solved once stays solved), stored with the game.
 */
function settlePuzzle(status) {
  const { review, puzzle } = state;
  puzzle.status = status;
  const found = review.puzzles[puzzle.index];
  if (found.status !== 'solved') found.status = status;
  if (attachReview(state.gameId, review.record, packReview(review))) historyChanged();
  tell({ cause: 'review', review });
  setPuzzle(puzzle);
  announce('puzzle-answer');
  maybeAnalyse();
}

/** Leaves the puzzle: the position shown before it comes back. */
export function leavePuzzle() {
  if (!state.puzzle) return false;
  const { from } = state.puzzle;
  setPuzzle(null);
  jump(from);
  return true;
}

/** The status line's words for the puzzle being solved, or null. */
function puzzleStatus() {
  const puzzle = getPuzzle();
  if (!puzzle) return null;
  const player = puzzle.mover.toUpperCase();
  const move = puzzle.solution[0];
  if (puzzle.status === 'solved') return { text: t('puzzle.statusSolved', { move }), tone: 'win' };
  if (puzzle.status === 'revealed') return { text: t('puzzle.statusRevealed', { move }), tone: 'info' };
  return { text: t(`puzzle.find.${puzzle.goal}`, { player }), tone: puzzle.mover };
}

function restoreGame() {
  const saved = storage.loadGame();
  state.gameId = saved?.id ?? newGameId();
  if (!saved) return new WebGame(state.settings.kind, state.settings.rules);
  let game = null;
  try {
    game = WebGame.fromText(saved.record ?? saved.position);
    if (saved.record) showSavedLine(game, saved.line, saved.cursor);
    const view = game.view();
    if (view.kind !== state.settings.kind || view.rules !== state.settings.rules) {
      throw new Error('the saved game does not match the saved settings');
    }
    return game;
  } catch (error) {
    if (game) game.free();
    storage.reportCorruptGame(error.message ?? error);
    state.gameId = newGameId();
    return new WebGame(state.settings.kind, state.settings.rules);
  }
}

/** The notice for what could not be read at start-up, by what it was. */
function problemNotice(problems) {
  const names = new Set(problems.map((p) => p.name));
  if (names.has('game')) return t('storage.corrupt');
  if (names.has('settings')) return t('storage.corruptSettings');
  return t('storage.corruptOther');
}

/**
 * Starts the controller: restores settings and the game (setting aside
 * anything unreadable), draws, and lets the AI move if it is its turn.
 * `render(pageState)` redraws the page; `aiClient` may be null;
 * `confirm(question, params)` resolves true when the player agrees to lose
 * the game in progress (question 'newGame' or 'settings').
 */
export function start({ render, aiClient, levels, confirm }) {
  renderPage = () => render(pageState());
  ai = aiClient;
  if (confirm) ask = confirm;
  state.levels = levels;
  const names = levels.map((l) => l.name);
  const fallback = names.includes('medium') ? 'medium' : names[0];
  const settings = { ...DEFAULT_SETTINGS, ...(storage.loadSettings(names) ?? {}) };
  if (!names.includes(settings.level)) settings.level = fallback;
  if (!names.includes(settings.levelO)) settings.levelO = settings.level;
  state.settings = settings;
  state.game = restoreGame();
  state.review = storedReview(findGame(state.gameId), state.game.view());
  if (ai && settings.mode !== 'human') ai.newGame(levelOf('x'));
  const problems = storage.takeProblems();
  if (problems.length > 0) {
    state.notice = { text: problemNotice(problems), tone: 'warn' };
    storage.saveSettings(state.settings);
  }
  commit('start');
  if (!storage.storageAvailable()) {
    state.notice = { text: t('storage.unavailable'), tone: 'warn', key: 'storage.unavailable' };
    announce('notice');
  }
  window.addEventListener('pagehide', () => {
    if (state.saveFailed) persist();
  });
  // Nobody thinks about a hidden tab: pondering would only spend the battery.
  document.addEventListener('visibilitychange', () => {
    if (document.hidden && ai) {
      pauseLive();
      ai.stopPondering();
    } else maybeAnalyse();
  });
}

/** Redraws the page and tells the panes (after a language change). */
export function refresh() {
  announce('language');
}

/** Called by the AI client when the worker restarts or gives up. */
export function aiTrouble(kind, detail, reason) {
  if (kind === 'restarting') notify(t(reason === 'slow' ? 'ai.slow' : 'ai.restarting'), 'warn');
  else if (kind === 'failed') notify(t('ai.failed', { error: detail }), 'error');
}

/** The fields of a worker's report that the page's events carry. */
function reportDetail({ depth, score, mate, xWins, draw, oWins, pv, nodes }) {
  return { depth, score, mate, xWins, draw, oWins, pv, nodes };
}

/** Called for each progress report of the current search. */
export function aiProgress(report) {
  tell({ cause: 'progress', report: reportDetail(report) });
}

/**
 * Called for each report of the survey under way (`{report, cells}`): the
 * best line goes to the bar as an analysis, the cells to the overlay.
 * Reports of a position no longer shown are dropped.
 */
export function aiSurvey({ report, cells }) {
  const position = state.surveyed;
  if (state.thinking || position !== state.game.positionString()) return;
  tell({ cause: 'analysis', report: reportDetail(report) });
  showWorth({ position, cells });
}

/**
 * Called for each report of the analysis or pondering under way, of the
 * position the person is to move in. While the AI's answer waits to be
 * shown, the board is one move behind: the last report is held till then.
 */
export function aiAnalysis(report) {
  const detail = reportDetail(report);
  if (state.thinking) state.heldReport = detail;
  else tell({ cause: 'analysis', report: detail });
}
