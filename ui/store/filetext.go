package store

import (
	"bytes"
	"unicode/utf8"
	"unsafe"
)

// FileText is the text of a file's bytes, as an Upload carries it: UTF-8
// with a leading byte-order mark dropped, as a browser's File.text() drops
// it, and each byte that is not part of valid UTF-8 replaced by U+FFFD
// (the browser replaces each maximal invalid sequence, so a truncated
// multi-byte character gives one U+FFFD there and one per byte here).
// Valid UTF-8 comes through unchanged, and is not copied: the text shares
// b's memory, so b must not be changed afterwards (a 2.5 MB upload's copy
// took 10 ms of the page's main thread).
func FileText(b []byte) string {
	b = bytes.TrimPrefix(b, []byte("\xef\xbb\xbf"))
	if utf8.Valid(b) {
		return unsafe.String(unsafe.SliceData(b), len(b))
	}
	out := make([]byte, 0, len(b)+len(b)/8)
	for len(b) > 0 {
		r, n := utf8.DecodeRune(b)
		if r == utf8.RuneError && n == 1 {
			out = utf8.AppendRune(out, utf8.RuneError)
		} else {
			out = append(out, b[:n]...)
		}
		b = b[n:]
	}
	return string(out)
}
