// @ts-check
// The view router: a hash route (`#/@/name`, `#/leaderboard/ultimate-blitz`)
// shows a view over the game screen, in one layer; no route shows the game.
// The game screen stays underneath, untouched and inert while a view is up,
// so an AI game or an online game goes on (and its clocks run) and is there,
// as it was, on the way back: the layer's Back button, Escape, or the
// browser's Back.
//
// Adding a view is one line where main.js makes the router:
//
//   views.route('#/leaderboard/', (view) => renderLeaderboard(view));
//
// `render(view)` fills `view.root` (a fresh element for each visit; set its
// `data-view`), names the view with `view.setTitle(text)`, reads `view.rest`
// (the hash after the prefix, decoded) and stops its work once
// `view.signal` aborts (another route, the way back, or a change of
// language, after which it is made again).
//
// Hashes not beginning with `#/` are not routes (a shared record's
// `#ultimate-standard:e5` is sharing.js's); an unknown `#/...` goes back to
// the game. A view's entry in the browser's history knows how many views
// lead to it (`viewDepth` in its history state) and whether the game's
// entry is behind them (`gameBehind`), so the Back button returns to the
// game itself, not to the previous view; when the page was opened on a
// view (a shared link) no game is behind, and Back drops the hash.

import { t, onLangChange } from './i18n.js';
import { el } from './dom.js';

/**
 * @typedef {{
 *   root: HTMLElement,
 *   rest: string,
 *   signal: AbortSignal,
 *   setTitle: (text: string) => void,
 *   close: () => Promise<void>,
 * }} View
 * @typedef {(view: View) => void} ViewRender
 */

/** Whether `hash` is one of the router's (a `#/...` path), not a record or nothing. */
export function isRoute(hash) {
  return String(hash ?? '').startsWith('#/');
}

/**
 * The route of `hash` among `prefixes`: the longest prefix it starts with
 * and the rest after it, decoded; null when none matches.
 * @param {string} hash
 * @param {string[]} prefixes
 */
export function matchRoute(hash, prefixes) {
  const found = prefixes.filter((p) => hash.startsWith(p)).sort((a, b) => b.length - a.length)[0];
  if (found === undefined) return null;
  let rest = hash.slice(found.length);
  try {
    rest = decodeURIComponent(rest);
  } catch {
    // A stray '%': the view is asked for the text as it is.
  }
  return { prefix: found, rest };
}

/**
 * Makes the router: the layer (added to `document.body`), shown over the
 * element `game` (made inert while a view is up). Returns `{route, close,
 * open}`: `route(prefix, render)` adds a view; `close()` goes back to the
 * game; `open(hash)` goes to a view as a link would. Call `start()` once
 * every view is added: the page's own hash is read then.
 * @param {{game: HTMLElement[]}} options
 */
export function createViews({ game }) {
  /** @type {Map<string, ViewRender>} */
  const routes = new Map();
  const back = el('button', { type: 'button', class: 'btn view-back', 'data-action': 'close-view' });
  const title = el('h2', { class: 'view-title', id: 'view-title', tabindex: '-1' });
  const body = el('div', { class: 'view-body' });
  const layer = el(
    'section',
    { class: 'view-layer', 'aria-labelledby': 'view-title' },
    el('header', { class: 'view-head' }, back, title),
    body,
  );
  layer.hidden = true;
  document.body.append(layer);

  /** The visit shown: its abort controller and route; where the focus was before the first view. */
  let shown = /** @type {{controller: AbortController, prefix: string, rest: string} | null} */ (null);
  let focusBefore = /** @type {Element | null} */ (null);
  /** False until the page's first address is read: a view it opens on has no game entry behind it. */
  let arrived = false;
  /** Where the view shown stands in the history (see the top of this file). */
  let shownPlace = /** @type {{viewDepth: number, gameBehind: boolean} | null} */ (null);
  /** What waits for the layer to hide (see close). */
  const waiting = /** @type {Array<() => void>} */ ([]);

  /** The place in the history the current entry records, or null (a new entry). */
  const place = () => {
    const d = history.state?.viewDepth;
    return Number.isInteger(d) && d >= 1 ? { viewDepth: d, gameBehind: history.state.gameBehind === true } : null;
  };

  const withoutHash = () => location.pathname + location.search;

  /** Hides the layer and gives the game back its place and focus. */
  function hide() {
    shown?.controller.abort();
    shown = null;
    for (const resolve of waiting.splice(0)) resolve();
    if (layer.hidden) return;
    layer.hidden = true;
    body.replaceChildren();
    for (const part of game) part.inert = false;
    delete document.documentElement.dataset.viewOpen;
    const focus = focusBefore instanceof HTMLElement && focusBefore.isConnected ? focusBefore : null;
    focusBefore = null;
    focus?.focus({ preventScroll: true });
  }

  /** Shows the view of `prefix` for `rest`. */
  function show(prefix, rest) {
    shown?.controller.abort();
    if (layer.hidden) {
      focusBefore = document.activeElement;
      layer.hidden = false;
      for (const part of game) part.inert = true;
    }
    const controller = new AbortController();
    const root = el('div', { class: 'view' });
    body.replaceChildren(root);
    title.textContent = '';
    layer.scrollTop = 0;
    shown = { controller, prefix, rest };
    routes.get(prefix)({
      root,
      rest,
      signal: controller.signal,
      setTitle: (text) => {
        if (!controller.signal.aborted) title.textContent = text;
      },
      close,
    });
    document.documentElement.dataset.viewOpen = root.dataset.view ?? 'view';
    title.focus({ preventScroll: true });
  }

  /** Shows what the address says: a view for a route, the game for anything else. */
  function follow() {
    const { hash } = location;
    if (!isRoute(hash)) {
      hide();
      return;
    }
    const found = matchRoute(hash, [...routes.keys()]);
    if (!found) {
      // An unknown route (an old or mistyped link): the game, without it.
      history.replaceState(history.state, '', withoutHash());
      hide();
      return;
    }
    if (place() === null) {
      // A new entry: the first view after the game (none behind it when the
      // page opened on it), or one further than the view it came from.
      const next = layer.hidden || !shownPlace
        ? { viewDepth: 1, gameBehind: arrived }
        : { viewDepth: shownPlace.viewDepth + 1, gameBehind: shownPlace.gameBehind };
      history.replaceState({ ...history.state, ...next }, '');
    }
    shownPlace = place();
    show(found.prefix, found.rest);
  }

  /**
   * Back to the game: through the browser's history when the game's entry
   * is behind, else by dropping the hash. Resolves once the game is shown.
   * @returns {Promise<void>}
   */
  function close() {
    const hidden = new Promise((resolve) => waiting.push(() => resolve(undefined)));
    const here = place();
    if (here?.gameBehind && !layer.hidden) history.go(-here.viewDepth);
    else {
      if (isRoute(location.hash)) history.replaceState(null, '', withoutHash());
      hide();
    }
    return /** @type {Promise<void>} */ (hidden);
  }

  /** Goes to the view at `hash`, as a link to it would. */
  function open(hash) {
    location.hash = hash;
  }

  /**
   * Adds the view `render` for the hashes beginning with `prefix` (e.g.
   * `#/@/`); the longest prefix that matches wins.
   * @param {string} prefix
   * @param {ViewRender} render
   */
  function route(prefix, render) {
    routes.set(prefix, render);
  }

  /** Reads the page's address and follows it from now on. */
  function start() {
    window.addEventListener('hashchange', follow);
    follow();
    arrived = true;
  }

  back.addEventListener('click', close);
  document.addEventListener('keydown', (event) => {
    if (event.key !== 'Escape' || event.defaultPrevented || layer.hidden) return;
    if (document.querySelector('dialog[open]')) return;
    event.preventDefault();
    close();
  });
  const translate = () => {
    back.textContent = t('views.back');
    back.setAttribute('aria-label', t('views.backLabel'));
    back.title = t('views.backLabel');
    if (shown) show(shown.prefix, shown.rest);
  };
  onLangChange(translate);
  translate();
  return { route, close, open, start };
}
