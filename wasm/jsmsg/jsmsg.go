//go:build js && wasm

// Package jsmsg carries protocol messages across postMessage: the header
// as a Uint8Array and the arrays as Float64Arrays, all of whose buffers are
// transferred, not copied. Both the page and the worker use it.
package jsmsg

import (
	"errors"
	"syscall/js"
	"unsafe"

	"github.com/rml-lab/rml/wasm/protocol"
)

var (
	float64Array = js.Global().Get("Float64Array")
	uint8Array   = js.Global().Get("Uint8Array")
	array        = js.Global().Get("Array")
)

// Post encodes m and posts it to target (a Worker, or the worker's self).
func Post(target js.Value, m protocol.Message) error {
	obj, err := Encode(m)
	if err != nil {
		return err
	}
	target.Call("postMessage", obj, transferOf(obj))
	return nil
}

// Encode encodes m as the object Post posts: the header as a Uint8Array
// ("h") and the arrays as Float64Arrays ("a").
func Encode(m protocol.Message) (js.Value, error) {
	header, data, err := protocol.Encode(m)
	if err != nil {
		return js.Value{}, err
	}
	h := uint8Array.New(len(header))
	js.CopyBytesToJS(h, header)
	arrays := array.New(len(data))
	for i, a := range data {
		f := float64Array.New(len(a))
		if len(a) > 0 {
			b := unsafe.Slice((*byte)(unsafe.Pointer(&a[0])), 8*len(a))
			js.CopyBytesToJS(uint8Array.New(f.Get("buffer")), b)
		}
		arrays.SetIndex(i, f)
	}
	obj := js.Global().Get("Object").New()
	obj.Set("h", h)
	obj.Set("a", arrays)
	return obj, nil
}

// PostCopy posts a copy of obj, an object Encode made, to target, and
// leaves obj as it was: its buffers are copied in JavaScript and the
// copies transferred. A message sent to several workers (the page's Load
// of a 2 MB upload, for the helpers too) is so encoded once: encoding it
// again on the page's main thread took 26–33 ms of a task and 2 MB of Go's
// heap (protocol.Encode and CopyBytesToJS, a V8 profile), where a copy in
// JavaScript takes about a millisecond.
func PostCopy(target, obj js.Value) {
	c := js.Global().Get("Object").New()
	c.Set("h", obj.Get("h").Call("slice"))
	arrays := obj.Get("a")
	copies := array.New(arrays.Length())
	for i := range arrays.Length() {
		copies.SetIndex(i, arrays.Index(i).Call("slice"))
	}
	c.Set("a", copies)
	target.Call("postMessage", c, transferOf(c))
}

// transferOf lists the buffers of an encoded message, to be transferred.
func transferOf(obj js.Value) js.Value {
	arrays := obj.Get("a")
	n := arrays.Length()
	transfer := array.New(n + 1)
	transfer.SetIndex(n, obj.Get("h").Get("buffer"))
	for i := range n {
		transfer.SetIndex(i, arrays.Index(i).Get("buffer"))
	}
	return transfer
}

// Receive decodes the data of a message event.
func Receive(data js.Value) (protocol.Message, error) {
	if data.Type() != js.TypeObject || !data.Get("h").InstanceOf(uint8Array) {
		return protocol.Message{}, errors.New("protocol: not a protocol message")
	}
	header := make([]byte, data.Get("h").Length())
	js.CopyBytesToGo(header, data.Get("h"))
	a := data.Get("a")
	var arrays [][]float64
	if a.Type() == js.TypeObject {
		n := a.Length()
		arrays = make([][]float64, n)
		for i := range n {
			f := a.Index(i)
			if !f.InstanceOf(float64Array) {
				return protocol.Message{}, errors.New("protocol: array is not a Float64Array")
			}
			v := make([]float64, f.Length())
			if len(v) > 0 {
				b := unsafe.Slice((*byte)(unsafe.Pointer(&v[0])), 8*len(v))
				js.CopyBytesToGo(b, uint8Array.New(f.Get("buffer"), f.Get("byteOffset"), 8*len(v)))
			}
			arrays[i] = v
		}
	}
	return protocol.Decode(header, arrays)
}
