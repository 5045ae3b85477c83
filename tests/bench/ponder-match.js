// The browser's pondering, measured as a match: in headless Chromium, two
// copies of the page's AI worker (www/worker.js) play Ultimate at the same
// level and time a move. One asks with `ponder: true`, as the page does when
// "Hard and Master think on your time" is on, and so thinks on while the
// other side moves; the other never ponders. The side without pondering
// stands in for a person: each of its turns lasts THINK_MS (it answers
// within its own budget, then the rest of the turn passes), so the ponderer
// has that long to think on, as it would while a person thinks.
//
// Games come in pairs from the same random two-ply opening, each side
// playing X once. Prints a line per game and then
//   result GAMES WINS DRAWS LOSSES SCORE ELO LOW HIGH
// from the ponderer's side (LOW and HIGH: the 95% interval, as `uttt match`
// computes it), and the ponderer's search depths on the moves its pondering
// predicted and on the others.
//
// Usage: node tests/bench/ponder-match.js URL GAMES [LEVEL] [BUDGET_MS] [THINK_MS] [SEED] [RULES]
// URL is the served site (`cargo xtask serve` prints it); the defaults are
// hard, the level's budget in the page (Hard 1000 ms, Master 3000 ms),
// 5000 ms, seed 1, standard. `cargo xtask ponder-match` builds and serves
// the site and calls this.
//
// Both workers share the machine: the ponderer thinks on while the other
// side searches (for its first BUDGET_MS of each turn), where a person's
// think would leave the machine to the ponderer alone.

import { chromium } from 'playwright-core';
import { args, executablePath } from '../support/browser.js';

const usage = 'usage: node tests/bench/ponder-match.js URL GAMES [LEVEL] [BUDGET_MS] [THINK_MS] [SEED] [RULES]';
const [url, gamesText, level = 'hard', budgetArg, thinkText = '5000', seedText = '1', rules = 'standard'] =
  process.argv.slice(2);
/** Each level's time a move in the page (crates/core/src/search/level.rs). */
const PAGE_BUDGET_MS = { hard: 1000, master: 3000 };
const budgetText = budgetArg ?? String(PAGE_BUDGET_MS[level] ?? '');
const whole = (text, max) => /^\d+$/.test(text ?? '') && Number(text) >= 1 && Number(text) <= max;
if (!url || !whole(gamesText, 1000) || !whole(budgetText, 60000) || !whole(thinkText, 600000)
  || !whole(seedText, 2 ** 31) || !['hard', 'master'].includes(level) || !['standard', 'tiebreak'].includes(rules)) {
  console.error(usage);
  console.error('GAMES 1-1000, LEVEL hard or master, BUDGET_MS 1-60000, THINK_MS 1-600000, SEED from 1, RULES standard or tiebreak');
  process.exit(2);
}
const games = Number(gamesText);
const budgetMs = Number(budgetText);
const thinkMs = Math.max(Number(thinkText), budgetMs);

/**
 * Plays one game in the page: the ponderer is X when `pondererIsX`. Runs in
 * the page (page.evaluate), so it holds everything it uses.
 */
async function playInPage({ opening, pondererIsX, level, budgetMs, thinkMs, rules }) {
  const { default: init, WebGame } = await import(new URL('www/pkg/uttt_page.js', document.baseURI).href);
  await init();
  const pause = (ms) => new Promise((resolve) => setTimeout(resolve, ms));
  // Every step has a deadline, so a stuck worker ends the run with an error.
  const within = (ms, promise, what) => Promise.race([
    promise,
    pause(ms).then(() => { throw new Error(`${what} took over ${ms} ms`); }),
  ]);
  const spawn = async () => {
    const worker = new Worker(new URL('www/worker.js', document.baseURI), { type: 'module' });
    await within(20000, next(worker, (m) => m.type === 'ready'), 'loading the worker');
    return worker;
  };
  function next(worker, wanted) {
    return new Promise((resolve, reject) => {
      const done = () => {
        worker.removeEventListener('message', on);
        worker.removeEventListener('error', crashed);
      };
      const on = (event) => {
        if (event.data && event.data.type === 'fatal') {
          done();
          reject(new Error(`the worker could not load: ${event.data.message}`));
        } else if (wanted(event.data)) {
          done();
          resolve(event.data);
        }
      };
      const crashed = (event) => {
        done();
        reject(new Error(`the worker crashed: ${event.message}`));
      };
      worker.addEventListener('message', on);
      worker.addEventListener('error', crashed);
    });
  }
  let nextId = 1;
  async function search(worker, text, ponder) {
    const id = nextId;
    nextId += 1;
    const done = next(worker, (m) => (m.type === 'result' || m.type === 'error') && m.id === id);
    worker.postMessage({ type: 'search', id, text, level, budgetMs, ponder });
    const end = await within(budgetMs + 5000, done, 'a search');
    if (end.type !== 'result') throw new Error(`the worker answered ${JSON.stringify(end)}`);
    return end.reply;
  }

  const ponderer = await spawn();
  const plain = await spawn();
  const game = new WebGame('ultimate', rules);
  try {
    for (const [board, cell] of opening) game.play(board, cell);
    // The ponderer's expected reply (the second move of its line), and its
    // depths on the moves that reply came true and on the others.
    let expected = null;
    const hitDepths = [];
    const missDepths = [];
    let plainDepths = [];
    for (;;) {
      const view = game.view();
      if (view.outcome) {
        return { outcome: view.outcome, plies: view.ply, hitDepths, missDepths, plainDepths };
      }
      const text = game.record();
      const ponderersTurn = (view.sideToMove === 'x') === pondererIsX;
      let reply;
      if (ponderersTurn) {
        const hit = expected !== null && view.moves.at(-1) === expected;
        reply = await search(ponderer, text, true);
        (hit ? hitDepths : missDepths).push(reply.depth);
        expected = reply.pv.length > 1 ? reply.pv[1] : null;
      } else {
        const started = performance.now();
        reply = await search(plain, text, false);
        plainDepths.push(reply.depth);
        await pause(thinkMs - (performance.now() - started));
      }
      game.play(reply.board, reply.cell);
    }
  } finally {
    game.free();
    ponderer.terminate();
    plain.terminate();
  }
}

/** A small seeded generator (mulberry32), so a seed always gives the same openings. */
function random(seed) {
  let state = seed >>> 0;
  return () => {
    state = (state + 0x6d2b79f5) >>> 0;
    let t = state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

/**
 * Two random plies: the first anywhere, the second in the board it sends
 * to, drawn again when that is the first move's own cell.
 */
function opening(next) {
  const first = Math.floor(next() * 81);
  const [board, cell] = [Math.floor(first / 9), first % 9];
  let second = Math.floor(next() * 9);
  while (cell === board && second === cell) second = Math.floor(next() * 9);
  return [[board, cell], [cell, second]];
}

/** The score's Elo, and its 95% interval from the per-game variance (as `uttt match`). */
function elo(wins, draws, losses) {
  const n = wins + draws + losses;
  const s = (wins + 0.5 * draws) / n;
  const variance = (wins * (1 - s) ** 2 + draws * (0.5 - s) ** 2 + losses * s ** 2) / n;
  const se = Math.sqrt(variance / n);
  const of = (score) => (score > 0 && score < 1 ? -400 * Math.log10(1 / score - 1) : NaN);
  return { score: s, elo: of(s), low: of(s - 1.96 * se), high: of(s + 1.96 * se) };
}

const median = (values) => {
  if (values.length === 0) return NaN;
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.floor(sorted.length / 2)];
};

const browser = await chromium.launch({ executablePath, args, headless: true });
try {
  const page = await browser.newPage();
  const errors = [];
  page.on('pageerror', (e) => errors.push(e.message));
  page.on('console', (m) => m.type() === 'error' && errors.push(m.text()));
  // A bare document of the site's origin, not the game page, whose own
  // worker would analyse the position on a third thread. Its URL is
  // answered here, without a request; the workers and the wasm come from
  // the site.
  const blank = new URL('ponder-match.html', url).href;
  await page.route(blank, (route) => route.fulfill({
    contentType: 'text/html',
    body: '<!doctype html><title>ponder match</title><link rel="icon" href="data:,">',
  }));
  await page.goto(blank);
  const next = random(Number(seedText));
  let [wins, draws, losses] = [0, 0, 0];
  const hits = [];
  const misses = [];
  const plain = [];
  let plies = 0;
  const started = Date.now();
  let moves = null;
  for (let g = 0; g < games; g += 1) {
    if (g % 2 === 0) moves = opening(next);
    const pondererIsX = g % 2 === 0;
    const r = await page.evaluate(playInPage, { opening: moves, pondererIsX, level, budgetMs, thinkMs, rules });
    if (errors.length > 0) throw new Error(`the page reported errors: ${errors.join('; ')}`);
    const won = r.outcome === 'draw' ? 0 : (r.outcome === 'x') === pondererIsX ? 1 : -1;
    if (won > 0) wins += 1;
    else if (won < 0) losses += 1;
    else draws += 1;
    hits.push(...r.hitDepths);
    misses.push(...r.missDepths);
    plain.push(...r.plainDepths);
    plies += r.plies;
    const side = pondererIsX ? 'X' : 'O';
    const verdict = won > 0 ? 'won' : won < 0 ? 'lost' : 'drew';
    console.log(`game ${g + 1}/${games}: ponderer as ${side} ${verdict} in ${r.plies} plies `
      + `(predicted ${r.hitDepths.length} of ${r.hitDepths.length + r.missDepths.length}); `
      + `total +${wins} =${draws} -${losses}, ${Math.round((Date.now() - started) / 1000)} s`);
  }
  const e = elo(wins, draws, losses);
  const fixed = (x) => {
    if (!Number.isFinite(x)) return 'unbounded';
    const whole = Math.round(x) + 0;
    return `${whole >= 0 ? '+' : ''}${whole}`;
  };
  console.log(`browser ${browser.version()}; ${level} at ${budgetMs} ms a move, ${rules} rules, the other side's turns ${thinkMs} ms, seed ${seedText}`);
  console.log(`result ${games} ${wins} ${draws} ${losses} ${(100 * e.score).toFixed(1)}% ${fixed(e.elo)} ${fixed(e.low)} ${fixed(e.high)}`);
  console.log(`ponderer: predicted ${hits.length} of ${hits.length + misses.length} replies; `
    + `median depth ${median(hits)} on those, ${median(misses)} on the others; `
    + `the side without pondering: median depth ${median(plain)}; ${(plies / games).toFixed(1)} plies a game`);
} finally {
  await browser.close();
}
