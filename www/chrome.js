// Everything around the board: status line, buttons, scores, settings form.

import { t } from './text.js';

const $ = (id) => document.getElementById(id);

/** Fills the level menu from the engine's levels (done once, and on language change). */
export function fillLevels(levels, selected) {
  const select = $('set-level');
  select.replaceChildren(...levels.map(({ name, budgetMs }) => {
    const option = document.createElement('option');
    option.value = name;
    option.dataset.i18n = `level.${name}`;
    option.dataset.budget = String(budgetMs);
    option.textContent = t(`level.${name}`);
    return option;
  }));
  select.value = selected;
}

/** Redraws the status, buttons, scores and settings from the controller's page state. */
export function renderChrome(page) {
  const status = $('status');
  if (status.textContent !== page.status.text) status.textContent = page.status.text;
  status.dataset.tone = page.status.tone;

  $('btn-undo').disabled = !page.canUndo;
  $('btn-redo').disabled = !page.canRedo;

  const { settings } = page;
  const form = $('settings');
  form.elements.kind.value = settings.kind;
  form.elements.mode.value = settings.mode;
  form.elements.level.value = settings.level;
  form.elements.rules.value = settings.rules;
  form.elements.rules.disabled = settings.kind === 'classic';
  form.elements.level.disabled = settings.mode === 'human';
  document.body.dataset.mode = settings.mode;

  const names = {
    'ai-x': [t('player.youSide', { side: 'X' }), t('player.aiSide', { side: 'O' })],
    'ai-o': [t('player.aiSide', { side: 'X' }), t('player.youSide', { side: 'O' })],
  }[settings.mode] ?? ['X', 'O'];
  $('score-x-label').textContent = names[0];
  $('score-o-label').textContent = names[1];
  $('score-x').textContent = String(page.scores.x);
  $('score-o').textContent = String(page.scores.o);
  $('score-draw').textContent = String(page.scores.draw);
  $('scores-context').textContent = t('scores.context', {
    kind: t(`kind.${settings.kind}`),
    mode: t(`mode.${settings.mode}`),
  });
}

/** Wires the buttons and the settings form to the controller's actions. */
export function bindChrome(actions) {
  $('btn-new').addEventListener('click', () => actions.newGame());
  $('btn-undo').addEventListener('click', () => actions.undo());
  $('btn-redo').addEventListener('click', () => actions.redo());
  const form = $('settings');
  form.addEventListener('submit', (event) => event.preventDefault());
  form.addEventListener('change', (event) => {
    const { name, value } = event.target;
    if (['kind', 'mode', 'level', 'rules'].includes(name)) actions.updateSettings({ [name]: value });
  });
}
