// @ts-check
// Conditional moves, the page's side (docs/protocol.md, "Conditional
// moves"): the seat's lines as the server last said them live in
// `state.online.conditional` (the server is their one keeper: it plays
// them); setting them sends the whole list. What it needs of online.js:
// `state`, `send(message)` and `changed()`, told when the lines come.

/**
 * @param {{ state: any, send: (message: import('../protocol').ClientMessage) => boolean, changed: () => void }} deps
 */
export function createConditional({ state, send, changed }) {
  return {
    /** The server's word on the seat's lines. @param {import('../protocol').Point[][]} lines */
    came(lines) {
      if (!state.online || !Array.isArray(lines)) return;
      state.online.conditional = lines;
      changed();
    },
    /** Keeps `lines` (all of them; none clears); false when not connected. @param {import('../protocol').Point[][]} lines */
    set: (lines) => send({ type: 'conditional', lines }),
  };
}
