//go:build js && wasm

package jsmsg

import (
	"reflect"
	"strings"
	"syscall/js"
	"testing"
	"time"

	"github.com/rml-lab/rml/wasm/protocol"
)

// receiver returns a MessageChannel's port to post to and a channel of
// what arrives at the other end, decoded by Receive.
func receiver(t *testing.T) (js.Value, chan protocol.Message) {
	t.Helper()
	mc := js.Global().Get("MessageChannel")
	if mc.IsUndefined() {
		t.Skip("no MessageChannel in this JavaScript host")
	}
	ch := mc.New()
	got := make(chan protocol.Message, 8)
	var f js.Func
	f = js.FuncOf(func(_ js.Value, args []js.Value) any {
		m, err := Receive(args[0].Get("data"))
		if err != nil {
			t.Errorf("Receive: %v", err)
		}
		got <- m
		return nil
	})
	t.Cleanup(func() { ch.Get("port1").Call("close"); ch.Get("port2").Call("close"); f.Release() })
	ch.Get("port2").Set("onmessage", f)
	return ch.Get("port1"), got
}

func next(t *testing.T, got chan protocol.Message) protocol.Message {
	t.Helper()
	select {
	case m := <-got:
		return m
	case <-time.After(10 * time.Second):
		t.Fatal("no message arrived")
		return protocol.Message{}
	}
}

// Post transfers the header and the arrays to the other end of a
// MessageChannel, and Receive there gives back the same message: a 2 MB
// CSV in the header, arrays of floats (empty ones too), and a message with
// none.
func TestPostReceive(t *testing.T) {
	port, got := receiver(t)
	csv := "a,b,label\n" + strings.Repeat("1.5,-2e-3,x\n", 2<<20/12)
	for _, m := range []protocol.Message{
		{ID: 7, Kind: protocol.KindLoad, Load: &protocol.Load{CSV: csv, FileName: "up.csv", TestFrac: 0.15, Seed: 3}},
		{ID: 3, Kind: protocol.KindProgress, Progress: &protocol.Progress{Iter: 2, Iters: []float64{1, 2}, Gaps: []float64{0.5, 1e-300}, FrameIter: 2, FrameErr: 0.25, Frame: []float64{1, -2, 3.5, 4}}},
		{ID: 4, Kind: protocol.KindProgress, Progress: &protocol.Progress{Iter: 0, Iters: []float64{}, Gaps: []float64{}, Frame: []float64{}}},
		{ID: 5, Kind: protocol.KindStop},
	} {
		if err := Post(port, m); err != nil {
			t.Fatal(err)
		}
		back := next(t, got)
		m.V = protocol.Version
		if !reflect.DeepEqual(back, m) {
			t.Errorf("%s: got back %+.80v, want %+.80v", m.Kind, back, m)
		}
	}
}

// Receive refuses what Post did not make, with an error, not a panic.
func TestReceiveRefuses(t *testing.T) {
	obj := js.Global().Get("Object")
	for name, v := range map[string]js.Value{
		"a string":           js.ValueOf("hello"),
		"no header":          obj.New(),
		"a header of floats": js.ValueOf(map[string]any{"h": js.Global().Get("Float64Array").New(3)}),
		"arrays of bytes":    js.ValueOf(map[string]any{"h": js.Global().Get("Uint8Array").New(0), "a": js.ValueOf([]any{js.Global().Get("Uint8Array").New(2)})}),
	} {
		if _, err := Receive(v); err == nil {
			t.Errorf("%s: Receive gave no error", name)
		}
	}
}

// An encoded message posted by copies arrives whole each time, and the
// encoded object stays as it was: the page posts one Load to several
// workers so.
func TestPostCopy(t *testing.T) {
	port, got := receiver(t)
	csv := "a,b,label\n" + strings.Repeat("1.5,-2e-3,x\n", 2<<20/12)
	m := protocol.Message{ID: 9, Kind: protocol.KindLoad, Load: &protocol.Load{CSV: csv, FileName: "up.csv", TestFrac: 0.15, Seed: 3}}
	p := protocol.Message{ID: 3, Kind: protocol.KindProgress, Progress: &protocol.Progress{Iter: 2, Iters: []float64{1, 2}, Gaps: []float64{0.5, 1e-300}, FrameIter: 2, FrameErr: 0.25, Frame: []float64{1, -2, 3.5, 4}}}
	for _, m := range []protocol.Message{m, p} {
		obj, err := Encode(m)
		if err != nil {
			t.Fatal(err)
		}
		m.V = protocol.Version
		for i := range 3 {
			PostCopy(port, obj)
			if back := next(t, got); !reflect.DeepEqual(back, m) {
				t.Errorf("%s, copy %d: got back %+.80v, want %+.80v", m.Kind, i, back, m)
			}
		}
		// The original can still be transferred once.
		port.Call("postMessage", obj, transferOf(obj))
		if back := next(t, got); !reflect.DeepEqual(back, m) {
			t.Errorf("%s, the original: got back %+.80v", m.Kind, back)
		}
	}
}
