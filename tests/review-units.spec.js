// Unit tests of the review modules that need no page: the translation
// tables, the finished-games store and the share-link helpers. They run in
// Node under Playwright's runner, like the page tests.

import { readFileSync, readdirSync } from 'node:fs';
import { test, expect } from './support/fixtures.js';
import { tables, pickLanguage } from '../www/i18n.js';
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

test('every English string has a Chinese translation and the same placeholders', () => {
  const en = tables.en;
  const zh = tables['zh-CN'];
  const placeholders = (s) => [...s.matchAll(/\{(\w+)\}/g)].map((m) => m[1]).sort();
  const missing = Object.keys(en).filter((k) => !(k in zh));
  expect(missing).toEqual([]);
  for (const key of Object.keys(en)) {
    expect(placeholders(zh[key]), key).toEqual(placeholders(en[key]));
    expect(zh[key].trim().length, key).toBeGreaterThan(0);
  }
  expect(Object.keys(zh).filter((k) => !(k in en))).toEqual([]);
});

test('every key the page uses exists in English (static HTML and literal t() calls)', () => {
  const root = new URL('../', import.meta.url);
  const html = readFileSync(new URL('index.html', root), 'utf8');
  const keys = new Set([...html.matchAll(/data-i18n(?:-aria|-title)?="([^"]+)"/g)].map((m) => m[1]));
  for (const file of readdirSync(new URL('www/', root)).filter((f) => f.endsWith('.js'))) {
    const js = readFileSync(new URL(`www/${file}`, root), 'utf8');
    for (const m of js.matchAll(/\bt\('([a-zA-Z0-9.-]+)'/g)) keys.add(m[1]);
  }
  expect(keys.size).toBeGreaterThan(50);
  expect([...keys].filter((k) => !(k in tables.en))).toEqual([]);
});

test('the language follows the browser: Simplified Chinese for zh, zh-CN, zh-Hans; English otherwise', () => {
  expect(pickLanguage(['zh-CN', 'en'])).toBe('zh-CN');
  expect(pickLanguage(['zh'])).toBe('zh-CN');
  expect(pickLanguage(['zh-Hans-SG'])).toBe('zh-CN');
  expect(pickLanguage(['zh-TW', 'en-US'])).toBe('en');
  expect(pickLanguage(['fr-FR', 'en-GB'])).toBe('en');
  expect(pickLanguage(['fr-FR'])).toBe('en');
  expect(pickLanguage([])).toBe('en');
});

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
