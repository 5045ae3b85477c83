// @ts-check
// The game review and its puzzles: at the end of every game (and on
// demand) the worker's analyst reviews every move ('review' changes as it
// goes); a finished review is kept with the game in the archive and brings
// the puzzles it found. A puzzle shows its position, and a click on the
// board answers it instead of playing until the position is left
// ('puzzle' changes). The review belongs to one line of one game: another
// line on the board drops it, and the line kept with it brings it back.

import { packReview, unpackReview } from '../reviews.js';
import { t } from '../i18n.js';
import { refusalOf } from './play.js';

/**
 * The review of the game in `state` (the controller's: its `review` and
 * `puzzle` are this feature's to change), on `ai()`'s worker. What it needs
 * of the controller: `announce(cause)` and `tell(change)`, `archiveChanged()`,
 * `afterWork()` once the worker is free again (the live evaluation may go
 * on), `clearNotice()`, `showPosition(ply, before)` (stops the AI, shows the
 * position after `ply` moves, calling `before()` first, and commits),
 * and `jump(ply)`.
 * @param {{
 *   state: any,
 *   archive: import('../records.js').Archive,
 *   ai: () => import('../ai.js').AiClient | null,
 *   tell: (change: Change) => void,
 *   announce: (cause: GameCause) => void,
 *   archiveChanged: () => void,
 *   afterWork: () => void,
 *   clearNotice: () => void,
 *   showPosition: (ply: number, before: () => void) => void,
 *   jump: (ply: number) => void,
 * }} deps
 */
export function createReview(deps) {
  const { state, archive, ai: aiOf, tell, announce, archiveChanged, afterWork, clearNotice, showPosition, jump } = deps;
  /**
   * The worker's review of the game (state.review's while it runs).
   * @type {import('../aijobs.js').Job<import('../aijobs.js').ReviewEnd> | null}
   */
  let reviewing = null;

  /** The review of the game on the board (see state.review), or null. */
  function getReview() {
    return state.review;
  }

  /** Replaces the review (stopping one under way) and says so. */
  function setReview(review) {
    if (state.review?.status === 'running') reviewing?.cancel();
    // A puzzle is one of the review's: it ends with it.
    if (state.puzzle) setPuzzle(null);
    state.review = review;
    tell({ cause: 'review', review });
  }

  /** The review kept with the archive `entry`, if it is of the game on the board (whose view is `view`), or null. */
  function storedReview(entry, view) {
    if (!entry?.review || entry.record !== state.game.record()) return null;
    return unpackReview(entry.review, entry.record, view.moves);
  }

  /**
   * Drops the review once the line on the board is no longer the one
   * reviewed; a line kept with a review in the archive (the game as it
   * finished) brings its review back.
   */
  function dropStaleReview() {
    if (state.review?.record === state.game.record()) return;
    const stored = storedReview(archive.find(state.gameId), state.view);
    if (state.review || stored) setReview(stored);
  }

  /**
   * Reviews every move of the game on the board in the worker (at the end of
   * every game, and on demand): the review's progress comes as 'review'
   * events, and a finished review is kept with the game in the archive.
   * False when there is nothing to review or it cannot be done now: no
   * moves, the AI is thinking, or an online game is still being played
   * (a review would help one player).
   */
  function reviewGame() {
    const ai = aiOf();
    const record = state.game.record();
    const liveOnline = state.online && state.online.roomState?.result == null;
    if (!ai || !record || state.view.length === 0 || state.thinking || ai.work === 'search' || liveOnline) return false;
    const review = { record, status: 'running', total: state.view.length, moves: [], x: null, o: null };
    setReview(review);
    const current = () => state.review === review;
    const onMove = (move, done, total) => {
      if (!current()) return;
      review.moves.push(move);
      review.total = total;
      tell({ cause: 'review', review });
    };
    const job = ai.review(record, onMove);
    reviewing = job;
    const settled = () => {
      if (reviewing === job) reviewing = null;
    };
    job.result.then(settled, settled);
    job.result.then(
      ({ x, o, puzzles = [] }) => {
        if (!current()) return;
        Object.assign(review, { status: 'done', x, o, puzzles: puzzles.map((p) => ({ ...p, status: 'open' })) });
        if (archive.attachReview(state.gameId, record, packReview(review))) archiveChanged();
        tell({ cause: 'review', review });
        afterWork();
      },
      (error) => {
        if (!current()) return;
        review.status = 'stopped';
        review.error = error.code;
        tell({ cause: 'review', review });
        // The worker is free again: the live evaluation may go on.
        afterWork();
      },
    );
    return true;
  }

  /** Stops the review under way, keeping what it found so far. */
  function stopReview() {
    if (state.review?.status !== 'running') return;
    state.review.status = 'stopped';
    reviewing?.cancel();
    tell({ cause: 'review', review: state.review });
    afterWork();
  }

  /** The puzzle being solved, with its review's fields (see reviews.js) and `stored`, the review's status of it; or null. */
  function getPuzzle() {
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
   * Starts puzzle `index` of the finished review: its position is shown, and
   * a click on the board answers it (see answerPuzzle) instead of playing,
   * until the position is left. The AI and the live evaluation wait. False
   * if there is no such puzzle, or online.
   */
  function startPuzzle(index) {
    const found = state.review?.status === 'done' ? state.review.puzzles?.[index] : undefined;
    if (!found || state.online || state.review.record !== state.game.record()) return false;
    // The core reads the answer's notation where the puzzle stands.
    const square = state.game.moveAfter(found.ply, found.solution[0]);
    if (square === undefined) return false;
    const answer = { board: Math.floor(square / 9), cell: square % 9 };
    const from = state.puzzle?.from ?? state.view.ply;
    showPosition(found.ply, () => setPuzzle({ index, status: 'open', tries: 0, answer, from }));
    return true;
  }

  /** A click at (`board`, `cell`) during a puzzle: the answer solves it; any other legal move is a wrong try, and nothing is played. */
  function answerPuzzle(board, cell, refuse) {
    const { puzzle } = state;
    if (puzzle.status !== 'open') return refuse('puzzleOver');
    if (puzzle.answer.board === board && puzzle.answer.cell === cell) {
      settlePuzzle('solved');
      return { ok: true };
    }
    const error = refusalOf(state.game, board, cell);
    if (error) return refuse(error.code ?? 'other', error);
    puzzle.tries += 1;
    setPuzzle(puzzle);
    return refuse('puzzleWrong');
  }

  /** Shows the answer of the puzzle being solved: it is then done, unsolved. */
  function revealPuzzle() {
    if (state.puzzle?.status !== 'open') return false;
    settlePuzzle('revealed');
    return true;
  }

  /**
   * Ends this attempt as `status` ('solved' | 'revealed'). The review keeps
   * the puzzle's best outcome (solved once stays solved), stored with the game.
   */
  function settlePuzzle(status) {
    const { review, puzzle } = state;
    clearNotice();
    puzzle.status = status;
    const found = review.puzzles[puzzle.index];
    if (found.status !== 'solved') found.status = status;
    if (archive.attachReview(state.gameId, review.record, packReview(review))) archiveChanged();
    tell({ cause: 'review', review });
    setPuzzle(puzzle);
    announce('puzzle-answer');
    afterWork();
  }

  /** Leaves the puzzle: the position shown before it comes back. */
  function leavePuzzle() {
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

  return {
    get: getReview,
    set: setReview,
    stored: storedReview,
    dropStale: dropStaleReview,
    start: reviewGame,
    stop: stopReview,
    puzzle: getPuzzle,
    setPuzzle,
    puzzleShown,
    startPuzzle,
    answerPuzzle,
    revealPuzzle,
    leavePuzzle,
    puzzleStatus,
  };
}
