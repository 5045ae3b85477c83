// Drives tests/bench/page.js in headless Chromium once and prints the
// figures as lines that `cargo xtask bench` reads:
//   browser VERSION
//   perft DEPTH LEAVES WALL_MS CPU_MS
//   search DEPTH POSITIONS NODES WALL_MS CPU_MS
// Usage: node tests/bench/run.js URL PERFT_DEPTH DEPTH POSITIONS
// (one browser per call, so xtask can interleave native and browser runs
// and both see the same machine load).
//
// WALL_MS is performance.now() in the page. CPU_MS is the page's main-thread
// CPU time over the same call (DevTools `ThreadTime`), which other processes
// on a shared machine do not inflate; for the search it also covers the
// untimed table clears, as the native CPU figure does.

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
  await page.waitForFunction(() => typeof window.benchSearch === 'function').catch((e) => {
    // A module that failed to load never defines it: say why.
    throw new Error(`the benchmark page did not start (${errors.join('; ') || e.message})`);
  });
  const cdp = await page.context().newCDPSession(page);
  await cdp.send('Performance.enable', { timeDomain: 'threadTicks' });
  const threadSeconds = async () => {
    const { metrics } = await cdp.send('Performance.getMetrics');
    const found = metrics.find((m) => m.name === 'ThreadTime');
    if (!found) throw new Error('this Chromium reports no ThreadTime metric');
    return found.value;
  };
  // CPU milliseconds of the page's main thread spent in `call`.
  const timed = async (call) => {
    const before = await threadSeconds();
    const result = await call();
    return { ...result, cpuMs: (await threadSeconds() - before) * 1000 };
  };

  await page.evaluate(
    ([pd, d, n]) => window.warmUp(pd, d, n),
    [Number(perftDepth), Number(depth), Number(positions)],
  );
  const p = await timed(() => page.evaluate((d) => window.benchPerft(d), Number(perftDepth)));
  const s = await timed(() => page.evaluate(
    ([d, n]) => window.benchSearch(d, n),
    [Number(depth), Number(positions)],
  ));
  if (errors.length > 0) throw new Error(`the page reported errors: ${errors.join('; ')}`);
  console.log(`browser ${browser.version()}`);
  console.log(`perft ${perftDepth} ${p.leaves} ${p.ms.toFixed(3)} ${p.cpuMs.toFixed(3)}`);
  console.log(`search ${depth} ${positions} ${s.nodes} ${s.ms.toFixed(3)} ${s.cpuMs.toFixed(3)}`);
} finally {
  await browser.close();
}
