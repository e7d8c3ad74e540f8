package store

import (
	"encoding/csv"
	"encoding/json"
	"math"
	"reflect"
	"regexp"
	"strconv"
	"strings"
	"testing"

	"github.com/rml-lab/rml/spec"
	"github.com/rml-lab/rml/ui/draw"
	"github.com/rml-lab/rml/wasm/protocol"
)

// irisHash stands for the SHA-256 the worker reports for the loaded data.
const irisHash = "5e0f7c8a3ea0d7d2a3f1c0b9e8d7c6b5a4f3e2d1c0b9a8f7e6d5c4b3a2f1e0d9"

// finished returns a state with a run on a small dataset (3 rows, 2
// features whose names need quoting) finished.
func finished(t testing.TB) *State {
	t.Helper()
	s := New(DefaultParams)
	out := Reduce(s, WorkerReady{Builtins: []string{"Iris"}})
	Reduce(s, Reply{protocol.Message{ID: out[0].ID, Kind: protocol.KindDataset, Dataset: &protocol.Dataset{Name: "Iris", Rows: 3,
		Features: []string{`petal "length", cm`, "=width"}, Classes: []string{"setosa", "virginica"}, SHA256: irisHash}}})
	m := one(t, Reduce(s, Train{}), protocol.KindTrain)
	Reduce(s, Reply{protocol.Message{ID: m.ID, Kind: protocol.KindProgress, Progress: &protocol.Progress{Iter: 2, Iters: []float64{1, 2}, Gaps: []float64{0.5, 1e-7}}}})
	r := &protocol.Result{Progress: protocol.Progress{Status: "converged", Iter: 2, Gap: 1e-7, RelGap: 1e-7, Dual: -1.5, Primal: 1.5000001, SumQ: 3, Budget: 3.2, Seconds: 0.25},
		Method: "fast", D: 2, N: 3, K: 5, Warm: true, Triplets: 4, Swapped: 1, Dropped: 1, QHist: []int{1, 0, 3, 0, 0, 0, 0, 0, 0, 0, 0}, MarginHist: []int{0, 4, 0, 0, 0},
		Test: []int{2}, ErrEuclid: 0.25, ErrLearn: 0.125, SuspectRows: []int{0, 1, 2}, SuspectSwapped: []int{1}, SuspectIndex: []int{4},
		SuspectPrecision: math.NaN(), A: []float64{2, -0.5, -0.5, 1e-300}, Eigen: []float64{2.1, 0.1},
		Euclid: []float64{1, 2, 3, 4, 5, 6}, Learned: []float64{-1, -2, -3, -4, -5, 0.1}, Labels: []float64{0, 1, 1}}
	Reduce(s, Reply{protocol.Message{ID: m.ID, Kind: protocol.KindResult, Result: r}})
	if !s.CanExport() {
		t.Fatal("no export after a run")
	}
	return s
}

// A's CSV reads back to the names and the exact numbers.
func TestMatrixCSV(t *testing.T) {
	s := finished(t)
	rows, err := csv.NewReader(strings.NewReader(s.MatrixCSV())).ReadAll()
	if err != nil {
		t.Fatal(err)
	}
	want := [][]string{{"feature", `petal "length", cm`, "=width"}, {`petal "length", cm`, "2", "-0.5"}, {"=width", "-0.5", "1e-300"}}
	if !reflect.DeepEqual(rows, want) {
		t.Errorf("got %q", rows)
	}
	if s.FileStem() != "rml-iris" {
		t.Errorf("stem %q", s.FileStem())
	}
}

func TestProjectionCSV(t *testing.T) {
	s := finished(t)
	rows, err := csv.NewReader(strings.NewReader(s.ProjectionCSV())).ReadAll()
	if err != nil {
		t.Fatal(err)
	}
	want := [][]string{{"row", "class", "part", "euclidean_x", "euclidean_y", "learned_x", "learned_y"},
		{"1", "setosa", "training", "1", "2", "-1", "-2"}, {"2", "virginica", "training", "3", "4", "-3", "-4"}, {"3", "virginica", "test", "5", "6", "-5", "0.1"}}
	if !reflect.DeepEqual(rows, want) {
		t.Errorf("got %q", rows)
	}
}

// savedRun returns s's saved run (RunJSON) and the same read back by
// encoding/json.
func savedRun(t *testing.T, s *State) ([]byte, map[string]any) {
	t.Helper()
	b, err := s.RunJSON()
	if err != nil {
		t.Fatal(err)
	}
	var raw map[string]any
	if err := json.Unmarshal(b, &raw); err != nil {
		t.Fatalf("not JSON: %v\n%s", err, b)
	}
	return b, raw
}

// A saved run reads back to the same settings and result; opening it in a
// page loads its dataset with its seed and shows its result when the
// dataset's hash matches, and only its settings when it does not.
func TestSavedRunRoundTrip(t *testing.T) {
	s := finished(t)
	s.Params.Eta, s.Params.Seed = 0.9, 7
	b, raw := savedRun(t, s)
	if !reflect.DeepEqual(raw["A"], []any{[]any{2.0, -0.5}, []any{-0.5, 1e-300}}) || raw["dataset"].(map[string]any)["sha256"] != irisHash || raw["suspectPrecision"] != nil {
		t.Errorf("saved: %s", b)
	}
	if le := raw["testError"].(map[string]any)["learned"]; le != 0.125 {
		t.Errorf("learned error %v", le)
	}
	run, p, err := ParseRun(string(b))
	if err != nil {
		t.Fatal(err)
	}
	if p != withoutView(s.Params) || !reflect.DeepEqual(run.Trace, s.Trace) || !math.IsNaN(run.Result.SuspectPrecision) {
		t.Errorf("parsed %+v, trace %+v", p, run.Trace)
	}
	want := *s.Result
	got := *run.Result
	for _, r := range []*protocol.Result{&want, &got} {
		// NaN is not equal to itself; empty and nil lists mean the same.
		r.SuspectPrecision = 0
		r.Iters, r.Gaps = nil, nil
		if len(r.QHist) == 0 {
			r.QHist = nil
		}
		if len(r.MarginHist) == 0 {
			r.MarginHist = nil
		}
	}
	if !reflect.DeepEqual(got, want) {
		t.Errorf("result\n%+v\nwant\n%+v", got, want)
	}

	// Opened in a fresh page: the dataset is loaded with the run's seed.
	o := ready(t)
	m := one(t, Reduce(o, Upload{Name: "run.json", Text: string(b)}), protocol.KindLoad)
	if m.Load.Builtin != "Iris" || m.Load.Seed != 7 || o.Params.Eta != 0.9 {
		t.Fatalf("open: %+v, params %+v", m.Load, o.Params)
	}
	Reduce(o, Reply{protocol.Message{ID: m.ID, Kind: protocol.KindDataset, Dataset: &protocol.Dataset{Name: "Iris", Rows: 3, Features: []string{"a", "b"}, Classes: []string{"setosa", "virginica"}, SHA256: irisHash}}})
	if o.Result == nil || o.Status != Converged || o.ResultOf != o.RunID || !reflect.DeepEqual(o.Trace, s.Trace) || !strings.Contains(o.Message, "Opened the saved run") {
		t.Fatalf("opened: %v %+v %q", o.Status, o.Trace, o.Message)
	}
	// Other data under the same name: settings only, and it says why.
	o = ready(t)
	m = one(t, Reduce(o, Upload{Name: "run.json", Text: string(b)}), protocol.KindLoad)
	Reduce(o, Reply{protocol.Message{ID: m.ID, Kind: protocol.KindDataset, Dataset: &protocol.Dataset{Name: "Iris", Rows: 3, Features: []string{"a", "b"}, SHA256: "00"}}})
	if o.Result != nil || !strings.Contains(o.Message, "other data") || o.Params.Eta != 0.9 {
		t.Errorf("other data: %+v %q", o.Result, o.Message)
	}
}

// A collapsed metric's saved run has no learned error, no suspects and no
// suspects' precision, as the page shows none; it opens again, collapsed.
func TestSavedRunCollapsed(t *testing.T) {
	s := finished(t)
	s.Result.Collapsed, s.Result.SuspectPrecision = true, 0.5
	b, raw := savedRun(t, s)
	if le := raw["testError"].(map[string]any)["learned"]; le != nil {
		t.Errorf("learned error %v, want null", le)
	}
	if sus, _ := raw["suspects"].([]any); len(sus) != 0 || raw["suspectPrecision"] != nil || raw["collapsed"] != true {
		t.Errorf("suspects %v, precision %v, collapsed %v; want none, null, true", raw["suspects"], raw["suspectPrecision"], raw["collapsed"])
	}
	run, _, err := ParseRun(string(b))
	if err != nil {
		t.Fatal(err)
	}
	if !run.Result.Collapsed || len(run.Result.SuspectRows) != 0 {
		t.Errorf("opened: collapsed %v, suspects %v", run.Result.Collapsed, run.Result.SuspectRows)
	}
}

// A run on an uploaded file keeps how the file was read (the label and
// the column choices): the file uploaded after the run is read the same
// way, so that its result opens; a file of another name is read as usual.
func TestSavedRunKeepsReading(t *testing.T) {
	s := finished(t)
	s.Params.Dataset, s.Params.Label, s.FileName, s.CSV = "", "kind", "mine.csv", "kind,a,b,c\n"
	s.Read = Read{Missing: "mean", Exclude: []string{"c"}, OneHot: []string{"b"}}
	s.Data.Name = "mine.csv"
	b, err := s.RunJSON()
	if err != nil {
		t.Fatal(err)
	}
	run, _, err := ParseRun(string(b))
	if err != nil {
		t.Fatal(err)
	}
	if !reflect.DeepEqual(run.Read, s.Read) || run.Label != "kind" || !run.Dataset.File {
		t.Fatalf("parsed reading %+v, label %q, file %v", run.Read, run.Label, run.Dataset.File)
	}
	o := ready(t)
	if out := Reduce(o, Upload{Name: "run.json", Text: string(b)}); len(out) != 0 || !strings.Contains(o.Message, "Upload that file") {
		t.Fatalf("open: %+v %q", out, o.Message)
	}
	m := one(t, Reduce(o, Upload{Name: "other.csv", Text: "x,y\n1,a\n"}), protocol.KindLoad)
	if m.Load.Label != "" || m.Load.Missing != "drop" || m.Load.Exclude != nil { // a new file's defaults
		t.Errorf("another file read with the run's choices: %+v", m.Load)
	}
	o = ready(t)
	Reduce(o, Upload{Name: "run.json", Text: string(b)})
	m = one(t, Reduce(o, Upload{Name: "mine.csv", Text: "kind,a,b,c\n"}), protocol.KindLoad)
	if m.Load.Label != "kind" || m.Load.Missing != "mean" || !reflect.DeepEqual(m.Load.Exclude, []string{"c"}) || !reflect.DeepEqual(m.Load.OneHot, []string{"b"}) {
		t.Errorf("the run's file read as %+v", m.Load)
	}
	Reduce(o, Reply{protocol.Message{ID: m.ID, Kind: protocol.KindDataset, Dataset: &protocol.Dataset{Name: "mine.csv", Rows: 3, Features: []string{"a", "b"}, Classes: []string{"setosa", "virginica"}, SHA256: irisHash}}})
	if o.Result == nil || !strings.Contains(o.Message, "Opened the saved run") {
		t.Errorf("not opened: %q", o.Message)
	}
	// A saved run from before the reading was kept still opens.
	old := strings.Replace(string(b), `"read"`, `"unread"`, 1)
	if run, _, err := ParseRun(old); err != nil || run.Read.Missing != "" {
		t.Errorf("a run without its reading: %v, %+v", err, run)
	}
	if _, _, err := ParseRun(strings.Replace(string(b), `"missing": "mean"`, `"missing": "guess"`, 1)); err == nil || !strings.Contains(err.Error(), `"guess"`) {
		t.Errorf("a bad missing choice: %v", err)
	}
}

// Files that are not whole runs are refused with the reason, and nothing
// changes.
func TestParseRunErrors(t *testing.T) {
	s := finished(t)
	good, _ := s.RunJSON()
	edit := func(old, new string) string {
		if !strings.Contains(string(good), old) {
			t.Fatalf("the saved run has no %q", old)
		}
		return strings.Replace(string(good), old, new, 1)
	}
	for _, c := range []struct{ text, want string }{
		{"{", "not JSON"},
		{`{"format": "other"}`, `no "format": "rml-run"`},
		{edit(`"version": 1`, `"version": 9`), "version 9"},
		{edit(`"link": "data=Iris`, `"link": "eta=7&data=Iris`), `eta="7"`},
		{edit(`[2, -0.5]`, `[2]`), "not 2 × 2"},
		{edit(`"learned": [-1, -2, -3, -4, -5, 0.1]`, `"learned": [-1]`), "one point per row"},
		{edit(`"gaps": [0.5, 1e-07]`, `"gaps": [0.5]`), "2 iterations but 1 gaps"},
		{edit(`"test": [2]`, `"test": [3]`), "row 4 of 3"},
		{edit(`"test": [2]`, `"test": [2.5]`), `"test"[0]: expected a whole number`},
		{edit(`"status": "converged"`, `"status": 3`), `"status": expected a string`},
		{edit(`"result": {`, `"result": 1, "x": {`), `result: expected an object`},
	} {
		if _, _, err := ParseRun(c.text); err == nil || !strings.Contains(err.Error(), c.want) {
			t.Errorf("%v, want %q", err, c.want)
		}
	}
	before := s.Params
	if out := Reduce(s, Upload{Name: "bad.json", Text: "{"}); len(out) != 0 || s.Params != before || s.Result == nil || !strings.Contains(s.Message, "bad.json could not be opened") {
		t.Errorf("bad file: %+v %q", out, s.Message)
	}
}

// The JSON writer's output is JSON (encoding/json reads it back to the
// same values), for awkward strings too; the reader reads what it writes.
func TestJSONCodec(t *testing.T) {
	v := obj{{"s", "quote \" \\ tab\t nul\x00 é 🙂 bad\xff"}, {"n", -1.5e-300}, {"i", 7}, {"u", uint64(18446744073709551615)}, {"b", true}, {"z", nil},
		{"f", []float64{1, 0.1}}, {"is", []int{-3}}, {"ss", []string{"a", "<b>"}}, {"o", obj{}}, {"a", []any{obj{{"k", "v"}}}}}
	b, err := appendJSON(nil, v, "")
	if err != nil {
		t.Fatal(err)
	}
	var std map[string]any
	if err := json.Unmarshal(b, &std); err != nil {
		t.Fatalf("%s: %v", b, err)
	}
	if std["s"] != "quote \" \\ tab\t nul\x00 é 🙂 bad\uFFFD" || std["n"] != -1.5e-300 || std["b"] != true || std["z"] != nil {
		t.Errorf("encoding/json read %v", std)
	}
	mine, err := parseJSON(string(b))
	if err != nil {
		t.Fatal(err)
	}
	m := mine.(map[string]any)
	if m["s"] != std["s"] || m["n"] != std["n"] || m["u"] != 18446744073709551615.0 || !reflect.DeepEqual(m["ss"], []any{"a", "<b>"}) {
		t.Errorf("parseJSON read %v", m)
	}
	if _, err := appendJSON(nil, math.NaN(), ""); err == nil {
		t.Error("NaN written")
	}
	// Escapes as other writers of JSON write them, encoding/json the judge:
	// a surrogate pair (an emoji), \/ and the rest.
	for _, in := range []string{`"\ud83d\ude00 \u00e9 \/ \n \""`, `["\uD83D\uDE00"]`} {
		var want any
		if err := json.Unmarshal([]byte(in), &want); err != nil {
			t.Fatal(err)
		}
		if got, err := parseJSON(in); err != nil || !reflect.DeepEqual(got, want) {
			t.Errorf("%s: %q, %v; encoding/json reads %q", in, got, err, want)
		}
	}
	for _, bad := range []string{"", "{", `{"a" 1}`, "[1,]", "tru", `"\x`, "1e999", "[" + strings.Repeat("[", 70) + "]", "{} x", `"\ud83d"`, `"\ude00\ud83d"`} {
		if _, err := parseJSON(bad); err == nil {
			t.Errorf("%q parsed", bad)
		}
	}
}

// csvRow's records read back through encoding/csv to the same fields.
func TestCSVRow(t *testing.T) {
	rec := []string{"", "plain", "a,b", `say "hi"`, "two\nlines", " lead", "\ttab", "cr\r", "é"}
	rd := csv.NewReader(strings.NewReader(string(csvRow(csvRow(nil, rec), []string{"x"}))))
	rd.FieldsPerRecord = -1
	got, err := rd.ReadAll()
	if err != nil || len(got) != 2 {
		t.Fatal(got, err)
	}
	if !reflect.DeepEqual(got[0], rec) {
		t.Errorf("got %q", got[0])
	}
}

// hostileRuns are edits of a saved run (finished's) that a reliability
// tester made: histograms a bin longer, a coordinate at the edge of
// double precision, an edit out of range, a label no class has.
var hostileRuns = []struct{ name, from, to, refused string }{
	{"a sixth margin bin", `"marginHist": [0, 4, 0, 0, 0]`, `"marginHist": [0, 4, 0, 0, 0, 6]`, "a histogram of margins with 6 bins"},
	{"a twelfth q bin", `"qHist": [1, 0, 3, 0, 0, 0, 0, 0, 0, 0, 0]`, `"qHist": [1, 0, 3, 0, 0, 0, 0, 0, 0, 0, 0, 1]`, "a histogram of q with 12 bins"},
	{"a negative count", `"qHist": [1, 0, 3,`, `"qHist": [-1, 0, 3,`, "a count of q is negative"},
	{"coordinates of 1e308", `"learned": [-1, -2, -3, -4, -5, 0.1]`, `"learned": [-1e308, -2, -3, -4, 1e308, 0.1]`, ""},
	{"an error over 1", `"euclidean": 0.25`, `"euclidean": 25`, "a test error of 25"},
	{"an edit out of range", `"drop": []`, `"drop": [-5]`, "its edits name triplet -5"},
}

// The hostile runs: each is refused with its reason, or (coordinates
// that are finite, however large) opened and drawn with finite markers.
func TestHostileRuns(t *testing.T) {
	b, err := finished(t).RunJSON()
	if err != nil {
		t.Fatal(err)
	}
	for _, c := range hostileRuns {
		text := strings.Replace(string(b), c.from, c.to, 1)
		if text == string(b) {
			t.Fatalf("%s: the edit %q is not in the saved run", c.name, c.from)
		}
		run, _, err := ParseRun(text)
		switch {
		case c.refused == "" && err != nil:
			t.Errorf("%s: refused (%v)", c.name, err)
		case c.refused != "" && (err == nil || !strings.Contains(err.Error(), c.refused)):
			t.Errorf("%s: %v, want %q", c.name, err, c.refused)
		case err == nil:
			for _, cp := range draw.ProjectionMarkers(draw.Box{W: 300, H: 280}, run.Result.Learned, run.Result.Labels, run.Result.Test, 2, run.Result.N) {
				for _, v := range regexp.MustCompile(`-?[\d.]+(e[+-]?\d+)?|Inf|NaN`).FindAllString(cp.Train+cp.Test, -1) {
					if x, err := strconv.ParseFloat(v, 64); err != nil || x < -10 || x > 310 {
						t.Errorf("%s: a marker at %s, outside the 300 × 280 view", c.name, v)
					}
				}
			}
		}
	}
}

// FuzzParseRun opens what a saved run file might say, edited by hand or
// made up: whatever ParseRun accepts, the page can draw without an index
// out of range or a coordinate that is not finite (the drawing's pure
// parts, ui/draw's, run here on it), and opening it over a dataset of its
// size shows it; whatever it refuses, it says why.
func FuzzParseRun(f *testing.F) {
	b, err := finished(f).RunJSON()
	if err != nil {
		f.Fatal(err)
	}
	f.Add(string(b))
	for _, c := range hostileRuns {
		f.Add(strings.Replace(string(b), c.from, c.to, 1))
	}
	f.Add(`{"format":"` + RunFormat + `"}`)
	f.Fuzz(func(t *testing.T, text string) {
		run, _, err := ParseRun(text)
		if err != nil {
			if err.Error() == "" {
				t.Fatal("a refusal with no reason")
			}
			return
		}
		r := run.Result
		box := draw.Box{W: 300, H: 280}
		for _, xy := range [][]float64{r.Euclid, r.Learned} {
			classes := 0
			for _, l := range r.Labels {
				classes = max(classes, int(l)+1)
			}
			for _, cp := range draw.ProjectionMarkers(box, xy, r.Labels, r.Test, min(classes, 64), r.N) {
				if strings.Contains(cp.Train+cp.Test, "NaN") || strings.Contains(cp.Train+cp.Test, "Inf") {
					t.Fatalf("a marker drawn at %q", cp.Train+cp.Test)
				}
			}
		}
		if n := len(r.Test); n > 0 {
			for _, e := range []float64{r.ErrEuclid, r.ErrLearn} {
				lo, hi := spec.Wilson(spec.Misclassified(e, n), n)
				if !(lo >= 0 && hi <= 1) {
					t.Fatalf("interval [%g, %g]", lo, hi)
				}
			}
		}
		// Opened over data of its size and hash, the run is shown.
		s := New(DefaultParams)
		out := Reduce(s, WorkerReady{Builtins: []string{"Iris"}})
		Reduce(s, Reply{protocol.Message{ID: out[0].ID, Kind: protocol.KindDataset, Dataset: &protocol.Dataset{Name: "Iris", Rows: r.N, SHA256: run.Dataset.SHA256}}})
		classes := make([]string, 0, 64)
		for i := 0; i < 64; i++ {
			classes = append(classes, strconv.Itoa(i))
		}
		features := make([]string, r.D)
		for _, m := range Reduce(s, Upload{Name: "run.json", Text: text}) {
			if m.Kind == protocol.KindLoad {
				Reduce(s, Reply{protocol.Message{ID: m.ID, Kind: protocol.KindDataset, Dataset: &protocol.Dataset{Name: run.Dataset.Name, Rows: r.N,
					Features: features, Classes: classes, SHA256: run.Dataset.SHA256}}})
			}
		}
	})
}
