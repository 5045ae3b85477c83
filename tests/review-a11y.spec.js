// The automated accessibility scan of issue 7: axe-core finds no serious or
// critical violation on the start page, mid-game and at the game's end, in
// the light and the dark theme. Counts per impact are written to the test's
// output for the note.

import AxeBuilder from '@axe-core/playwright';
import { test, expect } from './support/fixtures.js';
import { open, choose, cell, expectMarks } from './game-helpers.js';

async function scan(page, where, testInfo) {
  const { violations, passes } = await new AxeBuilder({ page }).withTags(['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa', 'best-practice']).analyze();
  const counts = { critical: 0, serious: 0, moderate: 0, minor: 0 };
  for (const v of violations) counts[v.impact] += v.nodes.length;
  const summary = violations.map((v) => `${v.impact} ${v.id} (${v.nodes.length}): ${v.nodes[0].target.join(' ')}`);
  console.log(`axe ${where}: ${passes.length} rules passed; violations by impact ${JSON.stringify(counts)}${summary.length ? `\n  ${summary.join('\n  ')}` : ''}`);
  const bad = violations.filter((v) => v.impact === 'serious' || v.impact === 'critical');
  expect(bad.map((v) => `${v.id}: ${v.help} — ${v.nodes.map((n) => n.target.join(' ')).join(', ')}`), where).toEqual([]);
}

for (const colorScheme of ['light', 'dark']) {
  test.describe(`${colorScheme} theme`, () => {
    test.use({ colorScheme });

    test('start page, mid-game and game end have no serious or critical violations', async ({ page }, testInfo) => {
      // Three full scans on a shared two-core machine.
      test.setTimeout(120_000);
      await open(page);
      await scan(page, `${colorScheme} start`, testInfo);
      await choose(page, { mode: 'human' });
      for (const [b, c] of [[4, 0], [0, 4], [4, 1], [1, 4], [4, 2]]) await cell(page, b, c).click();
      await expectMarks(page, 5);
      await page.locator('.move-list button[data-ply="3"]').click();
      await expectMarks(page, 3);
      await scan(page, `${colorScheme} mid-game (browsing)`, testInfo);
      await choose(page, { kind: 'classic', mode: 'human' });
      for (const [b, c] of [[0, 0], [0, 1], [0, 3], [0, 4], [0, 6]]) await cell(page, b, c).click();
      await expect(page.locator('#status')).toHaveText('X wins!');
      await scan(page, `${colorScheme} game end`, testInfo);
    });
  });
}
