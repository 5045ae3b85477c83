// The review side of the page: the move list (numbered by move pair) with
// browsing by click and keys, the evaluation bar and the Hint button fed by
// the worker's search, sharing, and the statistics pane. It only talks to
// the game through the controller's functions and `uttt:*` events (see the
// top of controller.js), so every rule is still decided by core.

import { t, onLangChange, regionName, languageSwitch } from './i18n.js';
import { announce, initBoardKeys, oneMoveOn, withoutMoveAnnouncements } from './a11y.js';
import { registerServiceWorker } from './offline.js';
import { copyText, loadRecordText, recordFromHash, shareLink } from './share.js';
import { initStats } from './stats.js';
import { el } from './dom.js';
import { confirmDialog } from './dialog.js';

const SETTINGS_KEY = 'uttt.review';
const HINT_MS = 1000;
/** The most moves one Undo takes back (yours and the AI's reply). */
const UNDO_SPAN = 2;

function loadSettings() {
  try {
    const s = JSON.parse(localStorage.getItem(SETTINGS_KEY) || '{}');
    return { showEval: s.showEval !== false, showHint: s.showHint !== false };
  } catch {
    return { showEval: true, showHint: true };
  }
}

function saveSettings(s) {
  try {
    localStorage.setItem(SETTINGS_KEY, JSON.stringify(s));
  } catch {
    // Settings then last for this visit only.
  }
}

/** Moves of a winner, from signed plies to the end (positive: X wins). */
function mateText(plies) {
  const n = Math.ceil(Math.abs(plies) / 2);
  return t(plies > 0 ? 'eval.xMate' : 'eval.oMate', { n });
}

/**
 * The text and X's share (0-1) of the evaluation bar for a progress report,
 * or for the result (`'x'`, `'o'`, `'draw'`) once the shown position is
 * over: the last search's "wins in 1" would be out of date by then.
 */
export function evalView(progress, result = null) {
  if (result === 'x') return { share: 1, text: t('eval.xWon') };
  if (result === 'o') return { share: 0, text: t('eval.oWon') };
  if (result === 'draw') return { share: 0.5, text: t('eval.drawn') };
  if (!progress) return { share: 0.5, text: t('eval.none') };
  const { score, mate, depth } = progress;
  let share;
  let text;
  if (typeof mate === 'number' && mate !== 0) {
    share = mate > 0 ? 1 : 0;
    text = mateText(mate);
  } else {
    const s = Number(score) || 0;
    // About 100 per won small board; tanh keeps the bar off the ends until a proof.
    share = 0.5 + 0.45 * Math.tanh(s / 300);
    // 100 is about one small board won: the unit a player can picture.
    const shown = (Math.abs(s) / 100).toFixed(1);
    if (Math.abs(s) < 15) text = t('eval.even');
    else text = t(s > 0 ? 'eval.xAhead' : 'eval.oAhead', { score: shown });
  }
  if (typeof depth === 'number') text += ` · ${t('eval.depth', { depth })}`;
  return { share, text };
}

/**
 * Builds the review panel in `#review-panel`, the evaluation bar in
 * `#eval-bar` and the statistics in `#stats-panel`, wires them to
 * `controller`, and opens a game given in the URL fragment.
 */
export function initReview(controller, { tabs } = {}) {
  const panel = document.getElementById('review-panel');
  const evalHost = document.getElementById('eval-bar');
  const statsPanel = document.getElementById('stats-panel');
  if (!panel) return null;
  panel.hidden = false;
  if (statsPanel) statsPanel.hidden = false;
  const topbar = document.getElementById('topbar-actions');
  if (topbar && !document.getElementById('lang-select')) languageSwitch(topbar);
  initBoardKeys(document.getElementById('board'));
  registerServiceWorker();
  const settings = loadSettings();

  // ---- structure (built once; text filled by `translate`) ----
  const heading = el('h2', { id: 'review-heading', class: 'card-title' });
  panel.setAttribute('aria-labelledby', 'review-heading');
  // Link and replay messages go under the status line (#notice), where they
  // are seen; share, import and export messages next to their buttons.
  const message = document.getElementById('notice');
  const shareMessage = el('p', { class: 'review-message', role: 'status', 'data-testid': 'share-message' });
  const note = el('p', { class: 'review-note', 'data-testid': 'review-note' });
  const navButtons = {
    first: el('button', { type: 'button', class: 'btn', 'data-nav': 'first', text: '«' }),
    prev: el('button', { type: 'button', class: 'btn', 'data-nav': 'prev', text: '‹' }),
    next: el('button', { type: 'button', class: 'btn', 'data-nav': 'next', text: '›' }),
    last: el('button', { type: 'button', class: 'btn', 'data-nav': 'last', text: '»' }),
  };
  const nav = el('div', { class: 'review-nav', role: 'group' }, ...Object.values(navButtons));
  const list = el('ol', { class: 'move-list', 'data-testid': 'move-list' });
  const empty = el('p', { class: 'move-list-empty' });
  const hintButton = document.getElementById('btn-hint');
  const hintText = document.getElementById('hint-text');
  const evalToggle = el('input', { type: 'checkbox', id: 'opt-show-eval' });
  const hintToggle = el('input', { type: 'checkbox', id: 'opt-show-hint' });
  evalToggle.checked = settings.showEval;
  hintToggle.checked = settings.showHint;
  const evalLabel = el('label', { for: 'opt-show-eval' });
  const hintLabel = el('label', { for: 'opt-show-hint' });
  const options = el(
    'div',
    { class: 'review-options' },
    el('span', { class: 'option' }, evalToggle, evalLabel),
    el('span', { class: 'option' }, hintToggle, hintLabel),
  );
  const copyButton = el('button', { type: 'button', class: 'btn', 'data-testid': 'copy-link' });
  const exportButton = el('button', { type: 'button', class: 'btn', 'data-testid': 'export' });
  const importButton = el('button', { type: 'button', class: 'btn', 'data-testid': 'import' });
  const recordArea = el('textarea', {
    id: 'record-text',
    rows: '3',
    spellcheck: 'false',
    autocomplete: 'off',
    'data-testid': 'record-text',
  });
  const recordLabel = el('label', { for: 'record-text' });
  const linkOut = el('input', { type: 'text', id: 'share-link', readonly: '', 'data-testid': 'share-link' });
  const linkLabel = el('label', { for: 'share-link' });
  const linkRow = el('p', { class: 'share-link-row' }, linkLabel, linkOut);
  linkRow.hidden = true;
  const shareHeading = el('h3', { id: 'share-heading' });
  const share = el(
    'section',
    { class: 'share', 'aria-labelledby': 'share-heading' },
    shareHeading,
    el('div', { class: 'share-buttons' }, copyButton, exportButton, importButton),
    linkRow,
    recordLabel,
    recordArea,
    shareMessage,
  );
  document.getElementById('display-options').append(...options.children);
  document.getElementById('share-host').replaceChildren(share);
  panel.replaceChildren(heading, note, nav, list, empty);

  const evalFill = el('div', { class: 'eval-fill' });
  const evalText = el('p', { class: 'eval-text', 'data-testid': 'eval-text' });
  if (evalHost) {
    evalHost.classList.add('eval-bar');
    evalHost.replaceChildren(
      el('div', { class: 'eval-track', 'aria-hidden': 'true' }, evalFill),
      evalText,
    );
  }

  let state = controller.getState();
  let progress = null;
  let hinted = null;
  let shownRecord = null;

  const showMessage = (text, kind = 'info', where = message) => {
    for (const m of [message, shareMessage]) m.replaceChildren();
    where.textContent = text;
    where.dataset.kind = kind;
  };

  // ---- evaluation bar ----
  const drawEval = () => {
    if (!evalHost) return;
    evalHost.hidden = !settings.showEval;
    const view = evalView(progress, state.over ? state.result : null);
    // CSSOM, not a style attribute: allowed under the strict CSP.
    evalFill.style.setProperty('--x-share', String(view.share));
    evalText.replaceChildren(el('span', { class: 'visually-hidden', text: `${t('eval.label')}: ` }), view.text);
  };

  // ---- move list ----
  const plyButtons = () => [...list.querySelectorAll('button[data-ply]')];
  const focusTarget = () =>
    list.querySelector(`button[data-ply="${Math.max(1, state.cursor)}"]`) || list.querySelector('button');

  const buildList = () => {
    const moves = state.moves || [];
    const items = [];
    for (let i = 0; i < moves.length; i += 2) {
      const pair = i / 2 + 1;
      const li = el('li', { class: 'move-pair' }, el('span', { class: 'move-number', 'aria-hidden': 'true', text: `${pair}.` }));
      for (const j of [i, i + 1]) {
        if (j >= moves.length) break;
        const player = j % 2 === 0 ? 'X' : 'O';
        li.append(
          el('button', {
            type: 'button',
            class: `move move-${player.toLowerCase()}`,
            'data-ply': String(j + 1),
            'aria-label': t('review.moveLabel', { n: pair, player, move: moves[j] }),
            text: moves[j],
          }),
        );
      }
      items.push(li);
    }
    list.replaceChildren(...items);
    shownRecord = `${state.record}|${t('review.moveLabel')}`;
  };

  const markCursor = () => {
    const hadFocus = list.contains(document.activeElement);
    for (const b of plyButtons()) {
      const ply = Number(b.dataset.ply);
      b.tabIndex = -1;
      if (ply === state.cursor) b.setAttribute('aria-current', 'step');
      else b.removeAttribute('aria-current');
      b.classList.toggle('after-cursor', ply > state.cursor);
    }
    const target = focusTarget();
    if (target) {
      target.tabIndex = 0;
      if (hadFocus) target.focus({ preventScroll: true });
      keepInView(target);
    }
  };

  // The list scrolls inside its own box; the page itself never moves.
  // Only the list's scrollTop is set, and only when the move is out of view.
  const keepInView = (target) => {
    if (list.hidden || list.clientHeight === 0) return;
    const top = target.offsetTop - list.offsetTop;
    const bottom = top + target.offsetHeight;
    if (top < list.scrollTop) list.scrollTop = top;
    else if (bottom > list.scrollTop + list.clientHeight) list.scrollTop = bottom - list.clientHeight;
  };

  const render = () => {
    const length = state.length || 0;
    const cursor = state.cursor || 0;
    if (shownRecord !== `${state.record}|${t('review.moveLabel')}`) buildList();
    markCursor();
    empty.hidden = length > 0;
    list.hidden = length === 0;
    navButtons.first.disabled = navButtons.prev.disabled = cursor === 0;
    navButtons.next.disabled = navButtons.last.disabled = cursor >= length;
    if (cursor < length) {
      note.textContent =
        cursor === 0 ? t('review.atStart') : t('review.browsing', { ply: cursor, length });
      note.hidden = false;
    } else {
      note.hidden = true;
    }
    panel.classList.toggle('browsing', cursor < length);
    hintButton.hidden = !settings.showHint;
    document.querySelector('.controls')?.setAttribute('data-buttons', settings.showHint ? '4' : '3');
    hintButton.disabled = Boolean(state.over || state.thinking);
    drawEval();
  };

  const translate = () => {
    heading.textContent = t('review.title');
    list.setAttribute('aria-label', t('review.listLabel'));
    nav.setAttribute('aria-label', t('review.navLabel'));
    for (const [k, key] of Object.entries({ first: 'btn.first', prev: 'btn.prev', next: 'btn.next', last: 'btn.last' })) {
      navButtons[k].setAttribute('aria-label', t(key));
      navButtons[k].title = t(key);
    }
    empty.textContent = t('review.empty');
    evalLabel.textContent = t('settings.showEval');
    hintLabel.textContent = t('settings.showHint');
    shareHeading.textContent = t('share.title');
    copyButton.textContent = t('btn.copyLink');
    exportButton.textContent = t('btn.export');
    importButton.textContent = t('btn.import');
    recordLabel.textContent = t('share.recordLabel');
    linkLabel.textContent = t('share.linkLabel');
    if (evalHost) {
      evalHost.setAttribute('aria-label', t('eval.label'));
      evalHost.title = t('eval.unit');
    }
    render();
  };

  // ---- browsing ----
  const go = async (ply) => {
    const target = Math.max(0, Math.min(ply, state.length || 0));
    if (target === state.cursor) return;
    await withoutMoveAnnouncements(() => controller.jump(target));
    announce(target === 0 ? t('announce.start') : t('announce.position', { ply: target, length: state.length }));
  };
  navButtons.first.addEventListener('click', () => go(0));
  navButtons.prev.addEventListener('click', () => go(state.cursor - 1));
  navButtons.next.addEventListener('click', () => go(state.cursor + 1));
  navButtons.last.addEventListener('click', () => go(state.length));
  list.addEventListener('click', (event) => {
    const b = event.target.closest('button[data-ply]');
    if (!b) return;
    // Clicking the move at the cursor again shows the position before it, so every position is reachable.
    go(Number(b.dataset.ply));
  });
  list.addEventListener('keydown', (event) => {
    const keys = {
      ArrowLeft: () => state.cursor - 1,
      ArrowUp: () => state.cursor - 1,
      ArrowRight: () => state.cursor + 1,
      ArrowDown: () => state.cursor + 1,
      Home: () => 0,
      End: () => state.length,
    };
    const to = keys[event.key];
    if (!to) return;
    event.preventDefault();
    go(to());
  });

  // ---- branching from an earlier position ----
  // Dropping what one Undo took back (one move, or yours and the AI's reply)
  // is ordinary play; dropping more is what browsing can do by accident, so
  // only that asks first. Until a different move is played the later moves
  // stay as redo (core's History keeps them).
  if (controller.setBranchGuard) {
    controller.setBranchGuard(async (cursor, length) =>
      length - cursor <= UNDO_SPAN ||
      confirmDialog(t('review.branchTitle'), t('review.branchConfirm', { count: length - cursor })),
    );
  }

  // ---- hint ----
  const clearHint = () => {
    if (hinted) hinted.classList.remove('hint-cell');
    hinted = null;
    hintText.textContent = '';
  };
  hintButton.addEventListener('click', async () => {
    if (!controller.analyse || hintButton.disabled || hintButton.hidden) return;
    clearHint();
    const asked = state.record + state.cursor;
    hintText.textContent = t('hint.thinking');
    hintButton.disabled = true;
    try {
      const answer = await controller.analyse({ ms: HINT_MS });
      if (!answer || state.record + state.cursor !== asked) {
        hintText.textContent = answer ? '' : t('hint.unavailable');
        return;
      }
      const cell = document.querySelector(`button[data-board="${answer.board}"][data-cell="${answer.cell}"]`);
      if (cell) {
        cell.classList.add('hint-cell');
        hinted = cell;
      }
      hintText.textContent =
        state.kind === 'classic'
          ? t('hint.resultClassic', { move: answer.move, cell: regionName(answer.cell) })
          : t('hint.result', { move: answer.move, board: regionName(answer.board), cell: regionName(answer.cell) });
      if (typeof answer.score === 'number' || typeof answer.mate === 'number') {
        progress = { score: answer.score, mate: answer.mate, depth: answer.depth };
        drawEval();
      }
    } catch {
      hintText.textContent = t('hint.unavailable');
    } finally {
      hintButton.disabled = Boolean(state.over || state.thinking);
    }
  });

  // ---- settings ----
  evalToggle.addEventListener('change', () => {
    settings.showEval = evalToggle.checked;
    saveSettings(settings);
    render();
  });
  hintToggle.addEventListener('change', () => {
    settings.showHint = hintToggle.checked;
    saveSettings(settings);
    if (!settings.showHint) {
      clearHint();
      hintText.textContent = '';
    }
    render();
  });

  // ---- sharing ----
  const openRecord = async (text, { badKey, okKey = 'share.imported', startAt, where = message } = {}) => {
    const previous = { record: state.record, cursor: state.cursor, length: state.length };
    const result = await withoutMoveAnnouncements(() => loadRecordText(controller, text));
    if (!result.ok) {
      showMessage(t(badKey, { error: result.message }), 'error', where);
      return false;
    }
    progress = null;
    if (typeof startAt === 'number') await withoutMoveAnnouncements(() => controller.jump(startAt));
    showMessage(t(okKey, { count: result.length }), 'info', where);
    // The game that was on the board is one click away, so opening a link or
    // replaying an old game never loses it.
    if (previous.length > 0 && previous.record && previous.record !== state.record) {
      const back = el('button', { type: 'button', class: 'btn back-button', 'data-testid': 'back-to-game', text: t('btn.backToGame') });
      back.addEventListener('click', () =>
        openRecord(previous.record, { badKey: 'share.badImport', okKey: 'review.restored', startAt: previous.cursor, where }),
      );
      where.append(' ', back);
    }
    return true;
  };
  copyButton.addEventListener('click', async () => {
    const link = shareLink(state.record);
    linkOut.value = link;
    const copied = await copyText(link);
    linkRow.hidden = copied;
    if (!copied) linkOut.select();
    showMessage(t(copied ? 'share.copied' : 'share.copyFailed'), 'info', shareMessage);
  });
  exportButton.addEventListener('click', () => {
    recordArea.value = state.record;
    recordArea.focus();
    recordArea.select();
    showMessage(t('share.exported'), 'info', shareMessage);
  });
  importButton.addEventListener('click', async () => {
    if (await openRecord(recordArea.value, { badKey: 'share.badImport', where: shareMessage })) focusTarget()?.focus({ preventScroll: true });
  });
  const openHash = async () => {
    const text = recordFromHash(location.hash);
    if (text === null) return;
    // The fragment is consumed: a reload must show the game as continued, not the link again.
    history.replaceState(null, '', location.pathname + location.search);
    await openRecord(text, { badKey: 'share.badLink', okKey: 'review.shared' });
  };
  window.addEventListener('hashchange', openHash);

  // ---- statistics ----
  initStats(statsPanel, {
    announce,
    onReplay: async (entry) => {
      if (await openRecord(entry.record, { badKey: 'share.badImport', startAt: 0 })) {
        tabs?.show('moves');
        focusTarget()?.focus({ preventScroll: true });
      }
    },
  });

  // ---- following the game ----
  document.addEventListener('uttt:state', (event) => {
    const before = state;
    state = event.detail || controller.getState();
    if (before.record !== state.record || before.cursor !== state.cursor) clearHint();
    // The evaluation stays only across a move played on the same line; after
    // a jump, undo, load or new game it described another position.
    if (!oneMoveOn(before, state) && (before.record !== state.record || before.cursor !== state.cursor)) progress = null;
    // A message about opening a game is done once a new move is played
    // (browsing keeps the record as it is); the game it replaced stays in
    // the history.
    if (oneMoveOn(before, state) && before.record !== state.record) message.replaceChildren();
    render();
  });
  document.addEventListener('uttt:progress', (event) => {
    progress = event.detail;
    drawEval();
  });
  onLangChange(translate);
  translate();
  openHash();
  return { render, hint: () => hintButton.click() };
}
