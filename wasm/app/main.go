//go:build js && wasm

// Command app is the app's one WebAssembly program. In the page it runs the
// user interface (ui); in the Web Worker that the page starts
// (assets/worker.js) it runs the solver (wasm/worker). One binary carries
// one Go runtime and one copy of the packages both use: it measured
// 1,487,107 bytes gzipped against 1,002,920 + 1,171,069 for two programs
// (build.sh, 2026-11-23).
package main

import (
	"syscall/js"

	"github.com/rml-lab/rml/ui"
	"github.com/rml-lab/rml/wasm/worker"
)

func main() {
	// assets/worker.js marks the worker (and gives it an empty document,
	// which Vecty's start-up check asks for).
	if js.Global().Get("rmlWorker").Truthy() {
		worker.Run()
		return
	}
	ui.Run()
}
