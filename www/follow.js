// @ts-check
// Following the top game (the Watch view's "Follow the top game"): the page
// watches the best rated live game in play (the first of GET /api/watch
// that is not played by days nor the person's own) and, a few seconds
// after it ends, the next best; it stops when the person leaves
// the room or enters another. While it follows, the page root carries
// `data-following` (the room followed).

import { getApi } from './api.js';

/** How long an ended game stays on the board before the next one. */
const NEXT_AFTER_MS = 5000;

/**
 * @typedef {{ start: () => void, stop: () => void }} Follow
 */

/**
 * @param {Controller} controller
 * @param {{ tabs: { show: (name: string) => void } }} parts
 * @returns {Follow}
 */
export function createFollow(controller, { tabs }) {
  /** The room followed; '' while the first is being found; null when not following. */
  let following = /** @type {string | null} */ (null);
  let timer = 0;
  const root = document.documentElement;

  const mark = () => {
    if (following) root.dataset.following = following;
    else delete root.dataset.following;
  };

  function stop() {
    following = null;
    window.clearTimeout(timer);
    timer = 0;
    mark();
  }

  /**
   * Watches the best rated live game in play but `except`: not one played
   * by days (a move a day is no game to follow), nor the person's own.
   * Stops when there is none.
   */
  async function next(except) {
    const answer = await getApi('watch');
    if (following === null) return;
    const me = controller.account.me()?.name;
    const followable = (g) => g.room !== except && !g.days && g.x?.name !== me && g.o?.name !== me;
    const game = answer.ok && Array.isArray(answer.data.live) ? answer.data.live.find(followable) : null;
    if (!game) {
      stop();
      return;
    }
    following = game.room;
    mark();
    tabs.show('online');
    controller.onlineJoin(game.room);
  }

  controller.subscribe((change) => {
    if (!('game' in change) || !following) return;
    const { code, roomState, inSession } = controller.onlineRoom();
    // Left, or gone elsewhere: following is over.
    if (!inSession || (code && code !== following)) {
      stop();
      return;
    }
    if (code === following && roomState?.result && !timer) {
      timer = window.setTimeout(() => {
        timer = 0;
        void next(following);
      }, NEXT_AFTER_MS);
    }
  });

  return {
    start() {
      stop();
      following = '';
      void next(null);
    },
    stop,
  };
}
