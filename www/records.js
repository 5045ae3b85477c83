// The local history of finished games and the statistics drawn from it.
//
// Stored under one versioned localStorage key. Anything unreadable is moved
// aside under a dated key (never thrown away, never thrown), and the history
// starts empty. Entries are checked one by one so one bad entry cannot hide
// the others.

const KEY = 'uttt.history';
const VERSION = 1;
/** Oldest games are dropped beyond this many, to keep storage small. */
export const MAX_GAMES = 500;

const KINDS = new Set(['ultimate', 'classic']);
const RULES = new Set(['standard', 'tiebreak']);
const MODES = new Set(['ai', 'human', 'watch']);
const LEVELS = ['beginner', 'easy', 'medium', 'hard', 'master'];
const RESULTS = new Set(['x', 'o', 'draw']);
const RECORD = /^(ultimate-standard|ultimate-tiebreak|classic):(?:[a-i][1-9])*$/;

/** The levels in the order the statistics list them. */
export const LEVEL_ORDER = LEVELS;

/** Where an entry's fields are checked; returns a clean copy or null. */
export function cleanEntry(raw) {
  if (!raw || typeof raw !== 'object') return null;
  const { date, kind, rules, mode, level, side, result, record } = raw;
  if (typeof date !== 'string' || Number.isNaN(Date.parse(date))) return null;
  if (!KINDS.has(kind) || !RULES.has(rules) || !MODES.has(mode) || !RESULTS.has(result)) return null;
  if (typeof record !== 'string' || record.length > 400 || !RECORD.test(record)) return null;
  if (mode === 'ai' && !(LEVELS.includes(level) && (side === 'x' || side === 'o'))) return null;
  if (mode === 'watch' && !LEVELS.includes(level)) return null;
  return {
    date,
    kind,
    rules,
    mode,
    level: mode === 'human' ? null : level,
    side: mode === 'ai' ? side : null,
    result,
    record,
  };
}

/** The outcome for the person playing: 'win', 'draw', 'loss', or null when no one person played. */
export function personalOutcome(entry) {
  if (entry.mode !== 'ai') return null;
  if (entry.result === 'draw') return 'draw';
  return entry.result === entry.side ? 'win' : 'loss';
}

function setAside(text, storage) {
  try {
    storage.setItem(`${KEY}.unreadable.${Date.now()}`, text);
  } catch {
    // Nothing more can be done without storage; the page still works.
  }
}

/**
 * Reads the history. Returns `{ games, problem }` where `problem` is null, or
 * 'corrupt' when the stored data could not be read and was set aside.
 */
export function loadHistory(storage = localStorage) {
  let text;
  try {
    text = storage.getItem(KEY);
  } catch {
    return { games: [], problem: null };
  }
  if (text === null) return { games: [], problem: null };
  try {
    const data = JSON.parse(text);
    if (!data || data.v !== VERSION || !Array.isArray(data.games)) throw new Error('shape');
    const games = data.games.map(cleanEntry).filter(Boolean);
    return { games, problem: games.length === data.games.length ? null : 'partial' };
  } catch {
    setAside(text, storage);
    try {
      storage.removeItem(KEY);
    } catch {
      // ignore: read-only storage
    }
    return { games: [], problem: 'corrupt' };
  }
}

function save(games, storage = localStorage) {
  try {
    storage.setItem(KEY, JSON.stringify({ v: VERSION, games }));
    return true;
  } catch {
    return false; // quota or privacy mode: the game goes on without history
  }
}

/**
 * Adds a finished game; `game` has kind, rules, mode, level, side, result,
 * record (and optionally date). Returns the stored entry, or null if invalid.
 */
export function addGame(game, storage = localStorage) {
  const entry = cleanEntry({ date: new Date().toISOString(), ...game });
  if (!entry) return null;
  const { games } = loadHistory(storage);
  // The same record finishing twice in a row (e.g. undo, then the same move) is one game.
  const last = games[games.length - 1];
  if (last && last.record === entry.record && last.mode === entry.mode) return last;
  games.push(entry);
  save(games.slice(-MAX_GAMES), storage);
  return entry;
}

/** Deletes the whole history. */
export function clearHistory(storage = localStorage) {
  try {
    storage.removeItem(KEY);
  } catch {
    // ignore
  }
}

/**
 * Win/draw/loss counts per AI level (games against the AI), plus X/O/draw
 * counts for two-player and AI-versus-AI games.
 */
export function statistics(games) {
  const perLevel = Object.fromEntries(
    LEVELS.map((level) => [level, { win: 0, draw: 0, loss: 0 }]),
  );
  const human = { x: 0, o: 0, draw: 0 };
  const watch = { x: 0, o: 0, draw: 0 };
  for (const g of games) {
    if (g.mode === 'ai') perLevel[g.level][personalOutcome(g)] += 1;
    else (g.mode === 'human' ? human : watch)[g.result] += 1;
  }
  return { perLevel, human, watch };
}
