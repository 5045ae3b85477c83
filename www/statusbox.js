// The status box's messages: a hint (#hint-text) or a notice about a game
// opened (#notice) shows over the status line until the position changes
// or the person dismisses it. The Dismiss button is shown exactly while
// one of them is, and a notice's own action (marked data-belongs="notice")
// leaves with it.

const $ = (id) => document.getElementById(id);

/**
 * Wires #btn-dismiss to the two message slots. `onDismiss()` takes the
 * hint away (its owner also clears the ring on the board); the notice is
 * cleared here.
 */
export function initStatusBox({ onDismiss }) {
  const notice = $('notice');
  const hint = $('hint-text');
  const button = $('btn-dismiss');
  const actions = $('status-actions');
  const sync = () => {
    button.hidden = !(notice.textContent || hint.textContent);
    // An action that belongs to the notice (the way back to a game) goes with it.
    if (!notice.textContent) for (const action of actions.querySelectorAll('[data-belongs="notice"]')) action.remove();
  };
  const watch = { childList: true, characterData: true, subtree: true };
  for (const slot of [notice, hint]) new MutationObserver(sync).observe(slot, watch);
  button.addEventListener('click', () => {
    notice.replaceChildren();
    onDismiss();
    sync();
    // The button is gone now: the board is where the person was going.
    $('board').focus({ preventScroll: true });
  });
  sync();
}
