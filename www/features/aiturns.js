// @ts-check
// The AI's turns: when the AI is to move, its search goes to the worker;
// its answer is played after a short least time (so play feels natural) or,
// in AI vs AI, after the speed's pause, unless anything happened meanwhile.
// Undo, a jump, a new game or new settings stop the search: its answer is
// then ignored.

import { humanSide } from '../status.js';
import { t } from '../i18n.js';

/** The least time an AI move takes to appear, so play feels natural. */
export const MIN_AI_MS = 400;

/** The pause before each move of AI vs AI, by speed. */
export const WATCH_DELAY_MS = Object.freeze({ slow: 1400, normal: 600, fast: 0 });

/**
 * The AI's turns in the game of `state` (the controller's; `thinking` is
 * this feature's to change), on `ai()`'s worker. `announce(cause)` and
 * `notify(text, tone)` tell a change; `clearNotice()`; `commit(cause,
 * {played})` tells the move played; `onAnswer(result)` hears the search's
 * answer as its last report; `stopHint()` stops a Hint's search, which
 * goes with the AI's when the position is left.
 * @param {{
 *   state: any,
 *   ai: () => import('../ai.js').AiClient | null,
 *   announce: (cause: GameCause) => void,
 *   notify: (text: string, tone?: string) => void,
 *   clearNotice: () => void,
 *   commit: (cause: GameCause, options: { played: boolean }) => void,
 *   onAnswer: (result: any) => void,
 *   stopHint: () => void,
 * }} deps
 */
export function createAiTurns({ state, ai: aiOf, announce, notify, clearNotice, commit, onAnswer, stopHint }) {
  /**
   * The AI's search under way, or whose answer waits to be shown; null once
   * anything stops it (undo, new game, settings, jump, load): an answer is
   * played only while its search is this one.
   * @type {import('../aijobs.js').Job<import('../aijobs.js').Answer> | null}
   */
  let turn = null;

  /** The level that plays `side` ('x' | 'o') in the current settings. */
  function levelOf(side) {
    const { mode, level, levelO } = state.settings;
    return mode === 'watch' && side === 'o' ? levelO : level;
  }

  /** True when the AI is to move in the shown position (never online). */
  function isAiTurn() {
    if (state.online) return false;
    const { mode } = state.settings;
    if (mode === 'watch') return true;
    const human = humanSide(mode);
    return human !== null && state.view.sideToMove !== human;
  }

  /** The time a move of `level` may take. */
  function budgetFor(level) {
    const found = state.levels.find((l) => l.name === level);
    return found ? found.budgetMs : 1000;
  }

  /** Stops the AI's search (its answer is then ignored) or its pondering. */
  function stopAi() {
    const stopped = turn;
    turn = null;
    // A Hint of the position being left goes too.
    stopHint();
    if (state.thinking) {
      state.thinking = false;
      stopped?.cancel();
    } else {
      aiOf()?.stopAnalysing();
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

  /**
   * Starts the AI's search when it is to move at the end of the line (or
   * from an earlier position after Continue); in AI vs AI not while paused,
   * unless `step`. Its move is played after MIN_AI_MS at least (AI vs AI: the
   * speed's pause).
   */
  function maybeStartAi({ step = false } = {}) {
    const ai = aiOf();
    const { view } = state;
    if (!ai || state.thinking || view.outcome || !isAiTurn()) return;
    if (view.ply < view.length && !state.live) return;
    const watching = state.settings.mode === 'watch';
    if (watching && state.paused && !step) return;
    const text = state.game.positionString();
    const level = levelOf(view.sideToMove);
    const started = performance.now();
    const least = watching ? Math.max(WATCH_DELAY_MS[state.settings.speed] ?? 0, 150) : MIN_AI_MS;
    state.thinking = true;
    announce('thinking');
    const mine = ai.search({ text, level, budgetMs: budgetFor(level), ponder: pondering() });
    turn = mine;
    mine.result.then(
      (result) => {
        // The answer may differ from the last depth reported: a better move
        // found in the depth the clock cut short.
        if (turn === mine) onAnswer(result);
        const wait = Math.max(0, least - (performance.now() - started));
        setTimeout(() => applyAiMove(mine, text, result), wait);
      },
      (error) => {
        if (turn !== mine) return;
        turn = null;
        state.thinking = false;
        if (error.code === 'cancelled') return;
        notify(t('ai.failed', { error: error.message }), 'error');
      },
    );
  }

  /** Plays the AI's answer `result` to search `mine` of position `text`, unless anything happened since. */
  function applyAiMove(mine, text, result) {
    // Stale if anything happened since the question was asked.
    if (turn !== mine || state.game.positionString() !== text) return;
    turn = null;
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

  return { levelOf, isAiTurn, pondering, stop: stopAi, maybeStart: maybeStartAi };
}
