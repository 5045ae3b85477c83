// @ts-check
// The room's chat, the page's side (docs/protocol.md, "Chat"): the lines
// of the chat this connection reads (the players' from a seat, the
// watchers' from the stands) live in `state.online.chat`, the latest
// CHAT_KEPT as the server keeps them; saying a line and reporting one go
// to the server, which sends the line back to everyone reading that chat,
// this page included. What it needs of online.js: `state`, `send(message)`
// and `changed()`, told when lines come.

/** Chat lines kept (the server's `chat::KEPT`). */
const CHAT_KEPT = 50;

/**
 * @param {{ state: any, send: (message: import('../protocol').ClientMessage) => boolean, changed: () => void }} deps
 */
export function createChat({ state, send, changed }) {
  return {
    /**
     * Lines came (`whole`: every line the chat keeps, after joining).
     * @param {import('../protocol').ChatLine[]} lines
     * @param {boolean} whole
     */
    came(lines, whole) {
      if (!state.online || !Array.isArray(lines)) return;
      state.online.chat = (whole ? lines : [...state.online.chat, ...lines]).slice(-CHAT_KEPT);
      changed();
    },
    /**
     * Says a preset or typed words; false when not connected.
     * @param {{ preset?: import('../protocol').ChatPreset, text?: string }} said
     */
    say: ({ preset, text }) => send({ type: 'chat', preset: preset ?? null, text: text ?? null }),
    /** Reports line `id` of this chat. */
    report: (/** @type {number} */ id) => send({ type: 'reportChat', id }),
  };
}
