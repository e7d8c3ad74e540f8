package store

import (
	"reflect"
	"slices"
	"strings"
	"testing"

	"github.com/rml-lab/rml/wasm/protocol"
)

// kept is a state with an uploaded file read with choices, a triplet file
// in use, a finished run with an edit and two pinned runs, as a user
// leaves the page; and its session.
func kept(t testing.TB) (*State, string) {
	t.Helper()
	s := ready(t)
	up := one(t, Reduce(s, Upload{Name: "my data.csv", Text: "a,b,kind\n1,2,x\n3,4,y\n5,6,x\n"}), protocol.KindLoad)
	ds := &protocol.Dataset{Name: "my data.csv", Rows: 3, Features: []string{"a", "b"}, Classes: []string{"x", "y"}, SHA256: irisHash}
	Reduce(s, Reply{protocol.Message{ID: up.ID, Kind: protocol.KindDataset, Dataset: ds}})
	tr := one(t, Reduce(s, UploadTriplets{Name: "answers.csv", Text: "0,1,2\n"}), protocol.KindTriplets)
	Reduce(s, Reply{protocol.Message{ID: tr.ID, Kind: protocol.KindTripletSet, TripletSet: &protocol.TripletSet{FileName: "answers.csv", Count: 1, Used: 1}}})
	Reduce(s, SetEta{Value: 0.7})
	Reduce(s, SetLambda{Value: 4})
	result := func(method string, a float64) {
		m := one(t, Reduce(s, Train{}), protocol.KindTrain)
		Reduce(s, Reply{protocol.Message{ID: m.ID, Kind: protocol.KindProgress, Progress: &protocol.Progress{Iter: 2, Iters: []float64{1, 2}, Gaps: []float64{0.5, 1e-7}}}})
		r := finished(t).Result
		r.Method, r.A[0] = method, a
		Reduce(s, Reply{protocol.Message{ID: m.ID, Kind: protocol.KindResult, Result: r}})
	}
	result("fast", 2)
	Reduce(s, Pin{})
	result("fast", 3)
	Reduce(s, Pin{})
	Reduce(s, DropTriplet{Index: 0})
	if s.Status != Running {
		t.Fatal("an edit does not train again")
	}
	result("fast", 5)
	if !s.Settled() || len(s.Pinned) != 2 || !s.FromFile {
		t.Fatalf("settled %v, %d pinned, from file %v", s.Settled(), len(s.Pinned), s.FromFile)
	}
	b, err := s.SessionJSON()
	if err != nil {
		t.Fatal(err)
	}
	return s, string(b)
}

// A session kept and restored in a new page shows what the user left:
// the settings, the file read as chosen, the triplet file in use, the
// result with its edits and the pinned runs; Start fresh then leaves it
// for the first lesson.
func TestSessionRoundTrip(t *testing.T) {
	old, text := kept(t)
	s := Open("")
	if !s.Pending {
		t.Fatal("a first visit does not train at once")
	}
	Reduce(s, Restore{Session: text, CSV: old.CSV, Triplets: old.TripletFile.CSV})
	if s.Pending || s.Params.Eta != 0.7 || s.Params.Lambda != 4 || s.Params.Dataset != "" || s.FileName != "my data.csv" {
		t.Fatalf("restored settings %+v, file %q, pending %v", s.Params, s.FileName, s.Pending)
	}
	load := one(t, Reduce(s, WorkerReady{Builtins: []string{"Iris"}}), protocol.KindLoad)
	if load.Load.CSV != old.CSV || load.Load.Missing != "drop" || load.Load.FileName != "my data.csv" {
		t.Fatalf("load %+v", load.Load)
	}
	out := Reduce(s, Reply{protocol.Message{ID: load.ID, Kind: protocol.KindDataset, Dataset: old.Data}})
	tr := one(t, out, protocol.KindTriplets)
	if tr.Triplets.CSV != "0,1,2\n" || s.CanTrain() {
		t.Fatalf("triplets %+v", tr.Triplets)
	}
	Reduce(s, Reply{protocol.Message{ID: tr.ID, Kind: protocol.KindTripletSet, TripletSet: &protocol.TripletSet{FileName: "answers.csv", Count: 1, Used: 1}}})
	if !s.FromFile || !s.CanTrain() || s.Status != Converged {
		t.Fatalf("from file %v, can train %v, status %v", s.FromFile, s.CanTrain(), s.Status)
	}
	if !reflect.DeepEqual(s.Result.A, old.Result.A) || !reflect.DeepEqual(s.Trace, old.Trace) ||
		!slices.Equal(s.Edits.Drop, old.Edits.Drop) || len(s.Edits.Reverse)+len(old.Edits.Reverse) != 0 {
		t.Errorf("result A %v trace %v edits %v, want %v %v %v", s.Result.A, s.Trace, s.Edits, old.Result.A, old.Trace, old.Edits)
	}
	if len(s.Pinned) != 2 || s.Pinned[0].Result.A[0] != 2 || s.Pinned[1].Result.A[0] != 3 || s.Pinned[0].Mark == s.Pinned[1].Mark || s.Pinned[0].ID == s.Pinned[1].ID {
		t.Fatalf("pinned %+v", s.Pinned)
	}
	if p := s.Pinned[0].Params; p.Eta != 0.7 || p.Dataset != "" {
		t.Errorf("a pinned run's settings %+v", p)
	}
	if !s.OffersFresh() || !strings.Contains(s.Message, "2 pinned runs") || !strings.Contains(s.Message, "answers.csv") {
		t.Errorf("message %q, offers fresh %v", s.Message, s.OffersFresh())
	}
	// The restored page keeps the session it shows.
	again, err := s.SessionJSON()
	if err != nil || string(again) != text {
		t.Errorf("the restored page keeps another session:\n%s\nwant\n%s", again, text)
	}
	// Start fresh: the first lesson, nothing of the file.
	l := one(t, Reduce(s, StartFresh{}), protocol.KindLoad)
	Reduce(s, Reply{protocol.Message{ID: l.ID, Kind: protocol.KindDataset, Dataset: &protocol.Dataset{Name: l.Load.Builtin, Rows: 600}}})
	if l.Load.Builtin == "" || s.FileName != "" || s.TripletFile != nil || s.Result != nil || len(s.Pinned) != 0 || s.OffersFresh() {
		t.Fatalf("start fresh: load %+v, file %q, triplets %v, result %v, pinned %d", l.Load, s.FileName, s.TripletFile, s.Result, len(s.Pinned))
	}
	if want, _ := linkParams(""); s.Params != want {
		t.Errorf("start fresh settings %+v, want %+v", s.Params, want)
	}
}

// A session whose file now reads as other data, or whose text was lost,
// or that was tampered with, restores no result and says why; the page
// goes on.
func TestSessionRefused(t *testing.T) {
	old, text := kept(t)
	s := Open("")
	Reduce(s, Restore{Session: text, CSV: old.CSV + "7,8,y\n", Triplets: old.TripletFile.CSV})
	load := one(t, Reduce(s, WorkerReady{}), protocol.KindLoad)
	other := *old.Data
	other.SHA256, other.Rows = strings.Repeat("b", 64), 4
	Reduce(s, Reply{protocol.Message{ID: load.ID, Kind: protocol.KindDataset, Dataset: &other}})
	if s.Result != nil || len(s.Pinned) != 0 || s.TripletFile != nil || !strings.Contains(s.Message, "other data") {
		t.Errorf("other data: result %v, %d pinned, message %q", s.Result, len(s.Pinned), s.Message)
	}
	for name, c := range map[string]Restore{
		"no file text":   {Session: text},
		"not JSON":       {Session: text[:len(text)/2], CSV: old.CSV},
		"a pinned run":   {Session: lastReplaced(text, `"marginHist": [0, 4, 0, 0, 0]`, `"marginHist": [0, 4, 0, 0, 0, 1]`), CSV: old.CSV},
		"other format":   {Session: strings.Replace(text, SessionFormat, RunFormat, 1), CSV: old.CSV},
		"triplets by":    {Session: strings.Replace(text, `"by": "row0"`, `"by": "row7"`, 1), CSV: old.CSV},
		"the run's edit": {Session: strings.Replace(text, `"drop": [0]`, `"drop": [-5]`, 1), CSV: old.CSV},
	} {
		if c.Session == text && name != "no file text" {
			t.Fatalf("%s: the edit is not in the session", name)
		}
		s := Open("")
		if out := Reduce(s, c); out != nil || !strings.Contains(s.Message, "could not be restored") || s.Notice {
			t.Errorf("%s: %d requests, message %q", name, len(out), s.Message)
		}
		if !s.Pending {
			t.Errorf("%s: the page no longer starts its first lesson", name)
		}
	}
}

// lastReplaced is s with the last old in it replaced by new (a pinned
// run's: they come last).
func lastReplaced(s, old, new string) string {
	i := strings.LastIndex(s, old)
	if i < 0 {
		return s
	}
	return s[:i] + new + s[i+len(old):]
}

// Opening a saved run keeps the pinned runs when they are of the data it
// opens on (the same file, or a run on a file not loaded, which changes
// no data).
func TestOpenRunKeepsPins(t *testing.T) {
	s := finished(t)
	Reduce(s, Pin{})
	b, err := s.RunJSON()
	if err != nil {
		t.Fatal(err)
	}
	data := *s.Data
	load := one(t, Reduce(s, Upload{Name: "run.json", Text: string(b)}), protocol.KindLoad)
	Reduce(s, Reply{protocol.Message{ID: load.ID, Kind: protocol.KindDataset, Dataset: &data}})
	if len(s.Pinned) != 1 || s.Result == nil || !strings.HasPrefix(s.Message, "Opened the saved run") {
		t.Fatalf("same data: %d pinned, result %v, message %q", len(s.Pinned), s.Result != nil, s.Message)
	}
	onFile := strings.Replace(string(b), `"file": false`, `"file": true`, 1)
	if onFile == string(b) {
		t.Fatal(`no "file": false in the saved run`)
	}
	if out := Reduce(s, Upload{Name: "run.json", Text: onFile}); len(out) != 0 || len(s.Pinned) != 1 || s.Result == nil {
		t.Errorf("a run on a file not loaded: %d requests, %d pinned, result %v", len(out), len(s.Pinned), s.Result != nil)
	}
}

// FuzzParseSession restores what the browser's storage might hold, edited
// or cut short: whatever Restore accepts it shows over data of its
// session's hash and sizes without a fault, and whatever it refuses, it
// says why and the page goes on.
func FuzzParseSession(f *testing.F) {
	old, text := kept(f)
	f.Add(text, old.CSV)
	f.Add(lastReplaced(text, `"marginHist": [0, 4, 0, 0, 0]`, `"marginHist": [0, 4, 0, 0, 0, 1]`), old.CSV)
	f.Add(`{"format":"`+SessionFormat+`","version":1}`, "")
	f.Fuzz(func(t *testing.T, text, csv string) {
		s := Open("")
		out := Reduce(s, Restore{Session: text, CSV: csv, Triplets: "0,1,2\n"})
		sess, err := ParseSession(text)
		if err != nil || (sess.File != nil && csv == "") {
			if !strings.Contains(s.Message, "could not be restored") || out != nil {
				t.Fatalf("refused (%v) with message %q and %d requests", err, s.Message, len(out))
			}
			return
		}
		for _, m := range Reduce(s, WorkerReady{Builtins: []string{"Iris"}}) {
			if m.Kind != protocol.KindLoad {
				continue
			}
			d := &protocol.Dataset{Name: "data", Rows: 3, Features: []string{"a", "b"}, Classes: []string{"x", "y"}, SHA256: sess.SHA256}
			if r := sess.Run; r != nil {
				d.Rows, d.Features = r.Result.N, make([]string, r.Result.D)
			}
			Reduce(s, Reply{protocol.Message{ID: m.ID, Kind: protocol.KindDataset, Dataset: d}})
		}
		if _, err := s.SessionJSON(); err != nil {
			t.Fatalf("the restored page cannot keep its session: %v", err)
		}
	})
}
