// The page's reading of a room state (www/features/room.js) against the
// protocol's own: tests/unit/rooms.json is written by crates/protocol's
// test from RoomState::side_of and RoomState::awaits, and fails there when
// out of date, so the page and the server cannot disagree on whose turn it is.

import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { awaits, phaseOf, sideOf } from '../../www/features/room.js';

const cases = JSON.parse(readFileSync(new URL('./rooms.json', import.meta.url), 'utf8'));

test('the table covers seats, spectators, both colours, empty seats and finished games', () => {
  assert.ok(cases.length >= 48);
  assert.ok(cases.some((c) => c.awaits) && cases.some((c) => c.side && !c.awaits));
  assert.ok(cases.some((c) => c.side === null) && cases.some((c) => c.side === 'x') && cases.some((c) => c.side === 'o'));
});

test('every role gets the side the protocol gives it', () => {
  for (const { room, role, side } of cases) {
    assert.equal(sideOf(room, role), side, `${role} with xSeat ${room.xSeat}`);
  }
});

test('a side may move exactly when the protocol awaits it', () => {
  for (const { room, role, awaits: expected } of cases) {
    assert.equal(awaits(room, sideOf(room, role)), expected, JSON.stringify({ role, room }));
  }
});

test('the phase follows the connection, then the seats and the result', () => {
  const [open] = cases.filter((c) => c.room.result === null && c.room.x !== 'empty' && c.room.o !== 'empty');
  const [alone] = cases.filter((c) => c.room.result === null && c.room.x === 'empty');
  const [over] = cases.filter((c) => c.room.result !== null);
  assert.equal(phaseOf(null, 'open'), 'connecting');
  assert.equal(phaseOf(open.room, 'reconnecting'), 'reconnecting');
  assert.equal(phaseOf(open.room, 'restarting'), 'reconnecting');
  assert.equal(phaseOf(open.room, 'open'), 'playing');
  assert.equal(phaseOf(alone.room, 'open'), 'waiting');
  assert.equal(phaseOf(over.room, 'open'), 'over');
});
