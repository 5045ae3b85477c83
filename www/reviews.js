// @ts-check
// A game review as the page keeps it, and the compact form it is stored in
// with the game in the archive (see records.js).
//
// A review, as the worker reports it (crates/web/src/review.rs) and the
// controller holds it: `{record, status, total, moves, x, o, puzzles}`,
// where each of `moves` is `{ply, played, best, line, mark, loss, xBefore,
// xAfter}`, `x`, `o` are `{accuracy, counts}` (counts of best, good,
// inaccuracy, mistake, blunder) and each of `puzzles` (the positions where
// the mover had one move that wins or saves and played another) is `{ply,
// mover, goal, played, solution, status}`: after `ply` moves, `mover` ('x'
// | 'o') to find the move that reaches `goal` ('win' | 'save'), the first
// of the `solution` line; `status` is 'open', 'solved' or 'revealed'.
// Expected scores and losses are 0-1, X's or the mover's; a draw is 0.5.
//
// Stored, version 1 (JSON beside the entry's record, of the same moves):
//   { v: 1,
//     marks: "00120",        one digit a move, the index in MARKS
//     x: [500, 512, ...],    X's expected score per mille: before move 1,
//                            then after each move (length moves + 1)
//     loss: [0, 0, 31, ...], the mover's loss per mille, one a move
//     best: "e5d4...",       the engine's move, two characters a move
//     lines: ["e5d4c3", ...],its line, at most LINE_MOVES moves, one a move
//     acc: [982, 959],       X's and O's accuracy in tenths of a percent
//     counts: [[20, 7, 1, 2, 0], [20, 6, 1, 1, 1]],
//     puzzles: [[1, "s", "b2c3", 1], ...] }
//                            each: its ply, "w" (win) or "s" (save), the
//                            solution (at most LINE_MOVES moves) and its
//                            status, the index in PUZZLE_STATUS; optional
//                            (reviews stored before puzzles have none)
// Anything else reads as no review: the game itself is kept either way.

/** The marks, best first, as core names them (search::review::Mark). */
export const MARKS = Object.freeze(['best', 'good', 'inaccuracy', 'mistake', 'blunder']);
/** What a puzzle's player has done with it, as stored (its index) and shown. */
export const PUZZLE_STATUS = Object.freeze(['open', 'solved', 'revealed']);
const GOALS = Object.freeze({ w: 'win', s: 'save' });
/** How many moves of each better line are kept. */
export const LINE_MOVES = 8;
const VERSION = 1;
const MOVE = /^[a-i][1-9]$/;
const MOVES = /^(?:[a-i][1-9])*$/;
const LINE = new RegExp(`^(?:[a-i][1-9]){0,${LINE_MOVES}}$`);

/** The number of move `ply` (1-based) as move lists print it: "16." before X's move, "16…" before O's. */
export const moveNumber = (ply) => `${Math.ceil(ply / 2)}${ply % 2 === 1 ? '.' : '…'}`;

const mille = (v) => Math.round(Math.min(1, Math.max(0, v)) * 1000);
const pairs = (text) => text.match(/../g) ?? [];

/** The moves of `record` ("kind:e5d4..."), two characters each, as a count. */
function moveCount(record) {
  const moves = record.slice(record.indexOf(':') + 1);
  return MOVES.test(moves) ? moves.length / 2 : -1;
}

/** The stored form of a finished `review` (status 'done'). */
export function packReview(review) {
  const { moves, x, o } = review;
  const summary = (s) => ({ acc: Math.round(s.accuracy * 10), counts: s.counts.slice(0, 5) });
  const [sx, so] = [summary(x), summary(o)];
  return {
    v: VERSION,
    marks: moves.map((m) => MARKS.indexOf(m.mark)).join(''),
    x: [mille(moves[0]?.xBefore ?? 0.5), ...moves.map((m) => mille(m.xAfter))],
    loss: moves.map((m) => mille(m.loss)),
    best: moves.map((m) => m.best).join(''),
    lines: moves.map((m) => m.line.slice(0, LINE_MOVES).join('')),
    acc: [sx.acc, so.acc],
    counts: [sx.counts, so.counts],
    puzzles: (review.puzzles ?? []).map((p) => [
      p.ply,
      p.goal === 'win' ? 'w' : 's',
      p.solution.slice(0, LINE_MOVES).join(''),
      Math.max(0, PUZZLE_STATUS.indexOf(p.status)),
    ]),
  };
}

const wholeIn = (v, max) => Number.isInteger(v) && v >= 0 && v <= max;
const permilles = (list, length) =>
  Array.isArray(list) && list.length === length && list.every((v) => wholeIn(v, 1000));
const counts = (list) => Array.isArray(list) && list.length === 5 && list.every((v) => wholeIn(v, 81));

/** Whether `list` is stored puzzles of a game of `n` moves: each of a position before a move, in order, once. */
function puzzleList(list, n) {
  if (!Array.isArray(list)) return false;
  return list.every((p, i) => {
    if (!Array.isArray(p) || p.length !== 4) return false;
    const [ply, goal, line, status] = p;
    const after = i === 0 || ply > list[i - 1][0];
    return (
      wholeIn(ply, n - 1) && after && Object.hasOwn(GOALS, goal) && typeof line === 'string' &&
      line.length > 0 && LINE.test(line) && wholeIn(status, PUZZLE_STATUS.length - 1)
    );
  });
}

/** `stored` if it is a version-1 review of `record`'s moves, else null. */
export function cleanReview(stored, record) {
  if (!stored || typeof stored !== 'object' || stored.v !== VERSION) return null;
  const n = moveCount(record);
  const { marks, x, loss, best, lines, acc } = stored;
  if (n < 1 || typeof marks !== 'string' || !new RegExp(`^[0-4]{${n}}$`).test(marks)) return null;
  if (!permilles(x, n + 1) || !permilles(loss, n) || !permilles(acc, 2)) return null;
  if (typeof best !== 'string' || best.length !== 2 * n || !MOVES.test(best)) return null;
  if (!Array.isArray(lines) || lines.length !== n || !lines.every((l) => typeof l === 'string' && LINE.test(l))) {
    return null;
  }
  if (!Array.isArray(stored.counts) || stored.counts.length !== 2 || !stored.counts.every(counts)) return null;
  const { puzzles } = stored;
  if (puzzles !== undefined && !puzzleList(puzzles, n)) return null;
  const clean = { v: VERSION, marks, x: x.slice(), loss: loss.slice(), best, lines: lines.slice(), acc: acc.slice(), counts: stored.counts.map((c) => c.slice()) };
  if (puzzles !== undefined) clean.puzzles = puzzles.map((p) => p.slice());
  return clean;
}

/** The review of `record` (whose moves are `moves`, in notation) from its stored form, checked first; null if unusable. */
export function unpackReview(stored, record, moves) {
  const clean = cleanReview(stored, record);
  if (!clean || clean.marks.length !== moves.length || !moves.every((m) => MOVE.test(m))) return null;
  const best = pairs(clean.best);
  const summary = (i) => ({ accuracy: clean.acc[i] / 10, counts: clean.counts[i] });
  return {
    record,
    status: 'done',
    total: moves.length,
    moves: moves.map((played, i) => ({
      ply: i + 1,
      played,
      best: best[i],
      line: pairs(clean.lines[i]),
      mark: MARKS[Number(clean.marks[i])],
      loss: clean.loss[i] / 1000,
      xBefore: clean.x[i] / 1000,
      xAfter: clean.x[i + 1] / 1000,
    })),
    x: summary(0),
    o: summary(1),
    // Sides alternate from X, so the mover is the ply's parity.
    puzzles: (clean.puzzles ?? []).map(([ply, goal, line, status]) => ({
      ply,
      mover: ply % 2 === 0 ? 'x' : 'o',
      goal: GOALS[goal],
      played: moves[ply],
      solution: pairs(line),
      status: PUZZLE_STATUS[status],
    })),
  };
}
