// @ts-check
// What the page uses of its WebAssembly module: its loading, WebGame
// (whose view() is a plain object the page draws from), the levels and the
// version.

import init, { WebGame, apiVersion, levelNames, levelBudgetMs } from './pkg/uttt_page.js';

/** Loads and instantiates the wasm module: main.js calls it once, before anything uses the module. */
export { init as loadWasm, WebGame, apiVersion };

/**
 * The levels the engine offers, weakest first: `[{name, budgetMs}]`.
 * Read from the core so the page never invents a level.
 */
export function levels() {
  return Array.from(levelNames(), (name) => ({ name, budgetMs: levelBudgetMs(name) }));
}

