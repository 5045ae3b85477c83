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
