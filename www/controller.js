// @ts-check
// The game controller: owns the game on the board and the settings, turns
// clicks and buttons into core calls (play, undo and redo, browsing, lines,
// new games, loading, online moves), and tells the page what changed:
// every change goes out once, through `subscribe` (the store of store.js),
// with its cause and what the panes need to know of it (the Change type of
// types.d.ts). A change of the game (it carries `game`, getState()) redraws
// the board and its controls first. After each change of the game, the
// features that follow it act, in this order (commit): the AI's turns
// (features/aiturns.js), the game review and its puzzles (review.js), the
// live evaluation and the worth overlay (analysis.js); saving.js keeps the
// game and the history of games. Each is made here with what it needs.

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
import { findGame, loadHistory, scoreCard } from './records.js';
import { describe, refusal, humanSide } from './status.js';
import { t } from './i18n.js';
import { createStore } from './store.js';
import { createAnalysis } from './features/analysis.js';
import { createReview } from './features/review.js';
import { createSaving, newGameId, showSavedLine } from './features/saving.js';
import { createAiTurns } from './features/aiturns.js';
import { createOnline } from './features/online.js';

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

/**
 * The game's state, which the features read. The controller changes it,
 * but for `thinking` (the AI's turns'), `review` and `puzzle` (the review's).
 */
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
  /** True while the AI searches its move. */
  thinking: false,
  /** The status line's notice in place of the turn (`{text, tone, key?}`), or null. */
  notice: null,
  /** AI vs AI only: no new move starts while paused (Step plays one). */
  paused: false,
  /** True once the player chose "Continue from here": the AI moves from an earlier position. */
  live: false,
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

export { MIN_AI_MS, WATCH_DELAY_MS } from './features/aiturns.js';

/** The AI's turns (features/aiturns.js). */
const aiTurns = createAiTurns({
  state,
  ai: () => ai,
  announce,
  notify,
  clearNotice,
  commit,
  onAnswer: (result) => analysis.onProgress(result),
});
const { levelOf, isAiTurn, pondering, stop: stopAi, maybeStart: maybeStartAi } = aiTurns;

/** Saving the game and keeping the history of games (features/saving.js). */
const saving = createSaving({ state, announce, historyChanged });

/** The live evaluation, the worth overlay and the Hint's search (features/analysis.js). */
const analysis = createAnalysis({ state, ai: () => ai, tell, isAiTurn, pondering });

export { LIVE_EVAL_CAP_MS } from './features/analysis.js';
/** Lets the live evaluation of the shown position run on past its cap (the bar's "Keep analysing"). */
export const keepAnalysing = analysis.keepAnalysing;
/** True when the live evaluation of the shown position stopped at its cap. */
export const evaluationCapped = analysis.capped;
/** True while the bar keeps the engine's numbers to itself: a game against the AI still being played. */
export const evaluationQuiet = analysis.quiet;
/** Turns the live evaluation (the bar on screen) and the worth overlay on or off. */
export const setLiveEval = analysis.setLive;
/** The Hint's search of the shown position: resolves the engine's answer. */
export const analyse = analysis.hint;
/** The AI client's reports: of its search, of the survey, of the analysis or pondering. */
export const aiProgress = analysis.onProgress;
export const aiSurvey = analysis.onSurvey;
export const aiAnalysis = analysis.onAnalysis;

/** The game review and its puzzles (features/review.js). */
const gameReview = createReview({
  state,
  ai: () => ai,
  tell,
  announce,
  historyChanged,
  afterWork: () => analysis.update(),
  clearNotice,
  showPosition: (ply, before) => browse('puzzle-start', () => {
    state.game.jump(ply);
    before();
  }),
  jump,
  refusalOn,
});

/** The review of the game on the board, or null. */
export const getReview = gameReview.get;
/** Reviews the game on the board (false when it cannot now). */
export const reviewGame = gameReview.start;
/** Stops the review under way, keeping what it found. */
export const stopReview = gameReview.stop;
/** The puzzle being solved, or null. */
export const getPuzzle = gameReview.puzzle;
/** Starts a puzzle of the finished review; reveals its answer; leaves it. */
export const startPuzzle = gameReview.startPuzzle;
export const revealPuzzle = gameReview.revealPuzzle;
export const leavePuzzle = gameReview.leavePuzzle;

/** Online play (features/online.js). */
const onlineFeature = createOnline({
  state,
  announce,
  notify,
  clearNotice,
  stopAi,
  endPuzzle: () => gameReview.setPuzzle(null),
  record: (result) => saving.record(result),
  dropStaleReview: () => gameReview.dropStale(),
  startReview: () => gameReview.start(),
  restore: () => saving.restore(),
  commit,
  jump,
  refusalOn,
});

/** Online play, as onlinepanel.js drives it: entering, the connection, the room, its states, a refusal, leaving. */
export const onlineEnter = onlineFeature.enter;
export const onlineConnection = onlineFeature.connection;
export const onlineJoined = onlineFeature.joined;
export const onlineState = onlineFeature.state;
export const onlineRefused = onlineFeature.refused;
export const onlineLeave = onlineFeature.leave;
/** Whether the page is in an online room. */
export const isOnline = onlineFeature.isOnline;

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
  const status = state.notice ?? gameReview.puzzleStatus() ?? describe(state.view, state);
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
    interactive: online ? onlineFeature.canMove() : puzzle ? puzzle.status === 'open' : !state.thinking && !isAiTurn(),
    levels: state.levels,
    online: online && { side: online.side, roomState: online.roomState, connection: online.connection },
  };
}

/**
 * Re-reads the view, saves, and announces `cause` (`played`: a new move
 * took the board one on; `forward`: a move was stepped over again); starts
 * the AI if it is its turn.
 * @param {GameCause} cause
 */
function commit(cause, { played = false, forward = played } = {}) {
  state.view = state.game.view();
  saving.save();
  const finished = played && state.view.outcome !== null;
  if (finished) saving.record(state.view.outcome);
  gameReview.dropStale();
  if (state.puzzle && !gameReview.puzzleShown()) gameReview.setPuzzle(null);
  announce(cause, { forward, played, ended: finished });
  maybeStartAi();
  if (finished) gameReview.start();
  analysis.update();
}

function notify(text, tone = 'warn') {
  state.notice = { text, tone };
  announce('notice');
}

function clearNotice() {
  // A failed save stays on screen until a save goes through.
  if (!saving.failed()) state.notice = null;
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
  if (state.online) return onlineFeature.play(board, cell, refuse);
  if (state.thinking) return refuse('thinking');
  if (state.puzzle) return gameReview.answerPuzzle(board, cell, refuse);
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
  saving.setAside();
  const fresh = new WebGame(state.settings.kind, state.settings.rules);
  if (state.game) state.game.free();
  state.game = fresh;
  state.gameId = newGameId();
  state.live = false;
  state.paused = false;
  gameReview.set(null);
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
    analysis.update();
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
  const from = state.view.ply;
  browse('jump', () => state.game.jump(ply), { forward: ply === from + 1 });
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
  saving.setAside();
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
  gameReview.set(gameReview.stored(known, view));
  commit('load');
  return { ok: true };
}

/** Every line of the game in its record's order (see WebGame.lines in crates/web/src/lines.rs). */
export function getLines() {
  return state.game.lines();
}

/**
 * Applies `edit` (another position or line shown) as browsing does: the AI
 * stops and waits (AI vs AI pauses), and the change is told as `cause`.
 * @template T
 * @param {GameCause} cause
 * @param {() => T} edit
 * @returns {T}
 */
function browse(cause, edit, { forward = false } = {}) {
  stopAi();
  clearNotice();
  state.live = false;
  if (state.settings.mode === 'watch') state.paused = true;
  const done = edit();
  commit(cause, { forward });
  return done;
}

/** Shows the line through position `node` (an id from getLines), at that position. */
export function jumpToNode(node) {
  return browse('lines', () => {
    try {
      state.game.jumpTo(node);
      return true;
    } catch {
      return false;
    }
  });
}

/** Shows the line that ended at `line` (a state's `lineEnd`) at `cursor` moves, or the main line if there is none. */
export function showLine(line, cursor) {
  return browse('lines', () => {
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
  return browse('lines', () => state.game.promote(node));
}

/** Deletes the move to position `node` and every move after it. */
export function deleteLine(node) {
  return browse('lines', () => state.game.deleteLine(node));
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
  state.game = saving.restore();
  state.review = gameReview.stored(findGame(state.gameId), state.game.view());
  if (ai && settings.mode !== 'human') ai.newGame(levelOf('x'));
  const problems = storage.takeProblems();
  if (problems.length > 0) {
    state.notice = { text: saving.problemNotice(problems), tone: 'warn' };
    storage.saveSettings(state.settings);
  }
  commit('start');
  if (!storage.storageAvailable()) {
    state.notice = { text: t('storage.unavailable'), tone: 'warn', key: 'storage.unavailable' };
    announce('notice');
  }
  window.addEventListener('pagehide', saving.flush);
  // Nobody thinks about a hidden tab: pondering would only spend the battery.
  document.addEventListener('visibilitychange', () => {
    if (document.hidden && ai) {
      analysis.pause();
      ai.stopPondering();
    } else analysis.update();
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

