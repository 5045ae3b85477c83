// @ts-check
// The page's side of the AI worker: one search at a time, each with an id so
// a late answer to an old question is never used; a `stop` message when a
// search or pondering must end (the worker searches in slices of about
// 10 ms, so it sees one at once, and keeps its table); terminate-and-restart
// when the worker crashes, fails to load, or dies quietly.
//
// A worker can die without a word: closed (`self.close()`), or terminated by
// the browser while idle. Messages to it are then dropped and no error event
// comes. So every request has its own deadline from the moment it is sent,
// one step at a time, and the worker speaks at each step:
//
//   sent      -> 'received' (first thing, before any work): ACK_TIMEOUT_MS
//   received  -> 'started'  (engine built, search begins):  START_TIMEOUT_MS
//   started   -> 'result'                                   budgetMs + MARGIN_MS
//
// While the worker has not yet reported 'ready', the load timeout stands in
// for the first two deadlines (fetching and compiling the wasm may be slow);
// 'ready' then arms them. A missed deadline is treated like a crash: the
// worker is replaced and the request sent again, MAX_ATTEMPTS times in all.

const LOAD_TIMEOUT_MS = 20000;
/**
 * How long a loaded worker may take to acknowledge a request. It answers at
 * once when idle; the allowance covers an engine being built for a new game
 * (its table takes up to 64 MiB) just before the request, on a slow machine.
 */
const ACK_TIMEOUT_MS = 3000;
/** From the acknowledgement to the start of the search: building the engine. */
const START_TIMEOUT_MS = 5000;
/** Time allowed beyond the level's budget before the worker is presumed stuck. */
export const MARGIN_MS = 1500;
const MAX_ATTEMPTS = 3;
/**
 * How long a review may go without reviewing a move (one search of some
 * 200,000 nodes: a few hundred milliseconds on a slow phone) before the
 * worker is presumed stuck.
 */
const REVIEW_STEP_TIMEOUT_MS = 15000;

/** @typedef {import('./pkg/uttt_worker.js').Report} Report */
/** @typedef {import('./pkg/uttt_worker.js').SurveyReport} SurveyReport */
/** @typedef {import('./pkg/uttt_worker.js').ReviewedMove} ReviewedMove */
/** @typedef {{x: import('./pkg/uttt_worker.js').ReviewSummary, o: import('./pkg/uttt_worker.js').ReviewSummary, puzzles: import('./pkg/uttt_worker.js').FoundPuzzle[]}} ReviewEnd */
/**
 * What the worker posts: a reply of its loop, or www/worker.js's word that
 * the wasm could not load.
 * @typedef {import('./pkg/uttt_worker.js').Reply | {type: 'fatal', message: string}} WorkerMessage
 */
/**
 * An error with the worker's code, or the page's own: 'failed' (the worker
 * could not be started or kept alive), 'busy' (a search is under way).
 * @typedef {Error & {code: import('./pkg/uttt_worker.js').ErrorCode | 'failed' | 'busy'}} AiError
 */

/**
 * @param {AiError['code']} code
 * @param {string} message
 * @returns {AiError}
 */
function failure(code, message) {
  return Object.assign(new Error(message), { code });
}

/**
 * A client for www/worker.js (its message loop: crates/web/src/worker/).
 * `onProgress(report)` receives progress of the current search only;
 * `onAnalysis(report)` the reports of the current analysis (see analyse) or
 * of the pondering after the last answer, both of the position the person
 * is to move in; `onSurvey({report, cells})` those of the current survey
 * (see survey); `onTrouble(kind, detail, reason)` hears 'restarting' and 'failed'.
 * The reason of 'restarting' is 'crash' (an error, or a failed load),
 * 'silent' (the worker stopped answering without an error: closed or
 * terminated) or 'slow' (the search went over its budget and the margin).
 */
export class AiClient {
  /**
   * @param {{
   *   onProgress?: (report: Report) => void,
   *   onAnalysis?: (report: Report) => void,
   *   onSurvey?: (survey: SurveyReport) => void,
   *   onTrouble?: (kind: 'restarting' | 'failed', detail: string, reason?: 'crash' | 'silent' | 'slow') => void,
   * }} [handlers]
   */
  constructor({ onProgress = () => {}, onAnalysis = () => {}, onSurvey = () => {}, onTrouble = () => {} } = {}) {
    this.onProgress = onProgress;
    this.onAnalysis = onAnalysis;
    this.onSurvey = onSurvey;
    this.onTrouble = onTrouble;
    /** The id whose 'analysis' or 'survey' reports are current: an analysis's, a survey's or a pondering search's. */
    this.analysisId = null;
    /** True while the analysis reports come from pondering after an answer. */
    this.pondering = false;
    /** The id of the last search answered, until anything else is asked. */
    this.answered = null;
    /** What the worker analyses or surveys: 'analyse ' or 'survey ' and the position (see analyse, survey), or null. */
    this.analysed = null;
    /**
     * The game review under way (see review), or null.
     * @type {{id: number, onMove: (reviewed: ReviewedMove, done: number, total: number) => void,
     *   resolve: (end: ReviewEnd) => void, reject: (error: AiError) => void, timer: ReturnType<typeof setTimeout> | null} | null}
     */
    this.reviewing = null;
    this.nextId = 1;
    this.pending = null;
    this.worker = null;
    this.ready = false;
    this.failures = 0;
    this.loadTimer = null;
    this.spawn();
    this.showWork();
  }

  /** True while a search is outstanding. */
  get busy() {
    return this.pending !== null;
  }

  /**
   * What the page has the worker doing, as far as the page knows: 'search'
   * (a move or a hint), 'review', 'ponder' (the AI thinking on after its
   * move), 'analyse' or 'survey' (the live evaluation, the worth overlay),
   * or 'idle'. An analysis or pondering the worker ended by itself (its
   * time was up or the position is solved) still counts until the page
   * stops it, so 'idle' is never claimed while the worker may search.
   */
  get work() {
    if (this.pending) return 'search';
    if (this.reviewing) return 'review';
    if (this.analysisId === null) return 'idle';
    if (this.pondering) return 'ponder';
    return this.analysed?.startsWith('survey ') ? 'survey' : 'analyse';
  }

  /**
   * Mirrors `work` on the root element as `data-ai-work`, so that tests
   * (and anyone looking in the inspector) can see whether the worker is
   * spending a core: tests/engine-quiet.spec.js polls it for 'idle'.
   */
  showWork() {
    if (typeof document === 'undefined') return;
    const work = this.work;
    if (document.documentElement.dataset.aiWork !== work) document.documentElement.dataset.aiWork = work;
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
        this.showWork();
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
    this.endAnalysis();
    this.endReview(failure('failed', 'the AI worker stopped'));
    clearTimeout(this.loadTimer);
    this.loadTimer = null;
    if (this.pending) this.disarm(this.pending);
    if (this.worker) this.worker.terminate();
    this.worker = null;
    this.ready = false;
  }

  /**
   * The worker failed: restart it and resend the pending search, a few times.
   * @param {string} detail
   * @param {'crash' | 'silent' | 'slow'} [reason]
   */
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
      this.showWork();
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
    job.step = 'sent';
    this.arm(job);
    this.worker.postMessage({
      type: 'search',
      id: job.id,
      text: job.text,
      level: job.level,
      budgetMs: job.budgetMs,
      ponder: job.ponder,
    });
  }

  /**
   * Sets the deadline for the step `job` waits for (see the top of this
   * file). Before 'ready' only a started search has one of its own: the
   * load timeout covers a worker that is still loading.
   */
  arm(job) {
    this.disarm(job);
    let ms;
    let detail;
    /** @type {'silent' | 'slow'} */
    let reason;
    if (job.step === 'started') {
      ms = job.budgetMs + MARGIN_MS;
      detail = 'the AI went over its time';
      reason = 'slow';
    } else if (!this.ready) {
      return;
    } else if (job.step === 'sent') {
      ms = ACK_TIMEOUT_MS;
      detail = 'the AI did not answer';
      reason = 'silent';
    } else {
      ms = START_TIMEOUT_MS;
      detail = 'the AI did not start its search';
      reason = 'silent';
    }
    job.timer = setTimeout(() => {
      job.timer = null;
      if (this.pending === job) this.trouble(detail, reason);
    }, ms);
  }

  disarm(job) {
    clearTimeout(job.timer);
    job.timer = null;
  }

  /** The search `job` is over: no deadline, nothing pending. */
  settle(job) {
    this.disarm(job);
    this.pending = null;
    this.showWork();
  }

  /**
   * @param {Worker} worker
   * @param {WorkerMessage} message
   */
  receive(worker, message) {
    if (worker !== this.worker || !message) return;
    const job = this.pending;
    const current = Boolean(job) && 'id' in message && message.id === job.id;
    switch (message.type) {
      case 'ready':
        this.ready = true;
        this.failures = 0;
        clearTimeout(this.loadTimer);
        this.loadTimer = null;
        // A request sent while loading now has a deadline of its own.
        if (job && job.step !== 'started') this.arm(job);
        if (this.reviewing) this.armReview();
        break;
      case 'fatal':
        this.trouble(`the AI could not load: ${message.message}`);
        break;
      case 'received':
        if (current && job.step === 'sent') {
          job.step = 'received';
          this.arm(job);
        }
        break;
      case 'started':
        if (current && job.step !== 'started') {
          job.step = 'started';
          this.arm(job);
        }
        break;
      case 'progress':
        if (current) this.onProgress(message.report);
        break;
      case 'analysis':
        if (message.id === this.analysisId && this.analysisId !== null) this.onAnalysis(message.report);
        break;
      case 'survey':
        if (message.id === this.analysisId && this.analysisId !== null) this.onSurvey(message.report);
        break;
      case 'result':
        if (current) {
          this.settle(job);
          this.answered = job.id;
          job.resolve(message.reply);
        }
        break;
      case 'reviewMove':
        if (this.reviewing && message.id === this.reviewing.id) {
          this.armReview();
          this.reviewing.onMove(message.reviewed, message.done, message.total);
        }
        break;
      case 'puzzleChecked':
        // After the moves, the review checks each candidate puzzle.
        if (this.reviewing && message.id === this.reviewing.id) this.armReview();
        break;
      case 'reviewed':
        if (this.reviewing && message.id === this.reviewing.id) {
          const { resolve } = this.reviewing;
          this.endReview(null);
          resolve({ x: message.x, o: message.o, puzzles: message.puzzles });
        }
        break;
      case 'pondering':
        // Only if nothing was asked or stopped since the answer.
        if (message.id === this.answered) {
          this.analysisId = message.id;
          this.pondering = true;
        }
        break;
      case 'error':
        if (this.reviewing && message.id === this.reviewing.id) {
          this.endReview(failure(message.code, message.message));
        } else if (current) {
          if (message.code === 'crash') {
            this.trouble(message.message);
          } else {
            this.settle(job);
            job.reject(failure(message.code, message.message));
          }
        }
        break;
      default:
        break;
    }
    this.showWork();
  }

  /**
   * Asks for a move in the position `text` (record or position string) at
   * `level` within `budgetMs`. Resolves with the worker's answer (`reply` of
   * its 'result': board, cell, move, score, mate, xWins, draw, oWins, depth, nodes, pv,
   * elapsedMs); rejects with code 'cancelled' (see cancel), 'failed', or the
   * engine's error code. Never waits forever: each step of the request has a
   * deadline. With `ponder`, Hard and Master think on after answering, on the
   * position the opponent's expected reply brings, until the next request
   * (see stopPondering).
   */
  search({ text, level, budgetMs, ponder = false }) {
    this.endAnalysis();
    this.endReview(failure('cancelled', 'the review gave way to a search'));
    if (this.pending) this.cancel();
    return new Promise((resolve, reject) => {
      const job = { text, level, budgetMs, ponder: Boolean(ponder), resolve, reject, attempts: 0, step: null, timer: null };
      this.pending = job;
      if (!this.worker) {
        this.failures = 0;
        this.spawn();
      }
      if (this.worker) this.send(job);
      else if (this.pending === job) {
        this.pending = null;
        reject(failure('failed', 'the AI worker could not be started'));
      }
      this.showWork();
    });
  }

  /**
   * Abandons the current search at once: its promise rejects with
   * 'cancelled', and the worker is told to stop (it answers the old id with
   * an error nobody waits for). Its engine and table stay for the next
   * search; a worker that does not take the next request in time is
   * replaced by that request's deadline.
   */
  cancel() {
    const job = this.pending;
    if (!job) return;
    this.settle(job);
    this.post({ type: 'stop' });
    job.reject(failure('cancelled', 'the search was cancelled'));
  }

  /**
   * Analyses the position `text` (record or position string) in the
   * worker's analyst, until the next request: its reports go to
   * onAnalysis. Nothing waits for it, so it has no deadline; a worker that
   * died meanwhile is replaced by the next search's. The same position
   * asked again while it is analysed changes nothing. False (nothing sent)
   * while a search is outstanding or there is no worker.
   */
  analyse(text) {
    return this.watch(`analyse ${text}`, { type: 'analyse', text });
  }

  /**
   * Surveys every legal move of the position `text` until the next
   * request, as analyse does: each completed depth goes to onSurvey as
   * `{report, cells}` (report: the best line, as onAnalysis's; cells: each
   * move's {board, cell, expected, mate, exact, depth}, the best first).
   * With `ponder`, it runs on the AI's engine when that engine ponders, so
   * the AI's next search starts warm.
   */
  survey(text, { ponder = false } = {}) {
    return this.watch(`survey ${ponder} ${text}`, { type: 'survey', text, ponder: Boolean(ponder) });
  }

  /** Sends `request` (an analysis or a survey, known as `key`) under a new id, unless it is already under way. */
  watch(key, request) {
    if (this.pending || this.reviewing || !this.worker) return false;
    if (this.analysed === key) return true;
    const id = this.nextId;
    this.nextId += 1;
    this.endAnalysis();
    this.analysisId = id;
    this.analysed = key;
    this.post({ ...request, id });
    this.showWork();
    return true;
  }

  /** Reports from before now are not current any more. */
  endAnalysis() {
    this.analysisId = null;
    this.pondering = false;
    this.answered = null;
    this.analysed = null;
    this.showWork();
  }

  /**
   * Stops the worker's pondering or analysis, if any: the position it was
   * about is gone. A review goes on (browsing it is what it is for).
   */
  stopPondering() {
    this.endAnalysis();
    if (!this.pending && !this.reviewing) this.post({ type: 'stop' });
  }

  /**
   * Reviews every move of the game `text` (a record) in the worker's
   * analyst: `onMove(reviewed, done, total)` hears each move as it is
   * done (reviewed: ply, played, best, line, mark, loss, xBefore, xAfter).
   * Resolves `{x, o, puzzles}` (each summary: accuracy, counts; each
   * puzzle: ply, mover, goal, played, solution, expected); rejects with
   * code 'cancelled' (cancelReview, or a search or another review asked
   * meanwhile), 'failed' (the worker died or went silent; it is replaced
   * at the next search) or the engine's error code. Each move has a
   * deadline, so it never waits forever. Any analysis stops first.
   */
  /**
   * @param {string} text
   * @param {(reviewed: ReviewedMove, done: number, total: number) => void} [onMove]
   * @returns {Promise<ReviewEnd>}
   */
  review(text, onMove = () => {}) {
    this.endReview(failure('cancelled', 'a newer review took its place'));
    if (this.pending || !this.worker) {
      return Promise.reject(failure('busy', 'the AI is searching'));
    }
    this.endAnalysis();
    const id = this.nextId;
    this.nextId += 1;
    return new Promise((resolve, reject) => {
      this.reviewing = { id, onMove, resolve, reject, timer: null };
      this.showWork();
      this.armReview();
      this.post({ type: 'review', id, text });
    });
  }

  /** Gives the review under way one more step's time (loading counts under the load timeout). */
  armReview() {
    const job = this.reviewing;
    clearTimeout(job.timer);
    job.timer = this.ready
      ? setTimeout(() => {
          if (this.reviewing === job) this.trouble('the review stopped answering', 'silent');
        }, REVIEW_STEP_TIMEOUT_MS)
      : null;
  }

  /** Ends the review under way, if any: rejected with `error`, or quietly when null (it resolved). */
  endReview(error) {
    const job = this.reviewing;
    if (!job) return;
    this.reviewing = null;
    this.showWork();
    clearTimeout(job.timer);
    if (error) job.reject(error);
  }

  /** Stops the review under way: its promise rejects with 'cancelled'. */
  cancelReview() {
    if (!this.reviewing) return;
    this.endReview(failure('cancelled', 'the review was stopped'));
    if (!this.pending) this.post({ type: 'stop' });
  }

  post(message) {
    if (this.worker) this.worker.postMessage(message);
  }

  /** Tells the engine a new game at `level` began: it forgets the old one and gets ready. */
  newGame(level) {
    this.endReview(failure('cancelled', 'a new game began'));
    if (this.worker && !this.pending) this.worker.postMessage({ type: 'newGame', level });
  }
}
