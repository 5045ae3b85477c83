// @ts-check
// What a room state (crates/protocol's RoomState) means for one client:
// the side its role plays, whether that side may move, and the room's
// phase for the page (`data-online-state`). These are the protocol's own
// rules, RoomState::side_of and RoomState::awaits, read here once for the
// page; tests/unit/room.test.js holds them to the protocol's tests.

/** @typedef {import('../protocol').RoomState} RoomState */
/** @typedef {import('../protocol').Role} Role */
/** @typedef {import('../protocol').Side} Side */

/**
 * The side `role` plays in `room`, or null for a spectator (RoomState::side_of).
 * @param {RoomState} room
 * @param {Role | null} role
 * @returns {Side | null}
 */
export function sideOf(room, role) {
  const seat = role === 'seat0' ? 0 : role === 'seat1' ? 1 : null;
  if (seat === null) return null;
  return seat === room.xSeat ? 'x' : 'o';
}

/**
 * Whether `side` may move now: both seats taken, the game on, its turn (RoomState::awaits).
 * @param {RoomState} room
 * @param {Side | null} side
 */
export function awaits(room, side) {
  return side !== null && room.result === null && room.x !== 'empty' && room.o !== 'empty' && room.toMove === side;
}

/**
 * The room's phase as the page shows it (`data-online-state`): 'connecting'
 * until the first state, then 'waiting' (a seat is empty), 'playing' or
 * 'over'; 'reconnecting' while the connection is being restored (also
 * after the server said it restarts: connection 'restarting').
 * @param {RoomState | null} room
 * @param {string} connection
 * @returns {'connecting' | 'reconnecting' | 'waiting' | 'playing' | 'over'}
 */
export function phaseOf(room, connection) {
  if (connection === 'reconnecting' || connection === 'restarting') return 'reconnecting';
  if (!room) return 'connecting';
  if (room.result) return 'over';
  if (room.x === 'empty' || room.o === 'empty') return 'waiting';
  return 'playing';
}

/**
 * Whether the opponent of `side` is in the room now (their seat connected):
 * a rematch needs someone there to accept it.
 * @param {RoomState} room
 * @param {Side} side
 */
export function opponentHere(room, side) {
  return (side === 'x' ? room.o : room.x) === 'connected';
}
