// @ts-check
// The panel's tabs (Moves, Game, Statistics, Share): the ARIA tabs pattern,
// with the arrow keys, Home and End moving between tabs. Only the chosen
// tab's pane is shown; the choice is kept for the next visit.

const KEY = 'uttt.tab';

/**
 * Wires the tablist inside `panel`. Returns `{show(name)}` to open a pane
 * by its `data-tab` name from elsewhere (e.g. Replay opens the moves).
 */
export function initTabs(panel) {
  const tabs = [...panel.querySelectorAll('[role="tab"]')];
  const panes = new Map(tabs.map((tab) => [tab.dataset.tab, document.getElementById(tab.getAttribute('aria-controls'))]));

  const show = (name, { focus = false } = {}) => {
    if (!panes.has(name)) return;
    for (const tab of tabs) {
      const on = tab.dataset.tab === name;
      tab.setAttribute('aria-selected', String(on));
      tab.tabIndex = on ? 0 : -1;
      panes.get(tab.dataset.tab).hidden = !on;
      if (on && focus) tab.focus();
    }
    try {
      localStorage.setItem(KEY, name);
    } catch {
      // Not kept; the tab still opens.
    }
  };

  for (const tab of tabs) tab.addEventListener('click', () => show(tab.dataset.tab));
  panel.querySelector('[role="tablist"]').addEventListener('keydown', (event) => {
    const at = tabs.indexOf(event.target);
    if (at < 0) return;
    const to = {
      ArrowRight: (at + 1) % tabs.length,
      ArrowLeft: (at - 1 + tabs.length) % tabs.length,
      Home: 0,
      End: tabs.length - 1,
    }[event.key];
    if (to === undefined) return;
    event.preventDefault();
    show(tabs[to].dataset.tab, { focus: true });
  });

  let saved = null;
  try {
    saved = localStorage.getItem(KEY);
  } catch {
    saved = null;
  }
  show(panes.has(saved) ? saved : tabs[0].dataset.tab);
  return { show };
}
