package store

import (
	"math"
	"slices"
	"strconv"

	"github.com/rml-lab/rml/spec"
	"github.com/rml-lab/rml/wasm/protocol"
)

// Reduce applies a to s and returns the requests to send to the worker. It
// is the only code that changes a State.
func Reduce(s *State, a Action) []protocol.Message {
	msg := s.Message
	s.at = ""
	out := reduce(s, a)
	// A message set by this action is shown where it said (at), else at
	// the top; one it left alone stays where it was.
	if s.Message != msg || s.at != "" {
		s.MessageAt = s.at
	}
	return out
}

func reduce(s *State, a Action) []protocol.Message {
	for _, r := range []func(*State, Action) ([]protocol.Message, bool){reduceData, reduceSettings, reduceRuns, reduceFiles, reduceWorkers, reduceAsk} {
		if out, ok := r(s, a); ok {
			return out
		}
	}
	panic("store: unknown action")
}

// reduceData reduces the actions about the dataset and the triplet file: choosing, uploading and reading them; ok is false for any other action.
func reduceData(s *State, a Action) ([]protocol.Message, bool) {
	p := &s.Params
	switch a := a.(type) {
	case WorkerReady:
		s.Ready, s.Builtins, s.Kernels = true, a.Builtins, a.Kernels
		if p.Dataset != "" || s.CSV != "" {
			return s.load(s.current()), true
		}
	case SelectBuiltin:
		return s.load(source{dataset: a.Name}), true
	case Upload:
		if isRunFile(a.Name, a.Text) {
			return s.openRun(a.Name, a.Text), true
		}
		// Missing values drop their rows unless the user chooses otherwise
		// (the notice counts them; refusing is one choice away): a file
		// as people have them trains at once.
		src := source{file: a.Name, csv: a.Text, read: Read{Missing: "drop"}}
		if r := s.opening; r != nil && r.Dataset.File && r.Dataset.Name == a.Name {
			// The file a saved run waits for: read as the run read it.
			src.label, src.read = r.Label, r.Read
		} else if prev := s.retry(); prev.dataset == "" && prev.file == a.Name {
			// The same file again (edited, say): read as the user chose.
			src.label, src.read = prev.label, prev.read
		}
		return s.load(src), true
	case UploadFailed:
		s.setError(a.Message)
		s.at = AtData
	case ChooseLabel:
		src := s.retry()
		if src.dataset == "" && (s.Failed != nil || src.label != a.Column) {
			src.label = a.Column
			src.read = src.read.with(a.Column, "label")
			return s.load(src), true
		}
	case SetMissing:
		src := s.retry()
		src.read.Missing = a.Value
		return s.load(src), true
	case SetRole:
		src := s.retry()
		src.read = src.read.with(a.Column, a.Role)
		return s.load(src), true
	case UploadTriplets:
		// The file in use, if any, stays until the new one is read: a
		// file that cannot be read replaces nothing (reply).
		s.tripletsBefore = s.TripletFile
		s.TripletFile = &TripletFile{Name: a.Name, CSV: a.Text}
		return s.readTriplets(true), true
	case SetTripletsBy:
		s.TripletsBy = a.Value
		if s.TripletFile != nil {
			return s.readTriplets(!s.FromFile), true
		}
	case UseTriplets:
		if a.FromFile && s.Triplets == nil {
			return nil, true
		}
		if s.FromFile != a.FromFile {
			s.FromFile, s.Edits = a.FromFile, Edits{}
		}
	default:
		return nil, false
	}
	return nil, true
}

// reduceSettings reduces the actions about the settings: each control, a link followed, a lesson chosen; ok is false for any other action.
func reduceSettings(s *State, a Action) ([]protocol.Message, bool) {
	p := &s.Params
	switch a := a.(type) {
	case SetKSame:
		p.KSame, s.Edits = a.Value, Edits{}
	case SetKDiff:
		p.KDiff, s.Edits = a.Value, Edits{}
	case SetFlip:
		p.Flip, s.Edits = a.Value, Edits{}
	case SetMethod:
		p.Method = a.Value
	case SetTol:
		p.Tol = a.Value
	case SetSeed:
		if p.Seed != a.Value {
			p.Seed, s.Edits = a.Value, Edits{}
			return s.load(s.current()), true // the seed also draws the train/test split
		}
	case SetEta:
		p.Eta = a.Value
		return s.rerun(), true
	case SetLambda:
		p.Lambda = a.Value
		return s.rerun(), true
	case FollowLink:
		p, problems := linkParams(a.Fragment)
		// The page keeps its layout (embed=, hide=): it was drawn for it.
		p.View.Embed, p.View.Hide = s.Params.View.Embed, s.Params.View.Hide
		out := s.applyParams(p, !p.View.Idle)
		s.linkProblems(problems)
		return out, true
	case ApplyPreset:
		pr, ok := PresetNamed(a.Key)
		if !ok {
			return nil, true
		}
		next := *p
		pr.apply(&next)
		return s.applyParams(next, true), true // a lesson chosen is a lesson to watch
	case Invalid:
		s.Message, s.Notice = a.Message, false
	default:
		return nil, false
	}
	return nil, true
}

// reduceRuns reduces the actions about runs: training, stepping, comparing, sweeping, pinning, editing triplets, stopping; ok is false for any other action.
func reduceRuns(s *State, a Action) ([]protocol.Message, bool) {
	p := &s.Params
	switch a := a.(type) {
	case Train:
		// Play after a pause goes on from where the run stopped (a warm
		// start: the worker keeps its last solution for the same
		// triplets); otherwise a run from scratch.
		return s.train(s.Paused()), true
	case Pin:
		s.pin(s.Result, nil)
	case Unpin:
		if a.Index >= 0 && a.Index < len(s.Pinned) {
			s.Pinned = append(s.Pinned[:a.Index:a.Index], s.Pinned[a.Index+1:]...)
		}
	case Compare:
		return s.startCompare(), true
	case SweepRun:
		return s.startSweep(a.Axis), true
	case ToggleSeries:
		if i := slices.Index(s.HiddenSeries, a.Name); i >= 0 {
			s.HiddenSeries = slices.Delete(slices.Clone(s.HiddenSeries), i, i+1)
		} else {
			s.HiddenSeries = append(slices.Clone(s.HiddenSeries), a.Name)
		}
	case Step:
		if s.Status == Running {
			return nil, true
		}
		// A tolerance of 1e-15 makes a step run its N iterations (a warm
		// start near the optimum would otherwise stop at the first).
		return s.startBatch([]Job{{Kind: "step", Method: p.Method, Eta: p.Eta, Flip: p.Flip, Tol: StepTol, MaxIter: max(1, a.N), Warm: s.Result != nil}}), true
	case DropTriplet:
		s.Edits.Drop = toggle(s.Edits.Drop, a.Index)
		s.Edits.Reverse = slices.DeleteFunc(slices.Clone(s.Edits.Reverse), func(i int) bool { return i == a.Index })
		return s.rerun(), true
	case ReverseTriplet:
		s.Edits.Reverse = toggle(s.Edits.Reverse, a.Index)
		s.Edits.Drop = slices.DeleteFunc(slices.Clone(s.Edits.Drop), func(i int) bool { return i == a.Index })
		return s.rerun(), true
	case ClearEdits:
		s.Edits = Edits{}
		return s.rerun(), true
	case Stop:
		s.Pending = false
		if s.Opening != "" {
			s.Message, s.Notice = "Stopped opening "+s.Opening+"; nothing changed.", true
			s.Opening = ""
			return nil, true
		}
		if s.Loading {
			return s.stopLoad(), true
		}
		return s.abandonBatch(), true
	case Reset:
		out := s.abandonBatch()
		s.RunID = s.id() // replies of the old run are ignored from now on
		s.Steps = 0
		s.clearRun()
		s.Message = ""
		return out, true
	default:
		return nil, false
	}
	return nil, true
}

// reduceFiles reduces the actions about what the page writes and reads back: exports, links, saved runs, the kept session; ok is false for any other action.
func reduceFiles(s *State, a Action) ([]protocol.Message, bool) {
	switch a := a.(type) {
	case Export:
		return nil, true // the glue writes the file from the state
	case Share:
		sh := Shared(a)
		s.Shared = &sh
		return nil, true
	case RunReading:
		if a.Done == 0 {
			s.OpenSeq++
		}
		s.Opening, s.OpenDone, s.OpenTotal = a.Name, a.Done, a.Total
	case RunRead:
		if s.Opening != a.Name || s.OpenSeq != a.Seq {
			return nil, true // stopped, or another file or dataset chosen since
		}
		s.Opening = ""
		if a.Err != nil {
			s.Message, s.Notice = a.Name+" could not be opened: "+a.Err.Error()+".", false
			return nil, true
		}
		return s.openParsed(a.Name, a.Run, a.Params), true
	case Restore:
		return s.restore(a), true
	case StartFresh:
		return s.startFresh(), true
	case KeepFailed:
		s.Message, s.Notice = "This browser did not keep your work ("+a.Reason+"): a reload or a closed tab will lose it. Download the run to keep it.", false
	default:
		return nil, false
	}
	return nil, true
}

// reduceWorkers reduces the actions about the workers: their replies, their deaths, the helpers; ok is false for any other action.
func reduceWorkers(s *State, a Action) ([]protocol.Message, bool) {
	switch a := a.(type) {
	case WorkerDied:
		// Every worker is gone (the glue ends the helpers with lane 0).
		s.endBatch()
		clear(s.lanes.inflight)
		s.Helpers = nil
		s.Ready, s.Loading = false, false
		s.Restarts++
		s.Message, s.Notice = "The solver stopped unexpectedly ("+a.Reason+") and was restarted; the dataset is loaded again, and the result and pinned runs stay.", false
		s.restarted = true
		if s.Status == Running {
			s.Status = Error
		}
	case Helpers:
		s.Helpers = slices.Clone(a.Lanes)
		return s.dispatch(), true
	case LaneLost:
		s.Helpers = slices.DeleteFunc(s.Helpers, func(l int) bool { return l == a.Lane })
		var out []protocol.Message
		for _, id := range s.lanes.on(a.Lane) {
			out = append(out, s.reply(protocol.Message{ID: id, Kind: protocol.KindError,
				Error: &protocol.Error{Message: "A solver worker stopped unexpectedly (" + a.Reason + ")."}})...)
		}
		return out, true
	case Reply:
		return s.reply(a.Message), true
	default:
		return nil, false
	}
	return nil, true
}

func (s *State) id() int {
	s.nextID++
	return s.nextID
}

func (s *State) setError(msg string) {
	s.Message, s.Notice, s.Status, s.keepNote = msg, false, Error, false
}

func (s *State) clearRun() {
	s.Status, s.Trace, s.Last, s.Result, s.awaiting = Idle, Trace{}, protocol.Progress{}, nil, false
	s.Errors, s.Frame = ErrorTrace{}, nil
	s.Version++
}

// applyParams makes next the settings, as a lesson or a link does: the
// edits, pinned runs and sweep of the old settings go, the dataset is
// loaded again if it changed, and if run, the new settings train at once.
func (s *State) applyParams(next Params, run bool) []protocol.Message {
	p := &s.Params
	s.Edits, s.Pinned, s.Sweep = Edits{}, nil, Sweep{}
	old := *p
	*p = next
	var out []protocol.Message
	if old.Dataset != p.Dataset || old.Label != p.Label || old.Seed != p.Seed || s.Data == nil {
		out = s.load(s.current())
	} else {
		out = s.abandonRun()
	}
	if !run {
		s.Pending = false
		return out
	}
	s.Pending = true
	if s.CanTrain() {
		return append(out, s.train(false)...)
	}
	return out
}

// source is what a load reads: a built-in dataset, or a file's text, with
// the label column and the reading chosen for it.
type source struct {
	dataset, label, file, csv string
	read                      Read
}

func (s *State) current() source {
	if s.Params.Dataset != "" {
		// A built-in dataset chosen over a file (by a link, a lesson):
		// the file goes once it is loaded.
		return source{dataset: s.Params.Dataset, label: s.Params.Label, read: s.Read}
	}
	return source{label: s.Params.Label, file: s.FileName, csv: s.CSV, read: s.Read}
}

// retry is the source a new reading choice (label, columns, missing
// values) applies to: the file that failed, if one did, else the current
// one.
func (s *State) retry() source {
	if f := s.Failed; f != nil {
		return source{file: f.FileName, csv: f.CSV, label: f.Label, read: f.Read}
	}
	return s.current()
}

// name is what src reads: the built-in dataset's name, or the file's.
func (a source) name() string {
	if a.dataset != "" {
		return a.dataset
	}
	return a.file
}

// same says whether a and b read the same data (perhaps differently).
func (a source) same(b source) bool {
	return a.dataset == b.dataset && a.file == b.file && a.csv == b.csv
}

// with returns r with column c given role: "feature" (the default for a
// number column), "excluded", "one-hot", "id", or "label" (which the label
// choice sets: c leaves every list).
func (r Read) with(c, role string) Read {
	out := Read{Missing: r.Missing}
	for _, e := range r.Exclude {
		if e != c {
			out.Exclude = append(out.Exclude, e)
		}
	}
	for _, e := range r.OneHot {
		if e != c {
			out.OneHot = append(out.OneHot, e)
		}
	}
	if r.ID != c {
		out.ID = r.ID
	}
	switch role {
	case "excluded":
		out.Exclude = append(out.Exclude, c)
	case "one-hot":
		out.OneHot = append(out.OneHot, c)
	case "id":
		out.ID = c
	}
	return out
}

// readTriplets asks the worker to read the triplet file for the loaded
// dataset; first says it is a new file (on success the run uses it, with
// no injected swaps until asked).
func (s *State) readTriplets(first bool) []protocol.Message {
	f := s.TripletFile
	if f == nil || !s.Ready {
		return nil
	}
	out := s.abandonRun()
	s.TripletsLoading, s.tripletsFirst = true, first
	s.tripletsID = s.id()
	return append(out, protocol.Message{ID: s.tripletsID, Kind: protocol.KindTriplets, Triplets: &protocol.Triplets{CSV: f.CSV, FileName: f.Name, By: s.TripletsBy}})
}

// load asks for a dataset. Until it is read, the current one stays: a file
// that cannot be read loses no work (see reply). A run in progress is
// abandoned.
func (s *State) load(src source) []protocol.Message {
	out := s.abandonRun()
	s.Opening = "" // a saved run being read is dropped for the data chosen
	if !s.restarted && !s.linkNote {
		s.Message, s.keepNote = "", false
	}
	s.loading = src
	if !s.Ready {
		// Loaded when the worker is up.
		s.use(src)
		s.Data = nil
		return out
	}
	s.Loading = true
	s.LoadID = s.id()
	s.LoadDone, s.LoadTotal = 0, 0
	r := src.read
	frac, rows := TestFrac, false
	if k := s.Ask; k != nil && src.same(k.src) {
		// The Ask-me mode holds questions out, not rows; on a dataset's
		// rows it draws them, so it has them sent.
		frac, rows = 0, k.Set == "data"
	}
	req := &protocol.Load{Builtin: src.dataset, Label: src.label, TestFrac: frac, Seed: s.Params.Seed, Rows: rows,
		Missing: r.Missing, Exclude: r.Exclude, OneHot: r.OneHot, ID: r.ID}
	if src.dataset == "" {
		req.CSV, req.FileName = src.csv, src.file
	}
	return append(out, protocol.Message{ID: s.LoadID, Kind: protocol.KindLoad, Load: req})
}

// stopLoad stops the load in flight (Stop): the data before it stays, in
// the worker too.
func (s *State) stopLoad() []protocol.Message {
	name := s.loading.name()
	s.Loading, s.opening = false, nil
	msg := "Stopped reading " + name + "."
	if s.Data != nil {
		msg += " " + s.Data.Name + " stays loaded."
	}
	s.Message, s.Notice, s.keepNote = msg, true, false
	return []protocol.Message{{ID: s.LoadID, Kind: protocol.KindStop}}
}

// abandonRun stops a run in progress (its replies are ignored from now on)
// and clears its views.
func (s *State) abandonRun() []protocol.Message {
	out := s.abandonBatch()
	if s.Status == Running {
		s.RunID = 0
		s.clearRun()
	}
	return out
}

// abandonBatch stops the batch's runs, and the current run if it is not
// one of them; the views stay as they are.
func (s *State) abandonBatch() []protocol.Message {
	current := s.Status == Running && !s.lanes.running(s.RunID)
	out := s.endBatch()
	if current {
		out = append(out, protocol.Message{ID: s.RunID, Kind: protocol.KindStop})
	}
	return out
}

// use makes src the current dataset's source.
func (s *State) use(src source) {
	if !src.same(s.current()) {
		// A triplet file names rows of the data it came with.
		s.TripletFile, s.Triplets, s.FromFile = nil, nil, false
	}
	if s.Ask != nil && !src.same(s.Ask.src) {
		s.Ask, s.Params.Ask = nil, "" // other data: the Ask-me mode ends (its answers are kept by the glue)
	}
	s.Params.Dataset, s.Params.Label, s.FileName, s.CSV, s.Read = src.dataset, src.label, src.file, src.csv, src.read
	s.Failed = nil
}

// rerun restarts from the previous solution after η or λ changed, if
// there is one (a finished run, or one in progress).
func (s *State) rerun() []protocol.Message {
	if s.Result == nil && s.Status != Running {
		return nil
	}
	return s.train(true)
}

func (s *State) train(warm bool) []protocol.Message {
	if !s.CanTrain() {
		if s.Loading || !s.Ready {
			s.Pending = true
			return nil
		}
		s.Message, s.Notice = "Choose a dataset first.", false
		return nil
	}
	// A batch's runs are stopped; a plain run on lane 0 is superseded by
	// the new request (the worker cancels its run for any request).
	out := s.endBatch()
	s.show(s.id(), warm)
	return append(out, s.request(s.RunID, warm, nil))
}

// show makes run id (0: not started yet) the current run.
func (s *State) show(id int, warm bool) {
	s.Pending = false
	s.RunID = id
	s.Status, s.Last, s.awaiting = Running, protocol.Progress{}, false
	if !s.keepNote {
		// A run starts with a clean slate, but for a notice about the
		// data or the link, which holds while they do.
		s.Message = ""
	}
	// A warm step continues the curve (its iterations count on from the
	// trace's last); any other run starts a new one.
	if j := s.Job; j != nil && j.Kind == "step" && warm && len(s.Trace.Iters) > 0 {
		s.Steps = int(s.Trace.Iters[len(s.Trace.Iters)-1])
	} else {
		s.Trace, s.Errors, s.Steps = Trace{}, ErrorTrace{}, 0
	}
	s.Frame = nil
}

// request is the Train request for run id: the current settings, with
// job's changes if there is a job.
func (s *State) request(id int, warm bool, j *Job) protocol.Message {
	p := s.Params
	t := &protocol.Train{
		KSame: p.KSame, KDiff: p.KDiff, Flip: p.Flip, Seed: p.Seed, Eta: p.Eta, Lambda: p.Lambda,
		Method: p.Method, Tol: p.Tol, Warm: warm, Drop: s.Edits.Drop, Reverse: s.Edits.Reverse, FromFile: s.FromFile}
	if p.Method == spec.LMNN {
		t.MaxIter = spec.LMNNIters // its runs would not end otherwise
	}
	if j != nil {
		t.Method, t.Eta, t.Flip, t.Tol, t.MaxIter = j.Method, j.Eta, j.Flip, j.Tol, j.MaxIter
		t.Batch = true
		if j.Flip != p.Flip {
			t.Drop, t.Reverse = nil, nil // the edits are of the current triplets
		}
	}
	return protocol.Message{ID: id, Kind: protocol.KindTrain, Train: t}
}

func (s *State) reply(m protocol.Message) []protocol.Message {
	ahead, out := s.side(m)
	if ahead {
		return out
	}
	return append(out, s.replyCurrent(m)...)
}

// replyCurrent handles a reply to the current load, run or triplet file.
func (s *State) replyCurrent(m protocol.Message) []protocol.Message {
	var (
		out  []protocol.Message
		done bool // out is the answer: no pending run starts
	)
	switch {
	case m.ID == s.LoadID && s.Loading && m.Kind == protocol.KindProgress:
		s.LoadDone, s.LoadTotal = m.Progress.Done, m.Progress.Total
	case m.ID == s.LoadID && s.Loading:
		out, done = s.loadReply(m)
	case m.ID == s.RunID && (s.Status == Running || s.awaiting):
		out, done = s.runReply(m)
	case m.ID == s.tripletsID && s.TripletsLoading:
		s.tripletsReply(m)
	case m.ID == 0 && m.Kind == protocol.KindError:
		s.setError(m.Error.Message)
	}
	if done {
		return append(out, s.askSync()...)
	}
	if s.Pending && s.CanTrain() {
		return s.train(false)
	}
	return append(out, s.askSync()...)
}

// loadReply takes the end of a load: the dataset, or why it could not be
// read. done says that out is the answer.
func (s *State) loadReply(m protocol.Message) (out []protocol.Message, done bool) {
	s.Loading = false
	switch m.Kind {
	case protocol.KindDataset:
		return s.datasetLoaded(m.Dataset)
	case protocol.KindError:
		// The current dataset (if any) stays loaded in the worker and
		// here; the file is kept aside so that another label column
		// can be chosen for it.
		e := m.Error
		if src := s.loading; src.dataset == "" {
			s.Failed = &Failed{FileName: src.file, CSV: src.csv, Label: src.label, Read: src.read}
		}
		s.Columns, s.Preview, s.Header, s.Table = e.Columns, e.Preview, e.Header, e.Table
		s.setError(e.Message)
		s.Pending = false
		if s.Failed != nil {
			s.at = AtData
		}
	}
	return nil, false
}

// datasetLoaded takes the dataset a load read. done says that out is the
// answer.
func (s *State) datasetLoaded(d *protocol.Dataset) (out []protocol.Message, done bool) {
	// The same data read again after the worker restarted keeps
	// the result, the pinned runs, the sweep and the edits: they
	// are still of this data. Other data starts afresh.
	same := s.Data != nil && d.SHA256 == s.Data.SHA256 && d.Rows == s.Data.Rows && slices.Equal(d.Features, s.Data.Features)
	if same && s.opening != nil && !s.opening.Restored {
		// A saved run opened on the data loaded: the pinned runs
		// are still of this data; the result is the run's.
		s.RunID = 0
		s.clearRun()
		s.Sweep, s.Steps = Sweep{}, 0
	} else if !same || !s.restarted {
		s.RunID = 0
		s.clearRun() // any result was on the previous dataset
		s.Edits, s.Pinned, s.Sweep, s.Steps = Edits{}, nil, Sweep{}, 0
	} else if s.Status == Error {
		s.Status = Idle // the run the worker died in is over; its result, if any, stays shown
	}
	s.use(s.loading)
	s.Data, s.Columns, s.Preview, s.Header, s.Table = d, d.Columns, d.Preview, d.Header, d.Table
	s.start, s.startLanes = protocol.Start{}, nil
	if s.linkNote {
		// Keep saying what the link held that was ignored, and add
		// what the dataset says.
		if d.Notice != "" {
			s.Message += " " + d.Notice
		}
		s.linkNote = false
	} else if s.restarted && d.Notice == "" {
		// Keep saying that the worker was restarted, now as a notice.
		s.Notice, s.restarted = true, false
	} else {
		s.Message, s.Notice = d.Notice, d.Notice != ""
		if d.Notice != "" {
			s.at, s.keepNote = AtData, true
		}
	}
	s.opened(d)
	s.askRows(d)
	if s.TripletFile != nil {
		// The same data read again (another seed, label or column
		// choice): its rows and split may differ, so the triplet
		// file is read again.
		return s.readTriplets(false), true
	}
	return nil, false
}

// runReply takes a message of the run shown: its progress, its result or
// its error. done says that out is the answer.
func (s *State) runReply(m protocol.Message) (out []protocol.Message, done bool) {
	switch m.Kind {
	case protocol.KindProgress:
		s.progress(*m.Progress)
		if st := m.Progress.Status; st != "" {
			// The solver has stopped; the result's views follow. A
			// converged run waits for them to say "converged": it
			// may have collapsed to A = 0, which only the result says.
			if st != spec.Converged {
				s.finish(st)
			}
			s.awaiting = true
		}
	case protocol.KindResult:
		r := m.Result
		s.progress(r.Progress)
		s.Result, s.ResultOf = r, m.ID
		s.Version++
		s.awaiting = false
		s.Frame = nil
		e := r.ErrLearn
		if r.Collapsed {
			e = math.NaN()
		}
		s.Errors.Iters = append(s.Errors.Iters, float64(r.Iter+s.Steps))
		s.Errors.Errs = append(s.Errors.Errs, e)
		s.finish(r.Status)
		if r.Collapsed && s.Status == Converged {
			s.Status = Collapsed
		}
		if j := s.Job; j != nil && j.Kind == "step" {
			// A step ends at its iteration count by design: no notice.
			s.Message, s.Notice = "", false
		}
		if s.Job != nil {
			return s.jobDone(r), true
		}
	case protocol.KindError:
		s.awaiting = false
		out := s.endBatch()
		if s.Status == Stopped {
			// Stopped before the solver began (while finding neighbours):
			// the reason is a notice, not an error.
			s.Message, s.Notice = m.Error.Message, true
		} else {
			s.setError(m.Error.Message)
		}
		return out, true
	}
	return nil, false
}

// tripletsReply takes what the worker made of a triplet file.
func (s *State) tripletsReply(m protocol.Message) {
	s.TripletsLoading = false
	switch m.Kind {
	case protocol.KindTripletSet:
		t := m.TripletSet
		s.Triplets, s.tripletsBefore = t, nil
		if s.askLoaded() {
			break // the answers, sent as they come: the Ask-me panel counts them
		}
		msg := t.FileName + ": " + strconv.Itoa(t.Count) + " triplets read"
		if t.Dropped > 0 {
			msg += "; " + strconv.Itoa(t.Dropped) + " more name a row dropped for a missing value and are left out"
		}
		if t.HeldOut > 0 {
			msg += "; " + strconv.Itoa(t.HeldOut) + " touch a row held out for the test error and are left out, so " + strconv.Itoa(t.Used) + " train"
		}
		if !s.tripletsFirst && s.OffersFresh() {
			break // read again for a restored session: its notice says so
		}
		if s.tripletsFirst {
			s.FromFile, s.Edits = true, Edits{}
			if s.Params.Flip > 0 {
				s.Params.Flip = 0
				msg += ". Injected noise is off for them (raise it to swap some on purpose)"
			}
		}
		s.Message, s.Notice = msg+".", true
		s.at = AtSide
	case protocol.KindError:
		// A new file that cannot be read replaces nothing: the file in
		// use before it (whose triplets the worker still holds) stays,
		// and the message says so. A file read again that now fails
		// (another way of naming rows, another split) leaves the
		// labels' triplets in use and is kept, so that another way can
		// be tried.
		msg := m.Error.Message
		if s.tripletsFirst && s.tripletsBefore != nil && s.Triplets != nil {
			msg += ". The triplets of " + s.tripletsBefore.Name + " stay in use."
			s.TripletFile, s.tripletsBefore = s.tripletsBefore, nil
		} else {
			s.Triplets, s.FromFile = nil, false
			msg += ". The labels' triplets are used."
		}
		s.setError(msg)
		s.Pending = false
		s.at = AtSide
	}
}

// openRun reads a saved run (RunJSON): its settings apply at once; its
// result shows when its dataset is loaded, checked by SHA-256 (a built-in
// dataset, or the uploaded file loaded now, is loaded again with the run's
// seed; another file waits for the user to upload it).
func (s *State) openRun(file, text string) []protocol.Message {
	run, p, err := ParseRun(text)
	if err != nil {
		s.Message, s.Notice = file+" could not be opened: "+err.Error()+".", false
		return nil
	}
	return s.openParsed(file, run, p)
}

// openParsed opens saved run run, read from file with settings p.
func (s *State) openParsed(file string, run *SavedRun, p Params) []protocol.Message {
	out := s.abandonRun()
	s.Pending = false
	s.opening = run
	p.View = s.Params.View
	if p.Dataset == "" && (s.Data == nil || s.Data.SHA256 != run.Dataset.SHA256 || s.Params.Dataset != "") {
		// The run's file is not the one loaded: keep the current data.
		p.Dataset, p.Label = s.Params.Dataset, s.Params.Label
		s.Params = p
		s.Message, s.Notice = file+" is a run on the file "+run.Dataset.Name+" (SHA-256 "+short(run.Dataset.SHA256)+
			"); its settings are set. Upload that file and the run opens.", true
		return out
	}
	s.Params = p
	src := source{dataset: p.Dataset, label: p.Label}
	if p.Dataset == "" {
		src = source{file: s.FileName, csv: s.CSV, label: p.Label, read: run.Read}
	}
	return append(out, s.load(src)...)
}

// opened shows the saved run (or the restored session) waiting for
// dataset d, if d is its dataset.
func (s *State) opened(d *protocol.Dataset) {
	r := s.opening
	if r == nil {
		return
	}
	s.opening = nil
	what := "The saved run"
	if r.Restored {
		what = "The work kept from your last visit"
	}
	if d.SHA256 != r.Dataset.SHA256 {
		s.Message, s.Notice = what+" was on other data ("+r.Dataset.Name+", SHA-256 "+short(r.Dataset.SHA256)+
			"; loaded: "+d.Name+", "+short(d.SHA256)+"): its settings are set, its result is not shown.", true
		return
	}
	if r.Result != nil {
		if msg := fits(r.Result, d); msg != "" {
			s.Message, s.Notice = what+msg+": its settings are set, its result is not shown.", true
			return
		}
		s.RunID = s.id()
		s.ResultOf = s.RunID
		s.Result, s.Trace, s.Last, s.Edits = r.Result, r.Trace, r.Result.Progress, r.Edits
		s.Errors, s.Frame = ErrorTrace{}, nil
		s.Version++
		s.finish(r.Result.Status)
		if r.Result.Collapsed && s.Status == Converged {
			s.Status = Collapsed
		}
	}
	s.Pending = false
	if !r.Restored {
		s.Message, s.Notice = "Opened the saved run: "+r.Method+" on "+d.Name+", "+strconv.Itoa(r.Iterations)+" iterations.", true
		return
	}
	for _, p := range r.Pinned {
		if fits(p.Result, d) == "" {
			s.pins++
			p.ID, p.Mark = s.pins, freeMark(s.Pinned)
			s.Pinned = append(s.Pinned, p)
		}
	}
	if t := r.Triplets; t != nil {
		// Read again once this load is done (replyCurrent), and used as
		// before.
		s.TripletFile, s.TripletsBy, s.FromFile = &TripletFile{Name: t.Name, CSV: t.CSV}, t.By, t.FromFile
	}
	msg := "Restored your work from the last visit: " + d.Name
	if r.Result != nil {
		msg += ", its last result"
	}
	switch n := len(s.Pinned); n {
	case 0:
	case 1:
		msg += ", 1 pinned run"
	default:
		msg += ", " + strconv.Itoa(n) + " pinned runs"
	}
	if s.TripletFile != nil {
		msg += ", the triplet file " + s.TripletFile.Name
	}
	s.Message, s.Notice, s.keepNote = msg+".", true, true
	s.restoredMsg = s.Message
}

// fits says why result r cannot be shown on dataset d (its rows, features
// or classes differ), or "" if it can.
func fits(r *protocol.Result, d *protocol.Dataset) string {
	if d.Rows != r.N || len(d.Features) != r.D {
		// The same file, read otherwise.
		return " was on " + d.Name + " read otherwise: " + strconv.Itoa(r.N) + " rows and " + strconv.Itoa(r.D) +
			" features, where it now has " + strconv.Itoa(d.Rows) + " and " + strconv.Itoa(len(d.Features)) +
			" (another label, other columns or another choice for missing values)"
	}
	for _, l := range r.Labels {
		if int(l) >= len(d.Classes) {
			return " names class " + strconv.Itoa(int(l)+1) + " of a dataset with " + strconv.Itoa(len(d.Classes))
		}
	}
	return ""
}

// short is the first 12 hex digits of a hash.
func short(h string) string {
	if len(h) > 12 {
		return h[:12] + "…"
	}
	return h
}

// finish sets the status a run ended with.
func (s *State) finish(status string) {
	switch status {
	case spec.Converged:
		s.Status = Converged
	case spec.Failed:
		s.setError("The solver failed.") // the worker sends its reason as an error reply
	case spec.Stopped:
		s.Status = Stopped
	default:
		s.Status = Stopped
		s.Message, s.Notice = "Stopped at the "+status+" before reaching the tolerance.", true
	}
}

func (s *State) progress(p protocol.Progress) {
	if s.Steps > 0 {
		base := float64(s.Steps)
		for _, v := range p.Iters {
			s.Trace.Iters = append(s.Trace.Iters, v+base)
		}
		p.Iters = nil
		p.Iter += s.Steps
	}
	s.Trace.Iters = append(s.Trace.Iters, p.Iters...)
	s.Trace.Gaps = append(s.Trace.Gaps, p.Gaps...)
	if len(p.Frame) > 0 {
		s.Frame = &Frame{Iter: p.FrameIter + s.Steps, Err: p.FrameErr, XY: p.Frame}
		s.Errors.Iters = append(s.Errors.Iters, float64(s.Frame.Iter))
		s.Errors.Errs = append(s.Errors.Errs, p.FrameErr)
	}
	s.Last = p
	s.Last.Iters, s.Last.Gaps, s.Last.Frame = nil, nil, nil
}
