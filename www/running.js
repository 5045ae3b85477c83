// @ts-check
// The online games this browser plays in and last saw running, from what
// the page already keeps: the seats' tokens of online.js ('uttt.online'),
// each with a note of its game (`live`: last seen in play or waiting for
// the opponent; `side`; `at`, when noted). A player who closed the tab
// finds their games here (the game screen's "Return to your game", and any
// view that lists them). The note is what this page last saw: the server
// may have ended the game since (a clock run out), which the room says
// once it is opened again.

import { readTokens, writeTokens } from './online.js';

/**
 * @typedef {{ room: string, side: 'x' | 'o' | null, since: number }} RunningGame
 */

/**
 * The rooms this browser holds a seat in whose game was last seen running,
 * the most recently noted first.
 * @returns {RunningGame[]}
 */
export function runningGames() {
  return readTokens()
    .filter((seat) => seat.live === true)
    .map((seat) => ({ room: seat.room, side: seat.side === 'x' || seat.side === 'o' ? seat.side : null, since: Number(seat.at) || 0 }))
    .sort((a, b) => b.since - a.since);
}

/**
 * Notes what the page saw of `room`'s game: `live` (in play, or waiting
 * for the opponent) and the `side` this browser's seat plays. Written only
 * when it changes, and only for a seat this browser holds.
 * @param {string} room
 * @param {{ live: boolean, side?: 'x' | 'o' | null }} seen
 */
export function noteRoom(room, { live, side = null }) {
  const seats = readTokens();
  const seat = seats.find((s) => s.room === room);
  if (!seat || (seat.live === live && (seat.side ?? null) === side)) return;
  writeTokens(seats.map((s) => (s === seat ? { ...s, live, side, at: Date.now() } : s)));
}
