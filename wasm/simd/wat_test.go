//go:build !js

package simd

import (
	"os"
	"strings"
	"testing"
)

// kernels.wat is the module's listing as go generate writes it.
func TestListing(t *testing.T) {
	want, err := Listing(Module())
	if err != nil {
		t.Fatal(err)
	}
	got, err := os.ReadFile("kernels.wat")
	if err != nil {
		t.Fatal(err)
	}
	if string(got) != WatHeader+want {
		t.Fatal("kernels.wat is stale: run go generate ./wasm/simd")
	}
	for _, name := range []string{`(export "outer")`, `(export "pairs")`, `(export "rowdots")`, "f64x2.mul", "v128.store"} {
		if !strings.Contains(want, name) {
			t.Errorf("the listing has no %s", name)
		}
	}
}

// A small function, listed as its text reads: each instruction once, the
// blocks indented, memory arguments as the text format writes them; and a
// truncated module or an unknown opcode is an error, not a listing.
func TestListingReads(t *testing.T) {
	f := newFn("k", []byte{i32}, i32, i32)
	x := f.local(v128)
	f.while(f.lt(0, 1), func() {
		f.get(0)
		f.v128Load(16)
		f.set(x)
		f.get(0)
		f.get(x)
		f.f64x2ExtractLane(1)
		f.f64Store(8)
		f.addTo(0, 2)
	})
	f.ifThen(func() { f.get(0); f.i32Load8U(0) }, func() { f.i32(-5); f.set(1) })
	f.get(1)
	m := module(f)
	got, err := Listing(m)
	if err != nil {
		t.Fatal(err)
	}
	want := `(module
  (import "env" "mem" (memory 1))
  (func (;0;) (export "k") (param i32 i32) (result i32)
    (local v128)
    block
      loop
        local.get 0
        local.get 1
        i32.lt_s
        i32.eqz
        br_if 1
        local.get 0
        v128.load offset=16 align=8
        local.set 2
        local.get 0
        local.get 2
        f64x2.extract_lane 1
        f64.store offset=8
        local.get 0
        i32.const 2
        i32.add
        local.set 0
        br 0
      end
    end
    local.get 0
    i32.load8_u
    if
      i32.const -5
      local.set 1
    end
    local.get 1
  )
)
`
	if got != want {
		t.Errorf("listing:\n%s\nwant:\n%s", got, want)
	}
	if _, err := Listing(m[:len(m)-3]); err == nil {
		t.Error("a truncated module was listed")
	}
	f.op(0xFF)
	if _, err := Listing(module(f)); err == nil || !strings.Contains(err.Error(), "0xff") {
		t.Errorf("an unknown opcode: %v", err)
	}
}
