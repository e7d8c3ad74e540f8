// Package protocol is the typed, versioned message format between the page
// (ui/) and the solver's Web Worker (wasm/worker). It is defined once, here,
// and used by both sides.
//
// A message crosses postMessage as two parts: a JSON header (every field
// except the large arrays) and a list of float64 arrays, which the glue sends
// as transferable Float64Arrays. Encode splits a Message into those parts and
// Decode joins them again, checking the version, the kind and every array's
// length, so that a malformed message is an error, never a panic.
package protocol

import (
	"encoding/json"
	"errors"
	"fmt"
	"math"
)

// Version is the protocol's version. Decode refuses any other.
const Version = 1

// Kind names what a message carries.
type Kind string

// Requests (page → worker) and replies (worker → page).
const (
	KindLoad  Kind = "load"  // request: read a built-in dataset or CSV text
	KindTrain Kind = "train" // request: learn a metric on the loaded dataset
	KindStop  Kind = "stop"  // request: stop the running training

	KindReady    Kind = "ready"    // reply: the worker is up; lists the built-in datasets
	KindDataset  Kind = "dataset"  // reply to load: a summary of the dataset
	KindProgress Kind = "progress" // reply to train, about 20 a second
	KindResult   Kind = "result"   // reply to train: the final state
	KindError    Kind = "error"    // reply to any request that failed
)

// Message is one message. ID ties replies to their request (0 for ready).
// Exactly the body matching Kind is set; the others are nil.
type Message struct {
	V    int  `json:"v"`
	ID   int  `json:"id"`
	Kind Kind `json:"kind"`

	Load     *Load     `json:"load,omitempty"`
	Train    *Train    `json:"train,omitempty"`
	Ready    *Ready    `json:"ready,omitempty"`
	Dataset  *Dataset  `json:"dataset,omitempty"`
	Progress *Progress `json:"progress,omitempty"`
	Result   *Result   `json:"result,omitempty"`
	Error    *Error    `json:"error,omitempty"`
}

// Load asks for a dataset: a built-in one by name, or CSV text.
type Load struct {
	Builtin     string  `json:"builtin,omitempty"` // name from Ready.Builtins
	CSV         string  `json:"csv,omitempty"`     // the file's text, when Builtin is empty
	FileName    string  `json:"fileName,omitempty"`
	Label       string  `json:"label,omitempty"` // label column: name or 1-based index; "" = the last
	DropMissing bool    `json:"dropMissing,omitempty"`
	TestFrac    float64 `json:"testFrac"` // share of rows held out for the test error
	Seed        uint64  `json:"seed"`     // seed of the split
}

// Train asks for a run on the loaded dataset.
type Train struct {
	KSame   int     `json:"kSame"`
	KDiff   int     `json:"kDiff"`
	Flip    float64 `json:"flip"` // probability of swapping each triplet
	Seed    uint64  `json:"seed"` // seed of the swaps
	Eta     float64 `json:"eta"`
	Lambda  float64 `json:"lambda"`
	Method  string  `json:"method"` // fast | nesterov | gradient
	Tol     float64 `json:"tol"`
	MaxIter int     `json:"maxIter,omitempty"`
	Warm    bool    `json:"warm"` // start from the last solution when the triplets are the same
}

// Ready is the worker's first message.
type Ready struct {
	Builtins []string `json:"builtins"`
}

// Dataset summarizes a loaded dataset.
type Dataset struct {
	Name        string     `json:"name"`
	Rows        int        `json:"rows"`
	Features    []string   `json:"features"`
	Columns     []string   `json:"columns"` // every column, the label's included, for the label choice
	LabelName   string     `json:"labelName"`
	Classes     []string   `json:"classes"`
	ClassCounts []int      `json:"classCounts"`
	Preview     [][]string `json:"preview"` // the first rows as read, header first when there is one
	Header      bool       `json:"header"`
	Dropped     int        `json:"dropped"`
	Train       int        `json:"train"`
	Test        int        `json:"test"`
	Notice      string     `json:"notice,omitempty"`
}

// Progress is the state of a run. Iters and Gaps (arrays) hold every
// iteration since the previous progress message, so the page can draw the
// whole curve.
type Progress struct {
	Iter         int       `json:"iter"`
	Gap          float64   `json:"gap"`
	RelGap       float64   `json:"relGap"`
	Dual         float64   `json:"dual"`
	Primal       float64   `json:"primal"`
	SumQ         float64   `json:"sumQ"`
	Budget       float64   `json:"budget"`
	BudgetActive bool      `json:"budgetActive"`
	Seconds      float64   `json:"seconds"`
	Iters        []float64 `json:"-"`
	Gaps         []float64 `json:"-"`
}

// Result is the final state of a run.
type Result struct {
	Progress
	Status    string  `json:"status"` // converged | iteration limit | time limit | stopped | failed
	Method    string  `json:"method"`
	Warm      bool    `json:"warm"` // whether the run started from the previous solution
	Triplets  int     `json:"triplets"`
	Swapped   int     `json:"swapped"`
	D         int     `json:"d"`
	N         int     `json:"n"`
	Test      []int   `json:"test"` // rows held out (their 2-D points are drawn hollow)
	ErrEuclid float64 `json:"errEuclid"`
	ErrLearn  float64 `json:"errLearned"`
	K         int     `json:"k"`

	A       []float64 `json:"-"` // d×d, row-major
	Eigen   []float64 `json:"-"` // d, descending
	Euclid  []float64 `json:"-"` // n×2, row-major
	Learned []float64 `json:"-"` // n×2, row-major
	Labels  []float64 `json:"-"` // n class indices
}

// Error is a request that failed, in words for the user. A load that failed
// still carries the file's columns and first rows when they could be read,
// so the user can choose another label column.
type Error struct {
	Message string     `json:"message"`
	Columns []string   `json:"columns,omitempty"`
	Preview [][]string `json:"preview,omitempty"`
	Header  bool       `json:"header,omitempty"`
}

// arrays lists the large arrays of m in their fixed order.
func arrays(m *Message) []*[]float64 {
	switch m.Kind {
	case KindProgress:
		if m.Progress != nil {
			return []*[]float64{&m.Progress.Iters, &m.Progress.Gaps}
		}
	case KindResult:
		if r := m.Result; r != nil {
			return []*[]float64{&r.Iters, &r.Gaps, &r.A, &r.Eigen, &r.Euclid, &r.Learned, &r.Labels}
		}
	}
	return nil
}

// Encode splits m into its JSON header and its arrays. It sets m.V.
func Encode(m Message) (header []byte, data [][]float64, err error) {
	m.V = Version
	if err := m.check(); err != nil {
		return nil, nil, err
	}
	for _, a := range arrays(&m) {
		data = append(data, *a)
	}
	header, err = json.Marshal(m)
	return header, data, err
}

// Decode joins a header and its arrays into a message and checks it.
func Decode(header []byte, data [][]float64) (Message, error) {
	var m Message
	if err := json.Unmarshal(header, &m); err != nil {
		return Message{}, fmt.Errorf("protocol: bad header: %v", err)
	}
	if m.V != Version {
		return Message{}, fmt.Errorf("protocol: version %d, want %d", m.V, Version)
	}
	if err := m.check(); err != nil {
		return Message{}, err
	}
	slots := arrays(&m)
	if len(data) != len(slots) {
		return Message{}, fmt.Errorf("protocol: %s carries %d arrays, want %d", m.Kind, len(data), len(slots))
	}
	for i, a := range slots {
		*a = data[i]
	}
	return m, m.checkArrays()
}

// check verifies that exactly the body matching Kind is set.
func (m *Message) check() error {
	bodies := map[Kind]bool{
		KindLoad: m.Load != nil, KindTrain: m.Train != nil, KindStop: false,
		KindReady: m.Ready != nil, KindDataset: m.Dataset != nil, KindProgress: m.Progress != nil,
		KindResult: m.Result != nil, KindError: m.Error != nil,
	}
	want, ok := bodies[m.Kind]
	if !ok {
		return fmt.Errorf("protocol: unknown kind %q", m.Kind)
	}
	n := 0
	for _, set := range bodies {
		if set {
			n++
		}
	}
	if (m.Kind == KindStop && n != 0) || (m.Kind != KindStop && (!want || n != 1)) {
		return fmt.Errorf("protocol: a %s message must carry its own body and no other", m.Kind)
	}
	return nil
}

// checkArrays verifies the arrays' lengths against the header.
func (m *Message) checkArrays() error {
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
	r := m.Result
	if r == nil {
		return nil
	}
	if r.D < 0 || r.N < 0 || r.D > 1<<12 || r.N > 1<<22 {
		return fmt.Errorf("protocol: bad result size %d×%d", r.N, r.D)
	}
	switch {
	case len(r.A) != r.D*r.D:
		return fmt.Errorf("protocol: A has %d entries, want %d", len(r.A), r.D*r.D)
	case len(r.Eigen) != r.D:
		return fmt.Errorf("protocol: %d eigenvalues, want %d", len(r.Eigen), r.D)
	case len(r.Euclid) != 2*r.N || len(r.Learned) != 2*r.N:
		return fmt.Errorf("protocol: projections have %d and %d coordinates, want %d", len(r.Euclid), len(r.Learned), 2*r.N)
	case len(r.Labels) != r.N:
		return fmt.Errorf("protocol: %d labels, want %d", len(r.Labels), r.N)
	}
	for _, i := range r.Test {
		if i < 0 || i >= r.N {
			return fmt.Errorf("protocol: test row %d out of range [0,%d)", i, r.N)
		}
	}
	for _, v := range r.Labels {
		if v != math.Trunc(v) || v < 0 {
			return fmt.Errorf("protocol: label %v is not a class index", v)
		}
	}
	return nil
}
