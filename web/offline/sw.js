// The hosted site's service worker (written into dist/ by web/offline/version_refs.mjs, run by
// scripts/build-site.sh, which fills in VERSION, a hash of the set, and FILES, the page and its
// module files at their content-hashed addresses, file?v=HASH): it keeps them so that a story
// reopens without a network (README "Hosting"). One cache per version; a new deploy installs its
// own whole set and takes over only once no page of the old one is open (no skipWaiting), then
// deletes the old caches, so a page never pairs an old attnlab.js with a new attnlab.wasm.
const VERSION = '__VERSION__';
const FILES = __FILES__;
const CACHE = 'attnlab-' + VERSION;

self.addEventListener('install', (event) => {
  // cache: 'reload': from the server, never from the browser's HTTP cache (which a host's max-age
  // may keep holding the previous deploy's files).
  event.waitUntil(caches.open(CACHE).then((cache) => cache.addAll(FILES.map((f) => new Request(f, { cache: 'reload' })))));
});
self.addEventListener('activate', (event) => {
  event.waitUntil(caches.keys()
    .then((keys) => Promise.all(keys.filter((k) => k.startsWith('attnlab-') && k !== CACHE).map((k) => caches.delete(k))))
    .then(() => self.clients.claim()));
});
// The kept files from the cache, the rest from the network; a page opened without a network is
// the kept page (its link after '#' never reaches here).
self.addEventListener('fetch', (event) => {
  const request = event.request;
  if (request.method !== 'GET' || new URL(request.url).origin !== self.location.origin) return;
  // caches.match with cacheName, not caches.open: a worker replaced by a new version must not
  // create its deleted cache again. ignoreSearch: the JS API (attnlab-api.mjs) asks for the module
  // files by their plain names, and this version's cache holds one of each.
  event.respondWith((async () => {
    const kept = await caches.match(request, { cacheName: CACHE, ignoreSearch: true });
    if (kept) return kept;
    try {
      return await fetch(request);
    } catch (error) {
      if (request.mode === 'navigate') return (await caches.match('index.html', { cacheName: CACHE })) || Response.error();
      throw error;
    }
  })());
});
