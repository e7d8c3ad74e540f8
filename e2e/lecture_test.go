package e2e

import (
	"os"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/chromedp/chromedp"

	"github.com/rml-lab/rml/ui/store"
)

// finite checks that no number on the page is NaN or infinite.
func (p *page) finite() {
	p.t.Helper()
	var bad string
	p.eval(`(() => { const t = document.body.innerText; const m = t.match(/.{0,40}(NaN|Infinity|\+Inf|-Inf).{0,40}/); return m ? m[0] : "" })()`, &bad)
	if bad != "" {
		p.t.Errorf("a number on screen is not finite: %q", bad)
	}
}

// shownRun is the id of the run whose result the page shows.
func (p *page) shownRun() int {
	p.t.Helper()
	var id string
	p.eval(`document.querySelector('[data-testid="status"]').dataset.shown`, &id)
	n, _ := strconv.Atoi(id)
	return n
}

// waitAfter waits until a run later than run has ended as want, its result
// shown.
func (p *page) waitAfter(run int, want string, timeout time.Duration) {
	p.t.Helper()
	p.poll(`(() => { const s = document.querySelector('[data-testid="status"]');
		return s.textContent === "`+want+`" && s.dataset.run === s.dataset.shown && +s.dataset.shown > `+strconv.Itoa(run)+` })()`, timeout)
}

// noiseLesson chooses the noise lesson (Wine, 20 % of the triplets swapped)
// and waits until its run has converged and the page shows it.
func (p *page) noiseLesson() {
	p.t.Helper()
	run := p.shownRun()
	p.set("preset", "noise")
	p.waitAfter(run, "converged", 60*time.Second)
}

// The runs a Compare and the sweeps make at a current η and noise on
// their grids, as ui/store queues them.
var (
	compareRuns    = 1 + len(store.CompareMethods)
	etaSweepRuns   = len(store.EtaFree) + 2*len(store.SweepEtas)
	noiseSweepRuns = len(store.SweepFlips) * (1 + len(store.NoiseMethods))
)

// compareCount and sweepCount read the columns pinned and a sweep's
// points, for waitRuns.
const (
	compareCount = `+document.querySelector('[data-testid="compare-table"]').dataset.runs`
	sweepCount   = `+document.querySelector('[data-testid="eta-sweep-chart"]').dataset.points`
)

// waitRuns waits until a queue of runs has ended with n of what count
// counts (a JavaScript expression) on the page.
func (p *page) waitRuns(count string, n int, timeout time.Duration) {
	p.t.Helper()
	p.poll(`(() => { const s = document.querySelector('[data-testid="status"]');
		return s.textContent !== "running" && s.dataset.run === s.dataset.shown && (`+count+`) === `+strconv.Itoa(n)+` })()`, timeout)
}

// TestLecture walks a lecture: the first visit shows the first lesson,
// trained, with what its text promises; pin, change η, Compare, sweep η,
// step, drop a suspect; then every lesson in turn, each claim of its text
// checked on the numbers shown, and a screenshot of each saved in e2e/out.
func TestLecture(t *testing.T) {
	p := open(t, firstVisit)
	p.waitResult("converged", 60*time.Second)
	if s := p.text("preset-text"); !strings.Contains(s, "12.2 %") {
		t.Fatalf("the first visit shows lesson text %q", s)
	}
	if e, l := p.text("error-euclid"), p.text("error-learned"); e != "12.2%" || l != "0.0%" {
		t.Errorf("first lesson: Euclidean %s, learned %s; its text says 12.2 %% and none", e, l)
	}
	if s := p.text("suspects"); !strings.Contains(s, "93.") {
		t.Errorf("first lesson: suspects %q; its text says 93 %%", s)
	}
	var hash string
	p.eval(`location.hash`, &hash)
	if !strings.Contains(hash, "preset=learn") {
		t.Errorf("the address is %q, not the lesson's link", hash)
	}
	p.finite()
	p.screenshot("lesson-learn.png")
	// The first screen as a visitor at 1440×900 sees it: the README's
	// picture (go run ./cmd/figures copies it to docs/page.png).
	var first []byte
	p.run(chromedp.EmulateViewport(1440, 900), chromedp.CaptureScreenshot(&first), chromedp.EmulateViewport(1400, 1100))
	if err := os.WriteFile(filepath.Join(outDir, "first-screen.png"), first, 0o644); err != nil {
		t.Fatal(err)
	}

	// Pin, then change η: a warm restart; the pinned column stays.
	p.click("pin")
	p.poll(`document.querySelector('[data-testid="compare-table"]').dataset.runs === "1"`, 5*time.Second)
	run := p.shownRun()
	p.set("eta", "0.9")
	p.waitAfter(run, "converged", 60*time.Second)
	if n := p.text("compare-table"); !strings.Contains(n, "0.8") {
		t.Errorf("the pinned column lost its η = 0.8: %q", n)
	}

	// Compare: the chosen method and the others, one after another.
	start := time.Now()
	p.click("compare")
	p.waitRuns(compareCount, 1+compareRuns, 3*time.Minute)
	t.Logf("Compare (%d methods) on the first lesson: %.1f s", compareRuns, time.Since(start).Seconds())
	table := p.text("compare-table")
	for _, m := range []string{"RML (fast)", "Hinge", "Best case", "Logistic", "t-STE", "LMNN", "Xing", "Euclid"} {
		if !strings.Contains(table, m) {
			t.Errorf("compare table lacks %s: %q", m, table)
		}
	}
	var curves int
	p.eval(`document.querySelectorAll('[data-testid="compare-chart"] path.curve').length`, &curves)
	if curves < compareRuns {
		t.Errorf("%d curves overlaid, want one per pinned run with iterations", curves)
	}
	p.finite()
	// Compare runs the chosen method last: the views end on it, as Train
	// would leave them.
	if b := p.text("budget"); !strings.HasPrefix(b, "Σq/m = ") {
		t.Errorf("after Compare, the budget line %q; want the chosen method's", b)
	}
	if _, err := strconv.ParseFloat(p.text("gap-value"), 64); err != nil {
		t.Errorf("after Compare, Δ_t reads %q; want the chosen method's gap", p.text("gap-value"))
	}
	// Its last run is Train's at these settings (η = 0.9, from scratch).
	trained := p.text("error-learned")

	// The η sweep: every point appears; the summary reads them out.
	start = time.Now()
	p.click("eta-sweep")
	p.waitRuns(sweepCount, etaSweepRuns, 3*time.Minute)
	t.Logf("η sweep (%d runs) on the first lesson: %.1f s", etaSweepRuns, time.Since(start).Seconds())
	sum := p.text("sweep-summary")
	// The first lesson at λ = 16: the budget binds nowhere above η = 0.5,
	// where the metric collapses (ui/store's presets test measured it).
	if !strings.Contains(sum, "RML (fast) — 1: 0.0%") || !strings.Contains(sum, "A collapses to 0 at 0.5") {
		t.Errorf("sweep summary %q", sum)
	}
	p.finite()
	// One story: the sweep's point at the current settings is Train's
	// result there, and at η = 1, where both trust every triplet, the best
	// case is RML's answer.
	at := func(method, x string) string {
		m := regexp.MustCompile(regexp.QuoteMeta(method) + ` — [^;]*?\b` + regexp.QuoteMeta(x) + `: ([\d.]+%|A = 0)`).FindStringSubmatch(sum)
		if m == nil {
			t.Fatalf("sweep summary %q has no %s at %s", sum, method, x)
		}
		return m[1]
	}
	if got := at("RML (fast)", "0.9"); got != trained {
		t.Errorf("the sweep's RML at η = 0.9 (the current settings): %s; Train there: %s", got, trained)
	}
	if rml, best := at("RML (fast)", "1"), at("Best case", "1"); rml != best {
		t.Errorf("at η = 1 RML errs %s and the best case %s: both trust every triplet", rml, best)
	}
	// Its last run is the chosen method at the current settings: the views
	// end on it, as Train would leave them.
	if b := p.text("budget"); !strings.HasPrefix(b, "Σq/m = ") || p.text("error-learned") != trained {
		t.Errorf("after the η sweep, the budget line %q and the learned error %s (Train: %s)", b, p.text("error-learned"), trained)
	}
	p.screenshot("lesson-learn-sweep.png")

	// Step: one iteration from the result on screen, then ten.
	t0, _ := strconv.Atoi(p.text("iteration"))
	run = p.shownRun()
	p.click("step")
	p.waitAfter(run, "stopped", 30*time.Second)
	t1, _ := strconv.Atoi(p.text("iteration"))
	if t1 != t0+1 {
		t.Errorf("Step after the sweep: t = %d after %d; it goes on from the result on screen", t1, t0)
	}
	run = p.shownRun()
	p.click("step-10")
	p.waitAfter(run, "stopped", 30*time.Second)
	t2, _ := strconv.Atoi(p.text("iteration"))
	if t2 != t1+10 {
		t.Errorf("Step then ×10: t = %d, then %d", t1, t2)
	}
	if s := p.text("step-state"); !regexp.MustCompile(`^After \d+ iterations: Δ = \S+; \d+ of \d+ triplets carry weight`).MatchString(s) {
		t.Errorf("step state %q", s)
	}
	var bars int
	p.eval(`document.querySelectorAll('[data-testid="q-hist"] .bar-row').length`, &bars)
	if bars != 11 {
		t.Errorf("q histogram has %d bars, want 11", bars)
	}

	// Drop the first suspect: a warm restart without it.
	before := p.text("triplet-count")
	run = p.shownRun()
	p.click("drop-0")
	p.waitAfter(run, "converged", 60*time.Second)
	if after := p.text("triplet-count"); after == before {
		t.Errorf("after dropping a suspect the triplet count still says %q", after)
	}
	if s := p.text("edits"); !strings.Contains(s, "this run: 1 and 0") {
		t.Errorf("edits %q", s)
	}
	p.finite()

	// Every lesson from the menu: its claims on the numbers shown.
	claims := map[string]func(){
		"noise": func() {
			if l, e := p.text("error-learned"), p.text("error-euclid"); l != "11.1%" || e != "3.7%" {
				t.Errorf("noise lesson: learned %s, Euclidean %s; its text says 11.1 %% and 3.7 %%", l, e)
			}
			if b := p.text("budget"); !strings.Contains(b, "The budget is inactive") {
				t.Errorf("noise lesson: %q; its text says the budget does not bind", b)
			}
		},
		"eta": func() {
			if b := p.text("budget"); !strings.Contains(b, "The budget is active") || !strings.Contains(b, "is 0.0% below P(0)") {
				t.Errorf("η lesson: %q; its text says the budget binds, 0.02 %% below A = 0", b)
			}
			if ev := p.text("eigenvalues"); !strings.HasPrefix(ev, "Eigenvalues of A: 0.1") {
				t.Errorf("η lesson: %q; its text says the largest is 0.12", ev)
			}
		},
		"collapse": func() {
			if c := p.text("collapsed"); !strings.Contains(c, "collapsed to A = 0") {
				t.Errorf("collapse lesson: %q", c)
			}
			if l := p.text("error-learned"); l != "— (A = 0)" {
				t.Errorf("collapse lesson: learned error %q; there is none to show", l)
			}
			if s := p.text("suspects"); !strings.Contains(s, "no suspects to show") {
				t.Errorf("collapse lesson: suspects %q; with A = 0 there are none", s)
			}
			if n := p.text("status-note"); !strings.Contains(n, "λ does not change this; raise η") {
				t.Errorf("collapse lesson: the status says %q beside it", n)
			}
		},
	}
	for _, key := range []string{"noise", "eta", "collapse"} {
		run := p.shownRun()
		p.set("preset", key)
		want := "converged"
		if key == "collapse" {
			want = "collapsed" // never a plain "converged"
		}
		p.waitAfter(run, want, 60*time.Second)
		claims[key]()
		p.finite()
		p.screenshot("lesson-" + key + ".png")
	}
	p.axe()
}

// axe runs axe-core (installed from the npm registry by .ci/test.sh) on the
// page as it stands and fails on every violation it reports.
func (p *page) axe() {
	p.t.Helper()
	path := os.Getenv("AXE_JS")
	if path == "" {
		path = filepath.Join("..", ".cache", "axe", "node_modules", "axe-core", "axe.min.js")
	}
	src, err := os.ReadFile(path)
	if err != nil {
		p.t.Fatalf("axe-core is missing (%v): bash .ci/test.sh installs it, or npm install --prefix .cache/axe axe-core", err)
	}
	var ok bool
	p.eval(string(src)+"\n;true", &ok)
	var report []struct {
		ID, Impact, Help string
		Nodes            []struct{ Target []string }
	}
	p.eval(`axe.run(document, {runOnly: {type: 'tag', values: ['wcag2a', 'wcag2aa', 'wcag21aa']}}).then(r => r.violations.map(v => ({id: v.id, impact: v.impact, help: v.help, nodes: v.nodes.slice(0, 5).map(n => ({target: n.target.map(String)}))})))`, &report)
	for _, v := range report {
		var where []string
		for _, n := range v.Nodes {
			where = append(where, strings.Join(n.Target, " "))
		}
		p.t.Errorf("axe: %s (%s): %s at %s", v.ID, v.Impact, v.Help, strings.Join(where, "; "))
	}
}

// tinyTargets lists the controls within scope (a CSS selector; "" for the
// whole page) that are shown and smaller than 24×24 CSS px (WCAG 2.2,
// 2.5.8), by test id or text and size. A file input's button and a
// control in a closed fold are left out.
func (p *page) tinyTargets(scope string) []string {
	p.t.Helper()
	sel := "button, select, input, summary, textarea"
	if scope != "" {
		sel = scope + " button, " + scope + " select, " + scope + " input, " + scope + " summary, " + scope + " textarea"
	}
	var tiny []string
	p.eval(`[...document.querySelectorAll(`+strconv.Quote(sel)+`)].filter(e => {
		if (e.type === 'file' || e.closest('details:not([open]) > :not(summary)')) return false;
		const r = e.getBoundingClientRect(); return r.width > 0 && (r.width < 24 || r.height < 24) })
		.map(e => (e.dataset.testid || e.textContent.trim().slice(0, 20) || e.tagName) + ' ' + Math.round(e.getBoundingClientRect().width) + '×' + Math.round(e.getBoundingClientRect().height))`, &tiny)
	return tiny
}

// Small screens, 320 to 500 px wide: before a run the numbers say "—",
// not 0; the stage comes first, its two views side by side; no text
// overlaps other text in the charts and none is under 11 px on screen;
// every control is a touch target of at least 24×24 CSS px (WCAG 2.2,
// 2.5.8); axe finds nothing after a run.
func TestSmallScreen(t *testing.T) {
	for _, w := range []int64{320, 390, 500} {
		t.Run(strconv.Itoa(int(w)), func(t *testing.T) {
			p := open(t, "", chromedp.EmulateViewport(w, 844))
			if it, g := p.text("iteration"), p.text("gap-value"); it != "—" || g != "—" {
				t.Errorf("before a run: t %q, Δ %q; want —", it, g)
			}
			p.click("train")
			p.waitResult("converged", 60*time.Second)
			var views []struct{ Left, Top, Width float64 }
			p.eval(`[...document.querySelectorAll('.stage .projection svg')].map(s => { const r = s.getBoundingClientRect(); return {left: r.left, top: r.top, width: r.width} })`, &views)
			if len(views) != 2 || views[0].Top != views[1].Top || views[0].Left >= views[1].Left || views[1].Left+views[1].Width > float64(w) {
				t.Errorf("the views at %+v: not side by side within %d px", views, w)
			}
			var overlaps, small []string
			p.eval(`(() => { const out = [];
				for (const s of document.querySelectorAll('.stage svg, .sweep svg, .compare svg')) {
					const ts = [...s.querySelectorAll('text')].filter(e => e.textContent.trim() !== '').map(e => [e.textContent, e.getBoundingClientRect()]);
					for (let i = 0; i < ts.length; i++) for (let j = i + 1; j < ts.length; j++) {
						const [a, r] = ts[i], [b, q] = ts[j];
						if (r.width && q.width && r.left < q.right - 0.5 && q.left < r.right - 0.5 && r.top < q.bottom - 0.5 && q.top < r.bottom - 0.5) out.push(a + ' / ' + b);
					}
				}
				return out })()`, &overlaps)
			if len(overlaps) > 0 {
				t.Errorf("text over text at %d px: %v", w, overlaps)
			}
			p.eval(`[...document.querySelectorAll('.stage svg text, .sweep svg text')].filter(e => e.textContent.trim() !== '').map(e => {
				const s = e.ownerSVGElement, k = s.getBoundingClientRect().width / s.viewBox.baseVal.width;
				return [e.textContent, parseFloat(getComputedStyle(e).fontSize) * k] }).filter(([, px]) => px < 11).map(([t, px]) => t + ': ' + px.toFixed(1) + ' px')`, &small)
			if len(small) > 0 {
				t.Errorf("chart text under 11 px at %d px wide: %v", w, small)
			}
			if tiny := p.tinyTargets(""); len(tiny) > 0 {
				t.Errorf("touch targets under 24×24 px at %d px wide: %v", w, tiny)
			}
			p.finite()
			p.axe()
			if w == 390 {
				p.screenshot("small-screen.png")
			}
		})
	}
}
