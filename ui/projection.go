//go:build js && wasm

package ui

import (
	"math"
	"slices"
	"strconv"

	"github.com/hexops/vecty"
	"github.com/hexops/vecty/elem"
	"github.com/hexops/vecty/event"

	"github.com/rml-lab/rml/ui/draw"
	"github.com/rml-lab/rml/ui/store"
	"github.com/rml-lab/rml/wasm/protocol"
)

// Projections is the stage's pair of views: the data under the Euclidean
// and under the learned metric, side by side, each with its 5-NN test
// error and that error's 95 % interval. While a run goes on the learned
// view is its latest frame (store.Frame), turned onto the frame before it
// by the worker, so the classes pull apart as Δ_t falls; then the result.
// It redraws only for a new result or frame (new pointers) or a new
// dataset; a hovered point redraws its view alone (projView).
type Projections struct {
	vecty.Core
	Result   *protocol.Result   `vecty:"prop"`
	Data     *protocol.Dataset  `vecty:"prop"`
	Frame    *store.Frame       `vecty:"prop"`
	Dispatch func(store.Action) `vecty:"prop"`
	views    [2]*projView       // the Euclidean and the learned view, kept across renders
	rendered bool               // it has been rendered: vecty.Rerender may be called on it
}

// setProps gives the views a result, a dataset and a frame and reports
// whether they differ from the last ones.
func (p *Projections) setProps(r *protocol.Result, data *protocol.Dataset, f *store.Frame) bool {
	if r == p.Result && data == p.Data && f == p.Frame {
		return false
	}
	p.Result, p.Data, p.Frame = r, data, f
	return true
}

func (p *Projections) SkipRender(prev vecty.Component) bool {
	q, ok := prev.(*Projections)
	return ok && q.Result == p.Result && q.Data == p.Data && q.Frame == p.Frame
}

const projW, projH = 300.0, 280.0

func (p *Projections) Render() vecty.ComponentOrHTML {
	p.rendered = true
	markRender("projection")
	r := p.Result
	if p.views[0] == nil {
		p.views = [2]*projView{{hover: -1}, {hover: -1}}
	}
	empty := func(hint string) *vecty.HTML {
		return elem.Div(vecty.Markup(vecty.Class("projection")),
			elem.Div(vecty.Markup(vecty.Class("pair")),
				elem.Div(emptyView("projection-euclid", "Euclidean"), errorLine("error-euclid", "—", "")),
				elem.Div(emptyView("projection-learned", "Learned metric"), errorLine("error-learned", "—", ""))),
			elem.Paragraph(vecty.Markup(vecty.Class("hint")), vecty.Text(hint)))
	}
	if p.Data == nil {
		return empty("Once data is loaded: its first two principal components, under the Euclidean metric and, as a run learns, under the learned one.")
	}
	d := p.Data
	if r == nil {
		// Before a run: the Euclidean view the dataset came with.
		r = &protocol.Result{N: d.Rows, Test: d.Held, Euclid: d.Euclid, Labels: d.Labels, ErrEuclid: d.ErrEuclid, K: d.K}
		if len(d.Euclid) != 2*d.Rows {
			return empty("")
		}
	}
	test := len(r.Test)
	trained := p.Result != nil
	learnedTitle, learnedErr, learnedCI := "Learned metric", "—", ""
	var learned vecty.ComponentOrHTML = emptyView("projection-learned", "Learned metric: press Train")
	switch f := p.Frame; {
	case f != nil && len(f.XY) == 2*d.Rows:
		// The run going on: its latest frame.
		fr := &protocol.Result{N: d.Rows, Test: d.Held, Labels: d.Labels}
		learnedTitle = "Learned metric, learning (t = " + itoa(f.Iter) + ")"
		learned = p.views[1].with("projection-learned", learnedTitle, fr, f.XY, d)
		learnedErr, learnedCI = draw.Percent(f.Err), draw.ErrorInterval(f.Err, test)
		if math.IsNaN(f.Err) {
			learnedErr = "— (A = 0)"
		}
	case trained:
		learned = p.views[1].with("projection-learned", learnedTitle, r, r.Learned, d)
		learnedErr = learnedError(r)
		if !r.Collapsed {
			learnedCI = draw.ErrorInterval(r.ErrLearn, test)
		}
	}
	euclidErr := draw.Percent(r.ErrEuclid)
	if test == 0 {
		// No row held out (the Ask-me mode measures held-out questions
		// instead): there is no test error to show.
		euclidErr, learnedErr, learnedCI = "— (no rows held out)", "— (no rows held out)", ""
	}
	legend := []vecty.MarkupOrChild{vecty.Markup(vecty.Class("legend"))}
	for c, name := range d.Classes {
		legend = append(legend, elem.Span(vecty.Markup(vecty.Class("key")),
			elem.Span(vecty.Markup(vecty.Class("swatch"), vecty.Style("background", draw.ClassColour(c)))), vecty.Text(name)))
	}
	legend = append(legend, elem.Span(vecty.Markup(vecty.Class("key")), vecty.Text("● training row  □ test row (held out)")))
	return elem.Div(vecty.Markup(vecty.Class("projection")),
		elem.Div(vecty.Markup(vecty.Class("pair")),
			elem.Div(p.views[0].with("projection-euclid", "Euclidean", r, r.Euclid, d),
				errorLine("error-euclid", euclidErr, draw.ErrorInterval(r.ErrEuclid, test))),
			elem.Div(learned, errorLine("error-learned", learnedErr, learnedCI)),
		),
		elem.Div(legend...),
		elem.Details(vecty.Markup(vecty.Class("more")),
			elem.Summary(vecty.Text("How to read the views")),
			elem.Paragraph(vecty.Markup(vecty.Class("summary"), vecty.Data("testid", "projection-summary")), vecty.Text(projectionSummary(r, trained))),
			elem.Paragraph(vecty.Markup(vecty.Class("hint")), vecty.Text("Each view is the first two principal components of the data mapped by A^½ (Euclidean: A = I), on equal scales, so distances in the picture follow the metric. "+
				"While a run learns, the learned view is redrawn from its current metric a few times a second, each frame turned to match the last. "+
				"The errors are 5-nearest-neighbour errors in the full space on the held-out rows, with Wilson's 95 % interval: on a few dozen rows one row moves the error by several points."))),
		downloads(p.Dispatch, trained, download{"projection", "coordinates (CSV)", "each row's class, part and both projections' coordinates"},
			download{"projection-svg", "views (SVG)", "both views as one SVG file"}),
	)
}

// errorLine is a view's test error, big, and its interval beside it.
func errorLine(testid, value, interval string) *vecty.HTML {
	return elem.Paragraph(vecty.Markup(vecty.Class("err-line")),
		elem.Span(vecty.Markup(vecty.Class("k")), vecty.Text("5-NN test error ")),
		elem.Strong(vecty.Markup(vecty.Class("v"), vecty.Data("testid", testid)), vecty.Text(value)),
		vecty.If(interval != "", elem.Span(vecty.Markup(vecty.Class("ci"), vecty.Data("testid", testid+"-ci")), vecty.Text(" ("+interval+")"))))
}

// projectionSummary says in words what the two views show.
func projectionSummary(r *protocol.Result, trained bool) string {
	if !trained {
		return itoa(r.N) + " rows, " + itoa(len(r.Test)) + " of them held out. 5-NN test error in the full space: Euclidean " + draw.Percent(r.ErrEuclid) + "; train to see the learned metric's."
	}
	s := itoa(r.N) + " rows, " + itoa(len(r.Test)) + " of them held out. 5-NN test error in the full space: Euclidean " + euclidError(r) + ", learned " + learnedError(r) + "."
	if r.Collapsed {
		s += " A = 0 maps every row to the same point: the learned view draws them all on one spot, the centre."
	}
	return s
}

func emptyView(testid, title string) *vecty.HTML {
	return elem.Figure(elem.FigureCaption(vecty.Text(title)),
		svg("svg", vecty.Markup(vecty.Data("testid", testid), vecty.Data("points", "0"), vecty.Attribute("viewBox", "0 0 "+f1(projW)+" "+f1(projH))),
			svg("rect", vecty.Markup(vecty.Class("plot-bg"), vecty.Attribute("width", projW), vecty.Attribute("height", projH)))))
}

// projView is one view of the projection panel: its markers, a child that
// redraws only for new coordinates, under the ring of the row the pointer
// is on. Moving the pointer redraws the ring and the caption of one view:
// 40 pointer moves across a 5,000-row upload's learned view cost the main
// thread 883 ms and a task of 101 ms while each redrew both views' markers,
// 259 ms and no long task this way (TestVisitLongTasks).
type projView struct {
	vecty.Core
	testid, title string
	r             *protocol.Result
	xy            []float64
	data          *protocol.Dataset
	hover         int // the row under the pointer, -1 if none
	markers       *Memo[markerProps]
}

// with sets the view's props and returns it, for its panel's render.
func (v *projView) with(testid, title string, r *protocol.Result, xy []float64, data *protocol.Dataset) *projView {
	if v.r != r || !sameSlice(v.xy, xy) || v.data != data {
		v.hover = -1
	}
	v.testid, v.title, v.r, v.xy, v.data = testid, title, r, xy, data
	return v
}

func (v *projView) SkipRender(prev vecty.Component) bool {
	q, ok := prev.(*projView)
	return ok && q.testid == v.testid && q.r == v.r && sameSlice(q.xy, v.xy) && q.data == v.data && q.hover == v.hover
}

func (v *projView) Render() vecty.ComponentOrHTML {
	r, xy := v.r, v.xy
	box := draw.Box{W: projW, H: projH}
	sc := draw.NewScatter(box, xy, 10)
	if v.markers == nil {
		v.markers = &Memo[markerProps]{Draw: drawMarkers, Same: markerProps.same}
	}
	v.markers.Props = markerProps{xy: xy, labels: r.Labels, test: r.Test, classes: len(v.data.Classes), n: r.N}
	children := []vecty.MarkupOrChild{vecty.Markup(
		vecty.Data("testid", v.testid), vecty.Data("points", strconv.Itoa(r.N)),
		vecty.Attribute("viewBox", "0 0 "+f1(projW)+" "+f1(projH)), vecty.Attribute("role", "img"),
		vecty.Attribute("aria-label", v.title+" projection, "+strconv.Itoa(r.N)+" points"),
		event.MouseMove(func(e *vecty.Event) {
			px, py, ok := localPoint(e, projW)
			if !ok {
				return
			}
			i, dist := sc.Nearest(xy, px, py)
			if dist > 12 {
				i = -1
			}
			if i != v.hover {
				v.hover = i
				vecty.Rerender(v)
			}
		}),
		event.MouseLeave(func(*vecty.Event) {
			if v.hover != -1 {
				v.hover = -1
				vecty.Rerender(v)
			}
		}),
	), svg("rect", vecty.Markup(vecty.Class("plot-bg"), vecty.Attribute("width", projW), vecty.Attribute("height", projH))),
		v.markers}
	caption := []vecty.MarkupOrChild{vecty.Text(v.title)}
	if i := v.hover; i >= 0 && i < r.N {
		x, y := sc.At(xy[2*i], xy[2*i+1])
		children = append(children, svg("circle", vecty.Markup(vecty.Class("ring"), vecty.Attribute("cx", x), vecty.Attribute("cy", y), vecty.Attribute("r", 7))))
		part := "training"
		if slices.Contains(r.Test, i) {
			part = "test"
		}
		caption = append(caption, elem.Span(vecty.Markup(vecty.Class("hover"), vecty.Data("testid", "point-hover")),
			vecty.Text(" · row "+itoa(i+1)+": "+className(v.data.Classes, int(r.Labels[i]))+" ("+part+")")))
	}
	return elem.Figure(elem.FigureCaption(caption...), svg("svg", children...))
}

// markerProps are what a view's markers show: every row's point, class and
// part (training or held out).
type markerProps struct {
	xy, labels []float64
	test       []int
	classes, n int
}

// same compares the contents (a new result brings the same Euclidean
// coordinates in new slices; comparing 10,000 numbers costs far less than
// drawing them).
func (a markerProps) same(b markerProps) bool {
	return a.classes == b.classes && a.n == b.n && slices.Equal(a.xy, b.xy) && slices.Equal(a.labels, b.labels) && slices.Equal(a.test, b.test)
}

// drawMarkers draws the markers as two paths per class: discs for training
// rows (round caps of zero-length segments, draw.Markers), hollow squares
// for test rows.
func drawMarkers(m markerProps) *vecty.HTML {
	paths := []vecty.MarkupOrChild{}
	for _, cp := range draw.ProjectionMarkers(draw.Box{W: projW, H: projH}, m.xy, m.labels, m.test, m.classes, m.n) {
		colour, c := draw.ClassColour(cp.Class), strconv.Itoa(cp.Class)
		paths = append(paths,
			svg("path", vecty.Markup(vecty.Class("pts"), vecty.Data("class", c), vecty.Style("stroke", colour), vecty.Style("stroke-width", draw.DotWidth(3)), vecty.Attribute("d", cp.Train))),
			svg("path", vecty.Markup(vecty.Class("pts", "test"), vecty.Data("class", c), vecty.Style("stroke", colour), vecty.Attribute("d", cp.Test))))
	}
	return svg("g", paths...)
}

func className(names []string, c int) string {
	if c >= 0 && c < len(names) {
		return names[c]
	}
	return "?"
}

func (p *Projections) wasRendered() bool { return p.rendered }
