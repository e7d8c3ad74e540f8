// Command firstpaint writes the page's first screen into index.html as
// static HTML and SVG, at build time, so that a first visit sees the first
// lesson, its controls and its data under the Euclidean metric before the
// WebAssembly program has arrived and started: the app then renders the
// page over it (Vecty's RenderBody replaces the body). Usage, from
// build.sh:
//
//	go run ./internal/firstpaint index.html build/index.html
//
// It replaces the comment <!-- first paint --> of the input with the
// screen. The numbers and points are those the page's worker computes
// (wasm/session, natively), and the markers are laid out by the page's own
// ui/draw, so the screen the app draws over it is the same.
package main

import (
	"fmt"
	"html"
	"os"
	"path/filepath"
	"strconv"
	"strings"

	"github.com/rml-lab/rml/spec"
	"github.com/rml-lab/rml/ui/draw"
	"github.com/rml-lab/rml/ui/store"
	"github.com/rml-lab/rml/wasm/protocol"
	"github.com/rml-lab/rml/wasm/session"
)

const marker = "<!-- first paint -->"

func main() {
	if len(os.Args) != 3 {
		fmt.Fprintln(os.Stderr, "usage: firstpaint index.html out.html")
		os.Exit(2)
	}
	page, err := os.ReadFile(os.Args[1])
	if err != nil {
		fail(err)
	}
	if !strings.Contains(string(page), marker) {
		fail(fmt.Errorf("%s has no %s to replace", os.Args[1], marker))
	}
	screen, err := firstScreen(filepath.Join(filepath.Dir(os.Args[1]), "assets", "datasets"))
	if err != nil {
		fail(err)
	}
	out := strings.Replace(string(page), marker, screen, 1)
	if err := os.WriteFile(os.Args[2], []byte(out), 0o644); err != nil {
		fail(err)
	}
}

func fail(err error) {
	fmt.Fprintln(os.Stderr, "firstpaint:", err)
	os.Exit(1)
}

// Sizes the page's views are drawn at (ui/projection.go's projW, projH).
const projW, projH = 300.0, 280.0

// firstScreen is the first lesson's stage as the page shows it before a
// run: its text, its settings, its data's Euclidean view and test error.
func firstScreen(datasets string) (string, error) {
	pr := store.Presets[0]
	p := pr.Params
	s := session.New(func(file string) ([]byte, error) { return os.ReadFile(filepath.Join(datasets, file)) })
	ds, e := s.Load(protocol.Load{Builtin: p.Dataset, TestFrac: store.TestFrac, Seed: p.Seed})
	if e != nil {
		return "", fmt.Errorf("loading %s: %s", p.Dataset, e.Message)
	}
	var b strings.Builder
	w := func(format string, args ...any) { fmt.Fprintf(&b, format, args...) }
	esc := html.EscapeString
	w(`<div id="first" class="first">`)
	w(`<header class="top"><h1>Robust metric learning</h1><p class="sub">Learn a distance from triplets “x is closer to y than to z” when some of them are wrong (Huang, Jin, Xu &amp; Liu, 2010). Everything runs in this page.</p>`)
	w(`<div class="share"><button disabled="">Copy link</button><button disabled="">Copy embed code</button></div></header>`)
	w(`<main class="layout"><section class="stage" aria-label="the lesson, its controls and what the metric learns">`)
	w(`<div class="stage-head"><div class="row"><label>Lesson <select disabled="" aria-label="lesson"><option>%s</option></select></label></div>`, esc(pr.Title))
	w(`<p class="lesson-text">%s</p></div>`, esc(pr.Text))
	w(`<div class="stage-grid"><div class="stage-side"><div class="stage-controls">`)
	w(`<label>Dataset <select disabled="" aria-label="dataset"><option>%s</option></select></label>`, esc(p.Dataset))
	for _, c := range []struct {
		label string
		v     float64
	}{{"Noise: swap each triplet with probability ", p.Flip}, {"η, the share of triplets trusted ", p.Eta}} {
		w(`<label>%s<output>%s</output></label>`, esc(c.label), strconv.FormatFloat(c.v, 'f', 2, 64))
	}
	w(`<label>λ, the regularization <output>%s</output></label>`, strconv.FormatFloat(p.Lambda, 'g', -1, 64))
	w(`<div class="buttons play"><button class="primary play-icon" disabled="">Train</button><button class="pause-icon" disabled="">Pause</button><button disabled="">Step</button><button disabled="">Reset</button></div>`)
	w(`</div><div class="status-line"><span>Status: </span><strong class="status idle">starting the solver…</strong></div></div>`)
	w(`<div class="stage-views"><div class="projection"><div class="pair">`)
	w(`<div><figure><figcaption>Euclidean</figcaption>%s</figure>`, view(ds, ds.Euclid))
	w(`<p class="err-line"><span class="k">5-NN test error </span><strong class="v">%s</strong><span class="ci"> (%s)</span></p></div>`, draw.Percent(ds.ErrEuclid), interval(ds.ErrEuclid, ds.Test))
	w(`<div><figure><figcaption>Learned metric: starting…</figcaption>%s</figure>`, view(ds, nil))
	w(`<p class="err-line"><span class="k">5-NN test error </span><strong class="v">—</strong></p></div>`)
	w(`</div></div></div><div class="stage-charts"></div></div></section></main></div>`)
	return b.String(), nil
}

// view is a projection as the page draws it: the frame, and the rows'
// markers when xy is given.
func view(ds *protocol.Dataset, xy []float64) string {
	var b strings.Builder
	fmt.Fprintf(&b, `<svg viewBox="0 0 %.1f %.1f" role="img" aria-label="Euclidean projection, %d points"><rect class="plot-bg" width="%g" height="%g"></rect>`, projW, projH, ds.Rows, projW, projH)
	if xy != nil {
		b.WriteString("<g>")
		for _, cp := range draw.ProjectionMarkers(draw.Box{W: projW, H: projH}, xy, ds.Labels, ds.Held, len(ds.Classes), ds.Rows) {
			colour := draw.ClassColour(cp.Class)
			fmt.Fprintf(&b, `<path class="pts" style="stroke: %s; stroke-width: %s;" d="%s"></path>`, colour, draw.DotWidth(3), cp.Train)
			fmt.Fprintf(&b, `<path class="pts test" style="stroke: %s;" d="%s"></path>`, colour, cp.Test)
		}
		b.WriteString("</g>")
	}
	b.WriteString("</svg>")
	return b.String()
}

// interval is a test error's 95 % interval as the page writes it.
func interval(err float64, test int) string {
	k := spec.Misclassified(err, test)
	lo, hi := spec.Wilson(k, test)
	return "95 % CI " + strconv.FormatFloat(100*lo, 'f', 1, 64) + "–" + strconv.FormatFloat(100*hi, 'f', 1, 64) + " %, " + strconv.Itoa(k) + " of " + strconv.Itoa(test) + " rows"
}
