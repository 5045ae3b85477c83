// Online play across a restart of the game server (issue 42, item 10): on
// SIGTERM uttt-server closes every game connection with 1012; the pages say
// online play is restarting, keep the board in view, and come back by
// themselves when a server is back on the same address and database, with
// every move there and the game going on.
//
// The spec stops a server, so it starts one of its own on a free port with
// a database in a folder of its own, never the one the other specs share.
// `cargo xtask test` names the server's binary and the dist folder
// (UTTT_SERVER_BIN, UTTT_SITE); run by `npx playwright test`, the spec finds
// the binary under target/ and serves the working tree, as `cargo xtask
// serve` does.

import { spawn } from 'node:child_process';
import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createInterface } from 'node:readline';
import { fileURLToPath } from 'node:url';
import { test as base, expect } from './support/fixtures.js';
import { open, showTab, cell, marks, expectMarks, myName, person } from './game-helpers.js';
import { tables } from '../www/i18n.js';

const root = fileURLToPath(new URL('../', import.meta.url));

/** Chromium's own console line for a WebSocket that found no server: expected while none runs. */
const REFUSED = /^console\.error: WebSocket connection to 'ws:\/\/127\.0\.0\.1:\d+\/[^']*ws' failed: /;

/** The server's binary, the folder it serves, and under which path. */
function serverSetup() {
  const prefix = new URL(process.env.UTTT_BASE_URL || 'http://127.0.0.1/').pathname;
  if (process.env.UTTT_SERVER_BIN && process.env.UTTT_SITE) {
    return { bin: process.env.UTTT_SERVER_BIN, site: ['--site', process.env.UTTT_SITE, '--prefix', prefix] };
  }
  const target = process.env.CARGO_TARGET_DIR ? join(root, process.env.CARGO_TARGET_DIR) : join(root, 'target');
  const bin = ['server', 'debug'].map((p) => join(target, p, 'uttt-server')).find(existsSync);
  if (!bin) throw new Error(`no uttt-server under ${target}: build it (cargo build -p uttt-server)`);
  // The working tree's site entries only, as `cargo xtask serve` serves them.
  const entries = 'index.html,style.css,www,sw.js,manifest.webmanifest,icons';
  return { bin, site: ['--site', root, '--prefix', '/', '--entries', entries] };
}

/**
 * The servers one test starts: each is stopped after the test, passed or
 * failed or timed out, and what they printed is attached to the report.
 */
class Servers {
  constructor() {
    this.setup = serverSetup();
    this.dir = mkdtempSync(join(tmpdir(), 'uttt-restart-'));
    this.db = join(this.dir, 'rooms.sqlite3');
    /** @type {{ child: import('node:child_process').ChildProcess, exited: Promise<{code: number | null, signal: string | null}> }[]} */
    this.running = [];
    this.output = [];
  }

  /** Starts a server on `port` (0: a free one) with this test's database; resolves to its URL. */
  async start(port = 0) {
    const { bin, site } = this.setup;
    const child = spawn(bin, ['--addr', `127.0.0.1:${port}`, ...site, '--db', this.db], { stdio: ['ignore', 'pipe', 'pipe'] });
    const n = this.running.length + 1;
    const exited = new Promise((resolve) => child.once('exit', (code, signal) => resolve({ code, signal })));
    // Should this worker end without its teardown, the server ends with it.
    const orphan = () => child.kill('SIGKILL');
    process.once('exit', orphan);
    exited.then(() => process.off('exit', orphan));
    this.running.push({ child, exited });
    createInterface({ input: child.stderr }).on('line', (line) => this.output.push(`[server ${n} stderr] ${line}`));
    const lines = createInterface({ input: child.stdout });
    const url = await new Promise((resolve, reject) => {
      const timer = setTimeout(() => reject(new Error('the server did not say where it serves within 30 s')), 30_000);
      lines.on('line', (line) => {
        this.output.push(`[server ${n}] ${line}`);
        const said = line.match(/^uttt-server: serving (\S+)$/);
        if (said) {
          clearTimeout(timer);
          resolve(said[1]);
        }
      });
      exited.then(({ code, signal }) => {
        clearTimeout(timer);
        reject(new Error(`the server ended (${code ?? signal}) before serving:\n${this.output.join('\n')}`));
      });
    });
    return url;
  }

  /** Sends SIGTERM to the last server started; resolves to how it ended. */
  terminate() {
    const { child, exited } = this.running[this.running.length - 1];
    child.kill('SIGTERM');
    return exited;
  }

  /** Kills whatever still runs and removes the database's folder. */
  async stopAll() {
    for (const { child, exited } of this.running) {
      if (child.exitCode === null && child.signalCode === null) {
        child.kill('SIGKILL');
        await exited;
      }
    }
    rmSync(this.dir, { recursive: true, force: true });
  }
}

const test = base.extend({
  servers: async ({}, use, testInfo) => {
    const servers = new Servers();
    try {
      await use(servers);
    } finally {
      await servers.stopAll();
      await testInfo.attach('uttt-server output', { body: servers.output.join('\n'), contentType: 'text/plain' });
    }
  },
});

// While no server runs, each attempt to reconnect makes Chromium say so on
// the console; nothing else may be logged.
test.use({ allowedErrors: [REFUSED] });


/** Counts the WebSockets `page` opens (tried, whether or not a server answered). */
function countSockets(page) {
  const count = { n: 0 };
  page.on('websocket', () => (count.n += 1));
  return count;
}

const html = (page) => page.locator('html');

/** Where `selector` is drawn on `page`, and whether its text fits its box. */
function box(page, selector) {
  return page.locator(selector).evaluate((node) => {
    const r = node.getBoundingClientRect();
    return {
      left: r.left,
      top: r.top,
      right: r.right,
      bottom: r.bottom,
      fits: node.scrollWidth <= node.clientWidth + 1 && node.scrollHeight <= node.clientHeight + 1,
    };
  });
}

/** The restarting notice as `page` shows it: in view, whole, beside the board and not over it. */
async function expectNoticeBesideBoard(page) {
  await expect(page.locator('#status')).toBeInViewport({ ratio: 1 });
  await expect(page.locator('#board')).toBeInViewport();
  const [status, board] = [await box(page, '#status'), await box(page, '#board')];
  expect(status.fits, 'the notice is cut off').toBe(true);
  const overlap = status.left < board.right && board.left < status.right && status.top < board.bottom && board.top < status.bottom;
  expect(overlap, 'the notice covers the board').toBe(false);
}

test('a server restart: the pages say online play is restarting, come back by themselves, and the game goes on', async ({ page, browser, servers }, testInfo) => {
  test.setTimeout(150_000);
  const errors = [];
  const url = await servers.start();
  const port = Number(new URL(url).port);
  expect(port).toBeGreaterThan(0);

  // X on a phone, O on a laptop, a watcher on a phone in Chinese.
  await page.setViewportSize({ width: 390, height: 844 });
  const xSockets = countSockets(page);
  await open(page, url);
  await showTab(page, 'online');
  await page.selectOption('#online-kind', 'ultimate');
  await page.selectOption('#online-colour', 'x');
  await page.locator('[data-action="online-create"]').click();
  await expect(html(page)).toHaveAttribute('data-online-state', 'waiting');
  const link = await page.locator('[data-online-link]').getAttribute('href');
  expect(link).toMatch(new RegExp(`^http://127\\.0\\.0\\.1:${port}/.*\\?room=[0-9a-z]{16}$`));

  const o = await person(browser, errors, { context: { viewport: { width: 1280, height: 720 } }, allowed: REFUSED });
  const oSockets = countSockets(o.page);
  await o.page.goto(link);
  await expect(html(o.page)).toHaveAttribute('data-online-state', 'playing');
  await expect(o.page.locator('#player-o-name')).toHaveText(await myName(o.page));
  const watcher = await person(browser, errors, { context: { viewport: { width: 390, height: 844 }, locale: 'zh-CN' }, allowed: REFUSED });
  const wSockets = countSockets(watcher.page);
  await watcher.page.goto(link);
  await expect(html(watcher.page)).toHaveAttribute('data-online-state', 'playing');
  await expect(watcher.page.locator('html')).toHaveAttribute('lang', 'zh-CN');

  const everyone = [
    { name: 'x', page, sockets: xSockets, lang: 'en' },
    { name: 'o', page: o.page, sockets: oSockets, lang: 'en' },
    { name: 'watcher', page: watcher.page, sockets: wSockets, lang: 'zh-CN' },
  ];
  // X b2 of the top-left board sends O to the centre board, and so on.
  const moves = [
    [page, 0, 4],
    [o.page, 4, 0],
    [page, 0, 8],
    [o.page, 8, 0],
  ];
  for (const [n, [who, b, c]] of moves.entries()) {
    await cell(who, b, c).click();
    for (const p of everyone) await expectMarks(p.page, n + 1);
  }
  const before = await marks(page);
  for (const p of everyone) expect(await marks(p.page)).toEqual(before);

  // The server is stopped as a service manager stops it.
  const opened = everyone.map((p) => p.sockets.n);
  const ended = await servers.terminate();
  expect(ended, 'the server exits cleanly on SIGTERM').toEqual({ code: 0, signal: null });

  for (const [i, p] of everyone.entries()) {
    await expect(html(p.page)).toHaveAttribute('data-online-state', 'reconnecting');
    // The page tries again and again while no server runs; what it says
    // stays the restart, not a lost connection.
    await expect.poll(() => p.sockets.n, { timeout: 15_000 }).toBeGreaterThanOrEqual(opened[i] + 2);
    await expect(p.page.locator('#status')).toHaveText(tables[p.lang]['online.restarting']);
    await expect(html(p.page)).toHaveAttribute('data-online-state', 'reconnecting');
    expect(await marks(p.page), `${p.name}'s board while the server is down`).toEqual(before);
    await expectNoticeBesideBoard(p.page);
  }
  expect(tables['zh-CN']['online.restarting']).not.toBe(tables.en['online.restarting']);
  const shot = async (p, name) => {
    const path = testInfo.outputPath(`notice-${name}.png`);
    await p.screenshot({ path });
    await testInfo.attach(`notice ${name}`, { path, contentType: 'image/png' });
  };
  await shot(page, 'en-light-390x844');
  await shot(o.page, 'en-light-1280x720');
  await shot(watcher.page, 'zh-CN-light-390x844');
  await o.page.emulateMedia({ colorScheme: 'dark' });
  await expectNoticeBesideBoard(o.page);
  await shot(o.page, 'en-dark-1280x720');
  await page.emulateMedia({ colorScheme: 'dark' });
  await expectNoticeBesideBoard(page);
  await shot(page, 'en-dark-390x844');

  // Nobody can move meanwhile: the page says the move was not sent.
  await cell(page, 0, 2).click();
  await expect(page.locator('#status')).toHaveText(tables.en['refuse.onlineOffline']);
  expect(await marks(page)).toEqual(before);
  // Nor resign or offer a draw: nothing would reach the room.
  for (const action of ['online-resign', 'online-draw']) {
    await expect(page.locator(`[data-action="${action}"]`)).toBeDisabled();
  }

  // Back on the same address and the same database: every page comes back
  // by itself (its longest wait between attempts is 8 s), the same moves.
  await servers.start(port);
  for (const p of everyone) {
    await expect(html(p.page)).toHaveAttribute('data-online-state', 'playing', { timeout: 30_000 });
    await expect(p.page.locator('#status')).not.toHaveText(tables[p.lang]['online.restarting']);
    expect(await marks(p.page), `${p.name}'s board after the restart`).toEqual(before);
  }
  // In their own seats: the players are still X and O, the watcher watches.
  await expect(page.locator('#player-x-name')).toHaveText(await myName(page));
  await expect(o.page.locator('#player-o-name')).toHaveText(await myName(o.page));
  const say = (lang, key, params) => tables[lang][key].replace(/\{(\w+)\}/g, (_, name) => params[name]);
  await expect(page.locator('.online-who')).toHaveText(say('en', 'online.youPlay', { side: 'X', watchers: 1 }));
  await expect(o.page.locator('.online-who')).toHaveText(say('en', 'online.youPlay', { side: 'O', watchers: 1 }));
  await expect(watcher.page.locator('.online-who')).toHaveText(say('zh-CN', 'online.watching', { watchers: 1 }));
  for (const action of ['online-resign', 'online-draw']) {
    await expect(page.locator(`[data-action="${action}"]`)).toBeEnabled();
  }

  // The game goes on: X plays, O and the watcher see it; O answers, X sees it.
  await cell(page, 0, 2).click();
  for (const p of everyone) await expectMarks(p.page, 5);
  await cell(o.page, 2, 4).click();
  for (const p of everyone) await expectMarks(p.page, 6);
  const after = await marks(page);
  for (const p of everyone) expect(await marks(p.page)).toEqual(after);
  expect(after.filter(Boolean).length).toBe(6);

  await o.context.close();
  await watcher.context.close();
  expect(errors).toEqual([]);
});
