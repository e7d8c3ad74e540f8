//go:build js && wasm

package ui

import (
	"math"
	"strconv"
	"strings"

	"github.com/hexops/vecty"
	"github.com/hexops/vecty/elem"
	"github.com/hexops/vecty/event"
	"github.com/hexops/vecty/prop"

	"github.com/rml-lab/rml/spec"
	"github.com/rml-lab/rml/ui/store"
)

// lambdaGrid is the paper's grid for λ: the log-scale slider's stops.
var lambdaGrid = spec.LambdaGrid

func nearestStop(v float64) int {
	best := 0
	for i, g := range lambdaGrid {
		if math.Abs(math.Log(g/v)) < math.Abs(math.Log(lambdaGrid[best]/v)) {
			best = i
		}
	}
	return best
}

// SideProps is what the side-information panel shows.
type SideProps struct {
	Params             store.Params
	Train              int  // training rows of the loaded dataset
	HasData, HasResult bool // whether a dataset is loaded, a run finished
	Triplets, Swapped  int  // of the last run
}

func sideProps(s *store.State) SideProps {
	p := SideProps{Params: s.Params, HasData: s.Data != nil, HasResult: s.Result != nil}
	if s.Data != nil {
		p.Train = s.Data.Train
	}
	if r := s.Result; r != nil {
		p.Triplets, p.Swapped = r.Triplets, r.Swapped
	}
	return p
}

// sidePanel is panel 2: how triplets are drawn from the labels, and noise.
func sidePanel(s SideProps, d func(store.Action)) *vecty.HTML {
	p := s.Params
	count := "Load a dataset to see how many triplets it gives."
	if s.HasData {
		count = itoa(s.Train) + " training rows × " + itoa(p.KSame) + " × " + itoa(p.KDiff) + " = " + itoa(s.Train*p.KSame*p.KDiff) +
			" triplets; about " + strconv.FormatFloat(p.Flip*float64(s.Train*p.KSame*p.KDiff), 'f', 0, 64) + " will be swapped."
	}
	if s.HasResult {
		count = "Last run: " + itoa(s.Triplets) + " triplets, " + itoa(s.Swapped) + " of them swapped."
	}
	return panel("2 · Side information", "side",
		elem.Paragraph(vecty.Markup(vecty.Class("hint")), vecty.Text("Each training point x gives triplets (x, y, z): y one of its k_same nearest points of the same class, z one of its k_diff nearest of another class.")),
		elem.Div(vecty.Markup(vecty.Class("row")),
			elem.Label(vecty.Text("k_same "), intInput("k-same", p.KSame, func(v int) { d(store.SetKSame{Value: v}) }, d, "k_same")),
			elem.Label(vecty.Text("k_diff "), intInput("k-diff", p.KDiff, func(v int) { d(store.SetKDiff{Value: v}) }, d, "k_diff")),
		),
		vecty.If(!p.View.Hides("noise"), slider("Injected noise: swap each triplet with probability ", "flip", 0, 0.5, p.Flip, func(v float64) { d(store.SetFlip{Value: v}) })),
		elem.Paragraph(vecty.Markup(vecty.Data("testid", "triplet-count"), vecty.Class("hint")), vecty.Text(count)),
	)
}

// ParamProps is what the parameter panel shows.
type ParamProps struct {
	Params                       store.Params
	CanTrain, Running, HasResult bool
	Warm                         bool // the last run started from the previous solution
}

func paramProps(s *store.State) ParamProps {
	return ParamProps{Params: s.Params, CanTrain: s.CanTrain(), Running: s.Status == store.Running,
		HasResult: s.Result != nil, Warm: s.Result != nil && s.Result.Warm}
}

// paramPanel is panel 3: η, λ, the method, the tolerance, the seed, and
// the Train, Stop and Reset buttons.
func paramPanel(s ParamProps, d func(store.Action)) *vecty.HTML {
	p := s.Params
	hide := p.View.Hides
	running := s.Running
	methods := []struct{ value, text string }{
		{spec.Fast, "Fast: accelerated, adaptive step, restarts"},
		{spec.Nesterov, "The paper’s Algorithm 1 (Nesterov)"},
		{spec.Gradient, "Projected gradient (the paper’s RML_gd)"},
	}
	mopts := []vecty.MarkupOrChild{vecty.Markup(vecty.Data("testid", "method"),
		event.Change(func(e *vecty.Event) { d(store.SetMethod{Value: e.Target.Get("value").String()}) }))}
	for _, m := range methods {
		mopts = append(mopts, elem.Option(vecty.Markup(prop.Value(m.value), vecty.Property("selected", m.value == p.Method)), vecty.Text(m.text)))
	}
	return panel("3 · Parameters", "params",
		vecty.If(!hide("eta"), slider("η, the share of triplets trusted ", "eta", 0.5, 1, p.Eta, func(v float64) { d(store.SetEta{Value: v}) })),
		vecty.If(!hide("lambda"), elem.Label(vecty.Text("λ, the regularization "),
			elem.Input(vecty.Markup(prop.Type(prop.TypeRange), vecty.Data("testid", "lambda-slider"), vecty.Attribute("aria-label", "λ on a log scale"),
				vecty.Attribute("min", 0), vecty.Attribute("max", len(lambdaGrid)-1), vecty.Attribute("step", 1),
				prop.Value(strconv.Itoa(nearestStop(p.Lambda))),
				event.Input(func(e *vecty.Event) {
					if i, err := strconv.Atoi(e.Target.Get("value").String()); err == nil && i >= 0 && i < len(lambdaGrid) {
						d(store.SetLambda{Value: lambdaGrid[i]})
					}
				}))),
			elem.Input(vecty.Markup(prop.Type(prop.TypeText), vecty.Data("testid", "lambda"), vecty.Class("short"), vecty.Attribute("inputmode", "decimal"),
				vecty.Attribute("aria-label", "λ"), prop.Value(strconv.FormatFloat(p.Lambda, 'g', -1, 64)),
				event.Change(func(e *vecty.Event) {
					if v, ok := number(d, "λ", e.Target.Get("value").String(), spec.LambdaRange); ok {
						d(store.SetLambda{Value: v})
					}
				}))),
		)),
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
		elem.Div(vecty.Markup(vecty.Class("buttons")),
			elem.Button(vecty.Markup(vecty.Data("testid", "train"), vecty.Class("primary"), prop.Disabled(!s.CanTrain || running),
				event.Click(func(*vecty.Event) { d(store.Train{}) })), vecty.Text("Train")),
			elem.Button(vecty.Markup(vecty.Data("testid", "stop"), prop.Disabled(!running),
				event.Click(func(*vecty.Event) { d(store.Stop{}) })), vecty.Text("Stop")),
			elem.Button(vecty.Markup(vecty.Data("testid", "reset"), prop.Disabled(!s.HasResult && !running),
				event.Click(func(*vecty.Event) { d(store.Reset{}) })), vecty.Text("Reset")),
		),
		vecty.If(!hide("steps"), elem.Div(vecty.Markup(vecty.Class("buttons")),
			elem.Button(vecty.Markup(vecty.Data("testid", "step"), prop.Disabled(!s.CanTrain || running), vecty.Attribute("title", "one iteration from the last solution"),
				event.Click(func(*vecty.Event) { d(store.Step{N: 1}) })), vecty.Text("Step")),
			elem.Button(vecty.Markup(vecty.Data("testid", "step-10"), prop.Disabled(!s.CanTrain || running), vecty.Attribute("title", "ten iterations from the last solution"),
				event.Click(func(*vecty.Event) { d(store.Step{N: 10}) })), vecty.Text("×10")),
			elem.Button(vecty.Markup(vecty.Data("testid", "pin"), prop.Disabled(!s.HasResult || running), vecty.Attribute("title", "keep this run as a column of Compare"),
				event.Click(func(*vecty.Event) { d(store.Pin{}) })), vecty.Text("Pin")),
			elem.Button(vecty.Markup(vecty.Data("testid", "compare"), prop.Disabled(!s.CanTrain || running),
				event.Click(func(*vecty.Event) { d(store.Compare{}) })), vecty.Text("Compare")),
		)),
		vecty.If(!hide("steps"), elem.Paragraph(vecty.Markup(vecty.Class("hint")), vecty.Text("Step runs one iteration (or ten) from the last solution and shows the state after it; each step restarts the method's momentum."))),
		elem.Paragraph(vecty.Markup(vecty.Class("hint")), vecty.Text("After a run, moving η or λ restarts from its solution (a warm start).")),
		vecty.If(s.Warm, elem.Paragraph(vecty.Markup(vecty.Class("hint")), vecty.Text("The last run started from the previous solution."))),
	)
}
