// Measures the wasm build in the page: perft and the `uttt bench` search,
// timed with performance.now() because the core has no clock. run.js calls
// window.benchmark(); it runs on the main thread, where nothing else
// competes on this otherwise empty page.

import init, { perftCount, SearchBench } from './pkg/uttt_web.js';

const ready = init();

/**
 * One measurement of each: perft `perftDepth` from the start of Ultimate,
 * then `positions` bench positions searched to `depth`. Returns counts and
 * milliseconds; a table clear before each position is not timed, as natively.
 */
window.benchmark = async ({ perftDepth, depth, positions }) => {
  await ready;
  // Untimed warm-up: V8 first runs wasm from its baseline compiler and
  // optimises hot functions a little later. A page that thinks for a second
  // runs optimised code almost all the time, so that is the speed to compare.
  perftCount('ultimate', 6);
  const warm = new SearchBench(7, 1, 1);
  warm.prepare(0);
  warm.search(0);
  warm.free();

  const perftStart = performance.now();
  const leaves = perftCount('ultimate', perftDepth);
  const perftMs = performance.now() - perftStart;

  const bench = new SearchBench(depth, positions, undefined);
  let nodes = 0;
  let searchMs = 0;
  try {
    for (let i = 0; i < bench.count; i += 1) {
      bench.prepare(i);
      const start = performance.now();
      nodes += bench.search(i);
      searchMs += performance.now() - start;
    }
  } finally {
    // The 16 MiB table lives in wasm memory until freed.
    bench.free();
  }
  return { leaves, perftMs, nodes, searchMs };
};

document.getElementById('status').textContent = 'ready';
