// The views' logic without a page: which view a hash asks for
// (views.js), what an archived game was for one of its players
// (ratings.js), the fifteen performances (api.js), and that a view's
// address is never read as a record to open (share.js). Run by
// `cargo xtask test` (its unit layer) as `node --test tests/unit/`.

import { test } from 'node:test';
import assert from 'node:assert/strict';
import { isRoute, matchRoute } from '../../www/views.js';
import { gameFor, resultText, perfName, changeText } from '../../www/ratings.js';
import { PERFS, profileHash, leaderboardHash } from '../../www/api.js';
import { recordFromHash } from '../../www/share.js';

const ROUTES = ['#/@/', '#/leaderboard/'];

test('a hash is a route when it starts with #/, and the longest prefix wins', () => {
  assert.equal(isRoute('#/@/Ann'), true);
  assert.equal(isRoute('#ultimate-standard:e5'), false);
  assert.equal(isRoute(''), false);
  assert.deepEqual(matchRoute('#/@/Ann', ROUTES), { prefix: '#/@/', rest: 'Ann' });
  assert.deepEqual(matchRoute('#/leaderboard/', ROUTES), { prefix: '#/leaderboard/', rest: '' });
  assert.deepEqual(matchRoute('#/leaderboard/x', [...ROUTES, '#/leader']), { prefix: '#/leaderboard/', rest: 'x' });
  assert.equal(matchRoute('#/nowhere', ROUTES), null);
  // Decoded; a stray '%' is handed on as it is.
  assert.deepEqual(matchRoute(profileHash('Ann Lee'), ROUTES), { prefix: '#/@/', rest: 'Ann Lee' });
  assert.deepEqual(matchRoute('#/@/50%', ROUTES), { prefix: '#/@/', rest: '50%' });
});

test("a view's address is not a record to open", () => {
  assert.equal(recordFromHash('#/@/Ann'), null);
  assert.equal(recordFromHash(leaderboardHash('classic-blitz')), null);
  assert.equal(recordFromHash('#classic:b2'), 'classic:b2');
});

test('fifteen performances: three games at five speeds, in the server order', () => {
  assert.equal(PERFS.length, 15);
  assert.equal(new Set(PERFS).size, 15);
  assert.deepEqual(PERFS.slice(0, 5), ['ultimate-bullet', 'ultimate-blitz', 'ultimate-rapid', 'ultimate-classical', 'ultimate-correspondence']);
  assert.equal(PERFS[14], 'classic-correspondence');
  assert.equal(perfName('tiebreak-rapid'), 'Tie-break · Rapid');
});

const game = {
  id: 7, perf: 'classic-blitz', rated: true, x: 'SwiftOtter482', o: 'CalmHeron17', record: 'classic:b2a1c1b1a3',
  result: { winner: 'x', reason: 'won' }, xBefore: 1500, xAfter: 1662.3, oBefore: 1500, oAfter: 1337.7, ended: 0,
};

test("an archived game as each player had it: side, opponent, outcome, ratings", () => {
  assert.deepEqual(gameFor(game, 'SwiftOtter482'), { side: 'x', opponent: 'CalmHeron17', outcome: 'win', reason: 'won', before: 1500, after: 1662.3 });
  // Names are one whatever their case.
  assert.deepEqual(gameFor(game, 'calmheron17'), { side: 'o', opponent: 'SwiftOtter482', outcome: 'loss', reason: 'won', before: 1500, after: 1337.7 });
  const draw = { ...game, rated: false, result: { winner: null, reason: 'agreed' }, xBefore: null, xAfter: null, oBefore: null, oAfter: null, x: null };
  assert.deepEqual(gameFor(draw, 'CalmHeron17'), { side: 'o', opponent: null, outcome: 'draw', reason: 'agreed', before: null, after: null });
});

test('results and changes in words', () => {
  assert.equal(resultText('win', 'time'), 'Won on time');
  assert.equal(resultText('loss', 'resigned'), 'Resigned');
  assert.equal(resultText('draw', 'agreed'), 'Draw agreed');
  // A reason the page does not know yet still says who won.
  assert.equal(resultText('loss', 'abandoned'), 'Lost');
  assert.equal(resultText('draw', 'abandoned'), 'Draw');
  assert.equal(changeText(162.3), '+162');
  assert.equal(changeText(-162.3), '−162');
  assert.equal(changeText(0.2), '0');
});
