// @ts-check
// The evaluation bar (#eval-bar, Moves tab): X's, the draw's and O's chances
// in the shown position and the best line from it, from the AI's search
// reports (the controller's 'progress' changes), the live evaluation
// while a person is to move ('analysis') or a hint's answer, and the result once the game is
// over. The chances come from the worker, which maps the search's score by
// core's fitted WinChance.
//
// During a game against the AI (controller.evaluationQuiet) the engine
// keeps its thoughts to itself: the bar is hidden, or, with the display
// option "who is ahead" on, says so in words only (aheadText), never a
// number, a line or a depth. While a puzzle is open it says the evaluation
// is hidden. It asks for the live evaluation (`live`, onLiveChange) only
// while it shows the engine's evaluation on screen; when that evaluation
// stops at its cap ('eval-capped'), it offers "Keep analysing".
//
// Its root carries data-view: 'full' (chances, line, depth), 'words'
// (who is ahead), 'puzzle', or 'off' (hidden), for styles and tests.

import { t, tn, onLangChange } from './i18n.js';
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
 * How far from even (0.5), in X's expected score (a win 1, a draw half),
 * the words say "ahead" and "well ahead". The engine's fit gives the start
 * position itself 0.67-0.72 (X's first-move edge, at depths 12 to 18), and
 * a level opening stays within about 0.05 of that; a player who has just
 * sat down is not "behind", so under 0.25 from even (0.25-0.75) is "about
 * even". From 0.75 X's edge has grown past the first move's: "ahead". From
 * 0.9 the games measured went on to a win within about ten moves: "well
 * ahead". A forced win found is "winning".
 */
const AHEAD = 0.25;
const WELL_AHEAD = 0.4;

/**
 * The least depth of a report the words go by. A search a few plies deep
 * swings with whose move ends it (a Medium AI's 4-ply reports went 0.49,
 * 0.70, 0.49, 0.74 over the first four moves of a game), which would make
 * the words flicker from move to move; the live analysis passes depth 10
 * within a fraction of a second.
 */
const CALM_DEPTH = 10;

/**
 * A calm sentence, in words only, of who is ahead by a progress report
 * (as evalView reads it), or null when the report says nothing: what the
 * bar may say during a game against the AI.
 */
export function aheadText(progress) {
  if (!progress) return null;
  const { mate, xWins, draw } = progress;
  if (typeof mate === 'number' && mate !== 0) return t(mate > 0 ? 'eval.ahead.xWinning' : 'eval.ahead.oWinning');
  if (typeof xWins !== 'number') return null;
  const lead = xWins + (Number(draw) || 0) / 2 - 0.5;
  const side = lead > 0 ? 'x' : 'o';
  if (Math.abs(lead) >= WELL_AHEAD) return t(`eval.ahead.${side}Well`);
  if (Math.abs(lead) >= AHEAD) return t(`eval.ahead.${side}`);
  return t('eval.ahead.even');
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
  // In words a player reads ("looked 16 moves ahead"), not "depth 16".
  if (typeof depth === 'number') text += ` · ${tn('eval.depth', depth)}`;
  return { share, text };
}

/** Which of its views the bar shows (see the top of this file). */
function viewKind(display, { quiet, puzzle }) {
  if (!display.showEval) return 'off';
  if (puzzle) return 'puzzle';
  if (!quiet) return 'full';
  return display.showAhead ? 'words' : 'off';
}

/**
 * Builds the bar in `host` and follows the game. Returns `{ show(report),
 * live, onLiveChange(fn) }`: show takes an evaluation that did not come as
 * a 'progress' change (a hint's answer); `live` is true while the bar shows the
 * engine's evaluation on screen (shown, its pane open, scrolled into view),
 * so a live evaluation has someone to look at it; fn() runs when it changes.
 * @param {Controller} controller
 */
export function initEvalBar(host, controller, display) {
  const fill = el('div', { class: 'eval-fill' });
  const track = el('div', { class: 'eval-track', 'aria-hidden': 'true' }, fill);
  const text = el('p', { class: 'eval-text', 'data-testid': 'eval-text' });
  const line = el('p', { class: 'eval-line', 'data-testid': 'eval-line' });
  const paused = el('span', { class: 'eval-paused' });
  const more = el('button', { type: 'button', class: 'btn eval-more', 'data-testid': 'eval-more' });
  const moreRow = el('div', { class: 'eval-more-row' }, paused, more);
  host.classList.add('eval-bar');
  host.replaceChildren(track, text, line, moreRow);

  let state = controller.getState();
  let progress = null;
  // True while `progress` is a search of the position one move back (the
  // AI's last report, kept across its move): any live report replaces it.
  let carried = false;
  // The last report deep enough for the words (see CALM_DEPTH), or null.
  let calm = null;
  // A game against the AI under way (read on each change of the game or
  // the archive, not on each report: it looks in the archive).
  let quiet = controller.evaluationQuiet();
  let capped = controller.evaluationCapped();
  // Whether the bar is in the viewport (its pane open, not scrolled away).
  let seen = false;
  let live = false;
  const liveListeners = [];

  const updateLive = () => {
    const now = !host.hidden && seen;
    if (now === live) return;
    live = now;
    for (const fn of liveListeners) fn();
  };

  const draw = () => {
    const kind = viewKind(display, { quiet, puzzle: state.puzzle === 'open' });
    host.hidden = kind === 'off';
    host.dataset.view = kind;
    const over = state.over ? state.result : null;
    let view;
    // Hidden, it holds nothing either: its text would still be in the page.
    if (kind === 'off') view = { share: 0.5, text: '' };
    else if (kind === 'puzzle') view = { share: 0.5, text: t('eval.puzzle') };
    else if (kind === 'words') view = { share: 0.5, text: aheadText(calm) ?? t('eval.none') };
    else view = evalView(progress, over);
    // A watcher's evaluation is of a position some moves back: it says which.
    const late = !over && typeof progress?.asOf === 'number';
    if (late) view = { ...view, text: `${view.text} ${progress.asOf > 0 ? t('eval.asOf', { move: progress.asOf }) : t('eval.asOfStart')}` };
    // CSSOM, not a style attribute: allowed under the strict CSP.
    fill.style.setProperty('--x-share', String(view.share));
    // Words only: the bar's split would be the chances in another form.
    track.hidden = kind !== 'full';
    text.replaceChildren(el('span', { class: 'visually-hidden', text: `${t('eval.label')}: ` }), view.text);
    const moves = kind === 'full' && !over && !late && Array.isArray(progress?.pv) ? progress.pv.slice(0, LINE_MOVES) : [];
    line.textContent = moves.length ? t('eval.line', { moves: moves.join(' ') }) : '';
    line.hidden = kind !== 'full';
    moreRow.hidden = !(kind === 'full' && capped && !over);
    updateLive();
  };
  const show = (report, live) => {
    if ((typeof report.mate === 'number' && report.mate !== 0) || report.depth >= CALM_DEPTH) calm = report;
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
    paused.textContent = t('eval.paused');
    more.textContent = t('eval.more');
    draw();
  };

  /** A change of the game: the evaluation stays only across one move on along the line. */
  const follow = (change) => {
    state = change.game;
    // After a jump, undo, load or new game it described another position;
    // nor is an evaluation shown while a puzzle is open: its line is the answer.
    if ((change.moved && !change.step) || state.puzzle === 'open') {
      progress = null;
      calm = null;
    } else if (change.step && progress) {
      // One move on: the line goes on after the move played, if it was the
      // line's first; otherwise the line is unknown until the next report.
      const played = change.step.notation;
      const pv = Array.isArray(progress.pv) && progress.pv[0] === played ? progress.pv.slice(1) : [];
      progress = { ...progress, pv };
      carried = true;
    }
    quiet = controller.evaluationQuiet();
    draw();
  };
  controller.subscribe((change) => {
    if ('game' in change) follow(change);
    else if (change.cause === 'archive') {
      // A game put in the archive as finished is over: the bar may say all.
      quiet = controller.evaluationQuiet();
      draw();
    } else if (change.cause === 'progress') show(change.report, false);
    else if (change.cause === 'analysis') show(change.report, true);
    else if (change.cause === 'eval-capped') {
      capped = change.capped;
      draw();
    }
  });
  more.addEventListener('click', () => controller.keepAnalysing());
  // The pane hidden (another tab) or the bar scrolled away: nobody looks.
  if (typeof IntersectionObserver === 'function') {
    new IntersectionObserver((entries) => {
      seen = entries.at(-1).isIntersecting;
      updateLive();
    }).observe(host);
  } else {
    seen = true;
  }
  display.onChange(draw);
  onLangChange(translate);
  translate();
  return {
    show(report) {
      show(report, false);
    },
    get live() {
      return live;
    },
    onLiveChange(fn) {
      liveListeners.push(fn);
    },
  };
}
