// Saving and restoring settings, the game in progress and the scores in
// localStorage. Every record is versioned; anything unreadable is set aside
// under a ".corrupt" key and reported, never thrown.

const VERSION = 1;
const PREFIX = 'uttt.';
const KEYS = { settings: 'settings', game: 'game', scores: 'scores' };

/** Records set aside since the last takeProblems(): `{name, error}`. */
let problems = [];
/** False once the browser refused to read or write. */
let available = true;

function store() {
  try {
    return window.localStorage;
  } catch {
    return null;
  }
}

function setAside(name, raw) {
  const s = store();
  if (!s) return;
  try {
    s.setItem(`${PREFIX}${name}.corrupt`, raw);
    s.removeItem(PREFIX + name);
  } catch {
    // Storage full or denied: the bad value stays, and is ignored again next time.
  }
}

/**
 * Reads record `name` and passes its payload to `validate`, which returns
 * the cleaned value or throws. Missing → undefined; bad → set aside, noted.
 */
function read(name, validate) {
  const s = store();
  if (!s) {
    available = false;
    return undefined;
  }
  let raw;
  try {
    raw = s.getItem(PREFIX + name);
  } catch {
    available = false;
    return undefined;
  }
  if (raw === null) return undefined;
  try {
    const parsed = JSON.parse(raw);
    if (!parsed || typeof parsed !== 'object' || parsed.v !== VERSION) {
      throw new Error('unknown format or version');
    }
    return validate(parsed.data);
  } catch (error) {
    problems.push({ name, error: String(error && error.message ? error.message : error) });
    setAside(name, raw);
    return undefined;
  }
}

function write(name, data) {
  const s = store();
  if (!s) {
    available = false;
    return false;
  }
  try {
    s.setItem(PREFIX + name, JSON.stringify({ v: VERSION, data }));
    return true;
  } catch {
    available = false;
    return false;
  }
}

function oneOf(value, allowed, what) {
  if (!allowed.includes(value)) throw new Error(`bad ${what}`);
  return value;
}

/**
 * Reads the settings; `levelNames` are the levels the engine knows.
 * Returns undefined when none are stored or they were unreadable.
 */
export function loadSettings(levelNames) {
  return read(KEYS.settings, (d) => ({
    kind: oneOf(d.kind, ['ultimate', 'classic'], 'game type'),
    mode: oneOf(d.mode, ['ai-x', 'ai-o', 'human', 'watch'], 'mode'),
    level: oneOf(d.level, levelNames, 'level'),
    rules: oneOf(d.rules, ['standard', 'tiebreak'], 'rules'),
  }));
}

/** Saves the settings. */
export function saveSettings(settings) {
  return write(KEYS.settings, settings);
}

/**
 * Reads the saved game: `{record, cursor}` or `{position}`. The caller
 * replays it through the core, and calls `reportCorruptGame` if the core
 * refuses it.
 */
export function loadGame() {
  return read(KEYS.game, (d) => {
    if (typeof d.record === 'string' && Number.isInteger(d.cursor) && d.cursor >= 0) {
      return { record: d.record, cursor: d.cursor };
    }
    if (typeof d.position === 'string') return { position: d.position };
    throw new Error('no record');
  });
}

/** Saves the game: its record and cursor (or, for a set-up game, its position). */
export function saveGame(game) {
  return write(KEYS.game, game);
}

/** The stored game was well-formed JSON but the core refused it: set it aside. */
export function reportCorruptGame(error) {
  const s = store();
  let raw = null;
  try {
    raw = s ? s.getItem(PREFIX + KEYS.game) : null;
  } catch {
    raw = null;
  }
  problems.push({ name: KEYS.game, error: String(error) });
  if (raw !== null) setAside(KEYS.game, raw);
}

/** Reads the score table: `{ "<kind>/<mode>": {x, o, draw} }`. */
export function loadScores() {
  return read(KEYS.scores, (d) => {
    if (!d || typeof d !== 'object' || Array.isArray(d)) throw new Error('bad scores');
    const clean = {};
    for (const [key, row] of Object.entries(d)) {
      if (!/^(ultimate|classic)\/(ai-x|ai-o|human|watch)$/.test(key)) throw new Error('bad score key');
      const counts = {};
      for (const k of ['x', 'o', 'draw']) {
        if (!Number.isInteger(row?.[k]) || row[k] < 0) throw new Error('bad score');
        counts[k] = row[k];
      }
      clean[key] = counts;
    }
    return clean;
  });
}

/** Saves the score table. */
export function saveScores(scores) {
  return write(KEYS.scores, scores);
}

/** Problems found while reading since the last call, then forgets them. */
export function takeProblems() {
  const out = problems;
  problems = [];
  return out;
}

/** False once the browser refused to store anything. */
export function storageAvailable() {
  return available;
}
