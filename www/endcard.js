// @ts-check
// The end of a game, and the cue after each move:
// - when a move ends the game (a change that `ended` it), a card says the result in
//   words for the person, names the winning line (the board shows it
//   through `[data-line]`), and offers Rematch, Review, Share and Close
//   (and to an online game's player New opponent: out of the room, Play now). It
//   never covers the board: it takes the place of the top bar and the turn
//   (which only repeat the result then), above the board in portrait and in
//   the column beside it in landscape (game.css). It is not modal: the
//   keyboard shortcuts keep working, Escape or Close dismisses it, and it
//   goes away by itself as soon as the game is no longer over (undo, a new
//   game, browsing back);
// - once the card is closed (Review, Share, Close), the status box's Rematch
//   (`#btn-rematch`) offers the same rematch while the finished game shows;
// - a win by the person (or either win in two-player) gets a short burst of
//   confetti, none under prefers-reduced-motion;
// - in Ultimate, after each move, a brief ring pulses on the board the
//   opponent is sent to (not on a free move, not under reduced motion).
// It talks to the game only through the controller and its changes.

import { t, tn, onLangChange } from './i18n.js';
import { el, svgEl } from './dom.js';
import { modalOpen } from './dialog.js';
import { opponentHere } from './features/room.js';
import { newOpponent } from './playview.js';

/** The pause before the card, so the last mark and the winning line land first. */
const SHOW_DELAY_MS = 450;
/** How long the confetti stays in the page. */
const CELEBRATION_MS = 1500;
const CONFETTI_PIECES = 28;
/** How long the ring on the board the opponent is sent to lasts. */
const CUE_MS = 650;


/** The server's end reasons that the card names (the others read from the board). */
const REASONS = new Set(['resigned', 'time', 'agreed']);

function reducedMotion() {
  return typeof window.matchMedia === 'function' && window.matchMedia('(prefers-reduced-motion: reduce)').matches;
}

/**
 * The `end.line.N` name of the line through three regions (0-8, any order),
 * or -1: rows 0-2, columns 3-5, the diagonals 6 and 7. The core says which
 * line won; this only names it from where its regions lie.
 */
export function lineIndex(indices) {
  const at = [...indices].map(Number);
  if (at.length !== 3 || new Set(at).size !== 3 || at.some((i) => !(i >= 0 && i <= 8))) return -1;
  const rows = new Set(at.map((i) => Math.floor(i / 3)));
  const cols = new Set(at.map((i) => i % 3));
  if (rows.size === 1) return [...rows][0];
  if (cols.size === 1) return 3 + [...cols][0];
  if (rows.size === 3 && cols.size === 3) {
    if (at.every((i) => i % 4 === 0)) return 6;
    if (at.every((i) => i === 2 || i === 4 || i === 6)) return 7;
  }
  return -1;
}

/** Whether the result is one to celebrate: the person won, or anyone in two-player. */
export function celebrates(state) {
  if (!state || !state.over || state.result === 'draw' || !state.result) return false;
  if (state.mode === 'ai') return state.result === state.humanSide;
  return state.mode === 'human';
}

/** The card's words for the finished game `state` (a GameState): `{title, detail, tone, note}`. */
export function resultWords(state) {
  const ultimate = state.kind === 'ultimate';
  const winner = state.result === 'draw' ? null : state.result;
  let title;
  let tone;
  if (!winner) {
    title = t('end.draw');
    tone = 'draw';
  } else if (state.mode === 'ai') {
    const won = winner === state.humanSide;
    title = t(won ? 'end.youWin' : 'end.aiWins');
    tone = won ? 'win' : 'loss';
  } else {
    title = t('end.wins', { player: winner.toUpperCase() });
    tone = winner;
  }
  const line = state.winningThree.length === 3 ? lineIndex(state.winningThree) : -1;
  const loser = winner === 'x' ? 'O' : 'X';
  let detail;
  // Online, a game decided off the board (a resignation, a clock, an
  // agreement) says so: the board's lines would not explain it.
  if (REASONS.has(state.endReason) && (winner || state.endReason === 'agreed')) {
    detail = t(`end.reason.${state.endReason}`, { player: loser });
  } else if (winner && line >= 0) {
    detail = t(ultimate ? 'end.lineBoards' : 'end.lineCells', { line: t(`end.line.${line}`) });
  } else {
    const count = (side) => state.wonCounts[side === 'x' ? 0 : 1];
    const tiebreak = ultimate && state.rules === 'tiebreak';
    if (winner && tiebreak) {
      const loser = winner === 'x' ? 'o' : 'x';
      detail = t('end.tiebreak', { player: winner.toUpperCase(), won: count(winner), lost: count(loser) });
    } else if (!winner && tiebreak) {
      detail = t('end.drawTiebreak', { won: count('x') });
    } else {
      detail = t('end.drawDetail');
    }
  }
  // Against the AI the rematch swaps colours: say which one the person gets.
  const note = state.mode === 'ai' && state.humanSide
    ? t('end.swap', { side: state.humanSide === 'x' ? 'O' : 'X' })
    : '';
  return { title, detail, tone, note };
}

/** The big mark at the top of the card: the winner's X or O, or two bars for a draw. */
function badge() {
  return el('div', { class: 'end-badge', 'aria-hidden': 'true' }, el('span', { class: 'end-mark' }));
}

function closeIcon() {
  const svg = svgEl('svg', { class: 'ico', viewBox: '0 0 24 24', 'aria-hidden': 'true' });
  svg.append(svgEl('path', { d: 'M6 6l12 12M18 6 6 18' }));
  return svg;
}

/** A burst of confetti from the middle of `host`, removed after CELEBRATION_MS. */
function celebrate(host, winner) {
  if (reducedMotion()) return;
  host.querySelector('.celebration')?.remove();
  const burst = el('div', { class: 'celebration', 'aria-hidden': 'true', 'data-testid': 'celebration' });
  const main = winner === 'o' ? 'var(--o)' : 'var(--x)';
  const colours = [main, main, 'var(--confetti-gold)', 'var(--confetti-green)', winner === 'o' ? 'var(--x)' : 'var(--o)'];
  const size = host.querySelector('.board')?.getBoundingClientRect().width || 360;
  for (let i = 0; i < CONFETTI_PIECES; i += 1) {
    // Evenly round the circle with a little jitter, flung a quarter to a half
    // of the board's width, then falling.
    const angle = (i / CONFETTI_PIECES) * Math.PI * 2 + (Math.random() - 0.5) * 0.5;
    const reach = size * (0.24 + Math.random() * 0.22);
    const piece = el('i', { class: `confetti confetti-${i % 3}` });
    piece.style.setProperty('--dx', `${Math.round(Math.cos(angle) * reach)}px`);
    piece.style.setProperty('--dy', `${Math.round(Math.sin(angle) * reach * 0.8 - 30)}px`);
    piece.style.setProperty('--fall', `${Math.round(50 + Math.random() * 50)}px`);
    piece.style.setProperty('--spin', `${Math.round((Math.random() - 0.5) * 900)}deg`);
    piece.style.setProperty('--delay', `${Math.round(Math.random() * 120)}ms`);
    piece.style.setProperty('--c', colours[i % colours.length]);
    burst.append(piece);
  }
  host.append(burst);
  setTimeout(() => burst.remove(), CELEBRATION_MS);
}

/**
 * In Ultimate, after a move, rings the board the opponent is sent to for
 * CUE_MS; nothing on a free move (the board sent to is decided), at the end
 * of the game, or under reduced motion.
 * @param {Controller} controller
 */
function initMoveCue(board, controller) {
  let timer = 0;
  const clear = () => {
    clearTimeout(timer);
    for (const node of board.querySelectorAll('.small.send-cue')) node.classList.remove('send-cue');
  };
  controller.subscribe((change) => {
    if (!('game' in change)) return;
    const { game, step } = change;
    if (!change.played || !step) {
      // Browsing or a new game: a ring from the position left behind goes.
      if (change.moved) clear();
      return;
    }
    clear();
    if (game.kind !== 'ultimate' || game.over || reducedMotion() || board.dataset.free === 'true') return;
    // The opponent is sent to the board of the cell just played.
    const target = board.querySelector(`.small[data-board="${step.cell}"]`);
    if (!target || target.dataset.winner || target.dataset.playable !== 'true') return;
    // Reading offsetWidth restarts the animation when the same board is cued twice.
    void target.offsetWidth;
    target.classList.add('send-cue');
    timer = setTimeout(clear, CUE_MS);
  });
}

/** Whether the status box offers a rematch for `state`: a finished game against the AI or between two players. */
export function offersRematch(state) {
  return Boolean(state && state.over && (state.mode === 'ai' || state.mode === 'human') && !state.puzzle);
}

/**
 * Installs the end card (in `.app`, over the top bar and the turn), the
 * status box's Rematch and the move cue. `tabs` is initTabs' `{show(name)}`,
 * for Review and Share. Returns `{hide()}`.
 * @param {Controller} controller
 * @param {{ tabs?: { show(name: string): void } }} [options]
 */
export function initEndCard(controller, { tabs } = {}) {
  const board = document.getElementById('board');
  const frame = document.getElementById('board-frame');
  if (!board || !frame) return null;
  initMoveCue(board, controller);

  const title = el('h2', { id: 'end-title', class: 'end-title', 'data-testid': 'end-result' });
  const kicker = el('p', { class: 'end-kicker' });
  const detail = el('p', { id: 'end-detail', class: 'end-detail', 'data-testid': 'end-line' });
  const note = el('p', { id: 'end-note', class: 'end-note' });
  const rematch = el('button', { type: 'button', class: 'btn primary end-btn', 'data-testid': 'rematch', 'aria-describedby': 'end-note' });
  const another = el('button', { type: 'button', class: 'btn end-btn', 'data-action': 'new-opponent' });
  const review = el('button', { type: 'button', class: 'btn end-btn', 'data-testid': 'review' });
  const share = el('button', { type: 'button', class: 'btn end-btn', 'data-testid': 'share-game' });
  const close = el('button', { type: 'button', class: 'end-close', 'data-testid': 'close-end-card' }, closeIcon());
  const card = el(
    'section',
    {
      class: 'end-card',
      role: 'dialog',
      'aria-modal': 'false',
      'aria-labelledby': 'end-title',
      'aria-describedby': 'end-detail end-note',
      'data-testid': 'end-card',
    },
    close,
    badge(),
    el('div', { class: 'end-head' }, kicker, title),
    detail,
    el('div', { class: 'end-actions' }, rematch, another, review, share),
    note,
  );
  card.hidden = true;
  // A grid item of the page's layout (game.css places it over the top bar
  // and the turn), before the board in reading order.
  const app = frame.closest('.app');
  const play = frame.closest('.play');
  if (app && play && play.parentElement === app) app.insertBefore(card, play);
  else frame.append(card);
  const statusRematch = document.getElementById('btn-rematch');

  let shown = null; // the state the card is about, while it is up or about to be
  let latest = controller.getState();
  let timer = 0;
  let returnFocus = null;

  // Everything shows where the room allows; where it is short (phones
  // upright) the note gives way, and the card holds the title, the detail
  // and the buttons. Measured, so it holds for any language and width.
  const fit = () => {
    if (card.hidden) return;
    card.dataset.fit = 'full';
    if (card.scrollHeight > card.clientHeight) card.dataset.fit = 'short';
  };
  new ResizeObserver(fit).observe(card);

  // The status box's Rematch stands in for the card's once the card is closed.
  // Online, the card's Rematch waits for an opponent there to accept it.
  const syncStatusRematch = () => {
    if (statusRematch) statusRematch.hidden = Boolean(shown) || !offersRematch(latest);
    const { roomState, side } = controller.onlineRoom();
    rematch.disabled = Boolean(roomState && side && !opponentHere(roomState, side));
    // Only a seat's holder looks for someone new; local games and spectators do not.
    another.hidden = !(roomState && side);
    card.dataset.actions = another.hidden ? '3' : '4';
    if (shown && !card.hidden) {
      fill();
      fit();
    }
  };

  /**
   * Online, what the room says after the game, which the card covers in
   * the status line: the opponent gone, or their rematch asked (then the
   * card's Rematch accepts it). `{note, rematch}` (the button's label key).
   */
  const roomWords = () => {
    const { roomState: rs, side } = controller.onlineRoom();
    if (!rs || !side || !rs.result) return { note: '', rematch: 'end.rematch' };
    if (!opponentHere(rs, side)) return { note: t('online.opponentLeft'), rematch: 'end.rematch' };
    const asked = rs.rematch.includes(side === 'x' ? 'o' : 'x') && !rs.rematch.includes(side);
    return asked ? { note: t('online.rematchOffered'), rematch: 'online.rematchAcceptShort' } : { note: '', rematch: 'end.rematch' };
  };

  const fill = () => {
    if (!shown) return;
    const room = roomWords();
    const words = { ...resultWords(shown) };
    if (room.note) words.note = room.note;
    kicker.textContent = tn('end.kicker', shown.length);
    title.textContent = words.title;
    detail.textContent = words.detail;
    note.textContent = words.note;
    note.hidden = !words.note;
    card.dataset.tone = words.tone;
    card.dataset.result = shown.result;
    card.dataset.note = words.note ? 'true' : 'false';
    rematch.textContent = t(room.rematch);
    // The note again as the button's tooltip, for where the short card leaves it out.
    if (words.note) rematch.title = words.note;
    else rematch.removeAttribute('title');
    another.textContent = t('end.newOpponent');
    review.textContent = t('end.review');
    share.textContent = t('end.share');
    close.setAttribute('aria-label', t('end.close'));
    close.title = t('end.close');
  };

  const focusBoard = () => {
    const cell = /** @type {HTMLButtonElement | null} */ (
      board.querySelector('button[data-cell][tabindex="0"]') || board.querySelector('button[data-cell]')
    );
    cell?.focus({ preventScroll: true });
  };

  const hide = ({ restore = false } = {}) => {
    clearTimeout(timer);
    shown = null;
    syncStatusRematch();
    if (card.hidden) return;
    const hadFocus = card.contains(document.activeElement);
    card.hidden = true;
    if (hadFocus && restore) {
      if (returnFocus && returnFocus.isConnected && !card.contains(returnFocus)) returnFocus.focus({ preventScroll: true });
      else focusBoard();
    }
    returnFocus = null;
  };

  const show = () => {
    if (!shown) return;
    fill();
    const wasHidden = card.hidden;
    card.hidden = false;
    fit();
    if (wasHidden) {
      // Focus moves to Rematch only from the board or nowhere, never out of a form control elsewhere.
      const active = document.activeElement;
      const fromBoard = !active || active === document.body || board.contains(active);
      if (fromBoard) {
        returnFocus = active;
        rematch.focus({ preventScroll: true });
      }
    }
    if (celebrates(shown)) celebrate(frame, shown.result);
  };

  controller.subscribe((change) => {
    if (!('game' in change)) return;
    const s = change.game;
    latest = s;
    // Undo, a new game, browsing back or another game loaded: the card is out of date.
    if (shown && (!s.over || s.gameId !== shown.gameId || s.cursor !== shown.cursor || s.record !== shown.record)) {
      hide({ restore: true });
      frame.querySelector('.celebration')?.remove();
    }
    if (change.ended) {
      shown = s;
      clearTimeout(timer);
      timer = setTimeout(show, SHOW_DELAY_MS);
    }
    syncStatusRematch();
  });

  const startRematch = () => {
    hide();
    controller.rematch();
    focusBoard();
  };
  rematch.addEventListener('click', startRematch);
  statusRematch?.addEventListener('click', startRematch);
  another.addEventListener('click', () => {
    hide();
    newOpponent(controller);
  });
  review.addEventListener('click', () => {
    hide();
    tabs?.show('moves');
    const list = /** @type {HTMLElement | null} */ (document.querySelector('[data-testid="move-list"]'));
    const target = /** @type {HTMLButtonElement | null} */ (
      list?.querySelector('button[tabindex="0"]') || list?.querySelector('button[data-ply]')
    );
    (target || list)?.focus();
  });
  share.addEventListener('click', () => {
    hide();
    tabs?.show('share');
    /** @type {HTMLButtonElement | null} */ (document.querySelector('#pane-share button'))?.focus();
  });
  close.addEventListener('click', () => hide({ restore: true }));
  document.addEventListener('keydown', (event) => {
    if (event.key !== 'Escape' || card.hidden || modalOpen() || event.defaultPrevented) return;
    // Escape inside another dialog (help, the tutorial) is that dialog's.
    if (event.target instanceof Element && event.target.closest('dialog')) return;
    event.preventDefault();
    hide({ restore: true });
  });

  onLangChange(() => {
    fill();
    fit();
  });
  syncStatusRematch();
  return { hide };
}
