package store

import (
	"cmp"
	"slices"

	"github.com/rml-lab/rml/spec"
	"github.com/rml-lab/rml/wasm/protocol"
)

// Runs kept beside the current one, and the batches of runs that Compare,
// the sweeps and Step make.
//
// A batch runs on every lane there is: lane 0 is the worker that loads the
// data and runs plain Trains; lanes 1… are helper workers that the glue
// keeps holding the same data (Helpers lists those that do). Each idle
// lane takes the next job not yet started, in batch order, except that a
// warm job (which starts from the solution of the job before it) runs on
// the lane that ran that job, right after it, and the last job (with the
// warm ones after it) runs on lane 0, so that lane 0's worker ends a
// batch holding what a single worker would. The page shows the jobs in
// batch order, one at a time: the job at the cursor is the current run,
// its messages go to the views as they arrive; a job ahead of the cursor
// keeps its messages until the cursor reaches it, and then they are
// replayed. So the views, the columns, the sweep's points and the workers'
// warm states are those of one worker running the batch in order, only
// sooner.

// The baselines' settings in Compare and the sweeps, as rml table2 uses
// them: a certified relative gap of 1e-3 (RML, LMNN) and at most 500 LMNN
// iterations (its certified gap closes slowly on separable data).
const (
	CompareTol       = 1e-3
	CompareLMNNIters = spec.LMNNIters
	MaxPinned        = 10
	StepTol          = 1e-15
)

// CompareMethods are what Compare trains after the chosen RML method,
// in the columns' order: the losses on the same triplets first (the plain
// hinge loss, the robust problem at η = 1; the best case; the logistic
// and t-STE losses), then the classic learners and Euclid. With the
// chosen method they leave room among MaxPinned columns for two more.
var CompareMethods = []string{spec.Hinge, spec.BestCase, spec.Logistic, spec.TSTE, spec.LMNN, spec.Xing, spec.Euclid}

// EtaFree are the learners an η sweep runs once, at the current η: they
// trust every triplet, so η does not change them. The hinge loss is not
// among them: it is the chosen method's point at η = 1.
var EtaFree = []string{spec.LMNN, spec.Xing, spec.Logistic, spec.TSTE}

// NoiseMethods are the learners a noise sweep runs at each rate, before
// the chosen method.
var NoiseMethods = []string{spec.LMNN, spec.Xing, spec.Hinge, spec.Logistic, spec.TSTE, spec.BestCase}

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
	// ID tells the pinned runs apart (the same result may be pinned
	// twice), and Mark is a number no other pinned run has: the Compare
	// panel draws a run in its method's colour, and tells two runs of one
	// method apart by their marks. Both stay with the run when the
	// columns move, so that the panel redraws only what changed (a
	// Compare's last run sorts its columns).
	ID, Mark int
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

	id, lane int  // its request id and lane once started (id 0: not yet)
	chosen   bool // Compare's run of the chosen method
}

// Sweep is the sweep shown: test error against η or against the noise rate.
type Sweep struct {
	Axis   string       // "eta" or "flip"; "" before any
	Points []SweepPoint // in the order the runs ended; Ordered sorts them
	Total  int          // points the sweep will have
}

// Ordered returns the points along the axis's grid (SweepEtas or
// SweepFlips), in the order the runs ended where they share a value.
func (sw Sweep) Ordered() []SweepPoint {
	desc := sw.Axis != "flip" // η from 1 down, as SweepEtas
	pts := slices.Clone(sw.Points)
	slices.SortStableFunc(pts, func(a, b SweepPoint) int {
		if desc {
			return cmp.Compare(b.X, a.X)
		}
		return cmp.Compare(a.X, b.X)
	})
	return pts
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

// startCompare queues the best case, the other baselines and then the
// chosen method: a batch ends with its views on its last run, which runs
// on the first worker (pick), so Compare ends showing, and with the first
// worker holding, the chosen method's run at the current settings, as
// Train would leave them (before, the best case came last and the views
// ended on it). The best case first keeps it on the first worker, as
// before, whose code the page's own run has warmed: Compare on Wine's
// noise lesson from the click to its last column took 0.8 s with the old
// order, 1.2 s with LMNN first (both times), 0.9 and 1.0 s with this one
// (e2e TestFigures, here). The columns keep their order, the chosen
// method's first (jobDone).
func (s *State) startCompare() []protocol.Message {
	if !s.needData() {
		return nil
	}
	p := s.Params
	order := []string{spec.BestCase}
	for _, m := range CompareMethods {
		if m != spec.BestCase {
			order = append(order, m)
		}
	}
	var jobs []Job
	for _, m := range order {
		j := Job{Kind: "compare", Method: m, Eta: p.Eta, Flip: p.Flip, Tol: max(p.Tol, CompareTol)}
		if m == spec.LMNN {
			j.MaxIter = CompareLMNNIters
		}
		jobs = append(jobs, j)
	}
	jobs = append(jobs, Job{Kind: "compare", Method: p.Method, Eta: p.Eta, Flip: p.Flip, Tol: p.Tol, chosen: true})
	return s.startBatch(jobs)
}

// startSweep queues a sweep over η (the chosen method and the best case at
// each η, EtaFree's learners once: they do not depend on η) or over the
// noise rate (NoiseMethods and the chosen method at each rate). The axis's grid takes the current
// value too, if it is not on it.
//
// Every run starts from scratch, as Train does, and the last is the chosen
// method at the current settings, on the first worker (pick): so the
// sweep's point at the current settings is Train's result there, to the
// bit, the views end on it as Train would leave them, and Step goes on
// from it. (A chain warm-started from η = 1 down was quicker, but its runs
// stopped elsewhere within the tolerance than Train's, and their test
// errors could differ from Train's by a row.) The best case runs to the
// chosen method's tolerance, so that at η = 1, where it trusts every
// triplet and is the hinge problem (core), it is the chosen method's
// answer there. The runs between the first and the last are ordered by
// longestFirst.
func (s *State) startSweep(axis string) []protocol.Message {
	if !s.needData() {
		return nil
	}
	p := s.Params
	var jobs []Job
	add := func(m string, eta, flip float64) {
		j := Job{Kind: "sweep", Method: m, Eta: eta, Flip: flip, Tol: max(p.Tol, CompareTol)}
		if m == p.Method || m == spec.BestCase {
			j.Tol = p.Tol
		}
		if m == spec.LMNN {
			j.MaxIter = CompareLMNNIters
		}
		jobs = append(jobs, j)
	}
	switch axis {
	case "eta":
		grid := gridWith(SweepEtas, p.Eta)
		for _, e := range grid {
			if e != p.Eta {
				add(p.Method, e, p.Flip)
			}
		}
		for _, e := range grid {
			add(spec.BestCase, e, p.Flip)
		}
		for _, m := range EtaFree {
			add(m, p.Eta, p.Flip)
		}
		add(p.Method, p.Eta, p.Flip)
	default:
		axis = "flip"
		for _, f := range gridWith(SweepFlips, p.Flip) {
			for _, m := range append(slices.Clone(NoiseMethods), p.Method) {
				if m != p.Method || f != p.Flip {
					add(m, p.Eta, f)
				}
			}
		}
		add(p.Method, p.Eta, p.Flip)
	}
	longestFirst(jobs, func(j Job) (float64, bool) { t, ok := s.took[s.keyOf(j)]; return t, ok })
	s.Sweep = Sweep{Axis: axis, Total: len(jobs)}
	return s.startBatch(jobs)
}

// gridWith is grid with v among its values, in order (descending for η,
// ascending for the noise: grid's own order).
func gridWith(grid []float64, v float64) []float64 {
	if slices.Contains(grid, v) {
		return grid
	}
	out := append(slices.Clone(grid), v)
	if grid[0] > grid[len(grid)-1] {
		slices.SortFunc(out, func(a, b float64) int { return cmp.Compare(b, a) })
	} else {
		slices.Sort(out)
	}
	return out
}

// jobKey names a sweep's run across sweeps of the same dataset.
type jobKey struct {
	dataset, method string
	eta, flip       float64
}

func (s *State) keyOf(j Job) jobKey {
	return jobKey{dataset: s.Params.Dataset, method: j.Method, eta: j.Eta, flip: j.Flip}
}

// needData says whether a queue of runs can start, and if not, says why.
func (s *State) needData() bool {
	if !s.CanTrain() {
		s.Message, s.Notice = "Load a dataset first.", false
	}
	return s.CanTrain()
}

// startBatch ends any batch or run going and starts jobs.
func (s *State) startBatch(jobs []Job) []protocol.Message {
	out := s.abandonBatch()
	s.lanes.jobs, s.lanes.cur = jobs, -1
	if s.lanes.inflight == nil {
		s.lanes.inflight, s.held = map[int]int{}, map[int][]protocol.Message{}
	}
	return append(out, s.advance()...)
}

// advance moves the cursor to the next job of the batch: it becomes the
// current run, and the messages it sent while ahead of the cursor are
// replayed.
func (s *State) advance() []protocol.Message {
	s.lanes.cur++
	if s.lanes.cur >= len(s.lanes.jobs) {
		s.lanes.jobs, s.Queue, s.Job = nil, nil, nil
		return nil
	}
	j := &s.lanes.jobs[s.lanes.cur]
	s.Job, s.Queue = j, s.lanes.jobs[s.lanes.cur+1:]
	s.show(j.id, j.Warm)
	out := s.dispatch()
	held := s.held[j.id]
	delete(s.held, j.id)
	for _, m := range held {
		if s.Job != j {
			break // its result was replayed and the cursor moved on
		}
		out = append(out, s.reply(m)...)
	}
	return out
}

// dispatch starts a job on every idle lane that has one to take.
func (s *State) dispatch() []protocol.Message {
	var out []protocol.Message
	for _, lane := range append([]int{0}, s.Helpers...) {
		if s.lanes.jobs == nil {
			break
		}
		if s.lanes.busy(lane) {
			continue
		}
		i := s.lanes.pick(lane)
		if i < 0 {
			continue
		}
		s.lanes.begin(i, s.id(), lane)
		j := &s.lanes.jobs[i]
		if lane != 0 {
			s.HelperRuns++
		}
		if i == s.lanes.cur {
			s.RunID = j.id
		}
		m := s.request(j.id, j.Warm, j)
		if j.Method == spec.BestCase && !s.start.Empty() && !s.startLanes[lane] &&
			j.Flip == s.startFlip && j.Tol == s.start.Tol && s.Params.Lambda == s.start.Lambda {
			// The best case's start, which another lane solved on the same
			// triplets (the worker checks their fingerprint too): this lane
			// takes it instead of solving it again.
			m.Train.Start = s.start
			s.startLanes[lane] = true
		}
		out = append(out, m)
	}
	return out
}

// endBatch forgets the batch and stops every run of it still going (the
// current one included); their last messages free their lanes.
func (s *State) endBatch() []protocol.Message {
	var out []protocol.Message
	for id := range s.lanes.inflight {
		out = append(out, protocol.Message{ID: id, Kind: protocol.KindStop})
	}
	slices.SortFunc(out, func(a, b protocol.Message) int { return a.ID - b.ID })
	s.lanes.jobs, s.lanes.cur, s.Queue, s.Job = nil, 0, nil, nil
	clear(s.held)
	return out
}

// LaneOf says which worker a request goes to: a batch run's lane, or 0.
// The glue sends Load and Triplets to lane 0 and copies them to the
// helpers itself, once lane 0 has read them.
func (s *State) LaneOf(m protocol.Message) int {
	return s.lanes.inflight[m.ID]
}

// side keeps a message of a batch run ahead of the cursor (ahead: the
// views must not see it yet), and starts more jobs when m ends a run.
func (s *State) side(m protocol.Message) (ahead bool, out []protocol.Message) {
	if m.ID != s.RunID && s.lanes.ahead(m.ID) {
		ahead = true
		s.held[m.ID] = append(s.held[m.ID], m)
	}
	if m.Kind != protocol.KindResult && m.Kind != protocol.KindError {
		return ahead, nil
	}
	if lane, ok := s.lanes.end(m.ID); ok {
		if r := m.Result; r != nil && !r.Start.Empty() {
			// The run solved the best case's start: kept for the other
			// lanes' best cases (dispatch), not with the result.
			s.start, s.startLanes = r.Start, map[int]bool{lane: true}
			r.Start = protocol.Start{}
			for _, j := range s.lanes.jobs {
				if j.id == m.ID {
					s.startFlip = j.Flip // its noise rate: a flip sweep's runs differ in triplets
				}
			}
		}
		out = s.dispatch()
	}
	return ahead, out
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
		if j.chosen {
			// The last run: this Compare's columns, one a run (an error
			// ends the batch) and all of them among the last MaxPinned,
			// in their order: the chosen method's first (it is none of
			// CompareMethods), then CompareMethods'.
			cols := s.Pinned[max(0, len(s.Pinned)-len(s.lanes.jobs)):]
			rank := func(r Run) int { return slices.Index(CompareMethods, r.Params.Method) }
			slices.SortStableFunc(cols, func(a, b Run) int { return rank(a) - rank(b) })
		}
	case "sweep":
		x := j.Flip
		if s.Sweep.Axis == "eta" {
			x = j.Eta
		}
		s.Sweep.Points = append(s.Sweep.Points, SweepPoint{X: x,
			Method: j.Method, Err: r.ErrLearn, ErrEuclid: r.ErrEuclid, Active: r.BudgetActive, Collapsed: r.Collapsed})
		if s.took == nil || len(s.took) > 200 {
			s.took = map[jobKey]float64{} // a few datasets' sweeps at most
		}
		s.took[s.keyOf(*j)] = r.Seconds
	}
	return s.advance()
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
	if len(s.Pinned) >= MaxPinned {
		s.Pinned = s.Pinned[len(s.Pinned)-MaxPinned+1:]
	}
	s.pins++
	s.Pinned = append(s.Pinned, Run{Params: p, Result: r, Trace: s.Trace, ID: s.pins, Mark: freeMark(s.Pinned)})
}

// freeMark is the lowest mark that none of runs has: runs holds fewer
// than MaxPinned, so it is below MaxPinned (ui/store TestCompareQueue
// checks they differ).
func freeMark(runs []Run) int {
	for c := 0; ; c++ {
		if !slices.ContainsFunc(runs, func(r Run) bool { return r.Mark == c }) {
			return c
		}
	}
}
