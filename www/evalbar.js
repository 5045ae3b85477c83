// The evaluation bar (#eval-bar, Moves tab): X's, the draw's and O's chances
// in the shown position and the best line from it, from the AI's search
// reports (`uttt:progress`), the live evaluation while a person is to move
// (`uttt:analysis`) or a hint's answer, and the result once the game is
// over. The chances come from the worker, which maps the search's score by
// core's fitted WinChance.

import { t, onLangChange } from './i18n.js';
import { oneMoveOn } from './a11y.js';
import { el } from './dom.js';

/** Moves of a winner, from signed plies to the end (positive: X wins). */
function mateText(plies) {
  const n = Math.ceil(Math.abs(plies) / 2);
  return t(plies > 0 ? 'eval.xMate' : 'eval.oMate', { n });
}

/** How many moves of the best line are shown. */
const LINE_MOVES = 8;

/** A chance (0-1) as a whole percentage. */
function percent(p) {
  return Math.round(100 * Math.min(1, Math.max(0, Number(p) || 0)));
}

/**
 * The text and X's share (0-1) of the evaluation bar for a progress report,
 * or for the result (`'x'`, `'o'`, `'draw'`) once the shown position is
 * over: the last search's "wins in 1" would be out of date by then.
 */
export function evalView(progress, result = null) {
  if (result === 'x') return { share: 1, text: t('eval.xWon') };
  if (result === 'o') return { share: 0, text: t('eval.oWon') };
  if (result === 'draw') return { share: 0.5, text: t('eval.drawn') };
  if (!progress) return { share: 0.5, text: t('eval.none') };
  const { mate, xWins, draw, oWins, depth } = progress;
  let share;
  let text;
  if (typeof mate === 'number' && mate !== 0) {
    share = mate > 0 ? 1 : 0;
    text = mateText(mate);
  } else if (typeof xWins === 'number') {
    // X's expected score: a draw counts half, as on the scoreboard.
    share = xWins + draw / 2;
    text = t('eval.chances', { x: percent(xWins), draw: percent(draw), o: percent(oWins) });
  } else {
    return { share: 0.5, text: t('eval.none') };
  }
  if (typeof depth === 'number') text += ` · ${t('eval.depth', { depth })}`;
  return { share, text };
}

/**
 * Builds the bar in `host` and follows the game. Returns `{ show(report) }`
 * for an evaluation that did not come as `uttt:progress` (a hint's answer).
 */
export function initEvalBar(host, controller, display) {
  const fill = el('div', { class: 'eval-fill' });
  const text = el('p', { class: 'eval-text', 'data-testid': 'eval-text' });
  const line = el('p', { class: 'eval-line', 'data-testid': 'eval-line' });
  host.classList.add('eval-bar');
  host.replaceChildren(el('div', { class: 'eval-track', 'aria-hidden': 'true' }, fill), text, line);

  let state = controller.getState();
  let progress = null;
  // True while `progress` is a search of the position one move back (the
  // AI's last report, kept across its move): any live report replaces it.
  let carried = false;

  const draw = () => {
    host.hidden = !display.showEval;
    const over = state.over ? state.result : null;
    const view = evalView(progress, over);
    // CSSOM, not a style attribute: allowed under the strict CSP.
    fill.style.setProperty('--x-share', String(view.share));
    text.replaceChildren(el('span', { class: 'visually-hidden', text: `${t('eval.label')}: ` }), view.text);
    const moves = !over && Array.isArray(progress?.pv) ? progress.pv.slice(0, LINE_MOVES) : [];
    line.textContent = moves.length ? t('eval.line', { moves: moves.join(' ') }) : '';
  };
  const show = (report, live) => {
    // A live analysis starts again at depth 1 after each request: it
    // replaces a deeper evaluation of the same position (a hint's) only once
    // it is as deep, or proven.
    const shallower = progress && !carried && typeof progress.depth === 'number' && report.depth < progress.depth;
    if (live && shallower && typeof report.mate !== 'number') return;
    progress = report;
    carried = false;
    draw();
  };
  const translate = () => {
    host.setAttribute('aria-label', t('eval.label'));
    host.title = t('eval.unit');
    draw();
  };

  document.addEventListener('uttt:state', (event) => {
    const before = state;
    state = event.detail || controller.getState();
    // The evaluation stays only across a move played on the same line; after
    // a jump, undo, load or new game it described another position.
    const moved = before.record !== state.record || before.cursor !== state.cursor;
    // Nor is an evaluation shown while a puzzle is open: its line is the answer.
    if ((moved && !oneMoveOn(before, state)) || state.puzzle === 'open') progress = null;
    else if (moved && progress) {
      // One move on: the line goes on after the move played, if it was the
      // line's first; otherwise the line is unknown until the next report.
      const played = state.moves[state.cursor - 1];
      const pv = Array.isArray(progress.pv) && progress.pv[0] === played ? progress.pv.slice(1) : [];
      progress = { ...progress, pv };
      carried = true;
    }
    draw();
  });
  document.addEventListener('uttt:progress', (event) => show(event.detail, false));
  document.addEventListener('uttt:analysis', (event) => show(event.detail, true));
  display.onChange(draw);
  onLangChange(translate);
  translate();
  return {
    show(report) {
      show(report, false);
    },
  };
}
