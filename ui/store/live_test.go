package store

import (
	"math"
	"slices"
	"strings"
	"testing"

	"github.com/rml-lab/rml/wasm/protocol"
)

// A run's frames become the learned view shown while it goes on and the
// points of its error curve; the result ends the curve and the frame.
func TestFramesAndErrorCurve(t *testing.T) {
	s := ready(t)
	m := one(t, Reduce(s, Train{}), protocol.KindTrain)
	Reduce(s, Reply{protocol.Message{ID: m.ID, Kind: protocol.KindProgress, Progress: &protocol.Progress{Iter: 3, Iters: []float64{1, 2, 3}, Gaps: []float64{3, 2, 1},
		FrameIter: 3, FrameErr: 0.25, Frame: []float64{1, 2, 3, 4}}}})
	if f := s.Frame; f == nil || f.Iter != 3 || f.Err != 0.25 || len(f.XY) != 4 || s.Last.Frame != nil {
		t.Fatalf("frame %+v", s.Frame)
	}
	r := &protocol.Result{Progress: protocol.Progress{Status: "converged", Iter: 5}, ErrLearn: 0.125}
	Reduce(s, Reply{protocol.Message{ID: m.ID, Kind: protocol.KindResult, Result: r}})
	if s.Frame != nil || !slices.Equal(s.Errors.Iters, []float64{3, 5}) || !slices.Equal(s.Errors.Errs, []float64{0.25, 0.125}) {
		t.Errorf("after the result: frame %+v, errors %+v", s.Frame, s.Errors)
	}
	// A new run starts a new curve.
	one(t, Reduce(s, Train{}), protocol.KindTrain)
	if len(s.Errors.Iters) != 0 {
		t.Errorf("a new run keeps the last one's error curve: %+v", s.Errors)
	}
}

// A run that converged to A = 0 says "collapsed", never "converged", and
// has no learned error on its curve; the final progress leaves the status
// running until the result says which.
func TestCollapsedStatus(t *testing.T) {
	s := ready(t)
	m := one(t, Reduce(s, Train{}), protocol.KindTrain)
	Reduce(s, Reply{protocol.Message{ID: m.ID, Kind: protocol.KindProgress, Progress: &protocol.Progress{Status: "converged", Iter: 2, Iters: []float64{1, 2}, Gaps: []float64{1, 0}}}})
	if s.Status != Running {
		t.Fatalf("after the final progress: %v", s.Status)
	}
	r := &protocol.Result{Progress: protocol.Progress{Status: "converged", Iter: 2}, Collapsed: true, ErrLearn: 0.6}
	Reduce(s, Reply{protocol.Message{ID: m.ID, Kind: protocol.KindResult, Result: r}})
	if s.Status != Collapsed || len(s.Errors.Errs) != 1 || !math.IsNaN(s.Errors.Errs[0]) {
		t.Errorf("collapsed run: status %v, errors %+v", s.Status, s.Errors)
	}
	// Stopped early, a collapsed metric is "stopped": it did not converge.
	m = one(t, Reduce(s, Train{}), protocol.KindTrain)
	r = &protocol.Result{Progress: protocol.Progress{Status: "stopped", Iter: 2}, Collapsed: true}
	Reduce(s, Reply{protocol.Message{ID: m.ID, Kind: protocol.KindResult, Result: r}})
	if s.Status != Stopped {
		t.Errorf("stopped collapsed run: %v", s.Status)
	}
}

// Play after a pause goes on from the run's solution; after a finished
// run, or once the settings changed the result away, it starts afresh.
func TestPlayResumes(t *testing.T) {
	s := ready(t)
	m := one(t, Reduce(s, Train{}), protocol.KindTrain)
	one(t, Reduce(s, Stop{}), protocol.KindStop)
	Reduce(s, Reply{protocol.Message{ID: m.ID, Kind: protocol.KindResult, Result: &protocol.Result{Progress: protocol.Progress{Status: "stopped", Iter: 40}}}})
	if m := one(t, Reduce(s, Train{}), protocol.KindTrain); !m.Train.Warm {
		t.Error("Play after a pause started from scratch")
	} else {
		Reduce(s, Reply{protocol.Message{ID: m.ID, Kind: protocol.KindResult, Result: &protocol.Result{Progress: protocol.Progress{Status: "converged", Iter: 9}}}})
	}
	if m := one(t, Reduce(s, Train{}), protocol.KindTrain); m.Train.Warm {
		t.Error("Train after a converged run started from its solution")
	}
}

// The rate counts a run's own iterations over its own time, and only once
// it has run long enough to say something: a step of one iteration in a
// few microseconds showed "293333 iterations/s".
func TestRateWindow(t *testing.T) {
	s := ready(t)
	s.Last = protocol.Progress{Iter: 1, Seconds: 3e-6}
	if r := s.Rate(); r != 0 {
		t.Errorf("one iteration in 3 µs: rate %v, want none", r)
	}
	s.Last, s.Steps = protocol.Progress{Iter: 110, Seconds: 0.5}, 100
	if r := s.Rate(); r != 20 {
		t.Errorf("10 iterations of a run that continues 100 in 0.5 s: rate %v, want 20", r)
	}
}

// A link followed in the same tab (the address's fragment changed) takes
// its settings and trains, as a first visit does; autorun=0 waits; a bad
// value is named and the rest applies.
func TestFollowLink(t *testing.T) {
	s := ready(t)
	out := Reduce(s, FollowLink{"#preset=noise"})
	if s.Params.Preset != "noise" || s.Params.Dataset != "Wine" || len(out) != 1 || out[0].Kind != protocol.KindLoad || !s.Pending {
		t.Fatalf("preset=noise: %+v, %+v, pending %v", s.Params, out, s.Pending)
	}
	Reduce(s, Reply{protocol.Message{ID: out[0].ID, Kind: protocol.KindDataset, Dataset: &protocol.Dataset{Name: "Wine", Rows: 178}}})
	if s.Status != Running {
		t.Fatalf("the link's dataset loaded, status %v: want it training", s.Status)
	}
	out = Reduce(s, FollowLink{"#data=Wine&eta=0.9&seed=1&autorun=0&flip=0.2&lambda=16"})
	if s.Params.Eta != 0.9 || s.Pending || s.Status == Running || len(out) != 1 || out[0].Kind != protocol.KindStop {
		t.Errorf("autorun=0: %+v, %v, %+v", s.Params, s.Status, out)
	}
	out = Reduce(s, FollowLink{"#data=Wine&eta=7"})
	if !strings.Contains(s.Message, `eta="7"`) || s.Status != Running || one(t, out, protocol.KindTrain).Train.Eta != DefaultParams.Eta {
		t.Errorf("eta=7: message %q, status %v", s.Message, s.Status)
	}
	// An empty fragment is a first visit: the first lesson.
	Reduce(s, FollowLink{""})
	if s.Params.Preset != Presets[0].Key {
		t.Errorf("an empty fragment gives %+v", s.Params)
	}
}

// An upload drops rows with missing values unless told otherwise; the
// same file again keeps the user's choices (label, missing values,
// columns); another file starts afresh.
func TestUploadChoices(t *testing.T) {
	s := ready(t)
	m := one(t, Reduce(s, Upload{Name: "p.csv", Text: "id,species,mass\n"}), protocol.KindLoad)
	if m.Load.Missing != "drop" {
		t.Errorf("a first upload reads missing values as %q, want drop", m.Load.Missing)
	}
	Reduce(s, Reply{protocol.Message{ID: m.ID, Kind: protocol.KindDataset, Dataset: &protocol.Dataset{Name: "p.csv", Rows: 10}}})
	m = one(t, Reduce(s, ChooseLabel{Column: "species"}), protocol.KindLoad)
	Reduce(s, Reply{protocol.Message{ID: m.ID, Kind: protocol.KindDataset, Dataset: &protocol.Dataset{Name: "p.csv", Rows: 10}}})
	m = one(t, Reduce(s, SetMissing{Value: "mean"}), protocol.KindLoad)
	Reduce(s, Reply{protocol.Message{ID: m.ID, Kind: protocol.KindDataset, Dataset: &protocol.Dataset{Name: "p.csv", Rows: 10}}})
	m = one(t, Reduce(s, Upload{Name: "p.csv", Text: "id,species,mass\n1,a,2\n"}), protocol.KindLoad)
	if m.Load.Label != "species" || m.Load.Missing != "mean" {
		t.Errorf("the same file again: label %q, missing %q; want the user's species and mean", m.Load.Label, m.Load.Missing)
	}
	m = one(t, Reduce(s, Upload{Name: "q.csv", Text: "a,b\n"}), protocol.KindLoad)
	if m.Load.Label != "" || m.Load.Missing != "drop" {
		t.Errorf("another file: label %q, missing %q", m.Load.Label, m.Load.Missing)
	}
}

// A triplet file that cannot be read replaces nothing: the file in use
// stays in use, and the message says so beside the files.
func TestBadTripletFileKeepsGood(t *testing.T) {
	s := ready(t)
	m := one(t, Reduce(s, UploadTriplets{Name: "good.csv", Text: "0,1,2\n"}), protocol.KindTriplets)
	Reduce(s, Reply{protocol.Message{ID: m.ID, Kind: protocol.KindTripletSet, TripletSet: &protocol.TripletSet{FileName: "good.csv", Count: 1, Used: 1}}})
	if !s.FromFile {
		t.Fatal("the good file is not in use")
	}
	m = one(t, Reduce(s, UploadTriplets{Name: "bad.csv", Text: "0,1,x\n"}), protocol.KindTriplets)
	Reduce(s, Reply{protocol.Message{ID: m.ID, Kind: protocol.KindError, Error: &protocol.Error{Message: `bad.csv: line 1, column 3 ("dissimilar"): "x" is not a row index`}}})
	if !s.FromFile || s.Triplets == nil || s.Triplets.FileName != "good.csv" || s.TripletFile.Name != "good.csv" ||
		!strings.Contains(s.Message, "The triplets of good.csv stay in use") || s.MessageAt != AtSide {
		t.Errorf("after a bad file: from file %v, set %+v, file %+v, message %q at %q", s.FromFile, s.Triplets, s.TripletFile, s.Message, s.MessageAt)
	}
}

// A link's problems are said until its data is shown, and stay with the
// dataset's own notice (they vanished with the load, after a second);
// values outside the page's sliders are refused (η 1e-300 drew the slider
// at 0.5 and ran at 1e-300); a megabyte of fragment is not read at all.
func TestLinkProblems(t *testing.T) {
	s := Open("#data=Wine&eta=1e-300&flip=0.9&zz=1")
	if s.Params.Eta != DefaultParams.Eta || s.Params.Flip != DefaultParams.Flip || !s.Pending {
		t.Errorf("out-of-range values taken: %+v", s.Params)
	}
	for _, want := range []string{`eta="1e-300": expected a number from 0.5 to 1`, `flip="0.9"`, `"zz" is not a setting`} {
		if !strings.Contains(s.Message, want) {
			t.Errorf("the notice %q lacks %q", s.Message, want)
		}
	}
	out := Reduce(s, WorkerReady{Builtins: []string{"Iris", "Wine"}})
	Reduce(s, Reply{protocol.Message{ID: out[0].ID, Kind: protocol.KindDataset, Dataset: &protocol.Dataset{Name: "Wine", Rows: 178, Notice: "a note on the data"}}})
	if !strings.Contains(s.Message, "were ignored") || !strings.Contains(s.Message, "a note on the data") {
		t.Errorf("after the load: %q", s.Message)
	}
	if f := Open("#" + strings.Repeat("a=1&", 1<<18)); !strings.Contains(f.Message, "KB long") || f.Params.Dataset != DefaultParams.Dataset {
		t.Errorf("a megabyte of fragment: %q", f.Message)
	}
	if s := Open(""); s.Params.Preset != Presets[0].Key || !s.Pending {
		t.Errorf("a first visit: %+v", s.Params)
	}
}

// A worker that dies and is started again reads the same data again: the
// result, the pinned runs and the sweep stay (they were lost, with only
// "the dataset is loaded again" said); other data after it starts afresh.
func TestRestartKeepsResult(t *testing.T) {
	s := ready(t)
	s.Data.SHA256 = irisHash
	m := one(t, Reduce(s, Train{}), protocol.KindTrain)
	r := &protocol.Result{Progress: protocol.Progress{Status: "converged", Iter: 5}, Method: "fast"}
	Reduce(s, Reply{protocol.Message{ID: m.ID, Kind: protocol.KindResult, Result: r}})
	Reduce(s, Pin{})
	one(t, Reduce(s, Train{}), protocol.KindTrain) // the run the worker dies in
	Reduce(s, WorkerDied{Reason: "the solver program exited"})
	l := one(t, Reduce(s, WorkerReady{Builtins: []string{"Iris"}}), protocol.KindLoad)
	Reduce(s, Reply{protocol.Message{ID: l.ID, Kind: protocol.KindDataset, Dataset: &protocol.Dataset{Name: "Iris", Rows: 150, SHA256: irisHash}}})
	if s.Result != r || len(s.Pinned) != 1 || s.Status != Idle || !strings.Contains(s.Message, "the result and pinned runs stay") {
		t.Errorf("after the restart: result %v, %d pinned, status %v, message %q", s.Result == r, len(s.Pinned), s.Status, s.Message)
	}
	l = one(t, Reduce(s, SelectBuiltin{Name: "Wine"}), protocol.KindLoad)
	Reduce(s, Reply{protocol.Message{ID: l.ID, Kind: protocol.KindDataset, Dataset: &protocol.Dataset{Name: "Wine", Rows: 178, SHA256: "other"}}})
	if s.Result != nil || len(s.Pinned) != 0 {
		t.Errorf("other data kept the result (%v) or %d pinned runs", s.Result != nil, len(s.Pinned))
	}
}

// The noise (the share of triplets swapped) and η (the share trusted) are
// independent settings: moving one leaves the other, in the state and in
// the run asked for.
func TestEtaAndNoiseIndependent(t *testing.T) {
	s := ready(t)
	Reduce(s, SetFlip{Value: 0.3})
	m := one(t, Reduce(s, Train{}), protocol.KindTrain)
	Reduce(s, Reply{protocol.Message{ID: m.ID, Kind: protocol.KindResult, Result: &protocol.Result{Progress: protocol.Progress{Status: "converged"}}}})
	w := one(t, Reduce(s, SetEta{Value: 0.6}), protocol.KindTrain)
	if s.Params.Flip != 0.3 || w.Train.Flip != 0.3 || w.Train.Eta != 0.6 {
		t.Errorf("η to 0.6: noise %v (asked %v), η asked %v", s.Params.Flip, w.Train.Flip, w.Train.Eta)
	}
	Reduce(s, SetFlip{Value: 0.1})
	if s.Params.Eta != 0.6 {
		t.Errorf("the noise to 0.1 moved η to %v", s.Params.Eta)
	}
}
