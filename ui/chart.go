//go:build js && wasm

package ui

import (
	"math"
	"reflect"
	"strconv"

	"github.com/hexops/vecty"
	"github.com/hexops/vecty/elem"
	"github.com/hexops/vecty/event"

	"github.com/rml-lab/rml/spec"
	"github.com/rml-lab/rml/ui/draw"
	"github.com/rml-lab/rml/ui/store"
	"github.com/rml-lab/rml/wasm/protocol"
)

// Chart is panel 4: Δ_t against t on a log scale, drawn as it runs, with
// the numbers beside it; hovering shows the values at an iteration.
//
// It is one instance that the glue gives new props and redraws alone on a
// progress message (with), so that a run costs the main thread little.
type Chart struct {
	vecty.Core
	Props    ChartProps
	dispatch func(store.Action)
	hover    int // index into the trace under the pointer
	hovered  bool
	pyr      draw.Pyramid // the trace summarized for drawing
	pyrRun   int          // the run it summarizes
	curve    draw.Curve   // the layout last drawn, for hovering
	drawn    bool
	rendered bool   // it has been rendered: vecty.Rerender may be called on it
	pathBuf  []byte // the curve's path data, kept from one redraw to the next
}

// path returns the curve's path data, built in c.pathBuf.
func (c *Chart) path(cv draw.Curve, ti, gi []float64) string {
	c.pathBuf = cv.AppendPath(c.pathBuf, ti, gi)
	return string(c.pathBuf)
}

// SkipRender skips the chart while nothing it shows changed: without it
// every redraw of the page (a slider moved, a panel's button) redrew its
// axes, curve and numbers too.
func (c *Chart) SkipRender(prev vecty.Component) bool {
	q, ok := prev.(*Chart)
	return ok && c.Props.same(q.Props) && c.hover == q.hover && c.hovered == q.hovered
}

// same reports whether p and o show the same: the trace's slices only grow
// by appending, so the same start and length are the same trace.
func (p ChartProps) same(o ChartProps) bool {
	a, b := p.Last, o.Last
	if !sameSlice(p.Trace.Iters, o.Trace.Iters) || !sameSlice(p.Trace.Gaps, o.Trace.Gaps) ||
		!sameSlice(a.Iters, b.Iters) || !sameSlice(a.Gaps, b.Gaps) {
		return false
	}
	a.Iters, a.Gaps, b.Iters, b.Gaps = nil, nil, nil, nil
	return reflect.DeepEqual(a, b) && p.Tol == o.Tol && p.RunID == o.RunID && p.Running == o.Running &&
		p.Rate == o.Rate && p.Done == o.Done && p.Left == o.Left && p.HasLeft == o.HasLeft && p.Guess == o.Guess && p.BestCase == o.BestCase
}

// ChartProps is what the chart shows.
type ChartProps struct {
	Trace   store.Trace       // Δ_t against t, every iteration reported
	Last    protocol.Progress // the latest progress
	Tol     float64           // the stopping level's tolerance
	RunID   int               // the run the trace is of
	Running bool
	Rate    float64 // iterations per second so far, 0 before any
	Done    bool    // a result is shown: the chart can be downloaded
	// Left is the estimated time to the stopping level, in seconds, if
	// there is an estimate (State.Remaining).
	Left    float64
	HasLeft bool
	// Guess: the run is the fast method's, whose iterations on large sets
	// spec.GuessIters bound, so its length can be guessed before its gap
	// says more.
	Guess bool
	// BestCase: the run shown is the best case (the last run of a
	// sweep), which has no duality gap: it stops at a local optimum,
	// when its trusted set repeats, and its progress counts outer steps.
	BestCase bool
}

func chartProps(s *store.State) ChartProps {
	p := ChartProps{Trace: s.Trace, Last: s.Last, Tol: s.Params.Tol, RunID: s.RunID, Running: s.Status == store.Running, Rate: s.Rate(), Done: s.CanExport()}
	p.Left, p.HasLeft = s.Remaining()
	p.Guess = s.Params.Method == spec.Fast
	p.BestCase = !p.Running && s.Result != nil && s.ResultOf == s.RunID && s.Result.Method == spec.BestCase
	return p
}

// guessIters is spec.GuessIters in words, "200 to 5000".
var guessIters = draw.Num(spec.GuessIters[0]) + " to " + draw.Num(spec.GuessIters[1])

// leftText says how long a run still needs, roughly.
func leftText(p ChartProps) string {
	switch {
	case !p.Running:
		return "—"
	case !p.HasLeft && p.Rate > 0 && p.Guess:
		// Until the gap says how fast it falls, the time per iteration
		// times what runs on large sets took (spec.FirstGuess).
		return "first guess: " + spec.GuessText(1/p.Rate, p.Tol)
	case !p.HasLeft:
		return "estimating…"
	}
	return spec.RoughDuration(p.Left)
}

// setProps gives the chart p and reports whether it differs from its last
// props.
func (c *Chart) setProps(p ChartProps) bool {
	if p.same(c.Props) {
		return false
	}
	c.Props = p
	return true
}

const chartW, chartH = 360.0, 170.0

func (c *Chart) Render() vecty.ComponentOrHTML {
	c.rendered = true
	markRender("chart")
	s := c.Props
	iters, gaps, last := s.Trace.Iters, s.Trace.Gaps, s.Last
	box := draw.Box{X: 44, Y: 8, W: chartW - 56, H: chartH - 44}
	children := []vecty.MarkupOrChild{vecty.Markup(
		vecty.Data("testid", "gap-chart"), vecty.Data("points", strconv.Itoa(len(iters))),
		vecty.Attribute("viewBox", "0 0 "+f1(chartW)+" "+f1(chartH)), vecty.Attribute("role", "img"),
		vecty.Attribute("aria-label", "duality gap against iteration, log scale"),
		event.MouseMove(func(e *vecty.Event) { c.pointer(e, iters) }),
		event.MouseLeave(func(*vecty.Event) { c.hovered = false; vecty.Rerender(c) }),
	)}
	children = append(children, svg("rect", vecty.Markup(vecty.Class("plot-bg"),
		vecty.Attribute("x", box.X), vecty.Attribute("y", box.Y), vecty.Attribute("width", box.W), vecty.Attribute("height", box.H))))
	// Long runs are drawn from the pyramid: the cost stays flat with the
	// number of iterations.
	if s.RunID != c.pyrRun {
		c.pyr, c.pyrRun = draw.Pyramid{}, s.RunID // a new run's trace
	}
	c.pyr.Update(iters, gaps)
	ti, gi := c.pyr.Points(iters, gaps, 4*int(box.W))
	cv, ok := draw.NewCurve(box, ti, gi)
	ok = ok && !s.BestCase // its trace is 1 while the set changes, then 0: no gap to draw
	c.curve, c.drawn = cv, ok
	if ok {
		children = append(children, c.curveKids(box, cv, ti, gi)...)
	} else {
		children = append(children, emptyChart(s))
	}
	children = append(children, svg("text", vecty.Markup(vecty.Class("axis"), vecty.Attribute("x", box.X+box.W/2), vecty.Attribute("y", chartH-4), vecty.Attribute("text-anchor", "middle")), vecty.Text("iteration t")))

	rate := "—"
	if r := s.Rate; r > 0 {
		rate = strconv.FormatFloat(r, 'f', 0, 64)
	}
	// Before a run has reported anything, its values are "—", not 0.
	t, gap, rel, dual, primal := "—", "—", "—", "—", "—"
	if last.Iter > 0 || len(iters) > 0 {
		t, gap, rel, dual, primal = strconv.Itoa(last.Iter), plain(last.Gap), plain(last.RelGap), draw.Num(last.Dual), draw.Num(last.Primal)
	}
	if s.BestCase {
		// Its "gap" says only whether the trusted set changed, and it has
		// no dual: no certificate to show.
		gap, rel, dual = "—", "—", "—"
	}
	return elem.Div(vecty.Markup(vecty.Class("chart")),
		elem.Figure(elem.FigureCaption(vecty.Text("Duality gap Δ_t, log scale: how far the metric can still be from the best")),
			svg("svg", children...)),
		elem.Div(vecty.Markup(vecty.Class("numbers")),
			stat("t", "iteration", t),
			stat("Δ_t", "gap-value", gap),
			stat("relative gap", "rel-gap-value", rel),
			stat("iterations/s", "rate", rate),
			stat("to the tolerance", "remaining", leftText(s)),
			stat("L(q)", "dual", dual),
			stat("P(A)", "primal", primal),
		),
		elem.Details(vecty.Markup(vecty.Class("more")),
			elem.Summary(vecty.Text("What the gap says")),
			elem.Paragraph(vecty.Markup(vecty.Class("hint")), vecty.Text("Δ_t = L(q_t) + P(A_t) ≥ 0 bounds how far the metric is from optimal; the run stops when Δ_t ≤ tolerance × max(1, |P|). The time to the tolerance assumes the best Δ_t keeps falling as fast as over the last half of the run; before that is known, its first guess is the time per iteration times the "+guessIters+" iterations that runs on large sets took to a relative gap of 1e-3."))),
		downloads(c.dispatch, s.Done, download{"figure", "chart (SVG)", "this chart as an SVG file"}),
	)
}

// pointer finds the iteration under the pointer in the layout last drawn.
func (c *Chart) pointer(e *vecty.Event, iters []float64) {
	if !c.drawn {
		return
	}
	cv := c.curve
	x, _, ok := localPoint(e, chartW)
	if !ok {
		return
	}
	if i := cv.Nearest(iters, x); i != c.hover || !c.hovered {
		c.hover, c.hovered = i, true
		vecty.Rerender(c)
	}
}

func (c *Chart) wasRendered() bool { return c.rendered }

// curveKids draws the gap's curve on its grid of decades and iterations,
// the stopping level, and the hovered point.
func (c *Chart) curveKids(box draw.Box, cv draw.Curve, ti, gi []float64) []vecty.MarkupOrChild {
	s := c.Props
	iters, gaps, last, tol := s.Trace.Iters, s.Trace.Gaps, s.Last, s.Tol
	var grid, labels []vecty.MarkupOrChild
	gridPath := ""
	// A label every few decades when the decades are many: each needs
	// about 17 units of height at the phone's font (style.css).
	every := math.Max(1, math.Ceil((cv.YHi-cv.YLo+1)*17/box.H))
	for e := cv.YLo; e <= cv.YHi; e++ {
		y := cv.Y(math.Pow(10, e))
		gridPath += "M" + f1(box.X) + " " + f1(y) + "h" + f1(box.W)
		if math.Mod(cv.YHi-e, every) == 0 {
			labels = append(labels, svg("text", vecty.Markup(vecty.Attribute("x", box.X-6), vecty.Attribute("y", y+4), vecty.Attribute("text-anchor", "end")),
				vecty.Text("1e"+strconv.Itoa(int(e)))))
		}
	}
	for _, t := range draw.Ticks(0, cv.XMax, 5) {
		x := cv.X(t)
		gridPath += "M" + f1(x) + " " + f1(box.Y) + "v" + f1(box.H)
		labels = append(labels, svg("text", vecty.Markup(vecty.Attribute("x", x), vecty.Attribute("y", box.Y+box.H+16), vecty.Attribute("text-anchor", "middle")),
			vecty.Text(strconv.FormatFloat(t, 'f', -1, 64))))
	}
	grid = append(grid, svg("path", vecty.Markup(vecty.Class("grid"), vecty.Attribute("d", gridPath))))
	var children []vecty.MarkupOrChild
	children = append(children, grid...)
	children = append(children, svg("g", append([]vecty.MarkupOrChild{vecty.Markup(vecty.Class("ticks"))}, labels...)...))
	// The stopping level (spec's rule).
	if stop := spec.StopGap(tol, last.Primal); stop > 0 && math.Log10(stop) >= cv.YLo {
		y := cv.Y(stop)
		children = append(children,
			svg("path", vecty.Markup(vecty.Class("tol"), vecty.Attribute("d", "M"+f1(box.X)+" "+f1(y)+"h"+f1(box.W)))),
			svg("text", vecty.Markup(vecty.Class("tol-label"), vecty.Attribute("x", box.X+box.W-4), vecty.Attribute("y", y-4), vecty.Attribute("text-anchor", "end")), vecty.Text("stop")))
	}
	children = append(children, svg("path", vecty.Markup(vecty.Class("curve"), vecty.Attribute("d", c.path(cv, ti, gi)))))
	if c.hovered && c.hover >= 0 && c.hover < len(iters) {
		x, y := cv.X(iters[c.hover]), cv.Y(gaps[c.hover])
		anchor, tx := "start", x+6
		if x > box.X+box.W*0.6 {
			anchor, tx = "end", x-6
		}
		children = append(children,
			svg("path", vecty.Markup(vecty.Class("cursor"), vecty.Attribute("d", "M"+f1(x)+" "+f1(box.Y)+"v"+f1(box.H)))),
			svg("circle", vecty.Markup(vecty.Class("dot"), vecty.Attribute("cx", x), vecty.Attribute("cy", y), vecty.Attribute("r", 3))),
			svg("text", vecty.Markup(vecty.Data("testid", "gap-hover"), vecty.Class("hover-label"), vecty.Attribute("x", tx), vecty.Attribute("y", box.Y+14), vecty.Attribute("text-anchor", anchor)),
				vecty.Text("t = "+strconv.Itoa(int(iters[c.hover]))+", Δ = "+draw.Num(gaps[c.hover]))))
	}
	return children
}

// emptyChart says why there is no curve to draw.
func emptyChart(s ChartProps) *vecty.HTML {
	last := s.Last
	msg := "Train to see Δ_t fall."
	switch {
	case s.BestCase:
		msg = "Best case: no duality gap; a local optimum after " + outerSteps(last.Iter) + "."
	case last.Phase == "neighbours" && s.Running:
		msg = "Finding nearest neighbours: " + itoa(last.Done) + " of " + itoa(last.Total) + " rows…"
	}
	return svg("text", vecty.Markup(vecty.Data("testid", "chart-empty"), vecty.Attribute("x", chartW/2), vecty.Attribute("y", chartH/2), vecty.Attribute("text-anchor", "middle"), vecty.Class("empty")),
		vecty.Text(msg))
}
