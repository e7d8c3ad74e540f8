//go:build js && wasm

package main

import (
	"github.com/hexops/vecty"
	"github.com/hexops/vecty/elem"

	"github.com/rml-lab/rml/ui/store"
	"github.com/rml-lab/rml/wasm/protocol"
)

// App is the page. It renders from the store; every change goes through
// glue.Dispatch.
type App struct {
	vecty.Core
	glue  *glue
	chart *Chart // one instance, so progress can redraw it alone
}

// Render lays out the six panels: controls on the left, views on the right.
func (a *App) Render() vecty.ComponentOrHTML {
	s, d := a.glue.state, a.glue.Dispatch
	var res = s.Result

	return elem.Body(
		elem.Header(vecty.Markup(vecty.Class("top")),
			elem.Heading1(vecty.Text("Robust metric learning")),
			elem.Paragraph(vecty.Markup(vecty.Class("sub")),
				vecty.Text("Learn a Mahalanobis metric from triplets “x is closer to y than to z” when some are wrong "+
					"(Huang, Jin, Xu & Liu, 2010). Everything runs in this page.")),
			elem.Paragraph(vecty.Markup(vecty.Class("status-line")),
				vecty.Text("Status: "),
				elem.Strong(vecty.Markup(vecty.Data("testid", "status"), vecty.Class("status", string(s.Status)),
					// Which run is current and which one the views show.
					vecty.Data("run", itoa(s.RunID)), vecty.Data("shown", itoa(s.ResultOf)), vecty.Attribute("aria-live", "polite")),
					vecty.Text(string(s.Status))),
			),
		),
		messageLine(s),
		elem.Main(vecty.Markup(vecty.Class("layout")),
			elem.Div(vecty.Markup(vecty.Class("controls")),
				&DataPanel{State: s, Dispatch: d, Key: dataKeyOf(s)},
				&Panel{Key: sideKey(s), Draw: func() *vecty.HTML { return sidePanel(s, d) }},
				&Panel{Key: paramKey(s), Draw: func() *vecty.HTML { return paramPanel(s, d) }},
			),
			elem.Div(vecty.Markup(vecty.Class("views")),
				a.chart,
				&Projections{Result: res, Data: s.Data, Version: s.Version},
				&Panel{Key: resultKey(s), Draw: func() *vecty.HTML { return resultPanel(s) }},
			),
		),
		elem.Footer(vecty.Markup(vecty.Class("foot")),
			vecty.Text("Shared links keep every setting and the seed, so they rebuild the same run. Nothing leaves this page."),
		),
	)
}

func messageLine(s *store.State) *vecty.HTML {
	kind, role := "error", "alert"
	if s.Notice {
		kind, role = "notice", "status"
	}
	if s.Message == "" {
		kind = "empty"
	}
	return elem.Paragraph(vecty.Markup(vecty.Data("testid", "message"), vecty.Class("message", kind), vecty.Attribute("role", role)),
		vecty.Text(s.Message))
}

// panel is a titled section.
func panel(title, class string, children ...vecty.MarkupOrChild) *vecty.HTML {
	return elem.Section(append([]vecty.MarkupOrChild{vecty.Markup(vecty.Class("panel", class)), elem.Heading2(vecty.Text(title))}, children...)...)
}

// Panel renders a panel through Draw and skips rendering while Key, the
// part of the state it shows, is unchanged: a run's progress and the other
// panels' changes then cost it nothing.
type Panel struct {
	vecty.Core
	Key  any                `vecty:"prop"`
	Draw func() *vecty.HTML `vecty:"prop"`
}

func (p *Panel) SkipRender(prev vecty.Component) bool {
	q, ok := prev.(*Panel)
	return ok && q.Key == p.Key
}

func (p *Panel) Render() vecty.ComponentOrHTML { return p.Draw() }

func sideKey(s *store.State) any {
	type key struct {
		p       store.Params
		data    *protocol.Dataset
		version int
	}
	return key{s.Params, s.Data, s.Version}
}

func paramKey(s *store.State) any {
	type key struct {
		p                      store.Params
		canTrain, running, res bool
		version                int
	}
	return key{s.Params, s.CanTrain(), s.Status == store.Running, s.Result != nil, s.Version}
}

func resultKey(s *store.State) any {
	type key struct {
		version int
		data    *protocol.Dataset
	}
	return key{s.Version, s.Data}
}
