// @ts-check
// The statistics panel: win/draw/loss per AI level, two-player and AI-vs-AI
// tallies, a small SVG chart of results over time, and the list of finished
// games, each replayable. Built with DOM APIs only (no innerHTML), and styled
// only through classes so it works under a strict CSP.

import { t, tn, lang, onLangChange } from './i18n.js';
import { LEVEL_ORDER, finished, personalOutcome, statistics } from './records.js';
import { el, svgEl } from './dom.js';

/** How many games the chart and the list show (the newest). */
const CHART_GAMES = 40;
const LIST_GAMES = 12;

/** "Ultimate" / "Ultimate (tie-break)" / "Classic". */
export function gameLabel(entry) {
  if (entry.kind === 'classic') return t('kind.classic');
  const name = t('kind.ultimate');
  return entry.rules === 'tiebreak' ? `${name} (${t('stats.tiebreak')})` : name;
}

/** "Versus the AI: Medium, as X" style text for an entry's mode. */
export function modeLabel(entry) {
  if (entry.mode === 'human') return t('mode.human');
  if (entry.mode === 'watch') return `${t('mode.watch')} · ${t(`level.${entry.level}`)} / ${t(`level.${entry.levelO}`)}`;
  if (entry.mode === 'online') return `${t('mode.online')} · ${entry.side.toUpperCase()}`;
  return `${t(`level.${entry.level}`)} · ${entry.side.toUpperCase()}`;
}

/** The result as the person sees it: Won/Lost/Draw against the AI, else X won/O won/Draw. */
export function resultLabel(entry) {
  if (!finished(entry)) return t('result.unfinished');
  const mine = personalOutcome(entry);
  if (mine) return t(`result.${mine}`);
  if (entry.result === 'draw') return t('result.draw');
  return t(entry.result === 'x' ? 'result.xWins' : 'result.oWins');
}

function formatDate(iso) {
  try {
    return new Intl.DateTimeFormat(lang(), { month: 'short', day: 'numeric', hour: 'numeric', minute: '2-digit' }).format(
      new Date(iso),
    );
  } catch {
    return iso;
  }
}

function moveCount(record) {
  return (record.length - record.indexOf(':') - 1) / 2;
}

function levelTable(perLevel) {
  const head = el(
    'tr',
    {},
    ...['stats.level', 'stats.wins', 'stats.draws', 'stats.losses', 'stats.total'].map((k) =>
      el('th', { scope: 'col', text: t(k) }),
    ),
  );
  const rows = LEVEL_ORDER.map((level) => {
    const s = perLevel[level];
    const total = s.win + s.draw + s.loss;
    return el(
      'tr',
      { 'data-level': level },
      el('th', { scope: 'row', text: t(`level.${level}`) }),
      el('td', { text: String(s.win) }),
      el('td', { text: String(s.draw) }),
      el('td', { text: String(s.loss) }),
      el('td', { text: String(total) }),
    );
  });
  return el(
    'table',
    { class: 'stats-table', 'data-testid': 'stats-levels' },
    el('caption', { text: t('stats.vsAi') }),
    el('thead', {}, head),
    el('tbody', {}, ...rows),
  );
}

/** Online games: the person's wins, draws and losses. */
function onlineTally(counts) {
  return el(
    'p',
    { class: 'stats-tally', 'data-testid': 'stats-online' },
    `${t('mode.online')}: ${t('stats.wins')} ${counts.win} · ${t('stats.draws')} ${counts.draw} · ${t('stats.losses')} ${counts.loss}`,
  );
}

function tally(titleKey, counts, testid) {
  return el(
    'p',
    { class: 'stats-tally', 'data-testid': testid },
    `${t(titleKey)}: ${t('scores.xWins')} ${counts.x} · ${t('scores.oWins')} ${counts.o} · ${t('scores.draws')} ${counts.draw}`,
  );
}

/**
 * The chart of the newest games against the AI: one bar per game, up for a
 * win, a short mark on the axis for a draw, down for a loss. It has a title,
 * a description and a text summary, so it is not only visual.
 */
export function resultsChart(games) {
  const vsAi = games.filter((g) => g.mode === 'ai' && finished(g)).slice(-CHART_GAMES);
  const width = 320;
  const height = 120;
  const mid = height / 2;
  const step = width / Math.max(vsAi.length, 10);
  const barWidth = Math.max(2, step * 0.7);
  const root = svgEl('svg', {
    viewBox: `0 0 ${width} ${height}`,
    class: 'stats-chart',
    role: 'img',
    'aria-labelledby': 'stats-chart-title stats-chart-desc',
    'data-testid': 'stats-chart',
  });
  const title = svgEl('title', { id: 'stats-chart-title' });
  title.textContent = t('stats.chartTitle');
  const desc = svgEl('desc', { id: 'stats-chart-desc' });
  desc.textContent = t('stats.chartDesc');
  root.append(title, desc, svgEl('line', { x1: 0, y1: mid, x2: width, y2: mid, class: 'chart-axis' }));
  vsAi.forEach((g, i) => {
    const outcome = personalOutcome(g);
    const x = i * step + (step - barWidth) / 2;
    const bar =
      outcome === 'win'
        ? svgEl('rect', { x, y: 8, width: barWidth, height: mid - 8 })
        : outcome === 'loss'
          ? svgEl('rect', { x, y: mid, width: barWidth, height: mid - 8 })
          : svgEl('rect', { x, y: mid - 4, width: barWidth, height: 8 });
    bar.setAttribute('class', `chart-bar chart-${outcome}`);
    bar.setAttribute('data-outcome', outcome);
    root.append(bar);
  });
  const counts = { win: 0, draw: 0, loss: 0 };
  for (const g of vsAi) counts[personalOutcome(g)] += 1;
  const summary = el('p', {
    class: 'stats-summary',
    text: tn('stats.chartSummary', vsAi.length, { wins: counts.win, draws: counts.draw, losses: counts.loss }),
  });
  return el(
    'figure',
    { class: 'stats-figure' },
    root,
    el('figcaption', {}, summary),
  );
}

/** The newest finished games as a compact list (fits the narrow side column and phones). */
function archiveList(games, onReplay, showAll, onShowAll) {
  const newest = (showAll ? games : games.slice(-LIST_GAMES)).reverse();
  const items = newest.map((g) => {
    const date = formatDate(g.date);
    const button = el('button', {
      type: 'button',
      class: 'btn replay-button',
      text: t('btn.replay'),
      'aria-label': t('stats.replay', { date }),
    });
    button.addEventListener('click', () => onReplay(g));
    const outcome = !finished(g) ? 'unfinished' : (personalOutcome(g) ?? (g.result === 'draw' ? 'draw' : 'decided'));
    return el(
      'li',
      { class: 'history-item', 'data-record': g.record },
      el('span', { class: 'history-date', text: date }),
      el('span', { class: 'history-what', text: `${gameLabel(g)} · ${modeLabel(g)} · ${tn('stats.movesCount', moveCount(g.record))}` }),
      el('span', { class: `history-result result-${outcome}`, text: resultLabel(g) }),
      button,
    );
  });
  return el(
    'section',
    { class: 'history', 'aria-labelledby': 'history-heading' },
    el('h3', { id: 'history-heading', text: t('stats.history') }),
    el('ol', { class: 'history-list', 'data-testid': 'history-list' }, ...items),
    ...moreButton(games.length, showAll, onShowAll),
  );
}

/** "Show all 40 games" when the list is cut short. */
function moreButton(total, showAll, onShowAll) {
  if (showAll || total <= LIST_GAMES) return [];
  const more = el('button', { type: 'button', class: 'btn show-all', 'data-testid': 'show-all', text: tn('stats.showAll', total) });
  more.addEventListener('click', onShowAll);
  return [more];
}

/**
 * Fills `panel` with the statistics and keeps it current: it is redrawn when
 * the archive changes (the controller, which stores every game, tells
 * an 'archive' change) and on a language switch. `onReplay(entry)` loads
 * a game for review; `announce(text)` tells a screen reader.
 * @param {HTMLElement | null} panel
 * @param {Controller} controller
 * @param {{
 *   onReplay?: (entry: import('./records.js').ArchiveEntry) => void,
 *   announce?: (text: string) => void,
 * }} [options]
 */
export function initStats(panel, controller, { onReplay, announce = () => {} } = {}) {
  if (!panel) return null;
  panel.classList.add('stats-panel');
  let showAll = false;
  const render = () => {
    const games = controller.archiveGames();
    const { perLevel, human, watch, online } = statistics(games);
    const heading = el('h2', { id: 'stats-heading', class: 'card-title', text: t('stats.title') });
    panel.setAttribute('aria-labelledby', 'stats-heading');
    if (games.length === 0) {
      panel.replaceChildren(heading, el('p', { class: 'stats-none', text: t('stats.none') }));
      return;
    }
    const clear = el('button', { type: 'button', class: 'btn clear-history', text: t('btn.clearHistory') });
    clear.addEventListener('click', () => {
      // eslint-disable-next-line no-alert -- a native confirm is accessible and needs no markup
      if (!window.confirm(t('stats.clearConfirm'))) return;
      controller.clearArchive();
      announce(t('stats.cleared'));
    });
    panel.replaceChildren(
      heading,
      levelTable(perLevel),
      tally('mode.human', human, 'stats-human'),
      tally('mode.watch', watch, 'stats-watch'),
      onlineTally(online),
      el('h3', { text: t('stats.chartTitle') }),
      resultsChart(games),
      archiveList(games, onReplay, showAll, () => {
        showAll = true;
        render();
        /** @type {HTMLButtonElement | null} */ (
          panel.querySelector('.history-list li:nth-child(' + (LIST_GAMES + 1) + ') button')
        )?.focus();
      }),
      clear,
    );
  };
  controller.subscribe((change) => {
    if (change.cause === 'archive') render();
  });
  onLangChange(render);
  render();
  return { render };
}
