// Qualities of the page beyond the rules: the strict CSP holds, motion
// respects the user's setting, both themes have readable contrast, and a
// browser that refuses storage still plays.

import { test, expect } from './support/fixtures.js';
import { open, choose, cell, expectMarks } from './game-helpers.js';

/** Relative luminance contrast of two `rgb(...)` colours (WCAG 2). */
function contrast(a, b) {
  const lum = (rgb) => {
    const [r, g, bl] = rgb.match(/[\d.]+/g).slice(0, 3).map(Number).map((v) => {
      const c = v / 255;
      return c <= 0.03928 ? c / 12.92 : ((c + 0.055) / 1.055) ** 2.4;
    });
    return 0.2126 * r + 0.7152 * g + 0.0722 * bl;
  };
  const [hi, lo] = [lum(a), lum(b)].sort((x, y) => y - x);
  return (hi + 0.05) / (lo + 0.05);
}

test('the strict Content-Security-Policy is in force and never violated', async ({ page }) => {
  await page.addInitScript(() => {
    window.__violations = [];
    document.addEventListener('securitypolicyviolation', (e) => window.__violations.push(`${e.violatedDirective} ${e.blockedURI}`));
  });
  await open(page);
  const csp = await page.locator('meta[http-equiv="Content-Security-Policy"]').getAttribute('content');
  expect(csp).toContain("script-src 'self' 'wasm-unsafe-eval'");
  expect(csp).not.toContain("'unsafe-inline'");
  expect(csp).not.toMatch(/'unsafe-eval'/);
  // No inline handlers or scripts in the markup.
  const inline = await page.evaluate(() => [...document.querySelectorAll('*')].some((el) => [...el.attributes].some((a) => a.name.startsWith('on')))
    || [...document.scripts].some((s) => !s.src));
  expect(inline).toBe(false);
  await choose(page, { level: 'easy' });
  await cell(page, 4, 4).click();
  await expectMarks(page, 2);
  expect(await page.evaluate(() => window.__violations)).toEqual([]);
});

test('the winning-line pulse is off under prefers-reduced-motion', async ({ browser }) => {
  for (const [motion, animated] of [['no-preference', true], ['reduce', false]]) {
    const context = await browser.newContext({ reducedMotion: motion });
    const page = await context.newPage();
    await context.addInitScript(() => localStorage.setItem('uttt.tutorial', 'done'));
    await open(page);
    await choose(page, { kind: 'classic', mode: 'human' });
    for (const c of [0, 3, 1, 4, 2]) await cell(page, 0, c).click();
    const line = page.locator('#board .cell[data-line]');
    await expect(line).toHaveCount(3);
    const name = await line.first().evaluate((el) => getComputedStyle(el).animationName);
    expect(name !== 'none', `animation under ${motion}`).toBe(animated);
    await context.close();
  }
});

for (const scheme of ['light', 'dark']) {
  test(`the ${scheme} theme has readable text and marks`, async ({ browser }) => {
    const context = await browser.newContext({ colorScheme: scheme });
    const page = await context.newPage();
    await context.addInitScript(() => localStorage.setItem('uttt.tutorial', 'done'));
    await open(page);
    await choose(page, { mode: 'human' });
    await cell(page, 4, 4).click();
    await cell(page, 4, 0).click();
    const colours = await page.evaluate(() => {
      const style = (sel, pseudo) => getComputedStyle(document.querySelector(sel), pseudo);
      return {
        text: style('#status').color,
        // The status's box (with its messages) is the surface behind its words.
        surface: style('#status-box').backgroundColor,
        cell: style('#board .small[data-board="0"] .cell[data-cell="8"]').backgroundColor,
        x: style('#board .cell[data-mark="x"]', '::before').backgroundColor,
        o: style('#score-o').color,
        muted: style('.tabs [role="tab"][aria-selected="false"]').color,
        card: style('.panel').backgroundColor,
      };
    });
    expect(contrast(colours.text, colours.surface)).toBeGreaterThanOrEqual(7);
    expect(contrast(colours.muted, colours.card)).toBeGreaterThanOrEqual(4.5);
    expect(contrast(colours.x, colours.cell)).toBeGreaterThanOrEqual(3);
    expect(contrast(colours.o, colours.card)).toBeGreaterThanOrEqual(3);
    await context.close();
  });
}

test('a browser that refuses storage still plays, and says games will not be kept', async ({ page }) => {
  await page.addInitScript(() => {
    Storage.prototype.setItem = () => {
      throw new DOMException('quota exceeded', 'QuotaExceededError');
    };
  });
  await open(page);
  await expect(page.locator('#status')).toContainText('does not let the page save games');
  await choose(page, { mode: 'human' });
  await cell(page, 4, 4).click();
  await expect(cell(page, 4, 4)).toHaveAttribute('data-mark', 'x');
  await expect(page.locator('#status')).toHaveText('O must play in the centre board.');
});
