//go:build js && wasm

package ui

import (
	"syscall/js"

	"github.com/hexops/vecty"
	"github.com/hexops/vecty/elem"
	"github.com/hexops/vecty/event"
	"github.com/hexops/vecty/prop"

	"github.com/rml-lab/rml/ui/store"
)

// export writes the download a store.Export names, from the state (the
// text comes from ui/store; assets/export.js hands it to the browser).
func (g *glue) export(kind string) {
	s := g.state
	if !s.CanExport() {
		return
	}
	stem := s.FileStem()
	w := js.Global()
	switch kind {
	case "matrix":
		w.Call("rmlDownload", stem+"-A.csv", "text/csv", s.MatrixCSV())
	case "run":
		b, err := s.RunJSON()
		if err != nil {
			g.Dispatch(store.Invalid{Message: "The run could not be written: " + err.Error()})
			return
		}
		w.Call("rmlDownload", stem+"-run.json", "application/json", string(b))
	case "projection":
		w.Call("rmlDownload", stem+"-projection.csv", "text/csv", s.ProjectionCSV())
	case "figure":
		w.Call("rmlDownloadSVG", stem+"-convergence.svg", []any{`[data-testid="gap-chart"]`})
	case "projection-svg":
		w.Call("rmlDownloadSVG", stem+"-projection.svg", []any{`[data-testid="projection-euclid"]`, `[data-testid="projection-learned"]`})
	case "heatmap":
		w.Call("rmlDownloadLayers", stem+"-A.png", `[data-testid="metric-heatmap"] .heat-view`)
	}
}

// download is one export button: its data-testid is "export-"+kind.
type download struct{ kind, text, title string }

// downloads is a row of export buttons, enabled when there is a result.
func downloads(d func(store.Action), enabled bool, items ...download) *vecty.HTML {
	row := []vecty.MarkupOrChild{vecty.Markup(vecty.Class("downloads")), elem.Span(vecty.Markup(vecty.Class("hint")), vecty.Text("Download: "))}
	for _, it := range items {
		kind := it.kind
		row = append(row, elem.Button(vecty.Markup(vecty.Class("mini"), vecty.Data("testid", "export-"+kind), prop.Disabled(!enabled),
			vecty.Attribute("title", it.title), event.Click(func(*vecty.Event) { d(store.Export{Kind: kind}) })), vecty.Text(it.text)))
	}
	return elem.Div(row...)
}
