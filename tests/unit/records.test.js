// The finished-games store, the reviews kept with them and the share-link
// helpers, without a page: storage is an in-memory stand-in. Run by
// `cargo xtask test` (its unit layer) as `node --test tests/unit/`.

import { test } from 'node:test';
import assert from 'node:assert/strict';
import { createArchive, statistics, cleanEntry, MAX_GAMES, MAX_REVIEWS } from '../../www/records.js';
import { packReview, unpackReview, cleanReview, LINE_MOVES } from '../../www/reviews.js';
import { recordFromHash, shareLink } from '../../www/share.js';
import { memoryStorage } from './memory-storage.js';

/** One archive per stand-in storage, as the page keeps one per visit. */
const archives = new WeakMap();
function archiveOf(storage) {
  if (!archives.has(storage)) archives.set(storage, createArchive(() => storage));
  return archives.get(storage);
}
const addGame = (game, storage) => archiveOf(storage).add(game);
const attachReview = (id, record, review, storage) => archiveOf(storage).attachReview(id, record, review);
const keepLines = (id, tree, line, storage) => archiveOf(storage).keepLines(id, tree, line);
const loadArchive = (storage) => archiveOf(storage).load();

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
  assert.notEqual(addGame(game('x'), storage), null);
  addGame(game('o', 'medium', 'x', 'ultimate-standard:e5e4d4'), storage);
  addGame(game('draw', 'hard', 'o', 'ultimate-standard:a1'), storage);
  addGame({ ...game('x', 'hard', 'o', 'ultimate-standard:a1b2c3'), id: 'game-4' }, storage);
  // The same game finishing again (undo, then another finish) replaces its entry.
  addGame({ ...game('o', 'hard', 'o', 'ultimate-standard:a1b2'), id: 'game-4' }, storage);
  addGame({ ...game('o', 'hard', 'o', 'ultimate-standard:a1b2'), id: 'game-4' }, storage);
  addGame({ kind: 'classic', rules: 'standard', mode: 'human', result: 'x', record: 'classic:a1' }, storage);
  const { games, problem } = loadArchive(storage);
  assert.equal(problem, null);
  assert.equal(games.length, 5);
  const s = statistics(games);
  assert.deepEqual(s.perLevel.medium, { win: 1, draw: 0, loss: 1 });
  assert.deepEqual(s.perLevel.hard, { win: 1, draw: 1, loss: 0 });
  assert.deepEqual(s.human, { x: 1, o: 0, draw: 0 });

  for (let i = 0; i < MAX_GAMES + 5; i += 1) {
    addGame(game(i % 2 ? 'x' : 'o', 'easy', 'x', `ultimate-standard:${'e5'.repeat(i % 2)}`), storage);
  }
  assert.equal(loadArchive(storage).games.length, MAX_GAMES);
});

test('bad entries are refused and corrupt storage is set aside without throwing', () => {
  assert.equal(cleanEntry({ date: 'x', kind: 'ultimate' }), null);
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
  assert.notEqual(cleanEntry(base), null);
  assert.equal(cleanEntry({ ...base, record: 'ultimate-standard:e5<script>' }), null);
  assert.equal(cleanEntry({ ...base, level: 'godlike' }), null);
  assert.equal(cleanEntry({ ...base, result: 'maybe' }), null);

  const storage = memoryStorage({ 'uttt.history': '{not json' });
  assert.deepEqual(loadArchive(storage), { games: [], problem: 'corrupt' });
  const aside = [...storage.map.keys()].filter((k) => k.startsWith('uttt.history.unreadable.'));
  assert.equal(aside.length, 1);
  assert.equal(storage.map.get(aside[0]), '{not json');

  const mixed = memoryStorage({
    'uttt.history': JSON.stringify({ v: 1, games: [base, { ...base, kind: 'chess' }] }),
  });
  const read = loadArchive(mixed);
  assert.equal(read.games.length, 1);
  assert.equal(read.problem, 'partial');
  // The entry this version cannot read is kept under a key of its own, not lost on the next save.
  const kept = [...mixed.map.keys()].filter((k) => k.startsWith('uttt.history.unreadable.'));
  assert.equal(kept.length, 1);
  assert.ok(mixed.map.get(kept[0]).includes('chess'));
});

test('a browser that refuses storage, even on access, has an empty archive that keeps nothing', () => {
  const archive = createArchive(() => {
    throw new Error('SecurityError');
  });
  assert.deepEqual(archive.load(), { games: [], problem: null });
  const game = { kind: 'classic', rules: 'standard', mode: 'human', result: 'x', record: 'classic:a1' };
  assert.equal(archive.add(game), null);
  assert.equal(archive.find('g-1'), null);
  assert.doesNotThrow(() => archive.clear());
});

test('two unreadable archives set aside in the same millisecond keep both', (t) => {
  t.mock.method(Date, 'now', () => 1_700_000_000_000);
  const storage = memoryStorage({ 'uttt.history': '{first' });
  assert.equal(loadArchive(storage).problem, 'corrupt');
  storage.setItem('uttt.history', '{second');
  assert.equal(loadArchive(storage).problem, 'corrupt');
  const aside = [...storage.map.entries()].filter(([k]) => k.startsWith('uttt.history.unreadable.'));
  assert.deepEqual(aside.map(([, v]) => v).sort(), ['{first', '{second']);
});

test('share links keep the path and query and round-trip through the fragment', () => {
  const link = shareLink('ultimate-standard:e5e4', 'https://example.org/games/uttt/?x=1#old');
  assert.equal(link, 'https://example.org/games/uttt/?x=1#ultimate-standard:e5e4');
  assert.equal(recordFromHash(new URL(link).hash), 'ultimate-standard:e5e4');
  assert.equal(recordFromHash(''), null);
  assert.equal(recordFromHash('#'), null);
  assert.equal(recordFromHash('#classic%3Ab2'), 'classic:b2');
  assert.equal(recordFromHash('#%E0%A4%A'), '%E0%A4%A');
});

// Classic X a1, O b2, X c3, O c1 (the blunder: X forks), X a3, as the
// worker reviews it; a2 was O's better move, with its line.
const PLANTED = 'classic:a1b2c3c1a3';
const PLANTED_MOVES = ['a1', 'b2', 'c3', 'c1', 'a3'];
const PLANTED_MARKS = ['best', 'good', 'best', 'blunder', 'best'];
const PLANTED_LINE = ['a2', 'b1', 'c2', 'a3', 'b3', 'c1', 'a1', 'b2', 'c3'];

/** The finished review of PLANTED, with `puzzles`. */
function plantedReview(puzzles = []) {
  return {
    record: PLANTED,
    status: 'done',
    total: 5,
    moves: PLANTED_MOVES.map((played, i) => ({
      ply: i + 1,
      played,
      best: i === 3 ? 'a2' : played,
      line: i === 3 ? PLANTED_LINE : [played],
      mark: PLANTED_MARKS[i],
      loss: i === 3 ? 0.5 : i === 1 ? 0.0123 : 0,
      xBefore: i === 4 ? 1 : 0.5,
      xAfter: i >= 3 ? 1 : 0.5,
    })),
    x: { accuracy: 100, counts: [3, 0, 0, 0, 0] },
    o: { accuracy: 74.4, counts: [0, 1, 0, 0, 1] },
    puzzles,
  };
}

test('a game review is stored compactly with its game, and a bad one is dropped, not the game', () => {
  const record = PLANTED;
  const moves = PLANTED_MOVES;
  const marks = PLANTED_MARKS;
  const review = plantedReview();
  const packed = packReview(review);
  assert.equal(packed.marks, '01040');
  assert.deepEqual(packed.x, [500, 500, 500, 500, 1000, 1000]);
  assert.equal(packed.lines[3], 'a2b1c2a3b3c1a1b2');
  assert.ok(JSON.stringify(packed).length < 220);
  // Unpacked again, it is the review, rounded to per mille and to its line's first LINE_MOVES moves.
  const back = unpackReview(JSON.parse(JSON.stringify(packed)), record, moves);
  assert.deepEqual(back.moves.map((m) => m.mark), marks);
  assert.deepEqual(back.moves[3], { ...review.moves[3], line: review.moves[3].line.slice(0, LINE_MOVES) });
  assert.equal(back.moves[1].loss, 0.012);
  assert.deepEqual(back.o, review.o);

  // Kept with its game in the history, and dropped alone when it does not fit the record.
  const storage = memoryStorage();
  const game = { id: 'g-1', kind: 'classic', rules: 'standard', mode: 'human', result: 'x', record };
  addGame(game, storage);
  assert.equal(attachReview('g-1', record, packed, storage), true);
  assert.deepEqual(loadArchive(storage).games[0].review, packed);
  assert.equal(attachReview('g-1', 'classic:a1', packed, storage), false);
  for (const bad of [
    { ...packed, v: 2 },
    { ...packed, marks: '0104' },
    { ...packed, marks: '01050' },
    { ...packed, x: packed.x.slice(1) },
    { ...packed, loss: [0, 0, 0, 1001, 0] },
    { ...packed, best: 'a2a2a2a2z9' },
    { ...packed, lines: ['a1', 'a1', 'a1', 'a1', '<img>'] },
    { ...packed, counts: [[1, 2, 3]] },
    'review',
  ]) {
    const entry = cleanEntry({ ...game, date: new Date().toISOString(), review: bad });
    assert.notEqual(entry, null, JSON.stringify(bad));
    assert.equal(entry.review, undefined);
    assert.equal(cleanReview(bad, record), null);
  }

  // Only the latest MAX_REVIEWS games keep their reviews.
  for (let i = 0; i < MAX_REVIEWS + 2; i += 1) {
    addGame({ ...game, id: `g-${i + 2}` }, storage);
    attachReview(`g-${i + 2}`, record, packed, storage);
  }
  const kept = loadArchive(storage).games;
  assert.equal(kept.filter((g) => g.review).length, MAX_REVIEWS);
  assert.equal(kept[0].review, undefined);
  assert.deepEqual(kept.at(-1).review, packed);
});

test('a review keeps its puzzles and what was done with them, and bad puzzles read as no review', () => {
  const record = PLANTED;
  const moves = PLANTED_MOVES;
  const solution = PLANTED_LINE;
  const review = plantedReview([
    { ply: 3, mover: 'o', goal: 'save', played: 'c1', solution, expected: 0.5, status: 'solved' },
  ]);
  const packed = packReview(review);
  assert.deepEqual(packed.puzzles, [[3, 's', 'a2b1c2a3b3c1a1b2', 1]]);
  const back = unpackReview(JSON.parse(JSON.stringify(packed)), record, moves);
  assert.deepEqual(back.puzzles, [
    { ply: 3, mover: 'o', goal: 'save', played: 'c1', solution: solution.slice(0, LINE_MOVES), status: 'solved' },
  ]);
  // A review stored before puzzles were found reads with none.
  const { puzzles: _none, ...older } = packed;
  assert.deepEqual(unpackReview(older, record, moves).puzzles, []);
  for (const puzzles of [
    [[5, 's', 'a2', 0]],
    [[3, 'x', 'a2', 0]],
    [[3, 's', '', 0]],
    [[3, 's', 'a2', 3]],
    [[3, 's', 'z9', 0]],
    [[3, 's', 'a2', 0], [3, 'w', 'a2', 0]],
    [[3, 's', 'a2']],
    'puzzles',
  ]) {
    assert.equal(cleanReview({ ...packed, puzzles }, record), null, JSON.stringify(puzzles));
  }
});

test('a game in the history keeps its other lines, and bad ones are dropped, not the game', () => {
  const storage = memoryStorage();
  const record = 'classic:a1a2b2b3c3';
  const game = { id: 'g-1', kind: 'classic', rules: 'standard', mode: 'human', result: 'x', record };
  addGame({ ...game, tree: 'classic:a1a2b2b3c3(a3)', line: 5 }, storage);
  assert.deepEqual({ ...loadArchive(storage).games[0], ...{ tree: 'classic:a1a2b2b3c3(a3)', line: 5 } }, loadArchive(storage).games[0]);
  // A tree that is only the record itself is not kept twice.
  addGame({ ...game, id: 'g-2', tree: record, line: 5 }, storage);
  assert.equal(loadArchive(storage).games[1].tree, undefined);
  for (const [tree, line] of [
    ['classic:a1<b>', 1],
    ['ultimate-standard:e5(e4)', 1],
    ['classic:a1(b2)', -1],
    [`classic:${'(a1)'.repeat(3000)}`, 1],
    [42, 1],
  ]) {
    const entry = cleanEntry({ ...game, date: new Date().toISOString(), tree, line });
    assert.notEqual(entry, null, String(tree));
    assert.equal(entry.tree, undefined);
  }
  // The lines tried after the end replace those kept; nothing new, nothing written.
  assert.equal(keepLines('g-1', 'classic:a1a2b2b3c3(a3)(c1)', 5, storage), true);
  assert.equal(loadArchive(storage).games[0].tree, 'classic:a1a2b2b3c3(a3)(c1)');
  assert.equal(keepLines('g-1', 'classic:a1a2b2b3c3(a3)(c1)', 5, storage), false);
  assert.equal(keepLines('nobody', 'classic:a1(b2)', 1, storage), false);
});

test('games kept elsewhere merge by id: the local copy wins, takes a missing review, dates stay in order', () => {
  const storage = memoryStorage();
  const archive = archiveOf(storage);
  const game = (id, date, result = 'x', record = 'classic:b2a1c1b1a3') => ({
    id, date, kind: 'classic', rules: 'standard', mode: 'human', level: null, levelO: null, side: null, result, record,
  });
  archive.add(game('here', '2026-12-02T00:00:00.000Z'));
  const review = { v: 1, marks: '00000', x: [500, 500, 500, 500, 500, 1000], loss: [0, 0, 0, 0, 0], best: 'b2a1c1b1a3', lines: ['', '', '', '', ''], acc: [1000, 1000], counts: [[3, 0, 0, 0, 0], [2, 0, 0, 0, 0]] };
  const merged = archive.merge([
    { ...game('here', '2026-12-05T00:00:00.000Z', 'o'), review },
    game('older', '2026-12-01T00:00:00.000Z'),
    game('newer', '2026-12-03T00:00:00.000Z', 'draw', 'classic:b2a1'),
    { ...game('unfinished', '2026-12-04T00:00:00.000Z'), result: 'unfinished' },
    { id: 'bad', date: 'never' },
  ]);
  assert.equal(merged, 3, 'two new games and one review');
  const { games } = archive.load();
  assert.deepEqual(games.map((g) => g.id), ['older', 'here', 'newer']);
  const here = games.find((g) => g.id === 'here');
  assert.equal(here.result, 'x', 'the local copy wins');
  assert.equal(here.date, '2026-12-02T00:00:00.000Z');
  assert.deepEqual(here.review?.marks, '00000', 'the review it lacked is taken');
  // The same entries again change nothing.
  assert.equal(archive.merge([game('older', '2026-12-01T00:00:00.000Z')]), 0);
  // Past MAX_GAMES the games taken in go first, the oldest first: this browser's own stays.
  const many = Array.from({ length: MAX_GAMES }, (_, i) => game(`g${i}`, new Date(Date.UTC(2027, 0, 1) + i * 1000).toISOString()));
  archive.merge(many);
  const kept = archive.load().games;
  assert.equal(kept.length, MAX_GAMES);
  assert.deepEqual(kept.slice(0, 2).map((g) => g.id), ['here', 'g1']);
});

test('games taken in from the account never push out this browser’s own', () => {
  const storage = memoryStorage();
  const archive = archiveOf(storage);
  const game = (id, date) => ({
    id, date, kind: 'classic', rules: 'standard', mode: 'human', level: null, levelO: null, side: null, result: 'x', record: 'classic:b2a1c1b1a3',
  });
  const at = (base, i) => new Date(Date.UTC(base, 0, 1) + i * 1000).toISOString();
  // 400 games finished here; the account has 500 newer ones from another browser.
  for (let i = 0; i < 400; i += 1) archive.add(game(`here${i}`, at(2026, i)));
  const theirs = Array.from({ length: MAX_GAMES }, (_, i) => game(`there${i}`, at(2027, i)));
  archive.merge(theirs);
  let games = archive.load().games;
  assert.equal(games.length, MAX_GAMES);
  assert.equal(games.filter((g) => g.id.startsWith('here')).length, 400, 'every game of this browser stays');
  assert.equal(games.filter((g) => g.pulled).length, 100, 'the newest 100 taken in');
  assert.equal(games.find((g) => g.pulled)?.id, 'there400');
  assert.equal(games.find((g) => g.id === 'here0')?.pulled, undefined);
  // A game finished here later pushes out the oldest game taken in, not one of its own.
  archive.add(game('later', at(2028, 0)));
  games = archive.load().games;
  assert.equal(games.length, MAX_GAMES);
  assert.equal(games.filter((g) => g.id.startsWith('here')).length, 400);
  assert.equal(games.find((g) => g.pulled)?.id, 'there401');
  assert.equal(games.at(-1)?.id, 'later');
});
