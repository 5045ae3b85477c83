// @ts-check
// The Share tab (#share-host): copy a link to the game, export and import
// its record; and opening a game from the URL's fragment or the archive.
// Messages about opening a game go in the status box (#notice), where
// they are seen; those of copy, export and import next to their buttons.

import { t, onLangChange } from './i18n.js';
import { copyText, loadRecordText, recordFromHash, shareLink } from './share.js';
import { el } from './dom.js';
import { isTouchDevice } from './pointer.js';

/**
 * Builds the share pane in `host` and opens a game given in the URL's
 * fragment; `focusMoves()` puts the focus on the move list after an import.
 * Returns `{ openRecord(text, options) }`, which resolves to whether the
 * record was opened. A record opened is not read out move by move
 * (`withoutMoveAnnouncements`, the page's Announcer's).
 * @param {HTMLElement} host
 * @param {Controller} controller
 * @param {{focusMoves: () => void, withoutMoveAnnouncements: import('./a11y.js').Announcer['withoutMoveAnnouncements']}} options
 */
export function initSharing(host, controller, { focusMoves, withoutMoveAnnouncements }) {
  const notice = document.getElementById('notice');
  const shareMessage = el('p', { class: 'review-message', role: 'status', 'data-testid': 'share-message' });
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
  // Copies the record in the box (exported, or typed in): phones have no Ctrl+C.
  const copyRecordButton = el('button', { type: 'button', class: 'btn', 'data-testid': 'copy-record' });
  const recordRow = el('div', { class: 'share-record-actions' }, copyRecordButton);
  const linkOut = el('input', { type: 'text', id: 'share-link', readonly: '', 'data-testid': 'share-link' });
  const linkLabel = el('label', { for: 'share-link' });
  const linkRow = el('p', { class: 'share-link-row' }, linkLabel, linkOut);
  linkRow.hidden = true;
  const heading = el('h3', { id: 'share-heading' });
  host.replaceChildren(
    el(
      'section',
      { class: 'share', 'aria-labelledby': 'share-heading' },
      heading,
      el('div', { class: 'share-buttons' }, copyButton, exportButton, importButton),
      linkRow,
      recordLabel,
      recordArea,
      recordRow,
      shareMessage,
    ),
  );

  let state = controller.getState();

  // In the status box, the way back is one of its actions, beside the
  // words; it goes when the notice does (statusbox.js).
  const statusActions = document.getElementById('status-actions');
  const showMessage = (text, kind = 'info', where = notice) => {
    for (const m of [notice, shareMessage]) m.replaceChildren();
    statusActions.querySelector('.back-button')?.remove();
    where.textContent = text;
    where.dataset.kind = kind;
  };

  /**
   * Opens the record `text` on the board. `badKey`: the message if it
   * cannot be opened; `okKey`: the one once it is; `startAt` (if given): the
   * move to show, on `line`; `where`: the element the message goes in.
   * @param {string} text
   * @param {{ badKey?: string, okKey?: string, startAt?: number, line?: number, where?: HTMLElement }} [options]
   * @returns {Promise<boolean>}
   */
  const openRecord = async (text, { badKey, okKey = 'share.imported', startAt, line = 0, where = notice } = {}) => {
    const previous = { record: state.tree ?? state.record, cursor: state.cursor, length: state.length, line: state.lineEnd };
    const result = await withoutMoveAnnouncements(() => loadRecordText(controller, text));
    if (!result.ok) {
      showMessage(t(badKey, { error: result.message }), 'error', where);
      return false;
    }
    if (typeof startAt === 'number') {
      await withoutMoveAnnouncements(() => controller.showLine(line, line ? startAt : Math.min(startAt, state.length)));
    }
    // The game that was on the board is one click away, so opening a link or
    // replaying an old game never loses it.
    const canGoBack = previous.length > 0 && previous.record && previous.record !== (state.tree ?? state.record);
    // Beside the way back, the status box has room for the short message only.
    const key = canGoBack && where === notice && okKey === 'review.shared' ? 'review.sharedBack' : okKey;
    showMessage(t(key, { count: result.length }), 'info', where);
    if (canGoBack) {
      const back = el('button', { type: 'button', class: 'btn back-button', 'data-testid': 'back-to-game', text: t('btn.backToGame') });
      back.addEventListener('click', () =>
        openRecord(previous.record, {
          badKey: 'share.badImport',
          okKey: 'review.restored',
          startAt: previous.cursor,
          line: previous.line,
          where,
        }),
      );
      if (where === notice) {
        back.classList.add('status-action');
        back.dataset.belongs = 'notice';
        // Another notice's actions go with it.
        for (const action of statusActions.querySelectorAll('[data-belongs="notice"]')) action.remove();
        statusActions.prepend(back);
      } else {
        where.append(' ', back);
      }
    }
    return true;
  };

  copyButton.addEventListener('click', async () => {
    const link = shareLink(state.tree ?? state.record);
    linkOut.value = link;
    const copied = await copyText(link);
    linkRow.hidden = copied;
    if (!copied) linkOut.select();
    showMessage(t(copied ? 'share.copied' : 'share.copyFailed'), 'info', shareMessage);
  });
  const touch = () => (isTouchDevice() ? 'Touch' : '');
  const showCopyRecord = () => {
    recordRow.hidden = recordArea.value.trim() === '';
  };
  exportButton.addEventListener('click', () => {
    recordArea.value = state.tree ?? state.record;
    showCopyRecord();
    // Selected for Ctrl+C; on touch, a selection would open the keyboard.
    if (!isTouchDevice()) {
      recordArea.focus();
      recordArea.select();
    }
    showMessage(t(`share.exported${touch()}`), 'info', shareMessage);
  });
  copyRecordButton.addEventListener('click', async () => {
    const copied = await copyText(recordArea.value.trim());
    if (!copied) {
      // The fallback: the text selected, for the browser's own copy.
      recordArea.focus();
      recordArea.select();
    }
    showMessage(t(copied ? 'share.recordCopied' : `share.recordCopyFailed${touch()}`), 'info', shareMessage);
  });
  recordArea.addEventListener('input', showCopyRecord);
  showCopyRecord();
  importButton.addEventListener('click', async () => {
    if (await openRecord(recordArea.value, { badKey: 'share.badImport', where: shareMessage })) focusMoves();
  });

  const openHash = async () => {
    const text = recordFromHash(location.hash);
    if (text === null) return;
    // The fragment is consumed: a reload must show the game as continued, not the link again.
    history.replaceState(null, '', location.pathname + location.search);
    await openRecord(text, { badKey: 'share.badLink', okKey: 'review.shared' });
  };
  window.addEventListener('hashchange', openHash);

  controller.subscribe((change) => {
    if (!('game' in change)) return;
    const before = state;
    state = change.game;
    // A message about opening a game is done once a new move is played or
    // another game is on the board (a new game, a rematch, new settings);
    // the game it replaced stays in the archive.
    if (change.played || before.gameId !== state.gameId) notice.replaceChildren();
  });
  const translate = () => {
    heading.textContent = t('share.title');
    copyButton.textContent = t('btn.copyLink');
    exportButton.textContent = t('btn.export');
    importButton.textContent = t('btn.import');
    copyRecordButton.textContent = t('btn.copyRecord');
    recordLabel.textContent = t('share.recordLabel');
    linkLabel.textContent = t('share.linkLabel');
  };
  onLangChange(translate);
  translate();
  openHash();
  return { openRecord };
}
