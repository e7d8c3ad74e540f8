//go:build js && wasm

package ui

import (
	"slices"
	"strconv"

	"github.com/hexops/vecty"
	"github.com/hexops/vecty/elem"
	"github.com/hexops/vecty/event"

	"github.com/rml-lab/rml/ui/draw"
	"github.com/rml-lab/rml/ui/store"
	"github.com/rml-lab/rml/wasm/protocol"
)

// Projections is panel 5: the Euclidean and the learned 2-D views side by
// side. It redraws only for a new result (a new pointer) or a new dataset;
// a hovered point redraws its view alone (projView).
type Projections struct {
	vecty.Core
	Result   *protocol.Result   `vecty:"prop"`
	Data     *protocol.Dataset  `vecty:"prop"`
	Dispatch func(store.Action) `vecty:"prop"`
	views    [2]*projView       // the Euclidean and the learned view, kept across renders
	rendered bool               // it has been rendered: vecty.Rerender may be called on it
}

// setProps gives the panel a result and a dataset and reports whether they
// differ from its last ones.
func (p *Projections) setProps(r *protocol.Result, data *protocol.Dataset) bool {
	if r == p.Result && data == p.Data {
		return false
	}
	p.Result, p.Data = r, data
	return true
}

func (p *Projections) SkipRender(prev vecty.Component) bool {
	q, ok := prev.(*Projections)
	return ok && q.Result == p.Result && q.Data == p.Data
}

const projW, projH = 300.0, 280.0

func (p *Projections) Render() vecty.ComponentOrHTML {
	p.rendered = true
	markRender("projection")
	r := p.Result
	if p.views[0] == nil {
		p.views = [2]*projView{{hover: -1}, {hover: -1}}
	}
	if p.Data == nil {
		return panel("5 · Projection", "projection",
			elem.Div(vecty.Markup(vecty.Class("pair")),
				emptyView("projection-euclid", "Euclidean"), emptyView("projection-learned", "Learned metric")),
			elem.Paragraph(vecty.Markup(vecty.Class("hint")), vecty.Text("Once data is loaded: its first two principal components, under the Euclidean metric and, after a run, under the learned one.")))
	}
	if r == nil {
		// Before a run: the Euclidean view the dataset came with.
		d := p.Data
		r = &protocol.Result{N: d.Rows, Test: d.Held, Euclid: d.Euclid, Labels: d.Labels, ErrEuclid: d.ErrEuclid, K: d.K}
		if len(d.Euclid) != 2*d.Rows {
			return panel("5 · Projection", "projection",
				elem.Div(vecty.Markup(vecty.Class("pair")),
					emptyView("projection-euclid", "Euclidean"), emptyView("projection-learned", "Learned metric")))
		}
	}
	trained := p.Result != nil
	var learned vecty.ComponentOrHTML = emptyView("projection-learned", "Learned metric: train to see it")
	if trained {
		learned = p.views[1].with("projection-learned", "Learned metric", r, r.Learned, p.Data)
	}
	legend := []vecty.MarkupOrChild{vecty.Markup(vecty.Class("legend"))}
	for c, name := range p.Data.Classes {
		legend = append(legend, elem.Span(vecty.Markup(vecty.Class("key")),
			elem.Span(vecty.Markup(vecty.Class("swatch"), vecty.Style("background", draw.ClassColour(c)))), vecty.Text(name)))
	}
	legend = append(legend, elem.Span(vecty.Markup(vecty.Class("key")), vecty.Text("● training row  □ test row (held out)")))
	return panel("5 · Projection", "projection",
		elem.Div(vecty.Markup(vecty.Class("pair")),
			p.views[0].with("projection-euclid", "Euclidean", r, r.Euclid, p.Data),
			learned,
		),
		elem.Div(legend...),
		elem.Paragraph(vecty.Markup(vecty.Class("hint")), vecty.Text("Each view is the first two principal components of the data mapped by A^½ (Euclidean: A = I), on equal scales, so distances in the picture follow the metric.")),
		elem.Paragraph(vecty.Markup(vecty.Class("summary"), vecty.Data("testid", "projection-summary")), vecty.Text(projectionSummary(r, trained))),
		downloads(p.Dispatch, trained, download{"projection", "coordinates (CSV)", "each row's class, part and both projections' coordinates"},
			download{"projection-svg", "views (SVG)", "both views as one SVG file"}),
	)
}

// projectionSummary says in words what the two views show.
func projectionSummary(r *protocol.Result, trained bool) string {
	if !trained {
		return itoa(r.N) + " rows, " + itoa(len(r.Test)) + " of them held out. 5-NN test error in the full space: Euclidean " + draw.Percent(r.ErrEuclid) + "; train to see the learned metric's."
	}
	s := itoa(r.N) + " rows, " + itoa(len(r.Test)) + " of them held out. 5-NN test error in the full space: Euclidean " + draw.Percent(r.ErrEuclid) + ", learned " + learnedError(r) + "."
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
	sc := draw.NewScatter(draw.Box{W: projW, H: projH}, m.xy, 10)
	test := make([]bool, m.n)
	for _, i := range m.test {
		test[i] = true
	}
	paths := []vecty.MarkupOrChild{}
	for c := 0; c < m.classes; c++ {
		var trainRows, testRows []int
		for i := 0; i < m.n; i++ {
			if int(m.labels[i]) != c {
				continue
			}
			if test[i] {
				testRows = append(testRows, i)
			} else {
				trainRows = append(trainRows, i)
			}
		}
		colour := draw.ClassColour(c)
		paths = append(paths,
			svg("path", vecty.Markup(vecty.Class("pts"), vecty.Data("class", strconv.Itoa(c)), vecty.Style("stroke", colour), vecty.Style("stroke-width", draw.DotWidth(3)), vecty.Attribute("d", sc.Markers(m.xy, trainRows, draw.Circle, 3)))),
			svg("path", vecty.Markup(vecty.Class("pts", "test"), vecty.Data("class", strconv.Itoa(c)), vecty.Style("stroke", colour), vecty.Attribute("d", sc.Markers(m.xy, testRows, draw.Square, 3.5)))))
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
