// @ts-check
// The account panel's part for notifications (notify.js): whether this
// browser is told (on, off, blocked, or unable), the button that turns it
// on or off here, and the player's switch for each kind of notice (for
// all their browsers). What went wrong turning them on is said in the
// part's own line, where it stays.
//
// Test hooks: `[data-push-state]` (on | off | blocked | unsupported),
// `[data-action="push-toggle"]`, and `[data-push-kind="yourMove"]` ...
// (`gameOver`, `challenge`, `reminder`), checkboxes.

import { t } from './i18n.js';
import { el } from './dom.js';
import { KINDS } from './notify.js';

/**
 * The part, and `render()`, which the panel calls when it draws. `act(work)`
 * runs a change as the panel runs its own (buttons disabled, what failed said).
 * @param {import('./notify.js').Notify} notify
 * @param {(work: () => Promise<string | void>) => Promise<void>} act
 */
export function pushPart(notify, act) {
  const heading = el('h3', {});
  const hint = el('p', { class: 'hint' });
  const status = el('p', { class: 'hint', 'data-push-state': '' });
  const problem = el('p', { class: 'hint', role: 'status' });
  const toggle = el('button', { type: 'button', class: 'btn', 'data-action': 'push-toggle' });
  /** While a change is under way: the switches wait for it. */
  let pending = false;
  /** The key of what went wrong turning notifications on, shown until the next try. */
  let failed = '';
  const run = (work) => {
    pending = true;
    render();
    return act(work).finally(() => {
      pending = false;
      render();
    });
  };
  const boxes = KINDS.map((kind) => {
    const box = el('input', { type: 'checkbox', 'data-push-kind': kind });
    const label = el('span', {});
    box.addEventListener('change', () => {
      // Read now: the panel draws again before the work runs.
      const on = box.checked;
      void run(() => notify.setKind(kind, on));
    });
    return { kind, box, label, node: el('label', { class: 'account-check' }, box, label) };
  });
  const node = el('section', { class: 'account-push' }, heading, hint, status, el('p', { class: 'account-row' }, toggle), problem, ...boxes.map((b) => b.node));

  function render() {
    const state = notify.state();
    const shown = !state.supported ? 'unsupported' : state.permission === 'denied' ? 'blocked' : state.thisDevice ? 'on' : 'off';
    status.dataset.pushState = shown;
    heading.textContent = t('push.heading');
    hint.textContent = t('push.hint');
    status.textContent = t(`push.${shown}`);
    problem.textContent = failed && shown !== 'blocked' ? t(failed) : '';
    toggle.textContent = t(state.thisDevice ? 'push.turnOff' : 'push.turnOn');
    toggle.hidden = shown === 'unsupported' || shown === 'blocked';
    for (const { kind, box, label, node: row } of boxes) {
      box.checked = state.kinds?.[kind] ?? true;
      box.disabled = pending;
      label.textContent = t(`push.kind.${kind}`);
      row.hidden = !state.kinds;
    }
  }

  toggle.addEventListener('click', () =>
    run(async () => {
      failed = '';
      if (notify.state().thisDevice) {
        await notify.disable();
        return;
      }
      try {
        await notify.enable();
      } catch {
        failed = 'push.failed';
      }
      if (!notify.state().thisDevice && notify.state().permission !== 'denied') failed = 'push.failed';
    }),
  );
  notify.onChange(render);
  return { node, render };
}
