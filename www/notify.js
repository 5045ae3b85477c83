// @ts-check
// Notifications (docs/api.md, "Notifications"): the one owner of this
// browser's push subscription and of the signed-in player's switches for
// each kind of notice (your move, game over, challenge received, time
// running out). The server sends the notices through the push service
// the browser names; the service worker (sw.js) shows them in the page's
// language, from the words this module gives it, and while a page of the
// site is in view it hands them to that page instead, which hears them
// here (`onNotice`) and shows them in place: the lists of games ask the
// server again. A tap on a notification brings an open page forward and
// hands it the notice (`onOpen`), which opens it as the page's own
// buttons do.
//
// Permission is asked only when the player says so (the offer after a
// correspondence game starts, pushoffer.js, or the account panel's
// switch, pushpanel.js), never on its own.

import { t, onLangChange } from './i18n.js';
import { api, fromBase64url } from './accountapi.js';

/** @typedef {'yourMove' | 'gameOver' | 'challenge' | 'reminder'} NoticeKind */
/** @typedef {{kind: string, room?: string, opponent?: string | null, from?: string | null}} Notice A notice as the server sends it (docs/api.md). */
/** Every kind, in the order the settings list them. */
export const KINDS = /** @type {NoticeKind[]} */ (['yourMove', 'gameOver', 'challenge', 'reminder']);
/** Where the page keeps that the player said "not now" to the offer (or turned notifications off here). */
const DECLINED_KEY = 'uttt.push.declined';
/** Where the page keeps whose notifications this browser took last (only theirs are taken again unasked). */
const PLAYER_KEY = 'uttt.push.player';

/** `key`'s value in localStorage (null where the browser refuses it). */
function kept(key) {
  try {
    return localStorage.getItem(key);
  } catch {
    return null;
  }
}

/** Keeps `value` under `key` (null: removes it); for this visit only where the browser refuses. */
function keep(key, value) {
  try {
    if (value === null) localStorage.removeItem(key);
    else localStorage.setItem(key, value);
  } catch {
    // Not kept: the page asks again next visit.
  }
}

/**
 * @typedef {{
 *   supported: boolean,
 *   permission: NotificationPermission | 'unsupported',
 *   thisDevice: boolean,
 *   kinds: Record<NoticeKind, boolean> | null,
 *   declined: boolean,
 * }} NotifyState
 * @typedef {{
 *   state: () => NotifyState,
 *   load: () => Promise<void>,
 *   enable: () => Promise<void>,
 *   disable: () => Promise<void>,
 *   decline: () => void,
 *   setKind: (kind: NoticeKind, on: boolean) => Promise<void>,
 *   onChange: (listener: () => void) => void,
 *   onNotice: (listener: (notice: Notice) => void) => void,
 *   onOpen: (listener: (notice: Notice) => void) => void,
 * }} Notify
 */

/** Whether this browser can be told things by push. */
function supported() {
  return 'serviceWorker' in navigator && 'PushManager' in window && 'Notification' in window;
}

/** The words the service worker writes notices with, in the page's language. */
export function noticeTexts() {
  const keys = ['yourMove', 'yourMoveBody', 'reminder', 'reminderBody', 'win', 'loss', 'draw', 'gameOver', 'challenge', 'challengeBody', 'days', 'clock', 'untimed', 'ultimate', 'classic', 'someone'];
  return { ...Object.fromEntries(keys.map((key) => [key, t(`push.${key}`)])), app: t('app.title') };
}

/** How long the page waits for its service worker before it takes notifications as unavailable here. */
const WORKER_WAIT_MS = 10_000;

/** Whether `a` and `b` hold the same bytes. */
function sameBytes(a, b) {
  const x = new Uint8Array(a);
  return x.length === b.length && x.every((byte, i) => byte === b[i]);
}

/**
 * The page's notifications, for the signed-in player of `account`.
 * @param {import('./api.js').Account} account
 * @returns {Notify}
 */
export function createNotify(account) {
  /** @type {NotifyState} */
  const state = {
    supported: supported(),
    permission: supported() ? Notification.permission : 'unsupported',
    thisDevice: false,
    kinds: null,
    declined: kept(DECLINED_KEY) === 'true',
  };
  const listeners = new Set();
  const noticeListeners = new Set();
  const openListeners = new Set();
  const changed = () => {
    for (const listener of listeners) listener();
  };
  const csrf = () => account.me()?.csrf ?? '';
  const learn = (answer) => {
    state.kinds = answer?.kinds ?? null;
    state.thisDevice = answer?.thisDevice === true;
    if (state.supported) state.permission = Notification.permission;
    changed();
  };

  /**
   * The service worker's registration, once it is active; none where there
   * is none (its registration failed, or a host blocks it), rather than
   * waiting for ever.
   */
  const registration = async () => {
    if (!state.supported) return null;
    const late = new Promise((resolve) => setTimeout(() => resolve(null), WORKER_WAIT_MS));
    return Promise.race([navigator.serviceWorker.ready, late]);
  };

  /** Gives the service worker the words to write notices with. */
  const giveTexts = async () => {
    const ready = await registration();
    ready?.active?.postMessage({ type: 'PUSH_TEXTS', texts: noticeTexts() });
  };

  /** This browser's subscription for the server's key (made anew when the key is another). */
  const subscription = async () => {
    const ready = await registration();
    if (!ready) throw new Error('no service worker');
    const { key } = await api('GET', 'push/key');
    const bytes = fromBase64url(key);
    let held = await ready.pushManager.getSubscription();
    const heldKey = held?.options?.applicationServerKey;
    if (held && heldKey && !sameBytes(heldKey, bytes)) {
      await held.unsubscribe();
      held = null;
    }
    return held ?? ready.pushManager.subscribe({ userVisibleOnly: true, applicationServerKey: bytes });
  };

  const load = async () => {
    if (!account.me()) {
      learn(null);
      return;
    }
    const answer = await api('GET', 'me/push');
    learn(answer);
    // Allowed here but not kept for this session (the same player signed
    // in again): kept again, as they had it. Never for another player.
    const same = kept(PLAYER_KEY) === account.me()?.name;
    if (state.supported && same && !state.thisDevice && !state.declined && Notification.permission === 'granted') {
      const made = await subscription();
      learn(await api('POST', 'me/push/subscription', { csrf: csrf(), body: made.toJSON() }));
    }
    if (state.thisDevice) await giveTexts();
  };

  const enable = async () => {
    if (!state.supported) throw new Error('unsupported');
    state.permission = await Notification.requestPermission();
    if (state.permission !== 'granted') {
      changed();
      return;
    }
    keep(DECLINED_KEY, null);
    state.declined = false;
    const made = await subscription();
    await giveTexts();
    learn(await api('POST', 'me/push/subscription', { csrf: csrf(), body: made.toJSON() }));
    keep(PLAYER_KEY, account.me()?.name ?? null);
  };

  const disable = async () => {
    keep(DECLINED_KEY, 'true');
    keep(PLAYER_KEY, null);
    state.declined = true;
    learn(await api('DELETE', 'me/push/subscription', { csrf: csrf() }));
    const held = await (await registration())?.pushManager.getSubscription();
    await held?.unsubscribe();
  };

  /** Shown switched at once; put back if the server refuses. */
  const setKind = async (kind, on) => {
    if (!state.kinds) return;
    const before = state.kinds;
    state.kinds = { ...before, [kind]: on };
    changed();
    try {
      learn(await api('POST', 'me/push', { csrf: csrf(), body: { kinds: state.kinds } }));
    } catch (error) {
      state.kinds = before;
      changed();
      throw error;
    }
  };

  if (state.supported) {
    navigator.serviceWorker.addEventListener('message', (event) => {
      const data = event.data;
      if (typeof data?.notice?.kind !== 'string') return;
      if (data.type === 'PUSH') for (const listener of noticeListeners) listener(data.notice);
      if (data.type === 'PUSH_OPEN') for (const listener of openListeners) listener(data.notice);
    });
  }
  account.onMe(() => void load().catch(() => learn(null)));
  onLangChange(() => {
    if (state.thisDevice) void giveTexts();
  });

  return {
    state: () => state,
    load,
    enable,
    disable,
    decline() {
      keep(DECLINED_KEY, 'true');
      state.declined = true;
      changed();
    },
    setKind,
    onChange: (listener) => listeners.add(listener),
    onNotice: (listener) => noticeListeners.add(listener),
    onOpen: (listener) => openListeners.add(listener),
  };
}
