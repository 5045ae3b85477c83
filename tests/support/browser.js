// How Playwright starts Debian's Chromium on this kind of machine. Kept in
// step with CHROMIUM_ARGS in xtask/src/test.rs (the wasm-bindgen tests).

/** Debian's Chromium; Playwright's own browser download is never used. */
export const executablePath = process.env.UTTT_CHROMIUM || '/usr/bin/chromium';

/**
 * No GPU, no sandbox (CI runs as root), and none of the background
 * connections that a closed network refuses. Playwright itself adds a fresh
 * --user-data-dir and its own --headless.
 */
export const args = [
  '--headless',
  '--no-sandbox',
  '--disable-gpu',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
  '--no-first-run',
];
