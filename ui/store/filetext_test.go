package store

import (
	"testing"
	"unsafe"
)

// FileText keeps the bytes as they are (the reader decodes them) and does
// not copy them.
func TestFileText(t *testing.T) {
	for _, in := range []string{"", "a,b\n1,2\n", "\xef\xbb\xbfa,b\n", "\xff\xfea\x00,\x00b\x00", "x\xffy", "caf\xc3\xa9"} {
		b := []byte(in)
		got := FileText(b)
		if got != in {
			t.Errorf("FileText(%q) = %q", in, got)
		}
		if len(b) > 0 && unsafe.StringData(got) != &b[0] {
			t.Errorf("FileText(%q) copied the bytes", in)
		}
	}
}
