// @ts-check
// The Online tab (#online-host): create a room (game, rules, colour,
// clock), pass the invitation link on, and the room's own buttons (resign,
// draw, rematch, leave); the players' clocks in the chips; and joining the
// room an invitation link (`?room=CODE`) names. The session and its room
// are features/online.js's (through the controller's onlineCreate ...
// onlineLeave); this pane renders what `controller.onlineRoom()` says,
// whenever the game changes for an online cause, and calls the actions.
//
// The page root carries `data-online-state`: connecting | waiting |
// playing | reconnecting | over, or unavailable when no server answers;
// no attribute when not online.
//
// What it says when online play cannot happen is for players: that they
// can still play here, or that they are offline; how to run a server is in
// the README.

import { t, tn, lang, onLangChange } from './i18n.js';
import { el } from './dom.js';
import { copyText } from './share.js';
import { createPlayNow } from './playnow.js';
import { ratingChange } from './chrome.js';
import { confirmDialog } from './dialog.js';
import { opponentHere } from './features/room.js';
import { accountButton } from './features/account.js';
import { createChatPanel } from './chatpanel.js';
import { createConditionalPanel } from './conditionalpanel.js';
import { daysClockText, timeControl } from './timecontrol.js';

/** The timings offered: none, then seconds at the start + seconds a move, then days a move. */
/** @type {import('./timecontrol.js').Timing[]} */
const TIMINGS = [
  {},
  ...[[60, 1], [180, 2], [300, 0], [600, 5]].map(([initial, increment]) => ({ clock: { initial, increment } })),
  ...[1, 2, 3, 5, 7, 14].map((days) => ({ days })),
];
/** A clock under this many milliseconds is shown as running low... */
const LOW_MS = 20_000;
/** ...a correspondence game's, under this many. */
const LOW_DAYS_MS = 6 * 3_600_000;
const ROOM_CODE = /^[0-9a-z]{1,32}$/;
/** How long Resign waits for its second tap before it stands down. */
const RESIGN_ARMED_MS = 5000;

/**
 * How the form names a timing.
 * @param {import('./timecontrol.js').Timing} timing
 */
function timingOption({ clock, days }) {
  if (clock) return t('online.clockPreset', { minutes: clock.initial / 60, seconds: clock.increment });
  return days ? tn('online.daysPreset', days) : t('online.noClock');
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

/**
 * Builds the Online tab in `host`; `tabs.show('online')` opens it for a
 * link. Returns Play now (playnow.js's `{node, who, render}`), which the
 * Play view shows, and `home`, where the name's row is while it is closed.
 */
export function initOnline(host, controller, { tabs, notify }) {
  const kind = select('kind', [['ultimate', 'kind.ultimate'], ['classic', 'kind.classic']]);
  const rules = select('rules', [['standard', 'rules.standard'], ['tiebreak', 'rules.tiebreak']]);
  const colour = select('colour', [['random', 'online.colourRandom'], ['x', 'online.colourX'], ['o', 'online.colourO']]);
  const clock = select('clock', TIMINGS.map((c, i) => [String(i), null]));
  const ratedRoom = el('input', { type: 'checkbox', name: 'rated', id: 'online-rated' });
  const field = (key, control) => el('label', { class: 'field' }, el('span', { 'data-label': key }), control);
  const create = el('button', { type: 'submit', class: 'btn primary', 'data-action': 'online-create' });
  const form = el(
    'form',
    { class: 'settings-form online-form', novalidate: '' },
    field('settings.kind', kind),
    field('settings.rules', rules),
    field('online.colour', colour),
    field('online.clock', clock),
    el('label', { class: 'option playnow-rated', for: 'online-rated' }, ratedRoom, el('span', { 'data-label': 'online.rated' })),
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
  const room = el('div', { class: 'online-room' }, who, invite, el('p', { class: 'online-actions' }, resign, draw, decline, rematch, leave), createConditionalPanel(controller), createChatPanel(controller));
  const heading = el('h3', { id: 'online-heading' });
  // Play now is shown in the Play view (playview.js); the tab keeps the
  // player's name while the view is closed, and the way to the view.
  const playNow = createPlayNow(controller, { account: accountButton(controller.account, controller.historySync, notify) });
  const openPlay = el('a', { class: 'btn primary online-open-play', href: '#/play', 'data-action': 'online-open-play' });
  const mine = el('div', { class: 'online-me' }, playNow.who, openPlay);
  // Why online play cannot happen comes first, where it is seen without scrolling the pane.
  host.replaceChildren(unavailable, mine, el('section', { 'aria-labelledby': 'online-heading' }, heading, intro, form, room));

  let ticker = 0;
  /** Set while Resign waits for the second tap that confirms it. */
  let resignArmed = 0;
  const disarmResign = () => {
    window.clearTimeout(resignArmed);
    resignArmed = 0;
  };

  const setRoomInUrl = (code) => {
    const url = new URL(window.location.href);
    if (code) url.searchParams.set('room', code);
    else url.searchParams.delete('room');
    if (url.href !== window.location.href) window.history.replaceState(null, '', url.href);
  };

  /** Counts the running clock down from the room's last state, every 100 ms while one runs. */
  const tickClocks = () => {
    const { roomState, receivedAt, inSession } = controller.onlineRoom();
    const clocks = roomState?.clock;
    for (const side of ['x', 'o']) {
      const node = /** @type {HTMLElement | null} */ (document.querySelector(`[data-clock="${side}"]`));
      if (!node) continue;
      node.hidden = !clocks;
      if (!clocks) continue;
      let ms = side === 'x' ? clocks.xMs : clocks.oMs;
      if (clocks.running === side) ms -= performance.now() - receivedAt;
      const byDays = Boolean(roomState?.options.days);
      // A player on vacation: their clock stands still, and says so.
      const away = roomState?.vacation?.find((v) => v.side === side);
      const text = away ? t('online.away') : byDays ? daysClockText(ms) : clockText(ms);
      if (node.textContent !== text) node.textContent = text;
      node.dataset.low = String(!away && ms < (byDays ? LOW_DAYS_MS : LOW_MS));
      if (away) node.dataset.vacation = String(away.until);
      else delete node.dataset.vacation;
      node.title = away ? t('online.awayUntil', { date: new Date(away.until).toLocaleString(lang()) }) : '';
    }
    const running = Boolean(clocks?.running) && inSession;
    if (running && !ticker) ticker = window.setInterval(tickClocks, 100);
    if (!running && ticker) {
      window.clearInterval(ticker);
      ticker = 0;
    }
  };

  let shown = null;
  const render = () => {
    const { phase: state, problem, roomState, side, inSession } = controller.onlineRoom();
    if (state) document.documentElement.dataset.onlineState = state;
    else delete document.documentElement.dataset.onlineState;
    // A game begins (the friend came, or a rematch): bring the board and
    // the status above it back into view if the page was scrolled down to
    // this tab.
    if (state === 'playing' && shown !== 'playing' && shown !== 'reconnecting') {
      const top = (id) => document.getElementById(id).getBoundingClientRect().top;
      if (Math.min(top('board-frame'), top('status-box')) < 0) window.scrollTo(0, 0);
    }
    shown = state;
    playNow.render();
    for (const node of host.querySelectorAll('[data-label]')) node.textContent = t(node.dataset.label);
    for (const [i, option] of [...clock.options].entries()) option.textContent = timingOption(TIMINGS[i]);
    openPlay.textContent = t('online.openPlay');
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
    // A rated game has a clock (the server refuses one without).
    /** @type {HTMLInputElement} */ (ratedRoom).disabled = !timeControl(TIMINGS[Number(clock.value)] ?? {});

    form.hidden = inSession;
    intro.hidden = inSession;
    const offline = isOffline();
    create.disabled = offline;
    unavailable.hidden = state !== 'unavailable' && !problem && !offline;
    unavailable.textContent = t(offline ? 'online.offline' : problem ?? 'online.unavailable');
    room.hidden = !inSession || !roomState;
    if (!roomState) {
      tickClocks();
      return;
    }
    const inPlay = roomState.result === null;
    const seated = roomState.x !== 'empty' && roomState.o !== 'empty';
    const theirOffer = side && roomState.drawOffer && roomState.drawOffer !== side;
    who.textContent = side
      ? t('online.youPlay', { side: side.toUpperCase(), watchers: roomState.spectators })
      : t('online.watching', { watchers: roomState.spectators });
    const stakes = side && inPlay ? roomState.stakes?.[side] : null;
    if (stakes) who.textContent += ` ${t('online.stakes', { win: ratingChange(stakes.win), draw: ratingChange(stakes.draw), loss: ratingChange(stakes.loss) })}`;
    const href = invitationLink(roomState.room);
    link.href = href;
    link.textContent = href;
    const qrSrc = `qr.svg?text=${encodeURIComponent(href)}`;
    if (qr.getAttribute('src') !== qrSrc) qr.setAttribute('src', qrSrc);
    qr.alt = t('online.qr');
    invite.querySelector('.online-invite-text').textContent = t(seated ? 'online.inviteWatch' : 'online.invite');
    // While the connection is down nothing would reach the room: the
    // buttons stay in place, unusable, and the status says why.
    const away = state === 'reconnecting';
    resign.hidden = !side || !inPlay || !seated;
    resign.disabled = away;
    if (resign.hidden || away) disarmResign();
    resign.textContent = t(resignArmed ? 'online.resignConfirm' : 'online.resign');
    resign.dataset.confirm = String(Boolean(resignArmed));
    draw.hidden = !side || !inPlay || !seated;
    draw.textContent = t(theirOffer ? 'online.acceptDraw' : roomState.drawOffer === side ? 'online.drawOffered' : 'online.offerDraw');
    draw.disabled = away || roomState.drawOffer === side;
    decline.hidden = !theirOffer || !inPlay;
    decline.disabled = away;
    rematch.hidden = !side || inPlay;
    // Nobody there to accept: a rematch cannot start (the status says they left).
    rematch.disabled = away || roomState.rematch.includes(side) || Boolean(side && !opponentHere(roomState, side));
    rematch.textContent = t(roomState.rematch.includes(side) ? 'online.rematchAsked' : roomState.rematch.length ? 'online.rematchAccept' : 'online.rematch');
    tickClocks();
  };

  form.addEventListener('submit', (event) => {
    event.preventDefault();
    const timing = TIMINGS[Number(clock.value)] ?? {};
    const options = {
      kind: kind.value,
      rules: kind.value === 'classic' ? 'standard' : rules.value,
      colour: colour.value,
      clock: timing.clock ?? null,
      days: timing.days,
      rated: /** @type {HTMLInputElement} */ (ratedRoom).checked && Boolean(timeControl(timing)),
    };
    controller.onlineCreate(options);
  });
  kind.addEventListener('change', render);
  clock.addEventListener('change', render);
  copy.addEventListener('click', async () => {
    copied.textContent = t((await copyText(link.href)) ? 'online.copied' : 'online.copyFailed');
  });
  share.addEventListener('click', () => {
    navigator.share({ title: t('app.title'), text: t('online.shareText'), url: link.href }).catch(() => {});
  });
  // Resign asks first, in place: the first tap turns the button into the
  // question, a second within RESIGN_ARMED_MS resigns.
  resign.addEventListener('click', () => {
    if (resignArmed) {
      disarmResign();
      controller.onlineResign();
    } else {
      resignArmed = window.setTimeout(() => {
        resignArmed = 0;
        render();
      }, RESIGN_ARMED_MS);
    }
    render();
  });
  draw.addEventListener('click', () => controller.onlineOfferDraw());
  decline.addEventListener('click', () => controller.onlineDeclineDraw());
  rematch.addEventListener('click', () => controller.rematch());
  leave.addEventListener('click', async () => {
    if (leavingResigns() && !(await confirmLeave())) return;
    controller.onlineLeave();
  });
  /** Whether leaving now gives a game in play up (the server's rule for `leave`: a correspondence game goes on). */
  const leavingResigns = () => {
    const { roomState, side } = controller.onlineRoom();
    return Boolean(side && roomState && roomState.result === null && !roomState.options.days && roomState.x !== 'empty' && roomState.o !== 'empty');
  };
  const confirmLeave = () =>
    confirmDialog(t('online.leaveTitle'), t('online.leaveBody'), { ok: t('online.leaveOk'), cancel: t('leave.keep') });
  /** The address names the room while in one, for a reload to come back; none once the session ends. */
  const keepAddress = () => {
    const { code, inSession } = controller.onlineRoom();
    if (code) setRoomInUrl(code);
    else if (!inSession) setRoomInUrl(null);
  };
  controller.subscribe((change) => {
    if (change.cause !== 'online') return;
    keepAddress();
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
    controller.onlineJoin(code);
  }
  return { playNow, home: mine };
}
