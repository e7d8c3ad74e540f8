//go:build js && wasm

package ui

import (
	"slices"
	"strconv"
	"syscall/js"

	"github.com/rml-lab/rml/ui/store"
	"github.com/rml-lab/rml/wasm/jsmsg"
	"github.com/rml-lab/rml/wasm/protocol"
)

// The helper workers: more solver workers (lanes 1…) on which the store
// spreads a batch's runs (Compare, the sweeps). Each runs the same program
// as lane 0 and is kept holding the same data: every Load and Triplets
// request that lane 0 has read without error is sent to the helpers too,
// in the same order, so that their sessions hold what lane 0's holds. A
// helper serves the store once it has answered all of them for lane 0's
// current dataset (store.Helpers lists those). They start once the page is
// idle after its first dataset, so that they never slow the page's start
// or its first run.
//
// A helper reads lane 0's data when the page can spare a core for it: at
// once while a batch runs (the batch wants it), else once lane 0 has run
// nothing and said nothing for helperQuiet. Reading it at once, as the
// helpers did before, put a second worker on the cores while the page drew
// the new dataset and lane 0 trained on it: in a Chromium trace of the
// visit (e2e TestVisitLongTasks) the upload's task had 11 ms of the main
// thread's CPU in 66 ms, the other threads 83 ms of CPU meanwhile.

// maxHelpers bounds the pool: batches have at most 20 runs, and each
// worker holds its own copy of the data.
const maxHelpers = 3

type helper struct {
	lane     int
	worker   js.Value
	handlers []js.Func
	ready    bool         // its program runs
	pending  map[int]bool // data requests sent to it and not yet answered
	gen, fed int          // it was sent glue.data[:fed] of the dataset glue.dataGen was then
}

// helperQuiet is how long lane 0 must have run nothing and said nothing
// before the helpers read its data outside a batch, in ms.
const helperQuiet = 1000

// helperCount is one helper fewer than the machine's cores (lane 0 is one
// worker), at most maxHelpers; "?workers=N" in the address asks for N
// workers in all (1: no helper), for comparing the two.
func helperCount() int {
	n := 0
	if hc := js.Global().Get("navigator").Get("hardwareConcurrency"); hc.Type() == js.TypeNumber {
		n = hc.Int() - 1
	}
	q := js.Global().Get("URLSearchParams").New(js.Global().Get("location").Get("search"))
	if w := q.Call("get", "workers"); w.Type() == js.TypeString {
		if v, err := strconv.Atoi(w.String()); err == nil {
			n = v - 1
		}
	}
	return min(max(n, 0), maxHelpers)
}

// send posts a request to its lane's worker; a Load or Triplets request
// goes to lane 0 and, if the page has helpers, is kept until it answers
// (with none, as with ?workers=1, it is posted as any request, its buffers
// transferred, not copied).
func (g *glue) send(m protocol.Message) {
	target := g.worker
	if lane := g.state.LaneOf(m); lane != 0 {
		i := slices.IndexFunc(g.helpers, func(h *helper) bool { return h.lane == lane })
		if i < 0 {
			return // gone: the store was told (LaneLost), and m is a Stop for it
		}
		target = g.helpers[i].worker
	}
	if (m.Kind == protocol.KindLoad || m.Kind == protocol.KindTriplets) && g.nHelpers > 0 {
		// Encoded once and kept: the helpers get copies of it
		// (jsmsg.PostCopy), not a second encoding on this thread.
		enc, err := jsmsg.Encode(m)
		if err != nil {
			store.Reduce(g.state, store.Invalid{Message: "Could not send the request to the solver: " + err.Error()})
			return
		}
		if g.sent == nil {
			g.sent = map[int]dataRequest{}
		}
		g.sent[m.ID] = dataRequest{id: m.ID, enc: enc}
		jsmsg.PostCopy(target, enc)
		return
	}
	if err := jsmsg.Post(target, m); err != nil {
		store.Reduce(g.state, store.Invalid{Message: "Could not send the request to the solver: " + err.Error()})
	}
}

// dataRequest is a Load or Triplets request as sent to lane 0: its id and
// its encoding, which the helpers are sent copies of.
type dataRequest struct {
	id  int
	enc js.Value
}

// copyData notes a reply of lane 0: a Load or Triplets request it read
// without error is what the helpers must read next.
func (g *glue) copyData(m protocol.Message) {
	if m.Kind == protocol.KindProgress {
		return // a load's progress: its answer is yet to come
	}
	req, ok := g.sent[m.ID]
	if !ok {
		return
	}
	delete(g.sent, m.ID)
	switch m.Kind {
	case protocol.KindDataset:
		g.data = []dataRequest{req}
		g.dataGen++
	case protocol.KindTripletSet:
		g.data = append(g.data, req)
	default:
		return
	}
	g.Dispatch(store.Helpers{Lanes: g.synced()}) // none holds it yet
}

// behind reports whether helper h lacks some of what lane 0 holds.
func (g *glue) behind(h *helper) bool { return h.gen != g.dataGen || h.fed < len(g.data) }

// feedHelpers sends the ready helpers what lane 0 holds and they lack, when
// the page can spare the cores (see the top of this file); otherwise it
// checks again every helperQuiet.
func (g *glue) feedHelpers() {
	if !slices.ContainsFunc(g.helpers, func(h *helper) bool { return h.ready && g.behind(h) }) {
		return
	}
	s := g.state
	quiet := s.Status != store.Running && !s.Loading && now()-g.heardAt >= helperQuiet
	if g.inBatch() || quiet {
		for _, h := range g.helpers {
			if !h.ready {
				continue
			}
			if h.gen != g.dataGen {
				h.gen, h.fed = g.dataGen, 0
			}
			for ; h.fed < len(g.data); h.fed++ {
				g.feed(h, g.data[h.fed])
			}
		}
		return
	}
	if !g.feedDue {
		g.feedDue = true
		after(helperQuiet, func() {
			g.feedDue = false
			g.feedHelpers()
		})
	}
}

// feed sends a data request to helper h.
func (g *glue) feed(h *helper, r dataRequest) {
	h.pending[r.id] = true
	jsmsg.PostCopy(h.worker, r.enc)
}

// synced lists the lanes of the helpers that hold lane 0's data.
func (g *glue) synced() []int {
	var lanes []int
	for _, h := range g.helpers {
		if h.ready && len(h.pending) == 0 && len(g.data) > 0 && !g.behind(h) {
			lanes = append(lanes, h.lane)
		}
	}
	return lanes
}

// startHelpers starts the helpers once lane 0 holds data and nothing runs.
func (g *glue) startHelpers() {
	s := g.state
	if g.started || g.nHelpers == 0 || len(g.data) == 0 || s.Status == store.Running || s.Loading {
		return
	}
	g.started = true
	for range g.nHelpers {
		g.spawn()
	}
}

// spawn starts a helper on a lane of its own (a helper that replaces one
// that died gets a new lane, so that nothing of the old one's runs can be
// taken for the new one's).
func (g *glue) spawn() {
	g.lastLane++
	h := &helper{lane: g.lastLane, pending: map[int]bool{}}
	h.worker, h.handlers = newWorker(func(m protocol.Message) {
		switch {
		case m.Kind == protocol.KindReady:
			h.ready = true
			g.feedHelpers()
		case h.pending[m.ID]:
			delete(h.pending, m.ID)
			if m.Kind == protocol.KindError {
				// Lane 0 read it: a helper that cannot is of no use.
				g.lose(h, m.Error.Message)
				return
			}
			if len(h.pending) == 0 {
				g.Dispatch(store.Helpers{Lanes: g.synced()})
			}
		default:
			g.heardAt = now()
			g.heard(m)
			g.Dispatch(store.Reply{Message: m})
		}
	}, func(err error) {
		g.lose(h, "it sent a message the page cannot read: "+err.Error())
	}, func(reason string) { g.lose(h, reason) })
	g.helpers = append(g.helpers, h)
}

// lose ends helper h: the store ends its runs with reason and no longer
// uses its lane. A new helper replaces it, at most maxRestarts times while
// lane 0 lives (a helper that cannot read lane 0's data would fail again);
// it serves once it holds the data, as the first ones did.
func (g *glue) lose(h *helper, reason string) {
	i := slices.Index(g.helpers, h)
	if i < 0 {
		return
	}
	g.helpers = slices.Delete(g.helpers, i, i+1)
	h.end()
	g.Dispatch(store.LaneLost{Lane: h.lane, Reason: reason})
	if g.replaced < maxRestarts {
		g.replaced++
		g.spawn()
	}
}

// stopHelpers ends every helper with lane 0 (which died); they start again
// once the new lane 0 holds data and the page is idle.
func (g *glue) stopHelpers() {
	for _, h := range g.helpers {
		h.end()
	}
	g.helpers, g.started, g.sent, g.data = nil, false, nil, nil
	g.lastLane, g.replaced = 0, 0
}

// end terminates h's worker and releases its handlers.
func (h *helper) end() {
	h.worker.Call("terminate")
	for _, f := range h.handlers {
		f.Release()
	}
}
