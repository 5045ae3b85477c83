// @ts-check
// The live evaluation of the shown position, and every move's worth: while
// a person is to move, the worker's analyst searches the position on the
// board and its reports go to the evaluation bar ('analysis' changes), or,
// with the overlay on, it surveys every legal move ('worth' changes). It
// owns what the page asked for (the bar on screen, the overlay), the cap on
// the time an unwatched analysis may run, the report held while the AI's
// answer waits to be shown, and the Hint's search. It never plays a move,
// and keeps quiet where an evaluation would help one side: online, in a
// puzzle, and (in numbers) during a game against the AI. A watcher of an
// online game sees it WATCH_DELAY moves late, so nobody can pass a player
// help: at the live position the bar evaluates the position that many
// moves back (its report says which: `asOf`), and the worth overlay shows
// only on positions at least that far back.

import { finished as finishedEntry } from '../records.js';
import { WebGame } from '../wasm.js';

/** How many moves behind the live position a watcher's evaluation is. */
export const WATCH_DELAY = 2;

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

/** The fields of a worker's report that the changes carry. */
function reportDetail({ depth, score, mate, xWins, draw, oWins, pv, nodes }) {
  return { depth, score, mate, xWins, draw, oWins, pv, nodes };
}

/**
 * The analysis of the game in `state` (the controller's: game, view,
 * settings, online, thinking, puzzle, gameId), on `ai()`'s worker; its
 * reports go out through `tell`. `isAiTurn()` and `pondering()` are the
 * controller's answers about the AI's turns.
 * @param {{
 *   state: any,
 *   archive: import('../records.js').Archive,
 *   ai: () => import('../ai.js').AiClient | null,
 *   tell: (change: Change) => void,
 *   isAiTurn: () => boolean,
 *   pondering: () => boolean,
 * }} deps
 */
export function createAnalysis({ state, archive, ai: aiOf, tell, isAiTurn, pondering }) {
  /** What the page asks for: the bar shows the evaluation on screen; the overlay is shown. */
  const wanted = { bar: false, overlay: false };
  /** The position the survey under way is of, or null. */
  let surveyed = null;
  /** The survey's last report `{position, cells}` as drawn, or null. */
  let worth = null;
  /** The pondering's last report, kept while the AI's move waits to be shown. */
  let held = null;
  /** The ply a watcher's evaluation is of, when not the shown one's (see analysedPly); else null. */
  let asOf = null;

  /** Whether this page watches an online game (a spectator, not a player). */
  const watching = () => state.online?.role === 'spectator';

  /** The ply analysed: the shown one, but for a watcher never within WATCH_DELAY of the live one. */
  function analysedPly() {
    const { ply, length } = state.view;
    return watching() ? Math.min(ply, Math.max(0, length - WATCH_DELAY)) : ply;
  }

  /** The position analysed (see analysedPly), as the worker reads it. */
  function analysedPosition() {
    const ply = analysedPly();
    asOf = ply === state.view.ply ? null : ply;
    if (asOf === null) return state.game.positionString();
    const back = WebGame.fromText(state.game.record());
    try {
      back.jump(ply);
      return back.positionString();
    } finally {
      back.free();
    }
  }

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
  function keepAnalysing() {
    if (!state.game) return;
    liveFor(analysedPosition());
    pauseLive();
    live.unlimited = true;
    setCapped(false);
    maybeAnalyse();
  }

  /**
   * True while the game on the board is one against the AI still being
   * played: the evaluation bar then keeps the engine's numbers, best line and
   * depth to itself at every position of it (looking back too: they would
   * give the next moves away). False once the game is over (the archive holds
   * it as finished, or its line ends in a finished position), in two-player
   * games and AI against AI, and online (whose bar shows no evaluation).
   */
  function evaluationQuiet() {
    const { mode } = state.settings;
    if (!state.game || state.online || (mode !== 'ai-x' && mode !== 'ai-o')) return false;
    const known = archive.find(state.gameId);
    return !(known && finishedEntry(known)) && !state.view.lineOver;
  }

  /**
   * True when the shown position should be analysed: the bar is shown and
   * on screen (see setLive) and has not reached its cap, or the worth
   * overlay is on; the tab is visible, the AI is not searching, the position
   * is not over, and a person is to move in it (or is looking back at an
   * earlier one). Never for a player online, where it would help one
   * against the other (a watcher's comes WATCH_DELAY moves late), nor in
   * AI against AI, whose own searches are on the bar.
   */
  function wantsAnalysis() {
    const { mode } = state.settings;
    const ai = aiOf();
    const bar = wanted.bar && !live.capped;
    if (!ai || !(bar || wanted.overlay) || document.hidden || (state.online && !watching())) return false;
    if (state.thinking || ai.work === 'search' || ai.work === 'review' || (!state.online && mode === 'watch')) return false;
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
    const ai = aiOf();
    if (!ai) return;
    const report = held;
    held = null;
    const position = analysedPosition();
    if (worth && (worth.position !== position || !wanted.overlay)) showWorth(null);
    liveFor(position);
    if (!wantsAnalysis()) {
      pauseLive();
      if (ai.work === 'analyse' || ai.work === 'survey') ai.stopAnalysing();
      showWorth(null);
      return;
    }
    const atEnd = state.view.ply === state.view.length;
    // The survey (asked for by turning the overlay on) and the AI's own
    // pondering are not the bar's: the cap does not count them.
    // A watcher's overlay waits for a position far enough back (the bar does not).
    if (wanted.overlay && asOf === null) {
      pauseLive();
      if (ai.survey(position, { ponder: atEnd && pondering() })) surveyed = position;
      return;
    }
    if (ai.work === 'ponder' && atEnd) {
      pauseLive();
      if (report) tell({ cause: 'analysis', report });
      return;
    }
    if (ai.analyse(position)) runLive();
    else pauseLive();
  }

  /** Draws `worth` ({position, cells}) on the board, or clears it (null). */
  function showWorth(shown) {
    if (shown === null && worth === null) return;
    worth = shown;
    tell({ cause: 'worth', worth });
  }

  /**
   * Turns the live evaluation on or off (the page calls it as the
   * evaluation bar starts or stops showing the engine's evaluation on
   * screen: shown, in the pane on view, scrolled into view), and the survey
   * of every move's worth (as the overlay is).
   */
  function setLive(on, { worth: overlay = false } = {}) {
    wanted.bar = Boolean(on);
    wanted.overlay = Boolean(overlay);
    maybeAnalyse();
  }

  /**
   * The Hint's search under way, or null.
   * @type {import('../aijobs.js').Job<import('../aijobs.js').Answer> | null}
   */
  let hinting = null;

  /**
   * Asks the engine about the shown position without playing (a hint):
   * resolves `{move, board, cell, score, mate, xWins, draw, oWins, pv}`.
   */
  function hint({ ms = 1000, level = 'master' } = {}) {
    const ai = aiOf();
    if (!ai) return Promise.reject(new Error('the AI is not available'));
    if (state.thinking) return Promise.reject(Object.assign(new Error('the AI is thinking'), { code: 'busy' }));
    if (state.puzzle?.status === 'open') return Promise.reject(Object.assign(new Error('a puzzle is open'), { code: 'puzzle' }));
    const job = ai.search({ text: state.game.positionString(), level, budgetMs: ms });
    hinting = job;
    const settled = () => {
      if (hinting === job) hinting = null;
      // The live evaluation goes on once the hint is answered.
      maybeAnalyse();
    };
    job.result.then(settled, settled);
    return job.result;
  }

  /** Stops the Hint's search under way, if any: the position it was asked about is going. */
  function stopHint() {
    hinting?.cancel();
    hinting = null;
  }

  /** Nobody looks (the tab is hidden): the cap's clock stops. */
  function pause() {
    pauseLive();
  }

  /** Each progress report of the AI's search under way. */
  function onProgress(report) {
    tell({ cause: 'progress', report: reportDetail(report) });
  }

  /**
   * Each report of the survey under way (`{report, cells}`): the best line
   * goes to the bar as an analysis, the cells to the overlay. Reports of a
   * position no longer shown are dropped.
   */
  function onSurvey({ report, cells }) {
    const position = surveyed;
    if (state.thinking || position !== state.game.positionString()) return;
    tell({ cause: 'analysis', report: reportDetail(report) });
    showWorth({ position, cells });
  }

  /**
   * Each report of the analysis or pondering under way, of the position
   * the person is to move in. While the AI's answer waits to be shown, the
   * board is one move behind: the last report is held till then.
   */
  function onAnalysis(report) {
    const detail = asOf === null ? reportDetail(report) : { ...reportDetail(report), asOf };
    if (state.thinking) held = detail;
    else tell({ cause: 'analysis', report: detail });
  }

  return {
    /** Starts, keeps or stops the analysis after any change (see maybeAnalyse). */
    update: maybeAnalyse,
    keepAnalysing,
    /** True when the live evaluation of the shown position stopped at its cap. */
    capped: () => live.capped,
    quiet: evaluationQuiet,
    setLive,
    hint,
    stopHint,
    pause,
    onProgress,
    onSurvey,
    onAnalysis,
  };
}
