// @ts-check
// The status box: the status line, and a message in its place while one is
// up: a hint (#hint-text) or a notice about a game opened (#notice). The
// Dismiss button is shown exactly while a message is, and a notice's own
// action (marked data-belongs="notice") leaves with it. A refusal or a
// failure in the status takes the box back at once, so it is always seen.
// Each text is set smaller when it needs more room than the box has.

const $ = (id) => document.getElementById(id);

/** Tones of the status that the person must see even over a message. */
const URGENT = new Set(['warn', 'error']);

/**
 * Sets each node at the box's size, or one step smaller (data-fit="small")
 * when its text does not fit: the box's height never changes. All are
 * reset before any is measured, so the page is laid out once, not once a
 * node.
 * @param {...HTMLElement} nodes
 */
export function fitText(...nodes) {
  for (const node of nodes) if (node.dataset.fit) delete node.dataset.fit;
  const over = nodes.map((node) => node.scrollHeight > node.clientHeight + 1);
  nodes.forEach((node, i) => {
    if (over[i]) node.dataset.fit = 'small';
  });
}

/**
 * Wires #btn-dismiss to the two message slots. `onDismiss()` takes the
 * hint away (its owner also clears the ring on the board); the notice is
 * cleared here.
 */
export function initStatusBox({ onDismiss }) {
  const box = $('status-box');
  const status = $('status');
  const notice = $('notice');
  const hint = $('hint-text');
  const button = $('btn-dismiss');
  const actions = $('status-actions');
  /** Shows Dismiss with a message, and fits the messages (and `also`). */
  const sync = (...also) => {
    button.hidden = !(notice.textContent || hint.textContent);
    // An action that belongs to the notice (the way back to a game) goes with it.
    if (!notice.textContent) for (const action of actions.querySelectorAll('[data-belongs="notice"]')) action.remove();
    fitText(...also, notice, hint);
  };
  const dismiss = () => {
    notice.replaceChildren();
    onDismiss();
    sync();
  };
  const watch = { childList: true, characterData: true, subtree: true };
  for (const slot of [notice, hint]) new MutationObserver(() => sync()).observe(slot, watch);
  new MutationObserver(() => {
    if (URGENT.has(status.dataset.tone) && !button.hidden) dismiss();
    fitText(status);
  }).observe(status, { ...watch, attributes: true, attributeFilter: ['data-tone'] });
  new ResizeObserver(() => sync(status)).observe(box);
  button.addEventListener('click', () => {
    dismiss();
    // The button is gone now: the board is where the person was going.
    $('board').focus({ preventScroll: true });
  });
  sync();
}
