// The AI's module Web Worker: loads the same wasm as the page and answers
// one search at a time. The search runs to its deadline without yielding,
// so the page stops a search early by terminating this worker.
//
// Each search is acknowledged with 'received' the moment it arrives, then
// 'started' once the engine is built, then answered with 'result' (or
// 'error'): the page gives each step a deadline, so a worker that died
// quietly (closed, or terminated while idle) is noticed and replaced.

import init, { WebEngine } from './pkg/uttt_web.js';

let engine = null;
let engineLevel = null;

function randomSeed() {
  const words = new Uint32Array(2);
  crypto.getRandomValues(words);
  // 53 bits: the largest integer a JS number carries exactly.
  return (words[0] & 0x1fffff) * 2 ** 32 + words[1];
}

const ready = init().then(
  () => {
    postMessage({ type: 'ready' });
    return true;
  },
  (error) => {
    postMessage({ type: 'fatal', message: String(error && error.message ? error.message : error) });
    return false;
  },
);

/** The engine for `level`, made on first use; a level change makes a new one. */
function engineFor(level) {
  if (!engine || engineLevel !== level) {
    if (engine) engine.free();
    engine = null;
    engine = new WebEngine(level, randomSeed());
    engineLevel = level;
  }
  return engine;
}

function search({ id, text, level, budgetMs }) {
  engineFor(level);
  postMessage({ type: 'started', id });
  const result = engine.search(text, budgetMs, (depth, score, mate, pv, nodes) => {
    postMessage({ type: 'progress', id, depth, score, mate: mate ?? null, pv: pv.split(' ').filter(Boolean), nodes });
  });
  try {
    postMessage({
      type: 'result',
      id,
      board: result.board,
      cell: result.cell,
      move: result.notation,
      score: result.score,
      mate: result.mate ?? null,
      depth: result.depth,
      nodes: result.nodes,
      pv: Array.from(result.pv),
      elapsedMs: result.elapsedMs,
    });
  } finally {
    result.free();
  }
}

self.addEventListener('message', async (event) => {
  const message = event.data;
  // First thing, before waiting for the wasm or building an engine: the page
  // learns this worker is alive and has the question.
  if (message && message.type === 'search') postMessage({ type: 'received', id: message.id });
  if (!(await ready)) return;
  if (message && message.type === 'search') {
    try {
      search(message);
    } catch (error) {
      postMessage({
        type: 'error',
        id: message.id,
        code: (error && error.code) || 'crash',
        message: String(error && error.message ? error.message : error),
      });
    }
  } else if (message && message.type === 'newGame') {
    // Made now, the engine (and its table, up to 64 MiB) is ready before the first question.
    try {
      if (engine && engineLevel === message.level) engine.newGame();
      else engineFor(message.level);
    } catch (error) {
      postMessage({ type: 'error', id: null, code: error.code || 'crash', message: String(error.message ?? error) });
    }
  }
});
