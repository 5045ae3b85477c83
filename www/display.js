// @ts-check
// The display options of the Game tab that the evaluation bar, the Hint
// button and the board read: show the bar, show who is ahead (in words) on
// it during a game against the AI, show the Hint button, show each move's
// worth. Kept in localStorage under 'uttt.review' (older saves without the
// overlay or the words read them as off); the toggles are built into
// #display-options.

import { t, onLangChange } from './i18n.js';
import { el } from './dom.js';

const STORAGE_KEY = 'uttt.review';

function load() {
  try {
    const s = JSON.parse(localStorage.getItem(STORAGE_KEY) || '{}');
    return {
      showEval: s?.showEval !== false,
      showAhead: s?.showAhead === true,
      showHint: s?.showHint !== false,
      showWorth: s?.showWorth === true,
    };
  } catch {
    return { showEval: true, showAhead: false, showHint: true, showWorth: false };
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
 * Builds the toggles into `host` and returns the options:
 * `{ showEval, showAhead, showHint, showWorth, onChange(fn) }`; `fn()` runs
 * after any changes. showAhead: during a game against the AI, the bar says
 * who is ahead in words (otherwise it is hidden then); off by default.
 */
export function initDisplayOptions(host) {
  const options = load();
  const listeners = [];
  const toggle = (key, id, labelKey, testId) => {
    const input = el('input', { type: 'checkbox', id, ...(testId ? { 'data-testid': testId } : {}) });
    input.checked = options[key];
    const text = el('span');
    input.addEventListener('change', () => {
      options[key] = input.checked;
      save(options);
      for (const fn of listeners) fn();
    });
    onLangChange(() => {
      text.textContent = t(labelKey);
    });
    text.textContent = t(labelKey);
    // The whole row is the label, so the whole 44 px row takes the tap.
    return el('label', { class: 'option' }, input, text);
  };
  host.append(
    toggle('showEval', 'opt-show-eval', 'settings.showEval'),
    toggle('showAhead', 'opt-show-ahead', 'settings.showAhead', 'ahead-toggle'),
    toggle('showHint', 'opt-show-hint', 'settings.showHint'),
    toggle('showWorth', 'opt-show-worth', 'settings.showWorth', 'worth-toggle'),
  );
  return {
    get showEval() {
      return options.showEval;
    },
    get showAhead() {
      return options.showAhead;
    },
    get showHint() {
      return options.showHint;
    },
    get showWorth() {
      return options.showWorth;
    },
    onChange: (fn) => listeners.push(fn),
  };
}
