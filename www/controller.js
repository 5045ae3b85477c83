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

import { createStorage } from './storage.js';
import { createArchive, scoreCard } from './records.js';
import { describe } from './status.js';
import { t } from './i18n.js';
import { createStore } from './store.js';
import { createAnalysis } from './features/analysis.js';
import { createReview } from './features/review.js';
import { createSaving } from './features/saving.js';
import { createSetup } from './features/setup.js';
import { createAiTurns } from './features/aiturns.js';
import { createOnline } from './features/online.js';
import { OnlineSession } from './online.js';
import { createAccount } from './api.js';
import { createHistorySync } from './historysync.js';
import { createPlay } from './features/play.js';
import { createGameState, gameState, lastStep } from './gamestate.js';

/**
 * Makes the page's controller: the game on the board, the features that act
 * on it and the one channel that tells the panes what changed. main.js
 * makes one and hands it to the panes; nothing is made at import.
 */
export function createController() {
  const state = createGameState();
  const storage = createStorage();
  const archive = createArchive();

  /** @type {import('./ai.js').AiClient | null} */
  let ai = null;
  /** @type {(question: string, details?: {moves?: number}) => Promise<boolean>} */
  let ask = async () => true;
  let renderPage = () => {};

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
  const saving = createSaving({ state, storage, archive, announce, archiveChanged });

  /** The live evaluation, the worth overlay and the Hint's search (features/analysis.js). */
  const analysis = createAnalysis({ state, archive, ai: () => ai, tell, isAiTurn, pondering });

  /** Lets the live evaluation of the shown position run on past its cap (the bar's "Keep analysing"). */
  const keepAnalysing = analysis.keepAnalysing;
  /** True when the live evaluation of the shown position stopped at its cap. */
  const evaluationCapped = analysis.capped;
  /** True while the bar keeps the engine's numbers to itself: a game against the AI still being played. */
  const evaluationQuiet = analysis.quiet;
  /** Turns the live evaluation (the bar on screen) and the worth overlay on or off. */
  const setLiveEval = analysis.setLive;
  /** The Hint's search of the shown position: resolves the engine's answer. */
  const analyse = analysis.hint;
  /** The AI client's reports: of its search, of the survey, of the analysis or pondering. */
  const aiProgress = analysis.onProgress;
  const aiSurvey = analysis.onSurvey;
  const aiAnalysis = analysis.onAnalysis;

  /** The game review and its puzzles (features/review.js). */
  const gameReview = createReview({
    state,
    archive,
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
  const getReview = gameReview.get;
  /** Reviews the game on the board (false when it cannot now). */
  const reviewGame = gameReview.start;
  /** Stops the review under way, keeping what it found. */
  const stopReview = gameReview.stop;
  /** The puzzle being solved, or null. */
  const getPuzzle = gameReview.puzzle;
  /** Starts a puzzle of the finished review; reveals its answer; leaves it. */
  const startPuzzle = gameReview.startPuzzle;
  const revealPuzzle = gameReview.revealPuzzle;
  const leavePuzzle = gameReview.leavePuzzle;

  /** The signed-in player, as the server says (api.js). */
  const account = createAccount();
  /** This browser's games kept with the account (historysync.js). */
  const historySync = createHistorySync({ archive, account, archiveChanged });

  /** Online play (features/online.js). */
  const onlineFeature = createOnline({
    state,
    connect: (on) => new OnlineSession(on),
    signIn: account.ensureSession,
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
    roomChanged: (cause) => tell({ cause }),
  });

  /** Online play, as the Online pane drives it: a room created or joined, its actions, leaving it for good. */
  const onlineCreate = onlineFeature.create;
  const onlineJoin = onlineFeature.join;
  const onlineResign = onlineFeature.resign;
  const onlineOfferDraw = onlineFeature.offerDraw;
  const onlineDeclineDraw = onlineFeature.declineDraw;
  const onlineLeave = onlineFeature.leave;
  /** Play now: waits in a pool until paired; stops waiting. */
  const onlineSeek = onlineFeature.seek;
  const onlineCancelSeek = onlineFeature.cancelSeek;
  /** Challenges: offers one (to anyone or by name), accepts, declines, withdraws (features/challenge.js). */
  const onlineChallenge = onlineFeature.challenge;
  const onlineAcceptChallenge = onlineFeature.acceptChallenge;
  const onlineDeclineChallenge = onlineFeature.declineChallenge;
  const onlineCancelChallenge = onlineFeature.cancelChallenge;
  /** What the Online pane shows of the session and its room (see features/online.js). */
  const onlineRoom = onlineFeature.room;
  // A seek or a challenge waits for the player who made it: signed in as
  // someone else (or out), it is withdrawn rather than played for them.
  let playerName = account.me()?.name ?? null;
  account.onMe((me) => {
    const was = playerName;
    playerName = me?.name ?? null;
    if (was === null || was === playerName) return;
    if (onlineRoom().seek) void onlineCancelSeek();
    if (onlineRoom().challenge) void onlineCancelChallenge();
  });

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
  const play = playing.play;
  /** Undo (against the AI: a move and its reply), Redo, Continue from here, AI vs AI's Step. */
  const undo = playing.undo;
  const redo = playing.redo;
  const continueHere = playing.continueHere;
  const step = playing.step;
  /** The game's lines; showing, promoting and deleting one. */
  const getLines = playing.getLines;
  const jumpToNode = playing.jumpToNode;
  const showLine = playing.showLine;
  const promoteLine = playing.promoteLine;
  const deleteLine = playing.deleteLine;

  /** The settings and the games they start (features/setup.js). */
  const setup = createSetup({
    state,
    storage,
    archive,
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
  const inProgress = setup.inProgress;
  /** A new game (asking first if one is in progress), a rematch, new settings, AI vs AI's pause, a record loaded. */
  const newGame = setup.newGame;
  /** Rematch: against the AI with the colours swapped; online, asks the opponent for one. */
  const rematch = () => (onlineFeature.isOnline() ? onlineFeature.rematch() : setup.rematch());
  const updateSettings = setup.updateSettings;
  const setPaused = setup.setPaused;
  const loadRecord = setup.loadRecord;

  /**
   * The engine offered to a player waiting alone in a Play now pool: the
   * seek ends (unless a pairing came first, whose game then goes on) and
   * a game against the AI at `level` starts, of the seek's kind and rules,
   * the player as X.
   * @param {string} level
   */
  async function playEngineInstead(level) {
    const seek = state.online?.seek;
    if (!seek) return false;
    const { kind, rules } = seek.options;
    if (!(await onlineCancelSeek())) return false;
    return updateSettings({ kind, rules, mode: 'ai-x', level });
  }

  /** @type {import('./store.js').Store<Change>} */
  const store = createStore();

  /**
   * Calls `listener(change)` for every later change (see Change in
   * types.d.ts), in the order they happen; returns what stops it.
   */
  const subscribe = store.subscribe;

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
  function archiveChanged() {
    renderPage();
    tell({ cause: 'archive' });
    historySync.changed();
  }

  /** The archive's games, oldest first (the Stats pane's). */
  function archiveGames() {
    return archive.load().games;
  }

  /** Deletes the archive of games, and tells the panes. */
  function clearArchive() {
    archive.clear();
    archiveChanged();
  }

  /** The game as the panes read it (see GameState). */
  function getState() {
    return gameState(state);
  }

  /** What the page needs to draw, beyond the view. */
  function pageState() {
    const status = state.notice ?? gameReview.puzzleStatus() ?? describe(state.view, state);
    const { online, puzzle } = state;
    return {
      view: state.view,
      settings: state.settings,
      thinking: state.thinking,
      paused: state.paused,
      status,
      scores: scoreCard(archive.load().games, state.settings),
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
  function start({ render, aiClient, levels, confirm }) {
    renderPage = () => render(pageState());
    ai = aiClient;
    if (confirm) ask = confirm;
    state.levels = levels;
    state.settings = setup.storedSettings(levels.map((l) => l.name));
    state.game = saving.restore();
    state.review = gameReview.stored(archive.find(state.gameId), state.game.view());
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
  function refresh() {
    announce('language');
  }

  /** Called by the AI client when the worker restarts or gives up. */
  function aiTrouble(kind, detail, reason) {
    if (kind === 'restarting') notify(t(reason === 'slow' ? 'ai.slow' : 'ai.restarting'), 'warn');
    else if (kind === 'failed') notify(t('ai.failed', { error: detail }), 'error');
  }

  return {
    keepAnalysing, evaluationCapped, evaluationQuiet, setLiveEval, analyse, aiProgress, aiSurvey,
    aiAnalysis, getReview, reviewGame, stopReview, getPuzzle, startPuzzle, revealPuzzle,
    leavePuzzle, onlineCreate, onlineJoin, onlineResign, onlineOfferDraw, onlineDeclineDraw,
    onlineLeave, onlineRoom, onlineChat: onlineFeature.chat, onlineConditional: onlineFeature.conditional, onlineSeek, onlineCancelSeek, onlineChallenge, onlineAcceptChallenge, onlineDeclineChallenge, onlineCancelChallenge, playEngineInstead, account, historySync, play, undo, redo, continueHere, step, jump, getLines, jumpToNode,
    showLine, promoteLine, deleteLine, inProgress, newGame, rematch, updateSettings, setPaused,
    loadRecord, subscribe, archiveChanged, archiveGames, clearArchive, getState, pageState, start,
    refresh, aiTrouble,
  };
}
