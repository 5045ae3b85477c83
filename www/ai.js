// The page's side of the AI worker: one search at a time, each with an id so
// a late answer to an old question is never used; terminate-and-restart when
// a search must stop at once, when the worker crashes or fails to load.

const LOAD_TIMEOUT_MS = 20000;
/** Time allowed beyond the level's budget before the worker is presumed stuck. */
export const MARGIN_MS = 1500;
const MAX_ATTEMPTS = 3;

function failure(code, message) {
  const error = new Error(message);
  error.code = code;
  return error;
}

/**
 * A client for www/worker.js.
 * `onProgress(report)` receives progress of the current search only;
 * `onTrouble(kind, detail, reason)` hears 'restarting' (reason 'crash' or
 * 'slow') and 'failed'.
 */
export class AiClient {
  constructor({ onProgress = () => {}, onTrouble = () => {} } = {}) {
    this.onProgress = onProgress;
    this.onTrouble = onTrouble;
    this.nextId = 1;
    this.pending = null;
    this.worker = null;
    this.ready = false;
    this.failures = 0;
    this.spawn();
  }

  /** True while a search is outstanding. */
  get busy() {
    return this.pending !== null;
  }

  spawn() {
    this.ready = false;
    let worker;
    try {
      worker = new Worker(new URL('./worker.js', import.meta.url), { type: 'module' });
    } catch (error) {
      // Workers are unavailable here: retrying cannot help.
      this.worker = null;
      const job = this.pending;
      if (job) {
        this.pending = null;
        this.onTrouble('failed', error.message);
        job.reject(failure('failed', `could not start the worker: ${error.message}`));
      }
      return;
    }
    this.worker = worker;
    worker.addEventListener('message', (event) => this.receive(worker, event.data));
    worker.addEventListener('error', (event) => {
      event.preventDefault();
      if (worker === this.worker) this.trouble(event.message || 'the worker crashed');
    });
    worker.addEventListener('messageerror', () => {
      if (worker === this.worker) this.trouble('a message could not be read');
    });
    clearTimeout(this.loadTimer);
    this.loadTimer = setTimeout(() => {
      if (worker === this.worker && !this.ready) this.trouble('the AI took too long to load');
    }, LOAD_TIMEOUT_MS);
  }

  kill() {
    clearTimeout(this.loadTimer);
    if (this.pending) clearTimeout(this.pending.timer);
    if (this.worker) this.worker.terminate();
    this.worker = null;
  }

  /** The worker failed: restart it and resend the pending search, a few times. */
  trouble(detail, reason = 'crash') {
    this.kill();
    this.failures += 1;
    const job = this.pending;
    if (!job) {
      // Nobody is waiting: retry a few times, then wait for the next search.
      if (this.failures < MAX_ATTEMPTS) setTimeout(() => this.worker || this.spawn(), 300 * this.failures);
      return;
    }
    if (job.attempts >= MAX_ATTEMPTS) {
      this.pending = null;
      this.onTrouble('failed', detail);
      job.reject(failure('failed', detail));
      return;
    }
    this.onTrouble('restarting', detail, reason);
    // A short pause so a worker that fails at once does not spin.
    setTimeout(() => {
      if (this.pending !== job) return;
      if (!this.worker) this.spawn();
      if (this.worker) this.send(job);
    }, 150 * job.attempts);
  }

  send(job) {
    job.id = this.nextId;
    this.nextId += 1;
    job.attempts += 1;
    job.started = false;
    this.worker.postMessage({ type: 'search', id: job.id, text: job.text, level: job.level, budgetMs: job.budgetMs });
  }

  receive(worker, message) {
    if (worker !== this.worker || !message) return;
    const job = this.pending;
    switch (message.type) {
      case 'ready':
        this.ready = true;
        this.failures = 0;
        clearTimeout(this.loadTimer);
        break;
      case 'fatal':
        this.trouble(`the AI could not load: ${message.message}`);
        break;
      case 'started':
        if (job && message.id === job.id) {
          job.started = true;
          job.timer = setTimeout(() => {
            if (this.pending === job) this.trouble('the AI went over its time', 'slow');
          }, job.budgetMs + MARGIN_MS);
        }
        break;
      case 'progress':
        if (job && message.id === job.id) this.onProgress(message);
        break;
      case 'result':
        if (job && message.id === job.id) {
          clearTimeout(job.timer);
          this.pending = null;
          job.resolve(message);
        }
        break;
      case 'error':
        if (job && message.id === job.id) {
          if (message.code === 'crash') {
            this.trouble(message.message);
          } else {
            clearTimeout(job.timer);
            this.pending = null;
            job.reject(failure(message.code, message.message));
          }
        }
        break;
      default:
        break;
    }
  }

  /**
   * Asks for a move in the position `text` (record or position string) at
   * `level` within `budgetMs`. Resolves with the worker's result; rejects
   * with code 'cancelled' (see cancel), 'failed', or the engine's error code.
   */
  search({ text, level, budgetMs }) {
    if (this.pending) this.cancel();
    return new Promise((resolve, reject) => {
      const job = { text, level, budgetMs, resolve, reject, attempts: 0, timer: null };
      this.pending = job;
      if (!this.worker) {
        this.failures = 0;
        this.spawn();
      }
      if (this.worker) this.send(job);
      else {
        this.pending = null;
        reject(failure('failed', 'the AI worker could not be started'));
      }
    });
  }

  /**
   * Abandons the current search at once: its promise rejects with
   * 'cancelled', and the busy worker is replaced so the next search does not
   * wait for the old one to reach its deadline.
   */
  cancel() {
    const job = this.pending;
    if (!job) return;
    this.pending = null;
    clearTimeout(job.timer);
    this.kill();
    this.spawn();
    job.reject(failure('cancelled', 'the search was cancelled'));
  }

  /** Tells the engine a new game at `level` began: it forgets the old one and gets ready. */
  newGame(level) {
    if (this.worker && !this.pending) this.worker.postMessage({ type: 'newGame', level });
  }
}
