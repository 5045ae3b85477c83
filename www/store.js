// @ts-check
// The page's one channel of change. Whoever owns a piece of the game's
// state changes it, then commits a change: a cause ('move', 'jump',
// 'analysis'...) and what a pane needs to know about it (the move played,
// the report that came). Every pane subscribes once and draws from the
// change alone: none compares snapshots to guess what happened.
//
// A change committed while subscribers are still hearing the one before
// (a pane's answer that changes the game again) waits its turn, so every
// subscriber hears every change, once, in the order they were committed.

/**
 * @template C
 * @typedef {object} Store
 * @property {(change: C) => void} commit Tells every subscriber of `change`, in order.
 * @property {(listener: (change: C) => void) => () => void} subscribe
 *   Adds a listener for every later change; returns what removes it.
 */

/**
 * A store of changes of type `C` (each one object with a `cause`).
 * @template {{cause: string}} C
 * @returns {Store<C>}
 */
export function createStore() {
  /** @type {((change: C) => void)[]} */
  const listeners = [];
  /** @type {C[]} */
  const queue = [];
  let telling = false;

  /** Tells each listener of the queued changes, oldest first; a listener that throws does not silence the others. */
  const drain = () => {
    telling = true;
    try {
      while (queue.length > 0) {
        const change = /** @type {C} */ (queue.shift());
        for (const listener of listeners.slice()) {
          try {
            listener(change);
          } catch (error) {
            // One broken pane must not leave the others behind: the error
            // still reaches the console (and the tests' fixture) at once.
            reportError(error);
          }
        }
      }
    } finally {
      telling = false;
    }
  };

  return {
    commit(change) {
      queue.push(change);
      if (!telling) drain();
    },
    subscribe(listener) {
      listeners.push(listener);
      return () => {
        const at = listeners.indexOf(listener);
        if (at >= 0) listeners.splice(at, 1);
      };
    },
  };
}

/** Reports `error` as an uncaught one would be, without stopping the caller. */
function reportError(error) {
  if (typeof globalThis.reportError === 'function') globalThis.reportError(error);
  else setTimeout(() => {
    throw error;
  });
}
