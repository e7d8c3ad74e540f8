package store

import (
	"fmt"
	"reflect"
	"slices"
	"strings"
	"testing"

	"github.com/rml-lab/rml/spec"
	"github.com/rml-lab/rml/wasm/protocol"
)

// ready returns a state whose worker is up and whose Iris load was answered.
func ready(t testing.TB) *State {
	t.Helper()
	s := New(DefaultParams)
	out := Reduce(s, WorkerReady{Builtins: []string{"Iris", "Wine"}})
	if len(out) != 1 || out[0].Kind != protocol.KindLoad || out[0].Load.Builtin != "Iris" || out[0].Load.Seed != 1 {
		t.Fatalf("ready: %+v", out)
	}
	if s.CanTrain() {
		t.Fatal("Train enabled before the dataset is loaded")
	}
	Reduce(s, Reply{protocol.Message{ID: out[0].ID, Kind: protocol.KindDataset, Dataset: &protocol.Dataset{Name: "Iris", Rows: 150}}})
	if !s.CanTrain() {
		t.Fatal("Train disabled after the load")
	}
	return s
}

func one(t testing.TB, out []protocol.Message, kind protocol.Kind) protocol.Message {
	t.Helper()
	if len(out) != 1 || out[0].Kind != kind {
		t.Fatalf("want one %s request, got %+v", kind, out)
	}
	return out[0]
}

func TestTrainRun(t *testing.T) {
	s := ready(t)
	m := one(t, Reduce(s, Train{}), protocol.KindTrain)
	if s.Status != Running || m.Train.Warm || m.Train.Batch || m.Train.Eta != 0.8 || m.Train.Tol != 1e-6 {
		t.Fatalf("train: %v %+v", s.Status, m.Train)
	}
	Reduce(s, Reply{protocol.Message{ID: m.ID, Kind: protocol.KindProgress, Progress: &protocol.Progress{Iter: 2, Gap: 1, Seconds: 0.5, Iters: []float64{1, 2}, Gaps: []float64{3, 1}}}})
	// A reply of another run is ignored.
	Reduce(s, Reply{protocol.Message{ID: m.ID + 100, Kind: protocol.KindProgress, Progress: &protocol.Progress{Iter: 9, Iters: []float64{9}, Gaps: []float64{9}}}})
	if s.Last.Iter != 2 || len(s.Trace.Iters) != 2 || s.Rate() != 4 {
		t.Fatalf("progress: %+v %+v rate %v", s.Last, s.Trace, s.Rate())
	}
	// The final progress brings the rest of the curve; a converged run
	// says so with its result, which may say it collapsed to A = 0.
	Reduce(s, Reply{protocol.Message{ID: m.ID, Kind: protocol.KindProgress, Progress: &protocol.Progress{Status: "converged", Iter: 3, Gap: 1e-7, Iters: []float64{3}, Gaps: []float64{1e-7}}}})
	if s.Status != Running || s.Result != nil || !reflect.DeepEqual(s.Trace.Iters, []float64{1, 2, 3}) {
		t.Fatalf("final progress: %v %+v", s.Status, s.Trace)
	}
	r := &protocol.Result{Progress: protocol.Progress{Status: "converged", Iter: 3, Gap: 1e-7}}
	Reduce(s, Reply{protocol.Message{ID: m.ID, Kind: protocol.KindResult, Result: r}})
	if s.Status != Converged || s.Result != r || s.ResultOf != m.ID || len(s.Trace.Iters) != 3 {
		t.Fatalf("result: %v %+v", s.Status, s.Trace)
	}
	// Changing η or λ after a run restarts from its solution.
	w := one(t, Reduce(s, SetLambda{2}), protocol.KindTrain)
	if !w.Train.Warm || w.Train.Lambda != 2 || s.Status != Running || len(s.Trace.Iters) != 0 {
		t.Fatalf("warm rerun: %+v", w.Train)
	}
	// Stop asks the worker; the status changes when the result says so.
	st := one(t, Reduce(s, Stop{}), protocol.KindStop)
	if st.ID != w.ID || s.Status != Running {
		t.Fatalf("stop: %+v %v", st, s.Status)
	}
	Reduce(s, Reply{protocol.Message{ID: w.ID, Kind: protocol.KindResult, Result: &protocol.Result{Progress: protocol.Progress{Status: "stopped"}}}})
	if s.Status != Stopped {
		t.Fatalf("after stop: %v", s.Status)
	}
	if out := Reduce(s, Reset{}); len(out) != 0 || s.Status != Idle || s.Result != nil {
		t.Fatalf("reset: %+v %v", out, s.Status)
	}
	// After Reset, η changes do not start a run.
	if out := Reduce(s, SetEta{0.9}); len(out) != 0 {
		t.Fatalf("η change after reset: %+v", out)
	}
}

func TestStatusesFromResult(t *testing.T) {
	for _, c := range []struct {
		status string
		want   Status
		msg    string
	}{
		{"converged", Converged, ""},
		{"stopped", Stopped, ""},
		{"iteration limit", Stopped, "iteration limit"},
		{"time limit", Stopped, "time limit"},
		{"failed", Error, "solver failed"},
	} {
		s := ready(t)
		m := one(t, Reduce(s, Train{}), protocol.KindTrain)
		Reduce(s, Reply{protocol.Message{ID: m.ID, Kind: protocol.KindResult, Result: &protocol.Result{Progress: protocol.Progress{Status: c.status}}}})
		if s.Status != c.want || !strings.Contains(s.Message, c.msg) {
			t.Errorf("%s: status %v, message %q", c.status, s.Status, s.Message)
		}
	}
}

// A file that cannot be read loses no work: the dataset before it stays
// loaded (with its result), and the file is kept aside for a label choice.
func TestUploadAndLabel(t *testing.T) {
	s := ready(t)
	tr := one(t, Reduce(s, Train{}), protocol.KindTrain)
	r := &protocol.Result{Progress: protocol.Progress{Status: "converged"}}
	Reduce(s, Reply{protocol.Message{ID: tr.ID, Kind: protocol.KindResult, Result: r}})
	iris := s.Data

	m := one(t, Reduce(s, Upload{Name: "<x>.csv", Text: "a,b\n1,2\n"}), protocol.KindLoad)
	if m.Load.Builtin != "" || m.Load.CSV != "a,b\n1,2\n" || m.Load.FileName != "<x>.csv" || s.CanTrain() || s.Data != iris {
		t.Fatalf("upload: %+v", m.Load)
	}
	Reduce(s, Reply{protocol.Message{ID: m.ID, Kind: protocol.KindError, Error: &protocol.Error{Message: "line 2, column 2: bad", Columns: []string{"a", "b"}}}})
	if s.Status != Error || s.Message != "line 2, column 2: bad" || len(s.Columns) != 2 {
		t.Fatalf("load error: %v %q %v", s.Status, s.Message, s.Columns)
	}
	if s.Data != iris || s.Result != r || s.Params.Dataset != "Iris" || !s.CanTrain() || s.Failed == nil || s.Failed.FileName != "<x>.csv" {
		t.Fatalf("after the failed file: data %v result %v dataset %q failed %+v", s.Data, s.Result, s.Params.Dataset, s.Failed)
	}
	l := one(t, Reduce(s, ChooseLabel{"a"}), protocol.KindLoad)
	if l.Load.Label != "a" || l.Load.CSV != "a,b\n1,2\n" || l.Load.Builtin != "" {
		t.Fatalf("label for the failed file: %+v", l.Load)
	}
	// A stale reply (the first load's) is ignored.
	Reduce(s, Reply{protocol.Message{ID: m.ID, Kind: protocol.KindDataset, Dataset: &protocol.Dataset{Name: "old"}}})
	if s.Data != iris {
		t.Fatal("stale load reply taken")
	}
	file := &protocol.Dataset{Name: "<x>.csv", Notice: "2 rows with missing values were dropped"}
	Reduce(s, Reply{protocol.Message{ID: l.ID, Kind: protocol.KindDataset, Dataset: file}})
	if s.Status != Idle || !s.Notice || !s.CanTrain() || s.Data != file || s.Result != nil || s.Failed != nil ||
		s.Params.Dataset != "" || s.Params.Label != "a" || s.FileName != "<x>.csv" {
		t.Fatalf("after the label: %v %q %+v", s.Status, s.Message, s.Params)
	}
	// The label can be changed again for the loaded file.
	again := one(t, Reduce(s, ChooseLabel{"b"}), protocol.KindLoad)
	if again.Load.Label != "b" || again.Load.CSV == "" {
		t.Fatalf("second label: %+v", again.Load)
	}
	Reduce(s, Reply{protocol.Message{ID: again.ID, Kind: protocol.KindDataset, Dataset: &protocol.Dataset{Name: "<x>.csv"}}})
	// Choosing a built-in forgets the file once it is loaded.
	b := one(t, Reduce(s, SelectBuiltin{"Wine"}), protocol.KindLoad)
	if b.Load.Builtin != "Wine" || b.Load.CSV != "" || s.FileName != "<x>.csv" {
		t.Fatalf("builtin: %+v", b.Load)
	}
	Reduce(s, Reply{protocol.Message{ID: b.ID, Kind: protocol.KindDataset, Dataset: &protocol.Dataset{Name: "Wine"}}})
	if s.Params.Dataset != "Wine" || s.CSV != "" || s.FileName != "" || s.Params.Label != "" {
		t.Fatalf("after Wine: %+v %q", s.Params, s.FileName)
	}
}

func TestTrainWaitsForLoad(t *testing.T) {
	s := New(DefaultParams)
	if out := Reduce(s, Train{}); len(out) != 0 || !s.Pending {
		t.Fatalf("train before ready: %+v", out)
	}
	l := one(t, Reduce(s, WorkerReady{Builtins: []string{"Iris"}}), protocol.KindLoad)
	one(t, Reduce(s, Reply{protocol.Message{ID: l.ID, Kind: protocol.KindDataset, Dataset: &protocol.Dataset{}}}), protocol.KindTrain)
	if s.Status != Running {
		t.Fatal(s.Status)
	}
}

func TestWorkerDied(t *testing.T) {
	s := ready(t)
	one(t, Reduce(s, Train{}), protocol.KindTrain)
	Reduce(s, WorkerDied{Reason: "out of memory"})
	if s.Status != Error || s.Restarts != 1 || !strings.Contains(s.Message, "restarted") || s.CanTrain() {
		t.Fatalf("died: %v %q", s.Status, s.Message)
	}
	// The new worker gets the dataset again, and the page still says why.
	l := one(t, Reduce(s, WorkerReady{Builtins: []string{"Iris"}}), protocol.KindLoad)
	if l.Load.Builtin != "Iris" {
		t.Fatalf("reload: %+v", l.Load)
	}
	Reduce(s, Reply{protocol.Message{ID: l.ID, Kind: protocol.KindDataset, Dataset: &protocol.Dataset{Name: "Iris"}}})
	if !s.CanTrain() || !strings.Contains(s.Message, "restarted") || !s.Notice || s.Status != Idle {
		t.Fatalf("after the reload: %v %q notice=%v", s.Status, s.Message, s.Notice)
	}
}

func TestSeedReloads(t *testing.T) {
	s := ready(t)
	l := one(t, Reduce(s, SetSeed{7}), protocol.KindLoad)
	if l.Load.Seed != 7 {
		t.Fatal(l.Load)
	}
	if out := Reduce(s, SetSeed{7}); len(out) != 0 {
		t.Fatal("same seed reloads")
	}
}

func TestURLRoundTrip(t *testing.T) {
	p := Params{Dataset: "Synthetic: 2 signal + 18 noise", Label: "a&b=c", KSame: 4, KDiff: 2, Flip: 0.15, Eta: 0.85, Lambda: 0.125, Method: "nesterov", Tol: 1e-9, Seed: 18446744073709551615,
		View: View{Embed: true, Hide: "lesson,params,eta", Idle: true}}
	got, problems := DecodeURL("#"+EncodeURL(p), DefaultParams)
	if len(problems) != 0 || got != p {
		t.Fatalf("round trip: %+v %v", got, problems)
	}
	if got, _ := DecodeURL("", DefaultParams); got != DefaultParams {
		t.Fatal("empty fragment changes the defaults")
	}
}

func TestURLBadValues(t *testing.T) {
	got, problems := DecodeURL("eta=2&lambda=abc&ksame=0&method=newton&zz=1&seed=-1&tol=NaN&flip=0.5", DefaultParams)
	want := []string{`ksame="0"`, `eta="2"`, `lambda="abc"`, `method="newton"`, `tol="NaN"`, `seed="-1"`, `"zz" is not a setting`} // in the table's order
	if len(problems) != len(want) {
		t.Fatalf("problems %q", problems)
	}
	for i, w := range want {
		if !strings.Contains(problems[i], w) {
			t.Errorf("problem %d: %q lacks %q", i, problems[i], w)
		}
	}
	// What was good still applies; the rest keeps its default.
	if got.Flip != 0.5 || got.Eta != DefaultParams.Eta || got.Lambda != DefaultParams.Lambda {
		t.Errorf("params %+v", got)
	}
}

// The view's keys: written only when not the default; hide= keeps the
// names it knows, in Hideable's order, once each, and names the others; a
// lesson keeps the view.
func TestURLView(t *testing.T) {
	if s := EncodeURL(DefaultParams); strings.Contains(s, "embed") || strings.Contains(s, "hide") || strings.Contains(s, "autorun") {
		t.Errorf("defaults write view keys: %s", s)
	}
	p, problems := DecodeURL("#embed=1&autorun=0&hide=eta,%20params,eta,bogus,,lesson&preset=eta", DefaultParams)
	want := Presets[2].Params
	want.Preset, want.View = "eta", View{Embed: true, Idle: true, Hide: "lesson,params,eta"}
	if p != want {
		t.Errorf("got %+v, want %+v", p, want)
	}
	if len(problems) != 1 || !strings.Contains(problems[0], `"bogus" cannot be hidden`) {
		t.Errorf("problems %q", problems)
	}
	if !p.View.Hides("params") || !p.View.Hides("eta") || p.View.Hides("lambda") || p.View.Hides("") {
		t.Errorf("Hides on %q", p.View.Hide)
	}
	if _, problems := DecodeURL("#embed=yes", DefaultParams); len(problems) != 1 || !strings.Contains(problems[0], `embed="yes": expected 1 or 0`) {
		t.Errorf("embed=yes: %q", problems)
	}
	s := ready(t)
	s.Params.View = View{Embed: true, Hide: "guide"}
	Reduce(s, ApplyPreset{"collapse"})
	if s.Params.View != (View{Embed: true, Hide: "guide"}) || s.Params.Preset != "collapse" {
		t.Errorf("a lesson changed the view: %+v", s.Params)
	}
}

func FuzzURL(f *testing.F) {
	f.Add(EncodeURL(DefaultParams))
	f.Add("eta=0.9&lambda=1e300&seed=3")
	f.Add("%zz")
	f.Add("embed=1&hide=eta,params,x&autorun=0")
	f.Fuzz(func(t *testing.T, frag string) {
		p, _ := DecodeURL(frag, DefaultParams)
		// Whatever was accepted survives a round trip, if its link is one
		// the page reads (percent-encoding can triple a fragment's length).
		link := EncodeURL(p)
		if len(link) > MaxFragment {
			return
		}
		q, problems := DecodeURL(link, DefaultParams)
		if len(problems) != 0 || q != p {
			t.Fatalf("%q: %+v then %+v %v", frag, p, q, problems)
		}
	})
}

// finish answers run m with a result of method r.Method (its iterations n).
func finish(s *State, m protocol.Message, n int) []protocol.Message {
	r := &protocol.Result{Progress: protocol.Progress{Status: "converged", Iter: n}, Method: m.Train.Method}
	return Reduce(s, Reply{protocol.Message{ID: m.ID, Kind: protocol.KindResult, Result: r}})
}

// Compare trains the chosen method, then each baseline, one request at a
// time, and keeps each result as a column; Stop ends the queue.
func TestCompareQueue(t *testing.T) {
	s := ready(t)
	m := one(t, Reduce(s, Compare{}), protocol.KindTrain)
	var methods []string
	for i := 0; ; i++ {
		methods = append(methods, m.Train.Method)
		if m.Train.Method == "lmnn" && (m.Train.MaxIter != CompareLMNNIters || m.Train.Tol != CompareTol) {
			t.Errorf("LMNN in Compare: %+v", m.Train)
		}
		if !m.Train.Batch {
			t.Errorf("Compare's run of %s not marked Batch", m.Train.Method)
		}
		out := finish(s, m, 10+i)
		if len(out) == 0 {
			break
		}
		m = one(t, out, protocol.KindTrain)
	}
	// The best case, the other baselines and the chosen method last, so
	// that the views end on it; the columns the chosen method's first, then
	// CompareMethods'.
	want := []string{"bestcase", "hinge", "logistic", "tste", "lmnn", "xing", "euclid", "fast"}
	var cols []string
	for _, r := range s.Pinned {
		cols = append(cols, r.Params.Method)
	}
	if !reflect.DeepEqual(methods, want) || !reflect.DeepEqual(cols, append([]string{"fast"}, CompareMethods...)) || s.Job != nil {
		t.Fatalf("compare ran %v, pinned %v", methods, cols)
	}
	if s.Result == nil || s.Result.Method != "fast" || s.Result != s.Pinned[0].Result {
		t.Errorf("after Compare the views show %+v, not the chosen method's run", s.Result)
	}
	// Each column keeps the ID and mark it was pinned with when the last
	// run sorts them (the panel keys its cells by the ID and marks the
	// swatch and curve by the mark): pinned
	// in the order they ran, the chosen method's (last, first column) has
	// the eighth ID and mark, the others the first seven.
	var ids, marks []int
	for _, r := range s.Pinned {
		ids, marks = append(ids, r.ID), append(marks, r.Mark)
	}
	if !reflect.DeepEqual(ids, []int{8, 2, 1, 3, 4, 5, 6, 7}) || !reflect.DeepEqual(marks, []int{7, 1, 0, 2, 3, 4, 5, 6}) {
		t.Errorf("after Compare: IDs %v, marks %v", ids, marks)
	}
	// A second Compare: its own columns after the first's, the chosen
	// method's first among them, the oldest dropped beyond MaxPinned.
	first := slices.Clone(s.Pinned)
	m = one(t, Reduce(s, Compare{}), protocol.KindTrain)
	for i := 0; ; i++ {
		out := finish(s, m, 30+i)
		if len(out) == 0 {
			break
		}
		m = one(t, out, protocol.KindTrain)
	}
	cols = cols[:0]
	for _, r := range s.Pinned {
		cols = append(cols, r.Params.Method)
	}
	if !reflect.DeepEqual(cols, []string{"xing", "euclid", "fast", "hinge", "bestcase", "logistic", "tste", "lmnn", "xing", "euclid"}) || s.Pinned[0].Result != first[6].Result {
		t.Errorf("after a second Compare: %v", cols)
	}
	// The first Compare's last two columns stay, with their marks (5 and
	// 6); the new columns take the marks the dropped ones freed and the
	// two never used, no two alike.
	seen := map[int]bool{}
	for _, r := range s.Pinned {
		if seen[r.Mark] || r.Mark >= MaxPinned {
			t.Errorf("after a second Compare, mark %d twice or out of range: %+v", r.Mark, s.Pinned)
		}
		seen[r.Mark] = true
	}
	if s.Pinned[0].Mark != 5 || s.Pinned[0].ID != 6 {
		t.Errorf("the kept column lost its ID or mark: %d, %d", s.Pinned[0].ID, s.Pinned[0].Mark)
	}
	s.Pinned = first
	// Stop in the middle of a second Compare: nothing more is started.
	m = one(t, Reduce(s, Compare{}), protocol.KindTrain)
	one(t, Reduce(s, Stop{}), protocol.KindStop)
	if out := finish(s, m, 3); len(out) != 0 || len(s.Queue) != 0 {
		t.Fatalf("after Stop: %+v, queue %v", out, s.Queue)
	}
	if len(s.Pinned) != len(want) {
		t.Errorf("%d pinned; the stopped run is not kept", len(s.Pinned))
	}
	// Unpin the first column, then pin until one more than fits: the
	// oldest left (the first Compare's second column) is dropped.
	Reduce(s, Unpin{0})
	for range MaxPinned - len(first) + 2 {
		Reduce(s, Pin{})
	}
	if len(s.Pinned) != MaxPinned || s.Pinned[0].Params.Method != first[2].Params.Method {
		t.Errorf("unpin, pin past the limit: %d pinned from %s, want the last %d from %s", len(s.Pinned), s.Pinned[0].Params.Method, MaxPinned, first[2].Params.Method)
	}
}

// The η sweep runs the chosen method and the best case at each η,
// EtaFree's learners once, every run from scratch; each result is a point. Its last
// run is the chosen method at the current settings, asked for as Train
// asks (so its point is Train's result, and the views end on it), and the
// best case runs to the same tolerance (at η = 1 it is then the chosen
// method's answer: core's TestBestCaseEtaOne). A current η off the grid
// joins it.
func TestSweepQueue(t *testing.T) {
	s := ready(t)
	train := one(t, Reduce(ready(t), Train{}), protocol.KindTrain).Train
	m := one(t, Reduce(s, SweepRun{"eta"}), protocol.KindTrain)
	n := 0
	var last *protocol.Train
	for {
		n++
		if m.Train.Warm || !m.Train.Batch {
			t.Errorf("the sweep's run of %s at η = %v: warm %v, batch %v; want cold, batch", m.Train.Method, m.Train.Eta, m.Train.Warm, m.Train.Batch)
		}
		if m.Train.Method == spec.BestCase && m.Train.Tol != train.Tol {
			t.Errorf("the best case at η = %v runs to %g, the chosen method to %g", m.Train.Eta, m.Train.Tol, train.Tol)
		}
		last = m.Train
		out := finish(s, m, 5)
		if len(out) == 0 {
			break
		}
		m = one(t, out, protocol.KindTrain)
	}
	if want := len(EtaFree) + 2*len(SweepEtas); n != want || len(s.Sweep.Points) != want || s.Sweep.Total != want || s.Sweep.Axis != "eta" {
		t.Fatalf("%d runs, %d points; want %d", n, len(s.Sweep.Points), want)
	}
	asTrain := *last
	asTrain.Batch = false
	if !reflect.DeepEqual(&asTrain, train) {
		t.Errorf("the sweep's last run %+v; Train asks %+v", last, train)
	}
	if p := s.Sweep.Points[len(s.Sweep.Points)-1]; p.Method != "fast" || p.X != s.Params.Eta {
		t.Errorf("last point %+v", p)
	}
	var fast, best []float64
	for _, p := range s.Sweep.Ordered() {
		switch p.Method {
		case "fast":
			fast = append(fast, p.X)
		case spec.BestCase:
			best = append(best, p.X)
		}
	}
	if !slices.Equal(fast, SweepEtas) || !slices.Equal(best, SweepEtas) {
		t.Errorf("ordered: fast at %v, best case at %v; want both %v", fast, best, SweepEtas)
	}
	m = one(t, Reduce(s, SweepRun{"flip"}), protocol.KindTrain)
	if m.Train.Flip != SweepFlips[0] || s.Sweep.Total != len(SweepFlips)*(len(NoiseMethods)+1) || len(s.Sweep.Points) != 0 {
		t.Errorf("noise sweep: %+v, total %d", m.Train, s.Sweep.Total)
	}
	// η = 0.85, off the grid, joins it.
	s = ready(t)
	Reduce(s, SetEta{0.85})
	Reduce(s, SweepRun{"eta"})
	if want := len(EtaFree) + 2*(len(SweepEtas)+1); s.Sweep.Total != want {
		t.Errorf("η sweep at η = 0.85: %d runs, want %d", s.Sweep.Total, want)
	}
}

// Step runs N iterations from the last solution and continues the curve.
func TestStep(t *testing.T) {
	s := ready(t)
	m := one(t, Reduce(s, Step{1}), protocol.KindTrain)
	if m.Train.MaxIter != 1 || m.Train.Warm {
		t.Fatalf("first step: %+v", m.Train)
	}
	Reduce(s, Reply{protocol.Message{ID: m.ID, Kind: protocol.KindProgress, Progress: &protocol.Progress{Status: "iteration limit", Iter: 1, Iters: []float64{1}, Gaps: []float64{5}}}})
	Reduce(s, Reply{protocol.Message{ID: m.ID, Kind: protocol.KindResult, Result: &protocol.Result{Progress: protocol.Progress{Status: "iteration limit", Iter: 1}}}})
	if s.Message != "" || s.Status != Stopped {
		t.Errorf("after a step: %q, %v", s.Message, s.Status)
	}
	m = one(t, Reduce(s, Step{10}), protocol.KindTrain)
	if m.Train.MaxIter != 10 || !m.Train.Warm {
		t.Fatalf("second step: %+v", m.Train)
	}
	Reduce(s, Reply{protocol.Message{ID: m.ID, Kind: protocol.KindProgress, Progress: &protocol.Progress{Iter: 2, Iters: []float64{1, 2}, Gaps: []float64{4, 3}}}})
	if !reflect.DeepEqual(s.Trace.Iters, []float64{1, 2, 3}) || s.Last.Iter != 3 {
		t.Errorf("the curve goes on: %v, t = %d", s.Trace.Iters, s.Last.Iter)
	}
}

// Dropping or reversing a triplet toggles it and restarts warm with the
// edits; changing the triplets' settings forgets them.
func TestEditTriplets(t *testing.T) {
	s := ready(t)
	m := one(t, Reduce(s, Train{}), protocol.KindTrain)
	finish(s, m, 4)
	m = one(t, Reduce(s, DropTriplet{7}), protocol.KindTrain)
	if !m.Train.Warm || !reflect.DeepEqual(m.Train.Drop, []int{7}) {
		t.Fatalf("drop: %+v", m.Train)
	}
	finish(s, m, 2)
	m = one(t, Reduce(s, ReverseTriplet{7}), protocol.KindTrain)
	if len(m.Train.Drop) != 0 || !reflect.DeepEqual(m.Train.Reverse, []int{7}) {
		t.Fatalf("reverse replaces drop: %+v", m.Train)
	}
	finish(s, m, 2)
	Reduce(s, SetFlip{0.3})
	if !s.Edits.empty() {
		t.Errorf("edits kept after the noise changed: %+v", s.Edits)
	}
}

// A preset link sets the lesson's settings; keys after it change them.
func TestPresetLink(t *testing.T) {
	p, problems := DecodeURL("#preset=eta&lambda=2", DefaultParams)
	want := Presets[2].Params
	want.Lambda, want.Preset = 2, "eta"
	if len(problems) != 0 || p != want {
		t.Fatalf("got %+v %v, want %+v", p, problems, want)
	}
	if back, _ := DecodeURL(EncodeURL(p), DefaultParams); back != p {
		t.Errorf("round trip: %+v", back)
	}
	if _, problems := DecodeURL("#preset=nope", DefaultParams); len(problems) != 1 || !strings.Contains(problems[0], "expected one of learn, noise, eta, collapse") {
		t.Errorf("unknown preset: %v", problems)
	}
	s := ready(t)
	out := Reduce(s, ApplyPreset{"noise"})
	if len(out) != 1 || out[0].Kind != protocol.KindLoad || out[0].Load.Builtin != "Wine" || !s.Pending {
		t.Fatalf("apply: %+v", out)
	}
	m := one(t, Reduce(s, Reply{protocol.Message{ID: out[0].ID, Kind: protocol.KindDataset, Dataset: &protocol.Dataset{Name: "Wine"}}}), protocol.KindTrain)
	if m.Train.Flip != 0.2 || m.Train.Lambda != 16 || s.Params.Preset != "noise" {
		t.Errorf("the preset's run: %+v", m.Train)
	}
}

// The column chooser and the missing-value choice read the file again with
// the choices accumulated; after a failure they apply to the failed file,
// and the loaded dataset stays until a reading succeeds.
func TestReadChoices(t *testing.T) {
	s := ready(t)
	up := one(t, Reduce(s, Upload{Name: "m.csv", Text: "id,a,k,y\n"}), protocol.KindLoad)
	Reduce(s, Reply{protocol.Message{ID: up.ID, Kind: protocol.KindError, Error: &protocol.Error{Message: "line 3, column 2 (\"a\"): missing value", Columns: []string{"id", "a", "k", "y"}, Header: true}}})
	if s.Failed == nil || s.Data == nil || s.Data.Name != "Iris" || !s.CanTrain() {
		t.Fatalf("failed upload: %+v, data %+v", s.Failed, s.Data)
	}
	m := one(t, Reduce(s, SetMissing{Value: "mean"}), protocol.KindLoad)
	if m.Load.FileName != "m.csv" || m.Load.Missing != "mean" || m.Load.Builtin != "" {
		t.Fatalf("missing choice: %+v", m.Load)
	}
	Reduce(s, Reply{protocol.Message{ID: m.ID, Kind: protocol.KindError, Error: &protocol.Error{Message: "no feature column is left"}}})
	m = one(t, Reduce(s, SetRole{Column: "k", Role: "one-hot"}), protocol.KindLoad)
	if m.Load.Missing != "mean" || !reflect.DeepEqual(m.Load.OneHot, []string{"k"}) {
		t.Fatalf("one-hot on the failed file: %+v", m.Load)
	}
	Reduce(s, Reply{protocol.Message{ID: m.ID, Kind: protocol.KindDataset, Dataset: &protocol.Dataset{Name: "m.csv", Rows: 40}}})
	if s.Failed != nil || s.Data.Name != "m.csv" || s.Read.Missing != "mean" {
		t.Fatalf("read: failed %+v, data %+v, read %+v", s.Failed, s.Data, s.Read)
	}
	m = one(t, Reduce(s, SetRole{Column: "id", Role: "id"}), protocol.KindLoad)
	Reduce(s, Reply{protocol.Message{ID: m.ID, Kind: protocol.KindDataset, Dataset: &protocol.Dataset{Name: "m.csv", Rows: 40}}})
	m = one(t, Reduce(s, SetRole{Column: "k", Role: "excluded"}), protocol.KindLoad)
	if m.Load.ID != "id" || len(m.Load.OneHot) != 0 || !reflect.DeepEqual(m.Load.Exclude, []string{"k"}) {
		t.Fatalf("roles: %+v", m.Load)
	}
	// Choosing a column as the label takes it out of the other roles.
	m = one(t, Reduce(s, ChooseLabel{Column: "k"}), protocol.KindLoad)
	if m.Load.Label != "k" || len(m.Load.Exclude) != 0 || m.Load.ID != "id" {
		t.Fatalf("label: %+v", m.Load)
	}
}

// A triplet file is read for the loaded data, used by runs (with no
// injected swaps unless asked), read again when the data is, and
// forgotten with other data.
func TestTripletFileFlow(t *testing.T) {
	s := ready(t)
	Reduce(s, SetFlip{Value: 0.2})
	m := one(t, Reduce(s, UploadTriplets{Name: "t.csv", Text: "1,2,3\n"}), protocol.KindTriplets)
	if m.Triplets.By != "row0" || m.Triplets.FileName != "t.csv" || s.CanTrain() {
		t.Fatalf("triplets request: %+v, can train %v", m.Triplets, s.CanTrain())
	}
	Reduce(s, Reply{protocol.Message{ID: m.ID, Kind: protocol.KindTripletSet, TripletSet: &protocol.TripletSet{FileName: "t.csv", Count: 10, Used: 8, HeldOut: 2}}})
	if !s.FromFile || s.Params.Flip != 0 || !s.CanTrain() || !strings.Contains(s.Message, "2 touch a row held out") || !strings.Contains(s.Message, "Injected noise is off") {
		t.Fatalf("read: from file %v, flip %v, message %q", s.FromFile, s.Params.Flip, s.Message)
	}
	if tr := one(t, Reduce(s, Train{}), protocol.KindTrain); !tr.Train.FromFile {
		t.Fatal("train does not use the file")
	}
	Reduce(s, Reset{})
	// A new seed reloads the data, then the file (its rows may split otherwise).
	l := one(t, Reduce(s, SetSeed{Value: 5}), protocol.KindLoad)
	again := one(t, Reduce(s, Reply{protocol.Message{ID: l.ID, Kind: protocol.KindDataset, Dataset: &protocol.Dataset{Name: "Iris", Rows: 150}}}), protocol.KindTriplets)
	if s.CanTrain() || !s.FromFile {
		t.Fatal("Train enabled while the triplet file is read again")
	}
	// Another way of naming rows that fails: back to the labels' triplets.
	Reduce(s, Reply{protocol.Message{ID: again.ID, Kind: protocol.KindTripletSet, TripletSet: &protocol.TripletSet{FileName: "t.csv", Count: 10, Used: 9, HeldOut: 1}}})
	by := one(t, Reduce(s, SetTripletsBy{Value: "id"}), protocol.KindTriplets)
	Reduce(s, Reply{protocol.Message{ID: by.ID, Kind: protocol.KindError, Error: &protocol.Error{Message: "t.csv: line 1, column 1 (\"anchor\"): no row has the id \"1\""}}})
	if s.FromFile || s.Triplets != nil || s.TripletFile == nil || s.Status != Error || !s.CanTrain() {
		t.Fatalf("failed file: from file %v, set %+v, status %v", s.FromFile, s.Triplets, s.Status)
	}
	if tr := one(t, Reduce(s, Train{}), protocol.KindTrain); tr.Train.FromFile {
		t.Fatal("train uses a file that failed")
	}
	Reduce(s, Reset{})
	l = one(t, Reduce(s, SelectBuiltin{Name: "Wine"}), protocol.KindLoad)
	if out := Reduce(s, Reply{protocol.Message{ID: l.ID, Kind: protocol.KindDataset, Dataset: &protocol.Dataset{Name: "Wine", Rows: 178}}}); len(out) != 0 || s.TripletFile != nil {
		t.Fatalf("other data keeps the triplet file: %+v", out)
	}
}

// A plain Train with LMNN is capped as Compare caps it (its certified gap
// does not reach a tolerance on most datasets, so it would never end);
// the robust problem's methods are not.
func TestTrainLMNNCapped(t *testing.T) {
	s := ready(t)
	if m := one(t, Reduce(s, Train{}), protocol.KindTrain); m.Train.MaxIter != 0 {
		t.Errorf("fast: MaxIter %d", m.Train.MaxIter)
	}
	Reduce(s, SetMethod{Value: spec.LMNN})
	if m := one(t, Reduce(s, Train{}), protocol.KindTrain); m.Train.MaxIter != CompareLMNNIters {
		t.Errorf("lmnn: MaxIter %d, want %d", m.Train.MaxIter, CompareLMNNIters)
	}
}

// A sweep run again on the same dataset starts the runs between the first
// and the last by the seconds each took the last time, longest first; a
// sweep of another dataset keeps the fixed order.
func TestSweepLongestFirst(t *testing.T) {
	s := ready(t)
	// took is what each run takes: made up, none equal.
	took := func(tr *protocol.Train) float64 {
		return map[string]float64{"fast": 1, "lmnn": 0.3, "xing": 0.01, spec.BestCase: 0.1, spec.Logistic: 0.2, spec.TSTE: 0.02}[tr.Method] + tr.Eta/100
	}
	sweep := func() (order []string) {
		m := one(t, Reduce(s, SweepRun{"eta"}), protocol.KindTrain)
		for {
			order = append(order, fmt.Sprintf("%s@%g", m.Train.Method, m.Train.Eta))
			r := &protocol.Result{Progress: protocol.Progress{Status: "converged", Iter: 5, Seconds: took(m.Train)}, Method: m.Train.Method}
			out := Reduce(s, Reply{protocol.Message{ID: m.ID, Kind: protocol.KindResult, Result: r}})
			if len(out) == 0 {
				return order
			}
			m = one(t, out, protocol.KindTrain)
		}
	}
	fixed := sweep()
	want := []string{"fast@1", "fast@0.9", "fast@0.7", "fast@0.6", "fast@0.5", "bestcase@1", "bestcase@0.9",
		"bestcase@0.8", "bestcase@0.7", "bestcase@0.6", "bestcase@0.5", "lmnn@0.8", "xing@0.8", "logistic@0.8", "tste@0.8", "fast@0.8"}
	if !slices.Equal(fixed, want) {
		t.Fatalf("first sweep ran %v, want %v", fixed, want)
	}
	want = []string{"fast@1", "fast@0.9", "fast@0.7", "fast@0.6", "fast@0.5", "lmnn@0.8", "logistic@0.8",
		"bestcase@1", "bestcase@0.9", "bestcase@0.8", "bestcase@0.7", "bestcase@0.6", "bestcase@0.5", "tste@0.8", "xing@0.8", "fast@0.8"}
	if again := sweep(); !slices.Equal(again, want) {
		t.Errorf("the sweep again ran %v, want %v", again, want)
	}
	// Another dataset: nothing measured for it, the fixed order.
	s.Params.Dataset = "Sonar"
	if other := sweep(); !slices.Equal(other, fixed) {
		t.Errorf("a sweep of another dataset ran %v, want %v", other, fixed)
	}
}
