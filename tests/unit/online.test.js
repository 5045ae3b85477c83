// The page's connection to the game server (www/online.js), without a page
// or a server: what the session says while it restores a lost connection.

import { test } from 'node:test';
import assert from 'node:assert/strict';
import { OnlineSession } from '../../www/online.js';

/** A WebSocket that does only what the test tells it to. */
class FakeSocket extends EventTarget {
  static OPEN = 1;
  /** @type {FakeSocket[]} */
  static made = [];
  constructor(url) {
    super();
    this.url = url;
    this.readyState = 0;
    this.sent = [];
    FakeSocket.made.push(this);
  }
  send(text) {
    this.sent.push(JSON.parse(text));
  }
  close() {}
  open() {
    this.readyState = FakeSocket.OPEN;
    this.dispatchEvent(new Event('open'));
  }
  /** The connection ends with `code`; 1006 also when it never opened (no server there). */
  end(code) {
    this.readyState = 3;
    this.dispatchEvent(Object.assign(new Event('close'), { code }));
  }
}

/** A session in room `abc`, its sockets fake, its waits run at once; `said` lists its connection statuses. */
function session(t) {
  t.mock.timers.enable({ apis: ['setTimeout'] });
  FakeSocket.made = [];
  const before = globalThis.WebSocket;
  globalThis.WebSocket = FakeSocket;
  t.after(() => {
    globalThis.WebSocket = before;
  });
  const said = [];
  const s = new OnlineSession(
    { connection: (status) => said.push(status), joined() {}, state() {}, spectators() {}, error() {} },
    'ws://127.0.0.1:1/ws',
  );
  s.join('abc');
  const latest = () => FakeSocket.made[FakeSocket.made.length - 1];
  /** Runs the wait before the next attempt and returns its socket. */
  const retry = () => {
    const count = FakeSocket.made.length;
    t.mock.timers.tick(10_000);
    assert.equal(FakeSocket.made.length, count + 1, 'a new attempt after the wait');
    return latest();
  };
  return { said, latest, retry };
}

test('after the server says it restarts (1012), attempts that find no server go on saying it restarts', (t) => {
  const { said, latest, retry } = session(t);
  latest().open();
  assert.deepEqual(latest().sent, [{ v: 1, type: 'join', room: 'abc', token: null }]);
  said.length = 0;
  latest().end(1012);
  for (let i = 0; i < 4; i += 1) retry().end(1006);
  assert.ok(said.length >= 8, `${said}`);
  assert.deepEqual([...new Set(said)], ['restarting']);
  // A server is back: the page is connected, and joins its room again.
  retry().open();
  assert.equal(said.at(-1), 'open');
  assert.deepEqual(latest().sent, [{ v: 1, type: 'join', room: 'abc', token: null }]);
});

test('a connection lost after the restart is told as lost, not as a restart', (t) => {
  const { said, latest, retry } = session(t);
  latest().open();
  latest().end(1012);
  retry().open();
  said.length = 0;
  latest().end(1006);
  retry().end(1006);
  assert.deepEqual([...new Set(said)], ['reconnecting']);
});

test('a lost connection stays lost while nobody answers; a 1012 after it is a restart', (t) => {
  const { said, latest, retry } = session(t);
  latest().open();
  said.length = 0;
  latest().end(1006);
  retry().end(1006);
  assert.deepEqual([...new Set(said)], ['reconnecting']);
  retry().open();
  said.length = 0;
  latest().end(1012);
  assert.deepEqual(said, ['restarting']);
});
