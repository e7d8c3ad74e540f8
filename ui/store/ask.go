package store

import (
	"math"
	"slices"
	"strconv"
	"strings"

	"github.com/rml-lab/rml/ui/ask"
	"github.com/rml-lab/rml/wasm/protocol"
)

// The Ask-me mode (ui/ask): the page asks which of two items is more like
// a third, and learns a metric from the answers as they come. Its items
// are loaded as a dataset of their own with no row held out (what the
// answers teach is measured on held-out questions instead), and the
// training answers go to the worker as the page's triplet file, one run
// after each answer, or after the run in progress ends with all the
// answers given meanwhile: a burst of answers is one run, not many.

// Ask is the Ask-me mode's state.
type Ask struct {
	Set      string     // the item set: one of AskSets
	Items    *ask.Items // nil until a dataset's rows arrive (Set "data")
	Asker    ask.Asker
	Question ask.Question // the question on screen
	SimRate  float64      // the simulated respondent's error rate
	// SimWeights are the simulated respondent's weights of the features,
	// when the items' reference is a weighting (shapes, rows): the
	// items' own until changed.
	SimWeights []float64
	Class      []*ask.File // answers' files dropped in: a class's, learned from with the page's own
	Name       string      // who answers, for the saved file's header; "" for no one
	sent       int         // training answers the worker has
	src        source      // the dataset the items are
	z          [][]float64 // the items standardized, as the worker learns on them
	wantKept   bool        // a dataset's rows arrived: the answers kept for them are wanted (AskWantsKept)
}

// AskSets are the item sets the mode offers: colours, shapes, and "data",
// the rows of the dataset loaded.
var AskSets = append(slices.Clone(ask.Sets), "data")

// DefaultSimRate is the simulated respondent's error rate until changed.
const DefaultSimRate = 0.1

// askMinAnswers is how many training answers the first run waits for.
const askMinAnswers = 3

// Ask-me actions.
type (
	AskOpen     struct{ Set, Saved string } // enter the mode; Saved: the answers kept (AskSaved), "" if none
	AskAnswer   struct{ Choice ask.Choice } // answer the question on screen
	AskSimulate struct{ N int }             // the simulated respondent answers N questions
	AskActive   struct{ On bool }           // active questions or random ones
	AskSimRate  struct{ Rate float64 }
	AskForget   struct{}                    // forget every answer
	AskFiles    struct{ Files []NamedText } // answers' files dropped in together
	AskName     struct{ Name string }       // who answers
	AskKept     struct{ Text string }       // the answers kept for a dataset's rows (AskWantsKept), "" if none
	AskClose    struct{}                    // leave the mode: the data is read again as usual
	AskWeight   struct {                    // the simulated respondent's weight of a feature
		Feature int
		Weight  float64
	}
)

// NamedText is a file's name and text.
type NamedText struct{ Name, Text string }

func (AskOpen) isAction()     {}
func (AskAnswer) isAction()   {}
func (AskSimulate) isAction() {}
func (AskActive) isAction()   {}
func (AskSimRate) isAction()  {}
func (AskForget) isAction()   {}
func (AskFiles) isAction()    {}
func (AskName) isAction()     {}
func (AskKept) isAction()     {}
func (AskClose) isAction()    {}
func (AskWeight) isAction()   {}

// askFile is the name the items' dataset is loaded under.
func askFile(it *ask.Items) string {
	return it.Set + " (seed " + strconv.FormatUint(it.Seed, 10) + ")"
}

// reduceAsk reduces the Ask-me actions; ok is false for any other action.
func reduceAsk(s *State, a Action) ([]protocol.Message, bool) {
	switch a := a.(type) {
	case AskOpen:
		return s.openAsk(a.Set, a.Saved), true
	case AskAnswer:
		k := s.Ask
		if k == nil || !s.askLoaded() {
			return nil, true
		}
		k.Asker.Answers = append(k.Asker.Answers, ask.Answer{Question: k.Question, Choice: a.Choice})
		k.Question = k.Asker.Next(s.askDist())
		return s.askSync(), true
	case AskSimulate:
		k := s.Ask
		if k == nil || !s.askLoaded() {
			return nil, true
		}
		// Seeded by the seed and the answers so far: the same clicks give
		// the same answers.
		r := ask.NewRespondent(k.reference(), k.SimRate, s.Params.Seed<<20+uint64(len(k.Asker.Answers)))
		dist := s.askDist()
		for range max(0, a.N) {
			k.Asker.Answers = append(k.Asker.Answers, ask.Answer{Question: k.Question, Choice: r.Answer(k.Question)})
			k.Question = k.Asker.Next(dist)
		}
		return s.askSync(), true
	case AskActive:
		if k := s.Ask; k != nil && k.Items != nil {
			k.Asker.Active = a.On
			k.Question = k.Asker.Next(s.askDist())
		}
	case AskSimRate:
		if k := s.Ask; k != nil && a.Rate >= 0 && a.Rate <= 0.5 {
			k.SimRate = a.Rate
		}
	case AskForget:
		if k := s.Ask; k != nil && k.Items != nil {
			k.Asker.Answers, k.sent = nil, 0
			k.Question = k.Asker.Next(nil)
			s.TripletFile, s.Triplets, s.FromFile = nil, nil, false
			s.RunID = 0
			s.clearRun()
		}
	case AskFiles:
		return s.askFiles(a.Files), true
	case AskName:
		if k := s.Ask; k != nil {
			k.Name = a.Name
		}
	case AskWeight:
		if k := s.Ask; k != nil && k.SimWeights != nil && a.Feature >= 0 && a.Feature < len(k.SimWeights) && a.Weight >= 0 && a.Weight <= MaxSimWeight {
			k.SimWeights = slices.Clone(k.SimWeights)
			k.SimWeights[a.Feature] = a.Weight
		}
	case AskClose:
		if k := s.Ask; k != nil {
			s.Ask, s.Params.Ask = nil, ""
			s.TripletFile, s.Triplets, s.FromFile = nil, nil, false
			if s.current().same(k.src) && k.Set == "data" {
				return s.load(k.src), true // with its rows held out again
			}
		}
	case AskKept:
		if k := s.Ask; k != nil && k.wantKept {
			k.wantKept = false
			k.restore(s, a.Text)
			return s.askSync(), true
		}
	default:
		return nil, false
	}
	return nil, true
}

// askFiles reads answers' files into the class: a file of the same name
// replaces the one before; a file that cannot be read is named with why,
// and the others are still taken.
func (s *State) askFiles(files []NamedText) []protocol.Message {
	k := s.Ask
	if k == nil || k.Items == nil {
		return nil
	}
	var bad []string
	for _, f := range files {
		af, err := ask.ParseFile(k.Items, f.Name, f.Text)
		if err != nil {
			bad = append(bad, err.Error())
			continue
		}
		k.Class = slices.DeleteFunc(k.Class, func(c *ask.File) bool { return c.Name == af.Name })
		k.Class = append(k.Class, af)
	}
	out := s.askSync() // a run starts with a clean message line: the files' problems after it
	if len(bad) > 0 {
		s.Message, s.Notice = strings.Join(bad, ". ")+".", false
	}
	return out
}

// trainTriplets are what the metric learns from: the page's own training
// answers and every answer of the class's files, pooled.
func (k *Ask) trainTriplets() [][3]int {
	ts := k.Asker.Triplets()
	for _, f := range k.Class {
		ts = append(ts, f.Triplets...)
	}
	return ts
}

// openAsk enters the mode on set's items, seeded by the page's seed, with
// the answers kept (saved), and loads the items. On "data" the items are
// the rows of the dataset loaded, read again with no row held out and
// sent back standardized; the answers kept for them are asked for once
// they arrive (AskWantsKept).
func (s *State) openAsk(set, saved string) []protocol.Message {
	if set == "data" {
		return s.openAskData()
	}
	it, ok := ask.Open(set, s.Params.Seed)
	if !ok {
		s.Message, s.Notice = "There is no item set "+strconv.Quote(set)+" to ask about: the page asks about "+strings.Join(AskSets, ", ")+".", false
		return nil
	}
	k := &Ask{Set: set, SimRate: DefaultSimRate, src: source{file: askFile(it), csv: it.CSV()}}
	k.setItems(it)
	k.restore(s, saved)
	s.enterAsk(k, saved == "")
	return s.load(k.src)
}

// openAskData is openAsk on the rows of the dataset loaded.
func (s *State) openAskData() []protocol.Message {
	src := s.current()
	if d := s.Data; d == nil || (src.dataset == "" && src.csv == "") {
		s.Message, s.Notice = "Load a dataset first: Ask me about your data asks about its rows.", false
		return nil
	} else if d.Rows > ask.DataMaxRows || len(d.Features) > ask.DataMaxFeatures {
		s.Message, s.Notice = d.Name+" has "+strconv.Itoa(d.Rows)+" rows of "+strconv.Itoa(len(d.Features))+" features; Ask me asks about at most "+
			strconv.Itoa(ask.DataMaxRows)+" rows of at most "+strconv.Itoa(ask.DataMaxFeatures)+" (a star of more features cannot be read at a glance).", false
		return nil
	}
	k := &Ask{Set: "data", SimRate: DefaultSimRate, src: src}
	s.enterAsk(k, true)
	return s.load(src)
}

// enterAsk makes k the mode's state; fresh says no answers were kept.
func (s *State) enterAsk(k *Ask, fresh bool) {
	s.Ask = k
	s.Params.Flip, s.Params.Preset, s.Params.Ask = 0, "", k.Set // the answers' own mistakes are the noise
	if fresh {
		s.Params.Lambda = ask.AskLambda // answers kept keep the λ they were learned with
	}
}

// MaxSimWeight is the largest weight a simulated respondent's feature
// takes.
const MaxSimWeight = 10

// reference is the simulated respondent's hidden metric: the items' own,
// or the weighting chosen.
func (k *Ask) reference() ask.Dist {
	if k.SimWeights != nil && !slices.Equal(k.SimWeights, k.Items.Weights) {
		return k.Items.Weighted(k.SimWeights)
	}
	return k.Items.Reference
}

// setItems makes it the items asked about.
func (k *Ask) setItems(it *ask.Items) {
	k.Items, k.z, k.SimWeights = it, it.Standardized(), slices.Clone(it.Weights)
	k.Asker = ask.Asker{Items: it, Active: k.Asker.Active}
	k.Question = k.Asker.Next(nil)
}

// restore takes the answers kept (ask.AnswersText) for k's items.
func (k *Ask) restore(s *State, saved string) {
	if saved == "" {
		return
	}
	answers, err := ask.ParseAnswers(k.Items, saved)
	if err != nil {
		s.Message, s.Notice = "The answers kept in this browser could not be read back ("+err.Error()+"); the questions start again.", false
		return
	}
	k.Asker.Answers = answers
	k.Question = k.Asker.Next(nil)
}

// askRows takes a dataset's rows for the mode on "data", once they arrive.
func (s *State) askRows(d *protocol.Dataset) {
	k := s.Ask
	if k == nil || k.Set != "data" || k.Items != nil || len(d.Z) == 0 || !s.current().same(k.src) {
		return
	}
	sha := d.SHA256
	if len(sha) > 12 {
		sha = sha[:12]
	}
	k.setItems(ask.FromRows("data-"+sha, s.Params.Seed, d.Features, d.Z, d.Labels, d.Classes))
	k.wantKept = true
}

// AskWantsKept is the key of the answers kept for a dataset's rows when the
// glue is to hand them over (AskKept); "" otherwise.
func (s *State) AskWantsKept() string {
	if k := s.Ask; k != nil && k.wantKept {
		return k.key()
	}
	return ""
}

// AskWanted is the item set a link or a restored session asks for when
// the mode is not on: the glue opens it with the answers it kept.
func (s *State) AskWanted() string {
	if s.Ask != nil {
		return ""
	}
	return s.Params.Ask
}

// AskReady says whether answers count: the mode's items are loaded.
func (s *State) AskReady() bool { return s.askLoaded() }

// askLoaded says whether the loaded data is the mode's items.
func (s *State) askLoaded() bool {
	return s.Ask != nil && s.Ask.Items != nil && s.Data != nil && !s.Loading && s.current().same(s.Ask.src)
}

// askDist is the learned metric's distance between items, if a run on the
// answers ended with one, for the active questions; nil otherwise.
func (s *State) askDist() ask.Dist {
	if A := s.AskMetric(); A != nil {
		return ask.Mahalanobis(s.Ask.z, A)
	}
	return nil
}

// AskMetric is the metric learned from the answers (d×d, row-major, on
// the standardized features), or nil: none yet, or it collapsed to 0.
func (s *State) AskMetric() []float64 {
	r := s.Result
	if !s.askLoaded() || r == nil || r.Collapsed || r.D != len(s.Ask.Items.Features) {
		return nil
	}
	return r.A
}

// askSync sends the training answers the worker does not have yet, and a
// run on them, when the page is free to: the items loaded, no run, load or
// batch on its way. A run's end calls it again (replyCurrent).
func (s *State) askSync() []protocol.Message {
	k := s.Ask
	if !s.askLoaded() || s.Status == Running || s.TripletsLoading || s.Job != nil || s.awaiting {
		return nil
	}
	ts := k.trainTriplets()
	if len(ts) == k.sent || len(ts) < askMinAnswers {
		return nil
	}
	k.sent = len(ts)
	s.TripletFile, s.tripletsBefore = &TripletFile{Name: "your answers", CSV: ask.FileText(k.Items, "", ts)}, nil
	out := s.readTriplets(false)
	s.FromFile, s.Params.Flip = true, 0
	// Not s.train: it waits while a triplet file is read, and this run is
	// to follow the file in the same batch of messages (the worker takes
	// them in order).
	s.show(s.id(), false)
	return append(out, s.request(s.RunID, true, nil))
}

// AskFileText is the answers' file to save: every answer not skipped, by
// the name given.
func (s *State) AskFileText() (name, text string) {
	k := s.Ask
	if k == nil || k.Items == nil {
		return "", ""
	}
	return k.Items.Set + "-seed" + strconv.FormatUint(k.Items.Seed, 10) + "-answers.csv", ask.FileText(k.Items, k.Name, k.Asker.All())
}

// AskSaved is the answers to keep in the browser (ask.AnswersText), and
// the key to keep them under: one set of answers per item set and seed.
func (s *State) AskSaved() (key, text string) {
	k := s.Ask
	if k == nil || k.Items == nil || k.wantKept {
		return "", ""
	}
	return k.key(), ask.AnswersText(k.Asker.Answers)
}

// key is where the glue keeps k's answers: one set per item set and seed.
func (k *Ask) key() string {
	return "rml-ask:" + k.Items.Set + ":" + strconv.FormatUint(k.Items.Seed, 10)
}

// AskView is what the Ask-me panel shows of the answers.
type AskView struct {
	Answered, Trained int
	Learned, Euclid   float64 // held-out agreement; NaN before any held-out answer or metric
	Reference         float64 // the simulated respondent's hidden metric's (CIEDE2000 for colours)
	HeldOut           int
	Rate              ask.ErrorRate
	Weighs            string // which features the metric weighs, in words
	Direction         string // its strongest direction, in words
	Class             []ClassFile
}

// ClassFile is what the page makes of one answers' file of the class.
type ClassFile struct {
	Name, Who       string
	Answers         int
	Rate            ask.ErrorRate
	Learned, Euclid float64 // the share of its answers each metric gives alike; Learned NaN without a metric
}

// AskSummary is what the answers taught so far.
func (s *State) AskSummary() AskView {
	k := s.Ask
	v := AskView{Answered: len(k.Asker.Answers), Trained: len(k.trainTriplets()), Learned: math.NaN()}
	v.Euclid, v.HeldOut = k.Asker.Agreement(ask.Mahalanobis(k.z, nil))
	v.Reference, _ = k.Asker.Agreement(k.reference())
	if A := s.AskMetric(); A != nil {
		v.Learned, _ = k.Asker.Agreement(ask.Mahalanobis(k.z, A))
		v.Weighs = ask.Weighs(k.Items.Features, A)
		v.Direction = ask.Direction(k.Items.Features, A)
	}
	v.Rate = ask.EstimateErrorRate(k.Asker.All())
	euclid := ask.Mahalanobis(k.z, nil)
	var learned ask.Dist
	if A := s.AskMetric(); A != nil {
		learned = ask.Mahalanobis(k.z, A)
	}
	for _, f := range k.Class {
		c := ClassFile{Name: f.Name, Who: f.Who, Answers: len(f.Triplets), Rate: ask.EstimateErrorRate(f.Triplets), Learned: math.NaN()}
		c.Euclid = ask.Agrees(f.Triplets, euclid)
		if learned != nil {
			c.Learned = ask.Agrees(f.Triplets, learned)
		}
		v.Class = append(v.Class, c)
	}
	return v
}
