// @ts-check
// The Online tab (#online-host): create a room (game, rules, colour,
// clock), pass the invitation link on, and the room's own buttons (resign,
// draw, rematch, leave); the players' clocks in the chips; and joining the
// room an invitation link (`?room=CODE`) names. The game itself goes
// through the controller (onlineEnter ... onlineLeave), which the server's
// room states drive.
//
// The page root carries `data-online-state`: connecting | waiting |
// playing | reconnecting | over, or unavailable when no server answers;
// no attribute when not online.
//
// What it says when online play cannot happen is for players: that they
// can still play here, or that they are offline; how to run a server is in
// the README.

import { t, onLangChange } from './i18n.js';
import { el } from './dom.js';
import { copyText } from './share.js';
import { OnlineSession } from './online.js';

/** The clocks offered: none, then seconds at the start + seconds a move. */
const CLOCKS = [null, [60, 1], [180, 2], [300, 0], [600, 5]];
/** A clock under this many milliseconds is shown as running low. */
const LOW_MS = 20_000;
const ROOM_CODE = /^[0-9a-z]{1,32}$/;

function clockLabel(clock) {
  if (!clock) return t('online.noClock');
  const [initial, increment] = clock;
  return t('online.clockPreset', { minutes: initial / 60, seconds: increment });
}

/** `ms` as m:ss (or 0:ss.s under ten seconds). */
export function clockText(ms) {
  const total = Math.max(0, ms);
  if (total < 10_000) return `0:0${(Math.floor(total / 100) / 10).toFixed(1)}`;
  const seconds = Math.ceil(total / 1000);
  return `${Math.floor(seconds / 60)}:${String(seconds % 60).padStart(2, '0')}`;
}

function select(name, options) {
  const node = el('select', { name, id: `online-${name}` });
  for (const [value, labelKey] of options) node.append(el('option', { value, 'data-label': labelKey }));
  return node;
}

/** The server's refusals a player may meet, by code; any other is said in general terms. */
const REFUSALS = new Set(['no-such-room', 'server-full', 'rate-limited', 'not-your-turn', 'stale-move', 'game-over', 'no-opponent']);

/** A refusal (`{code, message}` from the server) in the player's language. */
export function refusalText(refusal) {
  return t(REFUSALS.has(refusal?.code) ? `online.err.${refusal.code}` : 'online.err.other');
}

/** Whether the browser says it has no network (an unknown answer counts as online). */
const isOffline = () => navigator.onLine === false;

/** The invitation link to room `code` from this page's address. */
export function invitationLink(code, href = window.location.href) {
  const url = new URL(href);
  url.hash = '';
  url.search = '';
  url.searchParams.set('room', code);
  return url.href;
}

/** Builds the Online tab in `host`; `tabs.show('online')` opens it for a link. */
export function initOnline(host, controller, { tabs }) {
  const kind = select('kind', [['ultimate', 'kind.ultimate'], ['classic', 'kind.classic']]);
  const rules = select('rules', [['standard', 'rules.standard'], ['tiebreak', 'rules.tiebreak']]);
  const colour = select('colour', [['random', 'online.colourRandom'], ['x', 'online.colourX'], ['o', 'online.colourO']]);
  const clock = select('clock', CLOCKS.map((c, i) => [String(i), null]));
  const field = (key, control) => el('label', { class: 'field' }, el('span', { 'data-label': key }), control);
  const create = el('button', { type: 'submit', class: 'btn primary', 'data-action': 'online-create' });
  const form = el(
    'form',
    { class: 'settings-form online-form', novalidate: '' },
    field('settings.kind', kind),
    field('settings.rules', rules),
    field('online.colour', colour),
    field('online.clock', clock),
    create,
  );
  const intro = el('p', { class: 'hint' });
  const unavailable = el('p', { class: 'online-unavailable', role: 'status' });

  const link = el('a', { class: 'online-link', 'data-online-link': '', target: '_blank', rel: 'noopener' });
  const copy = el('button', { type: 'button', class: 'btn', 'data-action': 'online-copy' });
  const share = el('button', { type: 'button', class: 'btn', 'data-action': 'online-share' });
  const copied = el('span', { class: 'online-copied', role: 'status' });
  // The server draws the link as a QR code, for a phone's camera.
  const qr = el('img', { class: 'online-qr', width: '160', height: '160', 'data-online-qr': '' });
  const invite = el(
    'div',
    { class: 'online-invite' },
    el('p', { class: 'online-invite-text' }),
    link,
    el('p', { class: 'online-invite-actions' }, copy, share, copied),
    qr,
  );
  const who = el('p', { class: 'online-who' });
  const resign = el('button', { type: 'button', class: 'btn', 'data-action': 'online-resign' });
  const draw = el('button', { type: 'button', class: 'btn', 'data-action': 'online-draw' });
  const decline = el('button', { type: 'button', class: 'btn', 'data-action': 'online-decline' });
  const rematch = el('button', { type: 'button', class: 'btn primary', 'data-action': 'online-rematch' });
  const leave = el('button', { type: 'button', class: 'btn', 'data-action': 'online-leave' });
  const room = el('div', { class: 'online-room' }, who, invite, el('p', { class: 'online-actions' }, resign, draw, decline, rematch, leave));
  const heading = el('h3', { id: 'online-heading' });
  // Why online play cannot happen comes first, where it is seen without scrolling the pane.
  host.replaceChildren(el('section', { 'aria-labelledby': 'online-heading' }, heading, unavailable, intro, form, room));

  let session = null;
  /** Why the last attempt to create or join failed, shown under the form. */
  let problem = null;
  let roomState = null;
  let role = null;
  let connection = null;
  let receivedAt = 0;
  let ticker = 0;

  const mySide = () => {
    const seat = { seat0: 0, seat1: 1 }[role];
    if (seat === undefined || !roomState) return null;
    return seat === roomState.xSeat ? 'x' : 'o';
  };

  const pageState = () => {
    if (connection === 'unavailable') return 'unavailable';
    if (!session) return null;
    if (connection === 'reconnecting') return 'reconnecting';
    if (!roomState) return 'connecting';
    if (roomState.result) return 'over';
    if (roomState.x === 'empty' || roomState.o === 'empty') return 'waiting';
    return 'playing';
  };

  const setRoomInUrl = (code) => {
    const url = new URL(window.location.href);
    if (code) url.searchParams.set('room', code);
    else url.searchParams.delete('room');
    if (url.href !== window.location.href) window.history.replaceState(null, '', url.href);
  };

  const tickClocks = () => {
    const clocks = roomState?.clock;
    for (const side of ['x', 'o']) {
      const node = /** @type {HTMLElement | null} */ (document.querySelector(`[data-clock="${side}"]`));
      if (!node) continue;
      node.hidden = !clocks;
      if (!clocks) continue;
      let ms = side === 'x' ? clocks.xMs : clocks.oMs;
      if (clocks.running === side) ms -= performance.now() - receivedAt;
      const text = clockText(ms);
      if (node.textContent !== text) node.textContent = text;
      node.dataset.low = String(ms < LOW_MS);
    }
    const running = Boolean(clocks?.running) && session !== null;
    if (running && !ticker) ticker = window.setInterval(tickClocks, 100);
    if (!running && ticker) {
      window.clearInterval(ticker);
      ticker = 0;
    }
  };

  let shown = null;
  const render = () => {
    const state = pageState();
    if (state) document.documentElement.dataset.onlineState = state;
    else delete document.documentElement.dataset.onlineState;
    // A game begins (the friend came, or a rematch): bring the board back
    // into view if the page was scrolled down to this tab.
    if (state === 'playing' && shown !== 'playing' && shown !== 'reconnecting') {
      if (document.getElementById('board-frame').getBoundingClientRect().top < 0) window.scrollTo(0, 0);
    }
    shown = state;
    for (const node of host.querySelectorAll('[data-label]')) node.textContent = t(node.dataset.label);
    for (const [i, option] of [...clock.options].entries()) option.textContent = clockLabel(CLOCKS[i]);
    heading.textContent = t('online.title');
    intro.textContent = t('online.intro');
    create.textContent = t('online.create');
    copy.textContent = t('online.copy');
    share.textContent = t('online.share');
    share.hidden = typeof navigator.share !== 'function';
    resign.textContent = t('online.resign');
    decline.textContent = t('online.decline');
    rematch.textContent = t('online.rematch');
    leave.textContent = t('online.leave');
    rules.disabled = kind.value === 'classic';

    form.hidden = session !== null;
    intro.hidden = session !== null;
    const offline = isOffline();
    create.disabled = offline;
    unavailable.hidden = state !== 'unavailable' && !problem && !offline;
    unavailable.textContent = offline ? t('online.offline') : problem ?? t('online.unavailable');
    room.hidden = !session || !roomState;
    if (!roomState) {
      tickClocks();
      return;
    }
    const side = mySide();
    const inPlay = roomState.result === null;
    const seated = roomState.x !== 'empty' && roomState.o !== 'empty';
    const theirOffer = side && roomState.drawOffer && roomState.drawOffer !== side;
    who.textContent = side
      ? t('online.youPlay', { side: side.toUpperCase(), watchers: roomState.spectators })
      : t('online.watching', { watchers: roomState.spectators });
    const href = invitationLink(roomState.room);
    link.href = href;
    link.textContent = href;
    const qrSrc = `qr.svg?text=${encodeURIComponent(href)}`;
    if (qr.getAttribute('src') !== qrSrc) qr.setAttribute('src', qrSrc);
    qr.alt = t('online.qr');
    invite.querySelector('.online-invite-text').textContent = t(seated ? 'online.inviteWatch' : 'online.invite');
    resign.hidden = !side || !inPlay || !seated;
    draw.hidden = !side || !inPlay || !seated;
    draw.textContent = t(theirOffer ? 'online.acceptDraw' : roomState.drawOffer === side ? 'online.drawOffered' : 'online.offerDraw');
    draw.disabled = Boolean(roomState.drawOffer === side);
    decline.hidden = !theirOffer || !inPlay;
    rematch.hidden = !side || inPlay;
    rematch.disabled = roomState.rematch.includes(side);
    rematch.textContent = t(roomState.rematch.includes(side) ? 'online.rematchAsked' : roomState.rematch.length ? 'online.rematchAccept' : 'online.rematch');
    tickClocks();
  };

  /** Back to the form and the local game, saying `why`. */
  const giveUp = (why) => {
    if (session) session.close();
    session = null;
    roomState = null;
    role = null;
    connection = null;
    problem = why;
    controller.onlineLeave();
    setRoomInUrl(null);
    render();
  };

  const start = (begin) => {
    if (session) session.close();
    problem = null;
    roomState = null;
    role = null;
    connection = 'connecting';
    session = new OnlineSession({
      joined: (message) => {
        role = message.role;
        controller.onlineJoined(message.room, message.role);
        setRoomInUrl(message.room);
        render();
      },
      state: (state) => {
        roomState = state;
        receivedAt = performance.now();
        controller.onlineState(state);
        render();
      },
      // Refused before any room was entered (no such room, too many rooms,
      // the server full): nothing to show but the reason.
      error: (message) => (role === null ? giveUp(refusalText(message)) : controller.onlineRefused(refusalText(message))),
      connection: (status) => {
        if (status === 'closed') return;
        if (status === 'refused') {
          giveUp(t('online.closedByServer'));
          return;
        }
        connection = status;
        if (status === 'unavailable') {
          // No server behind this site: back to the local game.
          session = null;
          controller.onlineLeave();
          setRoomInUrl(null);
        } else {
          controller.onlineConnection(status);
        }
        render();
      },
    });
    controller.onlineEnter((message) => session?.send(message) ?? false);
    begin(session);
    render();
  };

  form.addEventListener('submit', (event) => {
    event.preventDefault();
    const preset = CLOCKS[Number(clock.value)] ?? null;
    const options = {
      kind: kind.value,
      rules: kind.value === 'classic' ? 'standard' : rules.value,
      colour: colour.value,
      clock: preset && { initial: preset[0], increment: preset[1] },
    };
    start((s) => s.create(options));
  });
  kind.addEventListener('change', render);
  copy.addEventListener('click', async () => {
    copied.textContent = t((await copyText(link.href)) ? 'online.copied' : 'online.copyFailed');
  });
  share.addEventListener('click', () => {
    navigator.share({ title: t('app.title'), text: t('online.shareText'), url: link.href }).catch(() => {});
  });
  resign.addEventListener('click', () => session?.send({ type: 'resign' }));
  draw.addEventListener('click', () => session?.send({ type: 'offerDraw' }));
  decline.addEventListener('click', () => session?.send({ type: 'declineDraw' }));
  rematch.addEventListener('click', () => session?.send({ type: 'rematch' }));
  leave.addEventListener('click', () => {
    if (!session) return;
    session.leave();
    session = null;
    roomState = null;
    connection = null;
    setRoomInUrl(null);
    controller.onlineLeave();
    render();
  });
  onLangChange(render);
  window.addEventListener('online', render);
  window.addEventListener('offline', render);

  const settings = controller.getState();
  kind.value = settings.kind;
  rules.value = settings.rules;
  render();

  const code = new URLSearchParams(window.location.search).get('room');
  if (code && ROOM_CODE.test(code)) {
    tabs.show('online');
    start((s) => s.join(code));
  }
}
