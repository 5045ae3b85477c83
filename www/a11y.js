// @ts-check
// Keyboard and screen-reader support for the board, on top of web's board.js:
// - the board is one tab stop (roving tabindex); arrow keys move across the
//   whole 9x9 grid, crossing small boards; Home/End go to the row's ends,
//   Ctrl+Home/End to the corners; Enter or Space plays (native buttons);
// - the skip link lands on that one cell;
// - after each move, when the board had the focus and it is a person's turn,
//   the focus moves into the board that must be played (its centre when
//   legal), so a move takes at most two arrows and Enter there;
// - one polite live region announces each move, the AI's reply and each
//   small board won, once (the status line, web's, announces the result).

import { t, regionName } from './i18n.js';

/**
 * @typedef {object} Announcer
 * @property {(text: string) => void} announce Says `text` once through the live region.
 * @property {<T>(fn: () => T | Promise<T>) => Promise<T>} withoutMoveAnnouncements
 *   Runs `fn` without move announcements: for browsing, which speaks for itself.
 * @property {() => boolean} quiet True while some `withoutMoveAnnouncements` runs.
 */

/**
 * Makes the page's one polite live region (in the page from the start, so a
 * screen reader follows it before its first sentence) and what speaks through it.
 * @returns {Announcer}
 */
export function createAnnouncer(host = document.body) {
  const region = document.createElement('div');
  region.id = 'announcer';
  region.className = 'visually-hidden';
  region.setAttribute('aria-live', 'polite');
  region.setAttribute('aria-atomic', 'true');
  region.dataset.testid = 'announcer';
  host.append(region);
  let timer = 0;
  let browsing = 0;
  return {
    announce(text) {
      clearTimeout(timer);
      // Cleared first, then filled: the same sentence twice is spoken twice.
      region.textContent = '';
      timer = setTimeout(() => {
        region.textContent = text;
      }, 60);
    },
    async withoutMoveAnnouncements(fn) {
      browsing += 1;
      try {
        return await fn();
      } finally {
        browsing -= 1;
      }
    },
    quiet: () => browsing > 0,
  };
}

/** Row and column (0-8, or 0-2 for Classic) of a cell button. */
function rowCol(button, ultimate) {
  const b = Number(button.dataset.board);
  const c = Number(button.dataset.cell);
  if (!ultimate) return [Math.floor(c / 3), c % 3];
  return [Math.floor(b / 3) * 3 + Math.floor(c / 3), (b % 3) * 3 + (c % 3)];
}

/**
 * The cell a keyboard player should start from: the centre of the board
 * that must be played if it is legal, else the legal cell nearest to it;
 * on a free move, the cell that has the focus if it is legal. Null when no
 * cell is legal (the game is over).
 */
export function startCell(board) {
  const legal = [...board.querySelectorAll('button[data-cell][data-legal="true"]')];
  if (legal.length === 0) return null;
  const focused = document.activeElement;
  if (legal.includes(focused) && board.dataset.free === 'true') return focused;
  const ultimate = board.dataset.kind !== 'classic';
  const boards = new Set(legal.map((c) => c.dataset.board));
  const anchorBoard = boards.size === 1 ? Number([...boards][0]) : 4;
  const [ar, ac] = ultimate ? [Math.floor(anchorBoard / 3) * 3 + 1, (anchorBoard % 3) * 3 + 1] : [1, 1];
  let best = legal[0];
  let bestDistance = Infinity;
  for (const cell of legal) {
    const [r, c] = rowCol(cell, ultimate);
    const d = Math.abs(r - ar) + Math.abs(c - ac);
    if (d < bestDistance) {
      best = cell;
      bestDistance = d;
    }
  }
  return best;
}

/** Moves the focus to `startCell` of the board (the B key). */
export function focusRequiredBoard(board) {
  const target = startCell(board);
  if (target) target.focus();
}

function cellAt(board, row, col, ultimate) {
  const b = ultimate ? Math.floor(row / 3) * 3 + Math.floor(col / 3) : 0;
  const c = ultimate ? (row % 3) * 3 + (col % 3) : row * 3 + col;
  return board.querySelector(`button[data-board="${b}"][data-cell="${c}"]`);
}

/**
 * Makes `board` (web's #board) a single tab stop with arrow-key movement and
 * wires the skip link, and tells a screen reader each move the board goes
 * over (played, or stepped over again along its line) unless browsing
 * speaks for itself (withoutMoveAnnouncements). Call `refresh()` after a
 * render of the board outside the controller's changes.
 * @param {Controller} controller
 * @param {Announcer} announcer
 */
export function initBoardKeys(board, controller, announcer, skipLink = document.querySelector('.skip-link')) {
  if (!board) return null;
  let active = null; // [board, cell] of the cell holding tabindex=0

  const find = ([b, c]) => board.querySelector(`button[data-board="${b}"][data-cell="${c}"]`);
  const firstChoice = () =>
    board.querySelector('button[data-cell][data-legal="true"]') ||
    board.querySelector('button[data-board="4"][data-cell="4"]') ||
    board.querySelector('button[data-cell]');

  const refresh = () => {
    let target = active && find(active);
    if (!target) {
      target = firstChoice();
      if (!target) return;
      active = [target.dataset.board, target.dataset.cell];
    }
    for (const cell of board.querySelectorAll('button[data-cell]')) {
      cell.tabIndex = cell === target ? 0 : -1;
    }
  };

  const moveTo = (target) => {
    if (!target) return;
    active = [target.dataset.board, target.dataset.cell];
    refresh();
    target.focus();
  };

  board.addEventListener('focusin', (event) => {
    const cell = event.target.closest('button[data-cell]');
    if (cell && (!active || find(active) !== cell)) {
      active = [cell.dataset.board, cell.dataset.cell];
      refresh();
    }
  });

  board.addEventListener('keydown', (event) => {
    const cell = event.target.closest('button[data-cell]');
    if (!cell || event.altKey || event.metaKey) return;
    const ultimate = board.dataset.kind !== 'classic';
    const last = ultimate ? 8 : 2;
    const [row, col] = rowCol(cell, ultimate);
    const ctrl = event.ctrlKey;
    const to = {
      ArrowUp: [Math.max(0, row - 1), col],
      ArrowDown: [Math.min(last, row + 1), col],
      ArrowLeft: [row, Math.max(0, col - 1)],
      ArrowRight: [row, Math.min(last, col + 1)],
      Home: ctrl ? [0, 0] : [row, 0],
      End: ctrl ? [last, last] : [row, last],
    }[event.key];
    if (!to || (ctrl && !['Home', 'End'].includes(event.key))) return;
    event.preventDefault();
    moveTo(cellAt(board, to[0], to[1], ultimate));
  });

  if (skipLink) {
    skipLink.addEventListener('click', (event) => {
      const target = (active && find(active)) || firstChoice();
      if (!target) return;
      event.preventDefault();
      moveTo(target);
    });
  }

  // ---- announcements ----
  controller.subscribe((change) => {
    if (!('game' in change)) return;
    const hadFocus = board.contains(document.activeElement);
    refresh();
    const { step, game } = change;
    if (!step) return;
    if (hadFocus && board.dataset.interactive === 'true') {
      const target = startCell(board);
      if (target && target !== document.activeElement) moveTo(target);
    }
    if (announcer.quiet()) return;
    const ultimate = game.kind === 'ultimate';
    const mover = step.side.toUpperCase();
    const byAi = game.mode === 'watch' || (game.mode === 'ai' && step.side !== game.humanSide);
    const params = {
      player: mover,
      move: step.notation,
      board: regionName(step.board),
      cell: regionName(step.cell),
    };
    const parts = [t(`announce.${byAi ? 'aiMove' : 'move'}${ultimate ? '' : 'Classic'}`, params)];
    if (ultimate && step.decided) {
      parts.push(
        step.decided === 'draw'
          ? t('announce.boardDrawn', { board: regionName(step.board) })
          : t('announce.boardWon', { player: step.decided.toUpperCase(), board: regionName(step.board) }),
      );
    }
    announcer.announce(parts.join(' '));
  });

  refresh();
  return { refresh };
}
