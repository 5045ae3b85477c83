// The account panel against the real uttt-server that serves these tests:
// a player made in one browser secures the account with a passkey (the
// authenticator is Chromium's virtual one, driven over CDP) or a password,
// and signs in with it from a fresh browser, which then shows the same
// name in the panel and in the page's `[data-me]` (Play now's). WebAuthn
// refuses IP addresses, so every page here is opened at localhost on the
// server's port.

import { test, expect } from './support/fixtures.js';
import { open, showTab, person } from './game-helpers.js';

/** The page's address at `localhost` (the server accepts that name on loopback). */
function atLocalhost(baseURL) {
  const url = new URL(baseURL);
  url.hostname = 'localhost';
  return url.href;
}

/** Chromium's virtual platform authenticator (a screen lock that always says yes) for `page`. */
async function authenticator(page) {
  const cdp = await page.context().newCDPSession(page);
  await cdp.send('WebAuthn.enable');
  const { authenticatorId } = await cdp.send('WebAuthn.addVirtualAuthenticator', {
    options: { protocol: 'ctap2', transport: 'internal', hasResidentKey: true, hasUserVerification: true, isUserVerified: true },
  });
  return { cdp, authenticatorId };
}

/** Opens the page at `url` and its account panel. */
async function openAccount(page, url) {
  await open(page, url);
  await showTab(page, 'online');
  await page.locator('[data-action="account"]').click();
  const dialog = page.locator('[data-account-dialog]');
  await expect(dialog).toBeVisible();
  return dialog;
}

/** Makes a new player in the open panel; returns the proposed name. */
async function newPlayer(dialog) {
  await expect(dialog.locator('[data-account-name]')).toHaveText('');
  await dialog.locator('[data-action="account-new"]').click();
  await expect(dialog.locator('[data-account-name]')).toHaveText(/^[A-Z][A-Za-z0-9_-]{2,19}$/);
  return dialog.locator('[data-account-name]').textContent();
}

test('a passkey added in one browser signs the player in from a fresh one', async ({ page, browser, baseURL }) => {
  const url = atLocalhost(baseURL);
  const errors = [];
  const a = await authenticator(page);
  const dialog = await openAccount(page, url);
  const name = await newPlayer(dialog);

  await dialog.locator('[data-action="passkey-add"]').click();
  await expect(dialog.locator('[data-account-message]')).toHaveAttribute('data-tone', 'ok');
  await expect(dialog.locator('[data-passkeys] li')).toHaveCount(1);
  const { credentials } = await a.cdp.send('WebAuthn.getCredentials', { authenticatorId: a.authenticatorId });
  expect(credentials).toHaveLength(1);
  expect(credentials[0].rpId).toBe('localhost');

  // The same passkey on another device: a fresh browser, its authenticator
  // holding a copy of the credential (as a synced passkey would).
  const other = await person(browser, errors);
  const b = await authenticator(other.page);
  for (const credential of credentials) {
    await b.cdp.send('WebAuthn.addCredential', { authenticatorId: b.authenticatorId, credential });
  }
  const there = await openAccount(other.page, url);
  await expect(there.locator('[data-account-name]')).toHaveText('');
  await there.locator('[data-signin-name]').fill(name.toLowerCase());
  await there.locator('[data-action="signin-passkey"]').click();
  await expect(there.locator('[data-account-name]')).toHaveText(name);
  await expect(other.page.locator('[data-me]')).toHaveAttribute('data-me', name);
  // Two browsers are signed in now; the new one can sign the first out.
  await expect(there.locator('[data-sessions] li')).toHaveCount(2);
  await there.locator('[data-action="signout-others"]').click();
  await expect(there.locator('[data-sessions] li')).toHaveCount(1);
  await page.reload();
  await expect(page.locator('html')).toHaveAttribute('data-ready', 'true');
  await showTab(page, 'online');
  await page.locator('[data-action="account"]').click();
  await expect(page.locator('[data-account-dialog] [data-action="account-new"]')).toBeVisible();
  await expect(page.locator('[data-account-name]')).toHaveText('');

  await other.context.close();
  expect(errors).toEqual([]);
});

test('a password set in one browser signs the player in from a fresh one; the account can be deleted', async ({ page, browser, baseURL }) => {
  const url = atLocalhost(baseURL);
  const errors = [];
  const dialog = await openAccount(page, url);
  const name = await newPlayer(dialog);
  await dialog.locator('[data-password-new]').fill('correct horse battery');
  await dialog.locator('[data-action="password-set"]').click();
  await expect(dialog.locator('[data-account-message]')).toHaveAttribute('data-tone', 'ok');
  // Set now: a change asks for the current one.
  await expect(dialog.locator('[data-password-current]')).toBeVisible();

  const other = await person(browser, errors);
  const there = await openAccount(other.page, url);
  await there.locator('[data-signin-name]').fill(name);
  await there.locator('[data-signin-password]').fill('correct horse battery');
  await there.locator('[data-action="signin-password"]').click();
  await expect(there.locator('[data-account-name]')).toHaveText(name);
  await expect(other.page.locator('[data-me]')).toHaveAttribute('data-me', name);

  // Deleting asks first; then nobody is signed in, here or there.
  await there.locator('[data-action="account-delete"]').click();
  await other.page.locator('dialog [data-answer="cancel"]').click();
  await expect(there.locator('[data-account-name]')).toHaveText(name);
  await there.locator('[data-action="account-delete"]').click();
  await other.page.locator('dialog [data-answer="ok"]').click();
  await expect(there.locator('[data-account-name]')).toHaveText('');
  await expect(other.page.locator('[data-me]')).toHaveAttribute('data-me', '');
  await expect(there.locator('[data-action="account-new"]')).toBeVisible();
  const gone = await page.evaluate(async () => (await fetch('api/session')).json());
  expect(gone).toEqual({ name: null });

  await other.context.close();
  expect(errors).toEqual([]);
});
