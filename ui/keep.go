//go:build js && wasm

package ui

import (
	"syscall/js"

	"github.com/rml-lab/rml/ui/store"
)

// The page keeps what a user made (store.SessionJSON and the files' text)
// in the browser's storage through window.rmlKeep (assets/keep.js), and
// restores it on the next visit: a reload restores its own tab's work, a
// plain visit the newest. An embedded page keeps nothing: a course page
// holds many, and each opens on its link.

// keepEvery is the least time between two saves, in ms: a result, a pin
// or a setting changed is kept within about a second, and a burst of
// changes (a slider dragged) is written once.
const keepEvery = 800

// keeper is the glue's part that keeps and restores sessions.
type keeper struct {
	api       js.Value // window.rmlKeep; undefined: nothing is kept
	restoring bool     // the saved record is being read: the worker's Ready waits for it
	held      *store.WorkerReady
	key       string // the SessionKey last kept
	due       bool   // a save is scheduled
	saving    bool   // a save is under way
	csv, trip string // the files' text last kept (sent again only when changed)
	failed    bool   // a save failed and the page said so
}

// startRestore reads the record to restore, if any, and dispatches it;
// until then the worker's Ready is held (ready), so that the first load is
// the restored data, not the link's.
func (g *glue) startRestore() {
	k := &g.keep
	k.api = js.Global().Get("rmlKeep")
	if k.api.Type() != js.TypeObject || g.state.Params.View.Embed || g.state.Ask != nil {
		// An embed keeps nothing; a link into the Ask-me mode opens on its
		// own items, whose answers are kept apart (askkeep.go).
		k.api = js.Undefined()
		return
	}
	k.restoring = true
	// boot.js keeps the work before it reloads the tab onto a new build.
	js.Global().Set("rmlKeepNow", js.FuncOf(func(js.Value, []js.Value) any {
		var exec js.Func
		exec = js.FuncOf(func(_ js.Value, args []js.Value) any {
			exec.Release()
			resolve := args[0]
			g.save(func() { resolve.Invoke() })
			return nil
		})
		return js.Global().Get("Promise").New(exec)
	}))
	var done js.Func
	done = js.FuncOf(func(_ js.Value, args []js.Value) any {
		done.Release()
		if !k.restoring {
			return nil
		}
		k.restoring = false
		if rec := args[0]; rec.Type() == js.TypeObject {
			text := func(name string) string {
				if v := rec.Get(name); v.Type() == js.TypeString {
					return v.String()
				}
				return ""
			}
			k.csv, k.trip = text("csv"), text("triplets")
			g.Dispatch(store.Restore{Session: text("session"), CSV: k.csv, Triplets: k.trip})
		}
		g.releaseReady()
		return nil
	})
	k.api.Get("saved").Call("then", done)
	// Storage that never answers (a browser bug, a blocked database)
	// holds the page up for restoreWait at most.
	after(restoreWait, func() {
		if k.restoring {
			k.restoring = false
			g.releaseReady()
		}
	})
}

// releaseReady dispatches the worker's Ready held while the record to
// restore was read, if it came meanwhile.
func (g *glue) releaseReady() {
	if r := g.keep.held; r != nil {
		g.keep.held = nil
		g.Dispatch(*r)
	}
}

// restoreWait is the longest the page waits for the kept record, in ms.
const restoreWait = 3000

// ready dispatches the worker's Ready, or holds it while the record to
// restore is read.
func (g *glue) ready(r store.WorkerReady) {
	if g.keep.restoring {
		g.keep.held = &r
		return
	}
	g.Dispatch(r)
}

// kept notes a change: if what the session holds changed, it is kept
// within keepEvery, once nothing is on its way (a run, a load).
func (g *glue) kept() {
	k := &g.keep
	if k.api.IsUndefined() || k.restoring || k.due || k.failed {
		return
	}
	if !g.state.Settled() || g.state.SessionKey() == k.key {
		return
	}
	k.due = true
	after(keepEvery, func() {
		k.due = false
		g.save(nil)
	})
}

// save keeps the session now, if it is still settled and changed, and
// then calls done (if not nil) whatever came of it.
func (g *glue) save(done func()) {
	k, s := &g.keep, g.state
	if done == nil {
		done = func() {}
	}
	if k.saving {
		after(keepEvery/4, func() { g.save(done) })
		return
	}
	key := s.SessionKey()
	if !s.Settled() || key == k.key || k.failed {
		done()
		return
	}
	b, err := s.SessionJSON()
	if err != nil || b == nil {
		done()
		return
	}
	csv, trip := js.Undefined(), js.Undefined()
	if s.CSV != k.csv {
		csv = js.ValueOf(s.CSV)
	}
	t := ""
	if s.TripletFile != nil {
		t = s.TripletFile.CSV
	}
	if t != k.trip {
		trip = js.ValueOf(t)
	}
	k.saving = true
	var ok, fail js.Func
	release := func() { ok.Release(); fail.Release(); k.saving = false; done() }
	ok = js.FuncOf(func(js.Value, []js.Value) any {
		k.key, k.csv, k.trip = key, s.CSV, t
		release()
		g.kept() // anything that changed meanwhile
		return nil
	})
	fail = js.FuncOf(func(_ js.Value, args []js.Value) any {
		release()
		k.failed = true
		reason := "the storage refused it"
		if e := args[0]; e.Truthy() {
			reason = e.Call("toString").String()
		}
		g.Dispatch(store.KeepFailed{Reason: reason})
		return nil
	})
	k.api.Call("save", string(b), csv, trip).Call("then", ok, fail)
}

// startFresh forgets the kept work and opens the first lesson.
func (g *glue) startFresh() {
	if !g.keep.api.IsUndefined() {
		g.keep.key, g.keep.csv, g.keep.trip = "", "", ""
		g.keep.api.Call("forget")
	}
	g.Dispatch(store.StartFresh{})
}
