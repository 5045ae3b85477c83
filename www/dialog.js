// @ts-check
// Modal questions. While one is open the rest of the page is inert (the
// native modal <dialog>), and the keyboard shortcuts stand still
// (`modalOpen`), so nothing changes the game behind the question. Which
// dialogs are open is the document's to say (`:modal`), not a count here.

import { t } from './i18n.js';
import { el } from './dom.js';

/** True while a modal dialog (a question, the tutorial) is on screen. */
export function modalOpen() {
  try {
    return document.querySelector('dialog:modal') !== null;
  } catch {
    // A browser without :modal (Safari before 15.6): any open dialog counts.
    return document.querySelector('dialog[open]') !== null;
  }
}

/**
 * Asks a yes/no question in a modal <dialog>; resolves true on OK. Escape
 * or Cancel resolve false; Cancel comes first and has the focus. `ok` and `cancel` are the buttons' labels.
 */
export function confirmDialog(title, message, { ok = t('btn.ok'), cancel = t('btn.cancel') } = {}) {
  return new Promise((resolve) => {
    const dialog = el('dialog', { class: 'review-dialog', 'aria-labelledby': 'dialog-title', 'aria-describedby': 'dialog-text' });
    const no = el('button', { type: 'button', class: 'btn', 'data-answer': 'cancel', text: cancel });
    const yes = el('button', { type: 'button', class: 'btn primary', 'data-answer': 'ok', text: ok });
    dialog.append(
      el('h2', { id: 'dialog-title', text: title }),
      el('p', { id: 'dialog-text', text: message }),
      el('div', { class: 'dialog-buttons' }, no, yes),
    );
    let answered = false;
    const finish = (answer) => {
      if (answered) return;
      answered = true;
      dialog.close();
      dialog.remove();
      resolve(answer);
    };
    no.addEventListener('click', () => finish(false));
    yes.addEventListener('click', () => finish(true));
    dialog.addEventListener('cancel', (event) => {
      event.preventDefault();
      finish(false);
    });
    document.body.append(dialog);
    dialog.showModal();
    // The safe choice has the focus: Enter or Space alone never loses a game.
    no.focus();
  });
}
