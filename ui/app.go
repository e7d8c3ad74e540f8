//go:build js && wasm

package ui

import (
	"syscall/js"

	"github.com/hexops/vecty"
	"github.com/hexops/vecty/elem"
	"github.com/hexops/vecty/event"

	"github.com/rml-lab/rml/ui/store"
	"github.com/rml-lab/rml/wasm/protocol"
)

// App is the page. It renders from the store; every change goes through
// glue.Dispatch.
type App struct {
	vecty.Core
	glue  *glue
	chart *Chart           // one instance, so progress can redraw it alone
	shown *protocol.Result // the result the views show
	guide *Guide
	// The panels, one instance each, so that the glue can redraw each in a
	// task of its own (glue.redraw).
	data   *DataPanel
	proj   *Projections
	res    *Memo[ResultProps]
	heat   *Heatmap           // in the result panel, redrawn before it
	sus    *Memo[ResultProps] // the suspects, in the result panel, redrawn before it
	cmp    *Memo[ComparePanelProps]
	curves *Memo[OverlayProps] // the pinned runs' curves, in the Compare panel, redrawn before it
	sweep  *Memo[SweepProps]
	params *Memo[ParamProps]
	side   *Memo[SideProps]
	// The stage's own: the lesson, the controls and the error curve (the
	// projections and the gap chart above are its too).
	lesson   *Memo[LessonProps]
	controls *Memo[ControlsProps]
	errs     *Memo[ErrorChartProps]
	ask      *Memo[AskProps] // the Ask-me panel, empty outside the mode
}

// newPanels makes the App's panels, which dispatch through d.
func (a *App) newPanels(d func(store.Action), open, openTriplets, openAnswers func(js.Value), saveAnswers func()) {
	a.chart = &Chart{dispatch: d}
	a.guide = &Guide{}
	a.data = &DataPanel{Dispatch: d, Open: open, preview: &Memo[PreviewProps]{Draw: preview, Same: PreviewProps.same, Name: "preview"}}
	a.proj = &Projections{Dispatch: d}
	a.heat = &Heatmap{}
	a.sus = &Memo[ResultProps]{Draw: func(p ResultProps) *vecty.HTML {
		if p.Result == nil {
			return elem.Div()
		}
		return suspects(p.Result, p.Data, p.Edits, d)
	}, Same: ResultProps.same, Name: "suspects"}
	a.res = &Memo[ResultProps]{Draw: func(p ResultProps) *vecty.HTML { return resultPanel(p, d, a.heat, a.sus) }, Same: ResultProps.same, Name: "result"}
	a.curves = &Memo[OverlayProps]{Draw: overlayChart, Name: "curves"}
	a.cmp = &Memo[ComparePanelProps]{Draw: func(p ComparePanelProps) *vecty.HTML { return comparePanel(p, d, a.curves) }, Name: "compare"}
	a.sweep = &Memo[SweepProps]{Draw: func(p SweepProps) *vecty.HTML { return sweepPanel(p, d) }, Name: "sweep"}
	a.params = &Memo[ParamProps]{Draw: func(p ParamProps) *vecty.HTML { return paramPanel(p, d) }, Name: "params"}
	a.side = &Memo[SideProps]{Draw: func(p SideProps) *vecty.HTML { return sidePanel(p, d, openTriplets) }, Name: "side"}
	a.lesson = &Memo[LessonProps]{Draw: func(p LessonProps) *vecty.HTML { return lessonHead(p, d) }, Name: "lesson"}
	a.controls = &Memo[ControlsProps]{Draw: func(p ControlsProps) *vecty.HTML { return stageControls(p, d) }, Name: "controls"}
	a.errs = &Memo[ErrorChartProps]{Draw: errorChart, Same: sameErrorChart, Name: "errors"}
	a.ask = &Memo[AskProps]{Draw: func(p AskProps) *vecty.HTML { return askPanel(p, d, saveAnswers, openAnswers) }, Name: "ask"}
}

// syncViews sets the props of the panels from the store and returns, in
// the order to redraw them, those whose props changed and that have been
// rendered (Vecty panics on a Rerender of a component never rendered: a
// panel the link hides).
//
// While a Compare or a sweep runs, the views (the chart, projections, heat
// map, eigenvalues, suspects) keep the run they showed: redrawing them for
// every run of the batch cost the main thread most of its time, which the
// solver workers need on as many cores (measured in e2e TestWorkerPool; on
// Wine's η sweep the chart alone, hidden in a one-off run, 5–10 % of the
// sweep's time on two workers). The columns and points fill in, and the
// views show the batch's last run when it ends. A batch lasts while s.Job
// is set: between two of its runs the status reads the last one's end, and
// keying on the status redrew the views, the heat map included, at every
// run of the η sweep.
func (a *App) syncViews() (redraw []vecty.Component) {
	s := a.glue.state
	batch := a.glue.inBatch()
	if !batch {
		a.shown = s.Result
	}
	add := func(changed bool, c redrawable) {
		if changed && c.wasRendered() {
			redraw = append(redraw, c)
		}
	}
	// The controls first, so that a button never offers what the store
	// would refuse (Train while a dataset loads) for the frames the panels
	// after it take; then the preview before the data panel it sits in (a
	// child redrawn after its parent would be redrawn with it, in the
	// parent's task); then the views.
	add(a.controls.setProps(controlsProps(s, a.shown)), a.controls)
	add(a.params.setProps(paramProps(s, a.shown)), a.params)
	add(a.side.setProps(sideProps(s)), a.side)
	add(a.lesson.setProps(LessonProps{Params: s.Params, Asking: s.Ask != nil, Data: s.Data != nil}), a.lesson)
	add(a.ask.setProps(askProps(s)), a.ask)
	dp := dataProps(s)
	add(a.data.preview.setProps(previewProps(dp)), a.data.preview)
	add(a.data.setProps(dp), a.data)
	if !batch {
		add(a.chart.setProps(chartProps(s)), a.chart)
		add(a.errs.setProps(errorChartProps(s)), a.errs)
	}
	add(a.proj.setProps(a.shown, s.Data, a.frame()), a.proj)
	// The result panel's heat map and suspects before it (a child redrawn
	// after its parent would be redrawn in the parent's task); the panel
	// itself shows no edits, so they redraw the suspects alone.
	var features []string
	if s.Data != nil {
		features = s.Data.Features
	}
	add(a.heat.setProps(a.shown, features), a.heat)
	add(a.sus.setProps(ResultProps{Result: a.shown, Data: s.Data, Edits: s.Edits}), a.sus)
	add(a.res.setProps(ResultProps{Result: a.shown, Data: s.Data}), a.res)
	// Likewise the Compare panel's curves before it.
	add(a.curves.setProps(OverlayProps{Pinned: s.Pinned}), a.curves)
	add(a.cmp.setProps(compareProps(s)), a.cmp)
	add(a.sweep.setProps(sweepProps(s)), a.sweep)
	return redraw
}

// redrawable is a panel the glue redraws on its own, once it has been
// rendered.
type redrawable interface {
	vecty.Component
	wasRendered() bool
}

// frame is the learned view's frame to show: the run going on's latest,
// none during a batch (the views keep the run they showed).
func (a *App) frame() *store.Frame {
	if a.glue.inBatch() {
		return a.proj.Frame
	}
	return a.glue.state.Frame
}

// Render lays out the page: the stage first (the lesson, the controls,
// the two views with their errors, the curves), then the details, the
// settings on the left and the result, Compare and the sweeps on the
// right; in an embed (View.Embed) the stage and then everything else
// folded. Panels and controls the view hides are not rendered at all.
func (a *App) Render() vecty.ComponentOrHTML {
	// The panels' props were set by syncViews (glue.redraw, or Run before
	// the first render).
	markRender("page")
	s := a.glue.state
	res := a.shown
	view := s.Params.View
	shown := func(name string) bool { return !view.Hides(name) }

	stage := elem.Section(vecty.Markup(vecty.Class("stage"), vecty.Data("testid", "stage"), vecty.Attribute("aria-label", "the lesson, its controls and what the metric learns")),
		a.lesson,
		a.ask,
		elem.Div(vecty.Markup(vecty.Class("stage-grid")),
			elem.Div(vecty.Markup(vecty.Class("stage-side")), a.controls, statusLine(s)),
			vecty.If(shown("projection"), elem.Div(vecty.Markup(vecty.Class("stage-views")), a.proj)),
			elem.Div(vecty.Markup(vecty.Class("stage-charts")),
				vecty.If(shown("chart"), a.errs),
				vecty.If(shown("chart"), a.chart)),
		),
	)
	controls := elem.Div(vecty.Markup(vecty.Class("controls")),
		vecty.If(shown("guide"), a.guide),
		vecty.If(shown("data"), a.data),
		vecty.If(shown("side"), a.side),
		vecty.If(shown("params"), a.params),
	)
	views := elem.Div(vecty.Markup(vecty.Class("views")),
		vecty.If(shown("result"), a.res),
		vecty.If(shown("compare"), a.cmp),
		vecty.If(shown("sweep"), a.sweep),
	)
	layout := elem.Main(vecty.Markup(vecty.Class("layout")), stage, elem.Div(vecty.Markup(vecty.Class("below")), controls, views))
	if view.Embed {
		// The stage first; the rest one click away (the browser keeps the
		// fold open or shut: the page never sets it).
		layout = elem.Main(vecty.Markup(vecty.Class("layout", "embedded")), stage,
			elem.Details(vecty.Markup(vecty.Class("fold"), vecty.Data("testid", "settings")),
				elem.Summary(vecty.Text("More: the data, the triplets, the matrix, Compare")),
				elem.Div(vecty.Markup(vecty.Class("below")), controls, views)))
	}
	// The message line keeps its place whether or not it shows the
	// message (Vecty matches children by place).
	top := s.MessageAt == store.AtTop || (s.MessageAt == store.AtData && !shown("data")) || (s.MessageAt == store.AtSide && !shown("side"))
	message := messageLine(s.Message, s.Notice, top)
	if top && s.OffersFresh() {
		message = elem.Paragraph(vecty.Markup(vecty.Data("testid", "message"), vecty.Class("message", "notice"), vecty.Attribute("role", "status")),
			vecty.Text(s.Message+" "),
			elem.Button(vecty.Markup(vecty.Data("testid", "start-fresh"), vecty.Class("mini"),
				event.Click(func(*vecty.Event) { a.glue.startFresh() })), vecty.Text("Start fresh")))
	}
	return elem.Body(
		vecty.Markup(vecty.ClassMap{"embed": view.Embed}, vecty.Data("drawn", itoa(a.glue.redraws))),
		elem.Header(vecty.Markup(vecty.Class("top")),
			elem.Heading1(vecty.Text("Robust metric learning")),
			vecty.If(!view.Embed, elem.Paragraph(vecty.Markup(vecty.Class("sub")),
				vecty.Text("Learn a distance from triplets “x is closer to y than to z” when some of them are wrong "+
					"(Huang, Jin, Xu & Liu, 2010). Everything runs in this page."))),
			vecty.If(shown("share"), shareRow(s.Shared, fullLink(s.Params), a.glue.share)),
		),
		message,
		// Results, announced to screen readers as they arrive.
		elem.Paragraph(vecty.Markup(vecty.Class("sr-only"), vecty.Data("testid", "announce"), vecty.Attribute("aria-live", "polite")), vecty.Text(announce(res))),
		layout,
		vecty.If(!view.Embed, elem.Footer(vecty.Markup(vecty.Class("foot")),
			vecty.Text("Shared links keep every setting and the seed, so they rebuild the same run. Nothing leaves this page."),
		)),
	)
}

// fullLink is the link to the full page, for an embed's "Open the full
// page"; "" when the page is not embedded.
func fullLink(p store.Params) string {
	if !p.View.Embed {
		return ""
	}
	return linkFor(p, store.View{})
}

// messageLine shows the page's message, if here: an error (role alert) or
// a notice. Where it is not (another panel shows it), the line is empty
// and carries no test hook, so that there is one "message" on the page.
func messageLine(msg string, notice, here bool) *vecty.HTML {
	kind, role := "error", "alert"
	if notice {
		kind, role = "notice", "status"
	}
	if !here {
		msg = ""
	}
	if msg == "" {
		kind = "empty"
	}
	return elem.Paragraph(vecty.Markup(vecty.MarkupIf(here, vecty.Data("testid", "message")), vecty.Class("message", kind), vecty.Attribute("role", role)),
		vecty.Text(msg))
}

// announce is the sentence a screen reader hears when a result arrives.
func announce(r *protocol.Result) string {
	if r == nil {
		return ""
	}
	msg := "Run finished (" + r.Status + "): test error " + learnedError(r) + " with the learned metric, " + euclidError(r) + " Euclidean."
	if r.Collapsed {
		msg += " The metric collapsed to A = 0."
	} else if r.BudgetActive {
		msg += " The budget binds."
	}
	return msg
}
