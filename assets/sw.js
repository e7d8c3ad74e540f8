// The service worker: after one visit the app works offline. build.sh
// writes self.RML_BUILD above this line: the build's version (a hash of
// every file it lists) and those files.
//
// Install caches every file of the build under a cache named after its
// version. A page names the build it runs (index.html's rml-build, which
// boot.js adds to its program's and its workers' addresses as ?v=), and
// such a request is answered from that build's cache: a tab never runs one
// build's wasm against another build's scripts, even after a newer build
// took over while it ran. A new build arrives as a new sw.js: the browser
// installs it beside the running one, and it takes over when no tab runs
// the old one any more, or when a tab accepts it (boot.js). An old build's
// cache is deleted once no open tab says it runs that build (prune).
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

// The builds the open tabs run: each is asked (boot.js answers); one that
// does not answer within 3 s (a frozen tab) counts for none.
const running = () => self.clients.matchAll({ type: 'window', includeUncontrolled: true })
  .then((tabs) => Promise.all(tabs.map((tab) => new Promise((ok) => {
    const ch = new MessageChannel();
    const timer = setTimeout(() => ok(null), 3000);
    ch.port1.onmessage = (e) => { clearTimeout(timer); ok(e.data); };
    tab.postMessage({ type: 'rml-which-build' }, [ch.port2]);
  }))));

// prune deletes the caches of builds no open tab runs.
const prune = () => running().then((builds) => caches.keys().then((keys) => Promise.all(keys
  .filter((k) => k.startsWith('rml-') && k !== CACHE && !builds.includes(k.slice(4)))
  .map((k) => caches.delete(k)))));

self.addEventListener('activate', (e) => {
  e.waitUntil(self.clients.claim().then(prune));
});

// A tab asks a waiting build to take over (it accepted the offer), or to
// delete the builds no tab runs (it has started).
self.addEventListener('message', (e) => {
  const type = e.data && e.data.type;
  if (type === 'rml-skip-waiting') self.skipWaiting();
  if (type === 'rml-prune') e.waitUntil(prune());
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
  // A request that names its build (?v=) is answered from that build's
  // cache, if it is still there.
  const build = url.searchParams.get('v');
  const cache = build ? 'rml-' + build : CACHE;
  e.respondWith(
    caches.has(cache)
      .then((ok) => caches.open(ok ? cache : CACHE))
      .then((c) => c.match(path))
      .then((hit) => hit || fetch(req)),
  );
});
