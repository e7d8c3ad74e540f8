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
	Items    *ask.Items
	Asker    ask.Asker
	Question ask.Question // the question on screen
	SimRate  float64      // the simulated respondent's error rate
	Class    []*ask.File  // answers' files dropped in: a class's, learned from with the page's own
	Name     string       // who answers, for the saved file's header; "" for no one
	sent     int          // training answers the worker has
	csv      string       // the items as the dataset loaded
	z        [][]float64  // the items standardized, as the worker learns on them
}

// AskSets are the item sets the mode offers.
var AskSets = ask.Sets

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
		r := ask.NewRespondent(k.Items.Reference, k.SimRate, s.Params.Seed<<20+uint64(len(k.Asker.Answers)))
		dist := s.askDist()
		for range max(0, a.N) {
			k.Asker.Answers = append(k.Asker.Answers, ask.Answer{Question: k.Question, Choice: r.Answer(k.Question)})
			k.Question = k.Asker.Next(dist)
		}
		return s.askSync(), true
	case AskActive:
		if k := s.Ask; k != nil {
			k.Asker.Active = a.On
			k.Question = k.Asker.Next(s.askDist())
		}
	case AskSimRate:
		if k := s.Ask; k != nil && a.Rate >= 0 && a.Rate <= 0.5 {
			k.SimRate = a.Rate
		}
	case AskForget:
		if k := s.Ask; k != nil {
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
	if k == nil {
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
// the answers kept (saved), and loads the items.
func (s *State) openAsk(set, saved string) []protocol.Message {
	it, ok := ask.Open(set, s.Params.Seed)
	if !ok {
		s.Message, s.Notice = "There is no item set "+strconv.Quote(set)+" to ask about: the page asks about "+strings.Join(AskSets, ", ")+".", false
		return nil
	}
	k := &Ask{Items: it, SimRate: DefaultSimRate, csv: it.CSV(), z: it.Standardized()}
	k.Asker = ask.Asker{Items: it}
	if saved != "" {
		if answers, err := ask.ParseAnswers(it, saved); err == nil {
			k.Asker.Answers = answers
		} else {
			s.Message, s.Notice = "The answers kept in this browser could not be read back ("+err.Error()+"); the questions start again.", false
		}
	}
	k.Question = k.Asker.Next(nil)
	s.Ask = k
	s.Params.Flip, s.Params.Preset, s.Params.Ask = 0, "", set // the answers' own mistakes are the noise
	if saved == "" {
		s.Params.Lambda = ask.AskLambda // a fresh start; answers kept keep the λ they were learned with
	}
	return s.load(source{file: askFile(it), csv: k.csv})
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
	return s.Ask != nil && s.Data != nil && !s.Loading && s.CSV == s.Ask.csv
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
	s.show(s.id(), false)
	return append(out, s.request(s.RunID, true, nil))
}

// AskFileText is the answers' file to save: every answer not skipped, by
// the name given.
func (s *State) AskFileText() (name, text string) {
	k := s.Ask
	if k == nil {
		return "", ""
	}
	return k.Items.Set + "-seed" + strconv.FormatUint(k.Items.Seed, 10) + "-answers.csv", ask.FileText(k.Items, k.Name, k.Asker.All())
}

// AskSaved is the answers to keep in the browser (ask.AnswersText), and
// the key to keep them under: one set of answers per item set and seed.
func (s *State) AskSaved() (key, text string) {
	k := s.Ask
	if k == nil {
		return "", ""
	}
	return "rml-ask:" + k.Items.Set + ":" + strconv.FormatUint(k.Items.Seed, 10), ask.AnswersText(k.Asker.Answers)
}

// AskView is what the Ask-me panel shows of the answers.
type AskView struct {
	Answered, Trained int
	Learned, Euclid   float64 // held-out agreement; NaN before any held-out answer or metric
	Reference         float64 // CIEDE2000's
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
	v.Reference, _ = k.Asker.Agreement(k.Items.Reference)
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
