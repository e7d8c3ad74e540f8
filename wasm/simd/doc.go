// Package simd runs the solver's innermost loops as WebAssembly SIMD in the
// page's workers: core's three kernels (core.Kernels), hand-assembled into
// a small module (Module, about 2.4 kB, built by this package's Go code)
// that imports the Go program's own memory, so that a call passes its
// slices' addresses and copies nothing.
//
// Go's js/wasm port compiles those loops to scalar code; with two float64
// lanes and WebAssembly's locals the same loops run 3–8 times faster under
// Node (BenchmarkKernels), and the 5,000 × 50 upload trains to 1e-3 in
// about half the time (BenchmarkUpload). Each lane computes one entry of
// the result with the same terms in the same order as the Go loop, and
// WebAssembly has no fused multiply-add, so the results are the same to
// the bit (TestSolveSameBits): a run in the page gives what it gave
// with Go's loops.
//
// The worker (wasm/worker) calls Install at its start with the memory that
// assets/worker.js hands over; where the engine has no SIMD, core keeps
// its Go loops. The tests need the same hand-over under Node:
// .ci/go_js_wasm_exec does it.
package simd
