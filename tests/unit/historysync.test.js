// The sync of the archive with the account (www/historysync.js), without a
// page: localStorage is an in-memory stand-in and the server a fetch
// stand-in whose answers the test holds back and lets go, to act while a
// request is under way, as a player clicking during a sync would.

import { test, beforeEach } from 'node:test';
import assert from 'node:assert/strict';
import { createHistorySync } from '../../www/historysync.js';
import { createArchive } from '../../www/records.js';
import { memoryStorage } from './memory-storage.js';

const KEY = 'uttt.historySync';
const game = (id, date) => ({
  id, date, kind: 'classic', rules: 'standard', mode: 'human', level: null, levelO: null, side: null, result: 'x', record: 'classic:b2a1c1b1a3',
});

/** The requests made, each with `answer(body)` to let its answer go. */
let requests = [];
let storage;

beforeEach(() => {
  requests = [];
  storage = memoryStorage();
  globalThis.localStorage = /** @type {any} */ (storage);
  globalThis.window = /** @type {any} */ ({ location: { href: 'http://uttt.test/' }, setTimeout: () => 0 });
  globalThis.fetch = /** @type {any} */ (
    (url, init) =>
      new Promise((resolve) => {
        const body = init.body ? JSON.parse(init.body) : null;
        const answer = (json) => resolve(new Response(JSON.stringify(json), { status: 200, headers: { 'content-type': 'application/json' } }));
        requests.push({ method: init.method, path: new URL(url).pathname + new URL(url).search, body, answer });
      })
  );
});

/** A sync of a fresh archive (with `games` finished here) for a signed-in player, Ann. */
function setUp(games = []) {
  const archive = createArchive(() => storage);
  for (const g of games) archive.add(g);
  let listener = null;
  const account = { me: () => ({ name: 'Ann', csrf: 'token' }), onMe: (fn) => (listener = fn) };
  const sync = createHistorySync({ archive, account: /** @type {any} */ (account), archiveChanged: () => {} });
  return { archive, sync, signIn: () => listener?.({ name: 'Ann', csrf: 'token' }) };
}

/** Lets pending promises and timers of the sync run. */
const settle = () => new Promise((resolve) => setTimeout(resolve, 10));
const stored = () => JSON.parse(storage.getItem(KEY) ?? 'null');

test('signing in alone takes none of the account’s games in, nor asks for them', async () => {
  const { archive, signIn } = setUp([game('here', '2026-12-01T00:00:00.000Z')]);
  signIn();
  await settle();
  assert.deepEqual(requests, [], 'a browser that never attached asks for nothing');
  assert.deepEqual(archive.load().games.map((g) => g.id), ['here']);
});

test('once attached, the account’s games come in; the ones sent go without the archive’s mark', async () => {
  const { archive, sync } = setUp([game('here', '2026-12-01T00:00:00.000Z')]);
  const attached = sync.attach();
  await settle();
  assert.equal(requests[0].method, 'GET');
  requests[0].answer({ entries: [game('there', '2026-12-02T00:00:00.000Z')], until: 5 });
  await settle();
  assert.deepEqual(archive.load().games.map((g) => [g.id, g.pulled ?? false]), [['here', false], ['there', true]]);
  assert.equal(requests[1].method, 'PUT');
  assert.deepEqual(requests[1].body.entries.map((g) => g.id), ['here'], 'only this browser’s game is sent');
  requests[1].answer({ stored: 1, kept: 2 });
  assert.equal(await attached, 2);
  assert.deepEqual(Object.keys(stored().sent).sort(), ['here', 'there']);
});

test('turning sending off while the account is asked is kept, and nothing comes in', async () => {
  const { archive, sync } = setUp([game('here', '2026-12-01T00:00:00.000Z')]);
  const attached = sync.attach();
  await settle();
  sync.setSending(false);
  requests[0].answer({ entries: [game('there', '2026-12-02T00:00:00.000Z')], until: 5 });
  await attached;
  await settle();
  assert.equal(stored().on, false, 'the player’s setting stays');
  assert.equal(stored().since, 0);
  assert.equal(requests.length, 1, 'nothing sent');
  assert.deepEqual(archive.load().games.map((g) => g.id), ['here']);
});

test('turning sending off during an upload is kept; what was sent is remembered', async () => {
  const games = Array.from({ length: 60 }, (_, i) => game(`g${i}`, new Date(Date.UTC(2026, 11, 1) + i * 1000).toISOString()));
  const { sync } = setUp(games);
  const attached = sync.attach();
  await settle();
  requests[0].answer({ entries: [], until: 5 });
  await settle();
  assert.equal(requests[1].method, 'PUT');
  sync.setSending(false);
  requests[1].answer({ stored: 50, kept: 50 });
  await attached;
  await settle();
  assert.equal(stored().on, false, 'the player’s setting stays');
  assert.equal(stored().since, 5);
  assert.equal(Object.keys(stored().sent).length, 50);
  assert.equal(requests.length, 2, 'the second batch is not sent once sending is off');
});
