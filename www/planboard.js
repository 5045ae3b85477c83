// @ts-check
// A small analysis board for conditional moves (conditionalpanel.js): it
// starts from the online game's position, and the player plays on it the
// opponent's move, their answer, the opponent's next ... as the core
// allows (its legal cells are the only ones that take a tap); Undo takes
// the last move back, Start again goes back to the game's position, and
// the line played so far is what the part keeps. It never touches the
// game itself.
//
// Hooks: `[data-plan-board]`, its cells `button[data-plan-board-cell]`
// ("board-cell", 0-8 each, as the main board's data-board/data-cell),
// `[data-action="plan-undo"]`, `[data-action="plan-reset"]`.

import { t } from './i18n.js';
import { el } from './dom.js';
import { WebGame } from './wasm.js';

const MARKS = ['', 'X', 'O'];

/**
 * The board; `reset(record)` starts it again from the game's `record`,
 * `line()` is what was played on it since, and `onChange` hears each move.
 * @param {(line: import('./protocol').Point[]) => void} onChange
 */
export function createPlanBoard(onChange) {
  const grid = el('div', { class: 'plan-board', role: 'group', 'data-plan-board': '' });
  const undo = el('button', { type: 'button', class: 'btn small', 'data-action': 'plan-undo' });
  const reset = el('button', { type: 'button', class: 'btn small', 'data-action': 'plan-reset' });
  const node = el('div', { class: 'plan' }, grid, el('p', { class: 'online-actions' }, undo, reset));
  /** @type {WebGame | null} */
  let game = null;
  let record = '';
  /** @type {import('./protocol').Point[]} */
  let line = [];

  const draw = () => {
    grid.setAttribute('aria-label', t('conditional.board'));
    undo.textContent = t('conditional.undo');
    reset.textContent = t('conditional.reset');
    undo.disabled = line.length === 0;
    reset.disabled = line.length === 0;
    if (!game) return;
    const view = game.view();
    const classic = view.kind === 'classic';
    grid.dataset.kind = view.kind;
    const boards = classic ? [0] : [0, 1, 2, 3, 4, 5, 6, 7, 8];
    grid.replaceChildren(
      ...boards.map((board) =>
        el(
          'div',
          { class: 'plan-small', 'data-status': String(view.boardStatus[board] ?? 0) },
          ...[0, 1, 2, 3, 4, 5, 6, 7, 8].map((cell) => {
            const at = classic ? cell : board * 9 + cell;
            const legal = view.legal[at] === 1;
            const mark = MARKS[view.cells[at]];
            const button = el('button', {
              type: 'button',
              class: 'plan-cell',
              'data-plan-board-cell': `${board}-${cell}`,
              text: mark,
              'aria-label': t('conditional.cell', { cell: pointName(view.kind, { board, cell }), mark: mark || t('cell.empty') }),
            });
            if (mark) button.dataset.mark = mark.toLowerCase();
            if (view.lastBoard === board && view.lastCell === cell && line.length > 0) button.dataset.last = 'true';
            button.disabled = !legal || line.length >= 12;
            button.addEventListener('click', () => play(board, cell));
            return button;
          }),
        ),
      ),
    );
  };

  const play = (board, cell) => {
    if (!game) return;
    game.play(board, cell);
    line = [...line, { board, cell }];
    draw();
    onChange(line);
  };

  undo.addEventListener('click', () => {
    if (!game || line.length === 0) return;
    game.undo();
    game.truncate();
    line = line.slice(0, -1);
    draw();
    onChange(line);
  });
  reset.addEventListener('click', () => {
    start(record);
    onChange(line);
  });

  /** Starts again from the game's `next` record. */
  const start = (next) => {
    game?.free();
    record = next;
    game = WebGame.fromText(record);
    line = [];
    draw();
  };

  return {
    node,
    /** Starts again from `next`, unless the board is already at that position with nothing played. */
    reset(next) {
      if (next !== record || line.length > 0) start(next);
    },
    line: () => line,
    draw,
  };
}

/**
 * The name of `point` in the board's coordinates (Ultimate: a1 to i9,
 * columns left to right, rows top to bottom; Classic: a1 to c3).
 * @param {'ultimate' | 'classic'} kind
 * @param {import('./protocol').Point} point
 */
export function pointName(kind, { board, cell }) {
  const [col, row] =
    kind === 'classic' ? [cell % 3, Math.floor(cell / 3)] : [(board % 3) * 3 + (cell % 3), Math.floor(board / 3) * 3 + Math.floor(cell / 3)];
  return `${String.fromCharCode(97 + col)}${row + 1}`;
}
