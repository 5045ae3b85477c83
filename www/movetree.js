// @ts-check
// The game's lines, under the move list, once it has moves off the line
// shown: every line in its record's order with the side lines in brackets,
// as printed ("1. e5 e4 (1… f5 2. g5) 2. d2"), each move a button that
// shows its line at that move (a move of the line shown stays on that
// line); and, when the line shown is a side line, making it the main line
// or deleting it (the innermost side line it is in). The tree and every edit are core's (through the
// controller's getLines, jumpToNode, promoteLine and deleteLine).

import { t, onLangChange } from './i18n.js';
import { el } from './dom.js';
import { moveNumber } from './reviews.js';

/**
 * Builds the section in `host` and follows the game.
 * @param {Controller} controller
 */
export function initMoveTree(host, controller) {
  const title = el('h3', { class: 'move-tree-title' });
  const tree = el('p', { class: 'move-tree', 'data-testid': 'move-tree' });
  const promote = el('button', { type: 'button', class: 'btn', 'data-testid': 'line-promote' });
  const remove = el('button', { type: 'button', class: 'btn', 'data-testid': 'line-delete' });
  const actions = el('div', { class: 'move-tree-actions' }, promote, remove);
  host.replaceChildren(title, tree, actions);

  let state = controller.getState();
  let items = [];
  // The lines and language the tree was built for: rebuilt when any changes.
  let builtFor = null;

  const build = () => {
    items = controller.getLines();
    const nodes = [];
    // A number before every X move, and before an O move that starts a
    // line or follows one, as in print.
    let numbered = false;
    // A space between entries, but none inside a bracket's edge.
    let spaced = false;
    for (const item of items) {
      if (item.kind !== 'move') {
        const open = item.kind === 'open';
        nodes.push(open && spaced ? ' (' : open ? '(' : ')');
        spaced = !open;
        numbered = false;
        continue;
      }
      if (spaced) nodes.push(' ');
      spaced = true;
      const xMoves = item.ply % 2 === 1;
      const number = xMoves || !numbered ? `${moveNumber(item.ply)} ` : '';
      numbered = true;
      const player = xMoves ? 'X' : 'O';
      nodes.push(
        el('button', {
          type: 'button',
          class: `line-move move-${player.toLowerCase()}`,
          'data-node': String(item.id),
          'data-line-ply': String(item.ply),
          'data-main': String(item.main),
          'data-shown': String(item.shown),
          'aria-label': t('review.moveLabel', { n: Math.ceil(item.ply / 2), player, move: item.notation }),
          text: `${number}${item.notation}`,
        }),
      );
    }
    tree.replaceChildren(...nodes);
    builtFor = `${state.tree}|${state.record}|${t('review.moveLabel')}`;
  };

  /**
   * Where the shown line last branched off (the move that starts the
   * innermost side line it is in) and its last move; none on the main line.
   */
  const sideLine = () => {
    const shown = items.filter((i) => i.kind === 'move' && i.shown);
    const leaves = shown.findLast((i) => i.branch);
    return leaves ? { leaves: leaves.id, end: shown.at(-1).id } : null;
  };

  const render = () => {
    host.hidden = !state.sideLines;
    if (host.hidden) return;
    if (builtFor !== `${state.tree}|${state.record}|${t('review.moveLabel')}`) build();
    for (const b of /** @type {NodeListOf<HTMLButtonElement>} */ (tree.querySelectorAll('button[data-node]'))) {
      if (Number(b.dataset.node) === state.node) b.setAttribute('aria-current', 'step');
      else b.removeAttribute('aria-current');
    }
    actions.hidden = !sideLine();
  };

  tree.addEventListener('click', (event) => {
    const b = /** @type {HTMLButtonElement | null} */ (/** @type {Element} */ (event.target).closest('button[data-node]'));
    if (!b) return;
    if (b.dataset.shown === 'true') controller.jump(Number(b.dataset.linePly));
    else controller.jumpToNode(Number(b.dataset.node));
  });
  promote.addEventListener('click', () => {
    const line = sideLine();
    if (line) controller.promoteLine(line.end);
  });
  remove.addEventListener('click', () => {
    const line = sideLine();
    if (line) controller.deleteLine(line.leaves);
  });
  controller.subscribe((change) => {
    if (!('game' in change)) return;
    state = change.game;
    render();
  });
  const translate = () => {
    title.textContent = t('lines.title');
    tree.setAttribute('aria-label', t('lines.label'));
    promote.textContent = t('lines.promote');
    remove.textContent = t('lines.delete');
    builtFor = null;
    render();
  };
  onLangChange(translate);
  translate();
}
