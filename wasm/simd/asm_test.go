package simd

import (
	"bytes"
	"slices"
	"testing"
)

// The LEB128 encodings against the examples of their definition (DWARF 5,
// section 7.6, and Wikipedia's LEB128 page: 624485 and −123456) and the
// edges of one byte.
func TestLEB128(t *testing.T) {
	for _, c := range []struct {
		v    uint64
		want []byte
	}{{0, []byte{0}}, {127, []byte{0x7F}}, {128, []byte{0x80, 0x01}}, {240, []byte{0xF0, 0x01}}, {624485, []byte{0xE5, 0x8E, 0x26}}} {
		if got := uleb(nil, c.v); !bytes.Equal(got, c.want) {
			t.Errorf("uleb(%d) = % x, want % x", c.v, got, c.want)
		}
	}
	for _, c := range []struct {
		v    int64
		want []byte
	}{{0, []byte{0}}, {63, []byte{0x3F}}, {64, []byte{0xC0, 0x00}}, {-1, []byte{0x7F}}, {-64, []byte{0x40}}, {-65, []byte{0xBF, 0x7F}}, {-123456, []byte{0xC0, 0xBB, 0x78}}} {
		if got := sleb(nil, c.v); !bytes.Equal(got, c.want) {
			t.Errorf("sleb(%d) = % x, want % x", c.v, got, c.want)
		}
	}
}

// The module's layout: the header, then the type, import, function, export
// and code sections in that order, each as long as it says, the memory
// imported as env.mem and the three kernels exported. (Node validates and
// runs it: simd_test.go.)
func TestModuleLayout(t *testing.T) {
	m := Module()
	if !bytes.Equal(m, Module()) {
		t.Fatal("Module is not deterministic")
	}
	if !bytes.HasPrefix(m, []byte{0, 'a', 's', 'm', 1, 0, 0, 0}) {
		t.Fatalf("header % x", m[:8])
	}
	var ids []byte
	for rest := m[8:]; len(rest) > 0; {
		id := rest[0]
		n, k := uint64(0), 1
		for shift := 0; ; shift += 7 {
			n |= uint64(rest[k]&0x7F) << shift
			k++
			if rest[k-1]&0x80 == 0 {
				break
			}
		}
		if uint64(len(rest)-k) < n {
			t.Fatalf("section %d says %d bytes, %d left", id, n, len(rest)-k)
		}
		ids = append(ids, id)
		body := rest[k : k+int(n)]
		switch id {
		case 2:
			if !bytes.Contains(body, []byte("\x03env\x03mem\x02")) {
				t.Errorf("imports % x: no memory env.mem", body)
			}
		case 7:
			for _, name := range []string{"outer", "pairs", "rowdots"} {
				if !bytes.Contains(body, append([]byte{byte(len(name))}, name...)) {
					t.Errorf("no export %q", name)
				}
			}
		}
		rest = rest[k+int(n):]
	}
	if want := []byte{1, 2, 3, 7, 10}; !slices.Equal(ids, want) {
		t.Errorf("sections %v, want %v", ids, want)
	}
}

// The module the app carries (module_gen.go) is the one Module assembles.
func TestGeneratedModule(t *testing.T) {
	if moduleWasm != string(Module()) {
		t.Fatal("module_gen.go is stale: run go generate ./wasm/simd")
	}
}
