// @ts-check
// The account API (docs/api.md) as the account panel (features/account.js)
// asks it: JSON both ways, the session's CSRF token on a change, and a
// refusal as a typed error. And WebAuthn's binary fields, which travel as
// unpadded base64url in the server's JSON: turned into buffers for
// navigator.credentials, and the browser's answers back into JSON.

import { call } from './api.js';

/** How long a request may take before the panel gives up on it, in ms (a sign-in may queue for its hash up to 10 s). */
const REQUEST_MS = 20_000;

/** An answer the server refused: its code, and the seconds to wait when it said. */
export class Refusal extends Error {
  /**
   * @param {string} code
   * @param {number | null} [retryAfter]
   */
  constructor(code, retryAfter = null) {
    super(code);
    this.code = code;
    this.retryAfter = retryAfter;
  }
}

/**
 * Asks the account API: `method path` with `body` as JSON and, for a
 * change, the session's CSRF token. Resolves to the JSON answer (null for
 * 204); rejects with a Refusal (`no-server` when no game server answers).
 * @param {string} method
 * @param {string} path
 * @param {{ body?: unknown, csrf?: string | null }} [options]
 */
export async function api(method, path, { body, csrf } = {}) {
  /** @type {Record<string, string>} */
  const headers = {};
  if (body !== undefined) headers['Content-Type'] = 'application/json';
  if (csrf) headers['X-CSRF-Token'] = csrf;
  let answer;
  try {
    answer = await call(`api/${path}`, {
      method,
      headers,
      body: body === undefined ? undefined : JSON.stringify(body),
      // The server answers at once or not at all: nothing waits forever.
      signal: AbortSignal.timeout(REQUEST_MS),
    });
  } catch {
    throw new Refusal('timeout');
  }
  if (answer.ok === true) return answer.body;
  if (answer.status === 0) throw new Refusal('no-server');
  const refused = /** @type {{error: string, retryAfter: number | null}} */ (answer);
  throw new Refusal(refused.error, refused.retryAfter);
}

/** `text` (unpadded base64url) as bytes. */
export function fromBase64url(text) {
  const base64 = text.replace(/-/g, '+').replace(/_/g, '/');
  const binary = atob(base64 + '='.repeat((4 - (base64.length % 4)) % 4));
  return Uint8Array.from(binary, (c) => c.charCodeAt(0));
}

/** `buffer`'s bytes as unpadded base64url. */
export function toBase64url(buffer) {
  const bytes = buffer instanceof ArrayBuffer ? new Uint8Array(buffer) : new Uint8Array(buffer.buffer, buffer.byteOffset, buffer.byteLength);
  let binary = '';
  for (const b of bytes) binary += String.fromCharCode(b);
  return btoa(binary).replace(/\+/g, '-').replace(/\//g, '_').replace(/=+$/, '');
}

/** The server's creation options with their binary fields as buffers, for navigator.credentials.create. */
export function creationOptions(options) {
  const publicKey = { ...options.publicKey };
  publicKey.challenge = fromBase64url(publicKey.challenge);
  publicKey.user = { ...publicKey.user, id: fromBase64url(publicKey.user.id) };
  publicKey.excludeCredentials = (publicKey.excludeCredentials ?? []).map((c) => ({ ...c, id: fromBase64url(c.id) }));
  return { publicKey };
}

/** The server's request options with their binary fields as buffers, for navigator.credentials.get. */
export function requestOptions(options) {
  const publicKey = { ...options.publicKey };
  publicKey.challenge = fromBase64url(publicKey.challenge);
  publicKey.allowCredentials = (publicKey.allowCredentials ?? []).map((c) => ({ ...c, id: fromBase64url(c.id) }));
  return { publicKey };
}

/**
 * A new credential as the server reads it (binary fields in base64url).
 * @param {PublicKeyCredential} credential
 */
export function registrationJson(credential) {
  const response = /** @type {AuthenticatorAttestationResponse} */ (credential.response);
  return {
    id: credential.id,
    rawId: toBase64url(credential.rawId),
    type: credential.type,
    response: {
      attestationObject: toBase64url(response.attestationObject),
      clientDataJSON: toBase64url(response.clientDataJSON),
    },
    extensions: {},
  };
}

/**
 * A passkey's answer to a sign-in as the server reads it.
 * @param {PublicKeyCredential} credential
 */
export function assertionJson(credential) {
  const response = /** @type {AuthenticatorAssertionResponse} */ (credential.response);
  return {
    id: credential.id,
    rawId: toBase64url(credential.rawId),
    type: credential.type,
    response: {
      authenticatorData: toBase64url(response.authenticatorData),
      clientDataJSON: toBase64url(response.clientDataJSON),
      signature: toBase64url(response.signature),
      userHandle: response.userHandle ? toBase64url(response.userHandle) : null,
    },
    extensions: {},
  };
}
