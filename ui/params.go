//go:build js && wasm

package ui

import (
	"strconv"
	"strings"
	"syscall/js"

	"github.com/hexops/vecty"
	"github.com/hexops/vecty/elem"
	"github.com/hexops/vecty/event"
	"github.com/hexops/vecty/prop"

	"github.com/rml-lab/rml/spec"
	"github.com/rml-lab/rml/ui/store"
	"github.com/rml-lab/rml/wasm/protocol"
)

// trainText is Train's label: after a file failed to load, it names the
// dataset that is still loaded, which it would train.
func trainText(still string) string {
	if still != "" {
		return "Train " + still + " (still loaded)"
	}
	return "Train"
}

// lambdaGrid is the paper's grid for λ: the log-scale slider's stops.
var lambdaGrid = spec.LambdaGrid

// SideProps is what the side-information panel shows.
type SideProps struct {
	Params             store.Params
	Train              int  // training rows of the loaded dataset
	ToTrain            int  // triplets the next run trains on (store.TripletsToTrain)
	HasData, HasResult bool // whether a dataset is loaded, a run finished
	Triplets, Swapped  int  // of the last run
	// The triplet file: its name, how it names rows, what was read of it,
	// whether runs use it; IDName is the dataset's id column, if any.
	File, By, IDName string
	Set              *protocol.TripletSet
	FromFile, Busy   bool
	// The page's message, when it is about the triplet file.
	MessageHere bool
	Message     string
	Notice      bool
}

func sideProps(s *store.State) SideProps {
	p := SideProps{Params: s.Params, HasData: s.Data != nil, HasResult: s.Result != nil, ToTrain: s.TripletsToTrain(),
		By: s.TripletsBy, Set: s.Triplets, FromFile: s.FromFile, Busy: s.TripletsLoading,
		MessageHere: s.MessageAt == store.AtSide && s.Message != "", Message: s.Message, Notice: s.Notice}
	if s.Data != nil {
		p.Train, p.IDName = s.Data.Train, s.Data.IDName
	}
	if s.TripletFile != nil {
		p.File = s.TripletFile.Name
	}
	if r := s.Result; r != nil {
		p.Triplets, p.Swapped = r.Triplets, r.Swapped
	}
	return p
}

// sidePanel is panel 2: the triplets, drawn from the labels or read from
// a file, and injected noise.
func sidePanel(s SideProps, d func(store.Action), openTriplets func(js.Value)) *vecty.HTML {
	p := s.Params
	count := "Load a dataset to see how many triplets it gives."
	if s.HasData {
		n := s.ToTrain
		count = itoa(s.Train) + " training rows × " + itoa(p.KSame) + " × " + itoa(p.KDiff) + " = " + itoa(n) + " triplets"
		if s.FromFile && s.Set != nil {
			count = "From " + s.Set.FileName + ": " + itoa(n) + " triplets"
		}
		count += "; about " + swapsOf(p.Flip, n) + " will be swapped (the noise, above)."
	}
	if s.HasResult {
		count = "Last run: " + itoa(s.Triplets) + " triplets, " + itoa(s.Swapped) + " of them swapped."
	}
	return panel("2 · Side information", "side",
		vecty.If(!p.View.Hides("upload"), tripletSource(s, d, openTriplets)),
		vecty.If(!s.FromFile, elem.Paragraph(vecty.Markup(vecty.Class("hint")), vecty.Text("Each training point x gives triplets (x, y, z): y one of its k_same nearest points of the same class, z one of its k_diff nearest of another class."))),
		vecty.If(!s.FromFile, elem.Div(vecty.Markup(vecty.Class("row")),
			elem.Label(vecty.Text("k_same "), intInput("k-same", p.KSame, func(v int) { d(store.SetKSame{Value: v}) }, d, "k_same")),
			elem.Label(vecty.Text("k_diff "), intInput("k-diff", p.KDiff, func(v int) { d(store.SetKDiff{Value: v}) }, d, "k_diff")),
		)),
		elem.Paragraph(vecty.Markup(vecty.Data("testid", "triplet-count"), vecty.Class("hint")), vecty.Text(count)),
	)
}

// tripletSource chooses where the triplets come from: the labels, or a
// file "anchor,similar,dissimilar" naming rows by number or by id.
func tripletSource(s SideProps, d func(store.Action), openTriplets func(js.Value)) *vecty.HTML {
	src := []vecty.MarkupOrChild{vecty.Markup(vecty.Data("testid", "triplet-source"), prop.Disabled(s.Set == nil && !s.FromFile),
		event.Change(func(e *vecty.Event) { d(store.UseTriplets{FromFile: e.Target.Get("value").String() == "file"}) }))}
	fileText := "a file (upload one below)"
	if s.Set != nil {
		fileText = "the file " + s.Set.FileName
	}
	for _, o := range []struct{ value, text string }{{"labels", "the labels (nearest neighbours)"}, {"file", fileText}} {
		src = append(src, elem.Option(vecty.Markup(prop.Value(o.value), vecty.Property("selected", (o.value == "file") == s.FromFile)), vecty.Text(o.text)))
	}
	by := []vecty.MarkupOrChild{vecty.Markup(vecty.Data("testid", "triplets-by"), vecty.Attribute("aria-label", "how the triplet file names rows"),
		event.Change(func(e *vecty.Event) { d(store.SetTripletsBy{Value: e.Target.Get("value").String()}) }))}
	idText := "values of the id column (choose one under Columns)"
	if s.IDName != "" {
		idText = "values of the id column “" + s.IDName + "”"
	}
	for _, o := range []struct{ value, text string }{{"row0", "row numbers from 0"}, {"row1", "row numbers from 1"}, {"id", idText}} {
		by = append(by, elem.Option(vecty.Markup(prop.Value(o.value), vecty.Property("selected", o.value == s.By)), vecty.Text(o.text)))
	}
	status := "A file of lines “anchor,similar,dissimilar” (x is closer to y than to z): real side information, not labels. η then applies to its triplets as given."
	switch {
	case s.Busy:
		status = "Reading " + s.File + "…"
	case s.Set != nil:
		status = s.Set.FileName + ": " + itoa(s.Set.Count) + " triplets read, " + itoa(s.Set.Used) + " among the training rows"
		if s.Set.HeldOut > 0 {
			status += " (" + itoa(s.Set.HeldOut) + " touch a held-out row and are left out, so that the test error stays honest)"
		}
		status += "."
	case s.File != "":
		status = s.File + " could not be read (the reason is just above); the labels' triplets are used."
	}
	return elem.Div(
		elem.Label(vecty.Text("Triplets from "), elem.Select(src...)),
		elem.Div(vecty.Markup(vecty.Class("row")),
			elem.Label(vecty.Markup(vecty.Class("file")), vecty.Text("Triplet file "),
				elem.Input(vecty.Markup(prop.Type(prop.TypeFile), vecty.Data("testid", "triplets-input"), prop.Disabled(!s.HasData),
					vecty.Attribute("accept", ".csv,.tsv,.txt,text/csv"),
					event.Change(func(e *vecty.Event) {
						openTriplets(e.Target.Get("files"))
						e.Target.Set("value", "")
					})))),
			elem.Label(vecty.Text("naming rows by "), elem.Select(by...)),
		),
		messageLine(s.Message, s.Notice, s.MessageHere),
		elem.Paragraph(vecty.Markup(vecty.Class("hint"), vecty.Data("testid", "triplets-file")), vecty.Text(status)),
	)
}

// ParamProps is what the parameter panel shows.
type ParamProps struct {
	Params                       store.Params
	CanTrain, Running, HasResult bool
	Warm                         bool   // the last run started from the previous solution
	Still                        string // the dataset still loaded after a file failed to load
}

// paramProps is the parameter panel's props; shown is the result the views
// show (App.syncViews), which during a Compare or a sweep stays the run
// they showed before it.
func paramProps(s *store.State, shown *protocol.Result) ParamProps {
	// Running for the whole of a batch, not only during each of its runs:
	// the buttons do not flicker between two runs (and the panel is not
	// redrawn twice per run). The result is the one the views show, not
	// the batch's latest: the hint on a warm start flickered with the η
	// sweep's warm and cold runs, and the panel (10–38 ms a render) was
	// redrawn for each.
	p := ParamProps{Params: s.Params, CanTrain: s.CanTrain(), Running: s.Status == store.Running || s.Job != nil,
		HasResult: shown != nil, Warm: shown != nil && shown.Warm}
	if s.Failed != nil && s.Data != nil {
		p.Still = s.Data.Name
	}
	return p
}

// paramPanel is panel 3: the method, the tolerance and the seed (η and λ
// are on the stage), and Pin and Compare.
func paramPanel(s ParamProps, d func(store.Action)) *vecty.HTML {
	p := s.Params
	hide := p.View.Hides
	running := s.Running
	methods := []struct{ value, text string }{
		{spec.Fast, "Fast: accelerated, restarts, Newton steps"},
		{spec.Nesterov, "The paper’s Algorithm 1 (Nesterov)"},
		{spec.Gradient, "Projected gradient (the paper’s RML_gd)"},
	}
	mopts := []vecty.MarkupOrChild{vecty.Markup(vecty.Data("testid", "method"),
		event.Change(func(e *vecty.Event) { d(store.SetMethod{Value: e.Target.Get("value").String()}) }))}
	for _, m := range methods {
		mopts = append(mopts, elem.Option(vecty.Markup(prop.Value(m.value), vecty.Property("selected", m.value == p.Method)), vecty.Text(m.text)))
	}
	return panel("3 · Solver and comparisons", "params",
		vecty.If(!hide("method"), elem.Label(vecty.Text("Method "), elem.Select(mopts...))),
		elem.Div(vecty.Markup(vecty.Class("row")),
			vecty.If(!hide("tol"), elem.Label(vecty.Text("Tolerance (relative gap) "),
				elem.Input(vecty.Markup(prop.Type(prop.TypeText), vecty.Data("testid", "tol"), vecty.Class("short"), prop.Value(strconv.FormatFloat(p.Tol, 'g', -1, 64)),
					event.Change(func(e *vecty.Event) {
						if v, ok := number(d, "Tolerance", e.Target.Get("value").String(), spec.TolRange); ok {
							d(store.SetTol{Value: v})
						}
					}))))),
			vecty.If(!hide("seed"), elem.Label(vecty.Text("Seed "),
				elem.Input(vecty.Markup(prop.Type(prop.TypeNumber), vecty.Data("testid", "seed"), vecty.Class("short"), vecty.Attribute("min", 0), prop.Value(strconv.FormatUint(p.Seed, 10)),
					event.Change(func(e *vecty.Event) {
						v, err := strconv.ParseUint(strings.TrimSpace(e.Target.Get("value").String()), 10, 64)
						if err != nil {
							d(store.Invalid{Message: "Seed: " + strconv.Quote(e.Target.Get("value").String()) + " is not usable; expected a whole number ≥ 0."})
							return
						}
						d(store.SetSeed{Value: v})
					}))))),
		),
		vecty.If(!hide("steps"), elem.Div(vecty.Markup(vecty.Class("buttons")),
			elem.Button(vecty.Markup(vecty.Data("testid", "pin"), prop.Disabled(!s.HasResult || running), vecty.Attribute("title", "keep this run as a column of Compare"),
				event.Click(func(*vecty.Event) { d(store.Pin{}) })), vecty.Text("Pin")),
			elem.Button(vecty.Markup(vecty.Data("testid", "compare"), prop.Disabled(!s.CanTrain || running),
				event.Click(func(*vecty.Event) { d(store.Compare{}) })), vecty.Text("Compare")),
		)),
		vecty.If(!hide("steps"), elem.Paragraph(vecty.Markup(vecty.Class("hint")), vecty.Text("Step (on the stage) runs one iteration, or ten, from the result shown; each step restarts the method's momentum. Pin keeps a run as a column of Compare; Compare trains the hinge, logistic and t-STE losses, the best case, LMNN, Xing and Euclid beside this method on the same triplets."))),
		elem.Paragraph(vecty.Markup(vecty.Class("hint")), vecty.Text("After a run, moving η or λ restarts from its solution (a warm start).")),
		vecty.If(s.Warm, elem.Paragraph(vecty.Markup(vecty.Class("hint")), vecty.Text("The last run started from the previous solution."))),
	)
}
