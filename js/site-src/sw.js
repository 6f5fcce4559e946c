// The static site's service worker (written into site/ by `npm run build:site`, which fills in
// VERSION and FILES): every file of the site is kept in a cache named after the build, so the
// site loads, plays and analyses with no network once it has been opened (games live in
// IndexedDB, the rules and the engine in WebAssembly). A new build is a new worker: it fills its
// own cache, takes over the open pages and deletes the caches of older builds.
const VERSION = '__VERSION__';
const FILES = __FILES__;
const CACHE = `chess5d-site-${VERSION}`;

self.addEventListener('install', (event) => {
  event.waitUntil(caches.open(CACHE).then((c) => c.addAll(FILES)).then(() => self.skipWaiting()));
});

self.addEventListener('activate', (event) => {
  event.waitUntil((async () => {
    for (const key of await caches.keys()) {
      if (key.startsWith('chess5d-site-') && key !== CACHE) await caches.delete(key);
    }
    await self.clients.claim();
  })());
});

// The site's own files from the cache (they change only with a new build, and a new build is a
// new worker); anything else (another origin, a file not in the build) from the network.
self.addEventListener('fetch', (event) => {
  const req = event.request;
  if (req.method !== 'GET' || new URL(req.url).origin !== self.location.origin) return;
  event.respondWith((async () => {
    const cache = await caches.open(CACHE);
    const hit = await cache.match(req, { ignoreSearch: true });
    return hit ?? fetch(req);
  })());
});
