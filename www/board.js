// @ts-check
// The board: builds the DOM grid for a game type once, then updates
// attributes from a view. It draws only what the core reports.

import { t, regionName } from './i18n.js';

const MARK = ['', 'x', 'o'];
const STATUS = ['', 'x', 'o', 'draw'];

function el(tag, className, attrs = {}) {
  const node = document.createElement(tag);
  if (className) node.className = className;
  for (const [k, v] of Object.entries(attrs)) node.setAttribute(k, v);
  return node;
}

/**
 * A board view bound to `root`. `onCell(board, cell)` is called for every
 * click or tap on a cell, legal or not: the controller decides and explains.
 */
export class BoardView {
  constructor(root, onCell) {
    this.root = root;
    this.kind = null;
    this.boards = [];
    this.cells = [];
    this.marks = [];
    root.addEventListener('click', (event) => {
      const button = event.target.closest('button[data-cell]');
      if (!button || !root.contains(button)) return;
      onCell(Number(button.dataset.board), Number(button.dataset.cell));
    });
  }

  /** Rebuilds the grid for `kind` ("ultimate" | "classic") if needed. */
  build(kind) {
    if (this.kind === kind) return;
    this.kind = kind;
    this.drawCoordinates(kind);
    this.root.replaceChildren();
    this.root.dataset.kind = kind;
    this.boards = [];
    this.cells = [];
    this.marks = [];
    const boardCount = kind === 'ultimate' ? 9 : 1;
    for (let b = 0; b < boardCount; b += 1) {
      const small = el('div', 'small', { 'data-board': String(b), role: 'group' });
      for (let c = 0; c < 9; c += 1) {
        const cell = el('button', 'cell', {
          type: 'button',
          'data-board': String(b),
          'data-cell': String(c),
        });
        small.append(cell);
        this.cells.push(cell);
      }
      const mark = el('div', 'big-mark', { 'aria-hidden': 'true' });
      small.append(mark);
      this.marks.push(mark);
      this.boards.push(small);
      this.root.append(small);
    }
  }

  /**
   * The coordinates on the board's edges, as the notation writes moves:
   * columns a-i (a-c) left to right above, rows 1-9 (1-3) top to bottom on
   * the left. Grouped by small board so they line up with its cells.
   */
  drawCoordinates(kind) {
    const frame = this.root.closest('.board-frame');
    if (!frame) return;
    frame.dataset.kind = kind;
    const groups = kind === 'ultimate' ? 3 : 1;
    const fill = (host, label) => {
      if (!host) return;
      host.replaceChildren();
      for (let g = 0; g < groups; g += 1) {
        const group = el('div', 'coords-group');
        for (let i = 0; i < 3; i += 1) {
          const span = el('span', 'coord');
          span.textContent = label(g * 3 + i);
          group.append(span);
        }
        host.append(group);
      }
    };
    fill(frame.querySelector('.coords-cols'), (i) => String.fromCharCode(97 + i));
    fill(frame.querySelector('.coords-rows'), (i) => String(i + 1));
  }

  /**
   * Draws `view`. `interactive` is false while the user may not play (the AI
   * is thinking, or it is the AI's turn); cells then show no hover hint.
   */
  render(view, { interactive }) {
    this.build(view.kind);
    const ultimate = view.kind === 'ultimate';
    const over = view.outcome !== null;
    this.root.dataset.turn = view.sideToMove;
    this.root.dataset.over = String(over);
    this.root.dataset.free = String(view.requiredBoard === null);
    this.root.dataset.interactive = String(interactive && !over);
    if (over) this.root.dataset.result = view.outcome;
    else delete this.root.dataset.result;

    this.boards.forEach((small, b) => {
      const status = STATUS[view.boardStatus[b]];
      const name = regionName(b);
      small.dataset.playable = String(view.playable[b] === 1);
      if (status) small.dataset.winner = status;
      else delete small.dataset.winner;
      const inWinningThree = view.winningBoards.includes(b);
      small.toggleAttribute('data-line', inWinningThree);
      if (ultimate) {
        let label = t('board.small', { board: name });
        if (status === 'draw') label = t('board.smallDrawn', { board: name });
        else if (status) label = t('board.smallWon', { board: name, player: status.toUpperCase() });
        small.setAttribute('aria-label', label);
      } else {
        small.setAttribute('aria-label', t('board.label'));
      }
      // Classic shows its result through the line alone, not a board-sized mark.
      const big = ultimate ? status : '';
      if (big) this.marks[b].dataset.mark = big;
      else delete this.marks[b].dataset.mark;
    });

    this.cells.forEach((cell, i) => {
      const b = Math.floor(i / 9);
      const c = i % 9;
      const mark = MARK[view.cells[i]];
      if (mark) cell.dataset.mark = mark;
      else delete cell.dataset.mark;
      const legal = view.legal[i] === 1;
      cell.dataset.legal = String(legal);
      cell.toggleAttribute('data-last', view.lastBoard === b && view.lastCell === c);
      const winning = view.winningCells.slice(b * 3, b * 3 + 3);
      cell.toggleAttribute('data-line', winning.includes(c));
      const content = t(mark ? `cell.${mark}` : 'cell.empty');
      const playableNow = legal && interactive;
      const key = (ultimate ? 'cell.label' : 'cell.labelClassic') + (playableNow ? 'Playable' : '');
      cell.setAttribute('aria-label', t(key, { board: regionName(b), cell: regionName(c), content }));
    });
  }

  /** Briefly shakes the cell that was refused (skipped under reduced motion by CSS). */
  refuse(board, cell) {
    const node = this.cells[this.kind === 'ultimate' ? board * 9 + cell : cell];
    if (!node) return;
    node.classList.remove('refused');
    // Reading offsetWidth restarts the CSS animation on a repeated refusal.
    void node.offsetWidth;
    node.classList.add('refused');
  }
}
