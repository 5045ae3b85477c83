// The page's modules keep to the architecture's two rules (docs/architecture.md):
// no module of www/ over 400 lines (the string tables aside), and no state
// at a module's top level: no let or var, no empty Map, Set, array or
// object to fill; a part's state lives in the closure of the function that
// makes it (createX/initX). The exceptions: the language (i18n.js), which
// every module's t() reads and which is chosen before the first render,
// and the two entry points, main.js (which makes the parts) and worker.js
// (the worker's, which holds the requests that come before its wasm).
//
// The sources are formatted (two-space indents), so a declaration at a
// module's top level is one that starts its line.

import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readdirSync, readFileSync } from 'node:fs';
import { join, relative } from 'node:path';

const WWW = new URL('../../www/', import.meta.url).pathname;
const TOP_LEVEL_STATE_ALLOWED = new Set(['i18n.js', 'main.js', 'worker.js']);
/** A top-level declaration of state: `let`/`var`, or a `const` holding an empty container to fill. */
const STATE = /^(export )?((let|var) |const \w+ = (\[\]|\{\}|new (Map|Set|WeakMap|WeakSet)\(\));)/;
const MAX_LINES = 400;

/** Every page module of www/ (its own JavaScript: not the generated pkg/ nor the string tables). */
function modules(dir = WWW) {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) return ['pkg', 'i18n'].includes(entry.name) ? [] : modules(path);
    return entry.name.endsWith('.js') ? [relative(WWW, path)] : [];
  });
}

test('there are page modules to check', () => {
  const found = modules();
  assert.ok(found.includes('main.js') && found.includes('features/play.js'), found.join(', '));
});

test('no module of www/ is over 400 lines', () => {
  const long = modules()
    .map((name) => [name, readFileSync(join(WWW, name), 'utf8').trimEnd().split('\n').length])
    .filter(([, lines]) => lines > MAX_LINES);
  assert.deepEqual(long, []);
});

test('no module of www/ but i18n.js and the entry points keeps state at its top level', () => {
  const found = modules()
    .filter((name) => !TOP_LEVEL_STATE_ALLOWED.has(name))
    .flatMap((name) =>
      readFileSync(join(WWW, name), 'utf8')
        .split('\n')
        .flatMap((line, i) => (STATE.test(line) ? [`${name}:${i + 1}: ${line}`] : [])),
    );
  assert.deepEqual(found, []);
});
