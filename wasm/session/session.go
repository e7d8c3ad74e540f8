// Package session is the solver side of the worker protocol: it holds the
// loaded dataset, the triplets and the last solution, and turns decoded
// requests into replies by calling core. It does not touch syscall/js, so it
// is tested natively; wasm/worker only adds the message glue.
package session

import (
	"bytes"
	"context"
	"encoding/hex"
	"errors"
	"fmt"
	"math"
	"slices"
	"strconv"
	"strings"
	"time"
	"unsafe"

	"gonum.org/v1/gonum/mat"

	"github.com/rml-lab/rml/core"
	"github.com/rml-lab/rml/spec"
	"github.com/rml-lab/rml/wasm/protocol"
)

// Defaults of a session.
const (
	DefaultEvery      = 50 * time.Millisecond  // progress messages: about 20 a second
	DefaultFrameEvery = 200 * time.Millisecond // frames of the learned view: about 5 a second
	// BatchEvery is the least time between two progress messages of a
	// batch's run (protocol.Train.Batch), from its start.
	BatchEvery  = 250 * time.Millisecond
	previewRows = 6
	maxSuspects = 5 // suspects listed in a result
)

// builtin is a built-in dataset: a CSV file in assets, or a generator.
type builtin struct {
	name string
	file string
	make func() *core.Dataset
}

var builtins = []builtin{
	{name: "Iris", file: "iris.csv"},
	{name: "Wine", file: "wine.csv"},
	{name: "Sonar", file: "sonar.csv"},
	{name: "Ionosphere", file: "ionosphere.csv"},
	{name: "Heart", file: "heart.csv"},
	{name: SyntheticName, make: func() *core.Dataset { return Synthetic(1) }},
}

// Builtins lists the built-in datasets' names, in the order the page shows them.
func Builtins() []string {
	var names []string
	for _, b := range builtins {
		names = append(names, b.name)
	}
	return names
}

// Session is the worker's state. The zero value is not usable; call New.
type Session struct {
	// Every is the least time between two progress messages.
	Every time.Duration

	read func(file string) ([]byte, error) // a built-in dataset's file

	// FrameEvery is the least time between two frames of the learned view
	// (core.Settings.MetricEvery); 0: DefaultFrameEvery, or a millisecond
	// per row of the data if that is longer.
	FrameEvery time.Duration

	// YieldEvery and Yield go to core.Settings: how often the solver lets
	// the host's event loop run (so "stop" gets through), and how.
	YieldEvery time.Duration
	Yield      func()

	ds         *core.Dataset
	name       string
	train      []int
	test       []int
	generation int // counts loads, so a cached problem is never reused across datasets

	key problemKey
	// The label triplets of labelsKey before any swap: a change of the
	// swap rate or its seed draws new swaps on them instead of searching
	// the neighbours again.
	labelsKey problemKey
	labels    []core.Triplet
	base      []core.Triplet // the triplets of key as drawn (some swapped)
	baseSw    []bool         // which of base the noise swapped
	edits     string         // the edits prep has (canonical form of Drop and Reverse)
	keep      []int          // prep's triplet j is base[keep[j]]
	prep      *core.Prepared // the triplets of key with the edits, ready for any η and λ
	swapped   []bool         // which of prep's triplets are reversed from the labels' order
	warm      []float64      // q of the last run on prep
	starts    starts         // the best case's start for prep
	warmA     mat.Symmetric  // its metric: a warm restart's first primal point (any triplets, same d)
	nDrop     int
	nRev      int

	file    []core.Triplet // the triplet file read last, over the training rows (nil: none)
	fileGen int            // counts triplet files, so a problem of an old one is never reused

	// One standardizer, fitted on the training rows, maps every row.
	xAll          *mat.Dense // every row, standardized
	xTrain        *mat.Dense // the training rows of xAll
	yTrain, yTest []int      // the labels of the training and test rows

	// The Euclidean view and error depend only on the data and the split.
	euclid    []float64
	errEuclid float64
	// The learned view last drawn (a frame or a result): the next one is
	// turned to lie as close to it as it can (core.AlignTo), so that the
	// picture never flips or spins from one to the next.
	shown []float64
}

// euclidView computes the Euclidean projection and k-NN error once per
// standardized dataset.
func (s *Session) euclidView() error {
	if s.euclid != nil {
		return nil
	}
	view, e, err := s.euclidOf(context.Background(), s.xAll, s.train, s.test, s.yTrain, s.yTest, nil)
	if err != nil {
		return err
	}
	s.euclid, s.errEuclid = view, e
	return nil
}

// euclidOf is the Euclidean projection of the standardized rows xAll
// (n×2, row-major) and the k-NN error of the test rows among the training
// rows, the error's progress through progress (if not nil) and stopped
// with ctx's error when ctx is cancelled.
func (s *Session) euclidOf(ctx context.Context, xAll *mat.Dense, train, test, yTrain, yTest []int, progress func(done, total int)) ([]float64, float64, error) {
	pr, err := core.Project(xAll, nil, train)
	if err != nil {
		return nil, 0, err
	}
	var e float64
	if len(test) > 0 {
		k := min(spec.KNN, len(train))
		hooks := &core.Hooks{YieldEvery: s.YieldEvery, Yield: s.Yield, Progress: progress}
		if e, err = core.KNNErrorContext(ctx, hooks, nil, core.SelectRows(xAll, train), yTrain, core.SelectRows(xAll, test), yTest, k); err != nil {
			return nil, 0, err
		}
	}
	return pr.RawMatrix().Data, e, nil
}

type problemKey struct {
	generation   int
	file         int // the triplet file's fileGen; 0 for label triplets
	kSame, kDiff int
	flip         float64
	seed         uint64
}

// New returns a session with no dataset. read returns the bytes of a
// built-in dataset's file (iris.csv, …, as in assets/datasets/): the worker
// fetches them from the server, so they are not in its binary.
func New(read func(file string) ([]byte, error)) *Session {
	return &Session{Every: DefaultEvery, read: read}
}

// Load reads the dataset a Load request names and splits it.
func (s *Session) Load(req protocol.Load) (*protocol.Dataset, *protocol.Error) {
	return s.LoadContext(context.Background(), req, nil)
}

// LoadContext is Load, stopped when ctx is cancelled (the session then
// holds the data it held before), with the progress of its longest part,
// the Euclidean error, through progress (if not nil).
func (s *Session) LoadContext(ctx context.Context, req protocol.Load, progress func(done, total int)) (*protocol.Dataset, *protocol.Error) {
	if !(req.TestFrac >= 0 && req.TestFrac < 1) {
		return nil, &protocol.Error{Message: fmt.Sprintf("test share %v: expected a number in [0, 1)", req.TestFrac)}
	}
	missing, err := core.ParseMissing(req.Missing)
	if err != nil {
		return nil, &protocol.Error{Message: err.Error()}
	}
	check := core.NewCheck(ctx, &core.Hooks{YieldEvery: s.YieldEvery, Yield: s.Yield})
	opt := core.CSVOptions{Label: req.Label, Missing: missing, Exclude: req.Exclude, OneHot: req.OneHot, ID: req.ID, Check: check}
	ds, raw, name, e := s.readData(ctx, req, opt)
	if e != nil {
		return nil, e
	}
	train, test := core.StratifiedSplit(ds.Labels, req.TestFrac, req.Seed)
	// One standardizer, fitted on the training rows, maps every row; data
	// whose every feature is constant there is refused now, not at Train.
	st, xTrain, err := core.Standardize(ds.X, train)
	if err != nil {
		return nil, failed(err, raw, opt)
	}
	// The Euclidean view and error need no run: the page shows them now.
	// They are the load's longest part; until they are done the session
	// keeps the data it had.
	xAll, yTrain, yTest := st.Transform(ds.X), core.SelectLabels(ds.Labels, train), core.SelectLabels(ds.Labels, test)
	view, errEuclid, err := s.euclidOf(ctx, xAll, train, test, yTrain, yTest, progress)
	if ctx.Err() != nil {
		return nil, stopped(name)
	}
	if err != nil {
		return nil, failed(err, raw, opt)
	}
	s.ds, s.name, s.train, s.test = ds, name, train, test
	s.generation++
	s.shown = nil
	s.prep, s.warm, s.warmA, s.file, s.labels = nil, nil, nil, nil, nil
	// The labels of the two parts depend on the split only, not on the
	// triplets.
	s.xAll, s.xTrain, s.euclid, s.errEuclid = xAll, xTrain, view, errEuclid
	s.yTrain, s.yTest = yTrain, yTest
	d := s.described(ds, raw, st)
	if req.Rows {
		n, f := xAll.Dims()
		d.Z = make([]float64, 0, n*f)
		for i := range n {
			d.Z = append(d.Z, xAll.RawRowView(i)...)
		}
	}
	return d, nil
}

// readData reads the dataset a load asks for: a built-in one (made, or
// read from its file), or the request's CSV. raw is the file's bytes (nil
// for a made one), name what the page calls the data.
func (s *Session) readData(ctx context.Context, req protocol.Load, opt core.CSVOptions) (ds *core.Dataset, raw []byte, name string, e *protocol.Error) {
	name = req.FileName
	var err error
	if req.Builtin != "" {
		i := slices.IndexFunc(builtins, func(b builtin) bool { return b.name == req.Builtin })
		if i < 0 {
			return nil, nil, "", &protocol.Error{Message: fmt.Sprintf("no built-in dataset named %q; there are %s", req.Builtin, strings.Join(Builtins(), ", "))}
		}
		b := builtins[i]
		name = b.name
		if b.make != nil {
			return b.make(), nil, name, nil
		}
		if raw, err = s.read(b.file); err != nil {
			return nil, nil, "", &protocol.Error{Message: fmt.Sprintf("the built-in dataset %s could not be read: %v", b.name, err)}
		}
	} else {
		// The text's bytes, not a copy: nothing here changes them, and
		// protocol.Decode hands over the message's own memory.
		raw = unsafe.Slice(unsafe.StringData(req.CSV), len(req.CSV))
		if len(bytes.TrimSpace(raw)) == 0 {
			return nil, nil, "", &protocol.Error{Message: "the file is empty"}
		}
	}
	tooWide := func(n int) error {
		return fmt.Errorf("%d feature columns: this page takes at most %d, so that Stop is never more than a moment away; the command line (rml train) takes up to %d", n, spec.PageMaxFeatures, spec.MaxCols)
	}
	// A file wider than the command line's limit is refused by the
	// reader with that limit; the page says its own.
	if rows, _ := core.Peek(raw, 1); len(rows) > 0 && len(rows[0]) > spec.MaxCols+1 {
		return nil, nil, "", failed(tooWide(len(rows[0])-1), raw, opt)
	}
	ds, err = core.ReadCSV(bytes.NewReader(raw), opt)
	if ctx.Err() != nil {
		return nil, nil, "", stopped(name)
	}
	if err == nil && len(ds.Features) > spec.PageMaxFeatures {
		err = tooWide(len(ds.Features))
	}
	if err != nil {
		return nil, nil, "", failed(err, raw, opt)
	}
	return ds, raw, name, nil
}

// described is what the page is told of the data the session now holds:
// its size and columns, a preview, its hash, notes, and the Euclidean view
// and error.
func (s *Session) described(ds *core.Dataset, raw []byte, st *core.Standardizer) *protocol.Dataset {
	out := &protocol.Dataset{
		Name: s.name, Rows: ds.Rows(), Features: ds.Features, LabelName: ds.LabelName,
		Classes: ds.Classes, ClassCounts: ds.ClassCounts(), Header: ds.Header, Dropped: ds.Dropped,
		Train: len(s.train), Test: len(s.test), SHA256: contentHash(raw, ds),
		Missing: ds.Missing, MissingRows: ds.MissingRows, IDName: ds.IDName, Table: table(ds.Columns),
	}
	if raw != nil {
		out.Columns, out.Preview, _ = sniff(raw)
	} else {
		out.Columns = append(slices.Clone(ds.Features), ds.LabelName)
		out.Preview = [][]string{out.Columns}
		for i := 0; i < previewRows && i < ds.Rows(); i++ {
			var row []string
			for j := range ds.Features {
				row = append(row, strconv.FormatFloat(ds.X.At(i, j), 'f', 3, 64))
			}
			out.Preview = append(out.Preview, append(row, ds.Classes[ds.Labels[i]]))
		}
	}
	if !ds.Header && ds.Columns != nil {
		out.Columns = positional(len(ds.Columns))
	}
	var notes []string
	if c := st.ConstantColumns(); len(c) > 0 {
		var names []string
		for _, j := range c[:min(len(c), 5)] {
			names = append(names, strconv.Quote(ds.Features[j]))
		}
		if len(c) > 5 {
			names = append(names, "…")
		}
		notes = append(notes, fmt.Sprintf("%d constant feature column(s) (%s) carry no information and are ignored", len(c), strings.Join(names, ", ")))
	}
	notes = append(notes, ds.Notes...)
	if n, d := float64(len(s.train)), float64(len(ds.Features)); n*d*d >= spec.PageSlowWork {
		notes = append(notes, fmt.Sprintf("at %d training rows × %d features a run may take minutes in the page, which guesses how long as it starts; a tolerance of 1e-3 ends sooner, and the command line (rml train) is faster", len(s.train), len(ds.Features)))
	}
	out.Notice = strings.Join(notes, "; ")
	out.Held, out.ErrEuclid, out.K, out.Euclid = s.test, s.errEuclid, min(spec.KNN, len(s.train)), s.euclid
	out.Labels = make([]float64, ds.Rows())
	for i, c := range ds.Labels {
		out.Labels[i] = float64(c)
	}
	return out
}

// stopped is the error of a load stopped before it was done.
func stopped(name string) *protocol.Error {
	if name == "" {
		name = "the file"
	}
	return &protocol.Error{Message: "stopped reading " + name + "; the data before it stays"}
}

// failed is a load's error for the user, with what can still be read of
// the file: its columns, first rows and the kinds of its columns, so that
// another label or other columns can be chosen.
func failed(err error, raw []byte, opt core.CSVOptions) *protocol.Error {
	e := &protocol.Error{Message: err.Error()}
	if raw != nil {
		e.Columns, e.Preview, e.Header = sniff(raw)
		if cols := core.Inspect(raw, opt); len(cols) == len(e.Columns) {
			e.Table = table(cols)
		}
	}
	return e
}

// table describes the columns for the page.
func table(cols []core.Column) protocol.Table {
	var t protocol.Table
	for _, c := range cols {
		t.Kinds, t.Roles = append(t.Kinds, string(c.Kind)), append(t.Roles, string(c.Role))
		t.Levels, t.Holes = append(t.Levels, c.Levels), append(t.Holes, c.Missing)
	}
	return t
}

// sniff reads the first rows of a CSV file as text, for the preview and the
// label choice, even when the file cannot be read as a dataset; core.Peek
// splits and decides "header" as core.ReadCSV does.
func sniff(raw []byte) (columns []string, preview [][]string, header bool) {
	preview, header = core.Peek(raw, previewRows+1)
	if len(preview) == 0 {
		return nil, nil, false
	}
	if header {
		return preview[0], preview, true
	}
	return positional(len(preview[0])), preview, false
}

// positional names the columns of a file without a header as core does.
func positional(n int) []string {
	names := make([]string, n)
	for j := range names {
		names[j] = "x" + strconv.Itoa(j+1)
	}
	return names
}

// Train runs a Train request on the loaded dataset, sending progress
// messages (at most one per s.Every) through post, and returns the result
// or an error for the user. Cancelling ctx stops the run; the result then
// has status "stopped". It prepares the data (data), solves (solve) and
// computes what the page shows (views).
func (s *Session) Train(ctx context.Context, req protocol.Train, post func(*protocol.Progress)) (*protocol.Result, *protocol.Error) {
	fail := func(err error) (*protocol.Result, *protocol.Error) {
		return nil, &protocol.Error{Message: err.Error()}
	}
	if s.ds == nil {
		return fail(errors.New("no dataset is loaded"))
	}
	method, err := core.ParseMethod(req.Method)
	if err != nil {
		return fail(err)
	}
	// η and λ are checked by core.Solve (Problem.Validate), whose message
	// is the one the user sees; the rest here, by spec's ranges.
	for _, c := range []struct {
		r spec.Range
		v float64
	}{{spec.TolRange, req.Tol}, {spec.PageKRange.Named("k_same"), float64(req.KSame)}, {spec.PageKRange.Named("k_diff"), float64(req.KDiff)}, {spec.FlipRange, req.Flip}} {
		if err := c.r.Check(c.v); err != nil {
			return fail(err)
		}
	}
	if err := s.data(ctx, req, post); err != nil {
		return fail(err)
	}
	p := s.prep.Problem(req.Eta, req.Lambda)
	s.starts.on(s.prep)
	s.starts.offer(req.Start)
	warm := req.Warm && len(s.warm) == len(p.Triplets)
	if !warm {
		// A run from scratch starts its views from the Euclidean one; a
		// warm restart (or a step) goes on from the view last shown.
		s.shown = nil
	}
	res, err := s.solve(ctx, p, method, req, warm, post)
	if err != nil {
		return fail(err)
	}
	out, err := s.views(p, res)
	if err != nil {
		return fail(err)
	}
	out.Method, out.Warm = method.String(), warm
	if st := s.starts.keep(res); method == core.BestCase && req.Batch {
		// A start this batch run solved: the page hands it to its other
		// workers, so that none solves it again. (A start that did not
		// converge is not kept.)
		out.Start = st
	}
	return out, nil
}

// data prepares the triplets a request asks for (label triplets on the
// standardized training rows, some swapped, then the request's edits),
// unless they are the ones prepared last: a warm restart after η or λ
// changed reuses them, with their pair index and scales, and after an edit
// keeps the weights of the triplets it keeps.
func (s *Session) data(ctx context.Context, req protocol.Train, post func(*protocol.Progress)) error {
	key := problemKey{s.generation, 0, req.KSame, req.KDiff, req.Flip, req.Seed}
	if req.FromFile {
		if s.file == nil {
			return errors.New("no triplet file is loaded for this dataset: upload one, or draw the triplets from the labels")
		}
		key = problemKey{generation: s.generation, file: s.fileGen, flip: req.Flip, seed: req.Seed}
		if s.prep == nil || s.key != key {
			// Swapped only if asked (Flip > 0): the file's triplets as given.
			pp, swapped, err := core.PrepareSwapped(s.xTrain, s.file, req.Flip, req.Seed)
			if err != nil {
				return err
			}
			prev, prevWarm, extend := s.base, s.warm, s.prep != nil && s.key.file != 0 && s.key.generation == key.generation &&
				req.Flip == 0 && s.key.flip == 0 && s.edits == "" && len(s.warm) == len(s.base)
			s.setBase(key, pp, swapped)
			if extend && len(pp.Triplets) > len(prev) && slices.Equal(pp.Triplets[:len(prev)], prev) {
				// A file that extends the last one (the Ask-me mode's
				// answers, a few more each time): the weights found carry
				// over, the new triplets' start at 0 (a point of the new
				// problem's dual: its budget only grew).
				s.warm = append(slices.Clone(prevWarm), make([]float64, len(pp.Triplets)-len(prev))...)
			}
		}
		return s.edit(req.Drop, req.Reverse)
	}
	if s.prep == nil || s.key != key {
		// core.LabelData's two steps, with the triplets drawn kept: the
		// neighbour search is O(n²·d) (seconds on a 5,000-row file in the
		// page), the swaps and the preparation O(N).
		lk := problemKey{generation: s.generation, kSame: req.KSame, kDiff: req.KDiff}
		if s.labels == nil || s.labelsKey != lk {
			// The search reports its progress (the page shows it) and lets
			// Stop in between rows.
			hooks := &core.Hooks{YieldEvery: s.YieldEvery, Yield: s.Yield, Progress: func(done, total int) {
				post(&protocol.Progress{Phase: "neighbours", Done: done, Total: total})
			}}
			ts, err := core.LabelTripletsContext(ctx, hooks, s.xTrain, s.yTrain, s.ds.Classes, req.KSame, req.KDiff)
			if ctx.Err() != nil {
				post(&protocol.Progress{Status: spec.Stopped})
				return errors.New("stopped while finding neighbours")
			}
			if err != nil {
				return err
			}
			s.labelsKey, s.labels = lk, ts
		}
		pp, swapped, err := core.PrepareSwapped(s.xTrain, s.labels, req.Flip, req.Seed)
		if err != nil {
			return err
		}
		s.setBase(key, pp, swapped)
	}
	return s.edit(req.Drop, req.Reverse)
}

// setBase makes pp the triplets as drawn (or read), before any edit.
func (s *Session) setBase(key problemKey, pp *core.Prepared, swapped []bool) {
	s.key, s.prep, s.swapped, s.warm, s.warmA = key, pp, swapped, nil, nil
	s.base, s.baseSw, s.edits, s.nDrop, s.nRev = pp.Triplets, swapped, "", 0, 0
	s.keep = make([]int, len(pp.Triplets))
	for i := range s.keep {
		s.keep[i] = i
	}
}

// Triplets reads a triplet file for the loaded dataset: rows named by
// their number in the file (from 0 or 1) or by the id column's values.
// Triplets that touch a held-out row are left out of training, so that the
// test error stays honest; Train with FromFile uses the rest.
func (s *Session) Triplets(req protocol.Triplets) (*protocol.TripletSet, *protocol.Error) {
	fail := func(msg string) (*protocol.TripletSet, *protocol.Error) {
		return nil, &protocol.Error{Message: msg}
	}
	if s.ds == nil {
		return fail("no dataset is loaded: load the data the triplets are about first")
	}
	ds := s.ds
	keys := core.TripletKeys{N: ds.Rows(), Records: ds.Records, Total: ds.Rows() + ds.Dropped}
	switch req.By {
	case "row0":
	case "row1":
		keys.First = 1
	case "id":
		if ds.IDs == nil {
			return fail("the triplets name rows by id, but " + s.name + " has no id column: choose one under Columns, or name rows by number")
		}
		keys = core.TripletKeys{N: ds.Rows(), IDs: ds.IDs, DroppedIDs: ds.DroppedIDs}
	default:
		return fail(fmt.Sprintf("triplets by %q: expected row0, row1 or id", req.By))
	}
	if strings.TrimSpace(req.CSV) == "" {
		return fail(req.FileName + ": the file is empty")
	}
	// A triplet naming a row the load dropped (for a missing value) is
	// left out and counted, as one touching a held-out row is.
	ts, dropped, err := core.ReadTripletsSkipping(strings.NewReader(req.CSV), keys)
	if err != nil {
		return fail(req.FileName + ": " + err.Error())
	}
	pos := make([]int, ds.Rows()) // a row's index among the training rows, −1 if held out
	for i := range pos {
		pos[i] = -1
	}
	for k, i := range s.train {
		pos[i] = k
	}
	var used []core.Triplet
	for _, t := range ts {
		if i, j, k := pos[t.I], pos[t.J], pos[t.K]; i >= 0 && j >= 0 && k >= 0 {
			used = append(used, core.Triplet{I: i, J: j, K: k})
		}
	}
	out := &protocol.TripletSet{FileName: req.FileName, Count: len(ts), Used: len(used), HeldOut: len(ts) - len(used), Dropped: dropped}
	if len(used) == 0 {
		return fail(fmt.Sprintf("%s: each of its %d triplets touches a row held out for the test error, so none is left to train on", req.FileName, len(ts)))
	}
	s.file, s.fileGen = used, s.fileGen+1
	return out, nil
}

// edit applies the edits to the drawn triplets, if they differ from the
// ones prepared: dropped triplets leave, reversed ones exchange y and z.
// The last solution's weights carry over to the triplets kept unchanged.
func (s *Session) edit(drop, reverse []int) error {
	n := len(s.base)
	op := make([]byte, n) // 0 keep, 1 drop, 2 reverse
	for _, l := range []struct {
		idx  []int
		code byte
		what string
	}{{drop, 1, "drop"}, {reverse, 2, "reverse"}} {
		for _, i := range l.idx {
			if i < 0 || i >= n {
				return fmt.Errorf("cannot %s triplet %d: there are %d (numbered from 0)", l.what, i, n)
			}
			op[i] = l.code
		}
	}
	key := string(op)
	if s.edits == key || (s.edits == "" && !slices.ContainsFunc(op, func(b byte) bool { return b != 0 })) {
		return nil
	}
	var (
		ts      []core.Triplet
		keep    []int
		swapped []bool
		nd, nr  int
	)
	for i, t := range s.base {
		sw := s.baseSw[i]
		switch op[i] {
		case 1:
			nd++
			continue
		case 2:
			nr++
			t.J, t.K = t.K, t.J
			sw = !sw
		}
		ts, keep, swapped = append(ts, t), append(keep, i), append(swapped, sw)
	}
	if len(ts) == 0 {
		return errors.New("every triplet was dropped; keep at least one")
	}
	pp, err := core.Prepare(s.xTrain, ts)
	if err != nil {
		return err
	}
	// The weights of the triplets kept as they were carry over.
	var warm []float64
	if s.warm != nil {
		was := make(map[int]float64, len(s.keep))
		oldOp := []byte(s.edits)
		for j, i := range s.keep {
			if len(oldOp) == 0 || oldOp[i] == 0 {
				was[i] = s.warm[j]
			}
		}
		warm = make([]float64, len(ts))
		for j, i := range keep {
			if op[i] == 0 {
				warm[j] = was[i]
			}
		}
	}
	s.prep, s.keep, s.swapped, s.warm, s.edits, s.nDrop, s.nRev = pp, keep, swapped, warm, key, nd, nr
	return nil
}

// solve runs the solver on p, posting the trace as it goes and, the moment
// it stops, a last progress with the status and the rest of the curve (the
// views take a few more milliseconds).
func (s *Session) solve(ctx context.Context, p *core.Problem, method core.Method, req protocol.Train, warm bool, post func(*protocol.Progress)) (*core.Result, error) {
	settings := core.Settings{Method: method, Tol: req.Tol, MaxIter: req.MaxIter, YieldEvery: s.YieldEvery, Yield: s.Yield, BestStart: s.starts.start}
	if warm {
		settings.Warm = s.warm
		if method == core.Fast && s.warmA != nil {
			// The last run's metric bounds the gap from the first
			// iteration: a restart to a tighter tolerance goes on from
			// the gap it stopped at instead of from A(q)'s.
			settings.Start = s.warmA
		}
	}
	var (
		iters, gaps []float64
		last        time.Time
	)
	every := s.Every
	if req.Batch {
		every, last = max(every, BatchEvery), time.Now()
	}
	send := func(msg *protocol.Progress) {
		last = time.Now()
		msg.Iters, msg.Gaps = iters, gaps
		iters, gaps = nil, nil
		post(msg)
	}
	settings.Progress = func(pr core.Progress) bool {
		iters = append(iters, float64(pr.Iter))
		gaps = append(gaps, pr.Gap)
		if time.Since(last) >= every {
			msg := progress(pr)
			send(&msg)
		}
		return true
	}
	if !req.Batch {
		// The learned view as it learns: a frame a few times a second,
		// at a twentieth of the run's time at most (core's spacing).
		// The page draws every row of a frame on its main thread, which
		// shares the machine with the solver: a frame a millisecond per
		// row at least (200 ms for the built-in sets, 5 s for 5,000 rows)
		// keeps what drawing frames costs a second about the same
		// whatever the size.
		settings.MetricEvery = s.FrameEvery
		if s.FrameEvery == 0 {
			settings.MetricEvery = max(DefaultFrameEvery, time.Duration(s.ds.Rows())*time.Millisecond)
		}
		settings.Metric = func(pr core.Progress, a *mat.SymDense) {
			lv, err := s.learnedView(a, func(top float64) bool {
				return p.CollapsedResult(top, &core.Result{Progress: pr, Method: method})
			})
			if err != nil {
				return // a frame is only a picture: the run goes on
			}
			msg := progress(pr)
			msg.FrameIter, msg.FrameErr, msg.Frame = pr.Iter, lv.err, lv.xy
			send(&msg)
		}
	}
	res, err := core.Solve(ctx, p, settings)
	if err != nil {
		return nil, err
	}
	if res.Status == core.Converged {
		// Whether A collapsed to 0 is decided by the certificate: where
		// the tolerance left it in doubt, the run goes on closer (views
		// then reads the verdict from the closer run, CollapsedResult).
		closer := settings
		closer.Progress, closer.Metric = nil, nil
		decided, _, err := core.DecideCollapse(ctx, p, res, closer)
		if err != nil && ctx.Err() == nil {
			return nil, err
		}
		res = decided // stopped meanwhile: the last run that ended
	}
	s.warm, s.warmA = res.Q, res.A
	final := progress(res.Progress)
	final.Status, final.Iters, final.Gaps = status(res.Status), iters, gaps
	post(&final)
	return res, nil
}

// status is a run's status as the page names it: a cancelled run was
// stopped by the user.
func status(st core.Status) string {
	if st == core.Cancelled {
		return spec.Stopped
	}
	return st.String()
}

// views computes what the page shows of a result: A and its eigenvalues,
// both projections, both test errors and the suspects.
func (s *Session) views(p *core.Problem, res *core.Result) (*protocol.Result, error) {
	out := &protocol.Result{Progress: progress(res.Progress),
		Triplets: len(p.Triplets), D: len(s.ds.Features), N: s.ds.Rows(), Test: s.test}
	out.Status = status(res.Status)
	for _, w := range s.swapped {
		if w {
			out.Swapped++
		}
	}
	d, n := out.D, out.N
	out.A = make([]float64, 0, d*d)
	for i := range d {
		for j := range d {
			out.A = append(out.A, res.A.At(i, j))
		}
	}
	if err := s.euclidView(); err != nil {
		return nil, err
	}
	out.Euclid = s.euclid
	lv, err := s.learnedView(res.A, func(top float64) bool { return p.CollapsedResult(top, res) })
	if err != nil {
		return nil, err
	}
	out.Eigen, out.Collapsed, out.Learned = lv.eigen, lv.collapsed, lv.xy
	out.Labels = make([]float64, n)
	for i, c := range s.ds.Labels {
		out.Labels[i] = float64(c)
	}
	out.K = min(spec.KNN, len(s.train))
	// The suspects: rank the triplets by their loss under A.
	list, precision := core.Suspects(p, res.A, s.swapped)
	out.SuspectPrecision = precision
	for _, sp := range list[:min(maxSuspects, len(list))] {
		t := p.Triplets[sp.Index]
		out.SuspectRows = append(out.SuspectRows, s.train[t.I], s.train[t.J], s.train[t.K])
		sw := 0
		if sp.Swapped {
			sw = 1
		}
		out.SuspectSwapped = append(out.SuspectSwapped, sw)
		out.SuspectIndex = append(out.SuspectIndex, s.keep[sp.Index])
	}
	out.Dropped, out.Reversed = s.nDrop, s.nRev
	out.QHist, out.MarginHist = histograms(res, list)
	if len(s.test) > 0 {
		out.ErrEuclid, out.ErrLearn = s.errEuclid, lv.err
		if lv.collapsed {
			// A = 0's "error" (every distance 0: a constant guess), which
			// the view did not count; the page shows none.
			if out.ErrLearn, err = s.knnError(lv.mapped); err != nil {
				return nil, err
			}
		}
	}
	return out, nil
}

// learned is the learned view of a metric A: its eigenvalues (descending),
// whether it is zero to rounding (collapsed), every row mapped by A^{1/2},
// the rows' 2-D places, and its 5-NN test error (NaN when collapsed).
type learned struct {
	eigen     []float64
	collapsed bool
	mapped    *mat.Dense
	xy        []float64
	err       float64
}

// learnedView computes the learned view of a, turned to lie as close as it
// can to the view shown before it (the Euclidean one, for a run's first),
// which it then becomes; collapsed says whether a metric whose largest
// eigenvalue is top is zero to rounding.
func (s *Session) learnedView(a mat.Symmetric, collapsed func(top float64) bool) (learned, error) {
	// Map every row by A^{1/2} once: Euclidean geometry of the mapped rows
	// is the learned metric's, for both the picture and k-NN.
	var root mat.SymDense
	eig, err := core.SqrtTo(&root, a)
	if err != nil {
		return learned{}, err
	}
	lv := learned{eigen: eig, collapsed: len(eig) > 0 && collapsed(eig[0]), err: math.NaN()}
	lv.mapped = &mat.Dense{}
	lv.mapped.Mul(s.xAll, &root)
	pr, err := core.Project(lv.mapped, nil, s.train)
	if err != nil {
		return learned{}, err
	}
	if lv.collapsed {
		// A = 0 to the certificate's precision: every row maps to one
		// point, and the page says so. A metric left short of 0 (a warm
		// start once ended at one of norm 1e-3: TestNearZeroIsCollapsed)
		// would otherwise be drawn scaled up to fill the view, a picture
		// of structure the result says is not there.
		pr.Zero()
	} else {
		ref := s.shown
		if ref == nil {
			if err := s.euclidView(); err != nil {
				return learned{}, err
			}
			ref = s.euclid
		}
		core.AlignTo(pr, pr, mat.NewDense(len(ref)/2, 2, ref))
		if len(s.test) > 0 {
			if lv.err, err = s.knnError(lv.mapped); err != nil {
				return learned{}, err
			}
		}
	}
	lv.xy = pr.RawMatrix().Data
	s.shown = lv.xy
	return lv, nil
}

// knnError is the 5-NN test error of rows already mapped by A^{1/2}.
func (s *Session) knnError(mapped *mat.Dense) (float64, error) {
	return core.KNNError(nil, core.SelectRows(mapped, s.train), s.yTrain, core.SelectRows(mapped, s.test), s.yTest, min(spec.KNN, len(s.train)))
}

// histograms counts the weights q_i (0, then each tenth of (0, 1]) when the
// method has them, and the margins tr(A K_i) in the bins protocol.Result
// names.
func histograms(res *core.Result, list []core.Suspect) (qh, mh []int) {
	switch res.Method {
	case core.Fast, core.Nesterov, core.Gradient:
		qh = make([]int, 11)
		for _, q := range res.Q {
			b := 0
			if q > 0 {
				b = 1 + min(9, int(q*10-1e-12))
			}
			qh[b]++
		}
	}
	mh = make([]int, 5)
	for _, sp := range list {
		switch m := sp.Margin; {
		case m < 0:
			mh[0]++
		case m < 0.5:
			mh[1]++
		case m < 1:
			mh[2]++
		case m < 1.5:
			mh[3]++
		default:
			mh[4]++
		}
	}
	return qh, mh
}

func progress(p core.Progress) protocol.Progress {
	return protocol.Progress{Iter: p.Iter, Gap: p.Gap, RelGap: p.RelGap, Dual: p.Dual, Primal: p.Primal,
		SumQ: p.SumQ, Budget: p.Budget, BudgetActive: p.BudgetActive, Seconds: p.Elapsed.Seconds()}
}

// contentHash is the hex SHA-256 of a file's bytes, or, for a generated
// dataset (raw nil), of its rows written as CSV (features then the label,
// shortest round-trip decimals): a saved run names its data by it.
func contentHash(raw []byte, ds *core.Dataset) string {
	if raw == nil {
		r, c := ds.X.Dims()
		for i := 0; i < r; i++ {
			for j := 0; j < c; j++ {
				raw = strconv.AppendFloat(raw, ds.X.At(i, j), 'g', -1, 64)
				raw = append(raw, ',')
			}
			raw = append(append(raw, ds.Classes[ds.Labels[i]]...), '\n')
		}
	}
	sum := sha256Sum(raw)
	return hex.EncodeToString(sum[:])
}
