// @ts-check
// The game as the panes read it, from the controller's state: one plain
// object per change (GameState in types.d.ts), and the move the board last
// went over (Step).

import { humanSide } from './status.js';

/**
 * The game of the controller's `state` as the panes read it.
 * @returns {GameState}
 */
export function gameState(state) {
  const { settings, view, online } = state;
  const human = online ? online.side : humanSide(settings.mode);
  const ended = online?.roomState?.result ?? null;
  return {
    kind: view.kind,
    rules: view.rules,
    mode: /** @type {GameState['mode']} */ (online ? 'online' : human ? 'ai' : settings.mode),
    level: settings.level,
    levelO: settings.levelO,
    humanSide: human,
    record: state.game.record() ?? null,
    tree: state.game.treeRecord() ?? null,
    node: view.node,
    lineEnd: view.lineEnd,
    sideLines: view.sideLines,
    position: state.game.positionString(),
    cursor: view.ply,
    length: view.length,
    moves: view.moves.slice(),
    toMove: view.sideToMove,
    over: online ? ended !== null : view.outcome !== null,
    result: online ? ended && (ended.winner ?? 'draw') : view.outcome,
    winningThree: view.kind === 'ultimate' ? view.winningBoards.slice() : view.winningCells.slice(0, 3).filter((c) => c !== 255),
    wonCounts: view.wonCounts.slice(),
    thinking: state.thinking,
    paused: state.paused,
    gameId: state.gameId,
    puzzle: state.puzzle?.status ?? null,
  };
}

/**
 * The move the cursor of `view` last went over, as the panes are told it, or null.
 * @returns {Step | null}
 */
export function lastStep(view) {
  if (view.ply === 0 || view.lastBoard == null || view.lastCell == null) return null;
  const status = view.kind === 'ultimate' ? view.boardStatus[view.lastBoard] : 0;
  return {
    board: view.lastBoard,
    cell: view.lastCell,
    side: /** @type {Side} */ (view.sideToMove === 'x' ? 'o' : 'x'),
    notation: view.moves[view.ply - 1],
    decided: /** @type {Step['decided']} */ (status === 1 ? 'x' : status === 2 ? 'o' : status === 3 ? 'draw' : null),
  };
}
