// Starts the page's Go program (app.wasm, built from wasm/app; in the page
// it runs ui/), registers the service worker that keeps the app working
// offline, and, inside an iframe, tells the parent page its height.
// Nothing is fetched from another origin.
'use strict';
(function () {
  const go = new Go();
  // Each render allocates; collecting less often (the heap stays a few
  // MiB) keeps any one frame from paying for a long collection.
  go.env = Object.assign({ GOGC: '800' }, go.env);
  // A canvas's first text costs the main thread 50–140 ms in Chromium
  // without a GPU (its fonts and text pipeline start up); the heat map's
  // feature names paid it at the first result. Paid here instead, while
  // app.wasm downloads and compiles.
  try {
    const c = document.createElement('canvas');
    c.width = c.height = 16;
    const x = c.getContext('2d');
    x.font = '12px sans-serif';
    x.rotate(-Math.PI / 2);
    x.fillText('A', -8, 8);
    document.createElement('canvas').getContext('2d').drawImage(c, 0, 0);
  } catch (e) { /* no canvas: the heat map says so itself */ }
  // The Go program never returns: if it does, it failed (a panic, which
  // Go's wasm_exec prints through console.log). The page then says so
  // and offers a reload, which restores the work kept in the browser's
  // storage (keep.js) up to the last change.
  let panicked = '';
  const log = console.log;
  console.log = function (...args) {
    if (typeof args[0] === 'string' && args[0].startsWith('panic: ')) panicked = args[0].slice(7);
    return log.apply(this, args);
  };
  const stopped = () => {
    const bar = document.createElement('p');
    bar.className = 'update failed';
    bar.dataset.testid = 'failed';
    bar.setAttribute('role', 'alert');
    bar.textContent = 'The page stopped because of an error in it' + (panicked ? ' (' + panicked + ')' : '') +
      '. Your work up to the last change is kept in this browser. ';
    const b = document.createElement('button');
    b.textContent = 'Reload and restore it';
    b.onclick = () => location.reload();
    bar.appendChild(b);
    document.body.appendChild(bar);
  };
  // This page's build (build.sh names it in index.html): its program and
  // its workers' files are asked for by it (sw.js).
  const build = (document.querySelector('meta[name="rml-build"]') || {}).content || '';
  window.rmlBuildQuery = build ? '?v=' + encodeURIComponent(build) : '';
  WebAssembly.instantiateStreaming(fetch('app.wasm' + window.rmlBuildQuery), go.importObject)
    .then((r) => go.run(r.instance).then(stopped))
    .catch((err) => {
      const p = document.getElementById('boot'), first = document.getElementById('first');
      if (first) first.remove(); // the static first screen: nothing in it works without the app
      if (p) p.textContent = 'The page could not start: ' + err + '. Run ./build.sh (or go run serve.go) and reload.';
    });

  // Offline: sw.js caches each build's files under its name. When a new
  // build is installed while this tab runs another, the tab offers it
  // (data-testid="update"); taking it saves this tab's work (keep.js) and
  // reloads this tab alone onto it. Other tabs of the app keep the build
  // they started with (their workers' files come from its cache: the
  // build's name is in their address, rmlBuildQuery) and say that a new
  // one is in use, for the user to reload when it suits them, their work
  // restored.
  if ('serviceWorker' in navigator) {
    const sw = navigator.serviceWorker;
    // The bar is put on the document element, not the body: the app
    // renders the whole body, and would remove it.
    const bar = (text, label, act) => {
      const old = document.querySelector('[data-testid="update"]');
      if (old) old.remove();
      const p = document.createElement('p');
      p.className = 'update';
      p.dataset.testid = 'update';
      p.setAttribute('role', 'status');
      p.textContent = text + ' ';
      const b = document.createElement('button');
      b.textContent = label;
      b.onclick = () => { b.disabled = true; act(); };
      p.appendChild(b);
      document.documentElement.appendChild(p);
    };
    let asked = false;
    // This tab's work kept before it reloads (at most 2 s).
    const keepNow = () => Promise.race([
      window.rmlKeepNow ? Promise.resolve().then(window.rmlKeepNow).catch(() => {}) : Promise.resolve(),
      new Promise((ok) => setTimeout(ok, 2000)),
    ]);
    sw.register('sw.js').then((reg) => {
      const offer = (waiting) => {
        if (!waiting || !sw.controller) return; // a first install: nothing runs another build
        bar('A new version of the app is ready.', 'Reload to use it', () => {
          asked = true;
          keepNow().then(() => {
            waiting.postMessage({ type: 'rml-skip-waiting' });
            // The reload follows the new build's taking over
            // (controllerchange); should that event not come, the tab
            // asked for the new build all the same.
            setTimeout(() => location.reload(), 5000);
          });
        });
      };
      offer(reg.waiting);
      reg.addEventListener('updatefound', () => {
        const next = reg.installing;
        next.addEventListener('statechange', () => { if (next.state === 'installed') offer(next); });
      });
    }).catch(() => { /* no offline copy (a private window, say): the app works online */ });
    let first = !sw.controller; // the first install takes this tab over once: nothing to say
    sw.addEventListener('controllerchange', () => {
      if (asked) { location.reload(); return; }
      if (first) { first = false; return; }
      bar('A new version of the app is in use in another tab; this tab keeps the one it started with.', 'Reload to use it',
        () => keepNow().then(() => location.reload()));
    });
    // The service worker asks which build each tab runs before it deletes
    // an old build's files; and is asked to, once this tab has started.
    sw.addEventListener('message', (e) => {
      if (e.data && e.data.type === 'rml-which-build' && e.ports[0]) e.ports[0].postMessage(build);
    });
    sw.ready.then((reg) => reg.active && reg.active.postMessage({ type: 'rml-prune' }));
  }

  // Embedded (in an iframe): post this page's height to the parent as
  // { type: 'rml-height', height } (CSS pixels), whenever it changes, so
  // that the course page can size the iframe (README, "Embed").
  // The height is the document's laid-out height, posted once per frame
  // at most and never 0 (before the page is drawn there is nothing to
  // show): the frame's own height never enters the page's layout, so
  // setting it cannot make the height swing back and forth.
  if (window.parent !== window) {
    let last = -1, due = false;
    const post = () => {
      due = false;
      const h = Math.ceil(document.documentElement.getBoundingClientRect().height);
      if (h > 0 && h !== last) {
        last = h;
        window.parent.postMessage({ type: 'rml-height', height: h }, '*');
      }
    };
    new ResizeObserver(() => {
      if (!due) { due = true; requestAnimationFrame(post); }
    }).observe(document.documentElement);
  }
})();
