// The service worker: makes the game installable and playable offline.
//
// `cargo xtask dist` rewrites the BUILD line below with a content hash and the
// list of every file of the site, so each release precaches into its own
// cache and a new release is a new, byte-different sw.js. Unreplaced (during
// `cargo xtask serve`) the version is "dev" and everything goes to the network
// first, so development never sees stale files.
//
// Update flow: the new worker installs and precaches next to the old one,
// then waits; the page offers "Reload" and posts SKIP_WAITING, so a running
// game never mixes old page code with a new worker script or wasm.
// All URLs are relative to this file, so the site works under any sub-path.

const BUILD = {"version":"dev","assets":[]};

const PREFIX = 'uttt-';
const CACHE = `${PREFIX}${BUILD.version}`;
const DEV = BUILD.version === 'dev';

function url(path) {
  return new URL(path, self.registration.scope).href;
}

self.addEventListener('install', (event) => {
  if (DEV) {
    event.waitUntil(self.skipWaiting());
    return;
  }
  // `cache: 'reload'` skips the HTTP cache so a release never precaches an old file.
  event.waitUntil(
    caches.open(CACHE).then((cache) =>
      cache.addAll(BUILD.assets.map((path) => new Request(url(path), { cache: 'reload' }))),
    ),
  );
});

self.addEventListener('activate', (event) => {
  event.waitUntil(
    (async () => {
      const names = await caches.keys();
      await Promise.all(
        names.filter((n) => n.startsWith(PREFIX) && n !== CACHE).map((n) => caches.delete(n)),
      );
      await self.clients.claim();
    })(),
  );
});

self.addEventListener('message', (event) => {
  if (event.data && event.data.type === 'SKIP_WAITING') self.skipWaiting();
  if (event.data && event.data.type === 'VERSION' && event.ports[0]) {
    event.ports[0].postMessage({ version: BUILD.version });
  }
});

async function cacheFirst(request) {
  const cache = await caches.open(CACHE);
  // The page URL may carry a #record fragment or a ?query; the site has one page.
  const hit = await cache.match(request, { ignoreSearch: request.mode === 'navigate' });
  if (hit) return hit;
  if (request.mode === 'navigate') {
    const page = await cache.match(url('./')) || await cache.match(url('index.html'));
    if (page) return page;
  }
  return fetch(request);
}

async function networkFirst(request) {
  const cache = await caches.open(CACHE);
  try {
    const response = await fetch(request);
    if (response.ok) cache.put(request, response.clone());
    return response;
  } catch (err) {
    const hit = await cache.match(request, { ignoreSearch: true });
    if (hit) return hit;
    throw err;
  }
}

self.addEventListener('fetch', (event) => {
  const { request } = event;
  if (request.method !== 'GET') return;
  if (new URL(request.url).origin !== self.location.origin) return;
  // The server's answers about players and sessions are never kept: they are
  // personal, and only the server knows them as they stand.
  if (new URL(request.url).pathname.includes('/api/')) return;
  event.respondWith(DEV ? networkFirst(request) : cacheFirst(request));
});

// ---- Notifications (www/notify.js; docs/api.md, "Notifications") ----
// The server's notices come as JSON ({kind, room, opponent, ...}); the
// words are the page's, in its language, given by the page (PUSH_TEXTS)
// and kept in a cache of their own; English until a page gave them.
// While a page of the site is in view, it is handed the notice instead
// and shows it in place.

const TEXTS_CACHE = 'push-texts';
const TEXTS_URL = 'push-texts.json';
const ENGLISH = {
  app: 'Ultimate Tic-Tac-Toe',
  yourMove: 'Your move',
  yourMoveBody: 'against {name} ({timing})',
  reminder: 'Your time is running out',
  reminderBody: 'against {name}: {hours} h left to move',
  gameOver: 'Game over',
  win: 'You won against {name}',
  loss: 'You lost against {name}',
  draw: 'Draw against {name}',
  challenge: 'Challenge from {name}',
  challengeBody: '{game}, {timing}',
  days: '{days} d a move',
  clock: '{minutes}+{seconds}',
  untimed: 'no clock',
  ultimate: 'Ultimate',
  classic: 'Classic',
  someone: 'a guest',
};

async function keepTexts(texts) {
  const cache = await caches.open(TEXTS_CACHE);
  await cache.put(url(TEXTS_URL), new Response(JSON.stringify(texts), { headers: { 'Content-Type': 'application/json' } }));
}

async function readTexts() {
  try {
    const hit = await (await caches.open(TEXTS_CACHE)).match(url(TEXTS_URL));
    return { ...ENGLISH, ...(hit ? await hit.json() : {}) };
  } catch {
    return ENGLISH;
  }
}

function fill(template, values) {
  return String(template).replace(/\{(\w+)\}/g, (all, key) => (key in values ? String(values[key]) : all));
}

/** The timing of a game's options, in words. */
function timing(options, texts) {
  if (options?.days) return fill(texts.days, { days: options.days });
  if (options?.clock) return fill(texts.clock, { minutes: options.clock.initial / 60, seconds: options.clock.increment });
  return texts.untimed;
}

/** A notice's title, body and the page it opens. */
function words(notice, texts) {
  const name = notice.opponent ?? notice.from ?? texts.someone;
  const room = typeof notice.room === 'string' ? `./?room=${encodeURIComponent(notice.room)}` : './#/play';
  switch (notice.kind) {
    case 'yourMove':
      return { title: texts.yourMove, body: fill(texts.yourMoveBody, { name, timing: timing(notice.options, texts) }), open: room };
    case 'reminder': {
      const hours = Math.max(0, Math.floor(((notice.deadline ?? Date.now()) - Date.now()) / 3_600_000));
      return { title: texts.reminder, body: fill(texts.reminderBody, { name, hours }), open: room };
    }
    case 'gameOver':
      return { title: texts.gameOver, body: fill(texts[notice.outcome] ?? texts.draw, { name }), open: room };
    case 'challenge': {
      const game = notice.options?.kind === 'classic' ? texts.classic : texts.ultimate;
      return { title: fill(texts.challenge, { name }), body: fill(texts.challengeBody, { game, timing: timing(notice.options, texts) }), open: './#/play' };
    }
    default:
      // Unreadable (a message of a later version, say): said as the site's, not as a move.
      return { title: texts.app, body: '', open: './' };
  }
}

self.addEventListener('message', (event) => {
  if (event.data && event.data.type === 'PUSH_TEXTS' && event.data.texts && typeof event.data.texts === 'object') {
    event.waitUntil(keepTexts(event.data.texts));
  }
});

self.addEventListener('push', (event) => {
  event.waitUntil(
    (async () => {
      let notice = null;
      try {
        notice = event.data ? event.data.json() : null;
      } catch {
        notice = null;
      }
      if (!notice || typeof notice.kind !== 'string') notice = { kind: 'unknown' };
      const windows = await self.clients.matchAll({ type: 'window' });
      const seen = windows.filter((client) => client.visibilityState === 'visible');
      if (seen.length > 0) {
        for (const client of seen) client.postMessage({ type: 'PUSH', notice });
        return;
      }
      const { title, body, open } = words(notice, await readTexts());
      await self.registration.showNotification(title, {
        body,
        // One a game (or a challenger): a newer notice replaces it, and is heard.
        tag: notice.tag ?? notice.kind,
        renotify: true,
        icon: url('icons/icon-192.png'),
        data: { open: url(open), notice },
      });
    })(),
  );
});

self.addEventListener('notificationclick', (event) => {
  event.notification.close();
  const { open = url('./'), notice = null } = event.notification.data ?? {};
  event.waitUntil(
    (async () => {
      const windows = await self.clients.matchAll({ type: 'window' });
      // A page of the site is open: it comes forward and opens the notice
      // itself, as its own buttons do (never a reload under a game in play).
      const page = windows[0];
      if (page && notice) {
        await page.focus().catch(() => null);
        page.postMessage({ type: 'PUSH_OPEN', notice });
        return;
      }
      await self.clients.openWindow(open);
    })(),
  );
});
