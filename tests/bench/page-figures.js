// Prints the medians of the speed figures in a Playwright JSON report, for
// `cargo xtask bench --page`: every figure the tests attached with
// reportFigures (tests/support/figures.js), grouped by test, over its runs.
// Usage: node tests/bench/page-figures.js REPORT.json

import { readFileSync } from 'node:fs';
import { median } from '../support/figures.js';

const [reportPath] = process.argv.slice(2);
if (!reportPath) {
  console.error('usage: node tests/bench/page-figures.js REPORT.json');
  process.exit(2);
}
const report = JSON.parse(readFileSync(reportPath, 'utf8'));

/** Every spec of a suite and its child suites. */
function* specsOf(suite) {
  yield* suite.specs ?? [];
  for (const child of suite.suites ?? []) yield* specsOf(child);
}

/** test title -> figure name -> values over the runs */
const byTest = new Map();
for (const spec of report.suites.flatMap((suite) => [...specsOf(suite)])) {
  for (const run of spec.tests) {
    for (const result of run.results) {
      for (const note of result.annotations ?? []) {
        if (note.type !== 'figures') continue;
        const figures = byTest.get(spec.title) ?? new Map();
        byTest.set(spec.title, figures);
        for (const [name, value] of Object.entries(JSON.parse(note.description))) {
          if (typeof value !== 'number') continue;
          figures.set(name, [...(figures.get(name) ?? []), value]);
        }
      }
    }
  }
}

if (byTest.size === 0) {
  console.error(`no figures in ${reportPath}: did the specs run?`);
  process.exit(1);
}
const cpus = (await import('node:os')).cpus();
console.log(`\npage figures in headless Chromium on ${cpus.length} cores (${cpus[0]?.model ?? 'unknown CPU'})`);
console.log(`${'figure'.padEnd(34)} ${'median'.padStart(9)} ${'low'.padStart(9)} ${'high'.padStart(9)}  runs`);
for (const [title, figures] of byTest) {
  console.log(`\n${title}`);
  for (const [name, values] of figures) {
    const cells = [median(values), Math.min(...values), Math.max(...values)].map((v) => String(Math.round(v)).padStart(9));
    console.log(`  ${name.padEnd(32)} ${cells.join(' ')}  ${values.length}`);
  }
}
