// @ts-check
// Everything around the board: the players and their scores, whose turn it
// is, the status line, the buttons, the settings form and the AI vs AI
// controls. It draws what the controller's page state says.

import { t } from './i18n.js';
import { readScoreCard } from './scorecard.js';
import { element as $, button, form as formOf, input, select } from './dom.js';

function levelOptions(levels) {
  return levels.map(({ name, budgetMs }) => {
    const option = document.createElement('option');
    option.value = name;
    option.dataset.i18n = `level.${name}`;
    option.dataset.budget = String(budgetMs);
    option.textContent = t(`level.${name}`);
    return option;
  });
}

/** Fills the level menus from the engine's levels (done once, and on language change). */
export function fillLevels(levels, selected, selectedO = selected) {
  select('set-level').replaceChildren(...levelOptions(levels));
  select('set-level-o').replaceChildren(...levelOptions(levels));
  select('set-level').value = selected;
  select('set-level-o').value = selectedO;
}

/** A change of rating as shown: +8, −8 (a minus sign), ±0. */
export function ratingChange(n) {
  return n > 0 ? `+${n}` : n < 0 ? `\u2212${-n}` : '±0';
}

/**
 * A signed-in player's chip online: the name, and in a rated game the
 * rating (marked while provisional), after the game the new one and the
 * change; null for a guest.
 * @param {import('./protocol').RoomState | null} room
 * @param {'x' | 'o'} side
 */
export function onlineChip(room, side) {
  const name = side === 'x' ? room?.xName : room?.oName;
  if (!name) return null;
  const stakes = room?.stakes?.[side];
  if (!stakes) return name;
  const mark = stakes.provisional ? '?' : '';
  // The rating goes on a line of its own: a chip is narrow on a phone.
  if (stakes.after === null) return `${name}\n${stakes.rating}${mark}`;
  return `${name}\n${t('player.ratedAfter', { rating: String(stakes.after), change: ratingChange(stakes.after - stakes.rating) })}`;
}

/** The names on the two player chips, X's then O's. */
function playerNames(settings, online) {
  if (online) {
    const room = online.roomState;
    const [x, o] = [onlineChip(room, 'x'), onlineChip(room, 'o')];
    if (!online.side) return [x ?? t('player.x'), o ?? t('player.o')];
    return online.side === 'x' ? [x ?? t('player.you'), o ?? t('player.friend')] : [x ?? t('player.friend'), o ?? t('player.you')];
  }
  const level = t(`level.${settings.level}`);
  switch (settings.mode) {
    case 'ai-x':
      return [t('player.you'), t('player.aiLevel', { level })];
    case 'ai-o':
      return [t('player.aiLevel', { level }), t('player.you')];
    case 'watch':
      return [t('player.aiLevel', { level }), t('player.aiLevel', { level: t(`level.${settings.levelO}`) })];
    default:
      return [t('player.x'), t('player.o')];
  }
}

function setText(node, text) {
  if (node.textContent !== text) node.textContent = text;
}

/** Redraws the status, players, buttons and settings from the controller's page state. */
export function renderChrome(page) {
  const status = $('status');
  setText(status, page.status.text);
  status.dataset.tone = page.status.tone;

  // AI vs AI: Pause and Step take Undo and Redo's places beside the board
  // (nobody here played a move to take back; the move list browses).
  const watching = page.settings.mode === 'watch';
  $('btn-undo').hidden = watching;
  $('btn-redo').hidden = watching;
  $('btn-pause').hidden = !watching;
  $('btn-step').hidden = !watching;
  button('btn-undo').disabled = !page.canUndo;
  button('btn-redo').disabled = !page.canRedo;
  $('btn-continue').hidden = !page.canContinue;
  // Online, the room's buttons (in the Online tab) replace New game and
  // the settings; the chips show the clocks instead of the scores.
  const online = page.online;
  button('btn-new').disabled = Boolean(online);
  $('settings').inert = Boolean(online);
  $('players').dataset.online = String(Boolean(online));

  const { settings, view } = page;
  const [xName, oName] = playerNames(settings, online);
  setText($('player-x-name'), xName);
  setText($('player-o-name'), oName);
  setText($('score-x'), String(page.scores.x));
  setText($('score-o'), String(page.scores.o));
  setText($('score-draw'), String(page.scores.draw));
  readScoreCard(page);
  for (const chip of document.querySelectorAll('.player[data-side]')) {
    if (!(chip instanceof HTMLElement)) continue;
    chip.dataset.turn = String(view.outcome === null && view.sideToMove === chip.dataset.side);
  }

  const field = (name) => /** @type {HTMLInputElement | HTMLSelectElement} */ (formOf('settings').elements.namedItem(name));
  field('kind').value = settings.kind;
  field('mode').value = settings.mode;
  field('level').value = settings.level;
  field('levelO').value = settings.levelO;
  field('rules').value = settings.rules;
  field('rules').disabled = settings.kind === 'classic';
  // Two players have no AI, so no level to choose.
  $('field-level').hidden = settings.mode === 'human';
  $('field-level-o').hidden = !watching;
  setText($('set-level-label'), t(watching ? 'settings.levelX' : 'settings.level'));
  $('watch-controls').hidden = !watching;
  setText($('btn-pause-label'), t(page.paused ? 'watch.resume' : 'watch.pause'));
  $('btn-pause').setAttribute('aria-pressed', String(page.paused));
  button('btn-step').disabled = !page.paused || page.thinking || view.outcome !== null;
  select('set-speed').value = settings.speed;
  input('opt-ponder').checked = settings.ponder;
  document.body.dataset.mode = settings.mode;
}

/** Wires the buttons and the settings form to the controller's actions. */
export function bindChrome(actions) {
  $('btn-new').addEventListener('click', () => actions.newGame());
  $('btn-undo').addEventListener('click', () => actions.undo());
  $('btn-redo').addEventListener('click', () => actions.redo());
  $('btn-continue').addEventListener('click', () => actions.continueHere());
  $('btn-pause').addEventListener('click', () => actions.setPaused(!actions.getState().paused));
  $('btn-step').addEventListener('click', () => actions.step());
  select('set-speed').addEventListener('change', (event) => actions.updateSettings({ speed: select('set-speed').value }));
  input('opt-ponder').addEventListener('change', () => actions.updateSettings({ ponder: input('opt-ponder').checked }));
  const form = formOf('settings');
  form.addEventListener('submit', (event) => event.preventDefault());
  form.addEventListener('change', (event) => {
    const { name, value } = /** @type {HTMLInputElement | HTMLSelectElement} */ (event.target);
    if (['kind', 'mode', 'level', 'levelO', 'rules'].includes(name)) actions.updateSettings({ [name]: value });
  });
}
