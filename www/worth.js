// @ts-check
// The overlay of every legal move's worth (Game tab: "Show each move's
// worth"): while a person is to move, the worker surveys the shown position
// (core's Surveyor) and the controller passes each completed depth on as
// a 'worth' change; this draws it on the board's cells. It only draws: which
// moves exist and what they are worth come from core.
//
// Hooks on each surveyed cell: `data-worth` (the mover's expected score
// after playing there, 0-100: a draw counts half), `data-worth-exact`
// ("false": at most that much, clearly worse than the best), `data-mate`
// (plies to a proven end, negative when the mover loses) and
// `data-worth-best` on the one best cell; its label is a child
// `.worth-label`, and `aria-description` says the same in words.
//
// While the overlay is chosen, a legend in the Moves tab, under the
// evaluation bar and never over the board, says what the numbers and their
// colours mean.

import { t, onLangChange } from './i18n.js';
import { el } from './dom.js';

/** Worse than the best by more than this (of the expected score): shown as a loss of ground. */
const CLOSE = 0.05;
/** Worse than the best by more than this: shown as a bad move. */
const FAR = 0.2;

/** A chance (0-1) as a whole percentage. */
function percent(p) {
  return Math.round(100 * Math.min(1, Math.max(0, Number(p) || 0)));
}

/** The short label and the words for a cell's worth. */
function describeWorth({ expected, mate, exact }) {
  if (typeof mate === 'number' && mate !== 0) {
    // The mover's own moves to the end, this one included.
    const n = Math.ceil(Math.abs(mate) / 2);
    const key = mate > 0 ? 'win' : 'loss';
    return { label: t(`worth.${key}Short`, { n }), words: t(`worth.${key}`, { n }) };
  }
  const p = percent(expected);
  return exact
    ? { label: `${p}%`, words: t('worth.exact', { p }) }
    : { label: `≤${p}%`, words: t('worth.bound', { p }) };
}

/** How a cell's worth compares with the best: 'best', 'close', 'worse' or 'bad'. */
function toneOf(worth, best, index) {
  if (index === 0) return 'best';
  const loss = best.expected - worth.expected;
  if (loss <= CLOSE) return 'close';
  return loss <= FAR ? 'worse' : 'bad';
}

/** One line of the legend: a sample label in its tone, then what it means. */
function legendItem(tone, sample, meaning) {
  return el(
    'li',
    {},
    el('span', { class: 'worth-sample', 'data-worth-tone': tone, 'aria-hidden': 'true', text: sample }),
    el('span', { text: meaning }),
  );
}

/** Fills the legend `host` in the current language. */
function drawLegend(host) {
  const close = Math.round(100 * CLOSE);
  const far = Math.round(100 * FAR);
  const mate = `${t('worth.winShort', { n: 3 })} ${t('worth.lossShort', { n: 3 })}`;
  host.replaceChildren(
    el('p', { class: 'worth-legend-text', text: t('worth.legend') }),
    el(
      'ul',
      { class: 'worth-legend-keys' },
      legendItem('best', '62%', t('worth.legendBest')),
      legendItem('close', '59%', t('worth.legendClose', { close })),
      legendItem('worse', '48%', t('worth.legendWorse', { close, far })),
      legendItem('bad', '21%', t('worth.legendBad', { far })),
      legendItem('mate', mate, t('worth.legendMate', { n: 3 })),
      legendItem('bound', '≤30%', t('worth.legendBound')),
    ),
  );
}

/**
 * Draws the controller's 'worth' reports on the cells of the board in `boardRoot`
 * (a `.board` built by BoardView), and clears them when the controller
 * sends null; shows the legend after the evaluation bar while
 * `display.showWorth` is on.
 * @param {HTMLElement} boardRoot
 * @param {Controller} controller
 * @param {{ display?: ReturnType<typeof import('./display.js').initDisplayOptions> }} [options]
 */
export function initWorthOverlay(boardRoot, controller, { display } = {}) {
  const legend = el('section', { class: 'worth-legend', 'data-testid': 'worth-legend' });
  document.getElementById('eval-bar')?.after(legend);
  const showLegend = () => {
    legend.hidden = !display?.showWorth;
    legend.setAttribute('aria-label', t('worth.legendLabel'));
    if (!legend.hidden) drawLegend(legend);
  };
  display?.onChange(showLegend);
  onLangChange(showLegend);
  showLegend();

  let shown = null;
  let marked = [];

  const clear = () => {
    for (const cell of marked) {
      for (const name of ['data-worth', 'data-worth-exact', 'data-mate', 'data-worth-best', 'data-worth-tone', 'aria-description']) {
        cell.removeAttribute(name);
      }
      cell.querySelector('.worth-label')?.remove();
    }
    marked = [];
    delete boardRoot.dataset.worth;
  };

  const draw = () => {
    clear();
    if (!shown || shown.cells.length === 0) return;
    const best = shown.cells[0];
    shown.cells.forEach((worth, index) => {
      const cell = /** @type {HTMLButtonElement | null} */ (
        boardRoot.querySelector(`button[data-board="${worth.board}"][data-cell="${worth.cell}"]`)
      );
      if (!cell) return;
      const { label, words } = describeWorth(worth);
      cell.dataset.worth = String(percent(worth.expected));
      cell.dataset.worthExact = String(Boolean(worth.exact));
      if (typeof worth.mate === 'number') cell.dataset.mate = String(worth.mate);
      cell.dataset.worthTone = toneOf(worth, best, index);
      cell.toggleAttribute('data-worth-best', index === 0);
      cell.setAttribute('aria-description', index === 0 ? t('worth.bestMove', { worth: words }) : words);
      cell.append(el('span', { class: 'worth-label', 'aria-hidden': 'true', text: label }));
      marked.push(cell);
    });
    boardRoot.dataset.worth = 'shown';
  };

  controller.subscribe((change) => {
    if (change.cause !== 'worth') return;
    shown = change.worth;
    draw();
  });
  onLangChange(draw);
}
