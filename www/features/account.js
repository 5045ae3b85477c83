// @ts-check
// The account panel: a modal <dialog> that says who is signed in (the
// name in `[data-account-name]`, empty when nobody) and does what the server's
// account API offers (docs/api.md): play online under a new name, sign in
// on this device with a passkey or a password, secure the account with a
// passkey or a password, list the signed-in browsers and sign out the
// others, sign out, and delete the account.
//
// It only asks the server (accountapi.js; relative URLs, so a site under a
// prefix works): a copy of the site served without the game server says
// that accounts are not available there.

import { t, lang, onLangChange } from '../i18n.js';
import { el } from '../dom.js';
import { confirmDialog } from '../dialog.js';
import { Refusal, api, creationOptions, requestOptions, registrationJson, assertionJson } from '../accountapi.js';
import { historyPart } from '../historypanel.js';
import { pushPart } from '../pushpanel.js';
import { vacationPart } from '../vacationpanel.js';
import { createAccount } from '../api.js';

/** The server's error codes the panel says in the player's words; any other is said in general terms. */
const ERRORS = new Set([
  'wrong-credentials',
  'too-many-attempts',
  'passkeys-need-a-name',
  'no-passkey',
  'no-such-player',
  'bad-password',
  'current-needed',
  'wrong-password',
  'passkey-refused',
  'passkey-taken',
  'too-many-passkeys',
  'busy',
  'rate-limited',
  'signed-out',
]);

/** A short name for a browser from its user agent: "Chrome on Android", or the start of it. */
export function browserName(agent) {
  const browsers = [['Edg/', 'Edge'], ['Firefox/', 'Firefox'], ['Chrome/', 'Chrome'], ['Chromium/', 'Chromium'], ['Safari/', 'Safari']];
  const systems = [['Android', 'Android'], ['iPhone', 'iPhone'], ['iPad', 'iPad'], ['Windows', 'Windows'], ['Mac OS', 'macOS'], ['CrOS', 'ChromeOS'], ['Linux', 'Linux']];
  const browser = browsers.find(([token]) => agent.includes(token))?.[1];
  const system = systems.find(([token]) => agent.includes(token))?.[1];
  if (browser && system) return t('account.browserOn', { browser, system });
  return browser ?? system ?? (agent.slice(0, 40) || t('account.unknownBrowser'));
}

/** A label for a new passkey: this browser and system. */
function passkeyLabel() {
  return browserName(navigator.userAgent).slice(0, 60);
}

/** `ms` since the epoch as a date in the page's language. */
function day(ms) {
  return new Date(ms).toLocaleDateString(lang(), { year: 'numeric', month: 'short', day: 'numeric' });
}

/** What the panel says for refusal `error`. */
function sayRefusal(error) {
  if (error instanceof Refusal) {
    if (error.code === 'too-many-attempts' && error.retryAfter) {
      const seconds = error.retryAfter;
      return seconds < 120 ? t('account.err.wait', { seconds }) : t('account.err.waitMinutes', { minutes: Math.ceil(seconds / 60) });
    }
    if (error.code === 'no-server') return t('account.noServer');
    return t(ERRORS.has(error.code) ? `account.err.${error.code}` : 'account.err.other');
  }
  // navigator.credentials: the person closed the prompt, or no authenticator could answer.
  if (error instanceof DOMException && (error.name === 'NotAllowedError' || error.name === 'AbortError')) return t('account.err.cancelled');
  if (error instanceof DOMException && error.name === 'SecurityError') return t('account.err.passkeys-need-a-name');
  return t('account.err.other');
}

/**
 * The account button and its dialog. The button (`[data-action="account"]`)
 * goes wherever the caller puts it; the dialog is built once, on the page's
 * body (closed), and reads the session each time it opens. What it learns
 * it tells `account` (the page's, api.js), the one owner of who is signed
 * in, and draws from it, so the panel and the rest of the page (Play
 * now's `[data-me]`, the game connection) always name the same player.
 * `sync`, when given, is this browser's games kept with the account (historysync.js), its part shown when signed in;
 * so is `notify`'s, the notifications (notify.js).
 * @param {import('../api.js').Account | null} [account]
 * @param {import('../historysync.js').HistorySync | null} [sync]
 * @param {import('../notify.js').Notify | null} [notify]
 * @returns {HTMLButtonElement}
 */
export function accountButton(account = null, sync = null, notify = null) {
  const open = el('button', { type: 'button', class: 'btn', 'data-action': 'account' });
  // Who is signed in is the page's account's (api.js) alone: the panel
  // tells it what it learns and reads it back.
  const player = account ?? createAccount();
  const signedInPlayer = () => player.me();
  const csrf = () => signedInPlayer()?.csrf ?? '';
  /** Whether a server answers here, and whether the panel has asked it yet. */
  const session = { server: true, loaded: false };

  const title = el('h2', { 'data-label': 'account.title', id: 'account-title' });
  const close = el('button', { 'data-label': 'account.close', type: 'button', class: 'btn account-close', 'data-action': 'account-close' });
  const who = el('p', { class: 'account-who' });
  const me = el('strong', { 'data-account-name': '' });
  const message = el('p', { class: 'account-message', role: 'status', 'data-account-message': '' });

  // Signed out: a new name, or sign in.
  const fresh = el('button', { 'data-label': 'account.new', type: 'button', class: 'btn primary', 'data-action': 'account-new' });
  const freshHint = el('p', { 'data-label': 'account.newHint', class: 'hint' });
  const name = el('input', { type: 'text', name: 'username', autocomplete: 'username webauthn', maxlength: '20', spellcheck: 'false', autocapitalize: 'off', 'data-signin-name': '' });
  const password = el('input', { type: 'password', name: 'password', autocomplete: 'current-password', maxlength: '128', 'data-signin-password': '' });
  const withPasskey = el('button', { 'data-label': 'account.withPasskey', type: 'button', class: 'btn primary', 'data-action': 'signin-passkey' });
  const withPassword = el('button', { 'data-label': 'account.withPassword', type: 'submit', class: 'btn', 'data-action': 'signin-password' });
  const signInHeading = el('h3', { 'data-label': 'account.signInHeading' });
  const field = (key, control) => el('label', { class: 'field' }, el('span', { 'data-label': key }), control);
  const signInForm = el(
    'form',
    { class: 'account-form', novalidate: '' },
    field('account.name', name),
    el('p', { class: 'account-row' }, withPasskey),
    field('account.password', password),
    el('p', { class: 'account-row' }, withPassword),
  );
  const signedOut = el('section', { class: 'account-part', 'data-account': 'signed-out' }, freshHint, el('p', { class: 'account-row' }, fresh), signInHeading, signInForm);

  // Signed in: secure the account, sessions, sign out, delete.
  const secureHeading = el('h3', { 'data-label': 'account.secureHeading' });
  const secureHint = el('p', { 'data-label': 'account.secureHint', class: 'hint' });
  const addPasskey = el('button', { 'data-label': 'account.addPasskey', type: 'button', class: 'btn primary', 'data-action': 'passkey-add' });
  const passkeys = el('ul', { class: 'account-list', 'data-passkeys': '' });
  const current = el('input', { type: 'password', name: 'current-password', autocomplete: 'current-password', maxlength: '128', 'data-password-current': '' });
  const newPassword = el('input', { type: 'password', name: 'new-password', autocomplete: 'new-password', minlength: '8', maxlength: '128', 'data-password-new': '' });
  const currentField = field('account.currentPassword', current);
  const setPassword = el('button', { type: 'submit', class: 'btn', 'data-action': 'password-set' });
  const passwordForm = el(
    'form',
    { class: 'account-form', novalidate: '' },
    el('input', { type: 'text', name: 'username', autocomplete: 'username', hidden: '', 'aria-hidden': 'true', tabindex: '-1' }),
    currentField,
    field('account.newPassword', newPassword),
    el('p', { class: 'account-row' }, setPassword),
  );
  const sessionsHeading = el('h3', { 'data-label': 'account.sessionsHeading' });
  const sessions = el('ul', { class: 'account-list', 'data-sessions': '' });
  const signOutOthers = el('button', { 'data-label': 'account.signOutOthers', type: 'button', class: 'btn', 'data-action': 'signout-others' });
  const signOut = el('button', { 'data-label': 'account.signOut', type: 'button', class: 'btn', 'data-action': 'signout' });
  const remove = el('button', { 'data-label': 'account.delete', type: 'button', class: 'btn danger', 'data-action': 'account-delete' });
  const removeHint = el('p', { 'data-label': 'account.deleteHint', class: 'hint' });
  const history = sync && historyPart(sync, (work) => act(work));
  const push = notify && pushPart(notify, (work) => act(work));
  const vacation = vacationPart((work) => act(work), csrf);
  const signedIn = el(
    'section',
    { class: 'account-part', 'data-account': 'signed-in' },
    secureHeading,
    secureHint,
    el('p', { class: 'account-row' }, addPasskey),
    passkeys,
    passwordForm,
    ...(history ? [history.node] : []),
    ...(push ? [push.node] : []),
    vacation.node,
    sessionsHeading,
    sessions,
    el('p', { class: 'account-row' }, signOutOthers, signOut),
    el('p', { class: 'account-row' }, remove),
    removeHint,
  );
  const body = el('div', { class: 'account-body' }, who, message, signedOut, signedIn);
  const dialog = el('dialog', { class: 'account-dialog', 'aria-labelledby': 'account-title', 'data-account-dialog': '' }, el('div', { class: 'account-head' }, title, close), body);

  /** @type {{ id: number, label: string, created: number, used: number | null }[]} */
  let keys = [];
  let hasPassword = false;
  /** @type {{ id: string, agent: string, seen: number, current: boolean }[]} */
  let browsers = [];
  let busy = false;

  const say = (text, tone = '') => {
    message.textContent = text;
    message.dataset.tone = tone;
  };

  const render = () => {
    for (const node of dialog.querySelectorAll('[data-label]')) node.textContent = t(/** @type {HTMLElement} */ (node).dataset.label ?? '');
    open.textContent = t('account.open');
    const name = signedInPlayer()?.name ?? null;
    me.textContent = name ?? '';
    who.replaceChildren(
      ...(!session.server
        ? [t('account.noServer')]
        : name
          ? [t('account.signedInAs'), ' ', me]
          : [t(session.loaded ? 'account.signedOut' : 'account.loading'), me]),
    );
    signedOut.hidden = !session.server || !session.loaded || Boolean(name);
    signedIn.hidden = !session.server || !name;
    currentField.hidden = !hasPassword;
    setPassword.textContent = t(hasPassword ? 'account.changePassword' : 'account.setPassword');
    passkeys.replaceChildren(
      ...keys.map((key) => {
        const drop = el('button', { type: 'button', class: 'btn small', 'data-action': 'passkey-remove', 'data-id': String(key.id), text: t('account.remove') });
        drop.addEventListener('click', () => act(() => removePasskey(key.id)));
        return el(
          'li',
          {},
          el('span', { class: 'account-item' }, el('span', { text: key.label }), el('span', { class: 'hint', text: t('account.addedOn', { date: day(key.created) }) })),
          drop,
        );
      }),
    );
    sessions.replaceChildren(
      ...browsers.map((b) =>
        el(
          'li',
          { 'data-current': String(b.current) },
          el(
            'span',
            { class: 'account-item' },
            el('span', { text: browserName(b.agent) }),
            el('span', { class: 'hint', text: b.current ? t('account.thisBrowser') : t('account.lastSeen', { date: day(b.seen) }) }),
          ),
        ),
      ),
    );
    signOutOthers.hidden = browsers.filter((b) => !b.current).length === 0;
    for (const button of dialog.querySelectorAll('button:not([data-action="account-close"])')) {
      /** @type {HTMLButtonElement} */ (button).disabled = busy;
    }
    history?.render();
    push?.render();
    vacation.render();
    withPasskey.hidden = typeof window.PublicKeyCredential !== 'function';
    addPasskey.hidden = typeof window.PublicKeyCredential !== 'function';
  };

  /** Reads the session, and when signed in its passkeys and browsers. */
  const load = async () => {
    try {
      const answer = await api('GET', 'session');
      session.server = true;
      player.learned(answer?.name && answer?.csrf ? { name: answer.name, csrf: answer.csrf } : null);
    } catch (error) {
      session.server = !(error instanceof Refusal && error.code === 'no-server');
      if (session.server) say(sayRefusal(error), 'error');
    }
    session.loaded = true;
    keys = [];
    hasPassword = false;
    browsers = [];
    if (!signedInPlayer()) vacation.clear();
    try {
      if (signedInPlayer()) {
        // The notifications' and vacation's parts read their own, and say nothing of it here.
        void notify?.load().catch(() => {});
        void vacation.load().catch(() => {});
        const [held, listed] = await Promise.all([api('GET', 'me/passkeys'), api('GET', 'me/sessions')]);
        keys = held?.passkeys ?? [];
        hasPassword = Boolean(held?.password);
        browsers = listed?.sessions ?? [];
      }
    } finally {
      // What is known is shown, also when a list could not be read.
      render();
    }
  };

  /** Runs `work` with the buttons disabled, then reads the session again; says what failed. */
  const act = async (work) => {
    if (busy) return;
    busy = true;
    say('');
    render();
    try {
      const done = await work();
      if (done) say(done, 'ok');
    } catch (error) {
      say(sayRefusal(error), 'error');
    } finally {
      busy = false;
      await load().catch((error) => say(sayRefusal(error), 'error'));
    }
  };

  const signedInAs = (answer) => {
    player.learned({ name: answer.name, csrf: answer.csrf });
    password.value = '';
    return t('account.welcome', { name: answer.name });
  };

  const signInWithPasskey = async () => {
    const who = name.value.trim();
    if (!who) {
      name.focus();
      return t('account.nameNeeded');
    }
    const start = await api('POST', 'signin/passkey/start', { body: { name: who } });
    const credential = /** @type {PublicKeyCredential} */ (await navigator.credentials.get(requestOptions(start.options)));
    const answer = await api('POST', 'signin/passkey/finish', { body: { ceremony: start.ceremony, credential: assertionJson(credential) } });
    return signedInAs(answer);
  };

  const signInWithPassword = async () => {
    const answer = await api('POST', 'signin', { body: { name: name.value.trim(), password: password.value } });
    return signedInAs(answer);
  };

  const addNewPasskey = async () => {
    const start = await api('POST', 'me/passkeys/start', { csrf: csrf() });
    const credential = /** @type {PublicKeyCredential} */ (await navigator.credentials.create(creationOptions(start.options)));
    await api('POST', 'me/passkeys/finish', { csrf: csrf(), body: { ceremony: start.ceremony, credential: registrationJson(credential), label: passkeyLabel() } });
    return t('account.passkeyAdded');
  };

  const removePasskey = async (id) => {
    await api('DELETE', `me/passkeys/${id}`, { csrf: csrf() });
    return t('account.passkeyRemoved');
  };

  const savePassword = async () => {
    if (newPassword.value.length < 8) return Promise.reject(new Refusal('bad-password'));
    /** @type {{ password: string, current?: string }} */
    const body = { password: newPassword.value };
    if (hasPassword) body.current = current.value;
    await api('POST', 'me/password', { csrf: csrf(), body });
    newPassword.value = '';
    current.value = '';
    return t('account.passwordSaved');
  };

  const signOutElsewhere = async () => {
    for (const b of browsers.filter((b) => !b.current)) {
      await api('DELETE', `me/sessions/${b.id}`, { csrf: csrf() });
    }
    return t('account.signedOutOthers');
  };

  fresh.addEventListener('click', () =>
    act(async () => {
      const answer = await api('POST', 'session');
      return signedInAs(answer);
    }),
  );
  withPasskey.addEventListener('click', () => act(signInWithPasskey));
  signInForm.addEventListener('submit', (event) => {
    event.preventDefault();
    act(signInWithPassword);
  });
  addPasskey.addEventListener('click', () => act(addNewPasskey));
  passwordForm.addEventListener('submit', (event) => {
    event.preventDefault();
    act(savePassword);
  });
  signOutOthers.addEventListener('click', () => act(signOutElsewhere));
  signOut.addEventListener('click', () =>
    act(async () => {
      await api('POST', 'signout', { csrf: csrf() });
      return t('account.signedOutHere');
    }),
  );
  remove.addEventListener('click', async () => {
    const sure = await confirmDialog(t('account.deleteTitle'), t('account.deleteQuestion'), { ok: t('account.deleteYes') });
    if (!sure) return;
    await act(async () => {
      await api('DELETE', 'me', { csrf: csrf() });
      return t('account.deleted');
    });
  });
  close.addEventListener('click', () => dialog.close());
  open.addEventListener('click', () => {
    say('');
    render();
    dialog.showModal();
    load().catch((error) => say(sayRefusal(error), 'error'));
  });
  onLangChange(render);
  player.onMe(() => render());
  render();
  // In the document from the start (closed), so its hooks are always there to read.
  document.body.append(dialog);
  return open;
}
