// @ts-check
// Challenges, the page's side (docs/protocol.md, "Challenges"): a
// challenge is made in online.js's session (`begin`) and waits as a seek
// does, its id told by `challenging`; it ends in a room (`joined`, then the
// room as any room's) or in `challengeEnded` (declined, withdrawn,
// expired). Accepting one is a session too, whose first frame is the
// accept and whose room comes as a pairing's. Declining one needs no room:
// a short session of its own sends it and closes on the answer, so the
// game on the board (online or not) stays as it is. The waiting challenge
// lives in `state.online.challenge`; online.js owns the session.

/**
 * A challenge of this page while it waits: what was offered, to whom
 * (null: anyone), its id once the server gave it, when it began
 * (performance.now()), and whether a cancel was asked.
 * @typedef {{
 *   options: import('../protocol').RoomOptions,
 *   to: string | null,
 *   id: string | null,
 *   since: number,
 *   cancelling: boolean,
 * }} Challenge
 */

/** How long a cancel or a decline waits for the server's answer. */
const ANSWER_WAIT_MS = 5000;

/**
 * The challenges of the page's session. What it needs of online.js: as
 * seek.js (`state`, `signIn`, `announce`, `begin`, `send`, `refused`,
 * `end`), `connect(on)` for a session of its own, and `notify(text,
 * tone)` with `t` to say how a challenge ended.
 * @param {{
 *   state: any,
 *   signIn: () => Promise<import('../api.js').Answer>,
 *   announce: (cause: any) => void,
 *   begin: (open: (session: import('../online.js').OnlineSession) => void) => void,
 *   send: (message: import('../protocol').ClientMessage) => boolean,
 *   refused: (answer: any) => void,
 *   end: () => void,
 *   connect: (on: any) => import('../online.js').OnlineSession,
 *   told: (reason: import('../protocol').ChallengeEnd) => void,
 * }} deps
 */
export function createChallenge({ state, signIn, announce, begin, send, refused, end, connect, told }) {
  /** Settles a cancel in progress: true when the challenge ended, false when a game came first. */
  let settleCancel = (/** @type {boolean} */ _ended) => {};

  /** Signs in as a first online action does; false (said) when no player could be made. */
  async function signedIn() {
    if (state.online) return false;
    const signed = await signIn();
    if (signed.ok === false) {
      refused(signed);
      return false;
    }
    return !state.online;
  }

  /**
   * Offers a game of `options` (the challenger's side in `colour`) to
   * anyone, or to the player named `to`.
   * @param {import('../protocol').RoomOptions} options
   * @param {string | null} to
   */
  async function challenge(options, to) {
    if (!(await signedIn())) return;
    /** @type {import('../protocol').ClientMessage} */
    const message = { type: 'challenge', options, to };
    begin((s) => s.start(message));
    state.online.challenge = { options, to, id: null, since: performance.now(), cancelling: false };
    announce('online');
  }

  /** Accepts challenge `id`: its room comes as a pairing's. */
  async function accept(id) {
    if (!(await signedIn())) return;
    begin((s) => s.start({ type: 'acceptChallenge', id }));
  }

  /**
   * Declines challenge `id` in a short session of its own. Resolves true
   * once the server said it is declined, false otherwise.
   * @param {string} id
   * @returns {Promise<boolean>}
   */
  function decline(id) {
    return new Promise((resolve) => {
      let done = false;
      const finish = (/** @type {boolean} */ ok) => {
        if (done) return;
        done = true;
        clearTimeout(timer);
        session.close();
        resolve(ok);
      };
      const session = connect({
        joined() {},
        state() {},
        spectators() {},
        seeking() {},
        seekEnded() {},
        challenging() {},
        challengeEnded: () => finish(true),
        error: () => finish(false),
        connection: (status) => {
          if (status === 'unavailable' || status === 'refused') finish(false);
        },
      });
      const timer = setTimeout(() => finish(false), ANSWER_WAIT_MS);
      session.start({ type: 'declineChallenge', id });
    });
  }

  /**
   * Withdraws the waiting challenge. Resolves true once it ended (the
   * local game is back), false when it was accepted first.
   * @returns {Promise<boolean>}
   */
  function cancel() {
    const waiting = state.online?.challenge;
    if (!waiting) return Promise.resolve(!state.online);
    const done = new Promise((resolve) => {
      settleCancel = resolve;
    });
    waiting.cancelling = true;
    announce('online');
    const asked = send({ type: 'cancelChallenge' });
    // Not connected, or no answer in time: closing the connection withdraws it too.
    const timer = setTimeout(gone, asked ? ANSWER_WAIT_MS : 0);
    void done.then(() => clearTimeout(timer));
    return done;
  }

  /** The server gave the challenge its id. */
  function came({ id }) {
    const waiting = state.online?.challenge;
    if (!waiting) return;
    waiting.id = id;
    announce('online');
  }

  /** The challenge ended without a game (`reason`): the local game comes back, and the player is told. */
  function ended({ reason }) {
    const waiting = state.online?.challenge;
    if (!waiting) return;
    const cancelled = waiting.cancelling;
    end();
    if (!cancelled) told(reason);
  }

  /** Ends the session of a challenge whose cancel was not answered. */
  function gone() {
    if (state.online?.challenge) end();
  }

  /** The session entered a room: a waiting challenge was accepted. */
  function paired() {
    if (!state.online?.challenge) return;
    state.online.challenge = null;
    settle(false);
  }

  /** Settles a cancel in progress (true: no game came). */
  function settle(endedWithoutGame) {
    settleCancel(endedWithoutGame);
    settleCancel = () => {};
  }

  return { challenge, accept, decline, cancel, came, ended, paired, settle };
}
