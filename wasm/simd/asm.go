package simd

// A small assembler for WebAssembly's binary format (the parts the kernels
// use: i32 and f64 arithmetic, 128-bit SIMD on two f64 lanes, structured
// loops), so that the kernels' module is built by Go code in this
// repository and not by an outside tool or from a committed binary.
// Opcodes are those of the WebAssembly 2.0 specification (core and the
// fixed-width SIMD proposal it includes), section 5.4.

// Value types (binary format, section 5.3.1).
const (
	i32  byte = 0x7F
	f64  byte = 0x7C
	v128 byte = 0x7B
)

// uleb appends v in unsigned LEB128.
func uleb(b []byte, v uint64) []byte {
	for {
		c := byte(v & 0x7F)
		v >>= 7
		if v != 0 {
			b = append(b, c|0x80)
			continue
		}
		return append(b, c)
	}
}

// sleb appends v in signed LEB128.
func sleb(b []byte, v int64) []byte {
	for {
		c := byte(v & 0x7F)
		v >>= 7
		if (v == 0 && c&0x40 == 0) || (v == -1 && c&0x40 != 0) {
			return append(b, c)
		}
		b = append(b, c|0x80)
	}
}

// name appends a WebAssembly name: its length, then its UTF-8 bytes.
func name(b []byte, s string) []byte { return append(uleb(b, uint64(len(s))), s...) }

// fn is one function being assembled: its signature, its locals beyond
// the parameters, and its body. Locals are numbered as WebAssembly numbers
// them, the parameters first.
type fn struct {
	export  string
	params  []byte
	results []byte
	locals  []byte
	code    []byte
}

// newFn starts a function exported as export, with params.
func newFn(export string, results []byte, params ...byte) *fn {
	return &fn{export: export, params: params, results: results}
}

// local adds a local of type t and returns its index.
func (f *fn) local(t byte) uint32 {
	f.locals = append(f.locals, t)
	return uint32(len(f.params) + len(f.locals) - 1)
}

func (f *fn) op(b ...byte) { f.code = append(f.code, b...) }

// simd appends a SIMD instruction: the 0xFD prefix, then its opcode.
func (f *fn) simd(op uint32) { f.code = uleb(append(f.code, 0xFD), uint64(op)) }

// memarg appends an access's alignment (log2 of bytes) and offset.
func (f *fn) memarg(align, offset uint32) {
	f.code = uleb(uleb(f.code, uint64(align)), uint64(offset))
}

func (f *fn) get(l uint32) { f.code = uleb(append(f.code, 0x20), uint64(l)) }
func (f *fn) set(l uint32) { f.code = uleb(append(f.code, 0x21), uint64(l)) }
func (f *fn) i32(v int32)  { f.code = sleb(append(f.code, 0x41), int64(v)) }

// Instructions, each named as in the text format.
func (f *fn) i32Add()  { f.op(0x6A) }
func (f *fn) i32Mul()  { f.op(0x6C) }
func (f *fn) i32Shl()  { f.op(0x74) }
func (f *fn) i32And()  { f.op(0x71) }
func (f *fn) i32Eqz()  { f.op(0x45) }
func (f *fn) i32LtS()  { f.op(0x48) }
func (f *fn) i32GeS()  { f.op(0x4E) }
func (f *fn) i32GtS()  { f.op(0x4A) }
func (f *fn) f64Add()  { f.op(0xA0) }
func (f *fn) f64Sub()  { f.op(0xA1) }
func (f *fn) f64Mul()  { f.op(0xA2) }
func (f *fn) f64Ne()   { f.op(0x62) }
func (f *fn) f64Zero() { f.op(0x44, 0, 0, 0, 0, 0, 0, 0, 0) }

func (f *fn) i32Load(offset uint32)   { f.op(0x28); f.memarg(2, offset) }
func (f *fn) i32Load8U(offset uint32) { f.op(0x2D); f.memarg(0, offset) }
func (f *fn) i32Store(offset uint32)  { f.op(0x36); f.memarg(2, offset) }
func (f *fn) i32Store8(offset uint32) { f.op(0x3A); f.memarg(0, offset) }
func (f *fn) f64Load(offset uint32)   { f.op(0x2B); f.memarg(3, offset) }
func (f *fn) f64Store(offset uint32)  { f.op(0x39); f.memarg(3, offset) }

// The v128 accesses claim 8-byte alignment (a hint only): rows of
// float64s start at multiples of 8, not of 16.
func (f *fn) v128Load(offset uint32)        { f.simd(0x00); f.memarg(3, offset) }
func (f *fn) v128Store(offset uint32)       { f.simd(0x0B); f.memarg(3, offset) }
func (f *fn) v128Load64Splat(offset uint32) { f.simd(0x0A); f.memarg(3, offset) }
func (f *fn) v128Load64Zero(offset uint32)  { f.simd(0x5D); f.memarg(3, offset) }
func (f *fn) v128Zero()                     { f.simd(0x0C); f.op(make([]byte, 16)...) }
func (f *fn) f64x2Splat()                   { f.simd(0x14) }
func (f *fn) f64x2ExtractLane(lane byte)    { f.simd(0x21); f.op(lane) }
func (f *fn) f64x2Add()                     { f.simd(0xF0) }
func (f *fn) f64x2Sub()                     { f.simd(0xF1) }
func (f *fn) f64x2Mul()                     { f.simd(0xF2) }

// sum appends a + b (i32 locals) onto the stack.
func (f *fn) sum(a, b uint32) { f.get(a); f.get(b); f.i32Add() }

// times8 appends l·8 (i32) onto the stack: an index into float64s as bytes.
func (f *fn) times8(l uint32) { f.get(l); f.i32(3); f.i32Shl() }

// setAt appends dst = base + l·stride (i32 locals).
func (f *fn) setAt(dst, base, l, stride uint32) {
	f.get(base)
	f.get(l)
	f.get(stride)
	f.i32Mul()
	f.i32Add()
	f.set(dst)
}

// addTo appends l += v (i32), v a constant.
func (f *fn) addTo(l uint32, v int32) { f.get(l); f.i32(v); f.i32Add(); f.set(l) }

// addLocal appends l += m (i32 locals).
func (f *fn) addLocal(l, m uint32) { f.get(l); f.get(m); f.i32Add(); f.set(l) }

// while appends a loop that runs body as long as cond leaves a non-zero
// i32: block { loop { cond; i32.eqz; br_if 1; body; br 0 } }. body must
// not branch out itself.
func (f *fn) while(cond, body func()) {
	f.op(0x02, 0x40, 0x03, 0x40)
	cond()
	f.i32Eqz()
	f.op(0x0D, 1)
	body()
	f.op(0x0C, 0, 0x0B, 0x0B)
}

// ifThen appends: cond; if { then }.
func (f *fn) ifThen(cond, then func()) {
	cond()
	f.op(0x04, 0x40)
	then()
	f.op(0x0B)
}

// fits returns a condition: a + n ≤ b (i32 locals, signed).
func (f *fn) fits(a uint32, n int32, b uint32) func() {
	return func() {
		f.get(a)
		f.i32(n)
		f.i32Add()
		f.get(b)
		f.op(0x4C) // i32.le_s
	}
}

// lt returns a condition: a < b (i32 locals, signed).
func (f *fn) lt(a, b uint32) func() {
	return func() { f.get(a); f.get(b); f.i32LtS() }
}

// module assembles fns into a module that imports its memory as env.mem.
func module(fns ...*fn) []byte {
	b := []byte{0x00, 0x61, 0x73, 0x6D, 0x01, 0x00, 0x00, 0x00}
	section := func(id byte, body []byte) {
		b = append(b, id)
		b = uleb(b, uint64(len(body)))
		b = append(b, body...)
	}
	// Types: one per function (duplicates are allowed).
	var s []byte
	s = uleb(s, uint64(len(fns)))
	for _, f := range fns {
		s = append(s, 0x60)
		s = append(uleb(s, uint64(len(f.params))), f.params...)
		s = append(uleb(s, uint64(len(f.results))), f.results...)
	}
	section(1, s)
	// Imports: the memory, at least one page, no maximum.
	s = uleb(nil, 1)
	s = name(s, "env")
	s = name(s, "mem")
	s = append(s, 0x02, 0x00, 0x01)
	section(2, s)
	// Functions: function i has type i.
	s = uleb(nil, uint64(len(fns)))
	for i := range fns {
		s = uleb(s, uint64(i))
	}
	section(3, s)
	// Exports.
	s = uleb(nil, uint64(len(fns)))
	for i, f := range fns {
		s = name(s, f.export)
		s = uleb(append(s, 0x00), uint64(i))
	}
	section(7, s)
	// Code: each body's locals (one run per local, as declared), its
	// instructions and end.
	s = uleb(nil, uint64(len(fns)))
	for _, f := range fns {
		var body []byte
		body = uleb(body, uint64(len(f.locals)))
		for _, t := range f.locals {
			body = append(uleb(body, 1), t)
		}
		body = append(append(body, f.code...), 0x0B)
		s = append(uleb(s, uint64(len(body))), body...)
	}
	section(10, s)
	return b
}
