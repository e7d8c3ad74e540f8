package main

import (
	"context"
	"encoding/csv"
	"fmt"
	"html"
	"io"
	"math"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"time"

	"github.com/rml-lab/rml/core"
	"github.com/rml-lab/rml/ui/draw"
)

// figure1 rebuilds the paper's Figure 1: (a) the duality gap Δ_t against
// the iteration and against the seconds for Algorithm 1, projected gradient
// (RML_gd) and the fast method on each dataset; (b) the 5-NN test error
// against η on Wine with λ = 2^6 for RML, LMNN, Xing, Euclid and the best
// case. It writes CSV files and self-contained SVG files into --out.
func figure1(ctx context.Context, args []string, stdout, stderr io.Writer) error {
	fs := newFlagSet("figure1", stderr)
	dir := fs.String("data-dir", "assets/datasets", "folder with the five datasets")
	out := fs.String("out", "docs/figure1", "folder to write the CSV and SVG files into")
	reps := fs.Int("reps", 10, "repetitions of the η panel")
	seed := fs.Uint64("seed", 1, "seed of the splits and the swaps")
	iters := fs.Int("iters", 10000, "iterations of each convergence run (the same curves on any machine)")
	limit := fs.Duration("time-limit", 0, "time limit of each convergence run as well (0: none)")
	if err := parse(fs, args); err != nil {
		return err
	}
	if fs.NArg() > 0 {
		return usageError("unexpected argument %q", fs.Arg(0))
	}
	if *reps < 1 || *iters < 1 || *limit < 0 {
		return usageError("--reps ≥ 1, --iters ≥ 1 and --time-limit ≥ 0 are required")
	}
	if err := os.MkdirAll(*out, 0o755); err != nil {
		return err
	}
	start := time.Now()
	data := map[string]*core.Dataset{}
	for _, n := range table2Datasets {
		ds, err := readDataset(filepath.Join(*dir, n+".csv"))
		if err != nil {
			return err
		}
		data[n] = ds
	}
	if err := convergencePanels(ctx, data, *out, *seed, *iters, *limit, stdout); err != nil {
		return err
	}
	if err := etaPanel(ctx, data["wine"], *out, *reps, *seed, stdout); err != nil {
		return err
	}
	fmt.Fprintf(stdout, "wrote %s (%.0f s)\n", *out, time.Since(start).Seconds())
	return nil
}

func readDataset(path string) (*core.Dataset, error) {
	f, err := os.Open(path)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	ds, err := core.ReadCSV(f, core.CSVOptions{})
	if err != nil {
		return nil, fmt.Errorf("%s: %w", path, err)
	}
	return ds, nil
}

// convergencePanels runs the three solvers of RML on each whole dataset
// (label triplets, 20 % swapped, η = 0.8, λ = 1) to a relative gap of 1e-6
// or the time limit, and writes convergence.csv and convergence-NAME.svg.
func convergencePanels(ctx context.Context, data map[string]*core.Dataset, out string, seed uint64, iters int, limit time.Duration, stdout io.Writer) error {
	f, err := os.Create(filepath.Join(out, "convergence.csv"))
	if err != nil {
		return err
	}
	defer f.Close()
	w := csv.NewWriter(f)
	w.Write([]string{"dataset", "method", "iteration", "seconds", "gap", "relgap"})
	methods := []core.Method{core.Nesterov, core.Gradient, core.Fast}
	titles := map[core.Method]string{core.Nesterov: "Algorithm 1 (RML_nes)", core.Gradient: "projected gradient (RML_gd)", core.Fast: "fast (default)"}
	for _, name := range table2Datasets {
		ds := data[name]
		rows := make([]int, ds.Rows())
		for i := range rows {
			rows[i] = i
		}
		p, _, _, err := core.BuildProblem(ds.X, ds.Labels, ds.Classes, rows, core.TripletOptions{Flip: 0.2, Seed: seed}, 0.8, 1)
		if err != nil {
			return fmt.Errorf("%s: %w", name, err)
		}
		var series []series
		for _, m := range methods {
			var pts [][3]float64 // iteration, seconds, gap
			next := 1.0
			res, err := core.Solve(ctx, p, core.Settings{Method: m, Tol: 1e-6, MaxIter: iters, TimeLimit: limit, Progress: func(pr core.Progress) bool {
				// Keep about 40 points per decade of iterations.
				if it := float64(pr.Iter); it >= next {
					pts = append(pts, [3]float64{it, pr.Elapsed.Seconds(), pr.Gap})
					next = math.Max(it+1, it*1.06)
				}
				return true
			}})
			if err != nil {
				return fmt.Errorf("%s, %v: %w", name, m, err)
			}
			pts = append(pts, [3]float64{float64(res.Iter), res.Elapsed.Seconds(), res.Gap})
			for _, q := range pts {
				w.Write([]string{name, m.String(), strconv.Itoa(int(q[0])), fmtF(q[1]), fmtF(q[2]), fmtF(q[2] / math.Max(1, math.Abs(res.Primal)))})
			}
			series = append(series, seriesOf(titles[m], m, pts))
			fmt.Fprintf(stdout, "%-10s %-9v %-16s %7d iterations %7.2f s  relative gap %.2g\n", name, m, res.Status, res.Iter, res.Elapsed.Seconds(), res.RelGap)
		}
		svg := twoPanels(fmt.Sprintf("%s: duality gap Δ_t (log) of the three solvers, η = 0.8, λ = 1, 20 %% swapped, at most %d iterations", name, iters), series)
		if err := os.WriteFile(filepath.Join(out, "convergence-"+name+".svg"), []byte(svg), 0o644); err != nil {
			return err
		}
	}
	w.Flush()
	return w.Error()
}

// etaPanel measures the 5-NN test error against η on Wine with λ = 2^6
// (a fraction 1 − η of the triplets swapped, as in Table 2) and writes
// eta.csv and eta.svg.
func etaPanel(ctx context.Context, wine *core.Dataset, out string, reps int, seed uint64, stdout io.Writer) error {
	etas := []float64{0.5, 0.6, 0.7, 0.8, 0.9, 1.0}
	methods := []core.Method{core.Fast, core.LMNN, core.Xing, core.Euclid, core.BestCase}
	f, err := os.Create(filepath.Join(out, "eta.csv"))
	if err != nil {
		return err
	}
	defer f.Close()
	w := csv.NewWriter(f)
	// mean and std are over the splits that learned a metric: a metric
	// that collapsed to A = 0 predicts by the order of the training rows,
	// a constant guess, not an error rate; "errors" lists each split's,
	// "A=0" for those.
	w.Write([]string{"eta", "method", "mean", "std", "collapsed", "errors"})
	lines := make([]series, len(methods))
	for i, m := range methods {
		lines[i].name, lines[i].style = methodTitle[m], draw.MethodStyle(m.String())
	}
	for _, eta := range etas {
		rep, err := core.Compare(ctx, []string{"wine"}, []*core.Dataset{wine}, core.CompareOptions{Methods: methods, Reps: reps, Eta: eta, Flip: -1, Seed: seed, Lambda: 64})
		if err != nil {
			return fmt.Errorf("η = %g: %w", eta, err)
		}
		for i, r := range rep.Rows {
			var errs []string
			for k, e := range r.Errors {
				if r.IsCollapsed[k] {
					errs = append(errs, "A=0")
				} else {
					errs = append(errs, fmtF(100*e))
				}
			}
			mean, std, n := r.Learned()
			mean, std = 100*mean, 100*std
			if n > 0 {
				lines[i].x = append(lines[i].x, eta)
				lines[i].y = append(lines[i].y, mean)
				lines[i].err = append(lines[i].err, std)
			}
			if r.Collapsed > 0 {
				lines[i].marks = append(lines[i].marks, mark{eta, fmt.Sprintf("A = 0 in %d/%d", r.Collapsed, reps)})
			}
			w.Write([]string{fmtF(eta), methodTitle[r.Method], fmtF(mean), fmtF(std), strconv.Itoa(r.Collapsed), strings.Join(errs, " ")})
			fmt.Fprintf(stdout, "η = %.1f %-9s %s\n", eta, methodTitle[r.Method], cell(mean, std, n, r.Collapsed))
		}
	}
	w.Flush()
	if err := w.Error(); err != nil {
		return err
	}
	svg := lineChart(chart{title: fmt.Sprintf("Wine: 5-NN test error (%%) against η, λ = 2^6, 1 − η swapped; mean ± std of %d splits, A = 0 apart", reps),
		xLabel: "η", yLabel: "test error (%)", w: 720, h: 400, xTicks: etas, legend: true}, lines)
	return os.WriteFile(filepath.Join(out, "eta.svg"), []byte(svg), 0o644)
}

func fmtF(v float64) string { return strconv.FormatFloat(v, 'g', 6, 64) }

// cell says a method's test error over its splits: the mean ± std (in %)
// of the n that learned a metric, and how many collapsed to A = 0, which
// are not error rates.
func cell(mean, std float64, n, collapsed int) string {
	switch {
	case n == 0:
		return fmt.Sprintf("A = 0 (%d of %d)", collapsed, collapsed)
	case collapsed == 0:
		return fmt.Sprintf("%.2f ± %.2f", mean, std)
	}
	return fmt.Sprintf("%.2f ± %.2f over %d; A = 0 (%d of %d)", mean, std, n, collapsed, n+collapsed)
}

// series is one line of a chart: x, y and (optionally) ± err, drawn in its
// learner's style (the page's, ui/draw).
type series struct {
	name     string
	style    draw.Style
	x, y     []float64
	err      []float64
	bySecond []float64 // the same points' seconds, for the second panel
	marks    []mark    // notes at the top of the plot (where the metric collapsed)
}

// mark is a note written at x, above the curves.
type mark struct {
	x    float64
	text string
}

func seriesOf(name string, m core.Method, pts [][3]float64) series {
	s := series{name: name, style: draw.MethodStyle(m.String())}
	for _, p := range pts {
		if p[2] > 0 {
			s.x, s.bySecond, s.y = append(s.x, p[0]), append(s.bySecond, p[1]), append(s.y, p[2])
		}
	}
	return s
}

// twoPanels draws Δ_t against the iteration and against the seconds, on
// log scales, side by side, with one legend under both.
func twoPanels(title string, ss []series) string {
	bySec := make([]series, len(ss))
	for i, s := range ss {
		bySec[i] = series{name: s.name, style: s.style, x: s.bySecond, y: s.y}
	}
	left := lineChart(chart{title: "against the iteration", xLabel: "iteration t", yLabel: "Δ_t", logX: true, logY: true, w: 460, h: 340}, ss)
	right := lineChart(chart{title: "against the time", xLabel: "seconds", yLabel: "Δ_t", logX: true, logY: true, w: 460, h: 340}, bySec)
	var b strings.Builder
	fmt.Fprintf(&b, `<svg xmlns="http://www.w3.org/2000/svg" width="940" height="400" viewBox="0 0 940 400" font-family="sans-serif" font-size="12">`)
	fmt.Fprintf(&b, `<rect width="940" height="400" fill="white"/><text x="470" y="18" text-anchor="middle" font-size="14">%s</text>`, html.EscapeString(title))
	fmt.Fprintf(&b, `<g transform="translate(0,30)">%s</g><g transform="translate(470,30)">%s</g>`, inner(left), inner(right))
	x := 64.0
	for _, s := range ss {
		legendEntry(&b, s, x, 388)
		x += 60 + 6.5*float64(len([]rune(s.name)))
	}
	b.WriteString(`</svg>`)
	return b.String()
}

// legendEntry draws s's line and name from (x, y).
func legendEntry(b *strings.Builder, s series, x, y float64) {
	fmt.Fprintf(b, `<line x1="%.0f" x2="%.0f" y1="%.0f" y2="%.0f" stroke="%s" stroke-width="2" stroke-dasharray="%s"/><text x="%.0f" y="%.0f">%s</text>`,
		x, x+20, y, y, s.style.Colour, s.style.Dash, x+24, y+4, html.EscapeString(s.name))
}

// inner strips a chart's outer <svg> element so it can be nested in a <g>.
func inner(svg string) string {
	i := strings.Index(svg, ">")
	return svg[i+1 : len(svg)-len("</svg>")]
}

// chart is how lineChart draws: its title and axis labels, log scales,
// size, the x ticks (nil: chosen as the page chooses them) and whether a
// legend goes to the right of the plot.
type chart struct {
	title, xLabel, yLabel string
	logX, logY            bool
	w, h                  float64
	xTicks                []float64
	legend                bool
}

// lineChart draws the series on axes as one SVG, with ± error bars where
// given: the page's ticks (draw.Ticks; decades on a log scale) and each
// learner in its colour and dash (draw.MethodStyle).
func lineChart(c chart, ss []series) string {
	ml, mr, mt, mb := 64.0, 16.0, 28.0, 44.0
	if c.legend {
		mr = 190 // the legend's column, clear of the curves
	}
	ax := newAxes(c, ss)
	px := func(x float64) float64 { return ml + (ax.tx(x)-ax.x0)/(ax.x1-ax.x0)*(c.w-ml-mr) }
	py := func(y float64) float64 { return c.h - mb - (ax.ty(y)-ax.y0)/(ax.y1-ax.y0)*(c.h-mt-mb) }
	var b strings.Builder
	fmt.Fprintf(&b, `<svg xmlns="http://www.w3.org/2000/svg" width="%.0f" height="%.0f" viewBox="0 0 %.0f %.0f" font-family="sans-serif" font-size="11">`, c.w, c.h, c.w, c.h)
	fmt.Fprintf(&b, `<rect width="%.0f" height="%.0f" fill="white"/>`, c.w, c.h)
	fmt.Fprintf(&b, `<text x="%.0f" y="16" text-anchor="middle" font-size="13">%s</text>`, c.w/2, html.EscapeString(c.title))
	fmt.Fprintf(&b, `<rect x="%.0f" y="%.0f" width="%.0f" height="%.0f" fill="none" stroke="#999"/>`, ml, mt, c.w-ml-mr, c.h-mt-mb)
	for _, v := range ax.ticks(c.logY, ax.y0, ax.y1, nil) {
		y := py(v)
		fmt.Fprintf(&b, `<line x1="%.1f" x2="%.1f" y1="%.1f" y2="%.1f" stroke="#eee"/><text x="%.1f" y="%.1f" text-anchor="end">%s</text>`, ml, c.w-mr, y, y, ml-4, y+4, tickLabel(v))
	}
	for _, v := range ax.ticks(c.logX, ax.x0, ax.x1, c.xTicks) {
		fmt.Fprintf(&b, `<text x="%.1f" y="%.1f" text-anchor="middle">%s</text>`, px(v), c.h-mb+14, tickLabel(v))
	}
	fmt.Fprintf(&b, `<text x="%.0f" y="%.0f" text-anchor="middle">%s</text>`, ml+(c.w-ml-mr)/2, c.h-8, html.EscapeString(c.xLabel))
	fmt.Fprintf(&b, `<text transform="translate(14 %.0f) rotate(-90)" text-anchor="middle">%s</text>`, mt+(c.h-mt-mb)/2, html.EscapeString(c.yLabel))
	for k, s := range ss {
		var d strings.Builder
		for i, x := range s.x {
			if (c.logX && x <= 0) || (c.logY && s.y[i] <= 0) {
				continue
			}
			cmd := "L"
			if d.Len() == 0 {
				cmd = "M"
			}
			fmt.Fprintf(&d, "%s%.1f %.1f", cmd, px(x), py(s.y[i]))
			if s.err != nil {
				fmt.Fprintf(&b, `<line x1="%.1f" x2="%.1f" y1="%.1f" y2="%.1f" stroke="%s"/>`, px(x), px(x), py(math.Max(s.y[i]-s.err[i], 0)), py(s.y[i]+s.err[i]), s.style.Colour)
			}
		}
		fmt.Fprintf(&b, `<path d="%s" fill="none" stroke="%s" stroke-width="1.6" stroke-dasharray="%s"/>`, d.String(), s.style.Colour, s.style.Dash)
		if c.legend {
			legendEntry(&b, s, c.w-mr+12, mt+14+float64(k)*16)
		}
		for _, m := range s.marks {
			fmt.Fprintf(&b, `<text x="%.1f" y="%.1f" text-anchor="middle" fill="%s">%s</text>`, px(m.x), mt+14+float64(k)*13, s.style.Colour, html.EscapeString(m.text))
		}
	}
	b.WriteString(`</svg>`)
	return b.String()
}

// axes are a chart's ranges, in the scales' units (log10 of the values on
// a log scale).
type axes struct {
	x0, x1, y0, y1 float64
	tx, ty         func(float64) float64
}

// newAxes fits the series (with their error bars) on c's scales: a log
// scale spans whole decades, a linear y axis starts at 0 or below.
func newAxes(c chart, ss []series) axes {
	scale := func(log bool) func(float64) float64 {
		if log {
			return math.Log10
		}
		return func(v float64) float64 { return v }
	}
	a := axes{x0: math.Inf(1), x1: math.Inf(-1), y0: math.Inf(1), y1: math.Inf(-1), tx: scale(c.logX), ty: scale(c.logY)}
	for _, s := range ss {
		for i, x := range s.x {
			y := s.y[i]
			if (c.logX && x <= 0) || (c.logY && y <= 0) {
				continue
			}
			lo, hi := y, y
			if s.err != nil {
				lo, hi = y-s.err[i], y+s.err[i]
				if c.logY {
					lo = math.Max(lo, y/10)
				} else {
					lo = math.Max(lo, 0) // errors and rates are not negative
				}
			}
			a.x0, a.x1 = math.Min(a.x0, a.tx(x)), math.Max(a.x1, a.tx(x))
			a.y0, a.y1 = math.Min(a.y0, a.ty(lo)), math.Max(a.y1, a.ty(hi))
		}
	}
	if !(a.x1 > a.x0) {
		a.x0, a.x1 = a.x0-1, a.x0+1
	}
	if !(a.y1 > a.y0) {
		a.y0, a.y1 = a.y0-1, a.y0+1
	}
	if c.logX {
		a.x0, a.x1 = math.Floor(a.x0), math.Ceil(a.x1)
	}
	if c.logY {
		a.y0, a.y1 = math.Floor(a.y0), math.Ceil(a.y1)
	} else {
		a.y0 = math.Min(0, a.y0)
	}
	return a
}

// ticks are an axis's tick values (not in its scale's units): given ones,
// each decade on a log scale (every other one past eight), or the page's
// round numbers (draw.Ticks) on a linear one.
func (a axes) ticks(log bool, lo, hi float64, given []float64) []float64 {
	if given != nil {
		return given
	}
	if !log {
		return draw.Ticks(lo, hi, 5)
	}
	step := 1.0
	if hi-lo > 8 {
		step = 2
	}
	var out []float64
	for e := lo; e <= hi; e += step {
		out = append(out, math.Pow(10, e))
	}
	return out
}

// tickLabel writes a tick: plainly from 0.001 up to 10,000, else as a
// power of ten ("1e-6") or in short scientific form.
func tickLabel(v float64) string {
	a := math.Abs(v)
	if v == 0 || a >= 1e-3 && a < 1e4 {
		return strconv.FormatFloat(v, 'g', 4, 64)
	}
	if e := math.Log10(a); e == math.Round(e) {
		return "1e" + strconv.Itoa(int(e))
	}
	return strconv.FormatFloat(v, 'g', 3, 64)
}
