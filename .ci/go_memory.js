// Preloaded by .ci/go_js_wasm_exec: keeps the memory of the WebAssembly
// instance that Go's wasm_exec_node.js starts as globalThis.rmlGoMemory,
// where the page's assets/worker.js puts the worker's.
'use strict';
const instantiate = WebAssembly.instantiate;
WebAssembly.instantiate = async function (...args) {
  const result = await instantiate.apply(this, args);
  const instance = result instanceof WebAssembly.Instance ? result : result.instance;
  if (instance && instance.exports.mem instanceof WebAssembly.Memory) {
    globalThis.rmlGoMemory = instance.exports.mem;
  }
  return result;
};
