// @ts-check
// Keyboard shortcuts: N new game, U or Ctrl/Cmd+Z undo, R or Ctrl/Cmd+Y
// (or Ctrl/Cmd+Shift+Z) redo, H hint, B the board you must play in, ? help;
// in AI vs AI, P pauses or resumes and S plays one move while paused.
// Ignored while typing in a form control, while a modal question is open
// and while a view (a profile, a leaderboard) is over the game.


function typing(target) {
  return target instanceof Element && Boolean(target.closest('input, select, textarea, [contenteditable="true"]'));
}

/**
 * Installs the shortcuts. `actions` has newGame, undo, redo, and optionally
 * hint, focusBoard, help, pause and step (the last two do nothing outside
 * AI vs AI).
 */
export function bindKeyboard(actions) {
  document.addEventListener('keydown', (event) => {
    if (event.defaultPrevented || event.altKey || typing(event.target)) return;
    if (document.querySelector('dialog[open]')) return;
    // A view (views.js) over the game: the game's keys wait under it.
    if (document.documentElement.dataset.viewOpen) return;
    const key = event.key.toLowerCase();
    const command = event.ctrlKey || event.metaKey;
    let action = null;
    if (command) {
      if (key === 'z' && !event.shiftKey) action = actions.undo;
      else if (key === 'y' || (key === 'z' && event.shiftKey)) action = actions.redo;
    } else if (event.key === '?') {
      action = actions.help;
    } else if (!event.shiftKey) {
      action = {
        n: actions.newGame,
        u: actions.undo,
        r: actions.redo,
        h: actions.hint,
        b: actions.focusBoard,
        p: actions.pause,
        s: actions.step,
      }[key];
    }
    if (action) {
      event.preventDefault();
      action();
    }
  });
}
