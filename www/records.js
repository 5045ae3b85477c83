// @ts-check
// The local archive of finished games and the statistics drawn from it.
//
// Stored under one versioned localStorage key. Anything unreadable is moved
// aside under a dated key of its own (never thrown away, never thrown):
// the whole value when it cannot be read at all, else each bad entry, so
// one bad entry cannot hide the others. Every game has an id: finishing the
// same game again (undo, then replay) replaces its entry instead of adding
// one, so the scores, which are counted from these entries, count it once.
// A game may carry its review (see reviews.js); one that cannot be read is
// dropped, the game kept.
//
// What is kept past MAX_GAMES: a game taken in from the account (`merge`,
// marked `pulled`) never pushes out one finished in this browser. Over the
// cap, the oldest pulled games go first, and this browser's own only when
// no pulled game is left, oldest first too.

import { cleanReview } from './reviews.js';

const KEY = 'uttt.history';
const VERSION = 1;
/** Oldest games are dropped beyond this many, to keep storage small. */
export const MAX_GAMES = 500;
/** Only the latest this many games keep their reviews (some 2 KB each). */
export const MAX_REVIEWS = 50;

const KINDS = new Set(['ultimate', 'classic']);
const RULES = new Set(['standard', 'tiebreak']);
/** 'online': a person against a friend through the game server (`side` is theirs). */
const MODES = new Set(['ai', 'human', 'watch', 'online']);
const LEVELS = ['beginner', 'easy', 'medium', 'hard', 'master'];
const RESULTS = new Set(['x', 'o', 'draw']);
/** A game left before its end: kept for replay, counted in no score. */
export const UNFINISHED = 'unfinished';
const ID = /^[\w-]{1,40}$/;
const RECORD = /^(ultimate-standard|ultimate-tiebreak|classic):(?:[a-i][1-9])*$/;
/** A record with variations, as core writes it; core checks its moves when it is opened. */
const TREE = /^(ultimate-standard|ultimate-tiebreak|classic):[a-i1-9()]*$/;
/** The longest record with variations kept (as share.js's MAX_RECORD_CHARS). */
const MAX_TREE_CHARS = 8000;

/** `tree` and `line` if they are a game's lines beyond `record` (see cleanEntry), else nothing. */
function cleanLines(tree, line, record) {
  const header = record.slice(0, record.indexOf(':') + 1);
  if (typeof tree !== 'string' || tree === record || tree.length > MAX_TREE_CHARS || !TREE.test(tree)) return {};
  if (!tree.startsWith(header) || !Number.isInteger(line) || line < 0) return {};
  return { tree, line };
}

/** The levels in the order the statistics list them. */
export const LEVEL_ORDER = LEVELS;

/**
 * A game of the archive, as cleanEntry keeps it.
 * @typedef {{
 *   id: string | null,
 *   date: string,
 *   kind: string,
 *   rules: string,
 *   mode: string,
 *   level: string | null,
 *   levelO: string | null,
 *   side: string | null,
 *   result: string,
 *   record: string,
 *   tree?: string,
 *   line?: number,
 *   review?: ReturnType<typeof cleanReview>,
 *   pulled?: true,
 * }} ArchiveEntry
 */

/**
 * Where an entry's fields are checked; returns a clean copy or null. An
 * entry may keep the game's other lines: `tree`, its record with
 * variations, and `line`, the id in it of the end of `record`'s line.
 * @returns {ArchiveEntry | null}
 */
export function cleanEntry(raw) {
  if (!raw || typeof raw !== 'object') return null;
  const { id, date, kind, rules, mode, level, levelO, side, result, record, review } = raw;
  if (typeof date !== 'string' || Number.isNaN(Date.parse(date))) return null;
  if (!KINDS.has(kind) || !RULES.has(rules) || !MODES.has(mode)) return null;
  if (!RESULTS.has(result) && result !== UNFINISHED) return null;
  if (typeof record !== 'string' || record.length > 400 || !RECORD.test(record)) return null;
  if (id !== undefined && id !== null && !(typeof id === 'string' && ID.test(id))) return null;
  if (mode === 'ai' && !(LEVELS.includes(level) && (side === 'x' || side === 'o'))) return null;
  if (mode === 'online' && side !== 'x' && side !== 'o') return null;
  if (mode === 'watch' && !LEVELS.includes(level)) return null;
  if (mode === 'watch' && levelO != null && !LEVELS.includes(levelO)) return null;
  /** @type {ArchiveEntry} */
  const clean = {
    id: id ?? null,
    date,
    kind,
    rules,
    mode,
    level: mode === 'ai' || mode === 'watch' ? level : null,
    levelO: mode === 'watch' ? (levelO ?? level) : null,
    side: mode === 'ai' || mode === 'online' ? side : null,
    result,
    record,
    ...cleanLines(raw.tree, raw.line, record),
  };
  const kept = review === undefined ? null : cleanReview(review, record);
  if (kept) clean.review = kept;
  if (raw.pulled === true) clean.pulled = true;
  return clean;
}

/** Whether the entry's game reached its end. */
export function finished(entry) {
  return entry.result !== UNFINISHED;
}

/** The outcome for the person playing: 'win', 'draw', 'loss', or null when no one person played or it is unfinished. */
export function personalOutcome(entry) {
  if ((entry.mode !== 'ai' && entry.mode !== 'online') || !finished(entry)) return null;
  if (entry.result === 'draw') return 'draw';
  return entry.result === entry.side ? 'win' : 'loss';
}

/** @typedef {null | 'partial' | 'corrupt'} ArchiveProblem */

/**
 * @typedef {object} Archive
 * @property {() => {games: ArchiveEntry[], problem: ArchiveProblem}} load
 *   Reads the archive; `problem` says when stored data could not be read
 *   and was set aside ('partial': some entries, 'corrupt': all of it).
 * @property {(game: object) => ArchiveEntry | null} add
 * @property {(id: string, tree: string, line: number) => boolean} keepLines
 * @property {(id: string, record: string, review: object) => boolean} attachReview
 * @property {(entries: object[]) => number} merge
 * @property {(id: string) => ArchiveEntry | null} find
 * @property {() => void} clear
 */

/**
 * The archive of games kept in the storage `open()` gives (localStorage by
 * default; a stand-in in the tests), under one key, as one versioned JSON
 * text. A browser that refuses storage, even on access, gets an empty
 * archive that keeps nothing. The last text read or written is kept
 * parsed: the page reads the archive on every redraw.
 * @param {() => Pick<Storage, 'getItem' | 'setItem' | 'removeItem'>} [open]
 * @returns {Archive}
 */
export function createArchive(open = () => window.localStorage) {
  /** The storage, or null where the browser refuses it. */
  const backing = () => {
    try {
      return open();
    } catch {
      return null;
    }
  };
  /** The last archive read or written, by its raw text. */
  let cache = { text: null, games: [] };

  /** Keeps `text` under a key no other text has; false when storage refused it. */
  const setAside = (text) => {
    const storage = backing();
    const stamp = Date.now();
    if (!storage) return false;
    try {
      let n = 1;
      while (storage.getItem(`${KEY}.unreadable.${stamp}-${n}`) !== null) n += 1;
      storage.setItem(`${KEY}.unreadable.${stamp}-${n}`, text);
      return true;
    } catch {
      return false;
    }
  };

  const save = (games) => {
    const storage = backing();
    if (!storage) return false;
    try {
      const text = JSON.stringify({ v: VERSION, games });
      storage.setItem(KEY, text);
      cache = { text, games };
      return true;
    } catch {
      return false; // quota or privacy mode: the game goes on without the archive
    }
  };

  /** @type {Archive['load']} */
  const load = () => {
    const storage = backing();
    let text;
    try {
      text = storage ? storage.getItem(KEY) : null;
    } catch {
      return { games: [], problem: null };
    }
    if (text === null) return { games: [], problem: null };
    if (text === cache.text) return { games: cache.games.slice(), problem: null };
    try {
      const data = JSON.parse(text);
      if (!data || data.v !== VERSION || !Array.isArray(data.games)) throw new Error('shape');
      const games = data.games.map(cleanEntry).filter(Boolean);
      if (games.length === data.games.length) {
        cache = { text, games };
        return { games: games.slice(), problem: null };
      }
      // Entries this version cannot read are kept aside before the good ones
      // are written back, so no later save can lose them.
      const bad = data.games.filter((g) => !cleanEntry(g));
      if (setAside(JSON.stringify({ v: VERSION, games: bad }))) save(games);
      return { games, problem: 'partial' };
    } catch {
      setAside(text);
      try {
        storage?.removeItem(KEY);
      } catch {
        // ignore: read-only storage
      }
      return { games: [], problem: 'corrupt' };
    }
  };

  return {
    load,
    /**
     * Adds a finished (or unfinished) game; `game` has id, kind, rules, mode,
     * level, levelO, side, result, record (and optionally date). A game with the
     * id of a stored one replaces it: one game, one entry, its latest result.
     * Returns the stored entry, or null if invalid or not stored.
     */
    add(game) {
      const entry = cleanEntry({ date: new Date().toISOString(), ...game });
      if (!entry) return null;
      const { games } = load();
      const same = entry.id ? games.findIndex((g) => g.id === entry.id) : -1;
      if (same >= 0) {
        const old = games[same];
        if (old.record === entry.record && old.result === entry.result) return old;
        games.splice(same, 1);
      }
      games.push(entry);
      return save(capped(games)) ? entry : null;
    },
    /**
     * Keeps the lines of game `id` as they are now: `tree` (its record with
     * variations) and `line` (where its entry's record ends in it). True when
     * stored; false (nothing changes) if there is no such entry or nothing new.
     */
    keepLines(id, tree, line) {
      const { games } = load();
      const index = games.findIndex((g) => g.id === id);
      if (index < 0) return false;
      const { tree: _tree, line: _line, ...entry } = games[index];
      const kept = { ...entry, ...cleanLines(tree, line, entry.record) };
      if (kept.tree === games[index].tree && kept.line === games[index].line) return false;
      games[index] = kept;
      return save(games);
    },
    /**
     * Keeps `review` (stored form, see reviews.js) with game `id`, if the
     * stored game is still the one reviewed (`record`); older games beyond
     * MAX_REVIEWS lose theirs. True when stored.
     */
    attachReview(id, record, review) {
      const { games } = load();
      const index = games.findIndex((g) => g.id === id && g.record === record);
      const kept = cleanReview(review, record);
      if (index < 0 || !kept) return false;
      games[index] = { ...games[index], review: kept };
      return save(latestReviews(games));
    },
    /**
     * Takes games kept elsewhere (the account's, see historysync.js) into the
     * archive, by id: a game this archive has already stays as it is (the
     * local copy wins), but takes the other's review when it has none of the
     * same record. A game taken in is marked `pulled`. The archive stays in
     * date order; past MAX_GAMES, pulled games go first (see `capped`).
     * Returns how many entries changed (0: nothing was written).
     */
    merge(entries) {
      const { games } = load();
      const byId = new Map(games.map((g, i) => [g.id, i]));
      let changed = 0;
      for (const raw of entries) {
        const entry = cleanEntry(raw);
        if (!entry?.id || !finished(entry)) continue;
        const known = byId.get(entry.id);
        if (known === undefined) {
          byId.set(entry.id, games.push({ ...entry, pulled: true }) - 1);
          changed += 1;
        } else if (!games[known].review && entry.review && games[known].record === entry.record) {
          games[known] = { ...games[known], review: entry.review };
          changed += 1;
        }
      }
      if (changed === 0) return 0;
      const dated = games.map((g, i) => ({ g, i, at: Date.parse(g.date) }));
      dated.sort((a, b) => a.at - b.at || a.i - b.i);
      return save(latestReviews(capped(dated.map((d) => d.g)))) ? changed : 0;
    },
    /** The stored entry of game `id`, or null. */
    find(id) {
      if (!id) return null;
      return load().games.find((g) => g.id === id) ?? null;
    },
    /** Deletes the whole archive. */
    clear() {
      try {
        backing()?.removeItem(KEY);
      } catch {
        // ignore
      }
      cache = { text: null, games: [] };
    },
  };
}

/**
 * `games` (oldest first) cut to MAX_GAMES: the oldest pulled games go
 * first, and this browser's own only when none is left, the oldest first.
 */
function capped(games) {
  let over = games.length - MAX_GAMES;
  if (over <= 0) return games;
  const drop = new Set();
  for (let i = 0; i < games.length && drop.size < over; i += 1) if (games[i].pulled) drop.add(i);
  over -= drop.size;
  for (let i = 0; i < games.length && over > 0; i += 1) {
    if (drop.has(i)) continue;
    drop.add(i);
    over -= 1;
  }
  return games.filter((_, i) => !drop.has(i));
}

/** `games` with only the latest MAX_REVIEWS of them keeping their reviews. */
function latestReviews(games) {
  let reviewed = 0;
  for (let i = games.length - 1; i >= 0; i -= 1) {
    if (!games[i].review) continue;
    reviewed += 1;
    if (reviewed > MAX_REVIEWS) {
      const { review: _dropped, ...rest } = games[i];
      games[i] = rest;
    }
  }
  return games;
}

/**
 * The score card for the settings on the board, counted from the archive:
 * against the AI, your wins and losses at this game type and level (shown
 * on your side and the AI's); otherwise X's and O's wins at this game type.
 * Returns `{x, o, draw}` by side of the board.
 */
export function scoreCard(games, { kind, mode, level }) {
  const card = { x: 0, o: 0, draw: 0 };
  const vsAi = mode === 'ai-x' || mode === 'ai-o';
  const you = mode === 'ai-o' ? 'o' : 'x';
  const ai = you === 'x' ? 'o' : 'x';
  for (const g of games) {
    if (g.kind !== kind || !finished(g)) continue;
    if (vsAi) {
      if (g.mode !== 'ai' || g.level !== level) continue;
      const mine = personalOutcome(g);
      if (mine === 'draw') card.draw += 1;
      else card[mine === 'win' ? you : ai] += 1;
    } else if (g.mode === mode) {
      card[g.result] += 1;
    }
  }
  return card;
}

/**
 * Win/draw/loss counts per AI level (games against the AI) and online,
 * plus X/O/draw counts for two-player and AI-versus-AI games.
 */
export function statistics(games) {
  const perLevel = Object.fromEntries(
    LEVELS.map((level) => [level, { win: 0, draw: 0, loss: 0 }]),
  );
  const human = { x: 0, o: 0, draw: 0 };
  const watch = { x: 0, o: 0, draw: 0 };
  const online = { win: 0, draw: 0, loss: 0 };
  for (const g of games) {
    if (!finished(g)) continue;
    if (g.mode === 'ai') perLevel[g.level][personalOutcome(g)] += 1;
    else if (g.mode === 'online') online[personalOutcome(g)] += 1;
    else (g.mode === 'human' ? human : watch)[g.result] += 1;
  }
  return { perLevel, human, watch, online };
}
