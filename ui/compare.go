//go:build js && wasm

package ui

import (
	"math"
	"slices"
	"strconv"
	"strings"

	"github.com/hexops/vecty"
	"github.com/hexops/vecty/elem"
	"github.com/hexops/vecty/event"
	"github.com/hexops/vecty/prop"

	"github.com/rml-lab/rml/spec"
	"github.com/rml-lab/rml/ui/draw"
	"github.com/rml-lab/rml/ui/store"
	"github.com/rml-lab/rml/wasm/protocol"
)

// The Compare panel: pinned runs as columns (settings, errors, the budget,
// rank, suspects), their convergence curves overlaid and their learned
// projections side by side; and the sweep panel: test error against η or
// the noise rate, point by point as the runs finish.

var methodNames = map[string]string{spec.Fast: "RML (fast)", spec.Nesterov: "RML (Alg. 1)", spec.Gradient: "RML (gradient)",
	spec.LMNN: "LMNN", spec.Xing: "Xing", spec.Euclid: "Euclid", spec.BestCase: "Best case",
	spec.Hinge: "Hinge", spec.Logistic: "Logistic", spec.TSTE: "t-STE"}

func methodName(m string) string {
	if n, ok := methodNames[m]; ok {
		return n
	}
	return m
}

// ComparePanelProps is what the Compare panel shows.
type ComparePanelProps struct {
	Pinned  []store.Run
	Classes []string
	Busy    string // "Compare: 2 of 5" while a Compare runs
}

func compareProps(s *store.State) ComparePanelProps {
	p := ComparePanelProps{Pinned: s.Pinned}
	if s.Data != nil {
		p.Classes = s.Data.Classes
	}
	if j := s.Job; j != nil && j.Kind == "compare" {
		n := len(store.CompareMethods) + 1
		p.Busy = "Comparing: " + methodName(j.Method) + ", " + itoa(n-len(s.Queue)) + " of " + itoa(n) + "…"
	}
	return p
}

// rankOf counts A's eigenvalues above 1e-9 of the largest.
func rankOf(ev []float64) int {
	n := 0
	for _, v := range ev {
		if v > 1e-9*math.Max(ev[0], 1e-300) { // ev is descending
			n++
		}
	}
	return n
}

// learnedError is a run's learned test error as shown: none when A
// collapsed, or when no row was held out (the Ask-me mode's runs).
func learnedError(r *protocol.Result) string {
	switch {
	case len(r.Test) == 0:
		return noTest
	case r.Collapsed:
		return "— (A = 0)"
	}
	return draw.Percent(r.ErrLearn)
}

// noTest is a test error where no row was held out.
const noTest = "— (no rows held out)"

// euclidError is a run's Euclidean test error as shown.
func euclidError(r *protocol.Result) string {
	if len(r.Test) == 0 {
		return noTest
	}
	return draw.Percent(r.ErrEuclid)
}

// comparePanel draws the Compare panel around overlay, the pinned runs'
// curves: an instance of its own (an overlayChart), given its props and
// redrawn before the panel by the glue (App.syncViews), so that the end of
// a Compare, which adds a column, sorts the columns and redraws every curve
// on a new scale, is two renders that Vecty can put in two frames, not one
// long task (TestFigures traces the first Compare in a fresh page). The
// overlay keeps its place among the panel's children with or without
// pinned runs: Vecty matches a child by its place.
func comparePanel(p ComparePanelProps, d func(store.Action), overlay vecty.Component) *vecty.HTML {
	busy := vecty.If(p.Busy != "", elem.Paragraph(vecty.Markup(vecty.Attribute("role", "status")), vecty.Text(p.Busy)))
	if len(p.Pinned) == 0 {
		return panel("7 · Compare", "compare",
			busy,
			elem.Paragraph(vecty.Markup(vecty.Class("hint"), vecty.Data("testid", "compare-table")),
				vecty.Text("Pin a run to keep it here, or press Compare to train the chosen method, the plain hinge loss, the best case, the logistic and t-STE losses, LMNN, Xing and Euclid on the same triplets, one after another.")),
			overlay)
	}
	rows := []struct {
		name string
		cell func(store.Run) string
	}{
		{"η", func(r store.Run) string { return draw.Num(r.Params.Eta) }},
		{"λ", func(r store.Run) string { return draw.Num(r.Params.Lambda) }},
		{"noise", func(r store.Run) string { return draw.Percent(r.Params.Flip) }},
		{"test error, learned", func(r store.Run) string { return learnedError(r.Result) }},
		{"test error, Euclidean", func(r store.Run) string { return euclidError(r.Result) }},
		{"Σq/m", func(r store.Run) string {
			if !isRML(r.Result.Method) {
				return "—"
			}
			s := draw.Num(r.Result.SumQ / r.Result.Budget)
			if r.Result.BudgetActive {
				s += " (binds)"
			}
			return s
		}},
		{"rank of A", func(r store.Run) string { return itoa(rankOf(r.Result.Eigen)) + " of " + itoa(r.Result.D) }},
		{"suspects swapped", func(r store.Run) string { return draw.Percent(r.Result.SuspectPrecision) }},
		{"iterations", func(r store.Run) string { return itoa(r.Result.Iter) + " (" + r.Result.Status + ")" }},
	}
	// Every cell of a column is keyed by its run, so that when a Compare's
	// last run sorts the columns Vecty moves those that moved instead of
	// redrawing them in their new places (their projections above all).
	keys := pinKeys(p.Pinned)
	titles := runTitles(p.Pinned)
	head := []vecty.MarkupOrChild{elem.TableHeader(vecty.Markup(vecty.Key(rowHead), vecty.Attribute("scope", "col")), vecty.Text("run"))}
	for i, r := range p.Pinned {
		i := i
		head = append(head, elem.TableHeader(vecty.Markup(vecty.Key(keys[i]), vecty.Attribute("scope", "col")),
			seriesKey(draw.Style{Colour: runColour(r), Marker: draw.MethodStyle(r.Params.Method).Marker, Dash: runDash(p.Pinned, i)}),
			vecty.Text(titles[i]+" "),
			elem.Button(vecty.Markup(vecty.Class("mini"), vecty.Attribute("aria-label", "remove column "+itoa(i+1)),
				event.Click(func(*vecty.Event) { d(store.Unpin{Index: i}) })), vecty.Text("×"))))
	}
	body := []vecty.MarkupOrChild{elem.TableRow(head...)}
	for _, row := range rows {
		cells := []vecty.MarkupOrChild{elem.TableHeader(vecty.Markup(vecty.Key(rowHead), vecty.Attribute("scope", "row")), vecty.Text(row.name))}
		for i, r := range p.Pinned {
			cells = append(cells, elem.TableData(vecty.Markup(vecty.Key(keys[i])), vecty.Text(row.cell(r))))
		}
		body = append(body, elem.TableRow(cells...))
	}
	// The learned projections, small.
	views := []vecty.MarkupOrChild{elem.TableHeader(vecty.Markup(vecty.Key(rowHead), vecty.Attribute("scope", "row")), vecty.Text("projection"))}
	for i, r := range p.Pinned {
		// Each column's projection is drawn once: a Compare adds a column
		// per run, and the columns before it keep theirs (moved, by key,
		// when the columns are sorted).
		views = append(views, elem.TableData(vecty.Markup(vecty.Key(keys[i])), &miniView{Props: miniProps{r.Result, len(p.Classes)}}))
	}
	body = append(body, elem.TableRow(views...))
	return panel("7 · Compare", "compare",
		busy,
		elem.Div(vecty.Markup(vecty.Class("scroll"), vecty.Attribute("tabindex", 0), vecty.Attribute("role", "region"), vecty.Attribute("aria-label", "pinned runs")),
			elem.Table(vecty.Markup(vecty.Class("cmp"), vecty.Data("testid", "compare-table"), vecty.Data("runs", itoa(len(p.Pinned)))),
				elem.Caption(vecty.Text("Pinned runs on the same data: one column each.")),
				elem.TableBody(body...))),
		overlay,
		elem.Paragraph(vecty.Markup(vecty.Class("hint")), vecty.Text("RML's and the hinge loss's curves are their certified duality gaps; LMNN's, Xing's and the logistic loss's are certified gaps too (Xing's by Frank–Wolfe's bound, the logistic's by its Fenchel dual), the best case's is its own stopping measure. t-STE's loss is not convex: its curve is a first-order estimate of what a step could still gain, and its answer a local optimum. A collapsed metric (A = 0) has no learned error.")),
	)
}

func isRML(m string) bool { return slices.Contains(spec.RMLMethods, m) }

// rowHead keys the header cell of each row of the Compare table: Vecty asks
// every sibling of a keyed cell for a key.
const rowHead = "row"

// pinKey keys a pinned run's cells in the table: its ID, and how many
// columns before it have the same ID (a run pinned by hand has one, the
// warm-up render pins one twice), so that no two siblings share a key.
type pinKey struct{ id, n int }

// pinKeys returns the key of each pinned run, in order.
func pinKeys(runs []store.Run) []pinKey {
	keys := make([]pinKey, len(runs))
	seen := map[int]int{}
	for i, r := range runs {
		keys[i] = pinKey{r.ID, seen[r.ID]}
		seen[r.ID]++
	}
	return keys
}

// runColour is a pinned run's colour, its swatch's and its curve's: its
// method's, as everywhere.
func runColour(r store.Run) string { return draw.MethodStyle(r.Params.Method).Colour }

// runDash is a pinned run's curve's dash: its method's, unless an earlier
// column has the method too, and then one of a few patterns by its mark.
func runDash(runs []store.Run, i int) string {
	r := runs[i]
	for _, o := range runs[:i] {
		if o.Params.Method == r.Params.Method {
			return []string{"6 3", "2 2", "8 2 2 2", "1 3"}[r.Mark%4]
		}
	}
	return draw.MethodStyle(r.Params.Method).Dash
}

// runTitles titles each pinned run by its method and, where two runs share
// one, by the settings that tell them apart (η, λ, the noise, the
// tolerance): two columns are never both just "RML (fast)".
func runTitles(runs []store.Run) []string {
	out := make([]string, len(runs))
	for i, r := range runs {
		out[i] = methodName(r.Params.Method)
		var diff []string
		for j, o := range runs {
			if j == i || o.Params.Method != r.Params.Method {
				continue
			}
			for _, f := range []struct {
				name string
				a, b float64
			}{{"η", r.Params.Eta, o.Params.Eta}, {"λ", r.Params.Lambda, o.Params.Lambda}, {"noise", r.Params.Flip, o.Params.Flip}, {"tol", r.Params.Tol, o.Params.Tol}} {
				if f.a != f.b && !slices.ContainsFunc(diff, func(s string) bool { return strings.HasPrefix(s, f.name+" ") }) {
					diff = append(diff, f.name+" "+draw.Num(f.a))
				}
			}
		}
		if len(diff) > 0 {
			out[i] += " · " + strings.Join(diff, ", ")
		}
	}
	return out
}

const miniW, miniH = 120.0, 104.0

// miniProps is what a pinned run's small projection shows: the run's
// result (never changed once it arrived) and the number of classes.
type miniProps struct {
	Result  *protocol.Result
	Classes int
}

// sameMini compares by the result's pointer: reflect.DeepEqual would walk
// two results' rows when they differ.
func sameMini(a, b miniProps) bool { return a.Result == b.Result && a.Classes == b.Classes }

// miniView is a pinned run's small projection in its column. A column's
// first render draws the projection's frame alone, and the points follow
// in a render of their own, queued from a task after it: Vecty draws the
// renders queued for a frame until the frame's time is spent and leaves the
// rest to the next, so a Compare's new column (or a page of pinned runs
// restored from a link) does not draw its points in the panel's task. A
// column that moves keeps its drawing (its cells are keyed by its run).
type miniView struct {
	vecty.Core
	Props miniProps `vecty:"prop"`
	shown miniProps // what the drawing shows: zero for the frame alone
}

func (v *miniView) SkipRender(prev vecty.Component) bool {
	q, ok := prev.(*miniView)
	return ok && sameMini(q.Props, v.Props) && sameMini(q.shown, v.shown)
}

func (v *miniView) Render() vecty.ComponentOrHTML {
	if !sameMini(v.shown, v.Props) {
		// A render before this one's task comes queues another, which
		// then finds Props shown and does nothing.
		after(0, func() {
			if !sameMini(v.shown, v.Props) {
				v.shown = v.Props
				vecty.Rerender(v) // skipped by Vecty if the column has gone
			}
		})
	}
	if v.shown.Result != nil {
		markRender("mini")
	}
	return miniProjection(v.shown, v.Props.Result.Method)
}

// miniProjection draws a run's learned projection small, one path a class,
// or with p's result nil the frame alone; method names it for a screen
// reader either way.
func miniProjection(p miniProps, method string) *vecty.HTML {
	r, classes := p.Result, p.Classes
	kids := []vecty.MarkupOrChild{vecty.Markup(vecty.Attribute("viewBox", "0 0 "+f1(miniW)+" "+f1(miniH)), vecty.Class("mini-proj"),
		vecty.Attribute("role", "img"), vecty.Attribute("aria-label", "learned projection of "+methodName(method))),
		svg("rect", vecty.Markup(vecty.Class("plot-bg"), vecty.Attribute("width", miniW), vecty.Attribute("height", miniH)))}
	if r == nil {
		return svg("svg", kids...)
	}
	box := draw.Box{W: miniW, H: miniH}
	sc := draw.NewScatter(box, r.Learned, 6)
	for c := 0; c < classes; c++ {
		var rows []int
		for i := 0; i < r.N && i < len(r.Labels); i++ {
			if int(r.Labels[i]) == c {
				rows = append(rows, i)
			}
		}
		kids = append(kids, svg("path", vecty.Markup(vecty.Class("pts"), vecty.Style("stroke", draw.ClassColour(c)), vecty.Style("stroke-width", draw.DotWidth(1.8)), vecty.Attribute("d", sc.Markers(r.Learned, rows, draw.Circle, 1.8)))))
	}
	return svg("svg", kids...)
}

// thin keeps at most n points of a trace, evenly, and its last.
func thin(iters, gaps []float64, n int) ([]float64, []float64) {
	if len(iters) <= n {
		return iters, gaps
	}
	var ti, tg []float64
	step := float64(len(iters)) / float64(n)
	for k := 0.0; int(k) < len(iters); k += step {
		ti, tg = append(ti, iters[int(k)]), append(tg, gaps[int(k)])
	}
	return append(ti, iters[len(iters)-1]), append(tg, gaps[len(gaps)-1])
}

// overlayW is the width of the pinned runs' curves.
const overlayW = 560.0

// curveProps is one pinned run's curve on the overlay's scale.
type curveProps struct {
	Curve        draw.Curve
	Iters, Gaps  []float64
	Colour, Dash string
}

// overlayCurve draws one pinned run's curve as a path.
func overlayCurve(p curveProps) *vecty.HTML {
	return svg("path", vecty.Markup(vecty.Class("curve"), vecty.Style("stroke", p.Colour), vecty.Attribute("stroke-dasharray", p.Dash), vecty.Attribute("d", p.Curve.Path(p.Iters, p.Gaps))))
}

// OverlayProps is what the Compare panel's overlay shows: the pinned runs.
type OverlayProps struct{ Pinned []store.Run }

// overlayChart draws every pinned run's curve on one log scale; with none
// pinned, an empty placeholder that keeps the overlay's place in the panel.
func overlayChart(p OverlayProps) *vecty.HTML {
	runs := p.Pinned
	if len(runs) == 0 {
		return elem.Div()
	}
	box := draw.Box{X: 60, Y: 10, W: overlayW - 72, H: 160}
	var all, allG []float64
	for _, r := range runs {
		all, allG = append(all, r.Trace.Iters...), append(allG, r.Trace.Gaps...)
	}
	kids := []vecty.MarkupOrChild{vecty.Markup(vecty.Data("testid", "compare-chart"), vecty.Attribute("viewBox", "0 0 "+f1(overlayW)+" 200"),
		vecty.Attribute("role", "img"), vecty.Attribute("aria-label", "the pinned runs' convergence curves, log scale")),
		svg("rect", vecty.Markup(vecty.Class("plot-bg"), vecty.Attribute("x", box.X), vecty.Attribute("y", box.Y), vecty.Attribute("width", box.W), vecty.Attribute("height", box.H)))}
	cv, ok := draw.NewCurve(box, all, allG)
	var summary []string
	if ok {
		for e := cv.YLo; e <= cv.YHi; e++ {
			kids = append(kids, svg("text", vecty.Markup(vecty.Class("ticks"), vecty.Attribute("x", box.X-6), vecty.Attribute("y", cv.Y(math.Pow(10, e))+4), vecty.Attribute("text-anchor", "end")),
				vecty.Text("1e"+strconv.Itoa(int(e)))))
		}
		titles := runTitles(runs)
		for i, r := range runs {
			ti, tg := thin(r.Trace.Iters, r.Trace.Gaps, 400)
			if len(ti) == 0 {
				continue
			}
			// A curve is drawn again only when its points, the scale or its
			// look change (not when a run is added on the same scale).
			kids = append(kids, &Memo[curveProps]{Props: curveProps{cv, ti, tg, runColour(r), runDash(runs, i)}, Draw: overlayCurve})
			summary = append(summary, titles[i]+": "+itoa(len(r.Trace.Iters))+" iterations to "+draw.Num(tg[len(tg)-1]))
		}
	}
	kids = append(kids, svg("text", vecty.Markup(vecty.Class("axis"), vecty.Attribute("x", box.X+box.W/2), vecty.Attribute("y", 196), vecty.Attribute("text-anchor", "middle")), vecty.Text("iteration t (gap or stopping measure, log scale)")))
	text := "No curves yet."
	if len(summary) > 0 {
		text = "Curves: " + strings.Join(summary, "; ") + "."
	}
	return elem.Figure(svg("svg", kids...), elem.Paragraph(vecty.Markup(vecty.Class("hint"), vecty.Data("testid", "compare-summary")), vecty.Text(text)))
}

// SweepProps is what the sweep panel shows.
type SweepProps struct {
	Sweep  store.Sweep
	Method string   // the chosen RML method
	Test   int      // held-out rows the errors are counted on
	Hidden []string // series the legend turned off
	Busy   bool
}

func sweepProps(s *store.State) SweepProps {
	p := SweepProps{Sweep: s.Sweep, Method: s.Params.Method, Hidden: s.HiddenSeries, Busy: s.Job != nil && s.Job.Kind == "sweep"}
	if s.Data != nil {
		p.Test = s.Data.Test
	}
	return p
}

const sweepW, sweepH = 560.0, 290.0

// sweepPanel draws test error against η or the noise rate, one series a
// learner in its style (draw.MethodStyle: colour, marker), each point
// with Wilson's 95 % interval over the held-out rows and the series
// nudged apart so that none hides another; Euclid is a dashed line. The
// legend under the chart turns series on and off.
func sweepPanel(p SweepProps, d func(store.Action)) *vecty.HTML {
	sw := p.Sweep
	sw.Points = sw.Ordered() // each method's line along the axis, whatever order its runs ended in
	buttons := elem.Div(vecty.Markup(vecty.Class("buttons")),
		elem.Button(vecty.Markup(vecty.Data("testid", "eta-sweep"), prop.Disabled(p.Busy), event.Click(func(*vecty.Event) { d(store.SweepRun{Axis: "eta"}) })), vecty.Text("Sweep η")),
		elem.Button(vecty.Markup(vecty.Data("testid", "flip-sweep"), prop.Disabled(p.Busy), event.Click(func(*vecty.Event) { d(store.SweepRun{Axis: "flip"}) })), vecty.Text("Sweep the noise")),
	)
	status := ""
	if sw.Axis != "" {
		status = itoa(len(sw.Points)) + " of " + itoa(sw.Total) + " runs done."
	}
	g := newSweepGeom(p, sw)
	kids := []vecty.MarkupOrChild{vecty.Markup(vecty.Data("testid", "eta-sweep-chart"), vecty.Data("points", itoa(len(sw.Points))),
		vecty.Attribute("viewBox", "0 0 "+f1(sweepW)+" "+f1(sweepH)), vecty.Attribute("role", "img"), vecty.Attribute("aria-label", "test error against "+g.axis)),
		svg("rect", vecty.Markup(vecty.Class("plot-bg"), vecty.Attribute("x", g.box.X), vecty.Attribute("y", g.box.Y), vecty.Attribute("width", g.box.W), vecty.Attribute("height", g.box.H)))}
	bands, binds, collapses := g.bands(sw, p.Method)
	kids = append(kids, bands...)
	kids = append(kids, g.ticks())
	// Euclid: a dashed line at its error (it depends on neither axis's
	// triplets: the split is the same).
	if len(sw.Points) > 0 && !g.hidden(spec.Euclid) {
		st := draw.MethodStyle(spec.Euclid)
		y := g.Y(sw.Points[0].ErrEuclid)
		kids = append(kids, svg("path", vecty.Markup(vecty.Class("series"), vecty.Style("stroke", st.Colour), vecty.Attribute("stroke-dasharray", st.Dash),
			vecty.Attribute("d", "M"+f1(g.box.X)+" "+f1(y)+"h"+f1(g.box.W)))))
	}
	methods := append([]string{p.Method}, store.NoiseMethods...)
	if sw.Axis == "eta" {
		methods = append([]string{p.Method, spec.BestCase}, store.EtaFree...) // the hinge loss is the chosen method at η = 1
	}
	series, summary := g.series(sw, methods)
	kids = append(kids, series...)
	kids = append(kids, svg("text", vecty.Markup(vecty.Class("axis"), vecty.Attribute("x", g.box.X+g.box.W/2), vecty.Attribute("y", sweepH-8), vecty.Attribute("text-anchor", "middle")), vecty.Text(g.axis)))
	if len(binds) > 0 {
		summary = append(summary, "the budget binds at "+strings.Join(binds, ", "))
	}
	if len(collapses) > 0 {
		summary = append(summary, "A collapses to 0 at "+strings.Join(collapses, ", "))
	}
	text := "Press a sweep button: each point appears as its run finishes."
	if p.Test == 0 && sw.Axis == "" {
		text = "No row is held out of these data (the Ask-me mode measures held-out questions instead), so a sweep has no test error to draw."
	}
	if len(summary) > 0 {
		text = "Test error. " + strings.Join(summary, "; ") + "."
	}
	return panel("8 · Sweep", "sweep",
		buttons,
		elem.Paragraph(vecty.Markup(vecty.Class("hint"), vecty.Attribute("role", "status")), vecty.Text(status)),
		svg("svg", kids...),
		sweepLegend(append(methods, spec.Euclid), g.hidden, d),
		elem.Paragraph(vecty.Markup(vecty.Class("hint")), vecty.Text("Each point is one run's 5-NN test error with its 95 % interval (Wilson's, over the "+itoa(p.Test)+" held-out rows); the series are nudged apart so that none hides another. "+
			"Amber band: the budget Σq ≤ Nη binds; red band and ×: the metric collapsed to A = 0, so it has no error to plot. Every run starts from scratch; the one at the current settings is Train's.")),
		elem.Paragraph(vecty.Markup(vecty.Data("testid", "sweep-summary"), vecty.Class("summary")), vecty.Text(text)),
	)
}

// sweepGeom places a sweep's points: the axis's range and title, the plot
// box, the error scale's top, and which series the legend hid.
type sweepGeom struct {
	x0, x1, top float64
	axis        string
	xs          []float64 // the points' values along the axis
	box         draw.Box
	test        int // held-out rows, for the error's interval
	hiddenSet   []string
}

func newSweepGeom(p SweepProps, sw store.Sweep) *sweepGeom {
	g := &sweepGeom{x0: 0.5, x1: 1, axis: "η, the share of triplets trusted", test: p.Test, hiddenSet: p.Hidden,
		box: draw.Box{X: 58, Y: 12, W: sweepW - 76, H: sweepH - 76}}
	if sw.Axis == "flip" {
		g.x0, g.x1, g.axis = 0, 0.4, "noise: share of triplets swapped"
	}
	for _, pt := range sw.Points {
		if !slices.Contains(g.xs, pt.X) {
			g.xs = append(g.xs, pt.X)
		}
	}
	for _, x := range g.xs {
		g.x0, g.x1 = math.Min(g.x0, x), math.Max(g.x1, x)
	}
	top := 0.1
	for _, pt := range sw.Points {
		if !pt.Collapsed && !g.hidden(pt.Method) {
			_, hi := g.interval(pt.Err)
			top = math.Max(top, hi)
		}
		top = math.Max(top, pt.ErrEuclid)
	}
	g.top = math.Min(1, math.Ceil(top*10)/10)
	return g
}

func (g *sweepGeom) X(v float64) float64  { return g.box.X + g.box.W*(v-g.x0)/(g.x1-g.x0) }
func (g *sweepGeom) Y(v float64) float64  { return g.box.Y + g.box.H*(1-v/g.top) }
func (g *sweepGeom) hidden(m string) bool { return slices.Contains(g.hiddenSet, m) }

// interval is a test error's 95 % interval (Wilson's) over the held-out
// rows.
func (g *sweepGeom) interval(e float64) (lo, hi float64) {
	if g.test <= 0 || math.IsNaN(e) {
		return e, e
	}
	return spec.Wilson(spec.Misclassified(e, g.test), g.test)
}

// bands are the bands where method's budget binds or its metric
// collapsed, with the axis values of each kind.
func (g *sweepGeom) bands(sw store.Sweep, method string) (kids []vecty.MarkupOrChild, binds, collapses []string) {
	half := (g.x1 - g.x0) / 10
	if len(g.xs) > 1 {
		half = (g.x1 - g.x0) / float64(2*(len(g.xs)-1))
	}
	for _, pt := range sw.Points {
		if pt.Method != method || !(pt.Active || pt.Collapsed) {
			continue
		}
		cls, where := "band-binds", &binds
		if pt.Collapsed {
			cls, where = "band-collapsed", &collapses
		}
		*where = append(*where, draw.Num(pt.X))
		a, b := math.Max(g.x0, pt.X-half), math.Min(g.x1, pt.X+half)
		kids = append(kids, svg("rect", vecty.Markup(vecty.Class(cls), vecty.Attribute("x", g.X(a)), vecty.Attribute("y", g.box.Y), vecty.Attribute("width", g.X(b)-g.X(a)), vecty.Attribute("height", g.box.H))))
	}
	return kids, binds, collapses
}

// ticks are the error axis's ticks and one tick at each point's value.
func (g *sweepGeom) ticks() *vecty.HTML {
	ticks := []vecty.MarkupOrChild{vecty.Markup(vecty.Class("ticks"))}
	for _, t := range draw.Ticks(0, g.top, 4) {
		ticks = append(ticks, svg("text", vecty.Markup(vecty.Attribute("x", g.box.X-6), vecty.Attribute("y", g.Y(t)+4), vecty.Attribute("text-anchor", "end")), vecty.Text(pctTick(t))))
	}
	for _, x := range g.xs {
		ticks = append(ticks, svg("text", vecty.Markup(vecty.Attribute("x", g.X(x)), vecty.Attribute("y", g.box.Y+g.box.H+28), vecty.Attribute("text-anchor", "middle")), vecty.Text(draw.Num(x))))
	}
	return svg("g", ticks...)
}

// series draws each method's points, in its style, nudged apart, with
// their intervals and a cross where the metric collapsed, and says them in
// words (summary), hidden ones too.
func (g *sweepGeom) series(sw store.Sweep, methods []string) (kids []vecty.MarkupOrChild, summary []string) {
	sc := draw.Scatter{Unit: 1} // markers at pixel positions: At is the identity with Box and centre 0
	for i, m := range methods {
		st := draw.MethodStyle(m)
		nudge := (float64(i) - float64(len(methods)-1)/2) * 4 // px: series side by side, none under another
		var path, bars, cross string
		var marks []float64
		var said []string
		for _, pt := range sw.Points {
			if pt.Method != m {
				continue
			}
			x := g.X(pt.X) + nudge
			if pt.Collapsed {
				cross += "M" + f1(x-4) + " " + f1(g.box.Y+4) + "l8 8m0 -8l-8 8"
				said = append(said, draw.Num(pt.X)+": A = 0")
				continue
			}
			y := g.Y(pt.Err)
			lo, hi := g.interval(pt.Err)
			bars += "M" + f1(x) + " " + f1(g.Y(lo)) + "V" + f1(g.Y(hi))
			if path == "" {
				path = "M"
			} else {
				path += "L"
			}
			path += f1(x) + " " + f1(y)
			marks = append(marks, x, -y) // Scatter's y grows upwards
			said = append(said, draw.Num(pt.X)+": "+draw.Percent(pt.Err))
		}
		if len(said) == 0 {
			continue
		}
		summary = append(summary, methodName(m)+" — "+strings.Join(said, ", "))
		if g.hidden(m) {
			continue
		}
		if (m == spec.LMNN || m == spec.Xing) && sw.Axis == "eta" && path != "" {
			// η-free: one run, drawn across.
			y := g.Y(sw.Points[slices.IndexFunc(sw.Points, func(pt store.SweepPoint) bool { return pt.Method == m })].Err)
			path = "M" + f1(g.box.X) + " " + f1(y) + "h" + f1(g.box.W)
		}
		rows := make([]int, len(marks)/2)
		for k := range rows {
			rows[k] = k
		}
		kids = append(kids,
			svg("path", vecty.Markup(vecty.Class("series"), vecty.Style("stroke", st.Colour), vecty.Attribute("stroke-dasharray", st.Dash), vecty.Attribute("d", path))),
			svg("path", vecty.Markup(vecty.Class("err-bar"), vecty.Style("stroke", st.Colour), vecty.Attribute("d", bars))),
			svg("path", vecty.Markup(vecty.Class("mark"), vecty.Data("method", m), vecty.Style("stroke", st.Colour), vecty.Style("fill", st.Colour), vecty.Attribute("d", sc.Markers(marks, rows, st.Marker, 4)))),
			svg("path", vecty.Markup(vecty.Class("cross"), vecty.Style("stroke", st.Colour), vecty.Attribute("d", cross))))
	}
	return kids, summary
}

// sweepLegend is the legend whose keys show or hide each series.
func sweepLegend(methods []string, hidden func(string) bool, d func(store.Action)) *vecty.HTML {
	legend := []vecty.MarkupOrChild{vecty.Markup(vecty.Class("legend", "toggles"), vecty.Attribute("role", "group"), vecty.Attribute("aria-label", "series shown"))}
	for _, m := range methods {
		st := draw.MethodStyle(m)
		legend = append(legend, elem.Button(vecty.Markup(vecty.Class("mini", "series-key"), vecty.Data("testid", "series-"+m),
			vecty.Attribute("aria-pressed", strconv.FormatBool(!hidden(m))), vecty.Attribute("title", "show or hide "+methodName(m)),
			event.Click(func(*vecty.Event) { d(store.ToggleSeries{Name: m}) })),
			seriesKey(st), vecty.Text(methodName(m))))
	}
	return elem.Div(legend...)
}

// seriesKey is a learner's line and marker, small, for a legend.
func seriesKey(st draw.Style) *vecty.HTML {
	sc := draw.Scatter{Unit: 1}
	return svg("svg", vecty.Markup(vecty.Class("key-mark"), vecty.Attribute("viewBox", "0 0 24 12"), vecty.Attribute("aria-hidden", "true")),
		svg("path", vecty.Markup(vecty.Style("stroke", st.Colour), vecty.Attribute("stroke-dasharray", st.Dash), vecty.Style("stroke-width", "2"), vecty.Attribute("d", "M1 6h22"))),
		svg("path", vecty.Markup(vecty.Style("stroke", st.Colour), vecty.Style("fill", st.Colour), vecty.Attribute("d", sc.Markers([]float64{12, -6}, []int{0}, st.Marker, 3.5)))))
}

// pctTick writes a tick's share as a percentage without rounding noise:
// 0.15 is "15%", not "15.000000000000002%".
func pctTick(v float64) string {
	return strconv.FormatFloat(math.Round(v*1000)/10, 'f', -1, 64) + "%"
}
