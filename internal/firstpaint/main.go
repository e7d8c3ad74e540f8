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
	"net/url"
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
	w(`<div class="stage-head"><div class="row"><label>Lesson <select disabled="" aria-label="lesson"><option>%s</option></select></label><button class="link" disabled="">What am I looking at?</button></div>`, esc(pr.Title))
	w(`<p class="lesson-text">%s</p></div>`, esc(pr.Text))
	w(`<div class="stage-grid"><div class="stage-side"><div class="stage-controls">`)
	w(`<label>Dataset <select disabled="" aria-label="dataset"><option>%s</option></select></label>`, esc(p.Dataset))
	// The controls as the app draws them (ui/stage.go), disabled until
	// it takes over: the same sizes, so nothing moves when it does.
	slider := func(label string, lo, hi, v float64) {
		w(`<label>%s<input type="range" disabled="" min="%g" max="%g" step="0.01" value="%g"/><output> %s</output></label>`,
			esc(label), lo, hi, v, strconv.FormatFloat(v, 'f', 2, 64))
	}
	slider("Noise: swap each triplet with probability ", 0, 0.5, p.Flip)
	n := ds.Train * p.KSame * p.KDiff
	w(`<p class="hint">about %.0f of %d triplets will be swapped</p>`, p.Flip*float64(n), n)
	slider("η, the share of triplets trusted ", 0.5, 1, p.Eta)
	w(`<label>λ, the regularization <input type="range" disabled="" aria-label="λ on a log scale" min="0" max="%d" step="1" value="%d"/><input type="text" class="short" disabled="" aria-label="λ" value="%s"/></label>`,
		len(spec.LambdaGrid)-1, draw.NearestLambda(p.Lambda), strconv.FormatFloat(p.Lambda, 'g', -1, 64))
	w(`<div class="buttons play"><button class="primary play-icon" disabled="">Train</button><button class="pause-icon" disabled="">Pause</button><button disabled="">Step</button><button disabled="">×10</button><button disabled="">Reset</button></div>`)
	w(`</div><div class="status-line"><span>Status: </span><strong class="status idle">starting the solver…</strong></div></div>`)
	w(`<div class="stage-views"><div class="projection"><div class="pair">`)
	w(`<div><figure><figcaption>Euclidean</figcaption>%s</figure>`, view(ds, ds.Euclid))
	w(`<p class="err-line"><span class="k">5-NN test error </span><strong class="v">%s</strong><span class="ci"> (%s)</span></p></div>`, draw.Percent(ds.ErrEuclid), draw.ErrorInterval(ds.ErrEuclid, ds.Test))
	w(`<div><figure><figcaption>Learned metric: starting…</figcaption>%s</figure>`, view(ds, nil))
	w(`<p class="err-line"><span class="k">5-NN test error </span><strong class="v">—</strong></p></div>`)
	w(`</div></div></div><div class="stage-charts"></div></div></section></main></div>`)
	return b.String(), nil
}

// view is a projection as the page draws it: the frame, and the rows'
// markers when xy is given. The view with markers is an image (an SVG
// file of its own, in a data: address, its styles written in), the first
// screen's largest piece of content: a browser counts the page's main
// content as painted when it is (Largest Contentful Paint), not when the
// app draws the same view again as inline SVG, which is no such candidate.
func view(ds *protocol.Dataset, xy []float64) string {
	if xy == nil {
		return fmt.Sprintf(`<svg viewBox="0 0 %.1f %.1f" role="img" aria-label="learned projection, not yet trained"><rect class="plot-bg" width="%g" height="%g"></rect></svg>`, projW, projH, projW, projH)
	}
	var b strings.Builder
	fmt.Fprintf(&b, `<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 %.1f %.1f"><rect width="%g" height="%g" fill="#fbfcfd" stroke="#d8dde2"/>`, projW, projH, projW, projH)
	for _, cp := range draw.ProjectionMarkers(draw.Box{W: projW, H: projH}, xy, ds.Labels, ds.Held, len(ds.Classes), ds.Rows) {
		colour := draw.ClassColour(cp.Class)
		fmt.Fprintf(&b, `<path fill="none" stroke-linecap="round" stroke="%s" stroke-width="%s" d="%s"/>`, colour, draw.DotWidth(3), cp.Train)
		fmt.Fprintf(&b, `<path fill="none" stroke="%s" stroke-width="1.4" d="%s"/>`, colour, cp.Test)
	}
	b.WriteString("</svg>")
	return fmt.Sprintf(`<img class="view-img" width="%g" height="%g" alt="Euclidean projection, %d points" src="data:image/svg+xml,%s"/>`,
		projW, projH, ds.Rows, url.PathEscape(b.String()))
}
