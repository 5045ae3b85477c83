// @ts-check
// Sharing a game: "Copy link" puts the record in the URL fragment; opening
// such a link loads the game for review; the record can be exported and
// imported as text. Every record is checked by core (through the
// controller's loadRecord, which uses the wasm parser) before anything
// changes, and a refused one leaves the current game exactly as it was.

import { t, lang } from './i18n.js';

/** Longer than any record core writes (2,000 moves with their lines' brackets); refused before parsing. */
export const MAX_RECORD_CHARS = 8000;

const HEADER = /^\s*(ultimate-standard|ultimate-tiebreak|ultimate|classic)\s*:/i;

/** The record text held in a URL fragment (`#ultimate-standard:e5e4`), or null if there is none. */
export function recordFromHash(hash) {
  const raw = String(hash || '').replace(/^#/, '');
  // `#/...` is a view's address (views.js), never a record.
  if (raw === '' || raw.startsWith('/')) return null;
  try {
    return decodeURIComponent(raw);
  } catch {
    return raw; // a stray '%' is a malformed record, reported by the parser
  }
}

/** The link to the page with `record` in the fragment (query and path kept, so sub-paths work). */
export function shareLink(record, href = location.href) {
  const u = new URL(href);
  u.hash = record;
  return u.href;
}

/**
 * A sentence in the current language saying what is wrong with a record,
 * from the error the controller threw (code, message, at, ply, reason).
 */
export function describeRecordError(error, text) {
  if (!error) return '';
  if (error.code === 'too-long') return t('recerr.tooLong');
  if (typeof text === 'string' && text.trim() === '') return t('recerr.empty');
  const at = typeof error.at === 'number' ? error.at + 1 : 1;
  if (typeof error.ply === 'number') {
    const reasonKey = {
      'game-over': 'illegal.gameOver',
      'wrong-board': 'illegal.wrongBoard',
      'cell-taken': 'illegal.taken',
      'board-decided': 'illegal.decided',
      'out-of-range': 'illegal.outOfRange',
    }[error.reason];
    return t('recerr.illegal', { n: error.ply + 1, at, reason: reasonKey ? t(reasonKey) : '' });
  }
  // English has core's precise sentence; other languages get a translated summary.
  if (lang() === 'en' && error.message) return error.message;
  if (typeof text === 'string' && !HEADER.test(text)) return t('recerr.unknownGame', { at });
  return t('recerr.expected', { at });
}

/**
 * Loads `text` through `controller.loadRecord`. Resolves to
 * `{ ok: true, length }` or `{ ok: false, message }`; on failure the
 * controller has changed nothing.
 */
export async function loadRecordText(controller, text) {
  const clean = String(text ?? '').trim();
  if (clean.length > MAX_RECORD_CHARS) {
    return { ok: false, message: describeRecordError({ code: 'too-long' }, clean) };
  }
  // Records only: a position string (no ':') is not a game to review.
  if (!clean.includes(':')) {
    return {
      ok: false,
      message: describeRecordError({ code: 'parse-error', at: 0 }, clean),
    };
  }
  try {
    const result = await controller.loadRecord(clean);
    if (result && result.ok === false) {
      return { ok: false, message: describeRecordError(result.error || result, clean) };
    }
  } catch (error) {
    return { ok: false, message: describeRecordError(error, clean) };
  }
  return { ok: true, length: controller.getState().length };
}

/** Copies text to the clipboard; false when the browser refuses (no permission, insecure context). */
export async function copyText(text) {
  try {
    if (!navigator.clipboard) return false;
    await navigator.clipboard.writeText(text);
    return true;
  } catch {
    return false;
  }
}
