//go:build js && wasm && e2e

package ui

import (
	"runtime"
	"syscall/js"
)

// exposeTestHooks gives the e2e tests window.__rmlHeapLive: the bytes of
// the page's Go heap still live after a full collection (TestRendersNotKept,
// TestVisitLongTasks).
func exposeTestHooks() {
	js.Global().Set("__rmlHeapLive", js.FuncOf(func(js.Value, []js.Value) any {
		runtime.GC()
		var ms runtime.MemStats
		runtime.ReadMemStats(&ms)
		return float64(ms.HeapAlloc)
	}))
}

// redrawsAsked sets window.__rmlRedraws to the number of redraws asked for
// so far: the tests compare it with the body's data-drawn, the number
// drawn, and read the page only once they are equal.
func redrawsAsked(n int) {
	js.Global().Set("__rmlRedraws", n)
}
