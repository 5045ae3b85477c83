// @ts-check
// The sentence in the status line: whose turn, where they must play, that
// the AI is thinking, or the result. Words only; the facts come from the view.

import { t, regionName } from './i18n.js';

/** The side the human plays in mode `mode`, or null when nobody or both do. */
export function humanSide(mode) {
  if (mode === 'ai-x') return 'x';
  if (mode === 'ai-o') return 'o';
  return null;
}

/**
 * The status for `view` under `settings`, as `{text, tone}`; tone is one of
 * 'x', 'o', 'win', 'lose', 'draw', 'thinking', 'info'.
 */
export function describe(view, { settings, thinking, paused = false, online = null }) {
  if (online) return describeOnline(view, online);
  const human = humanSide(settings.mode);
  const side = view.sideToMove;
  const player = side.toUpperCase();
  if (view.outcome) {
    if (view.outcome === 'draw') return { text: t('status.draw'), tone: 'draw' };
    const winner = view.outcome;
    if (human) {
      return human === winner
        ? { text: t('status.youWin'), tone: 'win' }
        : { text: t('status.aiWins'), tone: 'lose' };
    }
    const tiebreak = view.kind === 'ultimate' && view.rules === 'tiebreak' && view.winningBoards.length === 0;
    if (tiebreak) {
      const [xs, os] = view.wonCounts;
      const won = winner === 'x' ? xs : os;
      const lost = winner === 'x' ? os : xs;
      return { text: t('status.winsTiebreak', { player: winner.toUpperCase(), won, lost }), tone: 'win' };
    }
    return { text: t('status.wins', { player: winner.toUpperCase() }), tone: 'win' };
  }
  const aiToMove = settings.mode === 'watch' || (human !== null && human !== side);
  if (thinking) return { text: t('status.thinking', { side: player }), tone: 'thinking' };
  if (aiToMove) {
    if (settings.mode === 'watch' && paused) return { text: t('status.paused', { player }), tone: side };
    if (view.ply < view.length) {
      return { text: t('status.browsingAi', { ply: view.ply, length: view.length }), tone: 'info' };
    }
    return { text: t('status.aiWaiting', { side: player }), tone: side };
  }
  const board = view.requiredBoard === null ? null : regionName(view.requiredBoard);
  if (human) {
    if (view.kind === 'classic') return { text: t('status.yourMove', { side: player }), tone: side };
    return board === null
      ? { text: t('status.yourMayPlay', { side: player }), tone: side }
      : { text: t('status.yourMustPlay', { side: player, board }), tone: side };
  }
  if (view.kind === 'classic') return { text: t('status.toMove', { player }), tone: side };
  return board === null
    ? { text: t('status.mayPlay', { player }), tone: side }
    : { text: t('status.mustPlay', { player, board }), tone: side };
}

/** Online: the connection, the opponent's presence, then whose turn or the result. */
function describeOnline(view, { connection, side, roomState: rs, seek = null, challenge = null }) {
  if (connection === 'unavailable') return { text: t('online.unavailable'), tone: 'info' };
  if (seek) return { text: t('playnow.statusSeeking'), tone: 'info' };
  if (challenge) return { text: t(challenge.to ? 'challenge.statusTo' : 'challenge.status', { name: challenge.to ?? '' }), tone: 'info' };
  if (connection === 'reconnecting') return { text: t('online.reconnecting'), tone: 'info' };
  if (connection === 'restarting') return { text: t('online.restarting'), tone: 'info' };
  if (!rs) return { text: t('online.connecting'), tone: 'info' };
  if (rs.result) {
    const { winner, reason } = rs.result;
    // Resignation, time and agreement are said; a line or a full board
    // speaks for itself.
    const how = (key) => (['resigned', 'time', 'agreed'].includes(reason) ? `${key}.${reason}` : key);
    if (!winner) return afterGame({ text: t(how('online.drawn')), tone: 'draw' }, rs, side);
    if (side) {
      return afterGame(winner === side
        ? { text: t(how('online.youWin')), tone: 'win' }
        : { text: t(how('online.youLose')), tone: 'lose' }, rs, side);
    }
    return { text: t(how('online.wins'), { player: winner.toUpperCase() }), tone: 'win' };
  }
  if (rs.x === 'empty' || rs.o === 'empty') return { text: t('online.waiting'), tone: 'info' };
  const opponent = side && (side === 'x' ? rs.o : rs.x);
  if (opponent === 'disconnected') return { text: t('online.opponentAway'), tone: 'info' };
  // A watcher is told which player is away (and, by the notice, when they are back).
  const away = !side && ['x', 'o'].find((s) => rs[s] === 'disconnected');
  if (away) return { text: t('online.playerAway', { player: away.toUpperCase() }), tone: 'info' };
  // An offer waits for an answer: the status says so, its buttons beside it (offers.js).
  if (side && rs.drawOffer && rs.drawOffer !== side) return { text: t('online.drawOfferedToYou'), tone: 'info' };
  if (side && rs.toMove !== side) return { text: t('online.theirTurn', { side: rs.toMove.toUpperCase() }), tone: rs.toMove };
  const player = view.sideToMove.toUpperCase();
  const board = view.requiredBoard === null ? null : regionName(view.requiredBoard);
  if (side) {
    if (view.kind === 'classic') return { text: t('status.yourMove', { side: player }), tone: view.sideToMove };
    return board === null
      ? { text: t('status.yourMayPlay', { side: player }), tone: view.sideToMove }
      : { text: t('status.yourMustPlay', { side: player, board }), tone: view.sideToMove };
  }
  if (view.kind === 'classic') return { text: t('status.toMove', { player }), tone: view.sideToMove };
  return board === null
    ? { text: t('status.mayPlay', { player }), tone: view.sideToMove }
    : { text: t('status.mustPlay', { player, board }), tone: view.sideToMove };
}

/**
 * A player's result `said`, and then what the room waits on: the opponent
 * gone (no rematch can start), or a rematch asked by either side.
 */
function afterGame(said, rs, side) {
  const other = side === 'x' ? 'o' : 'x';
  const then = rs[other] !== 'connected'
    ? 'online.opponentLeft'
    : rs.rematch.includes(side)
      ? 'online.rematchWaiting'
      : rs.rematch.includes(other) ? 'online.rematchOffered' : null;
  return then ? { ...said, text: t('online.resultThen', { result: said.text, then: t(then) }) } : said;
}

/** The message for a refused click, from the core's error code. */
export function refusal(code, view, error) {
  switch (code) {
    case 'wrong-board':
      return t('refuse.wrong-board', {
        player: view.sideToMove.toUpperCase(),
        board: regionName(view.requiredBoard ?? 0),
      });
    case 'cell-taken':
    case 'board-decided':
    case 'game-over':
    case 'thinking':
    case 'aiTurn':
    case 'watching':
    case 'continueFirst':
    case 'changed':
    case 'onlineOffline':
    case 'onlineWatching':
    case 'onlineAlone':
    case 'onlineTheirTurn':
    case 'puzzleWrong':
    case 'puzzleOver':
      return t(`refuse.${code}`);
    default:
      return t('refuse.other', { error: error ? error.message : code });
  }
}
