// The service worker: after one visit the app works offline. build.sh
// writes self.RML_BUILD above this line: the build's version (a hash of
// every file it lists) and those files.
//
// Install caches every file of the build under a cache named after its
// version; activate deletes the caches of other builds. Requests for the
// app's files are answered from this build's cache, so a page never runs
// one build's wasm against another build's scripts. A new build arrives as
// a new sw.js: the browser installs it beside the running one, and it
// takes over when no tab of the app runs the old build any more (the page
// offers a reload that hands over at once).
'use strict';
const CACHE = 'rml-' + self.RML_BUILD.version;
const FILES = self.RML_BUILD.files;

// A response that came through a redirect is stored as a plain one: a
// host may answer index.html with a redirect to the folder (Go's
// http.FileServer does), and a redirected response given to a navigation
// makes the browser show an error page instead (e2e TestServiceWorkerUpdate,
// on such a host, after a reload the worker answered).
const plain = (res) => (res.redirected
  ? res.blob().then((b) => new Response(b, { status: res.status, statusText: res.statusText, headers: res.headers }))
  : res);

self.addEventListener('install', (e) => {
  e.waitUntil(caches.open(CACHE).then((c) => Promise.all(FILES.map((f) =>
    fetch(new Request(f, { cache: 'reload' })).then((res) => {
      if (!res.ok) throw new Error(f + ': ' + res.status);
      return plain(res);
    }).then((res) => c.put(f, res))))));
});

self.addEventListener('activate', (e) => {
  e.waitUntil(
    caches.keys()
      .then((keys) => Promise.all(keys.filter((k) => k.startsWith('rml-') && k !== CACHE).map((k) => caches.delete(k))))
      .then(() => self.clients.claim()),
  );
});

// The page asks a waiting build to take over (the "reload" offer).
self.addEventListener('message', (e) => {
  if (e.data && e.data.type === 'rml-skip-waiting') self.skipWaiting();
});

self.addEventListener('fetch', (e) => {
  const req = e.request;
  if (req.method !== 'GET') return;
  const url = new URL(req.url);
  if (url.origin !== self.location.origin) return;
  // The page itself, whatever its fragment or query: index.html.
  let path = url.pathname.slice(new URL('./', self.location).pathname.length);
  if (req.mode === 'navigate' || path === '') path = 'index.html';
  if (!FILES.includes(path)) return;
  e.respondWith(
    caches.open(CACHE)
      .then((c) => c.match(path))
      .then((hit) => hit || fetch(req)),
  );
});
