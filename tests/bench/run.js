// Drives tests/bench/page.js in headless Chromium once and prints the
// figures as two lines that `cargo xtask bench` reads:
//   perft DEPTH LEAVES MS
//   search DEPTH POSITIONS NODES MS
// Usage: node tests/bench/run.js URL PERFT_DEPTH DEPTH POSITIONS
// (one browser per call, so xtask can interleave native and browser runs
// and both see the same machine load).

import { chromium } from 'playwright-core';
import { args, executablePath } from '../support/browser.js';

const [url, perftDepth, depth, positions] = process.argv.slice(2);
if (!url || [perftDepth, depth, positions].some((v) => !/^\d+$/.test(v ?? ''))) {
  console.error('usage: node tests/bench/run.js URL PERFT_DEPTH DEPTH POSITIONS');
  process.exit(2);
}

// Playwright gives every launch a fresh temporary --user-data-dir.
const browser = await chromium.launch({ executablePath, args, headless: true });
try {
  const page = await browser.newPage();
  const errors = [];
  page.on('pageerror', (e) => errors.push(e.message));
  page.on('console', (m) => m.type() === 'error' && errors.push(m.text()));
  await page.goto(url);
  await page.waitForFunction(() => typeof window.benchmark === 'function').catch((e) => {
    // A module that failed to load never defines it: say why.
    throw new Error(`the benchmark page did not start (${errors.join('; ') || e.message})`);
  });
  const r = await page.evaluate(
    (options) => window.benchmark(options),
    { perftDepth: Number(perftDepth), depth: Number(depth), positions: Number(positions) },
  );
  if (errors.length > 0) throw new Error(`the page reported errors: ${errors.join('; ')}`);
  console.log(`browser ${browser.version()}`);
  console.log(`perft ${perftDepth} ${r.leaves} ${r.perftMs.toFixed(3)}`);
  console.log(`search ${depth} ${positions} ${r.nodes} ${r.searchMs.toFixed(3)}`);
} finally {
  await browser.close();
}
