package e2e

import (
	"context"
	"fmt"

	"github.com/chromedp/cdproto/network"
	cdppage "github.com/chromedp/cdproto/page"
	cdpperf "github.com/chromedp/cdproto/performance"
	"github.com/chromedp/chromedp"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"testing"
	"time"
)

// clickUntil clicks a button and returns the milliseconds, measured in the
// page, until the status shows want.
func (p *page) clickUntil(testid, want string, timeout time.Duration) float64 {
	p.t.Helper()
	var ms float64
	p.eval(`new Promise((ok, fail) => { const s = document.querySelector('[data-testid="status"]');
		const t0 = performance.now();
		new MutationObserver(() => { if (s.textContent === '`+want+`') ok(performance.now() - t0) }).observe(s, {childList: true, characterData: true, subtree: true});
		setTimeout(() => fail(new Error('status ' + s.textContent + ' after `+strconv.Itoa(int(timeout.Milliseconds()))+` ms')), `+strconv.Itoa(int(timeout.Milliseconds()))+`);
		document.querySelector('[data-testid="`+testid+`"]').click() })`, &ms)
	return ms
}

// sweepEta runs the η sweep and returns its time, from the click to the
// last of its points drawn with the page showing the batch's last run,
// and the seconds the page's main thread spent on tasks meanwhile
// (Chromium's TaskDuration metric). The end is watched in the page (a
// MutationObserver), not polled over DevTools: a poll every 10 ms is a task
// on the same main thread, and on two cores it takes its time from the
// solver workers the sweep measures.
func (p *page) sweepEta() (time.Duration, float64) {
	p.t.Helper()
	// A tab in the background draws nothing: bring it to the front, and let
	// it draw and settle before the clock starts.
	p.run(cdppage.BringToFront())
	p.afterFrames(500)
	b0 := p.busy()
	var ms float64
	p.eval(`new Promise((ok, fail) => {
		const total = `+strconv.Itoa(etaSweepRuns)+`;
		const chart = () => document.querySelector('[data-testid="eta-sweep-chart"]');
		const s = document.querySelector('[data-testid="status"]');
		const t0 = performance.now();
		performance.mark('rml-sweep:start');
		// A sweep already shown keeps its points until the new one
		// draws its reset: the end counts only after that.
		let reset = false;
		const done = () => {
			const n = +chart().dataset.points;
			if (n < total) reset = true;
			return reset && n === total && s.textContent !== "running" && s.dataset.run === s.dataset.shown;
		};
		const mo = new MutationObserver(() => { if (done()) { mo.disconnect(); const ms = performance.now() - t0; performance.mark('rml-sweep:end'); ok(ms) } });
		mo.observe(document.body, {attributes: true, childList: true, subtree: true, characterData: true});
		setTimeout(() => { mo.disconnect(); fail(new Error('the sweep did not end within 3 minutes')) }, 180000);
		document.querySelector('[data-testid="eta-sweep"]').click() })`, &ms)
	return time.Duration(ms * float64(time.Millisecond)), p.busy() - b0
}

// afterFrames returns once the page has drawn two more frames and then ms
// milliseconds have passed.
func (p *page) afterFrames(ms int) {
	p.t.Helper()
	p.eval(`new Promise((ok) => requestAnimationFrame(() => requestAnimationFrame(() => setTimeout(() => ok(true), `+strconv.Itoa(ms)+`))))`, new(bool))
}

// sweepRepeats is how many times TestFigures repeats the sweep in each page
// after the first: one sweep of under a second on two cores varies by a
// fifth from run to run, and the figure is their median.
const sweepRepeats = 5

// busy returns the seconds the page's main thread has spent on tasks so
// far (Chromium's TaskDuration metric).
func (p *page) busy() float64 {
	p.t.Helper()
	var ms []*cdpperf.Metric
	p.run(cdpperf.Enable(), chromedp.ActionFunc(func(ctx context.Context) (err error) { ms, err = cdpperf.GetMetrics().Do(ctx); return }))
	for _, m := range ms {
		if m.Name == "TaskDuration" {
			return m.Value
		}
	}
	p.t.Fatal("Chromium reports no TaskDuration")
	return 0
}

// median returns the median of v (the mean of the middle two for an even
// count).
func median(v []float64) float64 {
	s := slices.Sorted(slices.Values(v))
	n := len(s)
	if n%2 == 1 {
		return s[n/2]
	}
	return (s[n/2-1] + s[n/2]) / 2
}

// TestFigures measures what the README quotes for the page (timings are
// reported, not asserted: a loaded machine would fail them, and TestStop
// asserts the mechanism), and writes them to e2e/out/figures.txt:
//   - ready: navigation to the built-in dataset loaded and Train enabled;
//   - Iris: Train to converged at the default tolerance (1e-6);
//   - Sonar: Train to a relative gap of 1e-3;
//   - Stop: Sonar to 1e-9, the click to "stopped", frames drawn and
//     main-thread tasks over 50 ms while it trains;
//   - Compare and the η sweep on the noise lesson (Wine), the sweep also
//     on one worker: a first sweep in each page, then sweepRepeats more,
//     the pages taking turns, reported with their medians;
//   - the first Compare in a fresh page, traced: the main thread's
//     longest task in wall time and in CPU time, and its tasks over 50 ms.
//
// Run it alone on an idle machine for figures worth quoting:
// go test ./e2e -run TestFigures -v.
func TestFigures(t *testing.T) {
	// A cold start: no cached responses, no cached compiled wasm.
	p := open(t, "", network.ClearBrowserCache())
	var ready float64
	p.eval(`performance.getEntriesByName('rml-ready')[0].startTime`, &ready)

	p.set("dataset-select", "Iris")
	p.waitTrainEnabled()
	iris := p.clickUntil("train", "converged", 60*time.Second)
	irisIters := p.text("iteration")

	p.set("dataset-select", "Sonar")
	p.waitTrainEnabled()
	p.set("tol", "1e-3")
	sonar := p.clickUntil("train", "converged", 120*time.Second)
	sonarIters := p.text("iteration")
	rel, _ := strconv.ParseFloat(p.text("rel-gap-value"), 64)
	if rel > 1e-3 {
		t.Errorf("Sonar converged at relative gap %v", rel)
	}
	// And to 1e-6 (issue 12's target: under 2 s), from a cold start.
	p.set("tol", "1e-6")
	sonar6 := p.clickUntil("train", "converged", 120*time.Second)
	sonar6Iters := p.text("iteration")

	// Stop on a long run (Sonar to 1e-9 by projected gradient), with the
	// main thread watched:
	// frames drawn while training, main-thread tasks over 50 ms after Train,
	// and the milliseconds from the Stop click to "stopped".
	p.eval(`(() => { window.__long = []; window.__from = Infinity;
		new PerformanceObserver((l) => { for (const e of l.getEntries()) if (e.startTime >= window.__from) window.__long.push(e.duration) })
		.observe({type: 'longtask'}); return true })()`, new(bool))
	p.set("method", "gradient") // the fast method takes Sonar to 1e-9 in ~90 iterations
	p.set("tol", "1e-9")
	p.eval(`window.__from = performance.now(); true`, new(bool))
	p.click("train")
	p.waitStatus("running", 10*time.Second)
	var frames int
	p.eval(`new Promise((ok) => { let n = 0; const t0 = performance.now();
		const f = () => { n++; if (performance.now() - t0 < 1500) requestAnimationFrame(f); else ok(n) }; requestAnimationFrame(f) })`, &frames)
	stop := p.clickUntil("stop", "stopped", 10*time.Second)
	p.waitResult("stopped", 10*time.Second)
	var long []float64
	p.eval(`window.__long`, &long)

	p.set("method", "fast")

	// The Compare view on the noise lesson (Wine): every method one after
	// another, from the click to the last column.
	p.noiseLesson()
	t0 := time.Now()
	p.click("compare")
	p.waitRuns(compareCount, compareRuns, 2*time.Minute)
	compare := time.Since(t0)
	// The sweep in a page of 2 workers and in one of 1 ("?workers=1"),
	// alternately, each first once and then sweepRepeats times. The first
	// meets V8 still compiling the solver's hot paths (a Chromium trace of a
	// first sweep after Compare showed 1.4 s of background wasm top-tier
	// compilation, sharing the two cores with the workers), and on one
	// worker a JIT the first page warmed; the repeats compare the two pages
	// on equal terms, and alternating them spreads the machine's drift over
	// both.
	var workers string
	p.eval(`document.querySelector('[data-testid="status"]').dataset.workers`, &workers)
	q := newTab(t)
	q.navigate(baseURL + "?workers=1#data=Iris")
	q.waitTrainEnabled()
	q.noiseLesson()
	sweep, busy := p.sweepEta()
	sweep1, busy1 := q.sweepEta()
	var rep, rep1, busyR, busy1R []float64
	for range sweepRepeats {
		d, b := p.sweepEta()
		rep, busyR = append(rep, d.Seconds()), append(busyR, b)
		d, b = q.sweepEta()
		rep1, busy1R = append(rep1, d.Seconds()), append(busy1R, b)
	}
	// One more sweep in each page under a Chromium trace, not timed (the
	// trace costs CPU): which threads took the two cores, and what the
	// page's main thread did.
	traced := func(x *page) (spanCPU, string) {
		tr := x.startTrace()
		x.sweepEta()
		if sp, ok := summarizeSpan(tr.stop(x)); ok {
			return sp, sp.line()
		}
		return spanCPU{}, "no sweep marks in the trace"
	}
	spanP, tracedP := traced(p)
	spanQ, tracedQ := traced(q)
	bound := "no bound: a sweep left no marks in its trace"
	if spanP.wall > 0 && spanQ.wall > 0 {
		b, w, r, tail := sweepBound(spanQ, spanP)
		bound = fmt.Sprintf("the most %s workers could give on this machine, from the two traced sweeps (sweepBound): ×%.2f (%.0f ms on 1, against (%.0f ms of the workers' CPU + %.0f of the other threads')/2 + %.0f from the last worker's task to the end)",
			workers, b, spanQ.wall, w, r, tail)
	}

	// The first Compare in a fresh page (the noise lesson), under a trace:
	// the main thread's tasks from the click to a moment after the last
	// column. The page's own work in each is its CPU time; the rest of a
	// task's wall time it waited for a core (V8 compiles the code LMNN,
	// Xing and the best case run for the first time on its own threads).
	c := open(t, "")
	c.noiseLesson()
	c.eval(`new Promise((ok) => setTimeout(() => ok(true), 1500))`, new(bool))
	tr := c.startTrace()
	c.eval(`performance.mark('rml-compare:start'), true`, new(bool))
	c.click("compare")
	c.waitRuns(compareCount, compareRuns, 2*time.Minute)
	c.afterFrames(300)
	cw, cc := mainTasks(tr.stop(c), "rml-compare:start")
	over := 0
	for _, w := range cw {
		if w > 50 {
			over++
		}
	}
	secs := func(v []float64) string {
		var out []string
		for _, x := range v {
			out = append(out, fmt.Sprintf("%.2f", x))
		}
		return strings.Join(out, ", ")
	}

	lines := []string{
		fmt.Sprintf("page ready (dataset loaded, Train enabled): %.0f ms after navigation", ready),
		fmt.Sprintf("Iris, fast method, to relative gap 1e-6: %.0f ms from Train to converged (%s iterations)", iris, irisIters),
		fmt.Sprintf("Sonar, fast method, to relative gap 1e-3: %.0f ms from Train to converged (%s iterations)", sonar, sonarIters),
		fmt.Sprintf("Sonar, fast method, to relative gap 1e-6: %.0f ms from Train to converged (%s iterations; target < 2 s)", sonar6, sonar6Iters),
		fmt.Sprintf("Sonar to 1e-9 by projected gradient, Stop after 1.5 s: %.0f ms from the click to stopped (target ≤ 100 ms); %d animation frames in those 1.5 s; main-thread tasks over 50 ms after Train: %d %v (target none)", stop, frames, len(long), long),
		fmt.Sprintf("Compare on Wine (the noise lesson: %d methods): %.1f s from the click to the last column (target < 10 s)", compareRuns, compare.Seconds()),
		fmt.Sprintf("the first Compare in a fresh page, traced: %d main-thread tasks over 50 ms of wall time; the longest %.0f ms of wall time, the most CPU in one task %.0f ms", over, slices.Max(append(cw, 0)), slices.Max(append(cc, 0))),
		fmt.Sprintf("η sweep on Wine (%d runs), first: %.2f s on %s workers, %.2f s on 1: ×%.2f; repeated %d times: %.2f s on %s (%s), %.2f s on 1 (%s), medians: ×%.2f (target ≥ 1.7 with 2); the page's main thread busy %.2f s and %.2f s of the first, medians %.2f s and %.2f s of the repeats",
			etaSweepRuns, sweep.Seconds(), workers, sweep1.Seconds(), sweep1.Seconds()/sweep.Seconds(), sweepRepeats, median(rep), workers, secs(rep), median(rep1), secs(rep1), median(rep1)/median(rep), busy, busy1, median(busyR), median(busy1R)),
		fmt.Sprintf("  a traced sweep on %s workers: %s", workers, tracedP),
		"  a traced sweep on 1 worker: " + tracedQ,
		"  " + bound,
	}
	for _, l := range lines {
		t.Log(l)
	}
	if err := os.WriteFile(filepath.Join(outDir, "figures.txt"), []byte(strings.Join(lines, "\n")+"\n"), 0o644); err != nil {
		t.Fatal(err)
	}
}

// TestTeachingScreenshot checks what the README says of the synthetic set
// with 10 % of the triplets swapped (seed 1), and saves the page as
// e2e/out/trained-synthetic.png: Euclidean 5-NN errs on 12.2 % of the 90
// held-out rows and the learned metric on none; of the 414 triplets the
// metric believes least, 93.0 % are among the 414 swapped, where a random
// pick would find 9.0 %. The run is deterministic (seeded, and the same
// bits on every machine), so these are the numbers, not a range.
func TestTeachingScreenshot(t *testing.T) {
	p := open(t, "#data=Synthetic%3A+2+signal+%2B+18+noise&flip=0.1&seed=1")
	p.click("train")
	p.waitResult("converged", 60*time.Second)
	el, ll := p.text("error-euclid"), p.text("error-learned")
	if el != "12.2%" || ll != "0.0%" {
		t.Errorf("synthetic, 10%% swapped: Euclidean error %s, learned %s; the README says 12.2%% and 0%%", el, ll)
	}
	want := "Of the 414 triplets the metric believes least, 93.0% are among the 414 swapped by the injected noise (a random guess: 9.0%)."
	if s := p.text("suspects"); !strings.HasPrefix(s, want) {
		t.Errorf("suspects: %q; the README says %q", s, want)
	}
	p.screenshot("trained-synthetic.png")
}

// The page downloads the one wasm program (the worker's fetch is served
// from the browser's cache): gzipped as served, it stays within 2 MiB
// (build.sh writes the .gz copy serve.go sends).
func TestWasmBudget(t *testing.T) {
	const budget = 2 << 20
	total := int64(0)
	for _, f := range []string{"app.wasm.gz"} {
		st, err := os.Stat(filepath.Join("..", "build", f))
		if err != nil {
			t.Fatal(err)
		}
		total += st.Size()
	}
	t.Logf("the wasm program, gzip: %d bytes, %d under the budget", total, budget-total)
	if total > budget {
		t.Errorf("the wasm program takes %d bytes gzipped: over the budget of %d by %d", total, budget, total-budget)
	}
}
