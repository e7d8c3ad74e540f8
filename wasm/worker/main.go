//go:build js && wasm

// Package worker is the solver's side of the Web Worker. It only decodes
// requests, calls wasm/session (and so core), and posts replies; a new
// request or "stop" cancels the run in progress. wasm/app runs it when
// assets/worker.js starts the program in a worker.
package worker

import (
	"context"
	"errors"
	"fmt"
	"sync"
	"syscall/js"
	"time"

	"github.com/rml-lab/rml/wasm/jsmsg"
	"github.com/rml-lab/rml/wasm/protocol"
	"github.com/rml-lab/rml/wasm/session"
	"github.com/rml-lab/rml/wasm/simd"
)

type worker struct {
	self    js.Value
	session *session.Session

	mu     sync.Mutex
	queue  []protocol.Message
	wake   chan struct{}
	cancel context.CancelFunc // of the run in progress, if any
}

// SIMD is Ready.Kernels when the solver's innermost loops run in
// WebAssembly SIMD.
const SIMD = "WebAssembly SIMD"

// Run serves requests in the worker and never returns.
func Run() {
	w := &worker{self: js.Global(), session: session.New(fetchDataset), wake: make(chan struct{}, 1)}
	// The innermost loops in WebAssembly SIMD, on this program's memory
	// (worker.js hands it over): the same results, in half the time on a
	// large upload (wasm/simd's BenchmarkUpload). Without SIMD, Go's.
	kernels := SIMD
	if err := simd.Install(w.self.Get("rmlGoMemory")); err != nil {
		kernels = "Go (" + err.Error() + ")"
	}
	w.session.YieldEvery, w.session.Yield = yieldEvery, yielder()
	onMessage := js.FuncOf(func(_ js.Value, args []js.Value) any {
		w.receive(args[0].Get("data"))
		return nil
	})
	// worker.js queues what arrives before the program runs.
	if q := w.self.Get("rmlQueue"); q.Type() == js.TypeObject {
		for i := range q.Length() {
			w.receive(q.Index(i).Get("data"))
		}
	}
	w.self.Set("onmessage", onMessage)
	w.post(protocol.Message{Kind: protocol.KindReady, Ready: &protocol.Ready{Builtins: session.Builtins(), Kernels: kernels}})
	for range w.wake {
		for {
			w.mu.Lock()
			if len(w.queue) == 0 {
				w.mu.Unlock()
				break
			}
			m := w.queue[0]
			w.queue = w.queue[1:]
			w.mu.Unlock()
			w.handle(m)
		}
	}
}

// receive runs on the JavaScript event loop: it must not block. Any new
// request cancels the run in progress; stop does nothing else.
func (w *worker) receive(data js.Value) {
	m, err := jsmsg.Receive(data)
	if err != nil {
		w.post(protocol.Message{Kind: protocol.KindError, Error: &protocol.Error{Message: err.Error()}})
		return
	}
	if m.Kind == protocol.KindPing {
		// Answered here, on the event loop: a busy worker answers at its
		// next yield, and nothing is cancelled.
		w.post(protocol.Message{ID: m.ID, Kind: protocol.KindPong})
		return
	}
	w.mu.Lock()
	defer w.mu.Unlock()
	if w.cancel != nil {
		w.cancel()
		w.cancel = nil
	}
	if m.Kind == protocol.KindStop {
		// A run not yet started is stopped too: it is dropped, and its
		// result says so.
		kept := w.queue[:0]
		for _, q := range w.queue {
			if q.Kind == protocol.KindTrain {
				w.post(protocol.Message{ID: q.ID, Kind: protocol.KindError, Error: &protocol.Error{Message: "stopped before it started"}})
				continue
			}
			kept = append(kept, q)
		}
		w.queue = kept
		return
	}
	// A newer request supersedes queued ones of its kind (a slider sends
	// many): only the last is worth running. The page ignores replies to
	// ids it has moved past, so the dropped ones need none.
	if m.Kind == protocol.KindTrain || m.Kind == protocol.KindLoad {
		kept := w.queue[:0]
		for _, q := range w.queue {
			if q.Kind != protocol.KindTrain && !(q.Kind == protocol.KindLoad && m.Kind == protocol.KindLoad) {
				kept = append(kept, q)
			}
		}
		w.queue = kept
	}
	w.queue = append(w.queue, m)
	select {
	case w.wake <- struct{}{}:
	default:
	}
}

func (w *worker) handle(m protocol.Message) {
	defer func() {
		if r := recover(); r != nil {
			w.post(protocol.Message{ID: m.ID, Kind: protocol.KindError, Error: &protocol.Error{Message: fmt.Sprintf("internal error: %v", r)}})
		}
	}()
	switch m.Kind {
	case protocol.KindLoad:
		// A load is stopped as a run is: by Stop or any newer request (a
		// dataset chosen while a large file is read).
		ctx := w.cancellable()
		ds, e := w.session.LoadContext(ctx, *m.Load, func(done, total int) {
			w.post(protocol.Message{ID: m.ID, Kind: protocol.KindProgress, Progress: &protocol.Progress{Phase: "euclid", Done: done, Total: total}})
		})
		w.settled()
		if e != nil {
			w.post(protocol.Message{ID: m.ID, Kind: protocol.KindError, Error: e})
			return
		}
		w.post(protocol.Message{ID: m.ID, Kind: protocol.KindDataset, Dataset: ds})
	case protocol.KindTriplets:
		set, e := w.session.Triplets(*m.Triplets)
		if e != nil {
			w.post(protocol.Message{ID: m.ID, Kind: protocol.KindError, Error: e})
			return
		}
		w.post(protocol.Message{ID: m.ID, Kind: protocol.KindTripletSet, TripletSet: set})
	case protocol.KindTrain:
		ctx := w.cancellable()
		res, e := w.session.Train(ctx, *m.Train, func(p *protocol.Progress) {
			w.post(protocol.Message{ID: m.ID, Kind: protocol.KindProgress, Progress: p})
		})
		w.settled()
		if e != nil {
			w.post(protocol.Message{ID: m.ID, Kind: protocol.KindError, Error: e})
			return
		}
		w.post(protocol.Message{ID: m.ID, Kind: protocol.KindResult, Result: res})
	default:
		w.post(protocol.Message{ID: m.ID, Kind: protocol.KindError, Error: &protocol.Error{Message: fmt.Sprintf("the worker does not take %q messages", m.Kind)}})
	}
}

// cancellable returns the context of the request about to run, which
// receive cancels when Stop or any newer request arrives.
func (w *worker) cancellable() context.Context {
	ctx, cancel := context.WithCancel(context.Background())
	w.mu.Lock()
	w.cancel = cancel
	w.mu.Unlock()
	return ctx
}

// settled ends the context cancellable gave, its request done.
func (w *worker) settled() {
	w.mu.Lock()
	if w.cancel != nil {
		w.cancel()
		w.cancel = nil
	}
	w.mu.Unlock()
}

// fetchDataset reads a built-in dataset from the server: assets/datasets/,
// beside this worker's loader (assets/worker.js). It blocks the calling
// goroutine only; the event loop runs the fetch.
func fetchDataset(file string) ([]byte, error) {
	type answer struct {
		data []byte
		err  error
	}
	done := make(chan answer, 1)
	var onBody, onResponse, onFail js.Func
	release := func() { onBody.Release(); onResponse.Release(); onFail.Release() }
	onFail = js.FuncOf(func(_ js.Value, args []js.Value) any {
		done <- answer{err: errors.New(args[0].Call("toString").String())}
		return nil
	})
	onBody = js.FuncOf(func(_ js.Value, args []js.Value) any {
		b := js.Global().Get("Uint8Array").New(args[0])
		data := make([]byte, b.Length())
		js.CopyBytesToGo(data, b)
		done <- answer{data: data}
		return nil
	})
	onResponse = js.FuncOf(func(_ js.Value, args []js.Value) any {
		r := args[0]
		if !r.Get("ok").Bool() {
			done <- answer{err: fmt.Errorf("HTTP %d", r.Get("status").Int())}
			return nil
		}
		r.Call("arrayBuffer").Call("then", onBody, onFail)
		return nil
	})
	js.Global().Call("fetch", "datasets/"+file).Call("then", onResponse, onFail)
	a := <-done
	release()
	return a.data, a.err
}

// yieldEvery is how often a run lets messages in: with the yield below
// costing well under a millisecond, every 5 ms keeps Stop quick.
const yieldEvery = 5 * time.Millisecond

// yielder returns a yield that lets the worker's event loop run once: it
// posts to itself through a MessageChannel and waits for the echo, so the
// messages queued before it ("stop") are handled first. A timer would do
// too, but browsers clamp nested timers to 4 ms.
func yielder() func() {
	ch := js.Global().Get("MessageChannel").New()
	echo := make(chan struct{}, 1)
	ch.Get("port2").Set("onmessage", js.FuncOf(func(js.Value, []js.Value) any {
		select {
		case echo <- struct{}{}:
		default:
		}
		return nil
	}))
	port := ch.Get("port1")
	return func() {
		port.Call("postMessage", nil)
		<-echo
	}
}

func (w *worker) post(m protocol.Message) {
	if err := jsmsg.Post(w.self, m); err != nil {
		// Encode refuses only a malformed message (a body that does not
		// match its kind): a bug in this program, and worth saying so.
		jsmsg.Post(w.self, protocol.Message{ID: m.ID, Kind: protocol.KindError, Error: &protocol.Error{Message: "internal error: " + err.Error()}})
	}
}
