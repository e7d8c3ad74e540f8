// The thin loader of the solver in a worker: the app's one program
// (app.wasm, from wasm/app), which runs wasm/worker when it finds no
// document; the browser's cache serves it after the page's own fetch. Messages that arrive before the program runs are queued
// for it; if the program cannot start or exits, the page is told so that it
// can restart the worker.
'use strict';
// The page starts it as worker.js?v=<build>: its script and program come
// from that build (sw.js serves them from its cache), never a newer one.
const build = self.location.search;
importScripts('../wasm_exec.js' + build);
self.rmlQueue = [];
// The program runs the solver when it finds this mark. It also links the
// page's interface, whose library (Vecty) refuses at start-up to run
// without a document: an empty one satisfies that check and is never used.
self.rmlWorker = true;
self.document = {};
self.onmessage = (e) => self.rmlQueue.push(e);
const go = new Go();
WebAssembly.instantiateStreaming(fetch('../app.wasm' + build), go.importObject)
  .then((r) => {
    // The program's memory, to which it links its SIMD kernels (wasm/simd).
    self.rmlGoMemory = r.instance.exports.mem;
    return go.run(r.instance);
  })
  .then(() => self.postMessage({ fatal: 'the solver program exited' }))
  .catch((err) => self.postMessage({ fatal: String(err) }));
