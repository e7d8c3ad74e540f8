package store

import (
	"fmt"
	"math/rand/v2"
	"reflect"
	"slices"
	"testing"

	"github.com/rml-lab/rml/wasm/protocol"
)

// fakeWorker answers Train requests as a worker's session would, in a way
// that shows where a run started from: a run's "iterations" are a code of
// its method, η and noise, plus, for a warm run, those of the run before it
// on the same worker. A warm run after the wrong run gives other numbers.
type fakeWorker struct {
	t     *testing.T
	lane  int
	queue []protocol.Message // requests not yet answered, in order
	last  int                // the iterations of the last run, the warm state
	runs  int                // Train requests received

	// The best case's start, as a session keeps it: solved by the first
	// best-case run without one (and sent with its result in a batch),
	// or taken from a request's Start.
	start         map[uint64]bool // by the triplets' Data
	solved, given int
}

var methodCode = map[string]int{"fast": 1, "lmnn": 2, "xing": 3, "euclid": 4, "bestcase": 5}

func (w *fakeWorker) receive(m protocol.Message) {
	switch m.Kind {
	case protocol.KindStop:
		// The run on the worker is cancelled: it ends with a stopped result.
		for i, q := range w.queue {
			if q.Kind == protocol.KindTrain {
				w.queue[i] = protocol.Message{ID: q.ID, Kind: protocol.KindStop}
			}
		}
	case protocol.KindTrain:
		for _, q := range w.queue {
			if q.Kind == protocol.KindTrain {
				// The real worker cancels or drops it: the pool must
				// never send a lane a run while it has one.
				w.t.Errorf("lane %d: run %d sent while run %d is on it", w.lane, m.ID, q.ID)
			}
		}
		w.queue = append(w.queue, m)
		w.runs++
	default:
		w.t.Fatalf("lane %d got a %s request", w.lane, m.Kind)
	}
}

func (w *fakeWorker) keep(data uint64) {
	if w.start == nil {
		w.start = map[uint64]bool{}
	}
	w.start[data] = true
}

// run answers the oldest request: a progress message, then the result.
func (w *fakeWorker) run() []protocol.Message {
	if len(w.queue) == 0 {
		return nil
	}
	m := w.queue[0]
	w.queue = w.queue[1:]
	if m.Kind == protocol.KindStop {
		return []protocol.Message{{ID: m.ID, Kind: protocol.KindResult, Result: &protocol.Result{Progress: protocol.Progress{Status: "stopped"}}}}
	}
	tr := m.Train
	iters := 1000*methodCode[tr.Method] + int(100*tr.Eta) + int(1000*tr.Flip)*7 + tr.MaxIter
	if tr.Warm {
		iters += 100000 * (w.last % 97)
	}
	w.last = iters
	p := protocol.Progress{Iter: iters, Gap: float64(iters), Iters: []float64{1, float64(iters)}, Gaps: []float64{10, float64(iters) / 1e6}}
	final := p
	final.Status, final.Iters, final.Gaps = "converged", nil, nil
	res := &protocol.Result{Progress: final, Method: tr.Method, ErrLearn: float64(iters)}
	if tr.Method == "bestcase" {
		// A start's Data stands for its triplets, here their noise rate.
		data := uint64(1000*tr.Flip) + 1
		if !tr.Start.Empty() {
			if tr.Start.Data != data || tr.Start.Lambda != tr.Lambda || tr.Start.Tol != tr.Tol {
				w.t.Errorf("lane %d: a best case at noise %v, λ %v, tolerance %v was sent a start for other triplets or settings", w.lane, tr.Flip, tr.Lambda, tr.Tol)
			}
			w.keep(data)
			w.given++
		}
		if !w.start[data] {
			w.keep(data)
			w.solved++
			if tr.Batch {
				res.Start = protocol.Start{Lambda: tr.Lambda, Tol: tr.Tol, Data: data, A: []float64{1}, Q: []float64{0.5}}
			}
		}
	}
	return []protocol.Message{
		{ID: m.ID, Kind: protocol.KindProgress, Progress: &p},
		{ID: m.ID, Kind: protocol.KindResult, Result: res},
	}
}

// pool runs the requests of a store on lanes fake workers, answering them
// in an order drawn from rng, until nothing is left.
type pool struct {
	t       *testing.T
	s       *State
	workers []*fakeWorker
	rng     *rand.Rand
	sent    int // Train requests
}

func newPool(t *testing.T, lanes int, seed uint64) *pool {
	p := &pool{t: t, s: ready(t), rng: rand.New(rand.NewPCG(seed, 1))}
	for l := range lanes {
		p.workers = append(p.workers, &fakeWorker{t: t, lane: l})
	}
	if lanes > 1 {
		var helpers []int
		for l := 1; l < lanes; l++ {
			helpers = append(helpers, l)
		}
		p.send(Reduce(p.s, Helpers{Lanes: helpers}))
	}
	return p
}

func (p *pool) send(out []protocol.Message) {
	for _, m := range out {
		if m.Kind == protocol.KindTrain {
			p.sent++
		}
		p.workers[p.s.LaneOf(m)].receive(m)
	}
}

// drain answers requests in a random order of workers until all are idle.
func (p *pool) drain() {
	for range 10000 {
		var busy []*fakeWorker
		for _, w := range p.workers {
			if len(w.queue) > 0 {
				busy = append(busy, w)
			}
		}
		if len(busy) == 0 {
			return
		}
		w := busy[p.rng.IntN(len(busy))]
		for _, m := range w.run() {
			p.send(Reduce(p.s, Reply{m}))
		}
	}
	p.t.Fatal("the pool did not settle")
}

// What a batch leaves: the views, the columns, the sweep and lane 0's warm
// state.
func (p *pool) outcome() string {
	s := p.s
	return fmt.Sprintf("status %v result %+v trace %v pinned %v sweep %+v lane0 %d message %q",
		s.Status, s.Result, s.Trace, pinned(s.Pinned), s.Sweep, p.workers[0].last, s.Message)
}

func pinned(runs []Run) []string {
	var out []string
	for _, r := range runs {
		out = append(out, fmt.Sprintf("%+v %+v %v", r.Params, *r.Result, r.Trace))
	}
	return out
}

// Compare, both sweeps and a Step give, on two and three workers answering
// in any order, exactly what one worker gives: the same columns, points,
// views and warm state of lane 0; and they use the helpers.
func TestPoolSameAsOneWorker(t *testing.T) {
	batches := map[string]Action{"compare": Compare{}, "eta": SweepRun{"eta"}, "flip": SweepRun{"flip"}}
	for name, a := range batches {
		one := newPool(t, 1, 1)
		Reduce(one.s, SetFlip{0.2})
		one.send(Reduce(one.s, a))
		one.drain()
		one.send(Reduce(one.s, Step{3}))
		one.drain()
		want := one.outcome()
		if one.s.Status != Stopped && one.s.Status != Converged {
			t.Fatalf("%s: one worker ends %v", name, one.s.Status)
		}
		for _, lanes := range []int{2, 3} {
			for seed := range uint64(20) {
				p := newPool(t, lanes, seed)
				Reduce(p.s, SetFlip{0.2})
				p.send(Reduce(p.s, a))
				p.drain()
				p.send(Reduce(p.s, Step{3}))
				p.drain()
				if got := p.outcome(); got != want {
					t.Fatalf("%s on %d workers, order %d:\n got %s\nwant %s", name, lanes, seed, got, want)
				}
				if p.sent != one.sent || p.workers[1].runs == 0 {
					t.Errorf("%s on %d workers: %d runs (%d on lane 1), one worker %d", name, lanes, p.sent, p.workers[1].runs, one.sent)
				}
			}
		}
	}
}

// While a batch runs on two workers, both work; Stop stops every run of
// it, nothing more starts, and the stopped current run is shown.
func TestPoolStop(t *testing.T) {
	p := newPool(t, 2, 1)
	p.send(Reduce(p.s, SweepRun{"eta"}))
	if len(p.workers[0].queue) != 1 || len(p.workers[1].queue) != 1 {
		t.Fatalf("queues %d and %d: want a run on each worker", len(p.workers[0].queue), len(p.workers[1].queue))
	}
	// The helper finishes first: its result waits for the cursor.
	for _, m := range p.workers[1].run() {
		p.send(Reduce(p.s, Reply{m}))
	}
	if len(p.s.Sweep.Points) != 0 || p.s.Trace.Gaps != nil {
		t.Errorf("a result ahead of the cursor was shown: %+v", p.s.Sweep.Points)
	}
	out := Reduce(p.s, Stop{})
	var stops []int
	for _, m := range out {
		if m.Kind != protocol.KindStop {
			t.Fatalf("Stop sent %+v", m)
		}
		stops = append(stops, p.s.LaneOf(m))
	}
	slices.Sort(stops)
	if !reflect.DeepEqual(stops, []int{0, 1}) {
		t.Errorf("Stop went to lanes %v, want 0 and 1", stops)
	}
	p.send(out)
	p.drain()
	if p.s.Status != Stopped || len(p.s.Sweep.Points) != 0 || p.s.Job != nil || len(p.s.lanes.inflight) != 0 {
		t.Errorf("after Stop: %v, %d points, job %v, in flight %v", p.s.Status, len(p.s.Sweep.Points), p.s.Job, p.s.lanes.inflight)
	}
	// A new batch starts on both lanes again.
	p.send(Reduce(p.s, Compare{}))
	if len(p.workers[0].queue) != 1 || len(p.workers[1].queue) != 1 {
		t.Errorf("queues %d and %d after a new Compare", len(p.workers[0].queue), len(p.workers[1].queue))
	}
}

// A helper that dies ends the batch with its reason once the cursor gets
// to its run; the helper is no longer used.
func TestPoolLaneLost(t *testing.T) {
	p := newPool(t, 2, 1)
	p.send(Reduce(p.s, Compare{}))
	p.workers[1].queue = nil
	p.send(Reduce(p.s, LaneLost{Lane: 1, Reason: "out of memory"}))
	p.drain()
	if p.s.Status != Error || p.s.Message != "A solver worker stopped unexpectedly (out of memory)." || len(p.s.Pinned) != 1 || len(p.s.Helpers) != 0 {
		t.Errorf("after a helper died: %v %q, %d pinned, helpers %v", p.s.Status, p.s.Message, len(p.s.Pinned), p.s.Helpers)
	}
	p.send(Reduce(p.s, Compare{}))
	p.drain()
	if len(p.s.Pinned) != min(MaxPinned, 1+len(CompareMethods)+1) || p.s.Message != "" {
		t.Errorf("Compare on lane 0 alone: %d pinned, %q", len(p.s.Pinned), p.s.Message)
	}
}

// A best-case start one lane solved goes, once, with the next best-case
// run to each other lane, which then solves none; the results are one
// worker's, and none keeps the start.
func TestPoolStartHandedOver(t *testing.T) {
	one := newPool(t, 1, 1)
	Reduce(one.s, SetFlip{0.2})
	one.send(Reduce(one.s, SweepRun{"eta"}))
	one.drain()
	p := newPool(t, 2, 1)
	Reduce(p.s, SetFlip{0.2})
	p.send(Reduce(p.s, SweepRun{"eta"}))
	// Lane 1 runs on while lane 0 stays on its first run (the chain's
	// cold η = 1) until lane 1 has run a best case.
	h := p.workers[1]
	for h.solved == 0 && len(h.queue) > 0 {
		for _, m := range h.run() {
			p.send(Reduce(p.s, Reply{m}))
		}
	}
	if h.solved != 1 || p.s.start.Empty() {
		t.Fatalf("lane 1 solved %d starts; the store keeps one: %v", h.solved, !p.s.start.Empty())
	}
	p.drain()
	if got := p.workers[0]; got.solved != 0 || got.given != 1 || h.given != 0 {
		t.Errorf("lane 0 solved %d starts and was given %d; lane 1 was given %d", got.solved, got.given, h.given)
	}
	if one.workers[0].solved != 1 {
		t.Errorf("one worker solved %d starts", one.workers[0].solved)
	}
	if got, want := p.outcome(), one.outcome(); got != want {
		t.Errorf("on 2 workers:\n got %s\nwant %s", got, want)
	}
	for _, r := range append([]*protocol.Result{p.s.Result}, one.s.Result) {
		if !r.Start.Empty() {
			t.Error("the result shown keeps the start")
		}
	}
}
