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
	header, data, err := protocol.Encode(m)
	if err != nil {
		return err
	}
	h := uint8Array.New(len(header))
	js.CopyBytesToJS(h, header)
	arrays := array.New(len(data))
	transfer := array.New(len(data) + 1)
	transfer.SetIndex(len(data), h.Get("buffer"))
	for i, a := range data {
		f := float64Array.New(len(a))
		if len(a) > 0 {
			b := unsafe.Slice((*byte)(unsafe.Pointer(&a[0])), 8*len(a))
			js.CopyBytesToJS(uint8Array.New(f.Get("buffer")), b)
		}
		arrays.SetIndex(i, f)
		transfer.SetIndex(i, f.Get("buffer"))
	}
	obj := js.Global().Get("Object").New()
	obj.Set("h", h)
	obj.Set("a", arrays)
	target.Call("postMessage", obj, transfer)
	return nil
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
