// @ts-check
// The game review in the Moves tab (#game-review): the Review button, the
// progress bar while the worker reviews, each player's accuracy and marks,
// the evaluation graph, and what the engine says of the move at the cursor
// (its mark, the better move and its line). The review itself comes from
// the controller's 'review' changes; the move list shows the marks,
// and the game's puzzles follow (puzzle.js).

import { t, onLangChange } from './i18n.js';
import { el } from './dom.js';
import { MARKS, moveNumber } from './reviews.js';
import { initEvalGraph } from './evalgraph.js';
import { initPuzzles } from './puzzle.js';

/** How many moves of the better line the detail shows. */
const LINE_MOVES = 6;

/** A loss of expected score (0-1) as whole percentage points. */
const points = (loss) => Math.round(100 * loss);

/**
 * Builds the section in `host` and follows the game and its review.
 * @param {Controller} controller
 */
export function initGameReview(host, controller) {
  const start = el('button', { type: 'button', class: 'btn review-start', 'data-testid': 'review-start' });
  const bar = el('progress', { class: 'review-bar', 'data-testid': 'review-progress', max: '1', value: '0' });
  const barText = el('span', { class: 'review-bar-text' });
  const stop = el('button', { type: 'button', class: 'btn review-stop', 'data-testid': 'review-stop' });
  const running = el('div', { class: 'review-running' }, bar, barText, stop);
  const summary = el('table', { class: 'review-summary', 'data-testid': 'review-summary', 'aria-describedby': 'review-accuracy-note' });
  // What accuracy measures, beside it: a high accuracy next to a few marks
  // is no contradiction (a mean over every move against single moves' losses).
  const note = el('p', { id: 'review-accuracy-note', class: 'review-accuracy-note', 'data-testid': 'review-accuracy-note' });
  const graphHost = el('div', { class: 'review-graph' });
  const detail = el('p', { class: 'review-detail', 'data-testid': 'review-detail', 'aria-live': 'polite' });
  const before = el('button', { type: 'button', class: 'btn review-before', 'data-testid': 'review-before' });
  const detailRow = el('div', { class: 'review-detail-row' }, detail, before);
  const puzzles = el('div');
  host.replaceChildren(start, running, summary, note, graphHost, detailRow, puzzles);
  const graph = initEvalGraph(graphHost, { onPick: (ply) => controller.jump(ply) });
  initPuzzles(puzzles, controller);

  let state = controller.getState();
  let review = controller.getReview();
  // The move whose detail stays shown while the position before it is
  // (after "Position before"), or null: the detail follows the cursor.
  let pinned = null;

  const canReview = () =>
    state.length > 0 && !state.thinking && !(state.mode === 'online' && !state.over);

  const drawSummary = () => {
    const head = el(
      'tr',
      {},
      el('th', { scope: 'col', text: t('analysis.player') }),
      el('th', { scope: 'col', text: t('analysis.accuracy') }),
      ...MARKS.map((m) => el('th', { scope: 'col', class: `mark-${m}`, title: t(`mark.${m}`), text: t(`markShort.${m}`) })),
    );
    const row = (side, s) =>
      el(
        'tr',
        { 'data-side': side },
        el('th', { scope: 'row', text: side.toUpperCase() }),
        el('td', { text: `${s.accuracy.toFixed(1)}%` }),
        ...MARKS.map((m, i) => el('td', { class: `mark-${m}`, text: String(s.counts[i]) })),
      );
    summary.replaceChildren(
      el('caption', { text: t('analysis.summary') }),
      el('thead', {}, head),
      el('tbody', {}, row('x', review.x), row('o', review.o)),
    );
  };

  /** The review of the move that led to the shown position (or of the pinned move), if reviewed. */
  const shownMove = () => {
    const ply = pinned ?? state.cursor;
    return ply > 0 ? review?.moves[ply - 1] : undefined;
  };

  const drawDetail = () => {
    const move = shownMove();
    // The better move would be a puzzle's answer.
    detailRow.hidden = !move || state.puzzle === 'open';
    if (!move) return;
    const mark = t(`mark.${move.mark}`);
    const number = moveNumber(move.ply);
    if (move.best === move.played) {
      detail.textContent = t('analysis.engineMove', { n: number, move: move.played, mark });
    } else {
      const line = move.line.slice(0, LINE_MOVES).join(' ');
      detail.textContent = t('analysis.better', {
        n: number,
        move: move.played,
        mark,
        loss: points(move.loss),
        best: move.best,
        line,
      });
    }
    detail.dataset.mark = move.mark;
    before.textContent = t(pinned ? 'analysis.after' : 'analysis.before');
  };

  const render = () => {
    const status = review?.status ?? null;
    start.hidden = status === 'running' || status === 'done';
    start.disabled = !canReview();
    start.textContent = t(status === 'stopped' ? 'analysis.again' : 'analysis.start');
    running.hidden = status !== 'running';
    if (status === 'running') {
      const done = review.moves.length;
      bar.max = Math.max(1, review.total);
      bar.value = done;
      barText.textContent = t('analysis.progress', { done, total: review.total });
      bar.setAttribute('aria-label', barText.textContent);
      stop.textContent = t('analysis.stop');
    }
    summary.hidden = status !== 'done';
    note.hidden = summary.hidden;
    note.textContent = t('analysis.accuracyNote');
    if (status === 'done') drawSummary();
    graphHost.hidden = !review || review.moves.length === 0;
    if (!graphHost.hidden) graph.draw(review, state.cursor, t('analysis.graph'));
    drawDetail();
    host.dataset.review = status ?? 'none';
  };

  start.addEventListener('click', () => controller.reviewGame());
  stop.addEventListener('click', () => controller.stopReview());
  // "Position before" shows where the better move could have been played
  // (the live evaluation then follows it); pressed again, the move itself.
  before.addEventListener('click', () => {
    const move = shownMove();
    if (!move) return;
    const back = !pinned;
    pinned = back ? move.ply : null;
    controller.jump(back ? move.ply - 1 : move.ply);
    render();
  });
  controller.subscribe((change) => {
    if (change.cause === 'review') review = change.review;
    else if ('game' in change) {
      state = change.game;
      if (pinned !== null && state.cursor !== pinned - 1) pinned = null;
    } else return;
    render();
  });
  onLangChange(render);
  render();
}
