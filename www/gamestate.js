// @ts-check
// The controller's state of the game, and the game as the panes read it
// from it: one plain object per change (GameState in types.d.ts), and the
// move the board last went over (Step).

import { humanSide } from './status.js';

/**
 * The settings of a first visit.
 * @type {Readonly<Settings>}
 */
export const DEFAULT_SETTINGS = Object.freeze({
  kind: 'ultimate',
  mode: 'ai-x',
  level: 'medium',
  levelO: 'medium',
  rules: 'standard',
  speed: 'normal',
  ponder: true,
});

/**
 * A fresh state of the game, which the features read. Who changes what:
 * the game itself (`game`, `view`, `gameId`) the controller's commit and the
 * features that replace or move it (setup.js: a new game or a record
 * loaded; play.js: moves and browsing; online.js: the room's game);
 * `settings`, `levels`, `live` and `paused` setup.js and play.js;
 * `thinking` the AI's turns; `review` and `puzzle` the review;
 * `notice` the controller; `online` the online feature.
 */
export function createGameState() {
  return {
    /** @type {Settings} */
    settings: { ...DEFAULT_SETTINGS },
    /** @type {{name: string, budgetMs: number}[]} */
    levels: [],
    /** @type {import('./pkg/uttt_page.js').WebGame | null} */
    game: null,
    /** @type {import('./pkg/uttt_page.js').View | null} */
    view: null,
    /** Identifies the game in the archive: undo and replay never make a second entry. */
    gameId: '',
    /** True while the AI searches its move. */
    thinking: false,
    /** The status line's notice in place of the turn (`{text, tone, key?}`), or null. */
    notice: null,
    /** AI vs AI only: no new move starts while paused (Step plays one). */
    paused: false,
    /** True once the player chose "Continue from here": the AI moves from an earlier position. */
    live: false,
    /**
     * The review of the game on the board (see reviews.js for its fields;
     * status 'running', 'done' or 'stopped'), or null. It belongs to one
     * record: a move that changes the record drops it.
     */
    review: null,
    /**
     * The puzzle being solved, one of the review's (see startPuzzle), or
     * null: `{index, status, tries, answer, from}`: which puzzle, 'open' |
     * 'solved' | 'revealed' for this attempt, the wrong answers so far, the
     * answer's `{board, cell}`, and the ply shown before it started. Its
     * position is on the board; showing another position ends it.
     */
    puzzle: null,
    /**
     * While in an online session (features/online.js's OnlineState):
     * the connection, the room and this page's role and side in it, its last
     * state, and the ids of the games already put in the archive and of
     * those seen being played.
     * @type {import('./features/online.js').OnlineState | null}
     */
    online: null,
  };
}

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
    endReason: ended?.reason ?? null,
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
