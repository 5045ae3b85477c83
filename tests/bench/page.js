// Measures the wasm build in the page: perft and the `uttt bench` search,
// timed with performance.now() because the core has no clock. run.js calls
// these functions; they run on the main thread, where nothing else
// competes on this otherwise empty page.

import init, { perftCount, SearchBench } from './pkg/uttt_bench.js';

const ready = init();

/**
 * Untimed warm-up: V8 first runs wasm from its baseline compiler and
 * optimises hot functions a little later, on a background thread. A page
 * that thinks for a second runs optimised code almost all the time, so that
 * is the speed to compare. A short warm-up is not enough on a 2-core
 * machine: the first full round of the search bench ran at 3.3-4.6 M
 * nodes/s where the following ones ran at 5.0-5.5, so one whole untimed
 * round of the same work comes first.
 */
window.warmUp = async (perftDepth, depth, positions) => {
  await ready;
  perftCount('ultimate', Math.max(1, perftDepth - 1));
  await window.benchSearch(depth, positions);
};

/** Perft `depth` from the start of Ultimate: leaves and milliseconds. */
window.benchPerft = async (depth) => {
  await ready;
  const start = performance.now();
  const leaves = perftCount('ultimate', depth);
  return { leaves, ms: performance.now() - start };
};

/**
 * `positions` bench positions searched to `depth`: nodes and the
 * milliseconds of the searches alone; the table clear before each position
 * is not timed, as natively.
 */
window.benchSearch = async (depth, positions) => {
  await ready;
  const bench = new SearchBench(depth, positions, undefined);
  let nodes = 0;
  let ms = 0;
  try {
    for (let i = 0; i < bench.count; i += 1) {
      bench.prepare(i);
      const start = performance.now();
      nodes += bench.search(i);
      ms += performance.now() - start;
    }
  } finally {
    // The 16 MiB table lives in wasm memory until freed.
    bench.free();
  }
  return { nodes, ms };
};

document.getElementById('status').textContent = 'ready';
