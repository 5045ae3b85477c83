// @ts-check
// The page's languages: the choice of language (a saved choice, else
// navigator.languages, else English), the switch, the lookup t() every
// module uses, and the fill-in of `data-i18n` (text), `data-i18n-aria`
// (aria-label) and `data-i18n-title` attributes.
//
// Each language's strings are one file in www/i18n/, keyed alike; English
// (en.js) is the reference, and a key missing from another language falls
// back to English, never to a bare key.
//
// A string that names a count has one entry per plural form, keyed by the
// CLDR categories the language's Intl.PluralRules uses: English
// `{one, other}`, Chinese `{other}` only (tests/i18n.spec.js checks each
// table has exactly its language's forms). tn() picks the form for a count.
//
// Importing this module picks the language at once, so the first render of
// the page is already in it. A switch fires the document event `uttt:lang`
// ({detail: {lang}}) and calls every onLangChange listener.

import en from './i18n/en.js';
import zhCN from './i18n/zh-CN.js';

const STORAGE_KEY = 'uttt.lang';

/** The languages offered, with their names in their own language. */
export const LANGUAGES = [
  { code: 'en', name: 'English' },
  { code: 'zh-CN', name: '简体中文' },
];

/** Every language's table by code, for the tests that check they agree. */
export const tables = { en, 'zh-CN': zhCN };

let current = 'en';
const listeners = new Set();

/** Picks a supported language code for a list of BCP 47 tags, e.g. navigator.languages. */
export function pickLanguage(tags) {
  for (const tag of tags || []) {
    const lower = String(tag).toLowerCase();
    if (lower.startsWith('zh')) {
      // Traditional-script tags get English rather than the wrong script.
      if (/^zh-(hant|tw|hk|mo)\b/.test(lower)) continue;
      return 'zh-CN';
    }
    if (lower.startsWith('en')) return 'en';
  }
  return 'en';
}

function readSaved() {
  try {
    const saved = localStorage.getItem(STORAGE_KEY);
    return saved && Object.hasOwn(tables, saved) ? saved : null;
  } catch {
    return null; // storage may be disabled; the browser's language still works
  }
}

function fill(template, params) {
  if (!params) return template;
  return template.replace(/\{(\w+)\}/g, (whole, name) =>
    Object.hasOwn(params, name) ? String(params[name]) : whole,
  );
}

/** The current language code ('en' or 'zh-CN'). */
export function lang() {
  return current;
}

/** One Intl.PluralRules per language, made on first use. */
const pluralRules = new Map();

/** The CLDR plural category ('one', 'other', ...) of `count` in language `code`. */
export function pluralCategory(count, code = current) {
  if (!pluralRules.has(code)) pluralRules.set(code, new Intl.PluralRules(code));
  return pluralRules.get(code).select(count);
}

/**
 * The template of an entry in language `code`: a plain string as it is, a
 * plural entry's form for `count` (its `other` form when the category is
 * missing or no count is given).
 */
function form(entry, count, code) {
  if (typeof entry === 'string') return entry;
  const category = typeof count === 'number' && Number.isFinite(count) ? pluralCategory(count, code) : 'other';
  return entry[category] ?? entry.other;
}

/**
 * The string for `key` in the current language with `{name}` placeholders
 * filled from `params`. Unknown keys fall back to English, then to the key.
 * A plural entry takes the form for `params.count` (prefer tn() for those).
 */
export function t(key, params) {
  const own = tables[current][key];
  if (own !== undefined) return fill(form(own, params?.count, current), params);
  if (en[key] !== undefined) return fill(form(en[key], params?.count, 'en'), params);
  return key;
}

/**
 * The string for `key` that names `count` things, in the form the current
 * language uses for that number ("1 move", "2 moves"; Chinese has one
 * form). `count` also fills `{count}`; `params` fill the rest.
 */
export function tn(key, count, params) {
  return t(key, { ...params, count });
}

/** The translated name of region `i` (0-8) of a 3x3 board. */
export function regionName(i) {
  return t(`region.${i}`);
}

/**
 * Fills every `data-i18n*` element under `root`; for the document also its language and title.
 * @param {Document | Element} [root]
 */
export function applyI18n(root = document) {
  for (const el of /** @type {NodeListOf<HTMLElement>} */ (root.querySelectorAll('[data-i18n]'))) el.textContent = t(el.dataset.i18n);
  for (const el of /** @type {NodeListOf<HTMLElement>} */ (root.querySelectorAll('[data-i18n-aria]'))) {
    el.setAttribute('aria-label', t(el.dataset.i18nAria));
  }
  for (const el of /** @type {NodeListOf<HTMLElement>} */ (root.querySelectorAll('[data-i18n-title]'))) {
    el.setAttribute('title', t(el.dataset.i18nTitle));
  }
  if (root === document) {
    document.documentElement.lang = current;
    document.title = t('app.title');
  }
}

/** Switches language, saves the choice, re-translates the page and tells listeners. */
export function setLang(code) {
  if (!Object.hasOwn(tables, code)) return false;
  current = code;
  try {
    localStorage.setItem(STORAGE_KEY, code);
  } catch {
    // Not saved, but the switch still applies to this visit.
  }
  if (typeof document !== 'undefined') {
    applyI18n(document);
    document.dispatchEvent(new CustomEvent('uttt:lang', { detail: { lang: code } }));
  }
  for (const fn of listeners) fn(code);
  return true;
}

/** Calls `fn(code)` after every language switch; returns a function that unsubscribes. */
export function onLangChange(fn) {
  listeners.add(fn);
  return () => listeners.delete(fn);
}

/** Builds the language switch (a labelled <select>) inside `host`. */
export function languageSwitch(host) {
  const label = document.createElement('label');
  label.className = 'lang-switch';
  const text = document.createElement('span');
  text.dataset.i18n = 'lang.label';
  text.textContent = t('lang.label');
  const select = document.createElement('select');
  select.id = 'lang-select';
  select.append(
    ...LANGUAGES.map(({ code, name }) => {
      const opt = document.createElement('option');
      opt.value = code;
      opt.lang = code;
      opt.textContent = name;
      return opt;
    }),
  );
  select.value = current;
  select.addEventListener('change', () => setLang(select.value));
  label.append(text, select);
  host.append(label);
  return select;
}

// Choose the language now, before the page's first render.
if (typeof navigator !== 'undefined') {
  current = readSaved() ?? pickLanguage(navigator.languages);
  if (typeof document !== 'undefined') applyI18n(document);
}
