// The account panel's WebAuthn plumbing (www/accountapi.js): the server's
// base64url fields become the buffers navigator.credentials takes, and the
// browser's buffers go back as the unpadded base64url the server reads.

import { test } from 'node:test';
import assert from 'node:assert/strict';
import { fromBase64url, toBase64url, creationOptions, requestOptions } from '../../www/accountapi.js';

test('base64url goes both ways, unpadded, with - and _ for + and /', () => {
  const bytes = Uint8Array.from([0xfb, 0xff, 0xbf, 0x00, 0x01]);
  assert.equal(toBase64url(bytes), '-_-_AAE');
  assert.deepEqual([...fromBase64url('-_-_AAE')], [...bytes]);
  assert.equal(toBase64url(bytes.buffer), '-_-_AAE');
  for (let n = 0; n < 40; n += 1) {
    const some = Uint8Array.from({ length: n }, (_, i) => (i * 37 + n) & 0xff);
    assert.deepEqual([...fromBase64url(toBase64url(some))], [...some]);
  }
});

test('the server’s options become buffers where WebAuthn wants them, the rest kept', () => {
  const created = creationOptions({
    publicKey: { challenge: 'AAEC', rp: { id: 'localhost' }, user: { id: 'AQ', name: 'Ann' }, excludeCredentials: [{ type: 'public-key', id: 'Ag' }] },
  }).publicKey;
  assert.deepEqual([...created.challenge], [0, 1, 2]);
  assert.deepEqual([...created.user.id], [1]);
  assert.equal(created.user.name, 'Ann');
  assert.equal(created.rp.id, 'localhost');
  assert.deepEqual([...created.excludeCredentials[0].id], [2]);
  const asked = requestOptions({ publicKey: { challenge: 'AAEC', allowCredentials: [{ type: 'public-key', id: 'Aw' }] } }).publicKey;
  assert.deepEqual([...asked.allowCredentials[0].id], [3]);
  assert.deepEqual(requestOptions({ publicKey: { challenge: 'AA' } }).publicKey.allowCredentials, []);
});
