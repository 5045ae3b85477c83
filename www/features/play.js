// @ts-check
// Playing and browsing the game on the board: a person's move (online, it
// goes to the server; in a puzzle, it answers it), Undo and Redo (against
// the AI, a move and its reply), a jump to any position of the line shown,
// the other lines (shown, promoted, deleted), Continue from an earlier
// position, and AI vs AI's Step. Every rule is the core's: a refusal says
// what the core said.
//
// Variations: a move from an earlier position starts a new line there and
// the later moves stay as another (core's tree, through WebGame); the page
// shows one line at a time, whose record is the game for the archive, the
// review and the AI, and the tree holds every line for saving and sharing.

import { refusal, humanSide } from '../status.js';
import { showSavedLine } from './saving.js';

/**
 * The core's refusal of a move at (`board`, `cell`) at the cursor of
 * `game`, which does not change; null when it is legal.
 * @param {import('../pkg/uttt_page.js').WebGame} game
 * @param {number} board
 * @param {number} cell
 */
export function refusalOf(game, board, cell) {
  try {
    game.check(board, cell);
    return null;
  } catch (error) {
    return error;
  }
}

/**
 * Play and browsing in the game of `state` (the controller's). What it
 * needs of the controller: `notify(text)` and `clearNotice()`,
 * `commit(cause, options)`; of the AI's turns `stopAi()`,
 * `maybeStartAi(options)` and `isAiTurn()`; `playOnline(board, cell,
 * refuse)` and `answerPuzzle(board, cell, refuse)` for a click online or in
 * a puzzle.
 * @param {{
 *   state: any,
 *   notify: (text: string, tone?: string) => void,
 *   clearNotice: () => void,
 *   commit: (cause: GameCause, options?: { played?: boolean, forward?: boolean }) => void,
 *   stopAi: () => void,
 *   maybeStartAi: (options?: { step?: boolean }) => void,
 *   isAiTurn: () => boolean,
 *   playOnline: (board: number, cell: number, refuse: Function) => any,
 *   answerPuzzle: (board: number, cell: number, refuse: Function) => any,
 * }} deps
 */
export function createPlay(deps) {
  const { state, notify, clearNotice, commit, stopAi, maybeStartAi, isAiTurn, playOnline, answerPuzzle } = deps;

  /** Whether "Continue from here" applies: an earlier position of an AI game where the AI is to move. */
  function canContinue() {
    const { view } = state;
    return view.ply < view.length && view.outcome === null && isAiTurn() && !state.live && !state.puzzle;
  }

  /**
   * Plays a move for the human at `cell` of `board`. Returns
   * `{ok: true}` or `{ok: false, code, message}`; a refusal is also shown.
   */
  async function play(board, cell) {
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
   * From an earlier position of a game against the AI where the AI is to move:
   * lets the AI play from here; the later moves stay in the game (as another
   * line, unless the AI plays them again).
   */
  async function continueHere() {
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
  function undo() {
    return walk(undoSteps(), () => state.game.undo(), 'undo');
  }

  /** Replays what Undo took back. */
  function redo() {
    return walk(redoSteps(), () => state.game.redo(), 'redo');
  }

  /** AI vs AI, paused: plays one move. */
  function step() {
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
  function jump(ply) {
    const from = state.view.ply;
    browse('jump', () => state.game.jump(ply), { forward: ply === from + 1 });
  }

  /** Every line of the game in its record's order (see WebGame.lines in crates/web/src/lines.rs). */
  function getLines() {
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
  function jumpToNode(node) {
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
  function showLine(line, cursor) {
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
  function promoteLine(node) {
    return browse('lines', () => state.game.promote(node));
  }

  /** Deletes the move to position `node` and every move after it. */
  function deleteLine(node) {
    return browse('lines', () => state.game.deleteLine(node));
  }

  return {
    play,
    canContinue,
    continueHere,
    undoSteps,
    redoSteps,
    undo,
    redo,
    step,
    jump,
    browse,
    getLines,
    jumpToNode,
    showLine,
    promoteLine,
    deleteLine,
  };
}
