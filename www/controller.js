// The game controller: owns the game, the settings and the scores, turns
// clicks and buttons into core calls, asks the worker for AI moves, saves
// after every change, and tells the page (and other modules, through
// `uttt:*` events on document) what changed.

import { WebGame, readView } from './wasm.js';
import * as storage from './storage.js';
import { describe, refusal, humanSide } from './status.js';
import { t } from './text.js';

/** The least time an AI move takes to appear, so play feels natural. */
export const MIN_AI_MS = 400;

export const DEFAULT_SETTINGS = Object.freeze({ kind: 'ultimate', mode: 'ai-x', level: 'medium', rules: 'standard' });

const state = {
  settings: { ...DEFAULT_SETTINGS },
  levels: [],
  game: null,
  view: null,
  thinking: false,
  notice: null,
  scores: {},
  branchGuard: null,
};

let ai = null;
let renderPage = () => {};
// Bumped whenever a pending AI answer must be ignored: undo, new game,
// settings, jump, load. An answer is used only if its token is current.
let token = 0;

function emit(name, detail) {
  document.dispatchEvent(new CustomEvent(name, { detail }));
}

/** The state in the shape other modules rely on (see NOTES-review.md). */
export function getState() {
  const { settings, view } = state;
  const human = humanSide(settings.mode);
  return {
    kind: view.kind,
    rules: view.rules,
    mode: human ? 'ai' : settings.mode,
    level: settings.level,
    humanSide: human,
    record: state.game.record() ?? null,
    position: state.game.positionString(),
    cursor: view.ply,
    length: view.length,
    moves: view.moves.slice(),
    toMove: view.sideToMove,
    over: view.outcome !== null,
    result: view.outcome,
    thinking: state.thinking,
  };
}

/** What the page needs to draw, beyond the view. */
export function pageState() {
  const status = state.notice ?? describe(state.view, state);
  const key = `${state.settings.kind}/${state.settings.mode}`;
  return {
    view: state.view,
    settings: state.settings,
    thinking: state.thinking,
    status,
    scores: state.scores[key] ?? { x: 0, o: 0, draw: 0 },
    canUndo: undoSteps() > 0,
    canRedo: redoSteps() > 0,
    interactive: !state.thinking && !isAiTurn(),
    levels: state.levels,
  };
}

function isAiTurn() {
  const { mode } = state.settings;
  if (mode === 'watch') return true;
  const human = humanSide(mode);
  return human !== null && state.view.sideToMove !== human;
}

function budgetFor(level) {
  const found = state.levels.find((l) => l.name === level);
  return found ? found.budgetMs : 1000;
}

function persist() {
  const record = state.game.record();
  storage.saveGame(record ? { record, cursor: state.view.ply } : { position: state.game.positionString() });
}

/** Re-reads the view, saves, redraws and announces; starts the AI if it is its turn. */
function commit({ played = false } = {}) {
  state.view = readView(state.game);
  persist();
  if (played && state.view.outcome) {
    const key = `${state.settings.kind}/${state.settings.mode}`;
    const row = state.scores[key] ?? { x: 0, o: 0, draw: 0 };
    row[state.view.outcome] += 1;
    state.scores[key] = row;
    storage.saveScores(state.scores);
  }
  renderPage();
  const detail = getState();
  emit('uttt:state', detail);
  if (played && state.view.outcome) emit('uttt:gameover', detail);
  maybeStartAi();
}

function notify(text, tone = 'warn') {
  state.notice = { text, tone };
  renderPage();
}

function clearNotice() {
  state.notice = null;
}

function stopAi() {
  token += 1;
  if (state.thinking || (ai && ai.busy)) {
    state.thinking = false;
    if (ai) ai.cancel();
  }
}

function maybeStartAi() {
  const { view } = state;
  if (!ai || state.thinking || view.outcome || view.ply < view.length || !isAiTurn()) return;
  const mine = ++token;
  const text = state.game.positionString();
  const level = state.settings.level;
  const started = performance.now();
  state.thinking = true;
  renderPage();
  emit('uttt:state', getState());
  ai.search({ text, level, budgetMs: budgetFor(level) }).then(
    (result) => {
      const wait = Math.max(0, MIN_AI_MS - (performance.now() - started));
      setTimeout(() => applyAiMove(mine, text, result), wait);
    },
    (error) => {
      if (mine !== token) return;
      state.thinking = false;
      if (error.code === 'cancelled') return;
      notify(t('ai.failed', { error: error.message }), 'error');
      emit('uttt:state', getState());
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
  commit({ played: true });
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
  if (state.thinking) return refuse('thinking');
  if (!state.view.outcome) {
    if (state.settings.mode === 'watch') return refuse('watching');
    if (isAiTurn()) {
      const result = refuse('aiTurn');
      // The AI may have given up earlier (worker failure): a click asks again.
      maybeStartAi();
      return result;
    }
  }
  // Playing from an earlier position drops the later moves, unless the move
  // is the next recorded one (then it is a redo): ask the guard first.
  const { ply, length, redoBoard, redoCell } = state.view;
  const index = state.view.kind === 'ultimate' ? board * 9 + cell : cell;
  const isRedo = redoBoard === board && redoCell === cell;
  if (ply < length && !isRedo && state.branchGuard && state.view.legal[index] === 1) {
    const allowed = await state.branchGuard(ply, length);
    if (!allowed) return { ok: false, code: 'declined', message: '' };
  }
  try {
    state.game.play(board, cell);
  } catch (error) {
    return refuse(error.code ?? 'other', error);
  }
  clearNotice();
  commit({ played: true });
  return { ok: true };
}

/** How many plies Undo takes back: against the AI, your move and its reply. */
function undoSteps() {
  if (!state.view) return 0;
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
  if (!state.view) return 0;
  const { ply, length, sideToMove } = state.view;
  const human = humanSide(state.settings.mode);
  const left = length - ply;
  if (left === 0) return 0;
  if (!human) return 1;
  const other = sideToMove === 'x' ? 'o' : 'x';
  return other === human || left === 1 ? 1 : 2;
}

/** Steps the cursor `steps` times with `step` (undo or redo), cancelling a search. */
function walk(steps, step) {
  if (steps === 0) return false;
  stopAi();
  clearNotice();
  for (let i = 0; i < steps; i += 1) step();
  commit();
  return true;
}

/** Takes back the last move (against the AI: yours and its reply). Cancels a search. */
export function undo() {
  return walk(undoSteps(), () => state.game.undo());
}

/** Replays what Undo took back. */
export function redo() {
  return walk(redoSteps(), () => state.game.redo());
}

/** Starts a new game with the current settings; scores are kept. */
export function newGame() {
  stopAi();
  clearNotice();
  const fresh = new WebGame(state.settings.kind, state.settings.rules);
  if (state.game) state.game.free();
  state.game = fresh;
  if (ai && state.settings.mode !== 'human') ai.newGame(state.settings.level);
  commit();
}

/** Changes settings (any of kind, mode, level, rules) and starts a new game. */
export function updateSettings(changes) {
  state.settings = { ...state.settings, ...changes };
  storage.saveSettings(state.settings);
  newGame();
}

/** Shows the position after `ply` moves without losing the later ones. */
export function jump(ply) {
  stopAi();
  clearNotice();
  state.game.jump(ply);
  commit();
}

/**
 * Replaces the game by one read from a record or position string. On error
 * returns `{ok: false, error}` and leaves the current game untouched.
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
  state.game.free();
  state.game = loaded;
  const view = readView(loaded);
  const settings = { ...state.settings, kind: view.kind, rules: view.rules };
  // Against the AI, a loaded game continues with you to move, so the AI
  // does not answer before you have looked at it.
  const human = humanSide(settings.mode);
  if (human && !view.outcome && human !== view.sideToMove) {
    settings.mode = view.sideToMove === 'x' ? 'ai-x' : 'ai-o';
  }
  if (JSON.stringify(settings) !== JSON.stringify(state.settings)) {
    state.settings = settings;
    storage.saveSettings(state.settings);
  }
  commit();
  return { ok: true };
}

/** Installs `async (cursor, length) => boolean`, asked before a move drops later moves. */
export function setBranchGuard(fn) {
  state.branchGuard = typeof fn === 'function' ? fn : null;
}

/**
 * Asks the engine about the current position without playing
 * (a hint): resolves `{move, board, cell, score, mate, pv}`.
 */
export function analyse({ ms = 1000, level = 'master' } = {}) {
  if (!ai) return Promise.reject(new Error('the AI is not available'));
  if (state.thinking) return Promise.reject(Object.assign(new Error('the AI is thinking'), { code: 'busy' }));
  return ai.search({ text: state.game.positionString(), level, budgetMs: ms });
}

function restoreGame() {
  const saved = storage.loadGame();
  if (!saved) return new WebGame(state.settings.kind, state.settings.rules);
  let game = null;
  try {
    game = WebGame.fromText(saved.record ?? saved.position);
    if (saved.record) game.jump(saved.cursor);
    const view = readView(game);
    if (view.kind !== state.settings.kind || view.rules !== state.settings.rules) {
      throw new Error('the saved game does not match the saved settings');
    }
    return game;
  } catch (error) {
    if (game) game.free();
    storage.reportCorruptGame(error.message ?? error);
    return new WebGame(state.settings.kind, state.settings.rules);
  }
}

/**
 * Starts the controller: restores settings, scores and the game (setting
 * aside anything unreadable), draws, and lets the AI move if it is its turn.
 * `render(pageState)` redraws the page; `aiClient` may be null.
 */
export function start({ render, aiClient, levels }) {
  renderPage = () => render(pageState());
  ai = aiClient;
  state.levels = levels;
  const names = levels.map((l) => l.name);
  const settings = storage.loadSettings(names) ?? { ...DEFAULT_SETTINGS };
  if (!names.includes(settings.level)) settings.level = names.includes('medium') ? 'medium' : names[0];
  state.settings = settings;
  state.scores = storage.loadScores() ?? {};
  state.game = restoreGame();
  if (ai && settings.mode !== 'human') ai.newGame(settings.level);
  const problems = storage.takeProblems();
  if (problems.length > 0) {
    state.notice = { text: t('storage.corrupt'), tone: 'warn' };
    storage.saveSettings(state.settings);
    storage.saveScores(state.scores);
  }
  commit();
  if (!storage.storageAvailable()) notify(t('storage.unavailable'));
}

/** Redraws the page (e.g. after a language change). */
export function refresh() {
  renderPage();
}

/** Called by the AI client when the worker restarts or gives up. */
export function aiTrouble(kind, detail, reason) {
  if (kind === 'restarting') notify(t(reason === 'slow' ? 'ai.slow' : 'ai.restarting'), 'warn');
  else if (kind === 'failed') notify(t('ai.failed', { error: detail }), 'error');
}

/** Called for each progress report of the current search. */
export function aiProgress(report) {
  emit('uttt:progress', { depth: report.depth, score: report.score, mate: report.mate, pv: report.pv, nodes: report.nodes });
}
