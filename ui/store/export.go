package store

import (
	"errors"
	"math"
	"strconv"
	"strings"

	"github.com/rml-lab/rml/wasm/protocol"
)

// Downloads: the metric, the projection and the whole run, written from the
// state alone (the page only hands the text to the browser), and a saved
// run read back. Every name from a file goes through csvRow or appendJSON,
// which quote it: it stays text.

// RunFormat and RunVersion mark a file written by RunJSON.
const (
	RunFormat  = "rml-run"
	RunVersion = 1
)

// SavedRun is a run read back from the JSON RunJSON writes: the settings
// (as the page's link, read through the link codec), the dataset by name and
// SHA-256, and the result with its Δ_t history and edits.
type SavedRun struct {
	Link       string
	Read       Read   // how its file was read (the column choices, missing values)
	Label      string // its label choice
	Dataset    SavedData
	Method     string
	Iterations int
	Trace      Trace
	Edits      Edits
	Result     *protocol.Result // nil for a restored session without one

	// A restored session (Restore) carries more: its pinned runs and
	// triplet file, shown once its data is loaded again.
	Pinned   []Run
	Triplets *SessionTriplets
	Restored bool
}

// SavedData names the dataset a run was on.
type SavedData struct {
	Name   string // the built-in's name, or the file's
	SHA256 string
	File   bool // an uploaded file, not a built-in dataset
}

// CanExport says whether there is a result to download.
func (s *State) CanExport() bool {
	return s.Result != nil && s.Data != nil && len(s.Result.A) == s.Result.D*s.Result.D
}

// FileStem is the start of every download's name: rml-<dataset>.
func (s *State) FileStem() string {
	name := "upload"
	if s.Data != nil {
		name = s.Data.Name
	}
	// Letters and digits kept, every other run of characters one dash.
	b := []byte("rml")
	dash := true
	for _, r := range strings.ToLower(name) {
		if r >= 'a' && r <= 'z' || r >= '0' && r <= '9' {
			if dash {
				b = append(b, '-')
			}
			b, dash = append(b, byte(r)), false
		} else {
			dash = true
		}
	}
	return string(b)
}

// MatrixCSV is A as CSV: a header row ("feature" and the feature names),
// then one row per feature, its name first. Numbers are written in full
// (shortest round-trip form).
func (s *State) MatrixCSV() string {
	r, f := s.Result, s.Data.Features
	var b []byte
	b = csvRow(b, append([]string{"feature"}, f...))
	for i := 0; i < r.D; i++ {
		row := []string{FeatureName(f, i)}
		for j := 0; j < r.D; j++ {
			row = append(row, num(r.A[i*r.D+j]))
		}
		b = csvRow(b, row)
	}
	return string(b)
}

// ProjectionCSV is the two projections the page draws, one row per data
// row: its number (from 1), class, whether it was held out, and its
// coordinates Euclidean (first two principal components) and learned (the
// same through A^½).
func (s *State) ProjectionCSV() string {
	r := s.Result
	test := map[int]bool{}
	for _, i := range r.Test {
		test[i] = true
	}
	b := csvRow(nil, []string{"row", "class", "part", "euclidean_x", "euclidean_y", "learned_x", "learned_y"})
	for i := 0; i < r.N && 2*i+1 < len(r.Euclid) && 2*i+1 < len(r.Learned); i++ {
		part := "training"
		if test[i] {
			part = "test"
		}
		class := ""
		if i < len(r.Labels) {
			if c := int(r.Labels[i]); c >= 0 && c < len(s.Data.Classes) {
				class = s.Data.Classes[c]
			}
		}
		b = csvRow(b, []string{strconv.Itoa(i + 1), class, part, num(r.Euclid[2*i]), num(r.Euclid[2*i+1]), num(r.Learned[2*i]), num(r.Learned[2*i+1])})
	}
	return string(b)
}

// RunJSON is the whole run as JSON: what a reader wants first (settings,
// dataset, status, test errors, A with the feature names, eigenvalues, the
// Δ_t history, the suspects, the edits), then "result", the rest of what
// the page shows, so that opening the file shows the run again. A collapsed
// metric's learned error is null (it would be a constant guess), as is the
// suspects' precision when no triplet was swapped; a collapsed metric has
// no suspects either (every margin is 0, or all but: a ranking would be by
// index, and the page shows none), nor their precision.
func (s *State) RunJSON() ([]byte, error) {
	return appendJSON(nil, runObject(s.Params, s.Result, s.Trace, s.Edits, s.Data, s.Read), "")
}

// runObject is a run as RunJSON writes it: settings p (the dataset an
// uploaded file when p.Dataset is ""), result r with its Δ_t history tr
// and edits ed, on dataset d read as read.
func runObject(p Params, r *protocol.Result, tr Trace, ed Edits, d *protocol.Dataset, read Read) obj {
	p = withoutView(p)
	var learned, precision any
	if !r.Collapsed {
		learned = r.ErrLearn
	}
	if !math.IsNaN(r.SuspectPrecision) && !r.Collapsed {
		precision = r.SuspectPrecision
	}
	var a, sus []any
	for i := 0; i < r.D; i++ {
		a = append(a, r.A[i*r.D:(i+1)*r.D])
	}
	for k := 0; !r.Collapsed && 3*k+2 < len(r.SuspectRows) && k < len(r.SuspectSwapped) && k < len(r.SuspectIndex); k++ {
		sus = append(sus, obj{{"index", r.SuspectIndex[k]}, {"x", r.SuspectRows[3*k] + 1}, {"y", r.SuspectRows[3*k+1] + 1},
			{"z", r.SuspectRows[3*k+2] + 1}, {"swapped", r.SuspectSwapped[k] == 1}})
	}
	return obj{
		{"format", RunFormat}, {"version", RunVersion},
		{"link", EncodeURL(p)},
		{"settings", obj{{"dataset", p.Dataset}, {"label", p.Label}, {"kSame", p.KSame}, {"kDiff", p.KDiff}, {"flip", p.Flip},
			{"eta", p.Eta}, {"lambda", p.Lambda}, {"method", p.Method}, {"tol", p.Tol}, {"seed", p.Seed},
			{"read", obj{{"missing", read.Missing}, {"exclude", read.Exclude}, {"oneHot", read.OneHot}, {"id", read.ID}}}}},
		{"dataset", obj{{"name", d.Name}, {"file", p.Dataset == ""}, {"sha256", d.SHA256}, {"rows", d.Rows},
			{"features", len(d.Features)}, {"label", d.LabelName}}},
		{"status", r.Status}, {"method", r.Method}, {"iterations", r.Iter}, {"gap", r.Gap}, {"relGap", r.RelGap},
		{"testError", obj{{"k", r.K}, {"euclidean", r.ErrEuclid}, {"learned", learned}}},
		{"collapsed", r.Collapsed}, {"budgetActive", r.BudgetActive},
		{"features", d.Features},
		{"A", a},
		{"eigenvalues", r.Eigen},
		{"trace", obj{{"iters", tr.Iters}, {"gaps", tr.Gaps}}},
		{"suspects", sus}, {"suspectPrecision", precision},
		{"edits", obj{{"drop", ed.Drop}, {"reverse", ed.Reverse}}},
		{"result", obj{{"dual", r.Dual}, {"primal", r.Primal}, {"sumQ", r.SumQ}, {"budget", r.Budget}, {"seconds", r.Seconds},
			{"warm", r.Warm}, {"triplets", r.Triplets}, {"swapped", r.Swapped}, {"dropped", r.Dropped}, {"reversed", r.Reversed},
			{"d", r.D}, {"n", r.N}, {"test", r.Test}, {"labels", r.Labels}, {"euclid", r.Euclid}, {"learned", r.Learned},
			{"qHist", r.QHist}, {"marginHist", r.MarginHist}}},
	}
}

// isRunFile says whether an opened file is a saved run rather than data.
func isRunFile(name, text string) bool {
	return strings.HasSuffix(strings.ToLower(name), ".json") || strings.HasPrefix(strings.TrimSpace(text), "{")
}

// ParseRun reads a file RunJSON wrote. The settings come from its link,
// through the link codec and its checks; the result must be whole: every
// size agrees with the next and every index is in range.
func ParseRun(text string) (*SavedRun, Params, error) { return ParseRunChecked(text, nil) }

// ParseRunChecked is ParseRun calling check as it reads (see
// parseJSONChecked): the page parses a large file in pieces, with its
// progress shown, and stops when check says so (its error is returned as
// it is).
func ParseRunChecked(text string, check func(done, total int) error) (*SavedRun, Params, error) {
	stopped := false
	if check != nil {
		inner := check
		check = func(done, total int) error {
			err := inner(done, total)
			stopped = err != nil
			return err
		}
	}
	v, err := parseJSONChecked(text, check)
	if stopped {
		return nil, Params{}, err
	}
	if err != nil {
		return nil, Params{}, errors.New("it is not JSON: " + err.Error())
	}
	return parseRun(v)
}

// IsRunFile says whether an opened file is a saved run rather than data.
func IsRunFile(name, text string) bool { return isRunFile(name, text) }

// parseRun reads a run from parsed JSON, as ParseRun says.
func parseRun(v any) (*SavedRun, Params, error) {
	g := &getter{}
	top := g.obj(v, "the file")
	if g.err != nil || top["format"] != RunFormat {
		return nil, Params{}, errors.New(`it has no "format": "` + RunFormat + `"; it is not a run saved by this page`)
	}
	if ver := g.int(top, "version"); g.err == nil && ver != RunVersion {
		return nil, Params{}, errors.New("it is a saved run of version " + strconv.Itoa(ver) + "; this page reads version " + strconv.Itoa(RunVersion))
	}
	run := &SavedRun{Link: g.str(top, "link")}
	// The reading choices (absent from runs saved before they were kept:
	// the defaults).
	if set, ok := top["settings"].(map[string]any); ok && set["read"] != nil {
		rd := g.obj(set["read"], `"read"`)
		run.Read = Read{Missing: g.str(rd, "missing"), Exclude: g.strs(rd, "exclude"), OneHot: g.strs(rd, "oneHot"), ID: g.str(rd, "id")}
	}
	data, errs, tr, ed, rest := g.obj(top["dataset"], "dataset"), g.obj(top["testError"], "testError"), g.obj(top["trace"], "trace"),
		g.obj(top["edits"], "edits"), g.obj(top["result"], "result")
	run.Dataset = SavedData{Name: g.str(data, "name"), SHA256: g.str(data, "sha256")}
	run.Dataset.File, _ = data["file"].(bool)
	run.Method, run.Iterations = g.str(top, "method"), g.int(top, "iterations")
	run.Trace = Trace{Iters: g.floats(tr, "iters"), Gaps: g.floats(tr, "gaps")}
	run.Edits = Edits{Drop: g.ints(ed, "drop"), Reverse: g.ints(ed, "reverse")}
	res := savedResult(g, top, errs, rest, run)
	if g.err != nil {
		return nil, Params{}, g.err
	}
	run.Result = res
	p, problems := DecodeURL(run.Link, DefaultParams)
	if len(problems) > 0 {
		return nil, Params{}, errors.New("its settings: " + strings.Join(problems, "; "))
	}
	if run.Dataset.File {
		// The link of a run on a file names no dataset (data= is written
		// only for a built-in one), and decoding it over the defaults
		// would name Iris: it was opened on Iris, and never on its file.
		p.Dataset = ""
	}
	run.Label = p.Label
	if m := run.Read.Missing; m != "" && m != "drop" && m != "mean" {
		return nil, Params{}, errors.New(`its "missing" is ` + strconv.Quote(m) + `: expected "", "drop" or "mean"`)
	}
	if err := checkRun(run); err != nil {
		return nil, Params{}, err
	}
	return run, p, nil
}

// savedResult reads a saved run's result from its top-level object, its
// "testError" (errs) and its "result" (rest); run has the fields read
// before it (method, iterations). g keeps the first error.
func savedResult(g *getter, top, errs, rest map[string]any, run *SavedRun) *protocol.Result {
	res := &protocol.Result{Method: run.Method, K: g.int(errs, "k"), ErrEuclid: g.num(errs, "euclidean"),
		Collapsed: g.bool(top, "collapsed"), Eigen: g.floats(top, "eigenvalues")}
	res.Status, res.Iter, res.Gap, res.RelGap, res.BudgetActive = g.str(top, "status"), run.Iterations, g.num(top, "gap"), g.num(top, "relGap"), g.bool(top, "budgetActive")
	res.Dual, res.Primal, res.SumQ, res.Budget, res.Seconds = g.num(rest, "dual"), g.num(rest, "primal"), g.num(rest, "sumQ"), g.num(rest, "budget"), g.num(rest, "seconds")
	res.Warm, res.Triplets, res.Swapped, res.Dropped, res.Reversed = g.bool(rest, "warm"), g.int(rest, "triplets"), g.int(rest, "swapped"), g.int(rest, "dropped"), g.int(rest, "reversed")
	res.D, res.N, res.Test, res.Labels = g.int(rest, "d"), g.int(rest, "n"), g.ints(rest, "test"), g.floats(rest, "labels")
	res.Euclid, res.Learned, res.QHist, res.MarginHist = g.floats(rest, "euclid"), g.floats(rest, "learned"), g.ints(rest, "qHist"), g.ints(rest, "marginHist")
	if !res.Collapsed {
		res.ErrLearn = g.num(errs, "learned")
	}
	res.SuspectPrecision = math.NaN()
	if top["suspectPrecision"] != nil {
		res.SuspectPrecision = g.num(top, "suspectPrecision")
	}
	rows, _ := top["A"].([]any)
	for i, row := range rows {
		res.A = append(res.A, g.list(row, `"A"[`+strconv.Itoa(i)+"]")...)
	}
	sus, _ := top["suspects"].([]any)
	for _, x := range sus {
		o := g.obj(x, "suspects")
		res.SuspectIndex = append(res.SuspectIndex, g.int(o, "index"))
		res.SuspectRows = append(res.SuspectRows, g.int(o, "x")-1, g.int(o, "y")-1, g.int(o, "z")-1)
		sw := 0
		if g.bool(o, "swapped") {
			sw = 1
		}
		res.SuspectSwapped = append(res.SuspectSwapped, sw)
	}
	return res
}

// checkRun checks what the page would draw from a saved run: every size,
// every row and triplet it names, every value finite.
func checkRun(run *SavedRun) error {
	res := run.Result
	switch {
	case res.D < 1 || len(res.A) != res.D*res.D || len(res.Eigen) != res.D:
		return errors.New("its matrix A is not " + strconv.Itoa(res.D) + " × " + strconv.Itoa(res.D) + " with as many eigenvalues")
	case res.N < 1 || len(res.Euclid) != 2*res.N || len(res.Learned) != 2*res.N || len(res.Labels) != res.N:
		return errors.New("its projections do not have one point per row (" + strconv.Itoa(res.N) + " rows)")
	case len(run.Trace.Iters) != len(run.Trace.Gaps):
		return errors.New("its Δ_t history has " + strconv.Itoa(len(run.Trace.Iters)) + " iterations but " + strconv.Itoa(len(run.Trace.Gaps)) + " gaps")
	}
	for _, i := range append(append([]int(nil), res.Test...), res.SuspectRows...) {
		if i < 0 || i >= res.N {
			return errors.New("it names row " + strconv.Itoa(i+1) + " of " + strconv.Itoa(res.N))
		}
	}
	// Everything the page draws from a result, as the worker's results are
	// checked (every size, range and finite value).
	if err := res.Check(); err != nil {
		return errors.New("its result: " + err.Error())
	}
	for _, v := range append(append([]float64(nil), run.Trace.Iters...), run.Trace.Gaps...) {
		if math.IsNaN(v) || math.IsInf(v, 0) || v < 0 {
			return errors.New("its Δ_t history holds " + strconv.FormatFloat(v, 'g', -1, 64) + ", not a finite number ≥ 0")
		}
	}
	// An edit names a triplet among those drawn: the run's, with the ones
	// it dropped.
	drawn := res.Triplets + res.Dropped
	for _, i := range append(append([]int(nil), run.Edits.Drop...), run.Edits.Reverse...) {
		if i < 0 || i >= drawn {
			return errors.New("its edits name triplet " + strconv.Itoa(i) + "; the run drew " + strconv.Itoa(drawn) + " (numbered from 0)")
		}
	}
	return nil
}

// getter reads typed fields out of parsed JSON; the first mismatch is
// kept in err (and later reads return zero values).
type getter struct{ err error }

func (g *getter) fail(where, want string) {
	if g.err == nil {
		g.err = errors.New(where + ": expected " + want)
	}
}

func (g *getter) obj(v any, where string) map[string]any {
	m, ok := v.(map[string]any)
	if !ok {
		g.fail(where, "an object")
	}
	return m
}

func (g *getter) str(m map[string]any, k string) string {
	v, ok := m[k].(string)
	if !ok {
		g.fail(strconv.Quote(k), "a string")
	}
	return v
}

func (g *getter) num(m map[string]any, k string) float64 {
	v, ok := m[k].(float64)
	if !ok {
		g.fail(strconv.Quote(k), "a number")
	}
	return v
}

func (g *getter) int(m map[string]any, k string) int {
	v := g.num(m, k)
	if v != math.Trunc(v) || math.Abs(v) > 1<<40 {
		g.fail(strconv.Quote(k), "a whole number")
		return 0
	}
	return int(v)
}

func (g *getter) bool(m map[string]any, k string) bool {
	v, ok := m[k].(bool)
	if !ok {
		g.fail(strconv.Quote(k), "true or false")
	}
	return v
}

// floats reads m[k], a list of numbers (null or absent: none).
func (g *getter) floats(m map[string]any, k string) []float64 { return g.list(m[k], strconv.Quote(k)) }

// list reads v, a list of numbers (nil: none), named where in errors.
func (g *getter) list(v any, where string) []float64 {
	if v == nil {
		return nil
	}
	a, ok := v.([]any)
	if !ok {
		g.fail(where, "a list of numbers")
		return nil
	}
	out := make([]float64, len(a))
	for i, x := range a {
		if out[i], ok = x.(float64); !ok {
			g.fail(where+"["+strconv.Itoa(i)+"]", "a number")
		}
	}
	return out
}

// strs reads m[k], a list of strings (null or absent: none).
func (g *getter) strs(m map[string]any, k string) []string {
	if m[k] == nil {
		return nil
	}
	a, ok := m[k].([]any)
	if !ok {
		g.fail(strconv.Quote(k), "a list of strings")
		return nil
	}
	out := make([]string, len(a))
	for i, x := range a {
		if out[i], ok = x.(string); !ok {
			g.fail(strconv.Quote(k)+"["+strconv.Itoa(i)+"]", "a string")
		}
	}
	return out
}

func (g *getter) ints(m map[string]any, k string) []int {
	fs := g.floats(m, k)
	out := make([]int, len(fs))
	for i, f := range fs {
		if f != math.Trunc(f) || math.Abs(f) > 1<<40 {
			g.fail(strconv.Quote(k)+"["+strconv.Itoa(i)+"]", "a whole number")
		}
		out[i] = int(f)
	}
	if fs == nil {
		return nil
	}
	return out
}

// csvRow appends one CSV record (RFC 4180, as encoding/csv writes it,
// which links fmt: the page does not): a field with a comma, a quote, a
// line break or a leading space is quoted, its quotes doubled.
func csvRow(b []byte, fields []string) []byte {
	for i, f := range fields {
		if i > 0 {
			b = append(b, ',')
		}
		if f == "" || !strings.ContainsAny(f, ",\"\r\n") && f[0] != ' ' && f[0] != '\t' {
			b = append(b, f...)
			continue
		}
		b = append(b, '"')
		b = append(b, strings.ReplaceAll(f, `"`, `""`)...)
		b = append(b, '"')
	}
	return append(b, '\n')
}

// FeatureName is feature i's name, or x1, x2, … when it has none.
func FeatureName(names []string, i int) string {
	if i >= 0 && i < len(names) {
		return names[i]
	}
	return "x" + strconv.Itoa(i+1)
}

func num(v float64) string { return strconv.FormatFloat(v, 'g', -1, 64) }

func withoutView(p Params) Params {
	p.View = View{}
	return p
}
