package store

import (
	"slices"

	"github.com/rml-lab/rml/spec"
	"github.com/rml-lab/rml/wasm/protocol"
)

// Runs kept beside the current one, and the queues of runs that Compare,
// the sweeps and Step make: each is a plain Train request to the one
// worker, started when the last one's result arrives, so that progress,
// Stop and the watchdog work as for a single run.

// The baselines' settings in Compare and the sweeps, as rml table2 uses
// them: a certified relative gap of 1e-3 (RML, LMNN) and at most 500 LMNN
// iterations (its certified gap closes slowly on separable data).
const (
	CompareTol       = 1e-3
	CompareLMNNIters = 500
	MaxPinned        = 6
	StepTol          = 1e-15
)

// CompareMethods are what Compare trains after the chosen RML method.
var CompareMethods = []string{spec.LMNN, spec.Xing, spec.Euclid, spec.BestCase}

// SweepEtas and SweepFlips are the sweeps' points.
var (
	SweepEtas  = []float64{1, 0.9, 0.8, 0.7, 0.6, 0.5}
	SweepFlips = []float64{0, 0.1, 0.2, 0.3, 0.4}
)

// Run is a finished run kept for comparison.
type Run struct {
	Params Params // its settings, Method the method that ran
	Result *protocol.Result
	Trace  Trace
}

// Job is one queued run: the current settings with these changed.
type Job struct {
	Kind    string // "compare", "sweep" or "step"
	Method  string
	Eta     float64
	Flip    float64
	Tol     float64
	MaxIter int
	Warm    bool
}

// Sweep is the sweep shown: test error against η or against the noise rate.
type Sweep struct {
	Axis   string // "eta" or "flip"; "" before any
	Points []SweepPoint
	Total  int // points the sweep will have
}

// SweepPoint is one run of a sweep.
type SweepPoint struct {
	X                 float64 // η or the noise rate
	Method            string
	Err, ErrEuclid    float64
	Active, Collapsed bool
}

// Edits are the triplets the user dropped or reversed, by index among the
// triplets drawn (protocol.Train's Drop and Reverse).
type Edits struct {
	Drop    []int
	Reverse []int
}

func (e Edits) empty() bool { return len(e.Drop) == 0 && len(e.Reverse) == 0 }

// toggle adds i to set, or removes it if there.
func toggle(set []int, i int) []int {
	if k := slices.Index(set, i); k >= 0 {
		return slices.Delete(slices.Clone(set), k, k+1)
	}
	out := append(slices.Clone(set), i)
	slices.Sort(out)
	return out
}

// startCompare queues the chosen method and the baselines.
func (s *State) startCompare() []protocol.Message {
	if !s.needData() {
		return nil
	}
	p := s.Params
	s.Queue = []Job{{Kind: "compare", Method: p.Method, Eta: p.Eta, Flip: p.Flip, Tol: p.Tol}}
	for _, m := range CompareMethods {
		j := Job{Kind: "compare", Method: m, Eta: p.Eta, Flip: p.Flip, Tol: max(p.Tol, CompareTol)}
		if m == spec.LMNN {
			j.MaxIter = CompareLMNNIters
		}
		s.Queue = append(s.Queue, j)
	}
	return s.next()
}

// startSweep queues a sweep over η (the chosen method and the best case at
// each η, LMNN and Xing once: they do not depend on η) or over the noise
// rate (every method at each rate).
func (s *State) startSweep(axis string) []protocol.Message {
	if !s.needData() {
		return nil
	}
	p := s.Params
	s.Queue = nil
	add := func(m string, eta, flip float64, warm bool) {
		j := Job{Kind: "sweep", Method: m, Eta: eta, Flip: flip, Tol: max(p.Tol, CompareTol), Warm: warm}
		if m == p.Method {
			j.Tol = p.Tol
		}
		if m == spec.LMNN {
			j.MaxIter = CompareLMNNIters
		}
		s.Queue = append(s.Queue, j)
	}
	switch axis {
	case "eta":
		add(spec.LMNN, p.Eta, p.Flip, false)
		add(spec.Xing, p.Eta, p.Flip, false)
		for i, e := range SweepEtas {
			add(p.Method, e, p.Flip, i > 0) // warm from the last η's solution
		}
		for _, e := range SweepEtas {
			add(spec.BestCase, e, p.Flip, false)
		}
	default:
		axis = "flip"
		for _, f := range SweepFlips {
			for _, m := range append([]string{p.Method}, spec.LMNN, spec.Xing, spec.BestCase) {
				add(m, p.Eta, f, false)
			}
		}
	}
	s.Sweep = Sweep{Axis: axis, Total: len(s.Queue)}
	return s.next()
}

// needData says whether a queue of runs can start, and if not, says why.
func (s *State) needData() bool {
	if !s.CanTrain() {
		s.Message, s.Notice = "Load a dataset first.", false
	}
	return s.CanTrain()
}

// next starts the first queued job, if any.
func (s *State) next() []protocol.Message {
	if len(s.Queue) == 0 {
		s.Job = nil
		return nil
	}
	j := s.Queue[0]
	s.Queue = s.Queue[1:]
	s.Job = &j
	out := s.train(j.Warm)
	if len(out) == 0 {
		s.Queue, s.Job = nil, nil
		return nil
	}
	t := out[0].Train
	t.Method, t.Eta, t.Flip, t.Tol, t.MaxIter = j.Method, j.Eta, j.Flip, j.Tol, j.MaxIter
	if j.Flip != s.Params.Flip {
		t.Drop, t.Reverse = nil, nil // the edits are of the current triplets
	}
	return out
}

// jobDone records the finished job's result and starts the next.
func (s *State) jobDone(r *protocol.Result) []protocol.Message {
	j := s.Job
	if j == nil {
		return nil
	}
	switch j.Kind {
	case "compare":
		s.pin(r, j)
	case "sweep":
		x := j.Flip
		if s.Sweep.Axis == "eta" {
			x = j.Eta
		}
		s.Sweep.Points = append(s.Sweep.Points, SweepPoint{X: x,
			Method: j.Method, Err: r.ErrLearn, ErrEuclid: r.ErrEuclid, Active: r.BudgetActive, Collapsed: r.Collapsed})
	}
	return s.next()
}

// pin keeps r (run as j says, or with the current settings) as a column.
func (s *State) pin(r *protocol.Result, j *Job) {
	if r == nil {
		return
	}
	p := s.Params
	p.Method = r.Method
	if j != nil {
		p.Eta, p.Flip, p.Tol = j.Eta, j.Flip, j.Tol
	}
	s.Pinned = append(s.Pinned, Run{Params: p, Result: r, Trace: s.Trace})
	if len(s.Pinned) > MaxPinned {
		s.Pinned = s.Pinned[len(s.Pinned)-MaxPinned:]
	}
}
