//go:build js && wasm

package ui

import (
	"math"
	"slices"
	"strconv"
	"strings"
	"syscall/js"

	"github.com/hexops/vecty"
	"github.com/hexops/vecty/elem"
	"github.com/hexops/vecty/event"

	"github.com/rml-lab/rml/spec"
	"github.com/rml-lab/rml/ui/draw"
	"github.com/rml-lab/rml/ui/store"
	"github.com/rml-lab/rml/wasm/protocol"
)

// ResultProps is what the result panel shows: the last run's result on
// the loaded dataset (a new result is a new pointer), and for its suspects
// the user's edits of the triplets.
type ResultProps struct {
	Result *protocol.Result
	Data   *protocol.Dataset
	Edits  store.Edits
}

// same reports whether p and o show the same (without reflection: the
// result and the dataset are compared as pointers, as new ones are new
// pointers).
func (p ResultProps) same(o ResultProps) bool {
	return p.Result == o.Result && p.Data == o.Data && slices.Equal(p.Edits.Drop, o.Edits.Drop) && slices.Equal(p.Edits.Reverse, o.Edits.Reverse)
}

// resultPanel is panel 6: test errors, the matrix A, its eigenvalues and
// whether the trust budget binds.
//
// Its heat map and its suspects are instances of their own (heat, sus),
// given their props and redrawn before it by the glue (App.syncViews): a
// new result's render is then up to three tasks, not one long one.
func resultPanel(s ResultProps, d func(store.Action), heat *Heatmap, sus *Memo[ResultProps]) *vecty.HTML {
	r := s.Result
	// Every child is always there, so that the heat map and the suspects,
	// redrawn on their own, keep their places among the panel's children
	// (Vecty matches a child by its place: one that moved was skipped in
	// the wrong place, and the page's Go program panicked).
	var collapsed, middle, files []vecty.MarkupOrChild
	if r != nil && r.Collapsed {
		collapsed = append(collapsed, elem.Paragraph(vecty.Markup(vecty.Class("collapsed"), vecty.Data("testid", "collapsed"), vecty.Attribute("role", "status")),
			vecty.Text("The metric collapsed to A = 0: the worst case over which triplets to trust found no metric better than none "+
				"(or one the duality gap cannot tell from none). Every distance is 0, so there is no learned error to show. "+
				"That happens exactly when some Nη of the triplets, weighted, cancel each other's evidence: λ does not enter, so only a larger η "+
				"(or triplets with less noise) brings a metric back.")))
	}
	if r != nil {
		middle = append(middle, eigenList(r.Eigen), budgetLine(r), stepView(r))
		files = append(files, downloads(d, s.Data != nil, download{"matrix", "A (CSV)", "the matrix A with the feature names"},
			download{"heatmap", "heat map (PNG)", "the heat map of A as a PNG image"},
			download{"run", "run (JSON)", "settings, seed, dataset hash, A, eigenvalues, the Δ_t history, errors and suspects; open it again with Upload"}))
	}
	children := []vecty.MarkupOrChild{
		elem.Div(collapsed...),
		elem.Paragraph(vecty.Markup(vecty.Class("hint")), vecty.Text("The test errors are on the stage, under the two views.")),
		heat,
		elem.Div(middle...),
		sus,
		elem.Div(files...),
	}
	return panel("6 · Result", "result", children...)
}

// suspects lists the triplets the metric least believes and, when noise
// was injected, how many of those were really swapped; each can be dropped
// or reversed, which restarts from the solution.
func suspects(r *protocol.Result, ds *protocol.Dataset, ed store.Edits, d func(store.Action)) *vecty.HTML {
	if r.Collapsed {
		// Every margin is 0 (or all but): a ranking would be by index.
		return elem.Div(vecty.Markup(vecty.Data("testid", "suspects")),
			elem.Paragraph(vecty.Text("With A = 0 every triplet has the same margin, 0: the metric believes none less than another, so there are no suspects to show.")))
	}
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
	for k := 0; k+2 < len(r.SuspectRows) && k/3 < len(r.SuspectSwapped) && k/3 < len(r.SuspectIndex); k += 3 {
		text := row(r.SuspectRows[k]) + " is closer to " + row(r.SuspectRows[k+1]) + " than to " + row(r.SuspectRows[k+2])
		if r.SuspectSwapped[k/3] == 1 {
			text += " — swapped"
		}
		idx := r.SuspectIndex[k/3]
		items = append(items, elem.ListItem(vecty.Text(text+" "),
			elem.Button(vecty.Markup(vecty.Class("mini"), vecty.Data("testid", "drop-"+itoa(k/3)), vecty.Attribute("title", "leave this triplet out and restart from the solution"),
				event.Click(func(*vecty.Event) { d(store.DropTriplet{Index: idx}) })), vecty.Text("drop")),
			elem.Button(vecty.Markup(vecty.Class("mini"), vecty.Data("testid", "reverse-"+itoa(k/3)), vecty.Attribute("title", "exchange y and z (puts a swapped triplet right) and restart"),
				event.Click(func(*vecty.Event) { d(store.ReverseTriplet{Index: idx}) })), vecty.Text("reverse"))))
	}
	var edits vecty.MarkupOrChild
	if n := len(ed.Drop) + len(ed.Reverse); n > 0 {
		edits = elem.Paragraph(vecty.Markup(vecty.Data("testid", "edits")),
			vecty.Text("Your edits: "+itoa(len(ed.Drop))+" dropped, "+itoa(len(ed.Reverse))+" reversed (this run: "+itoa(r.Dropped)+" and "+itoa(r.Reversed)+"). "),
			elem.Button(vecty.Markup(vecty.Class("mini"), vecty.Data("testid", "clear-edits"), event.Click(func(*vecty.Event) { d(store.ClearEdits{}) })), vecty.Text("undo all")))
	}
	return elem.Div(vecty.Markup(vecty.Data("testid", "suspects")),
		elem.Paragraph(vecty.Text(intro)),
		elem.OrderedList(items...), edits)
}

func eigenList(ev []float64) *vecty.HTML {
	const show = 8
	var parts []string
	rank := rankOf(ev)
	for _, v := range ev[:min(show, len(ev))] {
		parts = append(parts, draw.Num(v))
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
	if r.Method == spec.BestCase {
		// It trusts the ⌈η·N⌉ triplets its metric explains best (core's
		// solveBestCase; Budget is η·N).
		k := spec.Trusted(r.Triplets, r.Budget)
		text := "At η = 1 the best case trusts all " + itoa(r.Triplets) + " triplets: its answer is the robust problem's at η = 1."
		if k < r.Triplets {
			text = "The best case trusts the ⌈η·N⌉ = " + itoa(k) + " of the " + itoa(r.Triplets) + " triplets its metric explains best and sets the other " +
				itoa(r.Triplets-k) + " aside: a local optimum, reached from the η = 1 solution in " + outerSteps(r.Iter) + ", with no certificate."
		}
		return elem.Paragraph(vecty.Markup(vecty.Data("testid", "budget")), vecty.Text(text))
	}
	if !isRML(r.Method) {
		return elem.Paragraph(vecty.Markup(vecty.Data("testid", "budget")), vecty.Text(methodName(r.Method)+" has no trust budget: it counts every triplet."))
	}
	// P(0) = m: at A = 0 every hinge loss is 1 and the worst case counts m.
	below := ""
	if r.Budget > 0 && !math.IsNaN(r.Primal) {
		below = " The metric's objective P(A) is " + draw.Percent((r.Budget-r.Primal)/r.Budget) + " below P(0) = m, the value of no metric (A = 0)."
	}
	return elem.Paragraph(vecty.Markup(vecty.Data("testid", "budget")),
		vecty.Text("Σq/m = "+draw.Num(ratio)+" (m = η·N = "+draw.Num(r.Budget)+"). "+explain+below))
}

// outerSteps says "1 outer step" or "n outer steps".
func outerSteps(n int) string {
	if n == 1 {
		return "1 outer step"
	}
	return itoa(n) + " outer steps"
}

// stepView shows the state of the solution: the weights q as a histogram,
// the margins, and how many triplets carry weight.
func stepView(r *protocol.Result) *vecty.HTML {
	bars := func(testid, title string, labels []string, counts []int) *vecty.HTML {
		if len(counts) == 0 {
			return nil
		}
		top := 1
		for _, c := range counts {
			top = max(top, c)
		}
		rows := []vecty.MarkupOrChild{vecty.Markup(vecty.Class("hist"), vecty.Data("testid", testid))}
		for i, c := range counts[:min(len(counts), len(labels))] { // protocol.Result.Check holds them equal
			rows = append(rows, elem.Div(vecty.Markup(vecty.Class("bar-row")),
				elem.Span(vecty.Markup(vecty.Class("bar-label")), vecty.Text(labels[i])),
				elem.Span(vecty.Markup(vecty.Class("bar"), vecty.Style("width", f1(100*float64(c)/float64(top))+"%"))),
				elem.Span(vecty.Markup(vecty.Class("bar-count")), vecty.Text(itoa(c)))))
		}
		return elem.Div(elem.Heading2(vecty.Markup(vecty.Class("small")), vecty.Text(title)), elem.Div(rows...))
	}
	qLabels := []string{"q = 0", "(0, .1]", "(.1, .2]", "(.2, .3]", "(.3, .4]", "(.4, .5]", "(.5, .6]", "(.6, .7]", "(.7, .8]", "(.8, .9]", "(.9, 1]"}
	mLabels := []string{"< 0 (wrong way)", "[0, ½)", "[½, 1)", "[1, 3/2)", "≥ 3/2"}
	carry := ""
	if len(r.QHist) > 0 {
		carry = itoa(r.Triplets-r.QHist[0]) + " of " + itoa(r.Triplets) + " triplets carry weight (q > 0); "
	}
	loss := 0
	if len(r.MarginHist) == 5 {
		loss = r.MarginHist[0] + r.MarginHist[1] + r.MarginHist[2]
	}
	// Δ is RML's duality gap; the other methods' progress measures
	// something else (the best case's: whether its trusted set changed).
	state := "After " + itoa(r.Iter) + " iterations: Δ = " + draw.Num(r.Gap) + "; "
	switch {
	case r.Method == spec.BestCase:
		state = "After " + outerSteps(r.Iter) + ": "
	case !isRML(r.Method):
		state = "After " + itoa(r.Iter) + " iterations: "
	}
	return elem.Div(vecty.Markup(vecty.Class("step-view")),
		elem.Paragraph(vecty.Markup(vecty.Data("testid", "step-state")), vecty.Text(state+carry+itoa(loss)+" have margin below 1 (a positive hinge loss).")),
		elem.Div(vecty.Markup(vecty.Class("pair")),
			bars("q-hist", "The weights q_i", qLabels, r.QHist),
			bars("margin-hist", "The margins tr(A K_i)", mLabels, r.MarginHist)))
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
	byName   bool // the table alternative's order: by feature, else by size
	open     bool // the table alternative is open: only then are its rows built
	// The heat map is two canvases in the page: the names (size×size
	// pixels, the feature names in its margin) and the cells (d×d pixels,
	// one per entry, scaled up by CSS without smoothing), with the hover's
	// outline an element over them. Before, one size×size canvas (up to
	// 720×720) was cleared and drawn whole at every result and every move
	// of the pointer: the cells scaled up, then the names. Now a result
	// changes d×d pixels, a hover none, and the names are drawn once per
	// dataset (TestVisitLongTasks counts the main thread's long tasks
	// through a visit).
	// cellsNode and namesNode are the canvases paint last drew on, for the
	// result and features in cellsOf and namesOf (Vecty may replace them).
	cellsNode, namesNode js.Value
	cellsOf, namesOf     heatKey
	rendered             bool // it has been rendered: vecty.Rerender may be called on it
}

// setProps gives the heat map a result and feature names and reports
// whether they differ from its last ones.
func (h *Heatmap) setProps(r *protocol.Result, features []string) bool {
	if r == h.Result && slices.Equal(features, h.Features) {
		return false
	}
	h.Result, h.Features = r, features
	return true
}

func (h *Heatmap) wasRendered() bool { return h.rendered }

// heatKey says what a heat map's layers were drawn for.
type heatKey struct {
	r     *protocol.Result
	names *string // the first feature name, for the slice's identity
	n, d  int
	size  float64
}

func (h *Heatmap) key() heatKey {
	k := h.nameKey()
	k.r = h.Result
	return k
}

// nameKey is key without the result (but with its d, which sets the
// names' spacing): what the names layer is drawn for.
func (h *Heatmap) nameKey() heatKey {
	k := heatKey{n: len(h.Features), size: h.size()}
	if h.Result != nil {
		k.d = h.Result.D
	}
	if len(h.Features) > 0 {
		k.names = &h.Features[0]
	}
	return k
}

func (h *Heatmap) SkipRender(prev vecty.Component) bool {
	q, ok := prev.(*Heatmap)
	return ok && q.Result == h.Result && slices.Equal(q.Features, h.Features) && q.hover == h.hover && q.hovering == h.hovering && q.byName == h.byName && q.open == h.open
}

// maxTableRows bounds the heat map's table alternative.
const maxTableRows = 60

// table is the heat map's alternative for screen readers and keyboards:
// A's entries (i ≤ j) largest first, or by feature. Closed, it costs
// nothing: its d(d+1)/2 entries are sorted and its rows built only while
// it is open (with them, a result's render on Sonar took a long task on
// the page's main thread).
func (h *Heatmap) table() *vecty.HTML {
	toggle := &vecty.EventListener{Name: "toggle", Listener: func(e *vecty.Event) {
		if o := e.Target.Get("open").Bool(); o != h.open {
			h.open = o
			vecty.Rerender(h)
		}
	}}
	return elem.Details(vecty.Markup(vecty.Data("testid", "heatmap-table"), vecty.Property("open", h.open), toggle),
		elem.Summary(vecty.Text("A as a table")),
		vecty.List(h.tableBody()))
}

// tableBody is the open table: its sort buttons and its rows.
func (h *Heatmap) tableBody() []vecty.ComponentOrHTML {
	if !h.open {
		return nil
	}
	r := h.Result
	type entry struct {
		i, j int
		v    float64
	}
	var es []entry
	for i := 0; i < r.D; i++ {
		for j := i; j < r.D; j++ {
			es = append(es, entry{i, j, r.A[i*r.D+j]})
		}
	}
	if !h.byName {
		slices.SortStableFunc(es, func(a, b entry) int {
			if x, y := math.Abs(a.v), math.Abs(b.v); x > y {
				return -1
			} else if x < y {
				return 1
			}
			return 0
		})
	}
	more := ""
	if len(es) > maxTableRows {
		more = " The first " + itoa(maxTableRows) + " of " + itoa(len(es)) + "."
		es = es[:maxTableRows]
	}
	sortBtn := func(label string, byName bool) *vecty.HTML {
		return elem.Button(vecty.Markup(vecty.Class("mini"), vecty.Attribute("aria-pressed", h.byName == byName),
			event.Click(func(*vecty.Event) { h.byName = byName; vecty.Rerender(h) })), vecty.Text(label))
	}
	rows := []vecty.MarkupOrChild{elem.TableRow(
		elem.TableHeader(vecty.Markup(vecty.Attribute("scope", "col")), vecty.Text("feature")),
		elem.TableHeader(vecty.Markup(vecty.Attribute("scope", "col")), vecty.Text("feature")),
		elem.TableHeader(vecty.Markup(vecty.Attribute("scope", "col")), vecty.Text("A")))}
	for _, e := range es {
		rows = append(rows, elem.TableRow(elem.TableData(vecty.Text(store.FeatureName(h.Features, e.i))), elem.TableData(vecty.Text(store.FeatureName(h.Features, e.j))), elem.TableData(vecty.Text(draw.Num(e.v)))))
	}
	return []vecty.ComponentOrHTML{
		elem.Paragraph(vecty.Text("Sort: "), sortBtn("largest first", false), sortBtn("by feature", true), vecty.Text(more)),
		elem.Div(vecty.Markup(vecty.Class("scroll"), vecty.Attribute("tabindex", 0), vecty.Attribute("role", "region"), vecty.Attribute("aria-label", "entries of A")), elem.Table(vecty.Markup(vecty.Class("cmp")), elem.TableBody(rows...))),
	}
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

// layout returns the heat map's side, its names' margin and one cell's
// side, in the names canvas's pixels (the cells fill the rest); r.D > 0.
func (h *Heatmap) layout() (size, m, cell float64) {
	size, m = h.size(), h.margin()
	return size, m, (size - m) / float64(h.Result.D)
}

func (h *Heatmap) Render() vecty.ComponentOrHTML {
	h.rendered = true
	markRender("heatmap")
	r := h.Result
	readout := "Hover over the matrix to read an entry."
	if r == nil {
		readout = ""
	} else if i, j := h.hover[0], h.hover[1]; h.hovering && i >= 0 && j >= 0 && i < r.D && j < r.D {
		readout = "A[" + store.FeatureName(h.Features, i) + ", " + store.FeatureName(h.Features, j) + "] = " + draw.Num(r.A[i*r.D+j])
	}
	size := h.size()
	var view *vecty.HTML
	if r != nil && r.D > 0 {
		_, m, cell := h.layout()
		pct := func(v float64) string { return f1(100*v/size) + "%" }
		var outline vecty.ComponentOrHTML
		if i, j := h.hover[0], h.hover[1]; h.hovering && i >= 0 && j >= 0 && i < r.D && j < r.D {
			outline = elem.Div(vecty.Markup(vecty.Class("heat-hover"),
				vecty.Style("left", pct(m+float64(j)*cell)), vecty.Style("top", pct(m+float64(i)*cell)),
				vecty.Style("width", pct(cell)), vecty.Style("height", pct(cell))))
		}
		view = elem.Div(vecty.Markup(vecty.Class("heat-view"), vecty.Style("max-width", f1(size)+"px"),
			vecty.Attribute("role", "img"), vecty.Attribute("aria-label", "heat map of the learned matrix A"),
			event.MouseMove(func(e *vecty.Event) { h.pointer(e) }),
			event.MouseLeave(func(*vecty.Event) { h.hovering = false; vecty.Rerender(h) }),
		),
			elem.Canvas(vecty.Markup(vecty.Class("heat-names"), vecty.Attribute("width", size), vecty.Attribute("height", size))),
			elem.Canvas(vecty.Markup(vecty.Class("heat-cells"), vecty.Attribute("width", r.D), vecty.Attribute("height", r.D),
				vecty.Style("left", pct(m)), vecty.Style("top", pct(m)), vecty.Style("width", pct(size-m)), vecty.Style("height", pct(size-m)))),
			outline,
		)
		// Draw once the canvases are in the page.
		later(h.paint)
	}
	scale := ""
	if r != nil {
		scale = "Colour: blue negative, white 0, red positive, up to ±" + draw.Num(maxAbs(r.A)) + "."
	}
	return elem.Div(vecty.Markup(vecty.Class("heatmap"), vecty.Data("testid", "metric-heatmap"), vecty.Data("d", strconv.Itoa(dOf(r)))),
		elem.Heading2(vecty.Markup(vecty.Class("small")), vecty.Text("The learned matrix A")),
		vecty.If(view != nil, view),
		vecty.If(r == nil, elem.Paragraph(vecty.Markup(vecty.Class("hint")), vecty.Text("After a run: A as a heat map."))),
		elem.Paragraph(vecty.Markup(vecty.Class("hint"), vecty.Data("testid", "heatmap-readout")), vecty.Text(readout)),
		elem.Paragraph(vecty.Markup(vecty.Class("hint")), vecty.Text(scale)),
		vecty.If(r != nil, h.tableOrNil()),
	)
}

func (h *Heatmap) tableOrNil() vecty.ComponentOrHTML {
	if h.Result == nil || h.Result.D == 0 {
		return nil
	}
	return h.table()
}

func dOf(r *protocol.Result) int {
	if r == nil {
		return 0
	}
	return r.D
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
	size, m, cell := h.layout()
	x, y, ok := localPoint(e, size)
	if !ok {
		return
	}
	i, j := int(math.Floor((y-m)/cell)), int(math.Floor((x-m)/cell))
	if i < 0 || j < 0 || i >= r.D || j >= r.D {
		i, j = -1, -1
	}
	if on := i >= 0; [2]int{i, j} != h.hover || on != h.hovering {
		h.hover, h.hovering = [2]int{i, j}, on
		vecty.Rerender(h)
	}
}

// paint draws what changed on the heat map's two canvases: A's d×d
// colours as one ImageData on the cells canvas, and, in a task after the
// cells' first paint (rotated text is slow on a canvas without a GPU), the
// feature names on the names canvas, which a new result on the same data
// leaves as they are.
func (h *Heatmap) paint() {
	r := h.Result
	if r == nil || r.D == 0 {
		return
	}
	// The canvases in the page now: a later render may have replaced the
	// ones this paint was scheduled for, or removed them.
	doc := js.Global().Get("document")
	cells := doc.Call("querySelector", `[data-testid="metric-heatmap"] .heat-cells`)
	names := doc.Call("querySelector", `[data-testid="metric-heatmap"] .heat-names`)
	if cells.IsNull() || names.IsNull() {
		return
	}
	if k := h.key(); h.cellsOf != k || !cells.Equal(h.cellsNode) {
		if !h.drawCells(cells) {
			return
		}
		h.cellsOf, h.cellsNode = k, cells
	}
	if h.margin() < 10 {
		return
	}
	if nk := h.nameKey(); h.namesOf != nk || !names.Equal(h.namesNode) {
		later(func() {
			if h.nameKey() != nk || h.namesOf == nk && names.Equal(h.namesNode) {
				return // redrawn since, or drawn by another paint
			}
			if h.drawNames(names) {
				h.namesOf, h.namesNode = nk, names
			}
		})
	}
}

// drawCells draws A's d×d colours on canvas, a pixel each.
func (h *Heatmap) drawCells(canvas js.Value) bool {
	ctx := canvas.Call("getContext", "2d")
	if ctx.IsNull() {
		return false
	}
	r := h.Result
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
	ctx.Call("putImageData", js.Global().Get("ImageData").New(arr, d, d), 0, 0)
	return true
}

// drawNames draws the feature names along the rows and the columns of the
// names canvas (size×size, transparent), beside where the cells are.
func (h *Heatmap) drawNames(canvas js.Value) bool {
	ctx := canvas.Call("getContext", "2d")
	if ctx.IsNull() {
		return false
	}
	d := h.Result.D
	size, m, cell := h.layout()
	ctx.Call("setTransform", 1, 0, 0, 1, 0, 0)
	ctx.Call("clearRect", 0, 0, size, size)
	ctx.Set("fillStyle", "#222")
	ctx.Set("font", strconv.Itoa(int(math.Min(12, math.Max(8, cell*0.8))))+"px sans-serif")
	ctx.Set("textBaseline", "middle")
	ctx.Set("textAlign", "right")
	for i := range d {
		ctx.Call("fillText", clipName(store.FeatureName(h.Features, i), 12), m-4, m+(float64(i)+0.5)*cell)
	}
	// The column names, in the frame turned a quarter left: the point
	// (u, v) there is (v, −u) on the canvas.
	ctx.Call("rotate", -math.Pi/2)
	ctx.Set("textAlign", "left")
	for i := range d {
		ctx.Call("fillText", clipName(store.FeatureName(h.Features, i), 12), -(m - 4), m+(float64(i)+0.5)*cell)
	}
	ctx.Call("setTransform", 1, 0, 0, 1, 0, 0)
	return true
}

func clipName(s string, n int) string {
	r := []rune(s)
	if len(r) <= n {
		return s
	}
	return string(r[:n-1]) + "…"
}
