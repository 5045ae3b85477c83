// @ts-check
// The game's setup: the settings and the games they start. A new game, a
// rematch (colours swapped against the AI), new settings that change the
// game, a record loaded: each replaces the game on the board, asking first
// when a game in progress would be lost; the game replaced is set aside in
// the archive of games (saving.js). AI vs AI's pause is a setting of the
// game's pace.

import { WebGame } from '../wasm.js';
import { humanSide } from '../status.js';
import { newGameId } from './saving.js';
import { DEFAULT_SETTINGS } from '../gamestate.js';

/** Settings that only change how the game is shown or paced, never the game itself. */
const LIVE_SETTINGS = new Set(['speed', 'ponder']);

/**
 * The setup of the game in `state` (the controller's; `settings`, `game`,
 * `gameId`, `live` and `paused` are this feature's to change). `ask()` is
 * the question installed at start: `ask()(question, details)` resolves true
 * when the player agrees to lose the game in progress; `commit(cause)` and `announce(cause)` tell a change (see the
 * controller's); the others are the features' (aiturns.js, saving.js,
 * review.js, analysis.js).
 * @param {{
 *   state: any,
 *   storage: import('../storage.js').GameStorage,
 *   archive: import('../records.js').Archive,
 *   ai: () => import('../ai.js').AiClient | null,
 *   ask: () => (question: string, details?: {moves?: number}) => Promise<boolean>,
 *   commit: (cause: GameCause) => void,
 *   announce: (cause: GameCause) => void,
 *   stopAi: () => void,
 *   levelOf: (side: 'x' | 'o') => string,
 *   clearNotice: () => void,
 *   setAside: () => void,
 *   setReview: (review: any) => void,
 *   storedReview: (entry: any, view: any) => any,
 *   afterSettings: () => void,
 * }} deps
 */
export function createSetup(deps) {
  const { state, storage, archive, ai: aiOf, ask, commit, announce, stopAi, levelOf, clearNotice, setAside, setReview, storedReview, afterSettings } = deps;

  /** True while the game on the board has moves and has not finished: replacing it asks first. */
  function inProgress() {
    return state.view.length > 0 && !archive.find(state.gameId);
  }

  /** Tells the engine a new game began, when an AI plays in it. */
  function engineNewGame() {
    const ai = aiOf();
    if (ai && state.settings.mode !== 'human') ai.newGame(levelOf('x'));
  }

  /** Puts the game on the board aside (stopping the AI) to make room for another. */
  function clearBoard() {
    stopAi();
    clearNotice();
    setAside();
  }

  function startFresh() {
    clearBoard();
    const fresh = new WebGame(state.settings.kind, state.settings.rules);
    if (state.game) state.game.free();
    state.game = fresh;
    state.gameId = newGameId();
    state.live = false;
    state.paused = false;
    setReview(null);
    engineNewGame();
    commit('new-game');
  }

  /** Resolves true when the player agreed to lose the game in progress, or there was nothing to lose. */
  async function agreeToLeave(question) {
    if (!inProgress()) return true;
    return ask()(question, { moves: state.view.length });
  }

  /** Starts a new game with the current settings, asking first if a game is in progress. */
  async function newGame() {
    if (state.online) return false;
    if (!(await agreeToLeave('newGame'))) return false;
    startFresh();
    return true;
  }

  /** Rematch: a new game with the colours swapped (against the AI), no question asked. */
  function rematch() {
    const { mode } = state.settings;
    if (mode === 'ai-x' || mode === 'ai-o') {
      state.settings = { ...state.settings, mode: mode === 'ai-x' ? 'ai-o' : 'ai-x' };
      storage.saveSettings(state.settings);
    }
    startFresh();
  }

  /**
   * Changes settings (any of kind, mode, level, levelO, rules, speed,
   * ponder). A change of the game starts a new one, asking first if a game is
   * in progress; declined, nothing changes. Resolves true when applied.
   */
  async function updateSettings(changes) {
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
    if (!next.ponder) aiOf()?.stopAnalysing();
    if (restart) startFresh();
    else {
      announce('settings');
      // A survey on the AI's engine moves to the analyst once pondering is off.
      afterSettings();
    }
    return true;
  }

  /** AI vs AI: pauses or resumes the game. */
  function setPaused(paused) {
    if (state.settings.mode !== 'watch') return;
    state.paused = Boolean(paused);
    if (state.paused) stopAi();
    commit('pause');
  }

  /**
   * Replaces the game by one read from a record or position string (the game
   * on the board goes to the archive if unfinished). On error returns
   * `{ok: false, error}` and leaves the current game untouched.
   */
  function loadRecord(text) {
    let loaded;
    try {
      loaded = WebGame.fromText(text);
    } catch (error) {
      return { ok: false, error };
    }
    clearBoard();
    state.game.free();
    state.game = loaded;
    const view = loaded.view();
    const settings = settingsToGoOn(view);
    if (settings.mode === 'watch') state.paused = true;
    if (JSON.stringify(settings) !== JSON.stringify(state.settings)) {
      state.settings = settings;
      storage.saveSettings(state.settings);
    }
    // The same game loaded again (a replay from the archive) keeps its entry.
    const known = archive.load().games.find((g) => (g.tree ?? g.record) === (loaded.treeRecord() ?? ''));
    state.gameId = known?.id ?? newGameId();
    state.live = false;
    setReview(storedReview(known, view));
    commit('load');
    return { ok: true };
  }

  /**
   * The settings that go on with the loaded game of `view`: its kind and
   * rules; against the AI, you to move, so the AI does not answer before
   * you have looked at it.
   */
  function settingsToGoOn(view) {
    const settings = { ...state.settings, kind: view.kind, rules: view.rules };
    const human = humanSide(settings.mode);
    if (human && !view.outcome && human !== view.sideToMove) {
      settings.mode = view.sideToMove === 'x' ? 'ai-x' : 'ai-o';
    }
    return settings;
  }

  /**
   * The settings stored, or the defaults, with levels that exist in
   * `names` (a stored level no longer offered falls back to medium).
   * @param {string[]} names
   * @returns {Settings}
   */
  function storedSettings(names) {
    const fallback = names.includes('medium') ? 'medium' : names[0];
    const settings = { ...DEFAULT_SETTINGS, ...(storage.loadSettings(names) ?? {}) };
    if (!names.includes(settings.level)) settings.level = fallback;
    if (!names.includes(settings.levelO)) settings.levelO = settings.level;
    return settings;
  }

  return { inProgress, newGame, rematch, updateSettings, setPaused, loadRecord, storedSettings, engineNewGame };
}
