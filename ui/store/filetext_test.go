package store

import (
	"testing"
	"unicode/utf8"
	"unsafe"
)

func TestFileText(t *testing.T) {
	for _, c := range []struct{ in, want string }{
		{"", ""},
		{"a,b\n1,2\n", "a,b\n1,2\n"},
		{"\xef\xbb\xbfa,b\n", "a,b\n"},             // a BOM dropped
		{"a\xef\xbb\xbfb", "a\xef\xbb\xbfb"},       // not leading: kept
		{"\xef\xbb\xbf\xef\xbb\xbfa", "\ufeffa"},   // only the first
		{"caf\xc3\xa9,\xe2\x82\xac\n", "café,€\n"}, // multi-byte, valid
		{"x\xffy", "x\ufffdy"},                     // an invalid byte
		{"\xe2\x82,1", "\ufffd\ufffd,1"},           // a truncated character: one per byte
		{"\xed\xa0\x80", "\ufffd\ufffd\ufffd"},     // a surrogate is not UTF-8
		{"\xef\xbb\xbf\xc0\xafz", "\ufffd\ufffdz"}, // BOM, then an overlong '/'
	} {
		got := FileText([]byte(c.in))
		if got != c.want {
			t.Errorf("FileText(%q) = %q, want %q", c.in, got, c.want)
		}
		if !utf8.ValidString(got) {
			t.Errorf("FileText(%q) = %q is not valid UTF-8", c.in, got)
		}
	}
}

// FileText keeps valid text in the bytes it was given, as it says.
func TestFileTextShares(t *testing.T) {
	b := []byte("\xef\xbb\xbfa,b\n1,2\n")
	s := FileText(b)
	if unsafe.StringData(s) != &b[3] {
		t.Errorf("FileText copied valid text")
	}
}
