// The AI client's jobs (www/aijobs.js) without a worker: each settles once,
// each waits for one step at a time with a deadline, and only the current
// streamed reports are passed on. Timers are node's mock timers.

import { test } from 'node:test';
import assert from 'node:assert/strict';
import { MARGIN_MS, ReviewJob, SearchJob, Streams, failure } from '../../www/aijobs.js';

const request = { text: 'ultimate-standard:e5', level: 'hard', budgetMs: 1000, ponder: false };

/** A job whose missed deadlines are written down. */
function searchJob() {
  const missed = [];
  const job = new SearchJob(request, (detail, reason) => missed.push(reason));
  return { job, missed };
}

test('a search waits for each step in turn, and a missed step says why', (t) => {
  t.mock.timers.enable({ apis: ['setTimeout'] });
  const { job, missed } = searchJob();
  const message = job.sending(7, true);
  assert.deepEqual(message, { type: 'search', id: 7, ...request });
  job.reached('received', true);
  job.reached('sent', true); // out of order: changes nothing
  assert.equal(job.step, 'received');
  t.mock.timers.tick(4999);
  assert.deepEqual(missed, []);
  t.mock.timers.tick(1);
  assert.deepEqual(missed, ['silent'], 'the engine never started');
});

test('a started search has its budget and the margin, then it is slow', (t) => {
  t.mock.timers.enable({ apis: ['setTimeout'] });
  const { job, missed } = searchJob();
  job.sending(1, true);
  job.reached('started', true);
  t.mock.timers.tick(request.budgetMs + MARGIN_MS - 1);
  assert.deepEqual(missed, []);
  t.mock.timers.tick(1);
  assert.deepEqual(missed, ['slow']);
});

test('before the worker is ready only a started search has a deadline', (t) => {
  t.mock.timers.enable({ apis: ['setTimeout'] });
  const { job, missed } = searchJob();
  job.sending(1, false);
  t.mock.timers.tick(60_000);
  assert.deepEqual(missed, []);
  job.arm(true);
  t.mock.timers.tick(3000);
  assert.deepEqual(missed, ['silent'], 'the acknowledgement is due once loaded');
});

test('a job settles once; later answers and deadlines change nothing', async (t) => {
  t.mock.timers.enable({ apis: ['setTimeout'] });
  const { job, missed } = searchJob();
  job.sending(1, true);
  job.settle({ board: 4, cell: 4 });
  job.settle(null, failure('cancelled', 'too late'));
  t.mock.timers.tick(10_000);
  assert.deepEqual(missed, []);
  assert.deepEqual(await job.result, { board: 4, cell: 4 });
});

test('a cancelled job rejects with its code', async () => {
  const { job } = searchJob();
  job.settle(null, failure('cancelled', 'the search was cancelled'));
  await assert.rejects(job.result, (error) => error.code === 'cancelled');
});

test('a review is given one more step each time it reports', (t) => {
  t.mock.timers.enable({ apis: ['setTimeout'] });
  const missed = [];
  const review = new ReviewJob(3, () => {}, (detail, reason) => missed.push(reason));
  review.arm(true);
  t.mock.timers.tick(14_000);
  review.arm(true);
  t.mock.timers.tick(14_000);
  assert.deepEqual(missed, []);
  t.mock.timers.tick(1000);
  assert.deepEqual(missed, ['silent']);
});

test('only the current stream is heard; pondering follows only the last answer', () => {
  const heard = [];
  const to = { onAnalysis: (r) => heard.push(['analysis', r]), onSurvey: (r) => heard.push(['survey', r]) };
  const streams = new Streams();
  assert.equal(streams.work, null);
  streams.start(5, 'analyse pos');
  assert.equal(streams.work, 'analyse');
  assert.equal(streams.hears({ type: 'analysis', id: 4, report: 'old' }, to), false);
  assert.equal(streams.hears({ type: 'analysis', id: 5, report: 'new' }, to), true);
  streams.start(6, 'survey false pos');
  assert.equal(streams.work, 'survey');
  streams.hears({ type: 'survey', id: 6, report: 'cells' }, to);
  streams.answer(9);
  assert.equal(streams.hears({ type: 'pondering', id: 8 }, to), false, 'not the answered search');
  assert.equal(streams.hears({ type: 'pondering', id: 9 }, to), true);
  assert.equal(streams.work, 'ponder');
  streams.hears({ type: 'analysis', id: 9, report: 'pondered' }, to);
  streams.end();
  assert.equal(streams.hears({ type: 'analysis', id: 9, report: 'late' }, to), false);
  assert.deepEqual(heard, [['analysis', 'new'], ['survey', 'cells'], ['analysis', 'pondered']]);
});
