// The settings and the game in progress (www/storage.js), without a page:
// the storage is an in-memory stand-in, or one that refuses.

import { test } from 'node:test';
import assert from 'node:assert/strict';
import { createStorage } from '../../www/storage.js';
import { memoryStorage } from './memory-storage.js';

const LEVELS = ['beginner', 'easy', 'medium', 'hard', 'master'];
const SETTINGS = { kind: 'ultimate', mode: 'ai-x', level: 'hard', levelO: 'easy', rules: 'standard', speed: 'fast', ponder: false };

test('settings and the game come back as saved', () => {
  const backing = memoryStorage();
  const storage = createStorage(() => backing);
  assert.equal(storage.saveSettings(SETTINGS), true);
  assert.equal(storage.saveGame({ record: 'classic:a1b2', cursor: 2, line: 2, id: 'g-1' }), true);
  const again = createStorage(() => backing);
  assert.deepEqual(again.loadSettings(LEVELS), SETTINGS);
  assert.deepEqual(again.loadGame(), { record: 'classic:a1b2', cursor: 2, line: 2, id: 'g-1' });
  assert.deepEqual(again.takeProblems(), []);
  assert.equal(again.storageAvailable(), true);
});

test('an unreadable record is set aside under .corrupt, reported once, and reads as missing', () => {
  const backing = memoryStorage({
    'uttt.settings': JSON.stringify({ v: 1, data: { ...SETTINGS, level: 'godlike' } }),
    'uttt.game': '{not json',
  });
  const storage = createStorage(() => backing);
  assert.equal(storage.loadSettings(LEVELS), undefined);
  assert.equal(storage.loadGame(), undefined);
  assert.deepEqual(storage.takeProblems().map((p) => p.name), ['settings', 'game']);
  assert.deepEqual(storage.takeProblems(), []);
  assert.equal(backing.getItem('uttt.game'), null);
  assert.equal(backing.getItem('uttt.game.corrupt'), '{not json');
  assert.match(backing.getItem('uttt.settings.corrupt') ?? '', /godlike/);
});

test('a game the core refused is set aside with its error', () => {
  const backing = memoryStorage({ 'uttt.game': JSON.stringify({ v: 1, data: { record: 'classic:a1a1', cursor: 2 } }) });
  const storage = createStorage(() => backing);
  assert.notEqual(storage.loadGame(), undefined);
  storage.reportCorruptGame('illegal move a1');
  assert.deepEqual(storage.takeProblems(), [{ name: 'game', error: 'illegal move a1' }]);
  assert.equal(backing.getItem('uttt.game'), null);
});

test('a browser that refuses storage leaves the page playing, and says so', () => {
  const refused = createStorage(() => {
    throw new Error('SecurityError');
  });
  assert.equal(refused.loadSettings(LEVELS), undefined);
  assert.equal(refused.saveGame({ position: 'x' }), false);
  assert.equal(refused.storageAvailable(), false);

  // Full after a first write: storage is there, the save failed this once.
  let writes = 0;
  const full = memoryStorage();
  const filling = createStorage(() => ({
    ...full,
    setItem: (k, v) => {
      writes += 1;
      if (writes > 1) throw new Error('QuotaExceededError');
      full.setItem(k, v);
    },
  }));
  assert.equal(filling.saveSettings(SETTINGS), true);
  assert.equal(filling.saveGame({ record: 'classic:a1', cursor: 1 }), false);
  assert.equal(filling.storageAvailable(), true);
});
