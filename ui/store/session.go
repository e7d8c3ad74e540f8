package store

import (
	"errors"
	"strconv"
	"strings"

	"github.com/rml-lab/rml/wasm/protocol"
)

// Sessions: what a user made in the page, kept so that a reload, a closed
// tab or a page that failed loses nothing. SessionJSON writes the
// settings, how the uploaded files are read, the last result and the
// pinned runs; the glue keeps it in the browser's storage with the files'
// text beside it, and hands both back as a Restore action on the next
// visit.

// SessionFormat and SessionVersion mark a session SessionJSON wrote.
const (
	SessionFormat  = "rml-session"
	SessionVersion = 1
)

// Session is a session read back by ParseSession.
type Session struct {
	Params   Params
	File     *SessionFile // the uploaded data file; nil for a built-in dataset
	SHA256   string       // the data's, as the worker read it
	DataName string
	Triplets *SessionTriplets // the triplet file, nil if none
	Run      *SavedRun        // the last result; nil if none
	Pinned   []Run
}

// SessionFile is how an uploaded file was read (its text is kept apart).
type SessionFile struct {
	Name, Label string
	Read        Read
}

// SessionTriplets is a triplet file: its name, how it names rows, and
// whether the runs used it (its text is kept apart).
type SessionTriplets struct {
	Name, By string
	FromFile bool
	CSV      string // set by Restore
}

// Settled says whether the state is one to keep: data loaded and nothing
// on its way (a run, a load, a saved run waiting for its data).
func (s *State) Settled() bool {
	return s.Data != nil && s.Status != Running && !s.Loading && !s.TripletsLoading && !s.awaiting && s.opening == nil && s.Job == nil
}

// SessionKey changes whenever what SessionJSON writes does (and costs
// little, unlike writing it): the glue keeps the session again only then.
func (s *State) SessionKey() string {
	var b strings.Builder
	b.WriteString(EncodeURL(withoutView(s.Params)))
	b.WriteString("|" + s.FileName + "|" + strconv.Itoa(len(s.CSV)) + "|" + s.Read.Missing + "|" + s.Read.ID)
	b.WriteString("|" + strings.Join(s.Read.Exclude, ",") + "|" + strings.Join(s.Read.OneHot, ","))
	if f := s.TripletFile; f != nil {
		b.WriteString("|t:" + f.Name + ":" + strconv.Itoa(len(f.CSV)) + ":" + s.TripletsBy + ":" + strconv.FormatBool(s.FromFile))
	}
	if s.Data != nil {
		b.WriteString("|" + s.Data.SHA256)
	}
	b.WriteString("|" + strconv.Itoa(s.Version) + "|" + strconv.FormatBool(s.Result != nil))
	for _, r := range s.Pinned {
		b.WriteString("|p" + strconv.Itoa(r.ID))
	}
	for _, l := range [][]int{s.Edits.Drop, s.Edits.Reverse} {
		b.WriteString("|e")
		for _, i := range l {
			b.WriteString(strconv.Itoa(i) + ",")
		}
	}
	return b.String()
}

// SessionJSON is the session as JSON (the files' text not included); nil
// when there is nothing to keep (no data loaded).
func (s *State) SessionJSON() ([]byte, error) {
	d := s.Data
	if d == nil {
		return nil, nil
	}
	p := withoutView(s.Params)
	var file, trip, run any
	if p.Dataset == "" {
		file = obj{{"name", s.FileName}, {"label", p.Label},
			{"read", obj{{"missing", s.Read.Missing}, {"exclude", s.Read.Exclude}, {"oneHot", s.Read.OneHot}, {"id", s.Read.ID}}}}
	}
	if f := s.TripletFile; f != nil && s.Triplets != nil {
		trip = obj{{"name", f.Name}, {"by", s.TripletsBy}, {"fromFile", s.FromFile}}
	}
	if s.CanExport() {
		run = runObject(s.Params, s.Result, s.Trace, s.Edits, d, s.Read)
	}
	pinned := []any{}
	for _, r := range s.Pinned {
		pinned = append(pinned, runObject(r.Params, r.Result, r.Trace, Edits{}, d, s.Read))
	}
	return appendJSON(nil, obj{
		{"format", SessionFormat}, {"version", SessionVersion},
		{"link", EncodeURL(p)},
		{"dataset", obj{{"name", d.Name}, {"sha256", d.SHA256}}},
		{"file", file}, {"triplets", trip}, {"run", run}, {"pinned", pinned},
	}, "")
}

// ParseSession reads what SessionJSON wrote, every run in it checked as
// ParseRun checks a saved run.
func ParseSession(text string) (*Session, error) {
	v, err := parseJSON(text)
	if err != nil {
		return nil, errors.New("it is not JSON: " + err.Error())
	}
	g := &getter{}
	top := g.obj(v, "the session")
	if g.err != nil || top["format"] != SessionFormat {
		return nil, errors.New(`it has no "format": "` + SessionFormat + `"`)
	}
	if ver := g.int(top, "version"); g.err == nil && ver != SessionVersion {
		return nil, errors.New("it is of version " + strconv.Itoa(ver) + "; this page reads version " + strconv.Itoa(SessionVersion))
	}
	sess := &Session{}
	link := g.str(top, "link")
	data := g.obj(top["dataset"], `"dataset"`)
	sess.DataName, sess.SHA256 = g.str(data, "name"), g.str(data, "sha256")
	if top["file"] != nil {
		f := g.obj(top["file"], `"file"`)
		rd := g.obj(f["read"], `"read"`)
		sess.File = &SessionFile{Name: g.str(f, "name"), Label: g.str(f, "label"),
			Read: Read{Missing: g.str(rd, "missing"), Exclude: g.strs(rd, "exclude"), OneHot: g.strs(rd, "oneHot"), ID: g.str(rd, "id")}}
	}
	if top["triplets"] != nil {
		t := g.obj(top["triplets"], `"triplets"`)
		sess.Triplets = &SessionTriplets{Name: g.str(t, "name"), By: g.str(t, "by"), FromFile: g.bool(t, "fromFile")}
	}
	pins, ok := top["pinned"].([]any)
	if !ok && g.err == nil {
		g.fail(`"pinned"`, "a list")
	}
	if g.err != nil {
		return nil, g.err
	}
	p, problems := DecodeURL(link, DefaultParams)
	if len(problems) > 0 {
		return nil, errors.New("its settings: " + strings.Join(problems, "; "))
	}
	if sess.File != nil {
		p.Dataset, p.Label = "", sess.File.Label
		if m := sess.File.Read.Missing; m != "" && m != "drop" && m != "mean" {
			return nil, errors.New(`its "missing" is ` + strconv.Quote(m) + `: expected "", "drop" or "mean"`)
		}
	}
	if t := sess.Triplets; t != nil && t.By != "row0" && t.By != "row1" && t.By != "id" {
		return nil, errors.New(`its triplets' "by" is ` + strconv.Quote(t.By) + `: expected "row0", "row1" or "id"`)
	}
	sess.Params = p
	if top["run"] != nil {
		run, _, err := parseRun(top["run"])
		if err != nil {
			return nil, errors.New("its result: " + err.Error())
		}
		sess.Run = run
	}
	if len(pins) > MaxPinned {
		return nil, errors.New("it pins " + strconv.Itoa(len(pins)) + " runs; the page keeps " + strconv.Itoa(MaxPinned))
	}
	for i, v := range pins {
		run, rp, err := parseRun(v)
		if err != nil {
			return nil, errors.New("its pinned run " + strconv.Itoa(i+1) + ": " + err.Error())
		}
		rp.Dataset, rp.Label = p.Dataset, p.Label
		sess.Pinned = append(sess.Pinned, Run{Params: rp, Result: run.Result, Trace: run.Trace})
	}
	return sess, nil
}

// restore starts the session a Restore action carries: its settings at
// once, its data loaded, and its result, pinned runs and triplet file
// shown once the data is (opened), if it is the same data.
func (s *State) restore(a Restore) []protocol.Message {
	sess, err := ParseSession(a.Session)
	if err == nil && sess.File != nil && a.CSV == "" {
		err = errors.New("the text of " + sess.File.Name + " was not kept")
	}
	if err != nil {
		s.Message, s.Notice = "The work kept from your last visit could not be restored ("+err.Error()+"); the page starts afresh.", false
		return nil
	}
	out := s.abandonRun()
	p := sess.Params
	p.View = s.Params.View
	s.Params = p
	s.Edits, s.Pinned, s.Sweep, s.Steps = Edits{}, nil, Sweep{}, 0
	s.Pending, s.linkNote, s.keepNote = false, false, false
	s.Message = ""
	open := &SavedRun{Dataset: SavedData{Name: sess.DataName, SHA256: sess.SHA256, File: sess.File != nil},
		Pinned: sess.Pinned, Triplets: sess.Triplets, Restored: true}
	if r := sess.Run; r != nil {
		open.Method, open.Iterations, open.Trace, open.Edits, open.Result = r.Method, r.Iterations, r.Trace, r.Edits, r.Result
	}
	if t := open.Triplets; t != nil {
		t.CSV = a.Triplets
		if t.CSV == "" {
			open.Triplets = nil
		}
	}
	src := source{dataset: p.Dataset, label: p.Label}
	if f := sess.File; f != nil {
		src = source{file: f.Name, csv: a.CSV, label: f.Label, read: f.Read}
		open.Read, open.Label = f.Read, f.Label
	}
	s.opening = open
	return append(out, s.load(src)...)
}

// startFresh leaves what was restored for the first lesson, as a first
// visit opens.
func (s *State) startFresh() []protocol.Message {
	out := s.abandonRun()
	s.RunID = 0
	s.clearRun()
	s.opening, s.restoredMsg = nil, ""
	s.Message, s.keepNote = "", false
	s.TripletFile, s.Triplets, s.FromFile = nil, nil, false
	next, _ := linkParams("")
	next.View = s.Params.View
	return append(out, s.applyParams(next, true)...)
}

// OffersFresh says whether the page offers to start afresh: its message
// says what was restored.
func (s *State) OffersFresh() bool { return s.restoredMsg != "" && s.Message == s.restoredMsg }
