// Every visible English string, by key, and the lookup the page uses.
// The review engineer's i18n.js imports EN as its English table and installs
// a translator with setTranslator(); until then (or for a missing key) the
// English text is used, so the page never shows a bare key.

/** The English strings. `{name}` marks a parameter. */
export const EN = {
  'app.title': 'Ultimate Tic-Tac-Toe',
  'app.loading': 'Loading the game…',
  'app.loadFailed': 'The game could not start: {error}. Reload the page to try again.',
  'board.label': 'Game board',
  'board.small': '{board} board',
  'board.smallWon': '{board} board, won by {player}',
  'board.smallDrawn': '{board} board, drawn',
  'cell.label': '{board} board, {cell} cell, {content}',
  'cell.labelClassic': '{cell} cell, {content}',
  'cell.labelPlayable': '{board} board, {cell} cell, {content}, playable',
  'cell.labelClassicPlayable': '{cell} cell, {content}, playable',
  'cell.x': 'X',
  'cell.o': 'O',
  'cell.empty': 'empty',
  'player.you': 'You',
  'status.mustPlay': '{player} must play in the {board} board.',
  'status.mayPlay': '{player} may play in any open board.',
  'status.toMove': '{player} to move.',
  'status.yourMustPlay': 'Your turn ({side}): play in the {board} board.',
  'status.yourMayPlay': 'Your turn ({side}): play in any open board.',
  'status.yourMove': 'Your turn ({side}).',
  'status.thinking': 'The AI ({side}) is thinking…',
  'status.aiWaiting': 'The AI ({side}) moves next.',
  'status.wins': '{player} wins!',
  'status.winsTiebreak': '{player} wins on the tie-break, {won} boards to {lost}.',
  'status.youWin': 'You win! Well played.',
  'status.aiWins': 'The AI wins this one.',
  'status.draw': 'It is a draw.',
  'refuse.thinking': 'Please wait: the AI is thinking.',
  'refuse.aiTurn': 'It is the AI’s turn, not yours.',
  'refuse.watching': 'The AIs are playing each other. Change “Players” to join in.',
  'refuse.wrong-board': 'Not there: {player} must play in the {board} board.',
  'refuse.cell-taken': 'That cell is already taken.',
  'refuse.board-decided': 'That board is already decided; pick an open one.',
  'refuse.game-over': 'The game is over. Start a new game to play again.',
  'refuse.other': 'That move is not allowed: {error}',
  'ai.restarting': 'The AI stopped unexpectedly; restarting it. Your game is safe.',
  'ai.failed': 'The AI is not available right now ({error}). Your game is saved; try New game or play two players.',
  'ai.slow': 'The AI took too long; it was restarted and is trying again.',
  'storage.corrupt': 'Your saved game could not be read, so a new game was started (the old data was set aside).',
  'storage.unavailable': 'This browser does not let the page save games; your game will not survive a reload.',
  'btn.new': 'New game',
  'btn.undo': 'Undo',
  'btn.redo': 'Redo',
  'scores.draws': 'Draws',
  'kind.ultimate': 'Ultimate',
  'kind.classic': 'Classic',
  'mode.ai-x': 'You (X) vs AI',
  'mode.ai-o': 'AI vs you (O)',
  'mode.human': 'Two players',
  'mode.watch': 'AI vs AI',
  'level.beginner': 'Beginner',
  'level.easy': 'Easy',
  'level.medium': 'Medium',
  'level.hard': 'Hard',
  'level.master': 'Master',
  'rules.standard': 'Standard',
  'rules.tiebreak': 'Tie-break (most boards wins)',
};

let translator = null;
let coreRegions = [];
const listeners = new Set();

/**
 * Installs a translator: `(key, params) => string | undefined`. Returning
 * undefined falls back to English. Re-renders every subscriber.
 */
export function setTranslator(fn) {
  translator = typeof fn === 'function' ? fn : null;
  for (const f of listeners) f();
}

/** Calls `fn` whenever the language changes. */
export function onLanguageChange(fn) {
  listeners.add(fn);
}

/** Region names as the core spells them, set once the wasm is loaded. */
export function setRegionNames(names) {
  coreRegions = Array.from(names);
}

function fill(template, params) {
  return template.replace(/\{(\w+)\}/g, (m, name) =>
    params && Object.prototype.hasOwnProperty.call(params, name) ? String(params[name]) : m);
}

/** The string for `key` in the current language, with `{name}` filled in. */
export function t(key, params) {
  const translated = translator ? translator(key, params) : undefined;
  if (typeof translated === 'string') return translated;
  const english = EN[key];
  return english === undefined ? key : fill(english, params);
}

/** The name of region `i` (0-8) of a 3x3 board, e.g. "top-right". */
export function regionName(i) {
  const translated = translator ? translator(`region.${i}`) : undefined;
  if (typeof translated === 'string') return translated;
  return coreRegions[i] ?? String(i);
}
