//go:build js && wasm

package main

import (
	"math"
	"slices"
	"strconv"
	"strings"
	"syscall/js"

	"github.com/hexops/vecty"
	"github.com/hexops/vecty/elem"
	"github.com/hexops/vecty/event"

	"github.com/rml-lab/rml/ui/draw"
	"github.com/rml-lab/rml/wasm/protocol"
)

// ResultProps is what the result panel shows: the last run's result on
// the loaded dataset (a new result is a new pointer).
type ResultProps struct {
	Result *protocol.Result
	Data   *protocol.Dataset
}

// resultPanel is panel 6: test errors, the matrix A, its eigenvalues and
// whether the trust budget binds.
func resultPanel(s ResultProps) *vecty.HTML {
	r := s.Result
	errE, errL, k := "—", "—", ""
	if r != nil && len(r.Test) > 0 {
		errE, errL = draw.Percent(r.ErrEuclid), draw.Percent(r.ErrLearn)
		k = " (" + itoa(r.K) + "-NN on the " + itoa(len(r.Test)) + " held-out rows, trained on the rest)"
	}
	var features []string
	if s.Data != nil {
		features = s.Data.Features
	}
	children := []vecty.MarkupOrChild{
		elem.Div(vecty.Markup(vecty.Class("errors")),
			stat("test error, Euclidean", "error-euclid", errE),
			stat("test error, learned", "error-learned", errL),
		),
		vecty.If(r != nil && r.Collapsed, elem.Paragraph(vecty.Markup(vecty.Class("collapsed"), vecty.Data("testid", "collapsed"), vecty.Attribute("role", "status")),
			vecty.Text("The metric collapsed to A = 0: the worst case over which triplets to trust found no metric better than none. "+
				"Every distance is 0, so the learned error above is a constant guess, not a learned metric's. Raise η or lower λ."))),
		elem.Paragraph(vecty.Markup(vecty.Class("hint")), vecty.Text("k-NN test error"+k+".")),
		&Heatmap{Result: r, Features: features},
	}
	if r != nil {
		children = append(children, eigenList(r.Eigen), budgetLine(r), suspects(r, s.Data))
	}
	return panel("6 · Result", "result", children...)
}

// suspects lists the triplets the metric least believes and, when noise
// was injected, how many of those were really swapped.
func suspects(r *protocol.Result, ds *protocol.Dataset) *vecty.HTML {
	intro := "No triplet was swapped; these are the ones the metric fits worst:"
	if r.Swapped > 0 {
		intro = "Of the " + itoa(r.Swapped) + " triplets the metric believes least, " + draw.Percent(r.SuspectPrecision) +
			" are among the " + itoa(r.Swapped) + " swapped by the injected noise (a random guess: " + draw.Percent(float64(r.Swapped)/float64(max(r.Triplets, 1))) + "). The first:"
	}
	row := func(i int) string {
		name := ""
		if ds != nil {
			name = " (" + className(ds.Classes, int(r.Labels[i])) + ")"
		}
		return "row " + itoa(i+1) + name
	}
	items := []vecty.MarkupOrChild{}
	for k := 0; k+2 < len(r.SuspectRows) && k/3 < len(r.SuspectSwapped); k += 3 {
		text := row(r.SuspectRows[k]) + " is closer to " + row(r.SuspectRows[k+1]) + " than to " + row(r.SuspectRows[k+2])
		if r.SuspectSwapped[k/3] == 1 {
			text += " — swapped"
		}
		items = append(items, elem.ListItem(vecty.Text(text)))
	}
	return elem.Div(vecty.Markup(vecty.Data("testid", "suspects")),
		elem.Paragraph(vecty.Text(intro)),
		elem.OrderedList(items...))
}

func eigenList(ev []float64) *vecty.HTML {
	const show = 8
	var parts []string
	rank := 0
	top := 0.0
	if len(ev) > 0 {
		top = ev[0]
	}
	for i, v := range ev {
		if v > 1e-9*math.Max(top, 1e-300) {
			rank++
		}
		if i < show {
			parts = append(parts, draw.Num(v))
		}
	}
	more := ""
	if len(ev) > show {
		more = ", … (" + itoa(len(ev)-show) + " more)"
	}
	return elem.Paragraph(vecty.Markup(vecty.Data("testid", "eigenvalues")),
		vecty.Text("Eigenvalues of A: "+strings.Join(parts, ", ")+more+". Rank "+itoa(rank)+" of "+itoa(len(ev))+": the metric uses "+itoa(rank)+" directions of the data."))
}

func budgetLine(r *protocol.Result) *vecty.HTML {
	ratio := math.NaN()
	if r.Budget > 0 {
		ratio = r.SumQ / r.Budget
	}
	explain := "The budget is inactive: fewer than η·N triplets carry weight at the optimum, so the robust solution equals the ordinary hinge-loss one and lowering η a little changes nothing."
	if r.BudgetActive {
		explain = "The budget is active: the worst case down-weights the hardest 1 − η of the triplets, so η shapes A."
	}
	return elem.Paragraph(vecty.Markup(vecty.Data("testid", "budget")),
		vecty.Text("Σq/m = "+draw.Num(ratio)+" (m = η·N = "+draw.Num(r.Budget)+"). "+explain))
}

// Heatmap draws A on a canvas: one pixel per entry, scaled up, blue for
// negative and red for positive, labelled with the feature names when they
// fit; hovering reads an entry out.
type Heatmap struct {
	vecty.Core
	Result   *protocol.Result `vecty:"prop"`
	Features []string         `vecty:"prop"`
	hover    [2]int           // entry under the pointer, when hovering
	hovering bool
	canvas   *vecty.HTML
}

func (h *Heatmap) SkipRender(prev vecty.Component) bool {
	q, ok := prev.(*Heatmap)
	return ok && q.Result == h.Result && slices.Equal(q.Features, h.Features) && q.hover == h.hover && q.hovering == h.hovering
}

// Heat map layout: cells of at least minCell pixels leave room for the
// feature names (labelMargin on the left and top); the canvas grows with d
// up to maxHeat, and past that the names are read by hovering.
const (
	minHeat     = 360.0
	maxHeat     = 720.0
	labelMargin = 84.0
	minCell     = 9.0
)

func (h *Heatmap) size() float64 {
	if h.Result == nil {
		return minHeat
	}
	return math.Min(maxHeat, math.Max(minHeat, labelMargin+minCell*float64(h.Result.D)))
}

// margin leaves room for feature names when they fit.
func (h *Heatmap) margin() float64 {
	if h.Result != nil && (h.size()-labelMargin)/float64(h.Result.D) >= minCell {
		return labelMargin
	}
	return 4
}

func (h *Heatmap) Render() vecty.ComponentOrHTML {
	r := h.Result
	readout := "Hover over the matrix to read an entry."
	if r == nil {
		readout = ""
	} else if i, j := h.hover[0], h.hover[1]; h.hovering && i >= 0 && j >= 0 && i < r.D && j < r.D {
		readout = "A[" + feature(h.Features, i) + ", " + feature(h.Features, j) + "] = " + draw.Num(r.A[i*r.D+j])
	}
	size := h.size()
	h.canvas = elem.Canvas(vecty.Markup(vecty.Attribute("width", size), vecty.Attribute("height", size), vecty.Style("max-width", f1(size)+"px"),
		vecty.Attribute("aria-label", "heat map of the learned matrix A"),
		event.MouseMove(func(e *vecty.Event) { h.pointer(e) }),
		event.MouseLeave(func(*vecty.Event) { h.hovering = false; vecty.Rerender(h) }),
	))
	if r != nil {
		// Draw once the canvas is in the page.
		var f js.Func
		f = js.FuncOf(func(js.Value, []js.Value) any {
			f.Release()
			h.paint()
			return nil
		})
		js.Global().Call("setTimeout", f, 0)
	}
	scale := ""
	if r != nil {
		scale = "Colour: blue negative, white 0, red positive, up to ±" + draw.Num(maxAbs(r.A)) + "."
	}
	return elem.Div(vecty.Markup(vecty.Class("heatmap"), vecty.Data("testid", "metric-heatmap"), vecty.Data("d", strconv.Itoa(dOf(r)))),
		elem.Heading2(vecty.Markup(vecty.Class("small")), vecty.Text("The learned matrix A")),
		vecty.If(r != nil, h.canvas),
		vecty.If(r == nil, elem.Paragraph(vecty.Markup(vecty.Class("hint")), vecty.Text("After a run: A as a heat map."))),
		elem.Paragraph(vecty.Markup(vecty.Class("hint"), vecty.Data("testid", "heatmap-readout")), vecty.Text(readout)),
		elem.Paragraph(vecty.Markup(vecty.Class("hint")), vecty.Text(scale)),
	)
}

func dOf(r *protocol.Result) int {
	if r == nil {
		return 0
	}
	return r.D
}

func feature(names []string, i int) string {
	if i < len(names) {
		return names[i]
	}
	return "x" + strconv.Itoa(i+1)
}

func maxAbs(v []float64) float64 {
	m := 0.0
	for _, x := range v {
		m = math.Max(m, math.Abs(x))
	}
	return m
}

func (h *Heatmap) pointer(e *vecty.Event) {
	r := h.Result
	if r == nil || r.D == 0 {
		return
	}
	size := h.size()
	x, y, ok := localPoint(e, size)
	if !ok {
		return
	}
	m := h.margin()
	cell := (size - m) / float64(r.D)
	i, j := int(math.Floor((y-m)/cell)), int(math.Floor((x-m)/cell))
	if i < 0 || j < 0 || i >= r.D || j >= r.D {
		i, j = -1, -1
	}
	if on := i >= 0; [2]int{i, j} != h.hover || on != h.hovering {
		h.hover, h.hovering = [2]int{i, j}, on
		vecty.Rerender(h)
	}
}

// paint draws A: its d×d colours go to the canvas as one ImageData, drawn
// scaled without smoothing, then the labels.
func (h *Heatmap) paint() {
	r := h.Result
	if r == nil || r.D == 0 {
		return
	}
	// The canvas in the page now: a later render may have replaced the one
	// this paint was scheduled for, or removed it.
	canvas := js.Global().Get("document").Call("querySelector", `[data-testid="metric-heatmap"] canvas`)
	if canvas.IsNull() {
		return
	}
	ctx := canvas.Call("getContext", "2d")
	if ctx.IsNull() {
		return
	}
	d := r.D
	scale := maxAbs(r.A)
	if scale == 0 {
		scale = 1
	}
	pix := make([]byte, 4*d*d)
	for i := range d {
		for j := range d {
			cr, cg, cb := draw.Diverging(r.A[i*d+j] / scale)
			o := 4 * (i*d + j)
			pix[o], pix[o+1], pix[o+2], pix[o+3] = cr, cg, cb, 255
		}
	}
	arr := js.Global().Get("Uint8ClampedArray").New(len(pix))
	js.CopyBytesToJS(js.Global().Get("Uint8Array").New(arr.Get("buffer")), pix)
	img := js.Global().Get("ImageData").New(arr, d, d)
	off := js.Global().Get("document").Call("createElement", "canvas")
	off.Set("width", d)
	off.Set("height", d)
	off.Call("getContext", "2d").Call("putImageData", img, 0, 0)

	size, m := h.size(), h.margin()
	cell := (size - m) / float64(d)
	ctx.Call("clearRect", 0, 0, size, size)
	ctx.Set("imageSmoothingEnabled", false)
	ctx.Call("drawImage", off, m, m, size-m, size-m)
	if i, j := h.hover[0], h.hover[1]; h.hovering && i >= 0 && j >= 0 {
		ctx.Set("strokeStyle", "#000")
		ctx.Set("lineWidth", 2)
		ctx.Call("strokeRect", m+float64(j)*cell, m+float64(i)*cell, cell, cell)
	}
	if m < 10 {
		return
	}
	ctx.Set("fillStyle", "#222")
	ctx.Set("font", strconv.Itoa(int(math.Min(12, math.Max(8, cell*0.8))))+"px sans-serif")
	ctx.Set("textBaseline", "middle")
	ctx.Set("textAlign", "right")
	for i := range d {
		name := clipName(feature(h.Features, i), 12)
		ctx.Call("fillText", name, m-4, m+(float64(i)+0.5)*cell)
		ctx.Call("save")
		ctx.Call("translate", m+(float64(i)+0.5)*cell, m-4)
		ctx.Call("rotate", -math.Pi/2)
		ctx.Set("textAlign", "left")
		ctx.Call("fillText", name, 0, 0)
		ctx.Call("restore")
		ctx.Set("textAlign", "right")
	}
}

func clipName(s string, n int) string {
	r := []rune(s)
	if len(r) <= n {
		return s
	}
	return string(r[:n-1]) + "…"
}
