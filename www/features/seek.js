// @ts-check
// Play now, the page's side of a seek (docs/protocol.md, "Play now"): the
// seek is made in online.js's session (`begin`), waits in its pool
// (`seeking` frames), and ends in a pairing (`joined`, then the room as
// any room's) or a cancel (`seekEnded`). It lives in `state.online.seek`
// while it waits; online.js owns the session and hands over what it needs.

/**
 * A Play now seek while it waits: what was asked, how many wait in its
 * pool, the rating it is paired by (null until the server said), when it
 * began (performance.now()), and whether a cancel was asked.
 * @typedef {{
 *   options: import('../protocol').SeekOptions,
 *   waiting: number,
 *   rating: number | null,
 *   provisional: boolean,
 *   since: number,
 *   cancelling: boolean,
 * }} Seek
 */

/** How long a cancelled seek waits for the server's answer before the connection is simply closed. */
const CANCEL_WAIT_MS = 5000;

/**
 * The seek of the page's session. What it needs of online.js: `state`
 * (`state.online` while in a session), `signIn()` (the session a first
 * online action makes), `announce(cause)`, `begin(open)` (a new session
 * opened with `open(session)`), `send(message)` (false when not
 * connected), `refused(answer)` when no player could be signed in, and
 * `end()`, which closes the session and brings the local game back.
 * @param {{
 *   state: any,
 *   signIn: () => Promise<import('../api.js').Answer>,
 *   announce: (cause: any) => void,
 *   begin: (open: (session: import('../online.js').OnlineSession) => void) => void,
 *   send: (message: import('../protocol').ClientMessage) => boolean,
 *   refused: (answer: any) => void,
 *   end: () => void,
 * }} deps
 */
export function createSeek({ state, signIn, announce, begin, send, refused, end }) {
  /** Settles a cancel in progress: true when the seek ended, false when a pairing came first. */
  let settleCancel = (/** @type {boolean} */ _ended) => {};

  /**
   * Waits in the pool of `options` (kind, rules, clock, rated) until the
   * server pairs this player. The player is made first if this browser has
   * none (rated games are for players with a name).
   * @param {import('../protocol').SeekOptions} options
   */
  async function seek(options) {
    if (state.online) return;
    const signed = await signIn();
    if (signed.ok === false) {
      refused(signed);
      return;
    }
    if (state.online) return;
    begin((s) => s.seek(options));
    state.online.seek = { options, waiting: 0, rating: null, provisional: true, since: performance.now(), cancelling: false };
    announce('online');
  }

  /**
   * Stops waiting in the pool. Resolves true once the seek has ended (the
   * local game is back), false when the pairing came first (its game is on).
   * @returns {Promise<boolean>}
   */
  function cancel() {
    const waiting = state.online?.seek;
    if (!waiting) return Promise.resolve(!state.online);
    const done = new Promise((resolve) => {
      settleCancel = resolve;
    });
    waiting.cancelling = true;
    announce('online');
    const asked = send({ type: 'cancelSeek' });
    // Not connected, or no answer in time: closing the connection ends the
    // seek on the server too.
    const timer = setTimeout(ended, asked ? CANCEL_WAIT_MS : 0);
    void done.then(() => clearTimeout(timer));
    return done;
  }

  /** The seek ended without a game: the local game comes back. */
  function ended() {
    if (!state.online?.seek) return;
    end();
  }

  /** The server says how the seek waits: the pool's size and the rating it is paired by. */
  function came({ waiting, rating, provisional }) {
    const waitingSeek = state.online?.seek;
    if (!waitingSeek) return;
    Object.assign(waitingSeek, { waiting, rating, provisional });
    announce('online');
  }

  /** The session entered a room: a waiting seek was paired. */
  function paired() {
    if (!state.online?.seek) return;
    state.online.seek = null;
    settle(false);
  }

  /** Settles a cancel in progress (true: no game came). */
  function settle(endedWithoutGame) {
    settleCancel(endedWithoutGame);
    settleCancel = () => {};
  }

  return { seek, cancel, ended, came, paired, settle };
}
