// @ts-check
// Keeping the games: the game in progress is saved after every change (a
// refused write is told and tried again until it goes through), comes back
// as it was shown at the next visit, and every game that ends or is set
// aside unfinished goes into the archive of games (records.js), with the
// lines tried after it.

import { WebGame } from '../wasm.js';
import { humanSide } from '../status.js';
import { t } from '../i18n.js';

/** How often a save that failed is tried again, while it keeps failing. */
const SAVE_RETRY_MS = 4000;

/** A new game's id in the archive: unique enough across a player's devices. */
export function newGameId() {
  const words = new Uint32Array(2);
  crypto.getRandomValues(words);
  return `${Date.now().toString(36)}-${words[0].toString(36)}${words[1].toString(36)}`;
}

/**
 * Shows in `game` the line that ends at position `line` (a view's
 * `lineEnd`; 0 for the main line) with `cursor` moves on the board, as it
 * was saved: the tree's continuation after `line`, if any, is not part of
 * it. Throws (from the core) if the game has no such line.
 */
export function showSavedLine(game, line, cursor) {
  if (line > 0) {
    game.jumpTo(line);
    game.truncate();
  }
  game.jump(cursor);
}

/**
 * The saving of the game in `state` (the controller's). `announce(cause)`
 * tells a change (a save that failed and went through at last);
 * `archiveChanged()` says the archive of games changed.
 * @param {{
 *   state: any,
 *   storage: import('../storage.js').GameStorage,
 *   archive: import('../records.js').Archive,
 *   announce: (cause: GameCause) => void,
 *   archiveChanged: () => void,
 * }} deps
 */
export function createSaving({ state, storage, archive, announce, archiveChanged }) {
  /** Whether the last save was refused: its notice stays until a save goes through. */
  let failed = false;
  let retryTimer = 0;

  /**
   * Saves the game. A refused write (storage full) is told at once; the game
   * stays in memory and the save is tried again on every change and every few
   * seconds until it goes through.
   */
  function persist() {
    // An online game is the server's to keep; the local game stays as saved.
    if (state.online) return;
    const record = state.game.treeRecord();
    const data = record
      ? { record, cursor: state.view.ply, line: state.view.lineEnd, id: state.gameId }
      : { position: state.game.positionString(), id: state.gameId };
    const saved = storage.saveGame(data);
    clearTimeout(retryTimer);
    if (saved) {
      if (failed) {
        failed = false;
        if (state.notice?.key === 'storage.saveFailed') state.notice = { text: t('storage.saved'), tone: 'info' };
      }
      return;
    }
    // A browser that refuses storage altogether was told about once, at start.
    if (!storage.storageAvailable()) return;
    failed = true;
    state.notice = { text: t('storage.saveFailed'), tone: 'error', key: 'storage.saveFailed' };
    retryTimer = setTimeout(retrySave, SAVE_RETRY_MS);
  }

  function retrySave() {
    if (!failed) return;
    persist();
    announce('notice');
  }

  /** The entry of the archive for the game on the board, with `result`. */
  function archiveEntry(result) {
    const { settings, online } = state;
    if (online) {
      const { options } = online.roomState;
      return {
        id: state.gameId,
        kind: options.kind,
        rules: options.kind === 'classic' ? 'standard' : options.rules,
        mode: 'online',
        level: null,
        levelO: null,
        side: online.side,
        result,
        record: state.game.record(),
      };
    }
    const human = humanSide(settings.mode);
    const mode = human ? 'ai' : settings.mode;
    // The game's other lines go with it (the line that ended is the one shown).
    const tree = state.game.treeRecord();
    return {
      ...(tree ? { tree, line: state.view.lineEnd } : {}),
      id: state.gameId,
      kind: settings.kind,
      rules: settings.kind === 'classic' ? 'standard' : settings.rules,
      mode,
      level: mode === 'human' ? null : settings.level,
      levelO: mode === 'watch' ? settings.levelO : null,
      side: human,
      result,
      record: state.game.record(),
    };
  }

  /** Puts the game on the board in the archive as finished with `result` (or 'unfinished'). */
  function recordInArchive(result) {
    if (!state.game.record()) return;
    if (archive.add(archiveEntry(result))) archiveChanged();
  }

  /**
   * The game on the board is about to be replaced: if it has moves and never
   * finished, it goes into the archive as unfinished, so it can be replayed.
   */
  function setAsideCurrentGame() {
    if (!state.game || state.view.length === 0) return;
    const known = archive.find(state.gameId);
    if (!known) {
      recordInArchive('unfinished');
      return;
    }
    // A finished game keeps the lines tried after it ended.
    if (state.online) return;
    const line = state.game.lineOf(known.record);
    if (line !== undefined && archive.keepLines(known.id, state.game.treeRecord(), line)) archiveChanged();
  }

  /**
   * The game saved last, as it was shown (its id in `state.gameId`), or a new
   * game of the settings when there is none or it cannot be read (set aside
   * and reported).
   */
  function restoreGame() {
    const saved = storage.loadGame();
    state.gameId = saved?.id ?? newGameId();
    if (!saved) return new WebGame(state.settings.kind, state.settings.rules);
    let game = null;
    try {
      game = WebGame.fromText(saved.record ?? saved.position);
      if (saved.record) showSavedLine(game, saved.line, saved.cursor);
      const view = game.view();
      if (view.kind !== state.settings.kind || view.rules !== state.settings.rules) {
        throw new Error('the saved game does not match the saved settings');
      }
      return game;
    } catch (error) {
      if (game) game.free();
      storage.reportCorruptGame(error.message ?? error);
      state.gameId = newGameId();
      return new WebGame(state.settings.kind, state.settings.rules);
    }
  }

  /** The notice for what could not be read at start-up, by what it was. */
  function problemNotice(problems) {
    const names = new Set(problems.map((p) => p.name));
    if (names.has('game')) return t('storage.corrupt');
    if (names.has('settings')) return t('storage.corruptSettings');
    return t('storage.corruptOther');
  }

  return {
    save: persist,
    /** True while the last save was refused. */
    failed: () => failed,
    /** Saves now if the last save was refused (the page is going away). */
    flush: () => {
      if (failed) persist();
    },
    record: recordInArchive,
    setAside: setAsideCurrentGame,
    restore: restoreGame,
    problemNotice,
  };
}
