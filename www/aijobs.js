// @ts-check
// The work an AiClient (ai.js) waits on, each piece with its result and its
// deadlines: a search (a move or a hint) and a game review. The client owns
// the worker and routes its messages; a job only knows what it waits for
// and when it has waited too long.
//
// A search's deadlines run one step at a time, from the moment it is sent,
// and the worker speaks at each step:
//
//   sent      -> 'received' (first thing, before any work): ACK_TIMEOUT_MS
//   received  -> 'started'  (engine built, search begins):  START_TIMEOUT_MS
//   started   -> 'result'                                   budgetMs + MARGIN_MS
//
// A review's deadline is REVIEW_STEP_TIMEOUT_MS from each move it reviews.
// Until the worker has said 'ready', the load timeout (aiworker.js) stands
// in for every deadline but a started search's: fetching and compiling the
// wasm may be slow.

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
/**
 * How long a review may go without reviewing a move (one search of some
 * 200,000 nodes: a few hundred milliseconds on a slow phone) before the
 * worker is presumed stuck.
 */
const REVIEW_STEP_TIMEOUT_MS = 15000;

/** @typedef {import('./pkg/uttt_worker.js').SearchReply} Answer */
/** @typedef {import('./pkg/uttt_worker.js').ReviewedMove} ReviewedMove */
/** @typedef {{x: import('./pkg/uttt_worker.js').ReviewSummary, o: import('./pkg/uttt_worker.js').ReviewSummary, puzzles: import('./pkg/uttt_worker.js').FoundPuzzle[]}} ReviewEnd */
/**
 * An error with the worker's code, or the page's own: 'failed' (the worker
 * could not be started or kept alive), 'busy' (a search is under way).
 * @typedef {Error & {code: import('./pkg/uttt_worker.js').ErrorCode | 'failed' | 'busy'}} AiError
 */
/**
 * What the worker missed: what to tell the player, and why it is presumed
 * stuck ('silent': it stopped answering; 'slow': over its budget).
 * @typedef {(detail: string, reason: 'silent' | 'slow') => void} OnMiss
 */
/**
 * A piece of work the client was asked for: `result` settles once, with
 * the answer or an AiError; `cancel()` abandons it (its result rejects with
 * 'cancelled') and does nothing once it has settled.
 * @template T
 * @typedef {{result: Promise<T>, cancel: () => void}} Job
 */

/**
 * @param {AiError['code']} code
 * @param {string} message
 * @returns {AiError}
 */
export function failure(code, message) {
  return Object.assign(new Error(message), { code });
}

/** Something with a result to settle once and one deadline at a time. */
class Pending {
  /** @param {OnMiss} onMiss what to do when a deadline passes */
  constructor(onMiss) {
    this.onMiss = onMiss;
    /** @type {ReturnType<typeof setTimeout> | null} */
    this.timer = null;
    this.settled = false;
    this.result = new Promise((resolve, reject) => {
      this.resolve = resolve;
      this.reject = reject;
    });
  }

  /** Calls onMiss after `ms` unless disarmed or armed again first. */
  deadline(ms, detail, reason) {
    this.disarm();
    this.timer = setTimeout(() => {
      this.timer = null;
      this.onMiss(detail, reason);
    }, ms);
  }

  disarm() {
    clearTimeout(this.timer);
    this.timer = null;
  }

  /** Ends it with `value`, or with `error` when given; later calls do nothing. */
  settle(value, error = null) {
    if (this.settled) return;
    this.settled = true;
    this.disarm();
    if (error) this.reject(error);
    else this.resolve(value);
  }
}

/** A search in the worker: a move at a level within a budget, perhaps pondering after. */
export class SearchJob extends Pending {
  /**
   * @param {{text: string, level: string, budgetMs: number, ponder: boolean}} request
   * @param {OnMiss} onMiss
   */
  constructor(request, onMiss) {
    super(onMiss);
    this.request = request;
    /** The id of the latest sending: answers to earlier ones are not this job's. */
    this.id = 0;
    this.attempts = 0;
    /** @type {'sent' | 'received' | 'started'} */
    this.step = 'sent';
  }

  /**
   * The message that sends it (again) under `id`, its deadline armed.
   * @param {number} id
   * @param {boolean} ready whether the worker has loaded
   * @returns {import('./pkg/uttt_worker.js').Request}
   */
  sending(id, ready) {
    this.id = id;
    this.attempts += 1;
    this.step = 'sent';
    this.arm(ready);
    return { type: 'search', id, ...this.request };
  }

  /** The worker reached `step` (messages out of order change nothing). */
  reached(step, ready) {
    const order = ['sent', 'received', 'started'];
    if (order.indexOf(step) <= order.indexOf(this.step)) return;
    this.step = step;
    this.arm(ready);
  }

  /** Sets the deadline of the step it waits for (see the top of this file). */
  arm(ready) {
    if (this.step === 'started') {
      this.deadline(this.request.budgetMs + MARGIN_MS, 'the AI went over its time', 'slow');
    } else if (!ready) {
      this.disarm();
    } else if (this.step === 'sent') {
      this.deadline(ACK_TIMEOUT_MS, 'the AI did not answer', 'silent');
    } else {
      this.deadline(START_TIMEOUT_MS, 'the AI did not start its search', 'silent');
    }
  }
}

/** A review of a game in the worker: each move reviewed, then the summaries and puzzles. */
export class ReviewJob extends Pending {
  /**
   * @param {number} id
   * @param {(reviewed: ReviewedMove, done: number, total: number) => void} onMove
   * @param {OnMiss} onMiss
   */
  constructor(id, onMove, onMiss) {
    super(onMiss);
    this.id = id;
    this.onMove = onMove;
  }

  /** Gives it one more step's time (none before the worker is ready). */
  arm(ready) {
    if (ready) this.deadline(REVIEW_STEP_TIMEOUT_MS, 'the review stopped answering', 'silent');
    else this.disarm();
  }
}

/**
 * Which of the worker's streamed reports are current: those of an analysis,
 * a survey, or the pondering after a search's answer. Nothing waits for
 * them, so they have no deadline: a worker that died meanwhile is replaced
 * by the next search's.
 */
export class Streams {
  constructor() {
    /** @type {number | null} The id whose 'analysis' or 'survey' reports are current. */
    this.id = null;
    /** True while the current reports come from pondering after an answer. */
    this.pondering = false;
    /** @type {number | null} The id of the last search answered, until anything else is asked. */
    this.answered = null;
    /** @type {string | null} What runs: 'analyse ' or 'survey ' and the position, or null. */
    this.key = null;
  }

  /** 'ponder', 'analyse', 'survey', or null when no report is current. */
  get work() {
    if (this.id === null) return null;
    if (this.pondering) return 'ponder';
    return this.key?.startsWith('survey ') ? 'survey' : 'analyse';
  }

  /** Reports of `id` (the request known as `key`) are the current ones. */
  start(id, key) {
    this.end();
    this.id = id;
    this.key = key;
  }

  /** The search `id` was answered: pondering after it may follow. */
  answer(id) {
    this.end();
    this.answered = id;
  }

  /** Reports from before now are not current any more. */
  end() {
    this.id = null;
    this.pondering = false;
    this.answered = null;
    this.key = null;
  }

  /**
   * Reads a message of the worker: true when it is a current report or the
   * word that the answered search ponders on.
   * @param {import('./pkg/uttt_worker.js').Reply} message
   * @param {{onAnalysis: (report: import('./pkg/uttt_worker.js').Report) => void,
   *   onSurvey: (survey: import('./pkg/uttt_worker.js').SurveyReport) => void}} to
   */
  hears(message, to) {
    const current = this.id !== null && 'id' in message && message.id === this.id;
    if (message.type === 'analysis' && current) to.onAnalysis(message.report);
    else if (message.type === 'survey' && current) to.onSurvey(message.report);
    else if (message.type === 'pondering' && message.id === this.answered) {
      // Only if nothing was asked or stopped since the answer.
      this.id = message.id;
      this.pondering = true;
    } else return false;
    return true;
  }
}
