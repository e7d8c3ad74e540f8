package protocol

import (
	"errors"
	"math"
	"unsafe"
)

// writer encodes: varints for integers, 8 little-endian bytes for floats,
// a length then the bytes for strings, a length then the items for lists.
type writer struct{ b []byte }

func (w *writer) decoding() bool { return false }

func (w *writer) uvarint(v uint64) {
	for v >= 0x80 {
		w.b = append(w.b, byte(v)|0x80)
		v >>= 7
	}
	w.b = append(w.b, byte(v))
}

func (w *writer) int(p *int) {
	v := int64(*p)
	w.uvarint(uint64(v<<1) ^ uint64(v>>63)) // zig-zag
}

func (w *writer) u64(p *uint64) { w.uvarint(*p) }

func (w *writer) f64(p *float64) {
	u := math.Float64bits(*p)
	for i := 0; i < 8; i++ {
		w.b = append(w.b, byte(u>>(8*i)))
	}
}

func (w *writer) bool(p *bool) {
	if *p {
		w.b = append(w.b, 1)
	} else {
		w.b = append(w.b, 0)
	}
}

func (w *writer) str(p *string) {
	w.uvarint(uint64(len(*p)))
	w.b = append(w.b, *p...)
}

func (w *writer) text(p *string) { w.str(p) }

func (w *writer) strs(p *[]string) {
	w.uvarint(uint64(len(*p)))
	for i := range *p {
		w.str(&(*p)[i])
	}
}

func (w *writer) ints(p *[]int) {
	w.uvarint(uint64(len(*p)))
	for i := range *p {
		w.int(&(*p)[i])
	}
}

func (w *writer) rows(p *[][]string) {
	w.uvarint(uint64(len(*p)))
	for i := range *p {
		w.strs(&(*p)[i])
	}
}

// reader decodes what writer wrote. After the first error every read is a
// no-op, so a fields method needs no checks of its own; a length is never
// trusted beyond the bytes that remain, so a bad header cannot make it
// allocate much.
type reader struct {
	b   []byte
	err error
}

var errShort = errors.New("protocol: header ends early or has a bad length")

func (r *reader) decoding() bool { return true }

func (r *reader) uvarint() uint64 {
	var v uint64
	if r.err != nil {
		return 0
	}
	for i := 0; i < 10; i++ {
		if len(r.b) == 0 {
			r.err = errShort
			return 0
		}
		c := r.b[0]
		r.b = r.b[1:]
		v |= uint64(c&0x7f) << (7 * i)
		if c < 0x80 {
			return v
		}
	}
	r.err = errors.New("protocol: varint too long")
	return 0
}

// length reads a count of items each at least min bytes long.
func (r *reader) length(min int) int {
	n := r.uvarint()
	if r.err == nil && n > uint64(len(r.b)/min) {
		r.err = errShort
	}
	if r.err != nil {
		return 0
	}
	return int(n)
}

func (r *reader) int(p *int) {
	u := r.uvarint()
	if r.err == nil {
		*p = int(int64(u>>1) ^ -int64(u&1))
	}
}

func (r *reader) u64(p *uint64) {
	if u := r.uvarint(); r.err == nil {
		*p = u
	}
}

func (r *reader) f64(p *float64) {
	if r.err != nil {
		return
	}
	if len(r.b) < 8 {
		r.err = errShort
		return
	}
	var u uint64
	for i := 0; i < 8; i++ {
		u |= uint64(r.b[i]) << (8 * i)
	}
	r.b = r.b[8:]
	*p = math.Float64frombits(u)
}

func (r *reader) bool(p *bool) {
	if r.err != nil || len(r.b) < 1 || r.b[0] > 1 {
		if r.err == nil {
			r.err = errors.New("protocol: bad boolean")
		}
		return
	}
	*p = r.b[0] == 1
	r.b = r.b[1:]
}

func (r *reader) str(p *string) {
	n := r.length(1)
	if r.err != nil {
		return
	}
	*p = string(r.b[:n])
	r.b = r.b[n:]
}

// text reads a file's text without copying it: the string shares the
// header's memory (Decode's header must not change afterwards). A CSV of
// megabytes arrives in the worker once, as the header's bytes, and is read
// from there (a copy here, and the session's conversion back to bytes,
// were two more copies of it).
func (r *reader) text(p *string) {
	n := r.length(1)
	if r.err != nil || n == 0 {
		return
	}
	*p = unsafe.String(&r.b[0], n)
	r.b = r.b[n:]
}

func (r *reader) strs(p *[]string) {
	n := r.length(1)
	if r.err != nil || n == 0 {
		return
	}
	*p = make([]string, n)
	for i := range *p {
		r.str(&(*p)[i])
	}
}

func (r *reader) ints(p *[]int) {
	n := r.length(1)
	if r.err != nil || n == 0 {
		return
	}
	*p = make([]int, n)
	for i := range *p {
		r.int(&(*p)[i])
	}
}

func (r *reader) rows(p *[][]string) {
	n := r.length(1)
	if r.err != nil || n == 0 {
		return
	}
	*p = make([][]string, n)
	for i := range *p {
		r.strs(&(*p)[i])
	}
}
