// Unit tests of the review modules that need no page: the translation
// tables, the finished-games store and the share-link helpers. They run in
// Node under Playwright's runner, like the page tests.

import { test, expect } from './support/fixtures.js';
import { addGame, loadHistory, statistics, cleanEntry, MAX_GAMES } from '../www/records.js';
import { recordFromHash, shareLink } from '../www/share.js';

/** An in-memory stand-in for localStorage. */
function memoryStorage(initial = {}) {
  const map = new Map(Object.entries(initial));
  return {
    map,
    getItem: (k) => (map.has(k) ? map.get(k) : null),
    setItem: (k, v) => map.set(k, String(v)),
    removeItem: (k) => map.delete(k),
  };
}

test('finished games are stored, counted per level, and capped', () => {
  const storage = memoryStorage();
  const game = (result, level = 'medium', side = 'x', record = 'ultimate-standard:e5e4') => ({
    kind: 'ultimate',
    rules: 'standard',
    mode: 'ai',
    level,
    side,
    result,
    record,
  });
  expect(addGame(game('x'), storage)).not.toBeNull();
  addGame(game('o', 'medium', 'x', 'ultimate-standard:e5e4d4'), storage);
  addGame(game('draw', 'hard', 'o', 'ultimate-standard:a1'), storage);
  addGame({ ...game('x', 'hard', 'o', 'ultimate-standard:a1b2c3'), id: 'game-4' }, storage);
  // The same game finishing again (undo, then another finish) replaces its entry.
  addGame({ ...game('o', 'hard', 'o', 'ultimate-standard:a1b2'), id: 'game-4' }, storage);
  addGame({ ...game('o', 'hard', 'o', 'ultimate-standard:a1b2'), id: 'game-4' }, storage);
  addGame({ kind: 'classic', rules: 'standard', mode: 'human', result: 'x', record: 'classic:a1' }, storage);
  const { games, problem } = loadHistory(storage);
  expect(problem).toBeNull();
  expect(games).toHaveLength(5);
  const s = statistics(games);
  expect(s.perLevel.medium).toEqual({ win: 1, draw: 0, loss: 1 });
  expect(s.perLevel.hard).toEqual({ win: 1, draw: 1, loss: 0 });
  expect(s.human).toEqual({ x: 1, o: 0, draw: 0 });

  for (let i = 0; i < MAX_GAMES + 5; i += 1) {
    addGame(game(i % 2 ? 'x' : 'o', 'easy', 'x', `ultimate-standard:${'e5'.repeat(i % 2)}`), storage);
  }
  expect(loadHistory(storage).games).toHaveLength(MAX_GAMES);
});

test('bad entries are refused and corrupt storage is set aside without throwing', () => {
  expect(cleanEntry({ date: 'x', kind: 'ultimate' })).toBeNull();
  const base = {
    date: new Date().toISOString(),
    kind: 'ultimate',
    rules: 'standard',
    mode: 'ai',
    level: 'medium',
    side: 'x',
    result: 'x',
    record: 'ultimate-standard:e5',
  };
  expect(cleanEntry(base)).not.toBeNull();
  expect(cleanEntry({ ...base, record: 'ultimate-standard:e5<script>' })).toBeNull();
  expect(cleanEntry({ ...base, level: 'godlike' })).toBeNull();
  expect(cleanEntry({ ...base, result: 'maybe' })).toBeNull();

  const storage = memoryStorage({ 'uttt.history': '{not json' });
  expect(loadHistory(storage)).toEqual({ games: [], problem: 'corrupt' });
  const aside = [...storage.map.keys()].filter((k) => k.startsWith('uttt.history.unreadable.'));
  expect(aside).toHaveLength(1);
  expect(storage.map.get(aside[0])).toBe('{not json');

  const mixed = memoryStorage({
    'uttt.history': JSON.stringify({ v: 1, games: [base, { ...base, kind: 'chess' }] }),
  });
  const read = loadHistory(mixed);
  expect(read.games).toHaveLength(1);
  expect(read.problem).toBe('partial');
  // The entry this version cannot read is kept under a key of its own, not lost on the next save.
  const kept = [...mixed.map.keys()].filter((k) => k.startsWith('uttt.history.unreadable.'));
  expect(kept).toHaveLength(1);
  expect(mixed.map.get(kept[0])).toContain('chess');
});

test('share links keep the path and query and round-trip through the fragment', () => {
  const link = shareLink('ultimate-standard:e5e4', 'https://example.org/games/uttt/?x=1#old');
  expect(link).toBe('https://example.org/games/uttt/?x=1#ultimate-standard:e5e4');
  expect(recordFromHash(new URL(link).hash)).toBe('ultimate-standard:e5e4');
  expect(recordFromHash('')).toBeNull();
  expect(recordFromHash('#')).toBeNull();
  expect(recordFromHash('#classic%3Ab2')).toBe('classic:b2');
  expect(recordFromHash('#%E0%A4%A')).toBe('%E0%A4%A');
});
