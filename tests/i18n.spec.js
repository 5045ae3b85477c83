// The page's languages agree: one file per language in www/i18n/, each with
// exactly English's keys and the same {placeholders}, every plural entry
// with exactly the forms its language's Intl.PluralRules uses, and every key
// the page uses exists. These run in Node under Playwright's runner.

import { readFileSync, readdirSync } from 'node:fs';
import { test, expect } from './support/fixtures.js';
import { LANGUAGES, tables, pickLanguage, pluralCategory } from '../www/i18n.js';

const root = new URL('../', import.meta.url);
const placeholders = (s) => [...s.matchAll(/\{(\w+)\}/g)].map((m) => m[1]).sort();
/** A plural entry's forms all together, or a plain string as it is. */
const forms = (entry) => (typeof entry === 'string' ? [entry] : Object.values(entry));
/** Every placeholder any form of an entry uses (a form for one may leave out the count). */
const allPlaceholders = (entry) => [...new Set(forms(entry).flatMap(placeholders))].sort();
/** The plural categories a language's Intl.PluralRules uses, e.g. ['one', 'other'] for English. */
const categories = (code) => new Intl.PluralRules(code).resolvedOptions().pluralCategories.slice().sort();

test('every language offered has its own file in www/i18n/, and every file is offered', () => {
  const files = readdirSync(new URL('www/i18n/', root)).filter((f) => f.endsWith('.js'));
  expect(files.map((f) => f.replace(/\.js$/, '')).sort()).toEqual(LANGUAGES.map((l) => l.code).sort());
  expect(Object.keys(tables).sort()).toEqual(LANGUAGES.map((l) => l.code).sort());
});

for (const { code } of LANGUAGES.filter((l) => l.code !== 'en')) {
  test(`${code} has every English key, no other, and the same placeholders`, async () => {
    const { default: table } = await import(`../www/i18n/${code}.js`);
    const en = tables.en;
    expect(Object.keys(en).filter((k) => !(k in table))).toEqual([]);
    expect(Object.keys(table).filter((k) => !(k in en))).toEqual([]);
    for (const key of Object.keys(en)) {
      // A key is a plural entry in every language or in none.
      expect(typeof table[key], key).toBe(typeof en[key]);
      for (const text of forms(table[key])) {
        expect(typeof text, key).toBe('string');
        expect(text.trim().length, key).toBeGreaterThan(0);
      }
      expect(allPlaceholders(table[key]), key).toEqual(allPlaceholders(en[key]));
    }
  });
}

for (const { code } of LANGUAGES) {
  test(`${code}'s plural entries have exactly the forms its plural rules choose from`, () => {
    const plural = Object.entries(tables[code]).filter(([, entry]) => typeof entry !== 'string');
    expect(plural.length).toBeGreaterThan(0);
    for (const [key, entry] of plural) {
      expect(entry, key).not.toBeNull();
      expect(Object.keys(entry).sort(), key).toEqual(categories(code));
      // The count is shown in the general form, so the reader sees the number.
      expect(placeholders(entry.other), key).toContain('count');
    }
  });
}

test('the plural form follows the count: one and other in English, one form in Chinese', () => {
  expect([0, 1, 2, 21].map((n) => pluralCategory(n, 'en'))).toEqual(['other', 'one', 'other', 'other']);
  expect([0, 1, 2].map((n) => pluralCategory(n, 'zh-CN'))).toEqual(['other', 'other', 'other']);
});

test('every key the page uses exists in English (static HTML and literal t() calls)', () => {
  const html = readFileSync(new URL('index.html', root), 'utf8');
  const keys = new Set([...html.matchAll(/data-i18n(?:-aria|-title)?="([^"]+)"/g)].map((m) => m[1]));
  for (const file of readdirSync(new URL('www/', root)).filter((f) => f.endsWith('.js'))) {
    const js = readFileSync(new URL(`www/${file}`, root), 'utf8');
    for (const m of js.matchAll(/\btn?\('([a-zA-Z0-9.-]+)'/g)) keys.add(m[1]);
    for (const m of js.matchAll(/dataset\.i18n(?:Aria|Title)? = '([a-zA-Z0-9.-]+)'/g)) keys.add(m[1]);
  }
  expect(keys.size).toBeGreaterThan(50);
  expect([...keys].filter((k) => !(k in tables.en))).toEqual([]);
});

test('the language follows the browser: Simplified Chinese for zh, zh-CN, zh-Hans; English otherwise', () => {
  expect(pickLanguage(['zh-CN', 'en'])).toBe('zh-CN');
  expect(pickLanguage(['zh'])).toBe('zh-CN');
  expect(pickLanguage(['zh-Hans-SG'])).toBe('zh-CN');
  expect(pickLanguage(['zh-TW', 'en-US'])).toBe('en');
  expect(pickLanguage(['fr-FR', 'en-GB'])).toBe('en');
  expect(pickLanguage(['fr-FR'])).toBe('en');
  expect(pickLanguage([])).toBe('en');
});
