// @ts-check
// The page's connection to the game server (uttt-server, docs/protocol.md):
// one WebSocket, the frames of protocol version 1, the seat tokens kept per
// room, and reconnection with backoff after a drop. It decides no rule and
// keeps no game: it hands the server's room state to whoever listens.

const VERSION = 1;
const TOKENS_KEY = 'uttt.online';
/** Seats remembered at most; the oldest are forgotten first. */
const MAX_TOKENS = 20;
/** Waits between reconnection attempts, in milliseconds; the last repeats. */
const BACKOFF_MS = [250, 500, 1000, 2000, 4000, 8000];

/** The server's WebSocket address: the page's `uttt-server` meta tag, else this site's `ws`. */
export function serverUrl() {
  const meta = /** @type {HTMLMetaElement | null} */ (document.querySelector('meta[name="uttt-server"]'))?.content?.trim();
  const url = new URL(meta || 'ws', meta ? undefined : window.location.href);
  if (url.protocol === 'http:') url.protocol = 'ws:';
  if (url.protocol === 'https:') url.protocol = 'wss:';
  return url.href;
}

/**
 * The seats this browser holds, oldest first: `{room, token}` and what
 * running.js notes of each (`live`, `side`, `at`).
 */
export function readTokens() {
  try {
    const data = JSON.parse(localStorage.getItem(TOKENS_KEY) ?? 'null');
    if (data && data.v === 1 && Array.isArray(data.seats)) {
      const code = /^[0-9a-z]{1,32}$/;
      return data.seats.filter((s) => s && code.test(s.room) && code.test(s.token));
    }
  } catch {
    // Unreadable: no seat is remembered.
  }
  return [];
}

/** The token this browser holds for `room`, if any. */
export function tokenFor(room) {
  return readTokens().find((s) => s.room === room)?.token ?? null;
}

/** Stores `seats` (readTokens' form), keeping the newest MAX_TOKENS. */
export function writeTokens(seats) {
  try {
    localStorage.setItem(TOKENS_KEY, JSON.stringify({ v: 1, seats: seats.slice(-MAX_TOKENS) }));
  } catch {
    // Not kept: a reload comes back as a spectator.
  }
}

function keepToken(room, token) {
  const seats = readTokens();
  // The same seat again keeps what was noted of its game.
  const known = seats.find((s) => s.room === room && s.token === token);
  writeTokens([...seats.filter((s) => s.room !== room), { ...known, room, token }]);
}

/** Forgets this browser's seat in `room` (the room is gone). */
function forgetToken(room) {
  writeTokens(readTokens().filter((s) => s.room !== room));
}

/**
 * One session with the server. `on` holds the listeners:
 * `joined({room, role, token})`, `state(roomState, serverTime)`,
 * `spectators(count)` when only the count of watchers changed,
 * `seeking({seek, waiting, rating, provisional})` while waiting in a Play
 * now pool, `seekEnded()` once a seek is cancelled, `challenging({id})`
 * and `challengeEnded({id, reason})` for a challenge,
 * `error({code, message})` for a refused frame, and
 * `connection(status)` with status 'connecting' | 'open' | 'reconnecting'
 * | 'restarting' (reconnecting after the server said it restarts, 1012)
 * | 'unavailable' (never reached the server) | 'refused' (the server closed
 * the connection for good: too many refused frames) | 'closed' (left).
 */
export class OnlineSession {
  constructor(on, url = serverUrl()) {
    this.on = on;
    this.url = url;
    this.socket = null;
    this.room = null;
    this.pendingCreate = null;
    /** The Play now seek, kept until its pairing's room is known (a drop asks again). */
    this.pendingSeek = null;
    /** A first frame other than these (a challenge, or the accept or decline of one), kept as pendingSeek is. */
    this.pendingStart = null;
    this.attempt = 0;
    this.everOpen = false;
    /** Why the connection is being restored: 'reconnecting', or 'restarting' (the server's 1012). */
    this.restoring = 'reconnecting';
    this.left = false;
    this.timer = 0;
  }

  /** Opens a room with `options` (see docs/protocol.md). */
  create(options) {
    this.pendingCreate = options;
    this.connect();
  }

  /** Waits in the Play now pool of `seek` (see docs/protocol.md) until paired. */
  seek(seek) {
    this.pendingSeek = seek;
    this.connect();
  }

  /** Connects and sends `message` first (docs/protocol.md, "Challenges"). */
  start(message) {
    this.pendingStart = message;
    this.connect();
  }

  /** Enters room `room`, back into this browser's seat if it holds one. */
  join(room) {
    this.room = room;
    this.connect();
  }

  connect() {
    this.on.connection(this.everOpen ? this.restoring : 'connecting');
    let socket;
    try {
      socket = new WebSocket(this.url);
    } catch {
      this.on.connection('unavailable');
      return;
    }
    this.socket = socket;
    let opened = false;
    socket.addEventListener('open', () => {
      opened = true;
      this.everOpen = true;
      this.attempt = 0;
      this.on.connection('open');
      if (this.room) {
        this.send({ type: 'join', room: this.room, token: tokenFor(this.room) });
      } else if (this.pendingCreate) {
        // Kept until the room is known, so a drop before the answer asks again.
        this.send({ type: 'create', options: this.pendingCreate });
      } else if (this.pendingSeek) {
        this.send({ type: 'seek', seek: this.pendingSeek });
      } else if (this.pendingStart) {
        this.send(this.pendingStart);
      }
    });
    socket.addEventListener('message', (event) => this.receive(event.data));
    socket.addEventListener('close', (event) => {
      if (this.socket !== socket) return;
      this.socket = null;
      if (this.left) return;
      if (!this.everOpen) {
        this.on.connection('unavailable');
        return;
      }
      // 1008: the server's policy close; asking again would be refused too.
      if (event.code === 1008) {
        this.left = true;
        this.on.connection('refused');
        return;
      }
      const wait = BACKOFF_MS[Math.min(this.attempt, BACKOFF_MS.length - 1)];
      this.attempt += 1;
      // Only a connection that was open says why it ended: an attempt that
      // found no server (a restart in progress) keeps the reason given.
      if (opened) this.restoring = event.code === 1012 ? 'restarting' : 'reconnecting';
      this.on.connection(this.restoring);
      this.timer = setTimeout(() => this.connect(), wait);
    });
  }

  receive(text) {
    let message;
    try {
      message = JSON.parse(text);
    } catch {
      return;
    }
    if (!message || message.v !== VERSION) return;
    switch (message.type) {
      case 'joined':
        this.room = message.room;
        this.pendingCreate = null;
        this.pendingSeek = null;
        this.pendingStart = null;
        if (message.token) keepToken(message.room, message.token);
        this.on.joined(message);
        break;
      case 'state':
        this.on.state(message.state, message.serverTime);
        break;
      case 'spectators':
        this.on.spectators(message.count);
        break;
      case 'seeking':
        this.on.seeking(message);
        break;
      case 'seekEnded':
        this.pendingSeek = null;
        this.on.seekEnded();
        break;
      case 'challenging':
        this.on.challenging(message);
        break;
      case 'challengeEnded':
        this.pendingStart = null;
        this.on.challengeEnded(message);
        break;
      case 'chat':
        this.on.chat([message.line], false);
        break;
      case 'chatHistory':
        this.on.chat(message.lines, true);
        break;
      case 'conditional':
        this.on.conditional(message.lines);
        break;
      case 'error':
        // Back with a token the server no longer knows: watch instead.
        if (message.code === 'bad-token' && this.room) {
          this.send({ type: 'join', room: this.room, token: null });
          return;
        }
        // The room is gone, and its seat with it.
        if (message.code === 'no-such-room' && this.room) forgetToken(this.room);
        this.on.error(message);
        break;
      default:
        break;
    }
  }

  /** Sends `message` with the protocol version; false when not connected. */
  send(message) {
    if (!this.socket || this.socket.readyState !== WebSocket.OPEN) return false;
    this.socket.send(JSON.stringify({ v: VERSION, ...message }));
    return true;
  }

  /**
   * Leaves the room (a game in play is given up) and closes. The seat's
   * token is kept: the server still knows it, so the link brings the
   * player back to their seat, not to watch their own game.
   */
  leave() {
    this.send({ type: 'leave' });
    this.close();
  }

  /** Closes without leaving (the seat stays this browser's). */
  close() {
    this.left = true;
    clearTimeout(this.timer);
    const socket = this.socket;
    this.socket = null;
    if (socket) socket.close();
    this.on.connection('closed');
  }
}
