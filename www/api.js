// @ts-check
// The server's JSON API (docs/api.md), as the page calls it: relative
// addresses (the page works under a sub-path, `/uttt/api/...`), the session
// cookie sent along, and every failure an answer rather than an exception.
// The static build has no server behind it: its host answers `/api/...`
// with a page of its own (or nothing), never the API's JSON, and that is
// how it is told apart (status 0).

/** The performances, in the order pages list them (crates/server/src/rating.rs's `Perf::all`). */
export const GAMES = Object.freeze(['ultimate', 'tiebreak', 'classic']);
export const SPEEDS = Object.freeze(['bullet', 'blitz', 'rapid', 'classical', 'correspondence']);
export const PERFS = Object.freeze(GAMES.flatMap((game) => SPEEDS.map((speed) => `${game}-${speed}`)));

/**
 * @typedef {{ ok: true, status: number, body: any }
 *   | { ok: false, status: number, error: string, message: string, retryAfter: number | null }} Answer
 */

/**
 * Calls `path` (relative to the site, e.g. 'api/me') with `init`: the
 * JSON answer, or why there is none (status 0: no server's API answered).
 * Never throws, but an aborted `init.signal` rejects as fetch does.
 * @param {string} path
 * @param {RequestInit} [init]
 * @returns {Promise<Answer>}
 */
export async function call(path, init = {}) {
  let response;
  try {
    response = await fetch(new URL(path, window.location.href), { credentials: 'same-origin', ...init });
  } catch (error) {
    if (init.signal?.aborted) throw error;
    return { ok: false, status: 0, error: 'unreachable', message: '', retryAfter: null };
  }
  if (response.status === 204) return { ok: true, status: 204, body: null };
  const json = (response.headers.get('content-type') ?? '').includes('application/json');
  let body = null;
  try {
    body = json ? await response.json() : null;
  } catch (error) {
    if (init.signal?.aborted) throw error;
  }
  if (body === null) return { ok: false, status: 0, error: 'unavailable', message: '', retryAfter: null };
  if (response.ok) return { ok: true, status: response.status, body };
  const wait = Number(response.headers.get('retry-after'));
  return {
    ok: false,
    status: response.status,
    error: typeof body.error === 'string' ? body.error : 'other',
    message: typeof body.message === 'string' ? body.message : '',
    retryAfter: Number.isFinite(wait) && wait > 0 ? wait : null,
  };
}

/**
 * An answer of the API as the views read it: `{ok: true, data}`; or
 * `{ok: false, problem}` where `problem` is 'offline' (the browser has no
 * network), 'unavailable' (no game server here: the static build),
 * 'not-found' (404, the API's `error` in `code`) or 'failed' (anything else).
 * @typedef {{ok: boolean, data?: any, problem?: 'offline' | 'unavailable' | 'not-found' | 'failed', code?: string}} ApiAnswer
 */

/**
 * GETs `path` (e.g. `players/Ann`, without `api/`) for a view.
 * @param {string} path
 * @param {AbortSignal} [signal]
 * @returns {Promise<ApiAnswer>}
 */
export async function getApi(path, signal) {
  const answer = await call(`api/${path}`, { signal, headers: { Accept: 'application/json' } });
  if (answer.ok) return { ok: true, data: answer.body };
  if (answer.status === 0) return { ok: false, problem: navigator.onLine === false ? 'offline' : 'unavailable' };
  const code = 'error' in answer ? answer.error : undefined;
  return { ok: false, problem: answer.status === 404 ? 'not-found' : 'failed', code };
}

/** The path of a player's page in the API and in the page's routes: the name, encoded. */
export const playerPath = (name) => encodeURIComponent(name);

/** The hash of `name`'s profile view. */
export const profileHash = (name) => `#/@/${encodeURIComponent(name)}`;

/** The hash of the leaderboard view of `perf`. */
export const leaderboardHash = (perf) => `#/leaderboard/${perf}`;

/** The hash of the Play view (playview.js). */
export const PLAY_HASH = '#/play';

/** The hash of the Watch view. */
export const WATCH_HASH = '#/watch';

/** Where this browser notes that it has a session (its cookie is HttpOnly: the page cannot see it). */
const SIGNED_IN_KEY = 'uttt.signedIn';

function remembered() {
  try {
    return localStorage.getItem(SIGNED_IN_KEY) === '1';
  } catch {
    return false;
  }
}

function remember(signedIn) {
  try {
    if (signedIn) localStorage.setItem(SIGNED_IN_KEY, '1');
    else localStorage.removeItem(SIGNED_IN_KEY);
  } catch {
    // Not kept: the name shows after the next online action.
  }
}

/**
 * @typedef {{
 *   me: () => {name: string, csrf: string} | null,
 *   onMe: (listener: (me: {name: string, csrf: string} | null) => void) => () => void,
 *   fetchMe: () => Promise<{name: string, csrf: string} | null>,
 *   ensureSession: () => Promise<Answer>,
 *   learned: (me: {name: string, csrf: string} | null) => void,
 * }} Account
 */

/**
 * The page's account: the signed-in player `{name, csrf}` as the server
 * last said (null: none), and the calls that learn or change it. The
 * controller owns the one the page uses.
 * @returns {Account}
 */
export function createAccount() {
  /** @type {{name: string, csrf: string} | null} */
  let me = null;
  const listeners = new Set();

  function setMe(next) {
    const changed = me?.name !== next?.name;
    me = next;
    remember(next !== null);
    if (changed) for (const listener of listeners) listener(me);
  }

  return {
    me: () => me,
    /** Calls `listener(me)` whenever the signed-in player changes; returns what stops it. */
    onMe(listener) {
      listeners.add(listener);
      return () => listeners.delete(listener);
    },
    /**
     * The signed-in player, asked of the server (`GET /api/session`, which
     * answers 200 `{name: null}` for a session ended elsewhere, where
     * `/api/me`'s 401 would be reported by the console); null without a
     * session or a server. A browser that never had a session does not ask
     * (a static host's 404 would be reported too).
     */
    async fetchMe() {
      if (!remembered()) return null;
      const answer = await call('api/session');
      if (answer.ok) setMe(answer.body.name ? { name: answer.body.name, csrf: answer.body.csrf } : null);
      return answer.ok ? me : null;
    },
    /** The session a first online action makes (`POST /api/session`): its player, or the refusal. */
    async ensureSession() {
      const answer = await call('api/session', { method: 'POST' });
      if (answer.ok) setMe({ name: answer.body.name, csrf: answer.body.csrf });
      return answer;
    },
    /** Takes who is signed in as the account panel learned it (a sign-in, a sign-out): the player, or null. */
    learned(next) {
      setMe(next);
    },
  };
}
