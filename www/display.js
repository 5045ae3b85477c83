// The display options of the Game tab that the evaluation bar and the Hint
// button read: show the bar, show the Hint button. Kept in localStorage
// under 'uttt.review'; the toggles are built into #display-options.

import { t, onLangChange } from './i18n.js';
import { el } from './dom.js';

const STORAGE_KEY = 'uttt.review';

function load() {
  try {
    const s = JSON.parse(localStorage.getItem(STORAGE_KEY) || '{}');
    return { showEval: s?.showEval !== false, showHint: s?.showHint !== false };
  } catch {
    return { showEval: true, showHint: true };
  }
}

function save(options) {
  try {
    localStorage.setItem(STORAGE_KEY, JSON.stringify(options));
  } catch {
    // The options then last for this visit only.
  }
}

/**
 * Builds the two toggles into `host` and returns the options:
 * `{ showEval, showHint, onChange(fn) }`; `fn()` runs after either changes.
 */
export function initDisplayOptions(host) {
  const options = load();
  const listeners = [];
  const toggle = (key, id, labelKey) => {
    const input = el('input', { type: 'checkbox', id });
    input.checked = options[key];
    const label = el('label', { for: id });
    input.addEventListener('change', () => {
      options[key] = input.checked;
      save(options);
      for (const fn of listeners) fn();
    });
    onLangChange(() => {
      label.textContent = t(labelKey);
    });
    label.textContent = t(labelKey);
    return el('span', { class: 'option' }, input, label);
  };
  host.append(
    toggle('showEval', 'opt-show-eval', 'settings.showEval'),
    toggle('showHint', 'opt-show-hint', 'settings.showHint'),
  );
  return {
    get showEval() {
      return options.showEval;
    },
    get showHint() {
      return options.showHint;
    },
    onChange: (fn) => listeners.push(fn),
  };
}
