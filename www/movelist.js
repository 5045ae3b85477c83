// @ts-check
// The move list of the Moves tab (#review-panel): every move of the line
// shown numbered by pair, the shown position marked, browsing by click, the
// arrow keys and the « ‹ › » buttons; under it the game's other lines
// (movetree.js). Once the game is reviewed, each move carries its mark
// (data-mark, a glyph such as "?!", and the mark in its label).

import { t, onLangChange } from './i18n.js';
import { el } from './dom.js';
import { initMoveTree } from './movetree.js';

/** The glyph after a move of each mark that gets one, as chess annotators write them. */
const GLYPHS = { inaccuracy: '?!', mistake: '?', blunder: '??' };

/**
 * Builds the list in `panel`, follows the game; returns `{ focus() }`.
 * Browsing speaks for itself through `announcer`, instead of each move it steps over.
 * @param {HTMLElement} panel
 * @param {Controller} controller
 * @param {import('./a11y.js').Announcer} announcer
 */
export function initMoveList(panel, controller, { announce, withoutMoveAnnouncements }) {
  const heading = el('h2', { id: 'review-heading', class: 'card-title' });
  panel.setAttribute('aria-labelledby', 'review-heading');
  const note = el('p', { class: 'review-note', 'data-testid': 'review-note' });
  const navButtons = {
    first: el('button', { type: 'button', class: 'btn', 'data-nav': 'first', text: '«' }),
    prev: el('button', { type: 'button', class: 'btn', 'data-nav': 'prev', text: '‹' }),
    next: el('button', { type: 'button', class: 'btn', 'data-nav': 'next', text: '›' }),
    last: el('button', { type: 'button', class: 'btn', 'data-nav': 'last', text: '»' }),
  };
  const nav = el('div', { class: 'review-nav', role: 'group' }, ...Object.values(navButtons));
  const list = el('ol', { class: 'move-list', 'data-testid': 'move-list' });
  const empty = el('p', { class: 'move-list-empty' });
  const lines = el('section', { class: 'move-tree-host', 'data-testid': 'move-lines' });
  panel.replaceChildren(heading, note, nav, list, empty, lines);
  initMoveTree(lines, controller);

  let state = controller.getState();
  let review = controller.getReview();
  // The record and language the list was built for: rebuilt when either changes.
  let builtFor = null;
  // The review, its progress and the list it marked: marked again when any changes.
  let markedFor = null;

  const plyButtons = () => [.../** @type {NodeListOf<HTMLButtonElement>} */ (list.querySelectorAll('button[data-ply]'))];
  const focusTarget = () =>
    /** @type {HTMLButtonElement | null} */ (
      list.querySelector(`button[data-ply="${Math.max(1, state.cursor)}"]`) || list.querySelector('button')
    );

  const build = () => {
    const moves = state.moves || [];
    const items = [];
    for (let i = 0; i < moves.length; i += 2) {
      const pair = i / 2 + 1;
      const li = el('li', { class: 'move-pair' }, el('span', { class: 'move-number', 'aria-hidden': 'true', text: `${pair}.` }));
      for (const j of [i, i + 1]) {
        if (j >= moves.length) break;
        const player = j % 2 === 0 ? 'X' : 'O';
        li.append(
          el('button', {
            type: 'button',
            class: `move move-${player.toLowerCase()}`,
            'data-ply': String(j + 1),
            'aria-label': t('review.moveLabel', { n: pair, player, move: moves[j] }),
            text: moves[j],
          }),
        );
      }
      items.push(li);
    }
    list.replaceChildren(...items);
    builtFor = `${state.record}|${t('review.moveLabel')}`;
    markedFor = null;
  };

  const markMoves = () => {
    const key = review && `${review.record}|${review.moves.length}|${builtFor}`;
    if (key === markedFor) return;
    markedFor = key;
    const moves = state.moves || [];
    const fits = review && review.record === state.record;
    for (const b of plyButtons()) {
      const ply = Number(b.dataset.ply);
      const mark = fits ? review.moves[ply - 1]?.mark : undefined;
      const player = ply % 2 === 1 ? 'X' : 'O';
      const label = t('review.moveLabel', { n: Math.ceil(ply / 2), player, move: moves[ply - 1] });
      b.replaceChildren(moves[ply - 1] ?? '');
      if (mark) {
        b.dataset.mark = mark;
        if (GLYPHS[mark]) b.append(el('span', { class: 'move-glyph', 'aria-hidden': 'true', text: GLYPHS[mark] }));
        b.setAttribute('aria-label', `${label}, ${t(`mark.${mark}`)}`);
      } else {
        delete b.dataset.mark;
        b.setAttribute('aria-label', label);
      }
    }
  };

  // The list scrolls inside its own box; the page itself never moves.
  // Only the list's scrollTop is set, and only when the move is out of view.
  const keepInView = (target) => {
    if (list.hidden || list.clientHeight === 0) return;
    const top = target.offsetTop - list.offsetTop;
    const bottom = top + target.offsetHeight;
    if (top < list.scrollTop) list.scrollTop = top;
    else if (bottom > list.scrollTop + list.clientHeight) list.scrollTop = bottom - list.clientHeight;
  };

  const markCursor = () => {
    const hadFocus = list.contains(document.activeElement);
    for (const b of plyButtons()) {
      const ply = Number(b.dataset.ply);
      b.tabIndex = -1;
      if (ply === state.cursor) b.setAttribute('aria-current', 'step');
      else b.removeAttribute('aria-current');
      b.classList.toggle('after-cursor', ply > state.cursor);
    }
    const target = focusTarget();
    if (target) {
      target.tabIndex = 0;
      if (hadFocus) target.focus({ preventScroll: true });
      keepInView(target);
    }
  };

  const render = () => {
    const length = state.length || 0;
    const cursor = state.cursor || 0;
    if (builtFor !== `${state.record}|${t('review.moveLabel')}`) build();
    markMoves();
    markCursor();
    empty.hidden = length > 0;
    list.hidden = length === 0;
    navButtons.first.disabled = navButtons.prev.disabled = cursor === 0;
    navButtons.next.disabled = navButtons.last.disabled = cursor >= length;
    if (cursor < length) {
      note.textContent = cursor === 0 ? t('review.atStart') : t('review.browsing', { ply: cursor, length });
      note.hidden = false;
    } else {
      note.hidden = true;
    }
    panel.classList.toggle('browsing', cursor < length);
  };

  const translate = () => {
    heading.textContent = t('review.title');
    list.setAttribute('aria-label', t('review.listLabel'));
    nav.setAttribute('aria-label', t('review.navLabel'));
    for (const [k, key] of Object.entries({ first: 'btn.first', prev: 'btn.prev', next: 'btn.next', last: 'btn.last' })) {
      navButtons[k].setAttribute('aria-label', t(key));
      navButtons[k].title = t(key);
    }
    empty.textContent = t('review.empty');
    render();
  };

  // ---- browsing ----
  const go = async (ply) => {
    const target = Math.max(0, Math.min(ply, state.length || 0));
    if (target === state.cursor) return;
    await withoutMoveAnnouncements(() => controller.jump(target));
    announce(target === 0 ? t('announce.start') : t('announce.position', { ply: target, length: state.length }));
  };
  navButtons.first.addEventListener('click', () => go(0));
  navButtons.prev.addEventListener('click', () => go(state.cursor - 1));
  navButtons.next.addEventListener('click', () => go(state.cursor + 1));
  navButtons.last.addEventListener('click', () => go(state.length));
  list.addEventListener('click', (event) => {
    const b = /** @type {HTMLButtonElement | null} */ (/** @type {Element} */ (event.target).closest('button[data-ply]'));
    if (!b) return;
    // Clicking the move at the cursor again shows the position before it, so every position is reachable.
    go(Number(b.dataset.ply));
  });
  list.addEventListener('keydown', (event) => {
    const keys = {
      ArrowLeft: () => state.cursor - 1,
      ArrowUp: () => state.cursor - 1,
      ArrowRight: () => state.cursor + 1,
      ArrowDown: () => state.cursor + 1,
      Home: () => 0,
      End: () => state.length,
    };
    const to = keys[event.key];
    if (!to) return;
    event.preventDefault();
    go(to());
  });

  controller.subscribe((change) => {
    if (change.cause === 'review') review = change.review;
    else if ('game' in change) state = change.game;
    else return;
    render();
  });
  onLangChange(translate);
  translate();
  return { focus: () => focusTarget()?.focus({ preventScroll: true }) };
}
