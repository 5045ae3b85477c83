// @ts-check
// The room's chat in the Online tab (the lines are features/chat.js's):
// the players talk among themselves from their seats, the watchers among
// themselves (docs/protocol.md, "Chat"). Preset messages first, in the
// page's language; typed messages only once the person turns them on
// (off at first: a new player meets no stranger's words), and then shown
// as text, never as markup or a link. One tap mutes a person (their lines
// are hidden on this page from then on) or the whole chat; a line can be
// reported, which keeps it with its game for the moderators. What is muted
// and whether typed messages show is kept in this browser.
//
// Hooks (a public test API): the preset buttons `[data-chat-preset="hello"]`
// (a click says it), the typed field's `[data-action="chat-send"]`, each
// line `[data-chat-message]` with its `[data-action="chat-mute"]` and
// `[data-action="chat-report"]` (not on one's own lines), the whole chat's
// `[data-action="chat-mute-all"]`.

import { t, onLangChange } from './i18n.js';
import { el } from './dom.js';

/** The presets, in the order shown (the protocol's ChatPreset). */
const PRESETS = /** @type {const} */ (['hello', 'goodLuck', 'goodGame', 'thanks', 'wellPlayed', 'rematch']);
const KEY = 'uttt.chat';

/** @typedef {{ typed: boolean, off: boolean, muted: string[] }} ChatSettings */

/** @returns {ChatSettings} */
function readSettings() {
  try {
    const data = JSON.parse(localStorage.getItem(KEY) ?? 'null');
    if (data && typeof data === 'object') {
      const muted = Array.isArray(data.muted) ? data.muted.filter((m) => typeof m === 'string').slice(-200) : [];
      return { typed: data.typed === true, off: data.off === true, muted };
    }
  } catch {
    // Unreadable: the defaults.
  }
  return { typed: false, off: false, muted: [] };
}

/** @param {ChatSettings} settings */
function writeSettings(settings) {
  try {
    localStorage.setItem(KEY, JSON.stringify(settings));
  } catch {
    // Not kept: this page still follows it.
  }
}

/**
 * Who said `line`, as muting knows them: a player by name, for good; a
 * guest (no name) by room and side, for that room alone.
 */
const whoKey = (line, room) => line.name ?? `${room}:${line.side ?? 'watcher'}`;
/** Who said `line`, in words. */
const whoText = (line) => line.name ?? (line.side ? t('chat.player', { side: line.side.toUpperCase() }) : t('chat.guest'));

/**
 * Builds the chat; returns its node, which redraws itself on every change
 * of the chat or the room.
 * @param {Controller} controller
 */
export function createChatPanel(controller) {
  let settings = readSettings();
  /** Lines this page reported, by room and line, so their button says so. */
  const reported = new Set();
  const heading = el('h4', { class: 'chat-heading' });
  const lines = el('ul', { class: 'chat-lines', 'aria-live': 'polite' });
  const presets = el('div', { class: 'chat-presets' }, ...PRESETS.map((preset) => el('button', { type: 'button', class: 'btn chat-preset', 'data-chat-preset': preset })));
  const input = el('input', { type: 'text', id: 'chat-text', class: 'chat-text', maxlength: '140', autocomplete: 'off', enterkeyhint: 'send' });
  const send = el('button', { type: 'submit', class: 'btn', 'data-action': 'chat-send' });
  const form = el('form', { class: 'chat-form' }, input, send);
  const typed = el('input', { type: 'checkbox', id: 'chat-typed' });
  const muteAll = el('button', { type: 'button', class: 'btn chat-mute-all', 'data-action': 'chat-mute-all', 'aria-pressed': 'false' });
  const unmute = el('button', { type: 'button', class: 'btn', 'data-action': 'chat-unmute' });
  const options = el('p', { class: 'chat-options' }, el('label', { class: 'option', for: 'chat-typed' }, typed, el('span', { 'data-label': 'chat.typed' })), muteAll, unmute);
  const node = el('section', { class: 'chat', 'aria-labelledby': 'chat-heading' }, heading, lines, presets, form, options);
  heading.id = 'chat-heading';

  const change = (next) => {
    settings = { ...settings, ...next };
    writeSettings(settings);
    render();
  };
  presets.addEventListener('click', (event) => {
    const preset = /** @type {HTMLElement} */ (event.target).closest('[data-chat-preset]')?.getAttribute('data-chat-preset');
    if (preset) controller.onlineChat.say({ preset: /** @type {any} */ (preset) });
  });
  form.addEventListener('submit', (event) => {
    event.preventDefault();
    const text = /** @type {HTMLInputElement} */ (input).value.trim();
    if (text && controller.onlineChat.say({ text })) /** @type {HTMLInputElement} */ (input).value = '';
  });
  typed.addEventListener('change', () => change({ typed: /** @type {HTMLInputElement} */ (typed).checked }));
  muteAll.addEventListener('click', () => change({ off: !settings.off }));
  unmute.addEventListener('click', () => change({ muted: [] }));
  lines.addEventListener('click', (event) => {
    const target = /** @type {HTMLElement} */ (event.target);
    const row = target.closest('[data-chat-message]');
    const { chat, code } = controller.onlineRoom();
    const line = chat.find((l) => String(l.id) === row?.getAttribute('data-chat-message'));
    if (!line) return;
    if (target.closest('[data-action="chat-mute"]')) change({ muted: [...settings.muted, whoKey(line, code)] });
    if (target.closest('[data-action="chat-report"]') && controller.onlineChat.report(line.id)) {
      reported.add(`${code}:${line.id}`);
      render();
    }
  });

  /**
   * Whether `line` is this page's own (no mute or report on it, never
   * hidden): by name when it has one (sides swap at a rematch), else a
   * guest player's by side.
   */
  const mine = (line) => {
    if (line.name !== null) return line.name === controller.account.me()?.name;
    return line.side !== null && line.side === controller.onlineRoom().side;
  };
  /** What `line` says, in this page's language. */
  const said = (line) => (line.preset ? t(`chat.preset.${line.preset}`) : line.text ?? '');

  const row = (line, code) => {
    const own = mine(line);
    const done = reported.has(`${code}:${line.id}`);
    const buttons = own
      ? []
      : [
          el('button', { type: 'button', class: 'chat-act', 'data-action': 'chat-mute', 'aria-label': t('chat.muteWho', { name: whoText(line) }), text: t('chat.mute') }),
          el('button', { type: 'button', class: 'chat-act', 'data-action': 'chat-report', text: t(done ? 'chat.reported' : 'chat.report') }),
        ];
    if (done) /** @type {HTMLButtonElement} */ (buttons[1]).disabled = true;
    return el('li', { class: 'chat-line', 'data-chat-message': String(line.id) }, el('span', { class: 'chat-who', text: `${whoText(line)}: ` }), el('span', { class: 'chat-said', text: said(line) }), ...buttons);
  };

  function render() {
    const { roomState, side, chat, code } = controller.onlineRoom();
    node.hidden = !roomState;
    if (!roomState) return;
    heading.textContent = t(side ? 'chat.players' : 'chat.watchers');
    for (const label of node.querySelectorAll('[data-label]')) label.textContent = t(/** @type {HTMLElement} */ (label).dataset.label);
    for (const button of presets.children) button.textContent = t(`chat.preset.${button.getAttribute('data-chat-preset')}`);
    send.textContent = t('chat.send');
    input.setAttribute('aria-label', t('chat.typeHere'));
    input.setAttribute('placeholder', t('chat.typeHere'));
    /** @type {HTMLInputElement} */ (typed).checked = settings.typed;
    muteAll.textContent = t(settings.off ? 'chat.unmuteAll' : 'chat.muteAll');
    muteAll.setAttribute('aria-pressed', String(settings.off));
    unmute.textContent = t('chat.unmute', { count: settings.muted.length });
    unmute.hidden = settings.off || settings.muted.length === 0;
    lines.hidden = presets.hidden = settings.off;
    form.hidden = settings.off || !settings.typed;
    const shown = chat.filter((line) => mine(line) || ((settings.typed || line.preset) && !settings.muted.includes(whoKey(line, code))));
    lines.replaceChildren(...shown.map((line) => row(line, code)));
    lines.scrollTop = lines.scrollHeight;
  }

  controller.subscribe((change) => {
    if (change.cause === 'chat' || change.cause === 'online') render();
  });
  onLangChange(render);
  render();
  return node;
}
