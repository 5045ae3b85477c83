// Each wasm module of the game stays within the size budget written in
// size-budget.json at the repository's root: fetched from the served dist
// folder, as a player's browser fetches it, and gzipped at level 9 here.
// Each offers only its own API. That the page's module links no search and
// the worker's no view or tree, `cargo xtask build` checks in the names
// cargo leaves in each (xtask/src/build.rs, check_absent).

import { readFileSync } from 'node:fs';
import { gzipSync } from 'node:zlib';
import { test, expect } from './support/fixtures.js';

const budget = JSON.parse(readFileSync(new URL('../size-budget.json', import.meta.url), 'utf8'));

/** The module's wasm bytes as served, checked to be a real module. */
async function wasmOf(request, name) {
  const response = await request.get(`www/pkg/${name}_bg.wasm`);
  expect(response.status()).toBe(200);
  expect(response.headers()['content-type']).toBe('application/wasm');
  const raw = await response.body();
  // The magic number: a real module, not an error page.
  expect([...raw.subarray(0, 4)]).toEqual([0x00, 0x61, 0x73, 0x6d]);
  return raw;
}

/** The names a module exports to its glue. */
async function exportsOf(request, name) {
  const module = await WebAssembly.compile(await wasmOf(request, name));
  return WebAssembly.Module.exports(module).map((e) => e.name);
}

for (const [name, limit] of Object.entries(budget.modules)) {
  test(`the ${name} module is within its size budget`, async ({ request }) => {
    const raw = await wasmOf(request, name);
    const gzip = gzipSync(raw, { level: 9 }).length;
    console.log(`${name}: ${raw.length} B raw, ${gzip} B gzip (budget ${limit.rawBytes} / ${limit.gzipBytes})`);
    expect(raw.length).toBeLessThanOrEqual(limit.rawBytes);
    expect(gzip).toBeLessThanOrEqual(limit.gzipBytes);
  });
}

test("the page module offers the game, and nothing of the worker's", async ({ request }) => {
  const names = await exportsOf(request, 'uttt_page');
  expect(names).toContain('webgame_play');
  expect(names).toContain('webgame_view');
  expect(names.filter((n) => /worker|perft|bench/i.test(n))).toEqual([]);
});

test("the worker module offers its loop, and nothing of the page's", async ({ request }) => {
  const names = await exportsOf(request, 'uttt_worker');
  expect(names).toContain('runWorker');
  expect(names.filter((n) => /webgame|level|perft|bench/i.test(n))).toEqual([]);
});
