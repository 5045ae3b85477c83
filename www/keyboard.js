// Keyboard shortcuts: N new game, U or Ctrl/Cmd+Z undo, R or Ctrl/Cmd+Y
// (or Ctrl/Cmd+Shift+Z) redo. Ignored while typing in a form control.

function typing(target) {
  return target instanceof Element && Boolean(target.closest('input, select, textarea, [contenteditable="true"]'));
}

/** Installs the shortcuts, calling `actions.newGame/undo/redo`. */
export function bindKeyboard(actions) {
  document.addEventListener('keydown', (event) => {
    if (event.defaultPrevented || event.altKey || typing(event.target)) return;
    const key = event.key.toLowerCase();
    const command = event.ctrlKey || event.metaKey;
    let action = null;
    if (command) {
      if (key === 'z' && !event.shiftKey) action = actions.undo;
      else if (key === 'y' || (key === 'z' && event.shiftKey)) action = actions.redo;
    } else if (!event.shiftKey) {
      if (key === 'n') action = actions.newGame;
      else if (key === 'u') action = actions.undo;
      else if (key === 'r') action = actions.redo;
    }
    if (action) {
      event.preventDefault();
      action();
    }
  });
}
