// @ts-check
// The page's side of the AI worker, and the one place that knows what the
// worker is doing (`work`). It runs the jobs of aijobs.js (a search, a
// review), one search at a time, each with an id so a late answer to an old
// question is never used, and each answered with its result and a cancel;
// analyses and surveys stream their reports until the next request. A
// `stop` message ends a search or an analysis (the worker searches in
// slices of about 10 ms, so it sees one at once, and keeps its table).
//
// A worker can die without a word: closed (`self.close()`), or terminated by
// the browser while idle. Messages to it are then dropped and no error event
// comes. So every job has deadlines (aijobs.js), and a missed one is treated
// like a crash: the worker is terminated and restarted, and the search sent
// again, MAX_ATTEMPTS times in all.

import { failure, ReviewJob, SearchJob, Streams } from './aijobs.js';
import { WorkerHost } from './aiworker.js';

export { MARGIN_MS } from './aijobs.js';

const MAX_ATTEMPTS = 3;

/** @typedef {import('./pkg/uttt_worker.js').Report} Report */
/** @typedef {import('./pkg/uttt_worker.js').SurveyReport} SurveyReport */
/** @typedef {import('./aijobs.js').Answer} Answer */
/** @typedef {import('./aijobs.js').ReviewedMove} ReviewedMove */
/** @typedef {import('./aijobs.js').ReviewEnd} ReviewEnd */
/** @typedef {import('./aijobs.js').AiError} AiError */
/**
 * @template T
 * @typedef {import('./aijobs.js').Job<T>} Job
 */

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
    /** @type {SearchJob | null} The search under way. */
    this.pending = null;
    /** @type {ReviewJob | null} The game review under way. */
    this.reviewing = null;
    /** The analysis, survey or pondering whose reports are current. */
    this.streams = new Streams();
    this.nextId = 1;
    this.failures = 0;
    this.host = new WorkerHost({
      onMessage: (message) => this.receive(message),
      onReady: () => this.loaded(),
      onTrouble: (detail) => this.trouble(detail),
    });
    this.spawn();
    this.showWork();
  }

  /**
   * What the page has the worker doing, as far as the page knows: 'search'
   * (a move or a hint), 'review', 'ponder' (the AI thinking on after its
   * move), 'analyse' or 'survey' (the live evaluation, the worth overlay),
   * or 'idle'. An analysis or pondering the worker ended by itself (its
   * time was up or the position is solved) still counts until the page
   * stops it, so 'idle' is never claimed while the worker may search.
   * @returns {'search' | 'review' | 'ponder' | 'analyse' | 'survey' | 'idle'}
   */
  get work() {
    if (this.pending) return 'search';
    if (this.reviewing) return 'review';
    return this.streams.work ?? 'idle';
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

  /** Starts a worker; when Workers cannot run here, the search waiting fails at once. */
  spawn() {
    const impossible = this.host.start();
    const job = this.pending;
    if (impossible === null || !job) return;
    this.finish(job, null, failure('failed', `could not start the worker: ${impossible}`));
    this.onTrouble('failed', impossible);
  }

  kill() {
    this.endAnalysis();
    this.endReview(failure('failed', 'the AI worker stopped'));
    this.pending?.disarm();
    this.host.kill();
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
      if (this.failures < MAX_ATTEMPTS) setTimeout(() => this.host.alive || this.spawn(), 300 * this.failures);
      return;
    }
    if (job.attempts >= MAX_ATTEMPTS) {
      this.finish(job, null, failure('failed', detail));
      this.onTrouble('failed', detail);
      return;
    }
    this.onTrouble('restarting', detail, reason);
    // A short pause so a worker that fails at once does not spin.
    setTimeout(() => {
      if (this.pending !== job) return;
      if (!this.host.alive) this.spawn();
      if (this.host.alive) this.send(job);
    }, 150 * job.attempts);
  }

  /** @param {SearchJob} job */
  send(job) {
    this.post(job.sending(this.takeId(), this.host.ready));
  }

  takeId() {
    const id = this.nextId;
    this.nextId += 1;
    return id;
  }

  /**
   * The search `job` is over: nothing pending, its result settled.
   * @param {SearchJob} job
   */
  finish(job, answer, error = null) {
    if (this.pending === job) this.pending = null;
    this.showWork();
    job.settle(answer, error);
  }

  /** @param {import('./pkg/uttt_worker.js').Reply} message */
  receive(message) {
    if (!this.searchHears(message) && !this.reviewHears(message)) this.streams.hears(message, this);
    this.showWork();
  }

  /** The worker is loaded: the deadlines the load timeout stood in for start. */
  loaded() {
    this.failures = 0;
    // A started search already runs on its budget's deadline.
    if (this.pending && this.pending.step !== 'started') this.pending.arm(true);
    this.reviewing?.arm(true);
  }

  /**
   * Hands `message` to the search under way if it is about it.
   * @param {import('./pkg/uttt_worker.js').Reply} message
   */
  searchHears(message) {
    const job = this.pending;
    if (!job || !('id' in message) || message.id !== job.id) return false;
    switch (message.type) {
      case 'received':
      case 'started':
        job.reached(message.type, this.host.ready);
        return true;
      case 'progress':
        this.onProgress(message.report);
        return true;
      case 'result':
        this.streams.answer(job.id);
        this.finish(job, message.reply);
        return true;
      case 'error':
        if (message.code === 'crash') this.trouble(message.message);
        else this.finish(job, null, failure(message.code, message.message));
        return true;
      default:
        return false;
    }
  }

  /**
   * Hands `message` to the review under way if it is about it.
   * @param {import('./pkg/uttt_worker.js').Reply} message
   */
  reviewHears(message) {
    const job = this.reviewing;
    if (!job || !('id' in message) || message.id !== job.id) return false;
    switch (message.type) {
      case 'reviewMove':
        job.arm(this.host.ready);
        job.onMove(message.reviewed, message.done, message.total);
        return true;
      case 'puzzleChecked':
        // After the moves, the review checks each candidate puzzle.
        job.arm(this.host.ready);
        return true;
      case 'reviewed':
        this.endReview(null, { x: message.x, o: message.o, puzzles: message.puzzles });
        return true;
      case 'error':
        this.endReview(failure(message.code, message.message));
        return true;
      default:
        return false;
    }
  }

  /**
   * Asks for a move in the position `text` (record or position string) at
   * `level` within `budgetMs`. Its result is the worker's answer (board,
   * cell, move, score, mate, xWins, draw, oWins, depth, nodes, pv,
   * elapsedMs), or an error with code 'cancelled' (cancelled, or another
   * search asked meanwhile), 'failed', or the engine's. Never waits forever:
   * each step of the request has a deadline. With `ponder`, Hard and Master
   * think on after answering, on the position the opponent's expected reply
   * brings, until the next request (see stopAnalysing).
   * @returns {Job<Answer>}
   */
  search({ text, level, budgetMs, ponder = false }) {
    this.endAnalysis();
    this.endReview(failure('cancelled', 'the review gave way to a search'));
    this.cancel(this.pending);
    const job = new SearchJob({ text, level, budgetMs, ponder: Boolean(ponder) }, (detail, reason) => {
      if (this.pending === job) this.trouble(detail, reason);
    });
    this.pending = job;
    if (!this.host.alive) {
      this.failures = 0;
      this.spawn();
    }
    if (this.host.alive) this.send(job);
    else this.finish(job, null, failure('failed', 'the AI worker could not be started'));
    this.showWork();
    return { result: job.result, cancel: () => this.cancel(job) };
  }

  /**
   * Abandons the search `job` if it is under way: its result rejects with
   * 'cancelled', and the worker is told to stop (it answers the old id with
   * an error nobody waits for). Its engine and table stay for the next
   * search; a worker that does not take the next request in time is
   * replaced by that request's deadline.
   * @param {SearchJob | null} job
   */
  cancel(job) {
    if (!job || this.pending !== job) return;
    this.finish(job, null, failure('cancelled', 'the search was cancelled'));
    this.post({ type: 'stop' });
  }

  /**
   * Analyses the position `text` (record or position string) in the
   * worker's analyst, until the next request: its reports go to
   * onAnalysis. Nothing waits for it, so it has no deadline; a worker that
   * died meanwhile is replaced by the next search's. The same position
   * asked again while it is analysed changes nothing. False (nothing sent)
   * while a search or a review is under way or there is no worker.
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
    if (this.pending || this.reviewing || !this.host.alive) return false;
    if (this.streams.key === key) return true;
    const id = this.takeId();
    this.streams.start(id, key);
    this.post({ ...request, id });
    this.showWork();
    return true;
  }

  /** Reports from before now are not current any more. */
  endAnalysis() {
    this.streams.end();
    this.showWork();
  }

  /**
   * Stops the worker's pondering, analysis or survey, if any: the position
   * it was about is gone. A search or a review goes on.
   */
  stopAnalysing() {
    this.endAnalysis();
    if (!this.pending && !this.reviewing) this.post({ type: 'stop' });
  }

  /**
   * Reviews every move of the game `text` (a record) in the worker's
   * analyst: `onMove(reviewed, done, total)` hears each move as it is
   * done (reviewed: ply, played, best, line, mark, loss, xBefore, xAfter).
   * Its result is `{x, o, puzzles}` (each summary: accuracy, counts; each
   * puzzle: ply, mover, goal, played, solution, expected), or an error with
   * code 'busy' (a search is under way), 'cancelled' (cancelled, or a
   * search or another review asked meanwhile), 'failed' (the worker died or
   * went silent; it is replaced at the next search) or the engine's. Each
   * move has a deadline, so it never waits forever. Any analysis stops first.
   * @param {string} text
   * @param {(reviewed: ReviewedMove, done: number, total: number) => void} [onMove]
   * @returns {Job<ReviewEnd>}
   */
  review(text, onMove = () => {}) {
    this.endReview(failure('cancelled', 'a newer review took its place'));
    const job = new ReviewJob(this.takeId(), onMove, (detail, reason) => {
      if (this.reviewing === job) this.trouble(detail, reason);
    });
    const handle = { result: job.result, cancel: () => this.cancelReview(job) };
    if (this.pending || !this.host.alive) {
      job.settle(null, failure('busy', 'the AI is searching'));
      return handle;
    }
    this.endAnalysis();
    this.reviewing = job;
    this.showWork();
    job.arm(this.host.ready);
    this.post({ type: 'review', id: job.id, text });
    return handle;
  }

  /** Ends the review under way, if any: with `error`, or with `end` when error is null. */
  endReview(error, end = null) {
    const job = this.reviewing;
    if (!job) return;
    this.reviewing = null;
    this.showWork();
    job.settle(end, error);
  }

  /**
   * Stops the review `job` if it is under way: its result rejects with 'cancelled'.
   * @param {ReviewJob} job
   */
  cancelReview(job) {
    if (this.reviewing !== job) return;
    this.endReview(failure('cancelled', 'the review was stopped'));
    if (!this.pending) this.post({ type: 'stop' });
  }

  /** @param {import('./pkg/uttt_worker.js').Request} message */
  post(message) {
    this.host.post(message);
  }

  /** Tells the engine a new game at `level` began: it forgets the old one and gets ready. */
  newGame(level) {
    this.endReview(failure('cancelled', 'a new game began'));
    if (!this.pending) this.post({ type: 'newGame', level });
  }
}
