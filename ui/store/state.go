// Package store is the page's state and the one reducer that changes it:
// components dispatch plain action structs, Reduce returns the new state and
// the requests to send to the worker. It has no DOM code, so it is tested
// natively.
package store

import (
	"strconv"
	"strings"

	"github.com/rml-lab/rml/spec"
	"github.com/rml-lab/rml/wasm/protocol"
)

// Status is what the page shows in its status line.
type Status string

// The statuses (the data-testid="status" texts).
const (
	Idle      Status = "idle"
	Running   Status = "running"
	Converged Status = spec.Converged
	// Collapsed: the run converged to A = 0, the worst case's "no metric
	// beats trusting none": never shown as a plain "converged".
	Collapsed Status = "collapsed"
	Stopped   Status = spec.Stopped
	Error     Status = "error"
)

// Params are the user's settings: what a shared link carries.
type Params struct {
	Dataset string  // built-in dataset; "" for an uploaded file
	Label   string  // label column of an uploaded file; "" = the last
	KSame   int     // same-class neighbours per point
	KDiff   int     // other-class neighbours per point
	Flip    float64 // probability of swapping each triplet
	Eta     float64 // share of triplets trusted, η
	Lambda  float64 // regularization λ
	Method  string  // fast | nesterov | gradient
	Tol     float64 // relative duality gap to stop at
	Seed    uint64  // seed of the split and the swaps
	Preset  string  // the lesson these settings came from, if any (Presets)
	Ask     string  // the Ask-me mode's item set (AskSets); "" when the page is not in it
	View    View    // how the page is laid out (a link carries it too)
}

// View is how the page shows itself, not what it computes: a lesson leaves
// it alone.
type View struct {
	Embed bool   // compact, for an iframe: results first, settings folded
	Hide  string // panels and controls not shown: names from Hideable, comma-separated, in its order
	// Idle (autorun=0) opens the page waiting for Train; by default every
	// link, a reload and an embed train at once.
	Idle bool
}

// Hideable are the names hide= takes: the panels, then single controls.
var Hideable = []string{
	"lesson", "guide", "data", "side", "params", "chart", "projection", "result", "compare", "sweep", // panels
	"dataset", "upload", "noise", "eta", "lambda", "method", "tol", "seed", "steps", "share", // controls
}

// Hides reports whether the view hides the panel or control name.
func (v View) Hides(name string) bool {
	for _, h := range strings.Split(v.Hide, ",") {
		if h == name {
			return true
		}
	}
	return false
}

// DefaultParams are the page's defaults: the paper's settings on Iris.
var DefaultParams = Params{Dataset: "Iris", KSame: spec.KSame, KDiff: spec.KDiff, Flip: 0, Eta: spec.Eta, Lambda: spec.Lambda, Method: spec.Fast, Tol: spec.Tol, Seed: 1}

// TestFrac is the share of rows held out for the test error (the paper's 15%).
const TestFrac = spec.TestFrac

// State is everything the page shows.
type State struct {
	Params   Params
	Builtins []string // from the worker
	Kernels  string   // what runs the solver's innermost loops (protocol.Ready)
	Ready    bool     // the worker is up

	FileName  string // uploaded file, if Params.Dataset == ""
	CSV       string // its text, kept so a new label choice can re-read it
	Loading   bool
	LoadID    int // request id of the load in flight or last done
	LoadDone  int // of LoadTotal: how far the load in flight has got (its Euclidean error's rows)
	LoadTotal int
	Opening   string // a saved run being read (RunReading), "" if none
	OpenDone  int    // of OpenTotal bytes read
	OpenTotal int
	OpenSeq   int               // counts the saved runs read, so that a stopped one's answer is dropped
	Data      *protocol.Dataset // the loaded dataset, nil if none
	Failed    *Failed           // a file that could not be read; Data is still the dataset before it
	Columns   []string          // columns of the last file read (Failed's, if set)
	Preview   [][]string        // its first rows
	Header    bool
	Table     protocol.Table // kinds, roles, levels and holes of Columns
	Read      Read           // how the current file is read (columns, missing values)
	loading   source         // what the load in flight reads

	// Triplets from a file: the file, how it names rows ("row0", "row1",
	// "id"), what the worker read of it, and whether runs use it.
	TripletFile     *TripletFile
	TripletsBy      string
	Triplets        *protocol.TripletSet
	FromFile        bool
	TripletsLoading bool
	tripletsID      int
	tripletsFirst   bool
	tripletsBefore  *TripletFile // the file in use while a new one is read

	Status    Status
	RunID     int // request id of the current or last run
	Trace     Trace
	Errors    ErrorTrace        // the learned metric's test error over the run (frames, then the result)
	Frame     *Frame            // the learned view of the run going on, its latest frame; nil when none
	Last      protocol.Progress // the latest progress
	Result    *protocol.Result  // the last finished run
	ResultOf  int               // the run id Result belongs to
	Version   int               // counts results, for components that redraw only on a new one
	Pending   bool              // a run waits for the dataset to load
	Message   string
	Notice    bool   // Message is a notice, not an error
	MessageAt string // where Message is shown: AtTop, or beside the file it is about (AtData, AtSide)
	Restarts  int    // times the worker was restarted

	Ask *Ask // the Ask-me mode; nil when the page is not in it

	Pinned     []Run // runs kept as columns (Pin, Compare)
	Queue      []Job // the jobs of a Compare, a sweep or Step after the current one
	Job        *Job  // what the current run is for; nil for a plain Train
	Helpers    []int // lanes of the helper workers that hold the current data
	HelperRuns int   // runs started on a helper, for the figures and tests
	Sweep      Sweep
	// HiddenSeries are the learners whose series the sweep's legend hid.
	HiddenSeries []string
	Edits        Edits                      // triplets dropped or reversed by the user
	Steps        int                        // iterations done by Step since the last full run
	Shared       *Shared                    // the last link or embed code given by Copy link / Copy embed code
	opening      *SavedRun                  // a saved run (or a restored session) waiting for its dataset to load
	restoredMsg  string                     // the message that says what was restored (OffersFresh)
	lanes        lanes                      // the batch Job and Queue point into, and its runs' lanes
	held         map[int][]protocol.Message // messages of batch runs ahead of the cursor
	took         map[jobKey]float64         // seconds each sweep run took last, for longestFirst
	start        protocol.Start             // the best-case start a batch run solved last (Result.Start)
	startLanes   map[int]bool               // the lanes that have it: the one that solved it, those it was sent to
	startFlip    float64                    // the noise rate of the run that solved it
	nextID       int
	pins         int    // runs pinned so far: the next pinned run's ID
	awaiting     bool   // the run has ended; its result is on the way
	restarted    bool   // the message says the worker was restarted; keep it past the reload
	linkNote     bool   // the message says what a link held that was ignored; keep it past the load
	keepNote     bool   // the message is a notice about the data or the link: a run does not clear it
	at           string // where this action's message goes (Reduce sets MessageAt from it)
}

// Where the page shows its message: at the top, or in the panel of the
// file it is about (a data file's errors and notes in the Data panel, a
// triplet file's in the side-information panel).
const (
	AtTop  = ""
	AtData = "data"
	AtSide = "side"
)

// Shared is a link or an embed snippet the page gave out.
type Shared struct {
	Kind   string // "link" or "embed"
	Text   string
	Copied bool // it is on the clipboard (else the user copies it from the box)
	File   bool // the settings are for an uploaded file, which a link cannot carry
}

// Failed is a file that could not be read as a dataset.
type Failed struct {
	FileName, CSV string
	Label         string // the label column it was read with ("" = the last)
	Read          Read   // and its reading
}

// Read is how a file is read: what the column chooser and the
// missing-value choice set. Columns are named as the label choice names
// them (a header name, else a 0-based index).
type Read struct {
	Missing string   // "" refuse the file, "drop" the rows, "mean": fill with the training mean
	Exclude []string // columns left out
	OneHot  []string // columns one-hot encoded
	ID      string   // the rows' id column, for a triplet file
}

// TripletFile is a triplet file the user gave.
type TripletFile struct{ Name, CSV string }

// Trace is Δ_t against t, every iteration reported.
type Trace struct {
	Iters []float64
	Gaps  []float64
}

// ErrorTrace is the learned metric's 5-NN test error against the
// iteration: one point a frame of the run, and the result's last. Errs is
// NaN where the metric was zero to rounding (A = 0 has no learned error).
type ErrorTrace struct {
	Iters []float64
	Errs  []float64
}

// Frame is the learned view of a run going on: every row's place under
// its metric at iteration Iter (protocol.Progress.Frame), and that
// metric's test error (NaN at A = 0).
type Frame struct {
	Iter int
	Err  float64
	XY   []float64
}

// rateWindow is the least time a rate is measured over, in seconds: a
// step of one iteration takes microseconds, and its "rate" said nothing.
const rateWindow = 0.2

// Rate is the run's iterations per second so far: its own iterations
// (a step's, not those of the runs it continues) over its own time; 0
// before it has run rateWindow.
func (s *State) Rate() float64 {
	if s.Last.Seconds < rateWindow {
		return 0
	}
	return float64(s.Last.Iter-s.Steps) / s.Last.Seconds
}

// Paused says whether the run shown was stopped before its end: Train
// then goes on from it (a warm start) instead of starting afresh.
func (s *State) Paused() bool { return s.Status == Stopped && s.Result != nil && s.ResultOf == s.RunID }

// TripletsToTrain is how many triplets the next run trains on: the
// triplet file's among the training rows when it is in use, else k_same ×
// k_diff a training row; 0 with no data.
func (s *State) TripletsToTrain() int {
	switch {
	case s.Data == nil:
		return 0
	case s.FromFile && s.Triplets != nil:
		return s.Triplets.Used
	}
	return s.Data.Train * s.Params.KSame * s.Params.KDiff
}

// LoadNote says what the load in flight reads and how far it has got; ""
// when none is.
func (s *State) LoadNote() string {
	if s.Opening != "" {
		if s.OpenTotal > 0 {
			return "Opening " + s.Opening + ": " + strconv.Itoa(int(100*float64(s.OpenDone)/float64(s.OpenTotal))) + " %…"
		}
		return "Opening " + s.Opening + "…"
	}
	if !s.Loading {
		return ""
	}
	name := s.loading.name()
	if s.LoadTotal > 0 {
		return "Reading " + name + ": the Euclidean test error, " + strconv.Itoa(100*s.LoadDone/s.LoadTotal) + " %…"
	}
	return "Reading " + name + "…"
}

// CanTrain says whether Train is enabled.
func (s *State) CanTrain() bool { return s.Ready && s.Data != nil && !s.Loading && !s.TripletsLoading }

// New returns the state before the worker is up, with the given parameters.
func New(p Params) *State { return &State{Params: p, Status: Idle, TripletsBy: "row0"} }

// Open returns the state a visit to the page at an address with this
// fragment starts in: the link's settings over the defaults, or, with no
// link (a first visit), the first lesson; training as soon as the data is
// loaded unless the link says autorun=0. What the link held that could
// not be used is said until the data it loads is shown, and stays.
func Open(fragment string) *State {
	p, problems := linkParams(fragment)
	s := New(p)
	s.Pending = !p.View.Idle
	s.linkProblems(problems)
	return s
}

// linkParams are the settings a link's fragment gives, over the
// defaults; with no fragment (a first visit), the first lesson's.
func linkParams(fragment string) (Params, []string) {
	if strings.TrimPrefix(fragment, "#") == "" {
		p, _ := DecodeURL("preset="+Presets[0].Key, DefaultParams)
		return p, nil
	}
	return DecodeURL(fragment, DefaultParams)
}

// MaxFragment is the longest address fragment the page reads: a link
// carries a few settings, and a megabyte of them took 15 s to read.
const MaxFragment = 8 << 10

// linkProblems says what a link held that could not be used, in a
// notice that outlives the load the link starts (load keeps it, and the
// dataset's own notice is added to it).
func (s *State) linkProblems(problems []string) {
	if len(problems) == 0 {
		return
	}
	s.Message, s.Notice, s.linkNote, s.keepNote = "Some settings in the link were ignored: "+strings.Join(problems, "; ")+".", true, true, true
}
