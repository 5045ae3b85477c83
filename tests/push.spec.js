// Notifications (notify.js, sw.js) through the real uttt-server that
// serves these tests: two strangers, one with the page in Chinese, start
// a game of two days a move; each is offered notifications and turns them
// on (the browser's push service is played by this test: the browsers'
// subscriptions name an endpoint of its own on 127.0.0.1, with keys it
// holds). A move makes the server send the other player "your move",
// encrypted for their browser; the test decrypts it (RFC 8291) and hands
// it to that browser's service worker (CDP's
// ServiceWorker.deliverPushMessage): with the page in view, the page says
// it; with no page open, the service worker shows the notification, in
// the player's language.

import { createServer } from 'node:http';
import { createECDH, createDecipheriv, hkdfSync, randomBytes } from 'node:crypto';
import { test, expect } from './support/fixtures.js';
import { open, showTab, cell, expectMarks, pairedByPlayNow } from './game-helpers.js';
const base64url = (bytes) => Buffer.from(bytes).toString('base64url');

/** The test's push service: every message is kept by its path, answered 201. */
async function pushService() {
  const messages = [];
  const waiting = [];
  const server = createServer((request, response) => {
    const chunks = [];
    request.on('data', (chunk) => chunks.push(chunk));
    request.on('end', () => {
      response.writeHead(201).end();
      messages.push({ path: request.url, headers: request.headers, body: Buffer.concat(chunks) });
      for (const wake of waiting.splice(0)) wake();
    });
  });
  await new Promise((resolve) => server.listen(0, '127.0.0.1', resolve));
  const port = /** @type {import('node:net').AddressInfo} */ (server.address()).port;
  return {
    port,
    /** The next message sent to `path` (taken off the list). */
    async next(path) {
      const deadline = Date.now() + 15_000;
      for (;;) {
        const i = messages.findIndex((m) => m.path === path);
        if (i >= 0) return messages.splice(i, 1)[0];
        if (Date.now() > deadline) throw new Error(`no push message to ${path}`);
        await new Promise((resolve) => {
          waiting.push(resolve);
          setTimeout(resolve, 500);
        });
      }
    },
    close: () => server.close(),
  };
}

/** A browser's push keys: its P-256 pair and authentication secret. */
function browserKeys() {
  const ecdh = createECDH('prime256v1');
  ecdh.generateKeys();
  return { ecdh, auth: randomBytes(16) };
}

/** `body` (aes128gcm, one record) decrypted with the browser's `keys`. */
function decrypt(body, { ecdh, auth }) {
  const salt = body.subarray(0, 16);
  const idLength = body[20];
  const serverKey = body.subarray(21, 21 + idLength);
  const sealed = body.subarray(21 + idLength);
  const info = Buffer.concat([Buffer.from('WebPush: info\0'), ecdh.getPublicKey(), serverKey]);
  const ikm = Buffer.from(hkdfSync('sha256', ecdh.computeSecret(serverKey), auth, info, 32));
  const key = Buffer.from(hkdfSync('sha256', ikm, salt, Buffer.from('Content-Encoding: aes128gcm\0'), 16));
  const nonce = Buffer.from(hkdfSync('sha256', ikm, salt, Buffer.from('Content-Encoding: nonce\0'), 12));
  const decipher = createDecipheriv('aes-128-gcm', key, nonce);
  decipher.setAuthTag(sealed.subarray(-16));
  const padded = Buffer.concat([decipher.update(sealed.subarray(0, -16)), decipher.final()]);
  // The last record ends with the delimiter 2, then its padding's zeros.
  let end = padded.length - 1;
  while (padded[end] === 0) end -= 1;
  expect(padded[end]).toBe(2);
  return padded.subarray(0, end).toString('utf8');
}

/**
 * A browser whose push service is the test's: its PushManager hands out a
 * subscription to `endpoint` with `keys` (headless Chromium has no push
 * service of its own), and the site may show notifications.
 */
async function pushable(context, endpoint, keys) {
  await context.grantPermissions(['notifications']);
  await context.addInitScript(
    ({ endpoint, p256dh, auth }) => {
      // Counts the page's questions to the person (none before a tap).
      const ask = Notification.requestPermission.bind(Notification);
      /** @type {any} */ (window).asked = 0;
      Notification.requestPermission = (...args) => {
        /** @type {any} */ (window).asked += 1;
        return ask(...args);
      };
      let held = null;
      const made = (options) => ({
        endpoint,
        options,
        toJSON: () => ({ endpoint, expirationTime: null, keys: { p256dh, auth } }),
        unsubscribe: async () => {
          held = null;
          return true;
        },
      });
      PushManager.prototype.subscribe = async function (options) {
        held = made(options);
        return held;
      };
      PushManager.prototype.getSubscription = async function () {
        return held;
      };
    },
    { endpoint, p256dh: base64url(keys.ecdh.getPublicKey()), auth: base64url(keys.auth) },
  );
}

/** Hands `data` to the service worker of `page`'s context as a push message. */
async function deliver(context, page, data) {
  const cdp = await context.newCDPSession(page);
  const registered = new Promise((resolve) => {
    cdp.on('ServiceWorker.workerRegistrationUpdated', ({ registrations }) => {
      const ours = registrations.find((r) => !r.isDeleted);
      if (ours) resolve(ours);
    });
  });
  await cdp.send('ServiceWorker.enable');
  const registration = await registered;
  await cdp.send('ServiceWorker.deliverPushMessage', {
    origin: new URL(registration.scopeURL).origin,
    registrationId: registration.registrationId,
    data,
  });
  return cdp;
}

test('a game of days tells the player whose move it is, in the page or by a notification', async ({ page, browser }) => {
  const errors = [];
  const service = await pushService();
  const endpoint = (who) => `http://127.0.0.1:${service.port}/${who}`;
  const keys = { en: browserKeys(), zh: browserKeys() };
  await pushable(page.context(), endpoint('en'), keys.en);
  const { x, o, other } = await pairedByPlayNow(page, browser, errors, {
    context: { locale: 'zh-CN' },
    prepare: (context) => pushable(context, endpoint('zh'), keys.zh),
  });

  // The game has begun: each is offered notifications, in their language,
  // and turns them on; the offer goes.
  await expect(page.locator('[data-push-offer]')).toContainText('Be told when it’s your move');
  await expect(other.page.locator('[data-push-offer]')).toContainText('轮到你走时通知你');
  for (const who of [page, other.page]) {
    expect(await who.evaluate(() => /** @type {any} */ (window).asked)).toBe(0);
    await who.locator('[data-action="push-enable"]').click();
    await expect(who.locator('[data-push-offer]')).toBeHidden();
    expect(await who.evaluate(() => /** @type {any} */ (window).asked)).toBe(1);
  }

  const englishIsX = x === page;
  const oLang = englishIsX ? 'zh' : 'en';
  const oContext = englishIsX ? other.context : page.context();
  const xName = await x.locator('[data-me]').getAttribute('data-me');

  // X's first move: the server tells O, encrypted for O's browser.
  await cell(x, 4, 4).click();
  await expectMarks(o, 1);
  const message = await service.next(`/${oLang}`);
  expect(message.headers['content-encoding']).toBe('aes128gcm');
  expect(message.headers.authorization).toMatch(/^vapid t=[\w-]+\.[\w-]+\.[\w-]+, k=[\w-]+$/);
  const text = decrypt(message.body, keys[oLang]);
  const notice = JSON.parse(text);
  expect(notice).toMatchObject({ kind: 'yourMove', opponent: xName, options: { days: 2 } });

  // O's page is in view: it hears the notice itself and says it.
  let cdp = await deliver(oContext, o, text);
  const heard = oLang === 'en' ? `Your move against ${xName}.` : `与 ${xName} 的对局轮到你走了。`;
  await expect(o.locator('#announcer')).toHaveText(heard);
  await cdp.detach();

  // No page of the site open: the service worker shows the notification,
  // in O's language.
  const blank = await oContext.newPage();
  await o.close();
  cdp = await deliver(oContext, blank, text);
  await cdp.detach();
  const again = await oContext.newPage();
  await open(again);
  const shown = () =>
    again.evaluate(async () => {
      const registration = await navigator.serviceWorker.ready;
      const notifications = await registration.getNotifications();
      return notifications.map((n) => ({ title: n.title, body: n.body, tag: n.tag }));
    });
  const expected =
    oLang === 'en'
      ? { title: 'Your move', body: `against ${xName} (2 d a move)` }
      : { title: '轮到你走了', body: `对手 ${xName}（每步 2 天）` };
  await expect.poll(shown).toEqual([{ ...expected, tag: `${notice.room}1` }]);

  // The account panel says this browser is told, and each kind can be
  // switched off (for all the player's browsers).
  await showTab(again, 'online');
  await again.locator('[data-action="account"]').click();
  await expect(again.locator('[data-push-state]')).toHaveAttribute('data-push-state', 'on');
  await again.locator('[data-push-kind="gameOver"]').uncheck();
  await expect(again.locator('[data-push-kind="gameOver"]')).not.toBeChecked();
  const switches = await again.evaluate(async () => (await fetch('api/me/push')).json());
  expect(switches.kinds).toEqual({ yourMove: true, gameOver: false, challenge: true, reminder: true });

  expect(errors).toEqual([]);
  await blank.close();
  await other.context.close();
  service.close();
});
