//go:build js && wasm

package ui

import (
	"strconv"

	"github.com/hexops/vecty"
	"github.com/hexops/vecty/elem"
	"github.com/hexops/vecty/event"

	"github.com/rml-lab/rml/ui/draw"
	"github.com/rml-lab/rml/ui/store"
	"github.com/rml-lab/rml/wasm/protocol"
)

// Projections is panel 5: the Euclidean and the learned 2-D views side by
// side. It redraws only for a new result (a new pointer), a new dataset or
// a new hovered point.
type Projections struct {
	vecty.Core
	Result   *protocol.Result   `vecty:"prop"`
	Data     *protocol.Dataset  `vecty:"prop"`
	Dispatch func(store.Action) `vecty:"prop"`
	hover    [2]int             // row under the pointer in each view, -1 if none
	rendered bool               // it has been rendered: vecty.Rerender may be called on it
}

func (p *Projections) SkipRender(prev vecty.Component) bool {
	q, ok := prev.(*Projections)
	return ok && q.Result == p.Result && q.Data == p.Data && q.hover == p.hover
}

const projW, projH = 300.0, 280.0

func (p *Projections) Render() vecty.ComponentOrHTML {
	p.rendered = true
	r := p.Result
	if p.Data == nil {
		p.hover = [2]int{-1, -1}
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
	test := make([]bool, r.N)
	for _, i := range r.Test {
		test[i] = true
	}
	learned := emptyView("projection-learned", "Learned metric: train to see it")
	if trained {
		learned = p.view(1, "projection-learned", "Learned metric", r, r.Learned, test)
	}
	legend := []vecty.MarkupOrChild{vecty.Markup(vecty.Class("legend"))}
	for c, name := range p.Data.Classes {
		legend = append(legend, elem.Span(vecty.Markup(vecty.Class("key")),
			elem.Span(vecty.Markup(vecty.Class("swatch"), vecty.Style("background", draw.ClassColour(c)))), vecty.Text(name)))
	}
	legend = append(legend, elem.Span(vecty.Markup(vecty.Class("key")), vecty.Text("● training row  □ test row (held out)")))
	return panel("5 · Projection", "projection",
		elem.Div(vecty.Markup(vecty.Class("pair")),
			p.view(0, "projection-euclid", "Euclidean", r, r.Euclid, test),
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
		s += " The learned view is empty: A = 0 maps every row to the same point."
	}
	return s
}

func emptyView(testid, title string) *vecty.HTML {
	return elem.Figure(elem.FigureCaption(vecty.Text(title)),
		svg("svg", vecty.Markup(vecty.Data("testid", testid), vecty.Data("points", "0"), vecty.Attribute("viewBox", "0 0 "+f1(projW)+" "+f1(projH))),
			svg("rect", vecty.Markup(vecty.Class("plot-bg"), vecty.Attribute("width", projW), vecty.Attribute("height", projH)))))
}

func (p *Projections) view(k int, testid, title string, r *protocol.Result, xy []float64, test []bool) *vecty.HTML {
	box := draw.Box{W: projW, H: projH}
	sc := draw.NewScatter(box, xy, 10)
	children := []vecty.MarkupOrChild{vecty.Markup(
		vecty.Data("testid", testid), vecty.Data("points", strconv.Itoa(r.N)),
		vecty.Attribute("viewBox", "0 0 "+f1(projW)+" "+f1(projH)), vecty.Attribute("role", "img"),
		vecty.Attribute("aria-label", title+" projection, "+strconv.Itoa(r.N)+" points"),
		event.MouseMove(func(e *vecty.Event) {
			px, py, ok := localPoint(e, projW)
			if !ok {
				return
			}
			i, dist := sc.Nearest(xy, px, py)
			if dist > 12 {
				i = -1
			}
			if i != p.hover[k] {
				p.hover[k] = i
				vecty.Rerender(p)
			}
		}),
		event.MouseLeave(func(*vecty.Event) { p.hover[k] = -1; vecty.Rerender(p) }),
	), svg("rect", vecty.Markup(vecty.Class("plot-bg"), vecty.Attribute("width", projW), vecty.Attribute("height", projH)))}
	for c := range p.Data.Classes {
		var trainRows, testRows []int
		for i := 0; i < r.N; i++ {
			if int(r.Labels[i]) != c {
				continue
			}
			if test[i] {
				testRows = append(testRows, i)
			} else {
				trainRows = append(trainRows, i)
			}
		}
		colour := draw.ClassColour(c)
		children = append(children,
			svg("path", vecty.Markup(vecty.Class("pts"), vecty.Data("class", strconv.Itoa(c)), vecty.Style("fill", colour), vecty.Attribute("d", sc.Markers(xy, trainRows, draw.Circle, 3)))),
			svg("path", vecty.Markup(vecty.Class("pts", "test"), vecty.Data("class", strconv.Itoa(c)), vecty.Style("stroke", colour), vecty.Attribute("d", sc.Markers(xy, testRows, draw.Square, 3.5)))))
	}
	caption := []vecty.MarkupOrChild{vecty.Text(title)}
	if i := p.hover[k]; i >= 0 && i < r.N {
		x, y := sc.At(xy[2*i], xy[2*i+1])
		children = append(children, svg("circle", vecty.Markup(vecty.Class("ring"), vecty.Attribute("cx", x), vecty.Attribute("cy", y), vecty.Attribute("r", 7))))
		part := "training"
		if test[i] {
			part = "test"
		}
		caption = append(caption, elem.Span(vecty.Markup(vecty.Class("hover"), vecty.Data("testid", "point-hover")),
			vecty.Text(" · row "+itoa(i+1)+": "+className(p.Data.Classes, int(r.Labels[i]))+" ("+part+")")))
	}
	return elem.Figure(elem.FigureCaption(caption...), svg("svg", children...))
}

func className(names []string, c int) string {
	if c >= 0 && c < len(names) {
		return names[c]
	}
	return "?"
}

func (p *Projections) wasRendered() bool { return p.rendered }
