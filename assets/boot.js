// Starts the page's Go program (build/app.wasm, built from wasm/app; in
// the page it runs ui/). Nothing is
// fetched from another origin.
'use strict';
(function () {
  const go = new Go();
  // Each render allocates; collecting less often (the heap stays a few
  // MiB) keeps any one frame from paying for a long collection.
  go.env = Object.assign({ GOGC: '800' }, go.env);
  WebAssembly.instantiateStreaming(fetch('build/app.wasm'), go.importObject)
    .then((r) => go.run(r.instance))
    .catch((err) => {
      const p = document.getElementById('boot');
      if (p) p.textContent = 'The page could not start: ' + err + '. Run ./build.sh (or go run serve.go) and reload.';
    });
})();
