// @ts-check
// The AI's module Web Worker. Its message loop is in Rust
// (crates/web/src/worker/: requests, ids, replies, the engine); this file
// only loads the wasm, keeps the messages that arrive meanwhile for the
// loop to answer first, and tells the page if the wasm cannot load.

import init, { runWorker } from './pkg/uttt_worker.js';

const early = [];
const keep = (event) => early.push(event.data);
self.addEventListener('message', keep);

init()
  .then(() => {
    self.removeEventListener('message', keep);
    runWorker(early);
  })
  .catch((error) => {
    postMessage({ type: 'fatal', message: String(error && error.message ? error.message : error) });
  });
