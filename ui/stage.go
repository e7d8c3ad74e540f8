//go:build js && wasm

package ui

import (
	"math"
	"strconv"

	"github.com/hexops/vecty"
	"github.com/hexops/vecty/elem"
	"github.com/hexops/vecty/event"
	"github.com/hexops/vecty/prop"

	"github.com/rml-lab/rml/spec"
	"github.com/rml-lab/rml/ui/draw"
	"github.com/rml-lab/rml/ui/store"
	"github.com/rml-lab/rml/wasm/protocol"
)

// The stage: the one screen a visitor meets first. The lesson and what to
// look for, the controls a student needs (dataset, noise, η, λ, Train,
// Pause, Step, Reset), the data under the Euclidean and the learned metric
// side by side with their test errors, and the curves of a run: the test
// error over the iterations, then the duality gap. Everything else (the
// guide, the data's details, the matrix, Compare, the sweeps) is below it.

// ControlsProps is what the stage's controls show.
type ControlsProps struct {
	Params                     store.Params
	Builtins                   []string
	Ready, CanTrain, Running   bool
	Loading                    bool   // a dataset is being read: Stop stops that
	HasResult, Paused          bool   // a result is shown; the run shown was stopped before the end
	FileName                   string // the uploaded file, when Params.Dataset is ""
	Still                      string // the dataset still loaded after a file failed to load
	Triplets, Swapped, ToTrain int    // of the last run (0: none), and of the next (store.TripletsToTrain)
}

func controlsProps(s *store.State, shown *protocol.Result) ControlsProps {
	p := ControlsProps{Params: s.Params, Builtins: s.Builtins, Ready: s.Ready, CanTrain: s.CanTrain(),
		Running: s.Status == store.Running || s.Job != nil, Loading: s.Loading || s.Opening != "", HasResult: shown != nil, FileName: s.FileName,
		Paused: s.Paused(), ToTrain: s.TripletsToTrain()}
	if s.Failed != nil && s.Data != nil {
		p.Still = s.Data.Name
	}
	if r := shown; r != nil {
		p.Triplets, p.Swapped = r.Triplets, r.Swapped
	}
	return p
}

// stageControls are the stage's controls.
func stageControls(c ControlsProps, d func(store.Action)) *vecty.HTML {
	p := c.Params
	hide := p.View.Hides
	var opts []vecty.MarkupOrChild
	opts = append(opts, vecty.Markup(vecty.Data("testid", "dataset-select"), vecty.Attribute("aria-label", "dataset"),
		prop.Disabled(!c.Ready),
		event.Change(func(e *vecty.Event) {
			if v := e.Target.Get("value").String(); v != "" {
				d(store.SelectBuiltin{Name: v})
			}
		})))
	for _, b := range c.Builtins {
		opts = append(opts, elem.Option(vecty.Markup(prop.Value(b), vecty.Property("selected", b == p.Dataset)), vecty.Text(b)))
	}
	if p.Dataset == "" {
		opts = append(opts, elem.Option(vecty.Markup(prop.Value(""), vecty.Property("selected", true)), vecty.Text("Your file: "+c.FileName)))
	}
	if !c.Ready {
		opts = append(opts, elem.Option(vecty.Text("starting the solver…")))
	}
	swapped := ""
	if c.Triplets > 0 {
		swapped = itoa(c.Swapped) + " of " + itoa(c.Triplets) + " triplets swapped"
	} else if n := c.ToTrain; n > 0 {
		swapped = "about " + swapsOf(p.Flip, n) + " of " + itoa(n) + " triplets will be swapped"
	}
	train := "Train"
	if c.Paused {
		train = "Go on"
	}
	if c.Still != "" {
		train = trainText(c.Still)
	}
	return elem.Div(vecty.Markup(vecty.Class("stage-controls")),
		vecty.If(!hide("dataset"), elem.Label(vecty.Text("Dataset "), elem.Select(opts...))),
		vecty.If(!hide("noise"), elem.Div(
			slider("Noise: swap each triplet with probability ", "flip", 0, 0.5, p.Flip, func(v float64) { d(store.SetFlip{Value: v}) }),
			elem.Paragraph(vecty.Markup(vecty.Class("hint"), vecty.Data("testid", "swapped")), vecty.Text(swapped)))),
		vecty.If(!hide("eta"), slider("η, the share of triplets trusted ", "eta", 0.5, 1, p.Eta, func(v float64) { d(store.SetEta{Value: v}) })),
		vecty.If(!hide("lambda"), lambdaControl(p.Lambda, d)),
		elem.Div(vecty.Markup(vecty.Class("buttons", "play")),
			elem.Button(vecty.Markup(vecty.Data("testid", "train"), vecty.Class("primary", "play-icon"), prop.Disabled(!c.CanTrain || c.Running),
				vecty.Attribute("title", "train with these settings (after Pause: go on from where it stopped)"),
				event.Click(func(*vecty.Event) { d(store.Train{}) })), vecty.Text(train)),
			elem.Button(vecty.Markup(vecty.Data("testid", "stop"), vecty.Class("pause-icon"), prop.Disabled(!c.Running && !c.Loading), vecty.Attribute("title", "pause the run, or stop reading a file"),
				event.Click(func(*vecty.Event) { d(store.Stop{}) })), vecty.Text("Pause")),
			vecty.If(!hide("steps"), elem.Button(vecty.Markup(vecty.Data("testid", "step"), prop.Disabled(!c.CanTrain || c.Running), vecty.Attribute("title", "one iteration from the result shown"),
				event.Click(func(*vecty.Event) { d(store.Step{N: 1}) })), vecty.Text("Step"))),
			vecty.If(!hide("steps"), elem.Button(vecty.Markup(vecty.Data("testid", "step-10"), prop.Disabled(!c.CanTrain || c.Running), vecty.Attribute("title", "ten iterations from the result shown"),
				event.Click(func(*vecty.Event) { d(store.Step{N: 10}) })), vecty.Text("×10"))),
			elem.Button(vecty.Markup(vecty.Data("testid", "reset"), prop.Disabled(!c.HasResult && !c.Running), vecty.Attribute("title", "clear the result"),
				event.Click(func(*vecty.Event) { d(store.Reset{}) })), vecty.Text("Reset")),
		),
	)
}

// swapsOf is about how many of n triplets a swap probability swaps.
func swapsOf(flip float64, n int) string {
	return strconv.FormatFloat(flip*float64(n), 'f', 0, 64)
}

// lambdaControl is λ on a log-scale slider over the paper's grid, and typed.
func lambdaControl(lambda float64, d func(store.Action)) *vecty.HTML {
	return elem.Label(vecty.Text("λ, the regularization "),
		elem.Input(vecty.Markup(prop.Type(prop.TypeRange), vecty.Data("testid", "lambda-slider"), vecty.Attribute("aria-label", "λ on a log scale"),
			vecty.Attribute("min", 0), vecty.Attribute("max", len(lambdaGrid)-1), vecty.Attribute("step", 1),
			prop.Value(strconv.Itoa(draw.NearestLambda(lambda))),
			event.Input(func(e *vecty.Event) {
				if i, err := strconv.Atoi(e.Target.Get("value").String()); err == nil && i >= 0 && i < len(lambdaGrid) {
					d(store.SetLambda{Value: lambdaGrid[i]})
				}
			}))),
		elem.Input(vecty.Markup(prop.Type(prop.TypeText), vecty.Data("testid", "lambda"), vecty.Class("short"), vecty.Attribute("inputmode", "decimal"),
			vecty.Attribute("aria-label", "λ"), prop.Value(strconv.FormatFloat(lambda, 'g', -1, 64)),
			event.Change(func(e *vecty.Event) {
				if v, ok := number(d, "λ", e.Target.Get("value").String(), spec.LambdaRange); ok {
					d(store.SetLambda{Value: v})
				}
			}))),
	)
}

// statusLine is the run's status where the eye is, beside the controls:
// a collapse is never a plain "converged", and says why and what to change.
func statusLine(s *store.State) *vecty.HTML {
	note := ""
	if s.Status == store.Collapsed {
		note = collapseNote(s.Params.Eta)
	}
	return elem.Div(vecty.Markup(vecty.Class("status-line")),
		elem.Span(vecty.Text("Status: ")),
		elem.Strong(vecty.Markup(vecty.Data("testid", "status"), vecty.Class("status", string(s.Status)),
			// Which run is current and which one the views show.
			vecty.Data("run", itoa(s.RunID)), vecty.Data("shown", itoa(s.ResultOf)), vecty.Attribute("aria-live", "polite"),
			// The solver workers in use, and the runs the helpers took.
			vecty.Data("workers", itoa(1+len(s.Helpers))), vecty.Data("helperRuns", itoa(s.HelperRuns)),
			// What runs the solver's innermost loops (protocol.Ready).
			vecty.Data("kernels", s.Kernels)),
			vecty.Text(string(s.Status))),
		vecty.If(note != "", elem.Paragraph(vecty.Markup(vecty.Class("status-note"), vecty.Data("testid", "status-note")), vecty.Text(note))),
		vecty.If(s.LoadNote() != "", elem.Paragraph(vecty.Markup(vecty.Class("hint"), vecty.Data("testid", "load-note")), vecty.Text(s.LoadNote()))),
	)
}

// collapseNote says why a metric collapsed to A = 0 and what changes it.
// A = 0 is optimal exactly when some weights q ∈ [0, 1]^N with Σq = Nη
// make Σ q_i K_i ⪯ 0 (docs/math.md): λ plays no part, so only η (or other
// triplets) can bring a metric back.
func collapseNote(eta float64) string {
	return "A = 0: at η = " + draw.Num(eta) + " the worst case can pick triplets whose evidence cancels, so no metric beats trusting none. " +
		"λ does not change this; raise η, or use triplets with less noise."
}

// ErrorChartProps is what the test-error chart shows: the learned metric's
// error over the run (its frames, then its result), the Euclidean error,
// the held-out rows it is measured on, and how far the run has gone.
type ErrorChartProps struct {
	Errors store.ErrorTrace
	Euclid float64
	Test   int     // held-out rows (0: no data)
	XMax   float64 // the run's iterations so far
}

func errorChartProps(s *store.State) ErrorChartProps {
	p := ErrorChartProps{Errors: s.Errors, XMax: float64(s.Last.Iter)}
	if s.Data != nil {
		p.Euclid, p.Test = s.Data.ErrEuclid, s.Data.Test
	}
	if n := len(s.Trace.Iters); n > 0 {
		p.XMax = math.Max(p.XMax, s.Trace.Iters[n-1])
	}
	return p
}

// sameErrorChart compares by the curve's slices (they only grow by
// appending, so the same start and length are the same curve).
func sameErrorChart(a, b ErrorChartProps) bool {
	return sameSlice(a.Errors.Iters, b.Errors.Iters) && sameSlice(a.Errors.Errs, b.Errors.Errs) &&
		a.Euclid == b.Euclid && a.Test == b.Test && a.XMax == b.XMax
}

const errW, errH = 360.0, 170.0

// errorChart draws the held-out 5-NN error against the iteration: the
// learned metric's (RML's style) as it learns, the Euclidean one as a
// dashed line, and a collapse (A = 0: no learned error) as a cross at the
// top.
func errorChart(p ErrorChartProps) *vecty.HTML {
	box := draw.Box{X: 44, Y: 8, W: errW - 56, H: errH - 44}
	xmax := p.XMax
	for _, v := range p.Errors.Iters {
		xmax = math.Max(xmax, v)
	}
	xmax = math.Max(xmax, 1)
	top := 0.1
	if p.Test > 0 {
		top = math.Max(top, p.Euclid)
	}
	for _, e := range p.Errors.Errs {
		if !math.IsNaN(e) {
			top = math.Max(top, e)
		}
	}
	top = math.Min(1, math.Ceil(top*1.15*20)/20)
	X := func(t float64) float64 { return box.X + box.W*t/xmax }
	Y := func(e float64) float64 { return box.Y + box.H*(1-e/top) }
	kids := []vecty.MarkupOrChild{vecty.Markup(vecty.Data("testid", "error-chart"), vecty.Data("points", itoa(len(p.Errors.Iters))),
		vecty.Attribute("viewBox", "0 0 "+f1(errW)+" "+f1(errH)), vecty.Attribute("role", "img"),
		vecty.Attribute("aria-label", "held-out 5-NN test error against iteration, learned and Euclidean")),
		svg("rect", vecty.Markup(vecty.Class("plot-bg"), vecty.Attribute("x", box.X), vecty.Attribute("y", box.Y), vecty.Attribute("width", box.W), vecty.Attribute("height", box.H)))}
	grid, labels := "", []vecty.MarkupOrChild{vecty.Markup(vecty.Class("ticks"))}
	for _, t := range draw.Ticks(0, top, 4) {
		y := Y(t)
		grid += "M" + f1(box.X) + " " + f1(y) + "h" + f1(box.W)
		labels = append(labels, svg("text", vecty.Markup(vecty.Attribute("x", box.X-5), vecty.Attribute("y", y+4), vecty.Attribute("text-anchor", "end")),
			vecty.Text(pctTick(t))))
	}
	for _, t := range draw.Ticks(0, xmax, 4) {
		x := X(t)
		labels = append(labels, svg("text", vecty.Markup(vecty.Attribute("x", x), vecty.Attribute("y", box.Y+box.H+14), vecty.Attribute("text-anchor", "middle")),
			vecty.Text(strconv.FormatFloat(t, 'f', -1, 64))))
	}
	kids = append(kids, svg("path", vecty.Markup(vecty.Class("grid"), vecty.Attribute("d", grid))), svg("g", labels...))
	if p.Test > 0 {
		st := draw.MethodStyle(spec.Euclid)
		kids = append(kids, svg("path", vecty.Markup(vecty.Class("series"), vecty.Style("stroke", st.Colour), vecty.Attribute("stroke-dasharray", st.Dash),
			vecty.Attribute("d", "M"+f1(box.X)+" "+f1(Y(p.Euclid))+"h"+f1(box.W)))))
	}
	st := draw.MethodStyle(spec.Fast)
	var line, dots, cross []byte
	for i, t := range p.Errors.Iters {
		e := p.Errors.Errs[i]
		x := X(t)
		if math.IsNaN(e) {
			cross = append(cross, "M"+f1(x-4)+" "+f1(box.Y+2)+"l8 8m0 -8l-8 8"...)
			continue
		}
		cmd := byte('L')
		if len(line) == 0 {
			cmd = 'M'
		}
		line = append(append(line, cmd), f1(x)+" "+f1(Y(e))...)
		dots = append(dots, 'M')
		dots = append(dots, f1(x)+" "+f1(Y(e))+"h0"...)
	}
	kids = append(kids,
		svg("path", vecty.Markup(vecty.Class("series"), vecty.Style("stroke", st.Colour), vecty.Attribute("d", string(line)))),
		svg("path", vecty.Markup(vecty.Class("pts"), vecty.Style("stroke", st.Colour), vecty.Style("stroke-width", "5"), vecty.Attribute("d", string(dots)))),
		svg("path", vecty.Markup(vecty.Class("cross"), vecty.Attribute("d", string(cross)))),
		svg("text", vecty.Markup(vecty.Class("axis"), vecty.Attribute("x", box.X+box.W/2), vecty.Attribute("y", errH-4), vecty.Attribute("text-anchor", "middle")), vecty.Text("iteration t")),
	)
	legend := elem.Div(vecty.Markup(vecty.Class("legend")),
		elem.Span(elem.Span(vecty.Markup(vecty.Class("line-key"), vecty.Style("border-top-color", st.Colour))), vecty.Text("learned")),
		elem.Span(elem.Span(vecty.Markup(vecty.Class("line-key", "dashed"), vecty.Style("border-top-color", draw.MethodStyle(spec.Euclid).Colour))), vecty.Text("Euclidean")),
	)
	caption := "Held-out 5-NN test error over the run"
	if p.Test > 0 {
		caption += " (" + itoa(p.Test) + " rows: one row is " + draw.Percent(1/float64(p.Test)) + ")"
	}
	return elem.Figure(vecty.Markup(vecty.Class("error-fig")),
		elem.FigureCaption(vecty.Text(caption)),
		svg("svg", kids...), legend)
}
