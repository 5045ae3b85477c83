// The game's wasm stays within the size budget written in size-budget.json
// at the repository's root: it is fetched from the served dist folder, as a
// player's browser fetches it, and gzipped at level 9 here.

import { readFileSync } from 'node:fs';
import { gzipSync } from 'node:zlib';
import { test, expect } from './support/fixtures.js';

const budget = JSON.parse(readFileSync(new URL('../size-budget.json', import.meta.url), 'utf8'));

test('the game wasm is within its size budget', async ({ request }) => {
  const response = await request.get('www/pkg/uttt_web_bg.wasm');
  expect(response.status()).toBe(200);
  expect(response.headers()['content-type']).toBe('application/wasm');
  const raw = await response.body();
  // The magic number: a real module, not an error page.
  expect([...raw.subarray(0, 4)]).toEqual([0x00, 0x61, 0x73, 0x6d]);
  const gzip = gzipSync(raw, { level: 9 }).length;
  console.log(`wasm size: ${raw.length} B raw, ${gzip} B gzip (budget ${budget.wasmRawBytes} / ${budget.wasmGzipBytes})`);
  expect(raw.length).toBeLessThanOrEqual(budget.wasmRawBytes);
  expect(gzip).toBeLessThanOrEqual(budget.wasmGzipBytes);
});

test('the game wasm carries no benchmark exports', async ({ request }) => {
  const glue = await (await request.get('www/pkg/uttt_web.js')).text();
  expect(glue).toContain('WebGame');
  expect(glue).not.toContain('perftCount');
  expect(glue).not.toContain('SearchBench');
});
