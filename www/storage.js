// @ts-check
// Saving and restoring the settings and the game in progress in
// localStorage (the finished games and the scores drawn from them are
// records.js's). Every record is versioned; anything unreadable is set aside
// under a ".corrupt" key and reported, never thrown.

const VERSION = 1;
const PREFIX = 'uttt.';
const KEYS = { settings: 'settings', game: 'game' };

function oneOf(value, allowed, what) {
  if (!allowed.includes(value)) throw new Error(`bad ${what}`);
  return value;
}

/**
 * @typedef {ReturnType<typeof createStorage>} GameStorage
 */

/**
 * The settings and the game in progress, kept in the storage `open()`
 * gives (localStorage by default; a browser may refuse it, even on access).
 * What it found unreadable is kept until takeProblems() hands it over.
 */
export function createStorage(open = () => window.localStorage) {
  /** Records set aside since the last takeProblems(): `{name, error}`. */
  let problems = [];
  /** False once the browser refused to give the page storage at all. */
  let available = true;
  /** True once a write went through in this visit. */
  let wroteOnce = false;

  function store() {
    try {
      return open();
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
      wroteOnce = true;
      return true;
    } catch {
      // Refused before anything was ever written: this browser gives the page
      // no storage at all. Refused later: it is full, and the caller tells the
      // player and tries again.
      if (!wroteOnce) available = false;
      return false;
    }
  }

  /**
   * Reads the settings; `levelNames` are the levels the engine knows.
   * Returns undefined when none are stored or they were unreadable.
   */
  function loadSettings(levelNames) {
    return read(KEYS.settings, (d) => ({
      kind: oneOf(d.kind, ['ultimate', 'classic'], 'game type'),
      mode: oneOf(d.mode, ['ai-x', 'ai-o', 'human', 'watch'], 'mode'),
      level: oneOf(d.level, levelNames, 'level'),
      // Added later than the others: missing means the default.
      levelO: oneOf(d.levelO ?? d.level, levelNames, 'level of O'),
      rules: oneOf(d.rules, ['standard', 'tiebreak'], 'rules'),
      speed: oneOf(d.speed ?? 'normal', ['slow', 'normal', 'fast'], 'speed'),
      ponder: oneOf(d.ponder ?? true, [true, false], 'pondering'),
    }));
  }

  /** Saves the settings. */
  function saveSettings(settings) {
    return write(KEYS.settings, settings);
  }

  /**
   * Reads the saved game: `{record, cursor, line, id}` or `{position, id}`:
   * `record` with every line of the game, `line` the id of the shown line's
   * last position in it and `cursor` the moves shown (`line` is missing in
   * saves from before variations, `id`, the game's key in the archive, in
   * older ones still). The caller replays it through the core, and calls
   * `reportCorruptGame` if the core refuses it.
   */
  function loadGame() {
    return read(KEYS.game, (d) => {
      const id = typeof d.id === 'string' && /^[\w-]{1,40}$/.test(d.id) ? d.id : undefined;
      if (typeof d.record === 'string' && Number.isInteger(d.cursor) && d.cursor >= 0) {
        const line = Number.isInteger(d.line) && d.line >= 0 ? d.line : 0;
        return { record: d.record, cursor: d.cursor, line, id };
      }
      if (typeof d.position === 'string') return { position: d.position, id };
      throw new Error('no record');
    });
  }

  /** Saves the game: its record, shown line and cursor (or, for a set-up game, its position). */
  function saveGame(game) {
    return write(KEYS.game, game);
  }

  /** The stored game was well-formed JSON but the core refused it: set it aside. */
  function reportCorruptGame(error) {
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

  /** Problems found while reading since the last call, then forgets them. */
  function takeProblems() {
    const out = problems;
    problems = [];
    return out;
  }

  /** False once the browser refused to store anything. */
  function storageAvailable() {
    return available;
  }

  return { loadSettings, saveSettings, loadGame, saveGame, reportCorruptGame, takeProblems, storageAvailable };
}
