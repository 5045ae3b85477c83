// @ts-check
// One AI worker (www/worker.js) at a time, as the AiClient of ai.js uses it:
// started, heard while it is the current one, said to be loaded, killed. A
// worker that does not load within LOAD_TIMEOUT_MS, raises an error, posts a
// message that cannot be read or says its wasm could not load is in trouble;
// what to do then (restart it, send the search again) is the client's.

/** Fetching and compiling the wasm on a slow phone and network. */
const LOAD_TIMEOUT_MS = 20000;

/**
 * What the worker posts: a reply of its loop, or www/worker.js's word that
 * the wasm could not load.
 * @typedef {import('./pkg/uttt_worker.js').Reply | {type: 'fatal', message: string}} WorkerMessage
 */

export class WorkerHost {
  /**
   * @param {{
   *   onMessage: (message: import('./pkg/uttt_worker.js').Reply) => void,
   *   onReady: () => void,
   *   onTrouble: (detail: string) => void,
   * }} to who hears the current worker: its replies, its 'ready', its trouble
   */
  constructor(to) {
    this.to = to;
    /** @type {Worker | null} */
    this.worker = null;
    /** True once the current worker said 'ready': its wasm is loaded. */
    this.ready = false;
    /** @type {ReturnType<typeof setTimeout> | null} */
    this.loadTimer = null;
  }

  /** True while there is a worker (loading or loaded). */
  get alive() {
    return this.worker !== null;
  }

  /** Starts a worker in place of none; returns null, or why Workers cannot run here (retrying cannot help). */
  start() {
    this.ready = false;
    let worker;
    try {
      worker = new Worker(new URL('./worker.js', import.meta.url), { type: 'module' });
    } catch (error) {
      this.worker = null;
      return String(error.message);
    }
    this.worker = worker;
    worker.addEventListener('message', (event) => {
      if (worker === this.worker && event.data) this.hear(event.data);
    });
    worker.addEventListener('error', (event) => {
      event.preventDefault();
      if (worker === this.worker) this.to.onTrouble(event.message || 'the worker crashed');
    });
    worker.addEventListener('messageerror', () => {
      if (worker === this.worker) this.to.onTrouble('a message could not be read');
    });
    clearTimeout(this.loadTimer);
    this.loadTimer = setTimeout(() => {
      if (worker === this.worker && !this.ready) this.to.onTrouble('the AI took too long to load');
    }, LOAD_TIMEOUT_MS);
    return null;
  }

  /** @param {WorkerMessage} message */
  hear(message) {
    if (message.type === 'ready') {
      this.ready = true;
      clearTimeout(this.loadTimer);
      this.loadTimer = null;
      this.to.onReady();
    } else if (message.type === 'fatal') {
      this.to.onTrouble(`the AI could not load: ${message.message}`);
    } else {
      this.to.onMessage(message);
    }
  }

  /** @param {import('./pkg/uttt_worker.js').Request} message */
  post(message) {
    if (this.worker) this.worker.postMessage(message);
  }

  /** Terminates the worker, if any: nothing more is heard of it. */
  kill() {
    clearTimeout(this.loadTimer);
    this.loadTimer = null;
    if (this.worker) this.worker.terminate();
    this.worker = null;
    this.ready = false;
  }
}
