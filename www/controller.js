// @ts-check
// The game controller: holds the game on the board (`state`), makes the
// features that act on it, and tells the page what changed:
// every change goes out once, through `subscribe` (the store of store.js),
// with its cause and what the panes need to know of it (the Change type of
// types.d.ts). A change of the game (it carries `game`, getState()) redraws
// the board and its controls first. Clicks and buttons go to play.js
// (moves, Undo and Redo, browsing, lines) or online.js; after each change
// of the game the features that follow it act, in this order (commit): the
// AI's turns (features/aiturns.js), the game review and its puzzles
// (review.js), the live evaluation and the worth overlay (analysis.js);
// saving.js keeps the game and the archive of games; setup.js the settings
// and the games they start (new game, rematch, a record loaded). Each is
// made here with what it needs.

// Variations: a move from an earlier position starts a new line there and
// the later moves stay as another (core's tree, through WebGame); the page
// shows one line at a time, whose record (`record`) is the game for the
// archive, the review and the AI, and `tree` holds every line for saving
// and sharing.
//
// Online (onlineCreate or onlineJoin ... onlineLeave): the server's game replaces the local
// one, which stays saved and comes back on leaving. Moves go to the server
// (after the core has checked them here) and the board follows the room
// state the server sends; no AI plays, nothing is undone, and a finished
// game enters the archive as mode 'online'.

import * as storage from './storage.js';
import { findGame, loadArchive, scoreCard } from './records.js';
import { describe } from './status.js';
import { t } from './i18n.js';
import { createStore } from './store.js';
import { createAnalysis } from './features/analysis.js';
import { createReview } from './features/review.js';
import { createSaving } from './features/saving.js';
import { createSetup, DEFAULT_SETTINGS } from './features/setup.js';
import { createAiTurns } from './features/aiturns.js';
import { createOnline } from './features/online.js';
import { OnlineSession } from './online.js';
import { createPlay } from './features/play.js';
import { gameState, lastStep } from './gamestate.js';

/**
 * The game's state, which the features read. Who changes what: the game
 * itself (`game`, `view`, `gameId`) the controller's commit and the
 * features that replace or move it (setup.js: a new game or a record
 * loaded; play.js: moves and browsing; online.js: the room's game);
 * `settings`, `levels`, `live` and `paused` setup.js and play.js;
 * `thinking` the AI's turns; `review` and `puzzle` the review;
 * `notice` the controller; `online` the online feature.
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
  /** Identifies the game in the archive: undo and replay never make a second entry. */
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
   * While in an online session (features/online.js's OnlineState):
   * the connection, the room and this page's role and side in it, its last
   * state, and the ids of the games already put in the archive and of
   * those seen being played.
   * @type {import('./features/online.js').OnlineState | null}
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
  stopHint: () => analysis.stopHint(),
});
const { levelOf, isAiTurn, pondering, stop: stopAi, maybeStart: maybeStartAi } = aiTurns;

/** Saving the game and keeping the archive of games (features/saving.js). */
const saving = createSaving({ state, announce, archiveChanged });

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
  archiveChanged,
  afterWork: () => analysis.update(),
  clearNotice,
  showPosition: (ply, before) => browse('puzzle-start', () => {
    state.game.jump(ply);
    before();
  }),
  jump: (ply) => jump(ply),
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
  connect: (on) => new OnlineSession(on),
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
  jump: (ply) => jump(ply),
});

/** Online play, as the Online pane drives it: a room created or joined, its actions, leaving it for good. */
export const onlineCreate = onlineFeature.create;
export const onlineJoin = onlineFeature.join;
export const onlineResign = onlineFeature.resign;
export const onlineOfferDraw = onlineFeature.offerDraw;
export const onlineDeclineDraw = onlineFeature.declineDraw;
export const onlineLeave = onlineFeature.leave;
/** What the Online pane shows of the session and its room (see features/online.js). */
export const onlineRoom = onlineFeature.room;

/** Playing and browsing (features/play.js). */
const playing = createPlay({
  state,
  notify,
  clearNotice,
  commit,
  stopAi,
  maybeStartAi,
  isAiTurn,
  playOnline: (board, cell, refuse) => onlineFeature.play(board, cell, refuse),
  answerPuzzle: (board, cell, refuse) => gameReview.answerPuzzle(board, cell, refuse),
});
const { canContinue, undoSteps, redoSteps, jump, browse } = playing;

/** Plays a person's move at (`board`, `cell`): `{ok: true}` or `{ok: false, code, message}` (also shown). */
export const play = playing.play;
/** Undo (against the AI: a move and its reply), Redo, Continue from here, AI vs AI's Step. */
export const undo = playing.undo;
export const redo = playing.redo;
export const continueHere = playing.continueHere;
export const step = playing.step;
/** Shows the position after `ply` moves of the line shown. */
export { jump };
/** The game's lines; showing, promoting and deleting one. */
export const getLines = playing.getLines;
export const jumpToNode = playing.jumpToNode;
export const showLine = playing.showLine;
export const promoteLine = playing.promoteLine;
export const deleteLine = playing.deleteLine;

/** The settings and the games they start (features/setup.js). */
const setup = createSetup({
  state,
  ai: () => ai,
  ask: () => ask,
  commit,
  announce,
  stopAi,
  levelOf,
  clearNotice,
  setAside: () => saving.setAside(),
  setReview: (review) => gameReview.set(review),
  storedReview: (entry, view) => gameReview.stored(entry, view),
  afterSettings: () => analysis.update(),
});

/** True while the game on the board has moves and has not finished: replacing it asks first. */
export const inProgress = setup.inProgress;
/** A new game (asking first if one is in progress), a rematch, new settings, AI vs AI's pause, a record loaded. */
export const newGame = setup.newGame;
/** Rematch: against the AI with the colours swapped; online, asks the opponent for one. */
export const rematch = () => (onlineFeature.isOnline() ? onlineFeature.rematch() : setup.rematch());
export const updateSettings = setup.updateSettings;
export const setPaused = setup.setPaused;
export const loadRecord = setup.loadRecord;

/** @type {import('./store.js').Store<Change>} */
const store = createStore();

/**
 * Calls `listener(change)` for every later change (see Change in
 * types.d.ts), in the order they happen; returns what stops it.
 */
export const subscribe = store.subscribe;

/** Tells the panes of a change that is not one of the game (an engine report, the archive, the review). */
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
  const game = gameState(state);
  const moved = shown.record !== game.record || shown.cursor !== game.cursor;
  shown = { record: game.record, cursor: game.cursor };
  store.commit({ cause, game, moved, step: forward ? lastStep(state.view) : null, played, ended });
}

/** The game's line and cursor as last announced: a change says whether it shows another position. */
let shown = { record: /** @type {string | null} */ (null), cursor: -1 };

/**
 * The archive of games changed (a game kept, a review attached, or the
 * archive cleared in the Stats pane): the score card is redrawn, the panes told.
 */
export function archiveChanged() {
  renderPage();
  tell({ cause: 'archive' });
}

/** The game as the panes read it (see GameState). */
export function getState() {
  return gameState(state);
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
    scores: scoreCard(loadArchive().games, state.settings),
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
  state.settings = setup.storedSettings(levels.map((l) => l.name));
  state.game = saving.restore();
  state.review = gameReview.stored(findGame(state.gameId), state.game.view());
  setup.engineNewGame();
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
      ai.stopAnalysing();
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

