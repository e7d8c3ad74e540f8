//go:build js && wasm

package ui

import (
	"syscall/js"

	"github.com/rml-lab/rml/spec"
	"github.com/rml-lab/rml/ui/store"
	"github.com/rml-lab/rml/wasm/protocol"
)

// warm runs the code that a first result, Compare and the sweeps draw with
// once on a made-up result, while the worker starts and reads the first
// dataset, and drops what it built. V8 compiles a wasm function on the
// main thread at its first call: the first result on Iris compiled 73 of
// them in 75 ms over its tasks, and 29 in 23 ms after this (Chromium
// traces' wasm.CompileLazy on the main thread; the rest is what only a
// real render or reply runs). Nothing here reaches the page or the store:
// the builders return trees that are never rendered, on instances of their
// own, and the heat map's painting, which draws on the page's canvas, is
// left out. Each piece runs in a task of its own; one that panics costs
// nothing but its warming, and says so in the console.
func (g *glue) warm() {
	r, ds := sampleRun()
	noop := func(store.Action) {}
	run := store.Run{Params: store.DefaultParams, Result: r, Trace: store.Trace{Iters: []float64{1, 2, 3}, Gaps: []float64{1, 0.1, 0.01}}}
	steps := []func(){
		func() {
			if h, a, err := protocol.Encode(protocol.Message{ID: 1, Kind: protocol.KindResult, Result: r}); err == nil {
				_, _ = protocol.Decode(h, a)
			}
		},
		func() { resultPanel(ResultProps{Result: r, Data: ds}, noop, &Heatmap{}, &Memo[ResultProps]{}) },
		func() { suspects(r, ds, store.Edits{}, noop) },
		func() {
			h := &Heatmap{Result: r, Features: ds.Features, open: true}
			h.table()
		},
		func() {
			p := &Projections{Result: r, Data: ds, Dispatch: noop}
			p.Render()
			for _, v := range p.views {
				if v != nil {
					v.Render()
				}
			}
		},
		func() {
			(&Chart{Props: ChartProps{Trace: run.Trace, Last: r.Progress, Tol: spec.Tol, Done: true}}).Render()
		},
		func() {
			comparePanel(ComparePanelProps{Pinned: []store.Run{run, run}, Classes: ds.Classes}, noop, &Memo[OverlayProps]{})
			overlayChart(OverlayProps{Pinned: []store.Run{run, run}})
			miniProjection(miniProps{Result: r, Classes: len(ds.Classes)}, r.Method)
		},
		func() {
			sw := store.Sweep{Axis: "eta", Total: 2, Points: []store.SweepPoint{{X: 1, Method: spec.Fast, Err: 0.1}, {X: 0.9, Method: spec.Fast, Err: 0.2}}}
			sweepPanel(SweepProps{Sweep: sw, Method: spec.Fast}, noop)
		},
	}
	var step func(int)
	step = func(i int) {
		if i == len(steps) {
			return
		}
		func() {
			// A step that panics is a bug in a panel's code that the real
			// render would meet too: it costs only its warming here, and is
			// said in the console, where the e2e tests fail on it.
			defer func() {
				if e := recover(); e != nil {
					js.Global().Get("console").Call("error", "rml: warming step "+itoa(i)+" panicked: "+panicText(e))
				}
			}()
			steps[i]()
		}()
		later(func() { step(i + 1) })
	}
	step(0)
}

// panicText says what a recovered panic was.
func panicText(e any) string {
	switch v := e.(type) {
	case error:
		return v.Error()
	case string:
		return v
	}
	return "a value that is neither an error nor a string"
}

// sampleRun is a made-up result on a made-up dataset: six rows, two
// features, two classes, one row held out.
func sampleRun() (*protocol.Result, *protocol.Dataset) {
	ds := &protocol.Dataset{Name: "warm", Rows: 6, Features: []string{"a", "b"}, Columns: []string{"a", "b", "class"},
		LabelName: "class", Classes: []string{"x", "y"}, ClassCounts: []int{3, 3}, Train: 5, Test: 1}
	r := &protocol.Result{
		Progress: protocol.Progress{Status: spec.Converged, Iter: 3, Gap: 1e-7, RelGap: 1e-7, Dual: -1, Primal: 1, SumQ: 2, Budget: 4},
		Method:   spec.Fast, Triplets: 5, Swapped: 1, D: 2, N: 6, Test: []int{5}, ErrEuclid: 0.5, ErrLearn: 0, K: 3,
		SuspectRows: []int{0, 1, 3}, SuspectSwapped: []int{1}, SuspectIndex: []int{2}, SuspectPrecision: 1,
		QHist: []int{3, 0, 0, 0, 0, 0, 0, 0, 0, 0, 2}, MarginHist: []int{1, 0, 1, 2, 1},
		A: []float64{1, 0.2, 0.2, 0.5}, Eigen: []float64{1.1, 0.4},
		Euclid:  []float64{0, 0, 1, 0, 0, 1, 3, 3, 4, 3, 3, 4},
		Learned: []float64{0, 0, 1, 0, 0, 1, 5, 5, 6, 5, 5, 6},
		Labels:  []float64{0, 0, 0, 1, 1, 1},
	}
	return r, ds
}
