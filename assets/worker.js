// The thin loader of the solver's worker program (build/worker.wasm, built
// from wasm/worker). Messages that arrive before the program runs are queued
// for it; if the program cannot start or exits, the page is told so that it
// can restart the worker.
'use strict';
importScripts('../build/wasm_exec.js');
self.rmlQueue = [];
self.onmessage = (e) => self.rmlQueue.push(e);
const go = new Go();
WebAssembly.instantiateStreaming(fetch('../build/worker.wasm'), go.importObject)
  .then((r) => go.run(r.instance))
  .then(() => self.postMessage({ fatal: 'the solver program exited' }))
  .catch((err) => self.postMessage({ fatal: String(err) }));
