// Loads the WebAssembly module once and turns its snapshots into plain
// objects, so the rest of the page never holds wasm memory.

import init, { WebGame, apiVersion, levelNames, levelBudgetMs } from './pkg/uttt_web.js';

let loaded = null;

/** Loads and instantiates the wasm module (idempotent). */
export function loadWasm() {
  if (!loaded) loaded = init();
  return loaded;
}

export { WebGame, apiVersion };

/**
 * The levels the engine offers, weakest first: `[{name, budgetMs}]`.
 * Read from the core so the page never invents a level.
 */
export function levels() {
  return Array.from(levelNames(), (name) => ({ name, budgetMs: levelBudgetMs(name) }));
}

/** A plain-object copy of `game.view()`; the wasm snapshot is freed at once. */
export function readView(game) {
  const v = game.view();
  try {
    return {
      kind: v.kind,
      rules: v.rules,
      cells: Array.from(v.cells),
      legal: Array.from(v.legal),
      playable: Array.from(v.playable),
      boardStatus: Array.from(v.boardStatus),
      boardLines: Array.from(v.boardLines),
      outcome: v.outcome ?? null,
      bigLine: Array.from(v.bigLine),
      lastBoard: v.lastBoard ?? null,
      lastCell: v.lastCell ?? null,
      sideToMove: v.sideToMove,
      requiredBoard: v.requiredBoard ?? null,
      redoBoard: v.redoBoard ?? null,
      redoCell: v.redoCell ?? null,
      wonCounts: Array.from(v.wonCounts),
      ply: v.ply,
      length: v.length,
      moves: Array.from(v.moves),
    };
  } finally {
    v.free();
  }
}
