//go:build js && wasm

package simd

import (
	"errors"
	"runtime"
	"syscall/js"
	"unsafe"

	"github.com/rml-lab/rml/core"
)

// Kernels are core.Kernels by the module's functions, on the Go program's
// own memory: each call passes its slices' addresses, no copy.
type Kernels struct {
	outer, pairs, rowdots js.Value
	wt                    []float64 // W transposed, for rowdots
}

// New compiles the kernels' module and links it to mem, the Go program's
// memory (its WebAssembly instance's exports.mem, which the page's
// worker.js hands over as rmlGoMemory). It returns an error, and no
// kernels, where the engine has no WebAssembly SIMD or mem is not a
// WebAssembly.Memory.
func New(mem js.Value) (k *Kernels, err error) {
	wa := js.Global().Get("WebAssembly")
	if wa.Type() != js.TypeObject {
		return nil, errors.New("simd: no WebAssembly here")
	}
	if !mem.InstanceOf(wa.Get("Memory")) {
		return nil, errors.New("simd: no WebAssembly.Memory of the Go program given")
	}
	// The module as generated (module_gen.go), not assembled here: the
	// assembler would add its own code to the program.
	bytes := js.Global().Get("Uint8Array").New(len(moduleWasm))
	js.CopyBytesToJS(bytes, []byte(moduleWasm))
	if !wa.Call("validate", bytes).Bool() {
		return nil, errors.New("simd: this engine has no WebAssembly SIMD")
	}
	defer func() {
		// A JavaScript exception (a memory too small for the import)
		// panics in Go: it is this function's error, not the program's.
		if r := recover(); r != nil {
			why := "an exception"
			if e, ok := r.(error); ok { // js.Error, for a JavaScript exception
				why = e.Error()
			}
			k, err = nil, errors.New("simd: could not link the kernels: "+why)
		}
	}()
	env := map[string]any{"mem": mem}
	inst := wa.Get("Instance").New(wa.Get("Module").New(bytes), map[string]any{"env": env})
	ex := inst.Get("exports")
	return &Kernels{outer: ex.Get("outer"), pairs: ex.Get("pairs"), rowdots: ex.Get("rowdots")}, nil
}

// Install makes core use the kernels on mem (New). On New's error it
// installs nothing and returns it: core keeps the loops it had (its own Go
// loops, which give the same bits).
func Install(mem js.Value) error {
	k, err := New(mem)
	if err != nil {
		return err
	}
	core.UseKernels(k)
	return nil
}

// addr returns the address in the Go program's memory of s's first
// element (its 32-bit offset, as the module sees it), 0 for an empty s.
func addr[T any](s []T) int {
	if len(s) == 0 {
		return 0
	}
	return int(uintptr(unsafe.Pointer(unsafe.SliceData(s))))
}

// OuterUpperTo implements core.Kernels.
func (k *Kernels) OuterUpperTo(dst, x, y []float64, rows []int32, d int) {
	clear(dst)
	if len(rows) == 0 || d == 0 {
		return
	}
	checkRows(x, y, rows, d)
	k.outer.Invoke(addr(dst), addr(x), addr(y), addr(rows), len(rows), d)
	runtime.KeepAlive(dst)
	runtime.KeepAlive(x)
	runtime.KeepAlive(y)
	runtime.KeepAlive(rows)
}

// AddPairs implements core.Kernels.
func (k *Kernels) AddPairs(y, x, w []float64, pa, pb []int32, isLive []bool, live []int32, d int) []int32 {
	if len(w) == 0 || d == 0 {
		return live
	}
	if len(pa) < len(w) || len(pb) < len(w) || len(x) != len(y) || len(isLive)*d != len(x) || cap(live) < len(isLive) {
		panic("simd: AddPairs: sizes do not match")
	}
	rows := int32(len(isLive))
	for p := range w {
		if uint32(pa[p]) >= uint32(rows) || uint32(pb[p]) >= uint32(rows) {
			panic("simd: AddPairs: a pair's row is out of range")
		}
	}
	all := live[:cap(live)]
	n := k.pairs.Invoke(addr(y), addr(x), addr(w), addr(pa), addr(pb), len(w), addr(isLive), addr(all), len(live), d).Int()
	runtime.KeepAlive(y)
	runtime.KeepAlive(x)
	runtime.KeepAlive(w)
	runtime.KeepAlive(pa)
	runtime.KeepAlive(pb)
	runtime.KeepAlive(isLive)
	runtime.KeepAlive(all)
	return all[:n]
}

// RowDotsTo implements core.Kernels.
func (k *Kernels) RowDotsTo(z, x, w []float64, d, r int) {
	if d == 0 || r == 0 || len(x) == 0 {
		clear(z)
		return
	}
	nt := len(x) / d
	if len(x) != nt*d || len(w) < r*d || len(z) < nt*r {
		panic("simd: RowDotsTo: sizes do not match")
	}
	// W transposed: row j holds every column's entry j side by side.
	if cap(k.wt) < r*d {
		k.wt = make([]float64, r*d)
	}
	wt := k.wt[:r*d]
	for c := range r {
		for j, v := range w[c*d : (c+1)*d] {
			wt[j*r+c] = v
		}
	}
	k.rowdots.Invoke(addr(z), addr(x), addr(wt), nt, d, r)
	runtime.KeepAlive(z)
	runtime.KeepAlive(x)
	runtime.KeepAlive(wt)
}

// checkRows panics unless every row of rows lies in x and y (d each): the
// module reads memory unchecked.
func checkRows(x, y []float64, rows []int32, d int) {
	n := int32(len(x) / d)
	if len(x) != len(y) || int(n)*d != len(x) {
		panic("simd: OuterUpperTo: sizes do not match")
	}
	for _, r := range rows {
		if uint32(r) >= uint32(n) {
			panic("simd: OuterUpperTo: a row is out of range")
		}
	}
}
