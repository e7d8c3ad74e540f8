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
  WebAssembly.instantiateStreaming(fetch('app.wasm'), go.importObject)
    .then((r) => go.run(r.instance).then(stopped))
    .catch((err) => {
      const p = document.getElementById('boot'), first = document.getElementById('first');
      if (first) first.remove(); // the static first screen: nothing in it works without the app
      if (p) p.textContent = 'The page could not start: ' + err + '. Run ./build.sh (or go run serve.go) and reload.';
    });

  // Offline: sw.js caches this build's files (build.sh lists them). When a
  // new build is installed while this page runs the old one, the page says
  // so and offers to switch (the element data-testid="update").
  if ('serviceWorker' in navigator) {
    navigator.serviceWorker.register('sw.js').then((reg) => {
      const offer = (sw) => {
        if (!sw || !navigator.serviceWorker.controller) return;
        const bar = document.createElement('p');
        bar.className = 'update';
        bar.dataset.testid = 'update';
        bar.setAttribute('role', 'status');
        bar.textContent = 'A new version of the app is ready. ';
        const b = document.createElement('button');
        b.textContent = 'Reload to use it';
        // The page reloads once the new worker takes over: asked for here,
        // since a page whose first visit installed the worker (no
        // controller at its start) would not otherwise.
        b.onclick = () => { reload = true; sw.postMessage({ type: 'rml-skip-waiting' }); };
        bar.appendChild(b);
        document.body.appendChild(bar);
      };
      offer(reg.waiting);
      reg.addEventListener('updatefound', () => {
        const sw = reg.installing;
        sw.addEventListener('statechange', () => { if (sw.state === 'installed') offer(sw); });
      });
    }).catch(() => { /* no offline copy (a private window, say): the app works online */ });
    // A build taking over a page that already ran another one (not the
    // first install): reload so that page and worker run the same build.
    let reload = !!navigator.serviceWorker.controller;
    navigator.serviceWorker.addEventListener('controllerchange', () => {
      if (!reload) return;
      reload = false;
      location.reload();
    });
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
