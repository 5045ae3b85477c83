// @ts-check
// The evaluation graph of a reviewed game (SVG in the Moves tab): X's
// expected score after every move, X's side up, with the mistakes and
// blunders ticked and the shown position marked. A click or tap shows the
// position at that point of the game.

import { svgEl } from './dom.js';

/** The drawing's units: the width is stretched to the box, the height kept. */
const WIDTH = 100;
const HEIGHT = 40;
/** Marks worth a tick on the graph. */
const TICKED = new Set(['mistake', 'blunder']);

/**
 * Builds the graph in `host`; `onPick(ply)` is called with the position a
 * click points at. Returns `{ draw(review, cursor) }`.
 */
export function initEvalGraph(host, { onPick }) {
  const svg = svgEl('svg', {
    class: 'eval-graph',
    'data-testid': 'eval-graph',
    viewBox: `0 0 ${WIDTH} ${HEIGHT}`,
    preserveAspectRatio: 'none',
    role: 'img',
  });
  const area = svgEl('path', { class: 'eval-graph-area' });
  const middle = svgEl('line', { class: 'eval-graph-mid', x1: 0, x2: WIDTH, y1: HEIGHT / 2, y2: HEIGHT / 2 });
  const curve = svgEl('polyline', { class: 'eval-graph-line', fill: 'none' });
  const ticks = svgEl('g', { class: 'eval-graph-ticks' });
  const cursorLine = svgEl('line', { class: 'eval-graph-cursor', y1: 0, y2: HEIGHT });
  for (const node of [middle, curve, cursorLine]) node.setAttribute('vector-effect', 'non-scaling-stroke');
  svg.append(area, middle, curve, ticks, cursorLine);
  host.append(svg);

  let total = 0;
  svg.addEventListener('click', (event) => {
    const box = svg.getBoundingClientRect();
    if (total === 0 || box.width === 0) return;
    const at = (event.clientX - box.left) / box.width;
    onPick(Math.round(Math.min(1, Math.max(0, at)) * total));
  });

  const xOf = (ply) => (total === 0 ? 0 : (ply / total) * WIDTH);
  const yOf = (share) => (1 - share) * HEIGHT;

  /** Draws `review` (its moves so far) with the position after `cursor` moves marked. */
  const draw = (review, cursor, label) => {
    total = review.total;
    const moves = review.moves;
    const shares = moves.length > 0 ? [moves[0].xBefore, ...moves.map((m) => m.xAfter)] : [];
    const points = shares.map((s, ply) => `${xOf(ply).toFixed(2)},${yOf(s).toFixed(2)}`);
    curve.setAttribute('points', points.join(' '));
    area.setAttribute(
      'd',
      points.length > 0 ? `M0,${HEIGHT} L${points.join(' L')} L${xOf(shares.length - 1).toFixed(2)},${HEIGHT} Z` : '',
    );
    const tickLines = moves
      .filter((m) => TICKED.has(m.mark))
      .map((m) => {
        const x = xOf(m.ply).toFixed(2);
        const tick = svgEl('line', { class: `eval-graph-tick mark-${m.mark}`, x1: x, x2: x, y1: 0, y2: HEIGHT });
        tick.setAttribute('vector-effect', 'non-scaling-stroke');
        return tick;
      });
    ticks.replaceChildren(...tickLines);
    const x = xOf(Math.min(cursor, total)).toFixed(2);
    cursorLine.setAttribute('x1', x);
    cursorLine.setAttribute('x2', x);
    svg.setAttribute('aria-label', label);
  };
  return { draw };
}
