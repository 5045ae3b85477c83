// @ts-check
// The puzzles of a reviewed game, under its review (#game-review): a list
// of the positions where the mover had one move that wins or saves and
// played another, and, while one is being solved, its card: what to find,
// the tries, the answer and its line once solved or shown, and the way on
// (next puzzle, leave). The controller decides every answer (a click on the
// board is the try); this module draws its 'review' and 'puzzle'
// changes, and rings the answer's cell once it is known.

import { t, onLangChange } from './i18n.js';
import { el } from './dom.js';
import { moveNumber } from './reviews.js';

/**
 * Builds the puzzles' section in `host` and follows the review and the puzzle.
 * @param {Controller} controller
 */
export function initPuzzles(host, controller) {
  const title = el('h3', { class: 'puzzles-title' });
  const intro = el('p', { class: 'puzzles-intro' });
  const list = el('ol', { class: 'puzzle-list' });
  const text = el('p', { class: 'puzzle-text', 'data-testid': 'puzzle-text', 'aria-live': 'polite' });
  const played = el('p', { class: 'puzzle-played' });
  const reveal = el('button', { type: 'button', class: 'btn', 'data-testid': 'puzzle-reveal' });
  const next = el('button', { type: 'button', class: 'btn', 'data-testid': 'puzzle-next' });
  const leave = el('button', { type: 'button', class: 'btn', 'data-testid': 'puzzle-leave' });
  const card = el('div', { class: 'puzzle-card', 'data-testid': 'puzzle-card' }, text, played, el('div', { class: 'puzzle-actions' }, reveal, next, leave));
  host.classList.add('puzzles');
  host.dataset.testid = 'review-puzzles';
  host.replaceChildren(title, intro, list, card);

  let review = controller.getReview();
  let puzzle = controller.getPuzzle();
  let ringed = null;

  // On a phone the list is below the board: the board comes back into
  // view (its status line says what to find), as when an online game
  // starts. Where the page does not scroll, the panel beside the board
  // does: it shows the puzzle's card.
  const begin = (index) => {
    if (!controller.startPuzzle(index)) return;
    const page = document.scrollingElement;
    if (page.scrollHeight <= page.clientHeight) card.scrollIntoView({ block: 'nearest' });
    else if (document.getElementById('board-frame').getBoundingClientRect().top < 0) window.scrollTo(0, 0);
  };

  const puzzles = () => (review?.status === 'done' ? review.puzzles ?? [] : []);

  const label = (p) =>
    t(`puzzle.item.${p.goal}`, { n: moveNumber(p.ply + 1), player: p.mover.toUpperCase() });

  const drawList = () => {
    list.replaceChildren(
      ...puzzles().map((p, index) => {
        const done = p.status === 'open' ? [] : [el('span', { class: 'puzzle-done', text: t(`puzzle.done.${p.status}`) })];
        const button = el(
          'button',
          {
            type: 'button',
            class: 'puzzle-start',
            'data-testid': 'puzzle-start',
            'data-ply': String(p.ply),
            'data-status': p.status,
            'data-solved': String(p.status === 'solved'),
            'aria-pressed': String(puzzle?.index === index),
          },
          el('span', { text: label(p) }),
          ...done,
        );
        button.addEventListener('click', () => begin(index));
        return el('li', {}, button);
      }),
    );
  };

  const drawCard = () => {
    card.hidden = !puzzle;
    if (!puzzle) return;
    const move = puzzle.solution[0];
    const line = puzzle.solution.join(' ');
    const words = {
      open: () => `${t(`puzzle.find.${puzzle.goal}`, { player: puzzle.mover.toUpperCase() })} ${puzzle.tries > 0 ? t('puzzle.tries', { tries: puzzle.tries }) : ''}`,
      solved: () => t('puzzle.solved', { move, line }),
      revealed: () => t('puzzle.revealed', { move, line }),
    };
    text.textContent = words[puzzle.status]().trim();
    card.dataset.status = puzzle.status;
    played.textContent = puzzle.status === 'open' ? '' : t('puzzle.played', { played: puzzle.played });
    reveal.textContent = t('puzzle.reveal');
    reveal.hidden = puzzle.status !== 'open';
    next.textContent = t('puzzle.next');
    next.hidden = puzzle.status === 'open' || puzzle.index + 1 >= puzzles().length;
    leave.textContent = t('puzzle.leave');
  };

  /** The answer's cell is ringed once it is solved or shown, and only then. */
  const drawRing = () => {
    ringed?.classList.remove('puzzle-answer');
    ringed = null;
    if (!puzzle || puzzle.status === 'open') return;
    const { board, cell } = puzzle.answer;
    ringed = document.querySelector(`#board button[data-board="${board}"][data-cell="${cell}"]`);
    ringed?.classList.add('puzzle-answer');
  };

  const render = () => {
    const all = puzzles();
    host.hidden = review?.status !== 'done';
    host.dataset.puzzle = puzzle?.status ?? 'none';
    host.dataset.count = String(all.length);
    title.textContent = t('puzzle.title');
    intro.textContent = t(all.length > 0 ? 'puzzle.intro' : 'puzzle.none');
    drawList();
    drawCard();
    drawRing();
  };

  reveal.addEventListener('click', () => controller.revealPuzzle());
  next.addEventListener('click', () => begin(puzzle.index + 1));
  leave.addEventListener('click', () => controller.leavePuzzle());
  controller.subscribe((change) => {
    if (change.cause === 'review') review = change.review;
    else if (change.cause === 'puzzle') puzzle = change.puzzle;
    else return;
    render();
  });
  onLangChange(render);
  render();
}
