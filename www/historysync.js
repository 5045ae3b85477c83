// @ts-check
// The browser's games kept with the account (docs/api.md, "Attached
// games"): the archive (records.js, the one owner of the local history)
// sends its finished games to `PUT /api/me/history` once the player
// attaches them, and a browser attached to the account takes the account's
// games into its own archive (`GET /api/me/history`), where the statistics
// and the history list count them as its own. Signing in alone takes
// nothing in: a browser that never attached (a shared computer) keeps only
// its own games. A game taken in never pushes out one of this browser's
// (records.js, `merge`).
//
// Merging is by game id, and the local copy wins (records.js's `merge`):
// a game this browser has stays as it is here, and only takes a review it
// lacks. Sending never blocks the page and never loses a local game: a
// failure waits and tries again (30 s, doubling to 10 minutes), and a
// game the server refuses as invalid is not sent again.
//
// What it keeps under its own key: whether this browser sends its new
// games (the panel's setting, on once attached), for which player, the
// `since` of the next reading, and what was sent of each game. The
// setting (`on`, `who`) is the player's: a sync writes only `since` and
// `sent`, over the setting as it is stored then.

import { api, Refusal } from './accountapi.js';

const KEY = 'uttt.historySync';
/** Entries a request takes at most (the server's MAX_BATCH). */
const BATCH = 50;
const FIRST_RETRY_MS = 30_000;
const LAST_RETRY_MS = 600_000;

/**
 * @typedef {{ on: boolean, who: string | null, since: number, sent: Record<string, string> }} SyncState
 * @typedef {{ state: 'idle' | 'sending' | 'waiting' | 'done', kept: number | null }} SyncStatus
 * @typedef {{
 *   counts: () => { games: number, reviews: number },
 *   attached: () => boolean,
 *   status: () => SyncStatus,
 *   attach: () => Promise<number>,
 *   setSending: (on: boolean) => void,
 *   changed: () => void,
 *   onStatus: (listener: () => void) => void,
 * }} HistorySync
 */

/** What of an entry was sent: a changed record, review or lines is sent again. */
const signature = (g) => `${g.record}|${g.review ? 'r' : ''}|${g.tree?.length ?? 0}`;

/**
 * The sync of the archive `archive` with the account `account` (api.js);
 * `archiveChanged()` tells the page when games came in.
 * @param {{ archive: import('./records.js').Archive, account: import('./api.js').Account, archiveChanged: () => void }} deps
 * @returns {HistorySync}
 */
export function createHistorySync({ archive, account, archiveChanged }) {
  /** @returns {SyncState} */
  const read = () => {
    try {
      const data = JSON.parse(localStorage.getItem(KEY) ?? 'null');
      if (data && typeof data === 'object' && typeof data.sent === 'object' && data.sent) {
        return { on: data.on === true, who: typeof data.who === 'string' ? data.who : null, since: Number(data.since) || 0, sent: data.sent };
      }
    } catch {
      // Unreadable: start again; the server keeps each game once by its id.
    }
    return { on: false, who: null, since: 0, sent: {} };
  };
  const write = (next) => {
    try {
      localStorage.setItem(KEY, JSON.stringify(next));
    } catch {
      // Not kept: the games are sent again later, which changes nothing.
    }
  };
  /** @type {SyncStatus} */
  let status = { state: 'idle', kept: null };
  const listeners = new Set();
  const setStatus = (next) => {
    status = next;
    for (const listener of listeners) listener();
  };
  let running = null;
  let again = false;
  let retryTimer = 0;
  let retryMs = FIRST_RETRY_MS;

  const finishedGames = () => archive.load().games.filter((g) => g.id && g.result !== 'unfinished');

  /** The state for the player signed in now: another player's is forgotten (and its sending off). */
  const mine = () => {
    const me = account.me();
    const state = read();
    if (!me) return null;
    if (state.who !== me.name) return { on: false, who: me.name, since: 0, sent: {} };
    return state;
  };

  /**
   * Keeps what a sync owns (`since`, `sent`) for player `who`, over the
   * setting as stored now (the player may change it while a sync waits);
   * nothing when another player's state is stored by then.
   */
  const keep = (who, { since, sent }) => {
    const now = read();
    if (now.who === who) write({ ...now, since, sent });
  };

  /** While this browser is attached: takes the account's games in, then sends this browser's new ones. */
  const syncOnce = async () => {
    const me = account.me();
    const state = mine();
    if (!me || !state?.on) {
      setStatus({ state: 'idle', kept: null });
      return;
    }
    /** Whether this browser is still attached for this player (the player may turn it off, or another sign in, meanwhile). */
    const sending = () => {
      const now = read();
      return now.on && now.who === me.name;
    };
    const answer = await api('GET', `me/history?since=${state.since}`);
    if (!sending()) {
      // Turned off while asking: nothing taken in, and the next reading starts where this one did.
      setStatus({ state: 'idle', kept: null });
      return;
    }
    const entries = Array.isArray(answer?.entries) ? answer.entries : [];
    for (const entry of entries) if (entry?.id) state.sent[entry.id] = signature(entry);
    state.since = Number(answer?.until) || state.since;
    keep(me.name, state);
    if (archive.merge(entries) > 0) archiveChanged();
    setStatus({ state: 'sending', kept: status.kept });
    // `pulled` is the archive's own mark (records.js), not a field the server takes.
    const pending = finishedGames()
      .filter((g) => state.sent[g.id] !== signature(g))
      .map(({ pulled: _pulled, ...g }) => g);
    let kept = status.kept;
    /** Sends `batch`; one the server refuses as invalid is sent a game at a time, to leave out the bad ones. */
    const send = async (batch) => {
      try {
        const done = await api('PUT', 'me/history', { csrf: me.csrf, body: { entries: batch } });
        kept = done?.kept ?? kept;
      } catch (error) {
        if (!(error instanceof Refusal && error.code === 'bad-entry')) throw error;
        // A game the server finds invalid would be refused for ever: it stays here, unsent.
        if (batch.length > 1) for (const g of batch) await send([g]);
      }
      for (const g of batch) state.sent[g.id] = signature(g);
      keep(me.name, state);
    };
    // Sending turned off meanwhile stops it before the next batch.
    for (let i = 0; i < pending.length && sending(); i += BATCH) await send(pending.slice(i, i + BATCH));
    setStatus({ state: sending() ? 'done' : 'idle', kept });
  };

  /** Runs a sync now, or once more after the one under way; a failure waits and tries again. */
  const sync = () => {
    if (running) {
      again = true;
      return running;
    }
    clearTimeout(retryTimer);
    running = syncOnce()
      .then(() => {
        retryMs = FIRST_RETRY_MS;
      })
      .catch((error) => {
        if (error instanceof Refusal && error.code === 'signed-out') {
          setStatus({ state: 'idle', kept: null });
          return;
        }
        setStatus({ state: 'waiting', kept: status.kept });
        retryTimer = window.setTimeout(sync, retryMs);
        retryMs = Math.min(retryMs * 2, LAST_RETRY_MS);
      })
      .finally(() => {
        running = null;
        if (again) {
          again = false;
          void sync();
        }
      });
    return running;
  };

  account.onMe((me) => {
    if (me) void sync();
  });

  return {
    /** This browser's finished games, and how many of them have reviews. */
    counts() {
      const games = finishedGames();
      return { games: games.length, reviews: games.filter((g) => g.review).length };
    },
    /** Whether this browser sends its games to the signed-in player's account. */
    attached: () => Boolean(mine()?.on),
    status: () => status,
    /** Attaches this browser's games to the account (and those it finishes later); resolves to how many the account keeps. */
    async attach() {
      const state = mine();
      if (!state) throw new Refusal('signed-out');
      write({ ...state, on: true });
      await sync();
      if (status.state === 'waiting') throw new Refusal('timeout');
      return status.kept ?? 0;
    },
    /** Turns sending this browser's new games on or off (what is kept stays kept). */
    setSending(on) {
      const state = mine();
      if (!state) return;
      write({ ...state, on });
      setStatus({ state: 'idle', kept: status.kept });
      if (on) void sync();
    },
    /** The archive changed: a game finished or a review was kept, which go to the account if this browser sends. */
    changed() {
      if (mine()?.on) void sync();
    },
    onStatus: (listener) => listeners.add(listener),
  };
}
