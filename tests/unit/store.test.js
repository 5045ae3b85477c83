// The page's channel of change (www/store.js), without a page.

import { test } from 'node:test';
import assert from 'node:assert/strict';
import { createStore } from '../../www/store.js';

test('every subscriber hears every change once, in the order committed', () => {
  const store = createStore();
  const heard = [];
  store.subscribe((c) => heard.push(`a:${c.cause}`));
  store.subscribe((c) => heard.push(`b:${c.cause}`));
  store.commit({ cause: 'move' });
  store.commit({ cause: 'undo' });
  assert.deepEqual(heard, ['a:move', 'b:move', 'a:undo', 'b:undo']);
});

test('a change committed by a subscriber waits until everyone heard the one before', () => {
  const store = createStore();
  const heard = [];
  store.subscribe((c) => {
    heard.push(`a:${c.cause}`);
    if (c.cause === 'move') store.commit({ cause: 'ai-move' });
  });
  store.subscribe((c) => heard.push(`b:${c.cause}`));
  store.commit({ cause: 'move' });
  assert.deepEqual(heard, ['a:move', 'b:move', 'a:ai-move', 'b:ai-move']);
});

test('an unsubscribed listener hears nothing more; the others go on', () => {
  const store = createStore();
  const heard = [];
  const stop = store.subscribe((c) => heard.push(`a:${c.cause}`));
  store.subscribe((c) => heard.push(`b:${c.cause}`));
  store.commit({ cause: 'move' });
  stop();
  stop();
  store.commit({ cause: 'jump' });
  assert.deepEqual(heard, ['a:move', 'b:move', 'b:jump']);
});

test('a listener that throws is reported, and the others still hear the change', () => {
  const store = createStore();
  const reported = [];
  const keep = globalThis.reportError;
  globalThis.reportError = (error) => reported.push(error.message);
  try {
    const heard = [];
    store.subscribe(() => {
      throw new Error('broken pane');
    });
    store.subscribe((c) => heard.push(c.cause));
    store.commit({ cause: 'move' });
    store.commit({ cause: 'redo' });
    assert.deepEqual(heard, ['move', 'redo']);
    assert.deepEqual(reported, ['broken pane', 'broken pane']);
  } finally {
    globalThis.reportError = keep;
  }
});
