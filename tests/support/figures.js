// Speed figures of the page. The @quiet specs check behaviour with bounds
// only a defect crosses (seconds); what they measure on the way is attached
// here, printed, and summed up by `cargo xtask bench --page`, which runs
// them several times and prints each figure's median.

/**
 * Attaches `figures` (a flat object of numbers) to the running test.
 * @param {import('@playwright/test').TestInfo} testInfo
 * @param {Record<string, number | null>} figures
 */
export function reportFigures(testInfo, figures) {
  testInfo.annotations.push({ type: 'figures', description: JSON.stringify(figures) });
  console.log(`figures of "${testInfo.title}": ${JSON.stringify(figures)}`);
}

/** The median of a list of numbers (the upper one of an even count). */
export function median(values) {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.floor(sorted.length / 2)];
}
