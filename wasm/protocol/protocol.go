// Package protocol is the typed, versioned message format between the page
// (ui/) and the solver's Web Worker (wasm/worker). It is defined once, here,
// and used by both sides.
//
// A message crosses postMessage as two parts: a compact binary header (every
// field except the large arrays, in the order each type's fields method
// lists them) and a list of float64 arrays; the glue sends both as
// transferable typed arrays. Encode splits a Message into those parts and
// Decode joins them again, checking the version, the kind, every length and
// every array's size, so that a malformed message is an error, never a
// panic. The codec uses neither reflection nor fmt, which keeps both wasm
// binaries small.
package protocol

import (
	"errors"
	"math"
	"strconv"
)

// Version is the protocol's version. Decode refuses any other.
const Version = 9

// Kind names what a message carries.
type Kind string

// Requests (page → worker) and replies (worker → page).
const (
	KindLoad  Kind = "load"  // request: read a built-in dataset or CSV text
	KindTrain Kind = "train" // request: learn a metric on the loaded dataset
	KindStop  Kind = "stop"  // request: stop the running training
	KindPing  Kind = "ping"  // request: say you are alive (a pong at once; nothing is cancelled)
	// request: read a triplet file for the loaded dataset
	KindTriplets Kind = "triplets"

	KindReady    Kind = "ready"    // reply: the worker is up; lists the built-in datasets
	KindDataset  Kind = "dataset"  // reply to load: a summary of the dataset
	KindProgress Kind = "progress" // reply to train, about 20 a second
	KindResult   Kind = "result"   // reply to train: the final state
	KindError    Kind = "error"    // reply to any request that failed
	// reply to triplets: what the file gave
	KindTripletSet Kind = "tripletset"
	KindPong       Kind = "pong" // reply to ping
)

// Message is one message. ID ties replies to their request (0 for ready).
// Exactly the body matching Kind is set; the others are nil.
type Message struct {
	V    int
	ID   int
	Kind Kind

	Load       *Load
	Train      *Train
	Triplets   *Triplets
	Ready      *Ready
	Dataset    *Dataset
	Progress   *Progress
	Result     *Result
	Error      *Error
	TripletSet *TripletSet
}

// Load asks for a dataset: a built-in one by name, or CSV text.
type Load struct {
	Builtin  string // name from Ready.Builtins
	CSV      string // the file's text, when Builtin is empty
	FileName string
	Label    string // label column: a header name or a 0-based index; "" = the last
	Missing  string // missing values: "" (refuse the file), "drop" (the rows) or "mean" (fill with the training mean)
	Exclude  []string
	OneHot   []string // columns to one-hot encode
	ID       string   // the id column, for a triplet file that names rows by id
	TestFrac float64  // share of rows held out for the test error
	Seed     uint64   // seed of the split
	// Rows asks for every row standardized in the reply (Dataset.Z): the
	// Ask-me mode on the data draws each row and measures its answers
	// with them.
	Rows bool
}

// Triplets asks to read a triplet file "anchor,similar,dissimilar" for the
// loaded dataset; Train with FromFile uses it.
type Triplets struct {
	CSV, FileName string
	By            string // "row0", "row1": file row numbers from 0 or 1; "id": values of the dataset's id column
}

// TripletSet is what a triplet file gave.
type TripletSet struct {
	FileName string
	Count    int // triplets read
	Used     int // of them among the training rows: what Train uses
	HeldOut  int // of them touching a held-out row, left out so that the test error stays honest
	Dropped  int // triplets naming a row dropped for a missing value, left out (not in Count)
}

// Train asks for a run on the loaded dataset.
type Train struct {
	KSame   int
	KDiff   int
	Flip    float64 // probability of swapping each triplet
	Seed    uint64  // seed of the swaps
	Eta     float64
	Lambda  float64
	Method  string // fast | nesterov | gradient
	Tol     float64
	MaxIter int
	Warm    bool // start from the last solution when the triplets are the same
	// FromFile trains on the triplet file read last (Triplets) instead of
	// label triplets: KSame and KDiff play no part, and Flip swaps them only
	// if it is set.
	FromFile bool
	// Edits to the triplets, by their index among those drawn (as
	// Result.SuspectIndex gives them): Drop leaves a triplet out, Unswap
	// puts a swapped one back the right way round. A warm start carries
	// over to the triplets kept.
	Drop, Reverse []int
	// Batch marks a run of Compare, a sweep or Step, whose progress the
	// page does not chart: its progress messages come at most every
	// session.BatchEvery, the first after that long too, so that a run of
	// a few tens of milliseconds sends only its last.
	Batch bool
	// Start, if set, is a best-case start another worker solved
	// (Result.Start): the worker keeps it before the run, if it was solved
	// on the same data and triplets, instead of solving it again.
	Start Start
}

// Start is a best-case start (core.BestStart): the η = 1 solution a worker
// solved for a batch's best case, which the page hands to its other
// workers with their next best-case run, so that the pool solves it once,
// as one worker does. Empty (no Q) when there is none. A and Q are arrays.
type Start struct {
	Lambda, Tol float64
	MaxIter     int
	Data        uint64    // the session's fingerprint of the data and triplets it was solved on
	A           []float64 // d×d, row-major
	Q           []float64 // one weight per triplet
}

// Empty says whether s carries no start.
func (s *Start) Empty() bool { return len(s.Q) == 0 }

// Ready is the worker's first message.
type Ready struct {
	Builtins []string
	// Kernels says what runs the solver's innermost loops: "WebAssembly
	// SIMD" (wasm/simd), or why Go's own loops do. Either gives the same
	// results, to the bit.
	Kernels string
}

// Dataset summarizes a loaded dataset.
type Dataset struct {
	Name        string
	Rows        int
	Features    []string
	Columns     []string // every column, the label's included, for the label choice
	LabelName   string
	Classes     []string
	ClassCounts []int
	Preview     [][]string // the first rows as read, header first when there is one
	Header      bool
	Dropped     int
	Train       int
	Test        int
	Notice      string
	SHA256      string // hex SHA-256 of the file's bytes (of the generated rows, for a synthetic set)
	Table              // every column, as the file has them
	Missing     int    // missing cells filled with the training mean (Load.Missing "mean")
	MissingRows int    // rows with such a cell
	IDName      string // the id column, if any

	// The Euclidean view, before any run (the same as a result's): the
	// rows held out, the 5-NN test error with K neighbours, and (arrays)
	// the first two principal components and each row's class index.
	Held      []int
	ErrEuclid float64
	K         int
	Euclid    []float64 // Rows×2, row-major
	Labels    []float64 // Rows class indices
	// Z, with Load.Rows, is every row standardized as the runs see it
	// (Rows × len(Features), row-major); empty otherwise.
	Z []float64
}

// Table describes the columns of a file (in Columns' order), for the
// column chooser: each one's kind ("number", "text", "empty"), role
// ("feature", "label", "one-hot", "id", "excluded"; "" when the file
// could not be read), distinct values (up to 13) and missing cells.
type Table struct {
	Kinds, Roles  []string
	Levels, Holes []int
}

// Progress is the state of a run. Iters and Gaps (arrays) hold every
// iteration since the previous progress message, so the page can draw the
// whole curve. The last progress of a run has Status set (as in Result): it
// is sent the moment the solver stops, before the result's views are
// computed, and carries the rest of the curve.
type Progress struct {
	// Phase is "neighbours" while the triplets are built (Done of Total
	// rows searched; the solver's fields are zero), "" once it solves.
	// A load reports "euclid" while it measures the Euclidean test error
	// (Done of Total held-out rows), its longest part on a large file.
	Phase        string
	Done, Total  int
	Status       string // "" while the run goes on
	Iter         int
	Gap          float64
	RelGap       float64
	Dual         float64
	Primal       float64
	SumQ         float64
	Budget       float64
	BudgetActive bool
	Seconds      float64
	Iters        []float64
	Gaps         []float64

	// A frame of the learned view while the run goes on (core's
	// Settings.Metric, a few a second; none in a batch's runs): Frame
	// (an array, Rows×2, row-major; empty when the message has no frame)
	// is every row's place under the run's best metric so far, turned to
	// lie as close as possible to the frame before it (core.AlignTo), and
	// FrameErr that metric's 5-NN test error (NaN when the metric is zero
	// to rounding: A = 0 has no learned error). FrameIter is the
	// iteration it belongs to.
	FrameIter int
	FrameErr  float64
	Frame     []float64
}

// Result is the final state of a run.
type Result struct {
	Progress  // the final state; Iters and Gaps are empty (the last progress had them)
	Method    string
	Warm      bool // whether the run started from the previous solution
	Triplets  int
	Swapped   int
	D         int
	N         int
	Test      []int // rows held out (their 2-D points are drawn hollow)
	ErrEuclid float64
	ErrLearn  float64
	K         int
	// Collapsed says the learned metric is zero to rounding: the worst
	// case found no metric better than none, every distance is 0, and
	// ErrLearn is a constant guess, not a learned metric's error.
	Collapsed bool

	// The triplets the metric least believes (largest hinge loss first):
	// SuspectRows holds (x, y, z) dataset rows for each of the first few,
	// SuspectSwapped 1 where that triplet was swapped by the injected noise.
	// SuspectPrecision is the share of swapped triplets among the first
	// Swapped suspects (NaN when none was swapped).
	SuspectRows       []int
	SuspectSwapped    []int
	SuspectIndex      []int // each suspect's index among the triplets drawn
	SuspectPrecision  float64
	Dropped, Reversed int // triplets the run left out or reversed (Train's edits)

	// The state of the solution, for the step view: QHist counts the
	// weights q_i that are 0, then those in each tenth of (0, 1] (empty
	// for a method without q); MarginHist counts the margins
	// tr(A K_i) below 0, in [0, ½), [½, 1), [1, 3/2) and from 3/2 on (a
	// triplet with margin < 1 has a positive hinge loss).
	QHist      []int
	MarginHist []int

	A       []float64 // d×d, row-major
	Eigen   []float64 // d, descending
	Euclid  []float64 // n×2, row-major
	Learned []float64 // n×2, row-major
	Labels  []float64 // n class indices

	// Start is the best-case start this batch run solved, if it solved
	// one, for the page to hand to its other workers (Train.Start).
	Start Start
}

// Error is a request that failed, in words for the user. A load that failed
// still carries the file's columns and first rows when they could be read,
// so the user can choose another label column.
type Error struct {
	Message string
	Columns []string
	Preview [][]string
	Header  bool
	Table
}

// codec is one direction of the header format: the encoder reads each
// field through its pointer, the decoder writes it. Every type lists its
// fields once, in fields, so the two directions cannot drift apart.
type codec interface {
	int(*int)
	u64(*uint64)
	f64(*float64)
	bool(*bool)
	str(*string)
	text(*string) // a file's text: not copied when decoded
	strs(*[]string)
	ints(*[]int)
	rows(*[][]string)
	decoding() bool
}

func (m *Load) fields(c codec) {
	c.str(&m.Builtin)
	c.text(&m.CSV)
	c.str(&m.FileName)
	c.str(&m.Label)
	c.str(&m.Missing)
	c.strs(&m.Exclude)
	c.strs(&m.OneHot)
	c.str(&m.ID)
	c.f64(&m.TestFrac)
	c.u64(&m.Seed)
	c.bool(&m.Rows)
}

func (m *Triplets) fields(c codec) {
	c.text(&m.CSV)
	c.str(&m.FileName)
	c.str(&m.By)
}

func (m *TripletSet) fields(c codec) {
	c.str(&m.FileName)
	c.int(&m.Count)
	c.int(&m.Used)
	c.int(&m.HeldOut)
	c.int(&m.Dropped)
}

func (m *Table) fields(c codec) {
	c.strs(&m.Kinds)
	c.strs(&m.Roles)
	c.ints(&m.Levels)
	c.ints(&m.Holes)
}

func (m *Train) fields(c codec) {
	c.int(&m.KSame)
	c.int(&m.KDiff)
	c.f64(&m.Flip)
	c.u64(&m.Seed)
	c.f64(&m.Eta)
	c.f64(&m.Lambda)
	c.str(&m.Method)
	c.f64(&m.Tol)
	c.int(&m.MaxIter)
	c.bool(&m.Warm)
	c.ints(&m.Drop)
	c.ints(&m.Reverse)
	c.bool(&m.FromFile)
	c.bool(&m.Batch)
	m.Start.fields(c)
}

func (m *Start) fields(c codec) {
	c.f64(&m.Lambda)
	c.f64(&m.Tol)
	c.int(&m.MaxIter)
	c.u64(&m.Data)
}

func (m *Ready) fields(c codec) {
	c.strs(&m.Builtins)
	c.str(&m.Kernels)
}

func (m *Dataset) fields(c codec) {
	c.str(&m.Name)
	c.int(&m.Rows)
	c.strs(&m.Features)
	c.strs(&m.Columns)
	c.str(&m.LabelName)
	c.strs(&m.Classes)
	c.ints(&m.ClassCounts)
	c.rows(&m.Preview)
	c.bool(&m.Header)
	c.int(&m.Dropped)
	c.int(&m.Train)
	c.int(&m.Test)
	c.str(&m.Notice)
	c.str(&m.SHA256)
	m.Table.fields(c)
	c.int(&m.Missing)
	c.int(&m.MissingRows)
	c.str(&m.IDName)
	c.ints(&m.Held)
	c.f64(&m.ErrEuclid)
	c.int(&m.K)
}

func (m *Progress) fields(c codec) {
	c.str(&m.Phase)
	c.int(&m.Done)
	c.int(&m.Total)
	c.str(&m.Status)
	c.int(&m.Iter)
	c.f64(&m.Gap)
	c.f64(&m.RelGap)
	c.f64(&m.Dual)
	c.f64(&m.Primal)
	c.f64(&m.SumQ)
	c.f64(&m.Budget)
	c.bool(&m.BudgetActive)
	c.f64(&m.Seconds)
	c.int(&m.FrameIter)
	c.f64(&m.FrameErr)
}

func (m *Result) fields(c codec) {
	m.Progress.fields(c)
	c.str(&m.Method)
	c.bool(&m.Warm)
	c.int(&m.Triplets)
	c.int(&m.Swapped)
	c.int(&m.D)
	c.int(&m.N)
	c.ints(&m.Test)
	c.f64(&m.ErrEuclid)
	c.f64(&m.ErrLearn)
	c.int(&m.K)
	c.ints(&m.SuspectRows)
	c.ints(&m.SuspectSwapped)
	c.f64(&m.SuspectPrecision)
	c.bool(&m.Collapsed)
	c.ints(&m.SuspectIndex)
	c.int(&m.Dropped)
	c.int(&m.Reversed)
	c.ints(&m.QHist)
	c.ints(&m.MarginHist)
	m.Start.fields(c)
}

func (m *Error) fields(c codec) {
	c.str(&m.Message)
	c.strs(&m.Columns)
	c.rows(&m.Preview)
	c.bool(&m.Header)
	m.Table.fields(c)
}

// body returns the fields method of the body Kind names, allocating the
// body when decoding; nil for stop and unknown kinds.
func (m *Message) body(c codec) func(codec) {
	switch m.Kind {
	case KindLoad:
		return fieldsOf(&m.Load, c)
	case KindTrain:
		return fieldsOf(&m.Train, c)
	case KindReady:
		return fieldsOf(&m.Ready, c)
	case KindDataset:
		return fieldsOf(&m.Dataset, c)
	case KindProgress:
		return fieldsOf(&m.Progress, c)
	case KindResult:
		return fieldsOf(&m.Result, c)
	case KindError:
		return fieldsOf(&m.Error, c)
	case KindTriplets:
		return fieldsOf(&m.Triplets, c)
	case KindTripletSet:
		return fieldsOf(&m.TripletSet, c)
	}
	return nil
}

// fieldsOf returns (*p).fields, first setting *p to a new T when decoding.
func fieldsOf[T any, PT interface {
	*T
	fields(codec)
}](p *PT, c codec) func(codec) {
	if c.decoding() {
		*p = new(T)
	}
	return (*p).fields
}

// arrays lists the large arrays of m in their fixed order.
func arrays(m *Message) []*[]float64 {
	switch m.Kind {
	case KindProgress:
		if m.Progress != nil {
			return []*[]float64{&m.Progress.Iters, &m.Progress.Gaps, &m.Progress.Frame}
		}
	case KindDataset:
		if d := m.Dataset; d != nil {
			return []*[]float64{&d.Euclid, &d.Labels, &d.Z}
		}
	case KindResult:
		if r := m.Result; r != nil {
			return []*[]float64{&r.Iters, &r.Gaps, &r.Frame, &r.A, &r.Eigen, &r.Euclid, &r.Learned, &r.Labels, &r.Start.A, &r.Start.Q}
		}
	case KindTrain:
		if t := m.Train; t != nil {
			return []*[]float64{&t.Start.A, &t.Start.Q}
		}
	}
	return nil
}

// Encode splits m into its header and its arrays. It sets m.V.
func Encode(m Message) (header []byte, data [][]float64, err error) {
	m.V = Version
	if err := m.check(); err != nil {
		return nil, nil, err
	}
	for _, a := range arrays(&m) {
		data = append(data, *a)
	}
	w := &writer{}
	w.int(&m.V)
	w.int(&m.ID)
	kind := string(m.Kind)
	w.str(&kind)
	if f := m.body(w); f != nil {
		f(w)
	}
	return w.b, data, nil
}

// Decode joins a header and its arrays into a message and checks it. The
// texts of files (Load.CSV, Triplets.CSV) share header's memory, which must
// not be changed afterwards.
func Decode(header []byte, data [][]float64) (Message, error) {
	var m Message
	r := &reader{b: header}
	r.int(&m.V)
	if r.err == nil && m.V != Version {
		return Message{}, errors.New("protocol: version " + strconv.Itoa(m.V) + ", want " + strconv.Itoa(Version))
	}
	r.int(&m.ID)
	var kind string
	r.str(&kind)
	m.Kind = Kind(kind)
	if r.err != nil {
		return Message{}, r.err
	}
	if !known[m.Kind] {
		return Message{}, errors.New("protocol: unknown kind " + strconv.Quote(kind))
	}
	if f := m.body(r); f != nil {
		f(r)
	}
	if r.err == nil && len(r.b) != 0 {
		r.err = errors.New("protocol: " + strconv.Itoa(len(r.b)) + " bytes left over after a " + kind + " message")
	}
	if r.err != nil {
		return Message{}, r.err
	}
	slots := arrays(&m)
	if len(data) != len(slots) {
		return Message{}, errors.New("protocol: " + kind + " carries " + strconv.Itoa(len(data)) + " arrays, want " + strconv.Itoa(len(slots)))
	}
	for i, a := range slots {
		*a = data[i]
	}
	return m, m.checkArrays()
}

var known = map[Kind]bool{KindLoad: true, KindTrain: true, KindStop: true, KindPing: true, KindPong: true, KindReady: true,
	KindDataset: true, KindProgress: true, KindResult: true, KindError: true, KindTriplets: true, KindTripletSet: true}

// check verifies that exactly the body matching Kind is set.
func (m *Message) check() error {
	if !known[m.Kind] {
		return errors.New("protocol: unknown kind " + strconv.Quote(string(m.Kind)))
	}
	set := map[Kind]bool{
		KindLoad: m.Load != nil, KindTrain: m.Train != nil, KindReady: m.Ready != nil, KindDataset: m.Dataset != nil,
		KindProgress: m.Progress != nil, KindResult: m.Result != nil, KindError: m.Error != nil,
		KindTriplets: m.Triplets != nil, KindTripletSet: m.TripletSet != nil,
	}
	n := 0
	for _, s := range set {
		if s {
			n++
		}
	}
	bare := m.Kind == KindStop || m.Kind == KindPing || m.Kind == KindPong // no body
	if (bare && n != 0) || (!bare && (!set[m.Kind] || n != 1)) {
		return errors.New("protocol: a " + string(m.Kind) + " message must carry its own body and no other")
	}
	return nil
}

// checkArrays verifies the arrays' lengths against the header.
func (m *Message) checkArrays() error {
	if d := m.Dataset; d != nil {
		return d.checkArrays()
	}
	if t := m.Train; t != nil {
		return t.Start.check()
	}
	if r := m.Result; r != nil {
		if err := r.Start.check(); err != nil {
			return err
		}
	}
	var p *Progress
	switch {
	case m.Progress != nil:
		p = m.Progress
	case m.Result != nil:
		p = &m.Result.Progress
	default:
		return nil
	}
	if len(p.Iters) != len(p.Gaps) {
		return errors.New("protocol: iterations and gaps differ in length")
	}
	if len(p.Frame)%2 != 0 || len(p.Frame) > 2<<22 {
		return errors.New("protocol: a frame of " + strconv.Itoa(len(p.Frame)) + " coordinates, not two a row")
	}
	if r := m.Result; r != nil {
		if err := r.Check(); err != nil {
			return errors.New("protocol: " + err.Error())
		}
	}
	return nil
}

// Check verifies everything a page draws from a result: its sizes (A is
// D×D with D eigenvalues, N rows with two coordinates in each view and a
// class each, the histograms of their fixed bins), every row it names in
// range, every number finite and every count, share and index where it can
// be. A saved run the page opens is checked by it too (store.ParseRun), so
// that nothing a file says can make the page index out of range or draw
// an infinite coordinate.
func (r *Result) Check() error {
	itoa := strconv.Itoa
	if r.D < 0 || r.N < 0 || r.D > 1<<12 || r.N > 1<<22 {
		return errors.New("bad result size " + itoa(r.N) + "×" + itoa(r.D))
	}
	switch {
	case len(r.A) != r.D*r.D:
		return errors.New("A has " + itoa(len(r.A)) + " entries, want " + itoa(r.D*r.D))
	case len(r.Eigen) != r.D:
		return errors.New(itoa(len(r.Eigen)) + " eigenvalues, want " + itoa(r.D))
	case len(r.Euclid) != 2*r.N || len(r.Learned) != 2*r.N:
		return errors.New("projections have " + itoa(len(r.Euclid)) + " and " + itoa(len(r.Learned)) + " coordinates, want " + itoa(2*r.N))
	case len(r.Labels) != r.N:
		return errors.New(itoa(len(r.Labels)) + " labels, want " + itoa(r.N))
	case len(r.QHist) != 0 && len(r.QHist) != QHistBins:
		return errors.New("a histogram of q with " + itoa(len(r.QHist)) + " bins, want " + itoa(QHistBins))
	case len(r.MarginHist) != 0 && len(r.MarginHist) != MarginHistBins:
		return errors.New("a histogram of margins with " + itoa(len(r.MarginHist)) + " bins, want " + itoa(MarginHistBins))
	case len(r.Iters) != len(r.Gaps):
		return errors.New("iterations and gaps differ in length")
	}
	for _, i := range append(r.Test[:len(r.Test):len(r.Test)], r.SuspectRows...) {
		if i < 0 || i >= r.N {
			return errors.New("row " + itoa(i) + " out of range [0," + itoa(r.N) + ")")
		}
	}
	if len(r.SuspectRows) != 3*len(r.SuspectSwapped) || len(r.SuspectIndex) != len(r.SuspectSwapped) {
		return errors.New(itoa(len(r.SuspectRows)) + " suspect rows for " + itoa(len(r.SuspectSwapped)) + " suspects")
	}
	for _, v := range r.Labels {
		if v != math.Trunc(v) || v < 0 || v >= 1<<20 {
			return errors.New("label " + strconv.FormatFloat(v, 'g', -1, 64) + " is not a class index")
		}
	}
	for _, c := range []struct {
		what string
		v    []int
	}{{"a count of q", r.QHist}, {"a count of margins", r.MarginHist}, {"a suspect's index", r.SuspectIndex}, {"a suspect's swap", r.SuspectSwapped},
		{"the triplets", []int{r.Triplets, r.Swapped, r.Dropped, r.Reversed, r.Iter, r.K}}} {
		for _, v := range c.v {
			if v < 0 {
				return errors.New(c.what + " is negative (" + itoa(v) + ")")
			}
		}
	}
	if r.Swapped > r.Triplets {
		return errors.New(itoa(r.Swapped) + " of " + itoa(r.Triplets) + " triplets swapped")
	}
	for _, a := range []struct {
		what string
		v    []float64
	}{{"A", r.A}, {"an eigenvalue", r.Eigen}, {"a Euclidean coordinate", r.Euclid}, {"a learned coordinate", r.Learned},
		{"a gap", r.Gaps}, {"an iteration", r.Iters}} {
		for _, v := range a.v {
			if math.IsNaN(v) || math.IsInf(v, 0) {
				return errors.New(a.what + " is " + strconv.FormatFloat(v, 'g', -1, 64))
			}
		}
	}
	for _, e := range []float64{r.ErrEuclid, r.ErrLearn} {
		if !(e >= 0 && e <= 1) {
			return errors.New("a test error of " + strconv.FormatFloat(e, 'g', -1, 64) + ", not a share")
		}
	}
	return nil
}

// The histograms' bins (Result.QHist, Result.MarginHist).
const (
	QHistBins      = 11
	MarginHistBins = 5
)

// checkArrays verifies a dataset's view against its row count: both
// arrays empty (no view) or of the right length, held-out rows in range.
func (d *Dataset) checkArrays() error {
	itoa := strconv.Itoa
	if d.Rows < 0 || d.Rows > 1<<22 {
		return errors.New("protocol: bad dataset size " + itoa(d.Rows))
	}
	if len(d.Euclid)+len(d.Labels) > 0 && (len(d.Euclid) != 2*d.Rows || len(d.Labels) != d.Rows) {
		return errors.New("protocol: the dataset's view has " + itoa(len(d.Euclid)) + " coordinates and " + itoa(len(d.Labels)) + " labels for " + itoa(d.Rows) + " rows")
	}
	if len(d.Z) != 0 && len(d.Z) != d.Rows*len(d.Features) {
		return errors.New("protocol: the dataset's rows have " + itoa(len(d.Z)) + " values for " + itoa(d.Rows) + " rows of " + itoa(len(d.Features)) + " features")
	}
	for _, i := range d.Held {
		if i < 0 || i >= d.Rows {
			return errors.New("protocol: held-out row " + itoa(i) + " out of range [0," + itoa(d.Rows) + ")")
		}
	}
	for _, v := range d.Labels {
		if v != math.Trunc(v) || v < 0 || int(v) >= len(d.Classes) {
			return errors.New("protocol: label " + strconv.FormatFloat(v, 'g', -1, 64) + " is not a class index")
		}
	}
	return nil
}

// check verifies a start's sizes: none, or a square metric (d ≤ 4,096) and
// at most 2²² weights. Its values are core's to check (BestStart.Check).
func (s *Start) check() error {
	itoa := strconv.Itoa
	d := int(math.Sqrt(float64(len(s.A))))
	switch {
	case len(s.A) == 0 && len(s.Q) == 0:
		return nil
	case d*d != len(s.A) || d == 0 || d > 1<<12:
		return errors.New("protocol: a start's metric has " + itoa(len(s.A)) + " entries, not d² for some d in [1, 4096]")
	case len(s.Q) == 0 || len(s.Q) > 1<<22:
		return errors.New("protocol: a start has " + itoa(len(s.Q)) + " weights")
	}
	return nil
}
