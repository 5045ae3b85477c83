// @ts-check
// How the views write ratings, performances, dates and a game's result, in
// the page's language: names from the string tables, numbers and dates by
// Intl in that language. And the small rating graph (an SVG, no library).

import { t, lang } from './i18n.js';
import { svgEl } from './dom.js';

/** The name of performance `perf` (`ultimate-blitz`): "Ultimate · Blitz". */
export function perfName(perf) {
  const [game, speed] = String(perf).split('-');
  return t('perf.name', { game: t(`perf.game.${game}`), speed: t(`perf.speed.${speed}`) });
}

/** A rating as shown: whole points, with "?" while provisional. */
export function ratingText(rating, provisional = false) {
  const whole = new Intl.NumberFormat(lang(), { maximumFractionDigits: 0, useGrouping: false }).format(rating);
  return provisional ? `${whole}?` : whole;
}

/** A change of rating, signed ("+162", "−38", "0"). */
export function changeText(change) {
  const whole = Math.round(change);
  return new Intl.NumberFormat(lang(), { signDisplay: 'exceptZero', useGrouping: false }).format(whole).replace('-', '−');
}

/** `ms` (since the epoch) as a date in the page's language; with the time when `time`. */
export function dateText(ms, time = false) {
  const options = time ? { dateStyle: 'medium', timeStyle: 'short' } : { dateStyle: 'long' };
  return new Intl.DateTimeFormat(lang(), /** @type {Intl.DateTimeFormatOptions} */ (options)).format(new Date(ms));
}

/**
 * What game `game` (an archived game of the API) was for `name`: their
 * side, the opponent's name (null: a guest), 'win' | 'draw' | 'loss', the
 * reason, and their ratings before and after (null when not rated).
 */
export function gameFor(game, name) {
  const lower = String(name).toLowerCase();
  const side = String(game.x ?? '').toLowerCase() === lower ? 'x' : 'o';
  const winner = game.result?.winner ?? null;
  const outcome = winner === null ? 'draw' : winner === side ? 'win' : 'loss';
  const before = side === 'x' ? game.xBefore : game.oBefore;
  const after = side === 'x' ? game.xAfter : game.oAfter;
  const rated = typeof before === 'number' && typeof after === 'number';
  return {
    side,
    opponent: side === 'x' ? game.o : game.x,
    outcome,
    reason: game.result?.reason ?? 'won',
    before: rated ? before : null,
    after: rated ? after : null,
  };
}

/** The words for an outcome and its reason ("Won on time", "Draw agreed"). */
export function resultText(outcome, reason) {
  const key = `archived.${outcome}.${reason}`;
  const text = t(key);
  return text === key ? t(`archived.${outcome}.${outcome === 'draw' ? 'draw' : 'won'}`) : text;
}

const WIDTH = 320;
const HEIGHT = 96;
const PAD = { left: 40, right: 8, top: 10, bottom: 10 };

/**
 * A small line graph of `points` (ratings, oldest first) as an SVG, the
 * lowest and highest written at its left; `label` names it for screen readers.
 * @param {number[]} points
 * @param {string} label
 */
export function ratingGraph(points, label) {
  const svg = svgEl('svg', { class: 'rating-graph', viewBox: `0 0 ${WIDTH} ${HEIGHT}`, role: 'img', 'aria-label': label });
  const low = Math.min(...points);
  const high = Math.max(...points);
  // A flat line still needs a scale: 20 points either side.
  const [bottom, top] = high - low < 40 ? [(low + high) / 2 - 20, (low + high) / 2 + 20] : [low, high];
  const x = (i) => PAD.left + (points.length === 1 ? 0 : (i * (WIDTH - PAD.left - PAD.right)) / (points.length - 1));
  const y = (v) => PAD.top + ((top - v) * (HEIGHT - PAD.top - PAD.bottom)) / (top - bottom);
  svg.append(
    svgEl('line', { class: 'rating-graph-axis', x1: PAD.left, x2: WIDTH - PAD.right, y1: y(low), y2: y(low) }),
    svgEl('line', { class: 'rating-graph-axis', x1: PAD.left, x2: WIDTH - PAD.right, y1: y(high), y2: y(high) }),
  );
  for (const v of high === low ? [low] : [low, high]) {
    const text = svgEl('text', { class: 'rating-graph-label', x: PAD.left - 6, y: y(v) + 4, 'text-anchor': 'end' });
    text.textContent = ratingText(v);
    svg.append(text);
  }
  const line = points.map((v, i) => `${x(i).toFixed(1)},${y(v).toFixed(1)}`).join(' ');
  svg.append(svgEl('polyline', { class: 'rating-graph-line', points: line }));
  points.forEach((v, i) => svg.append(svgEl('circle', { class: 'rating-graph-dot', cx: x(i).toFixed(1), cy: y(v).toFixed(1), r: 3 })));
  return svg;
}
