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
	if s := p.text("preset-text"); !strings.Contains(s, "19.4 %") {
		t.Fatalf("the first visit shows lesson text %q", s)
	}
	if e, l := p.text("error-euclid"), p.text("error-learned"); e != "19.4%" || l != "2.8%" {
		t.Errorf("first lesson: Euclidean %s, learned %s; its text says 19.4 %% and 2.8 %%", e, l)
	}
	if s := p.text("suspects"); !strings.Contains(s, "94.") {
		t.Errorf("first lesson: suspects %q; its text says 94 %%", s)
	}
	var hash string
	p.eval(`location.hash`, &hash)
	if !strings.Contains(hash, "preset=learn") {
		t.Errorf("the address is %q, not the lesson's link", hash)
	}
	p.finite()
	p.screenshot("lesson-learn.png")

	// Pin, then change η: a warm restart; the pinned column stays.
	p.click("pin")
	p.poll(`document.querySelector('[data-testid="compare-table"]').dataset.runs === "1"`, 5*time.Second)
	run := p.shownRun()
	p.set("eta", "0.9")
	p.waitAfter(run, "converged", 60*time.Second)
	if n := p.text("compare-table"); !strings.Contains(n, "0.8") {
		t.Errorf("the pinned column lost its η = 0.8: %q", n)
	}

	// Compare: the chosen method and four more, one after another.
	start := time.Now()
	p.click("compare")
	p.waitRuns(`+document.querySelector('[data-testid="compare-table"]').dataset.runs`, 6, 3*time.Minute)
	t.Logf("Compare (5 methods) on the first lesson: %.1f s", time.Since(start).Seconds())
	table := p.text("compare-table")
	for _, m := range []string{"RML (fast)", "LMNN", "Xing", "Euclid", "Best case"} {
		if !strings.Contains(table, m) {
			t.Errorf("compare table lacks %s: %q", m, table)
		}
	}
	var curves int
	p.eval(`document.querySelectorAll('[data-testid="compare-chart"] path.curve').length`, &curves)
	if curves < 5 {
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

	// The η sweep: every point appears; the summary reads them out.
	start = time.Now()
	p.click("eta-sweep")
	p.waitRuns(`+document.querySelector('[data-testid="eta-sweep-chart"]').dataset.points`, 14, 3*time.Minute)
	t.Logf("η sweep (14 runs) on the first lesson: %.1f s", time.Since(start).Seconds())
	sum := p.text("sweep-summary")
	// The first lesson at λ = 16: the budget binds nowhere above η = 0.5,
	// where the metric collapses (ui/store's presets test measured it).
	if !strings.Contains(sum, "RML (fast) — 1: 2.8%") || !strings.Contains(sum, "A collapses to 0 at 0.5") {
		t.Errorf("sweep summary %q", sum)
	}
	p.finite()
	// Its last run is the best case at η = 1, which trusts every triplet;
	// the views say what it is, and show no duality gap.
	if b := p.text("budget"); !strings.HasPrefix(b, "At η = 1 the best case trusts all ") {
		t.Errorf("after the η sweep, the best case's budget line %q", b)
	}
	if e, g, r := p.text("chart-empty"), p.text("gap-value"), p.text("rel-gap-value"); !strings.HasPrefix(e, "Best case: no duality gap; a local optimum after ") || g != "—" || r != "—" {
		t.Errorf("after the η sweep, the chart says %q, Δ %q, relative gap %q", e, g, r)
	}
	if s := p.text("step-state"); !regexp.MustCompile(`^After \d+ outer steps?: \d+ have margin below 1`).MatchString(s) {
		t.Errorf("after the η sweep, the best case's state %q", s)
	}
	p.screenshot("lesson-learn-sweep.png")

	// Step: one iteration from the last solution, then ten.
	run = p.shownRun()
	p.click("step")
	p.waitAfter(run, "stopped", 30*time.Second)
	t1, _ := strconv.Atoi(p.text("iteration"))
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
		},
	}
	for _, key := range []string{"noise", "eta", "collapse"} {
		run := p.shownRun()
		p.set("preset", key)
		p.waitAfter(run, "converged", 60*time.Second)
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

// Before a run the numbers say "—", not 0; on a 400 px screen the
// projections stack and chart text stays at least 11 px on screen.
func TestSmallScreen(t *testing.T) {
	p := open(t, "", chromedp.EmulateViewport(400, 900))
	if it, g := p.text("iteration"), p.text("gap-value"); it != "—" || g != "—" {
		t.Errorf("before a run: t %q, Δ %q; want —", it, g)
	}
	p.click("train")
	p.waitResult("converged", 60*time.Second)
	var lefts []float64
	p.eval(`[...document.querySelectorAll('.projection figure')].map(f => f.getBoundingClientRect().left)`, &lefts)
	if len(lefts) != 2 || lefts[0] != lefts[1] {
		t.Errorf("projections at x = %v: not stacked", lefts)
	}
	var small []string
	p.eval(`[...document.querySelectorAll('.chart svg text, .sweep svg text, .projection svg text')].filter(e => e.textContent.trim() !== '').map(e => {
		const s = e.ownerSVGElement, k = s.getBoundingClientRect().width / s.viewBox.baseVal.width;
		return [e.textContent, parseFloat(getComputedStyle(e).fontSize) * k] }).filter(([, px]) => px < 11).map(([t, px]) => t + ': ' + px.toFixed(1) + ' px')`, &small)
	if len(small) > 0 {
		t.Errorf("chart text under 11 px at 400 px wide: %v", small)
	}
	p.finite()
	p.screenshot("small-screen.png")
}
