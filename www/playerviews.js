// @ts-check
// The views of the page beside the game (views.js's router): the players'
// profiles, the leaderboards and the Play view (playview.js), with what
// they need of the rest of the page: a game of the archive opened in the
// Moves tab's review, and the sentence for a server that cannot answer. main.js makes it once; more
// views are added to what it returns (`views.route(prefix, render)`).

import { t } from './i18n.js';
import { createViews } from './views.js';
import { renderProfile } from './profile.js';
import { renderLeaderboard } from './leaderboard.js';
import { initPlay } from './playview.js';
import { initWatch } from './watchview.js';
import { createFollow } from './follow.js';

/** What a view says when the API cannot answer: `problem` as getApi (api.js) names it. */
export function problemText(problem) {
  if (problem === 'unavailable') return t('views.needsServer');
  if (problem === 'offline') return t('views.offline');
  return t('views.failed');
}

/**
 * Makes the router over the game screen with the profile (`#/@/<name>`)
 * and leaderboard (`#/leaderboard/<perf>`) views, and follows the address.
 * `openRecord` is sharing.js's (it keeps the way back to the game that was
 * on the board); `tabs` the panel's; `focusMoves` puts the focus on the
 * move list; `online` the Online tab's Play now, shown in the Play view
 * (`#/play`), with the player's games in play (ongoing.js). Returns the
 * router, for more views.
 * @param {Controller} controller
 * @param {{
 *   openRecord: (text: string, options?: {badKey?: string, okKey?: string}) => Promise<boolean>,
 *   tabs: {show: (name: string) => void},
 *   focusMoves: () => void,
 *   online: {playNow: import('./playview.js').PlayNow, home: HTMLElement, ongoing: import('./ongoing.js').Ongoing},
 * }} options
 */
export function initPlayerViews(controller, { openRecord, tabs, focusMoves, online }) {
  const game = /** @type {HTMLElement[]} */ ([...document.querySelectorAll('.skip-link, .app, .foot')]);
  const views = createViews({ game });

  /**
   * Opens `record` (an archived game) on the board, reviewed, in the Moves
   * tab; the way back to the game it replaces is sharing.js's. Refused
   * (the reason's words returned) while an online game holds the board.
   */
  const openGame = (record) => {
    if (controller.onlineRoom().inSession) return t('views.onlineBusy');
    views.close().then(async () => {
      if (!(await openRecord(record, { badKey: 'share.badImport', okKey: 'views.opened' }))) return;
      tabs.show('moves');
      focusMoves();
      controller.reviewGame();
    });
    return null;
  };

  views.route('#/@/', (view) => renderProfile(view, { openGame, problemText }));
  views.route('#/leaderboard/', (view) => renderLeaderboard(view, { problemText }));
  initPlay(views, controller, { ...online, tabs });
  initWatch(views, controller, { tabs, follow: createFollow(controller, { tabs }), openGame });
  views.start();
  return views;
}
