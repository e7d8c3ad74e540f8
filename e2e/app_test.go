package e2e

import (
	"context"
	"os"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"testing"
	"time"

	cdppage "github.com/chromedp/cdproto/page"
	"github.com/chromedp/chromedp"

	"github.com/rml-lab/rml/internal/bigcsv"
)

// A newcomer's path: open the page, pick Iris, Train.
func TestNewcomer(t *testing.T) {
	p := open(t, "")
	p.set("dataset-select", "Iris")
	p.waitTrainEnabled()
	// Before any run, the Euclidean view and error are there: 150 points,
	// and the learned view waits for a run.
	p.poll(`[...document.querySelectorAll('[data-testid="projection-euclid"] path.pts')].reduce((s, e) => s + (e.getAttribute('d').match(/M/g) || []).length, 0) === 150`, 10*time.Second)
	var learnedPoints string
	p.eval(`document.querySelector('[data-testid="projection-learned"]').dataset.points`, &learnedPoints)
	if s := p.text("projection-summary"); !regexp.MustCompile(`Euclidean \d+\.\d ?%; train to see the learned metric's`).MatchString(s) || learnedPoints != "0" {
		t.Errorf("before a run: summary %q, learned view of %s points", s, learnedPoints)
	}
	p.recordStatuses()
	p.click("train")
	p.waitResult("converged", 60*time.Second)

	// The page renders once per animation frame, so a run shorter than a
	// frame (Iris takes ~50 iterations) may go from idle to converged
	// without "running" ever being drawn: only what was drawn is checked.
	var statuses []string
	p.eval(`window.__statuses`, &statuses)
	if len(statuses) == 0 || statuses[len(statuses)-1] != "converged" || len(statuses) > 1 && statuses[0] != "running" {
		t.Errorf("statuses %q: want (running …) converged", statuses)
	}
	rel, err := strconv.ParseFloat(p.text("rel-gap-value"), 64)
	if err != nil || !(rel >= 0 && rel <= 1e-6) {
		t.Errorf("rel-gap-value %q: want a number in [0, 1e-6]", p.text("rel-gap-value"))
	}
	if _, err := strconv.ParseFloat(p.text("gap-value"), 64); err != nil {
		t.Errorf("gap-value %q is not a number", p.text("gap-value"))
	}
	// The chart holds a point per iteration reported, and draws them.
	iters := p.text("iteration")
	var points string
	var pathLen int
	p.eval(`document.querySelector('[data-testid="gap-chart"]').dataset.points`, &points)
	p.eval(`(document.querySelector('[data-testid="gap-chart"] path.curve') || {getAttribute: () => ""}).getAttribute('d').length`, &pathLen)
	if points != iters || iters == "0" || pathLen == 0 {
		t.Errorf("chart has %s points and a path of %d bytes; %s iterations", points, pathLen, iters)
	}
	// Both projections draw all 150 rows: one marker ("M") per row.
	for _, id := range []string{"projection-euclid", "projection-learned"} {
		var n int
		p.eval(`[...document.querySelectorAll('[data-testid="`+id+`"] path.pts')].reduce((s, e) => s + (e.getAttribute('d').match(/M/g) || []).length, 0)`, &n)
		if n != 150 {
			t.Errorf("%s draws %d points, want 150", id, n)
		}
	}
	for _, id := range []string{"error-euclid", "error-learned"} {
		v := p.text(id)
		f, err := strconv.ParseFloat(strings.TrimSuffix(v, "%"), 64)
		if err != nil || f < 0 || f > 100 {
			t.Errorf("%s = %q: want a percentage", id, v)
		}
	}
	var canvas bool
	p.eval(`!!document.querySelector('[data-testid="metric-heatmap"] canvas')`, &canvas)
	if !canvas {
		t.Error("no heat map")
	}
	if m := p.text("message"); m != "" {
		t.Errorf("message %q after a clean run", m)
	}
	// Hovering the curve shows its values; hovering a point shows its row.
	p.eval(`(() => { const s = document.querySelector('[data-testid="gap-chart"]'); const r = s.getBoundingClientRect();
		s.dispatchEvent(new MouseEvent('mousemove', {clientX: r.left + r.width / 2, clientY: r.top + r.height / 2, bubbles: true})); return true })()`, new(bool))
	p.poll(`!!document.querySelector('[data-testid="gap-hover"]')`, 5*time.Second)
	if h := p.text("gap-hover"); !regexp.MustCompile(`^t = \d+, Δ = \S+$`).MatchString(h) {
		t.Errorf("chart hover shows %q", h)
	}
	p.eval(`(() => { const s = document.querySelector('[data-testid="projection-learned"]'); const r = s.getBoundingClientRect();
		const m = s.querySelector('path.pts').getAttribute('d').match(/^M(-?[\d.]+) (-?[\d.]+)/);
		const k = r.width / s.viewBox.baseVal.width, x = +m[1], y = +m[2];
		s.dispatchEvent(new MouseEvent('mousemove', {clientX: r.left + x * k, clientY: r.top + y * k, bubbles: true})); return true })()`, new(bool))
	p.poll(`!!document.querySelector('[data-testid="point-hover"]')`, 5*time.Second)
	if h := p.text("point-hover"); !regexp.MustCompile(`row \d+: (setosa|versicolor|virginica) \((training|test)\)`).MatchString(h) {
		t.Errorf("point hover shows %q", h)
	}
	p.screenshot("trained-iris.png")
}

// writeCSV writes a file for the file input.
func writeCSV(t *testing.T, name, text string) string {
	t.Helper()
	f := filepath.Join(t.TempDir(), name)
	if err := os.WriteFile(f, []byte(text), 0o644); err != nil {
		t.Fatal(err)
	}
	return f
}

func (p *page) upload(file string) {
	p.t.Helper()
	p.run(chromedp.SetUploadFiles(`[data-testid="csv-input"]`, []string{file}, chromedp.ByQuery))
}

// uploadLoaded uploads a file made of text and waits until it is the
// dataset and Train is enabled (reading a file is asynchronous).
func (p *page) uploadLoaded(name, text string) {
	p.t.Helper()
	p.upload(writeCSV(p.t, name, text))
	p.poll(`document.querySelector('[data-testid="dataset-select"]').selectedOptions[0].textContent.includes(`+strconv.Quote(name)+`)`, 30*time.Second)
	p.waitTrainEnabled()
}

// runSonar starts a long run: Sonar by projected gradient (RML_gd, which
// crawls: 60 s natively do not take it to 1e-6) to the tolerance tol. The
// fast method is no longer slow enough for this: with its Newton steps it
// takes Sonar to 1e-12 in about 110 iterations.
func (p *page) runSonar(tol string) {
	p.t.Helper()
	p.set("dataset-select", "Sonar")
	p.waitTrainEnabled()
	p.set("method", "gradient")
	p.set("tol", tol)
	p.click("train")
	p.waitStatus("running", 10*time.Second)
}

// trainsOnNewWorker checks that a second worker was started (window.Worker
// wrapped to count them) and that a run on it converges.
func (p *page) trainsOnNewWorker() {
	p.t.Helper()
	var n int
	p.eval(`window.__workers.length`, &n)
	if n != 2 {
		p.t.Errorf("%d workers created, want 2", n)
	}
	p.set("method", "fast")
	p.set("tol", "1e-3")
	p.click("train")
	p.waitResult("converged", 60*time.Second)
}

// beforeLoad runs a script in every document of the tab before the page's
// own (to wrap window.Worker, say).
func beforeLoad(script string) chromedp.Action {
	return chromedp.ActionFunc(func(ctx context.Context) error {
		_, err := cdppage.AddScriptToEvaluateOnNewDocument(script).Do(ctx)
		return err
	})
}

// Upload a CSV whose label is the first column, choose it, train.
func TestUpload(t *testing.T) {
	p := open(t, "")
	var b strings.Builder
	b.WriteString("species;height;width;depth\n")
	for i := 0; i < 30; i++ {
		c := []string{"cat", "dog"}[i%2]
		b.WriteString(c + ";" + strconv.Itoa(10+i%2*5+i%7) + ";" + strconv.Itoa(3+i%2*4+i%3) + ";" + strconv.Itoa(i%5) + "\n")
	}
	p.upload(writeCSV(t, "pets.csv", b.String()))
	// With the default label (the last column), species, text, is left out
	// and the notice says so; the label choice offers the file's columns.
	p.poll(`document.querySelectorAll('[data-testid="label-select"] option').length === 4 && document.querySelector('[data-testid="dataset-select"]').selectedOptions[0].textContent.includes("pets.csv")`, 10*time.Second)
	if m := p.text("message"); !strings.Contains(m, `1 text column ("species") was left out`) {
		t.Errorf("message %q", m)
	}
	p.set("label-select", "species")
	p.poll(`document.querySelector('[data-testid="label-select"]').value === "species" && !document.querySelector('[data-testid="train"]').disabled`, 10*time.Second)
	p.click("train")
	p.waitResult("converged", 60*time.Second)
	var n int
	p.eval(`[...document.querySelectorAll('[data-testid="projection-learned"] path.pts')].reduce((s, e) => s + (e.getAttribute('d').match(/M/g) || []).length, 0)`, &n)
	if n != 30 {
		t.Errorf("%d points drawn, want 30", n)
	}
}

// Broken files: the message names the row or column; nothing crashes and
// no work is lost.
func TestBrokenCSV(t *testing.T) {
	p := open(t, "")
	p.click("train")
	p.waitResult("converged", 60*time.Second)
	for _, c := range []struct {
		name, text string
		want       []string
	}{
		{"ragged.csv", "a,b,y\n1,2,p\n3,4,q\n5,p\n6,7,q\n", []string{"line 4", "2 fields, expected 3"}},
		{"text.csv", "a,b,y\n1,2,p\n3,four,q\n5,6,p\n", []string{"line 3", `"b"`, `"four"`}},
		{"oneclass.csv", "a,b,y\n1,2,p\n3,4,p\n5,6,p\n", []string{"one class", `"p"`}},
	} {
		p.upload(writeCSV(t, c.name, c.text))
		p.poll(`document.querySelector('[data-testid="status"]').textContent === "error" && document.querySelector('[data-testid="message"]').textContent.includes(`+strconv.Quote(c.want[0])+`)`, 10*time.Second)
		msg := p.text("message")
		for _, w := range c.want {
			if !strings.Contains(msg, w) {
				t.Errorf("%s: message %q lacks %q", c.name, msg, w)
			}
		}
		// No work is lost: Iris, loaded before, stays loaded and trained.
		var disabled bool
		var selected string
		p.eval(`document.querySelector('[data-testid="train"]').disabled`, &disabled)
		p.eval(`document.querySelector('[data-testid="dataset-select"]').value`, &selected)
		if disabled || selected != "Iris" || !strings.Contains(p.text("failed-file"), c.name+" could not be read") || p.text("train") != "Train Iris (still loaded)" {
			t.Errorf("%s: Train disabled %v, dataset %q, note %q, button %q", c.name, disabled, selected, p.text("failed-file"), p.text("train"))
		}
		if got := p.text("error-learned"); got == "—" {
			t.Errorf("%s: the result before the failed file is gone", c.name)
		}
	}
	// The page still works: a built-in dataset loads and trains.
	p.set("dataset-select", "Wine")
	p.waitTrainEnabled()
	p.click("train")
	p.waitResult("converged", 60*time.Second)
}

// A header and labels full of markup are shown as text and run nothing.
func TestMarkupIsText(t *testing.T) {
	p := open(t, "")
	evil := `<img src=x onerror="window.__xss=1">`
	label := `<script>window.__xss=2</script>`
	csv := `"` + strings.ReplaceAll(evil, `"`, `""`) + `",b,"` + `<b>class</b>` + "\"\n"
	for i := 0; i < 20; i++ {
		l := label
		if i%2 == 1 {
			l = `<i onmouseover="window.__xss=3">two</i>`
		}
		csv += strconv.Itoa(i%2*3+i%5) + "," + strconv.Itoa(i%3) + ",\"" + strings.ReplaceAll(l, `"`, `""`) + "\"\n"
	}
	p.upload(writeCSV(t, "<svg onload=alert(1)>.csv", csv))
	// Reading the file is asynchronous: wait until it is the dataset.
	p.poll(`document.querySelector('[data-testid="dataset-select"]').selectedOptions[0].textContent.startsWith('Your file: ')`, 10*time.Second)
	p.waitTrainEnabled()
	p.click("train")
	p.waitResult("converged", 60*time.Second)
	// Hover a point so class names are shown there too.
	p.eval(`(() => { const s = document.querySelector('[data-testid="projection-learned"]'); const r = s.getBoundingClientRect();
		for (let x = 0; x < r.width; x += 4) for (let y = 0; y < r.height; y += 4)
			s.dispatchEvent(new MouseEvent('mousemove', {clientX: r.left + x, clientY: r.top + y, bubbles: true}));
		return true })()`, new(bool))
	time.Sleep(200 * time.Millisecond)
	var xss any
	p.eval(`window.__xss === undefined ? null : window.__xss`, &xss)
	if xss != nil {
		t.Fatalf("markup from the CSV ran: window.__xss = %v", xss)
	}
	var injected int
	p.eval(`document.querySelectorAll('body img, body script, body i, body b').length`, &injected)
	if injected != 0 {
		t.Errorf("%d elements from the CSV's markup are in the page", injected)
	}
	var th, option string
	p.eval(`document.querySelector('[data-testid="preview"] th').textContent`, &th)
	p.eval(`document.querySelector('[data-testid="label-select"] option:checked').textContent`, &option)
	if th != evil || option != "<b>class</b>" {
		t.Errorf("header shown as %q and label column as %q; want the text itself", th, option)
	}
	var body string
	p.eval(`document.body.textContent`, &body)
	if !strings.Contains(body, label) {
		t.Errorf("the class name %q is not shown as text", label)
	}
}

// Stop during a long run ends it, and the iterations stop growing; the page
// keeps drawing frames while the solver runs. This asserts the mechanism
// with margins that hold on a loaded machine (the watchdog would restart a
// worker that took 3 s); how fast it is (≤ 100 ms, no main-thread task over
// 50 ms) is measured and reported by TestFigures.
func TestStop(t *testing.T) {
	p := open(t, "")
	p.runSonar("1e-9")
	p.poll(`+document.querySelector('[data-testid="iteration"]').textContent > 0`, 10*time.Second)
	var frames int
	p.eval(`new Promise((ok) => { let n = 0; const t0 = performance.now();
		const f = () => { n++; if (performance.now() - t0 < 1000) requestAnimationFrame(f); else ok(n) }; requestAnimationFrame(f) })`, &frames)
	if p.text("status") != "running" {
		t.Fatalf("status %q: the run ended before Stop", p.text("status"))
	}
	if frames < 2 {
		t.Errorf("%d animation frames in 1 s while training: the page does not answer", frames)
	}
	// After a second of falling gaps, the page estimates the time left.
	p.poll(`/^(about \d+ (s|min|h)|under 1 s)$/.test(document.querySelector('[data-testid="remaining"]').textContent)`, 5*time.Second)
	p.click("stop")
	p.waitResult("stopped", 2500*time.Millisecond)
	at := p.text("iteration")
	time.Sleep(300 * time.Millisecond)
	if again := p.text("iteration"); again != at {
		t.Errorf("after Stop the iterations went on: %s, then %s", at, again)
	}
	if m := p.text("message"); strings.Contains(m, "restarted") {
		t.Errorf("Stop needed the watchdog: %q", m)
	}
	if r := p.text("remaining"); r != "—" {
		t.Errorf("time left %q after Stop", r)
	}
}

// A worker that ignores Stop (here: the page's stop messages are dropped on
// their way) is terminated by the watchdog after 3 s and started again; the
// page says so, loads the dataset again and trains.
func TestWatchdog(t *testing.T) {
	wrap := beforeLoad(`(() => {
			const Real = window.Worker; window.__workers = [];
			window.Worker = function (url, opts) { const w = new Real(url, opts); window.__workers.push(w);
				const post = w.postMessage.bind(w);
				w.postMessage = (m, tr) => { if (window.__dropStops && m && m.h && new TextDecoder().decode(m.h).includes('stop')) return; post(m, tr); };
				return w; };
		})()`)
	p := open(t, "?workers=1#data=Iris", wrap) // lane 0 alone: its restart is the point
	p.runSonar("1e-12")
	p.eval(`window.__dropStops = true`, new(bool))
	p.click("stop")
	p.poll(`document.querySelector('[data-testid="message"]').textContent.includes('restarted')`, 15*time.Second)
	if m := p.text("message"); !strings.Contains(m, "did not stop within 3 s") {
		t.Errorf("message %q: want the reason", m)
	}
	p.eval(`window.__dropStops = false`, new(bool))
	p.waitTrainEnabled()
	p.trainsOnNewWorker()
}

// A worker the browser ends while the page is idle (out of memory, say)
// posts nothing: the page asks it whether it is alive when it has been
// quiet a while, finds it gone, and starts another, which trains.
func TestIdleWorkerDies(t *testing.T) {
	wrap := beforeLoad(`(() => {
			const Real = window.Worker; window.__workers = [];
			window.Worker = function (url, opts) { const w = new Real(url, opts); window.__workers.push(w); return w; };
		})()`)
	p := open(t, "?workers=1#data=Iris", wrap) // lane 0 alone
	p.eval(`window.__workers[0].terminate(); true`, new(bool))
	p.poll(`(document.querySelector('[data-testid="message"]') || {}).textContent?.includes('restarted') === true`, 30*time.Second)
	if m := p.text("message"); !strings.Contains(m, "did not answer") {
		t.Errorf("message %q: want the reason", m)
	}
	p.waitTrainEnabled()
	p.trainsOnNewWorker()
}

// Hostile files (issue 7): identical rows are refused when read, with the
// reason; a constant column beside real ones is named and ignored, and the
// file trains; a file large enough that finding neighbours takes a while
// shows that search's progress, and Stop ends it.
func TestHostileUploads(t *testing.T) {
	p := open(t, "")
	var same strings.Builder
	same.WriteString("a,b,label\n")
	for i := 0; i < 40; i++ {
		same.WriteString("1,1," + []string{"x", "y"}[i%2] + "\n")
	}
	// Refused when read: Iris stays loaded, and says so.
	p.upload(writeCSV(t, "same.csv", same.String()))
	p.poll(`document.querySelector('[data-testid="status"]').textContent === "error"`, 10*time.Second)
	if m := p.text("message"); !strings.Contains(m, "constant") || !strings.Contains(p.text("failed-file"), "Iris stays loaded") {
		t.Errorf("identical rows: message %q, note %q", m, p.text("failed-file"))
	}

	var cc strings.Builder
	cc.WriteString("a,b,c,label\n")
	for i := 0; i < 60; i++ {
		cc.WriteString(strconv.Itoa(i%7) + "," + strconv.Itoa(i%5*(1+i%2)) + ",3," + []string{"x", "y"}[i%2] + "\n")
	}
	p.uploadLoaded("constant-column.csv", cc.String())
	if m := p.text("message"); !strings.Contains(m, `"c"`) || !strings.Contains(m, "constant") {
		t.Errorf("constant column: notice %q", m)
	}
	p.click("train")
	// Its two features carry little: at η = 0.8 the worst case may give up.
	p.poll(`(() => { const s = document.querySelector('[data-testid="status"]');
		return (s.textContent === "converged" || s.textContent === "collapsed") && s.dataset.run === s.dataset.shown })()`, 60*time.Second)
	for _, id := range []string{"gap-value", "rel-gap-value", "error-euclid", "error-learned"} {
		if v := p.text(id); strings.Contains(v, "NaN") || strings.Contains(v, "Inf") || v == "" {
			t.Errorf("%s shows %q", id, v)
		}
	}

	var big strings.Builder
	big.WriteString("a,b,c,d,e,label\n")
	for i := 0; i < 12000; i++ {
		for j := 0; j < 5; j++ {
			big.WriteString(strconv.Itoa((i*7919+j*104729)%1000) + ",")
		}
		big.WriteString([]string{"x", "y", "z"}[i%3] + "\n")
	}
	p.uploadLoaded("big.csv", big.String())
	p.click("train")
	p.poll(`(document.querySelector('[data-testid="chart-empty"]') || {textContent: ''}).textContent.includes('nearest neighbours')`, 30*time.Second)
	p.click("stop")
	p.waitStatus("stopped", 2500*time.Millisecond)
	p.poll(`document.querySelector('[data-testid="message"]').textContent.includes('finding neighbours')`, 5*time.Second)
	if m := p.text("message"); strings.Contains(m, "restarted") {
		t.Errorf("Stop during the neighbour search needed the watchdog: %q", m)
	}
}

// A worker that dies is restarted, the page says so, loads the dataset
// again and trains. The death is simulated where the page learns of it:
// the message worker.js posts when the Go program exits.
func TestWorkerRestart(t *testing.T) {
	wrap := beforeLoad(`(() => {
			const Real = window.Worker; window.__workers = [];
			window.Worker = function (url, opts) { const w = new Real(url, opts); window.__workers.push(w); return w; };
			window.__killWorker = () => { const w = window.__workers[window.__workers.length - 1];
				w.onmessage({data: {fatal: 'the solver program exited'}}); return true; };
		})()`)
	p := open(t, "?workers=1#data=Iris", wrap) // lane 0 alone: its restart is the point
	p.runSonar("1e-9")
	p.eval(`window.__killWorker()`, new(bool))
	p.waitStatus("error", 5*time.Second)
	if m := p.text("message"); !strings.Contains(m, "restarted") || !strings.Contains(m, "the solver program exited") {
		t.Errorf("message %q: want it to say the solver was restarted and why", m)
	}
	// The new worker gets Sonar again and trains; the notice stays.
	p.waitTrainEnabled()
	if m := p.text("message"); !strings.Contains(m, "restarted") {
		t.Errorf("after the reload the message is %q", m)
	}
	p.trainsOnNewWorker()
	var points string
	p.eval(`document.querySelector('[data-testid="projection-learned"]').dataset.points`, &points)
	if points != "208" {
		t.Errorf("after the restart the learned view has %s points, want Sonar's 208", points)
	}
}

// A slider shows its value from its first frame: Vecty sets a new input's
// value before its min and step, so a range input made at η = 0.9 was
// fitted to the default range (0 to 100 in steps of 1) and showed its
// minimum until a later redraw changed its props (rangeInput.Mount sets it
// again). Each range input's value is read in the same task it was added
// to the page in (a MutationObserver's callback, at that task's microtask
// checkpoint, after the render and its Mount).
func TestSliderFirstFrame(t *testing.T) {
	p := newTab(t)
	p.run(beforeLoad(`window.__firstValues = {};
		new MutationObserver((records) => {
			for (const r of records) for (const n of r.addedNodes) {
				if (n.nodeType !== 1) continue;
				for (const e of [n, ...n.querySelectorAll('input[type=range]')])
					if (e.matches('input[type=range]') && !(e.dataset.testid in window.__firstValues)) window.__firstValues[e.dataset.testid] = e.value;
			}
		}).observe(document, {childList: true, subtree: true});`))
	p.navigate(baseURL + "#data=Wine&flip=0.1&eta=0.9")
	p.waitTrainEnabled()
	var first map[string]string
	p.eval(`window.__firstValues`, &first)
	if first["eta"] != "0.9" || first["flip"] != "0.1" {
		t.Errorf("the sliders' first values: %v; want eta 0.9 and flip 0.1, as the link says", first)
	}
}

// A shared link rebuilds the same run: the settings come from the address,
// and two pages opened on it end with the same numbers.
func TestSharedLink(t *testing.T) {
	link := "#data=Wine&ksame=2&kdiff=4&flip=0.1&eta=0.9&lambda=0.5&method=fast&tol=1e-05&seed=7"
	var runs [2][3]string
	for i := range runs {
		p := open(t, link)
		var eta, lambda, ks string
		p.eval(`document.querySelector('[data-testid="eta"]').value`, &eta)
		p.eval(`document.querySelector('[data-testid="lambda"]').value`, &lambda)
		p.eval(`document.querySelector('[data-testid="k-same"]').value`, &ks)
		if eta != "0.9" || lambda != "0.5" || ks != "2" || !strings.Contains(p.text("triplet-count"), "× 2 × 4") {
			t.Fatalf("from the link: η %s, λ %s, k_same %s, %q", eta, lambda, ks, p.text("triplet-count"))
		}
		p.click("train")
		p.waitResult("converged", 60*time.Second)
		runs[i] = [3]string{p.text("iteration"), p.text("gap-value"), p.text("error-learned")}
		// With noise injected, the result says how many suspects were swapped.
		if s := p.text("suspects"); !strings.Contains(s, "swapped by the injected noise") || !strings.Contains(s, "is closer to row") {
			t.Errorf("suspects: %q", s)
		}
		// The address follows the controls.
		p.set("lambda", "2")
		var hash string
		p.eval(`location.hash`, &hash)
		if !strings.Contains(hash, "lambda=2&") || !strings.Contains(hash, "seed=7") {
			t.Errorf("address after λ = 2: %s", hash)
		}
	}
	if runs[0] != runs[1] {
		t.Errorf("same link, different runs: %v and %v", runs[0], runs[1])
	}
}

// After a run, moving η restarts from its solution.
func TestWarmRestart(t *testing.T) {
	p := open(t, "")
	p.click("train")
	p.waitResult("converged", 60*time.Second)
	cold, _ := strconv.Atoi(p.text("iteration"))
	p.set("eta", "0.95")
	p.poll(`document.body.textContent.includes('The last run started from the previous solution')`, 30*time.Second)
	p.waitResult("converged", 60*time.Second)
	warm, _ := strconv.Atoi(p.text("iteration"))
	t.Logf("cold %d iterations, warm %d", cold, warm)
	if warm >= cold {
		t.Errorf("the warm restart took %d iterations, the cold run %d", warm, cold)
	}
}

// A file dropped on the drop zone loads like a chosen one.
func TestDropFile(t *testing.T) {
	p := open(t, "")
	p.eval(`(() => { const dt = new DataTransfer();
		dt.items.add(new File(["a;b;kind\n1;2;x\n2;1;y\n1;3;x\n3;1;y\n1;4;x\n4;1;y\n"], "dropped.csv", {type: "text/csv"}));
		const z = document.querySelector('.drop');
		z.dispatchEvent(new DragEvent('dragover', {dataTransfer: dt, bubbles: true, cancelable: true}));
		z.dispatchEvent(new DragEvent('drop', {dataTransfer: dt, bubbles: true, cancelable: true})); return true })()`, new(bool))
	p.poll(`document.querySelector('[data-testid="dataset-select"]').selectedOptions[0].textContent.includes('dropped.csv')`, 10*time.Second)
	p.waitTrainEnabled()
	if s := p.text("message"); s != "" {
		t.Errorf("message %q", s)
	}
}

// Where the worst case collapses to A = 0 (the synthetic set, 20 % swapped,
// η = 0.5), the status says so, in its own colour, with why and what to
// change, and the result panel explains; at η = 1 neither does.
func TestCollapseShown(t *testing.T) {
	p := open(t, "#data=Synthetic%3A+2+signal+%2B+18+noise&flip=0.2&eta=0.5")
	p.click("train")
	p.waitResult("collapsed", 60*time.Second)
	if c := p.text("collapsed"); !strings.Contains(c, "collapsed to A = 0") {
		t.Errorf("η = 0.5: %q", c)
	}
	if n := p.text("status-note"); !strings.Contains(n, "A = 0") || !strings.Contains(n, "λ does not change this") {
		t.Errorf("η = 0.5: the status says %q beside it", n)
	}
	var colour string
	p.eval(`getComputedStyle(document.querySelector('[data-testid="status"]')).backgroundColor`, &colour)
	if colour != "rgb(255, 243, 205)" {
		t.Errorf("the collapsed status is drawn on %s, not the warning colour", colour)
	}
	p.set("eta", "1")
	p.poll(`document.body.textContent.includes('The last run started from the previous solution')`, 30*time.Second)
	p.waitResult("converged", 60*time.Second)
	var shown bool
	p.eval(`!!document.querySelector('[data-testid="collapsed"]')`, &shown)
	if shown {
		t.Error("η = 1: the collapse is still shown")
	}
}

// The heat map's feature names are drawn once per dataset and kept for its
// later results (they cost 11 ms of a 28 ms task during the 5,000 × 50
// training): a second result on the same data still shows them, with the
// new result's cells, and so does a dataset with other names after it.
func TestHeatmapNames(t *testing.T) {
	p := open(t, "")
	p.set("tol", "1e-3")
	// state counts the dark pixels (the names are drawn in #222; the
	// cells' colours are lighter) and hashes the pixels of the heat map's
	// canvases (the names and the cells).
	state := func() (dark int, sum float64) {
		var out []float64
		p.eval(`(() => { let dark = 0, sum = 0;
			for (const c of document.querySelectorAll('[data-testid="metric-heatmap"] canvas')) {
				const d = c.getContext('2d').getImageData(0, 0, c.width, c.height).data;
				for (let i = 0; i < d.length; i += 4) { if (d[i+3] > 0 && d[i] < 80 && d[i+1] < 80 && d[i+2] < 80) dark++; sum += (d[i] * 3 + d[i+1] * 5 + d[i+2] * 7) * (i % 97 + 1); }
			}
			return [dark, sum] })()`, &out)
		return int(out[0]), out[1]
	}
	// The names are painted in a task after the cells.
	settled := func() (int, float64) {
		var dark int
		var sum float64
		for range 50 {
			if dark, sum = state(); dark > 0 {
				break
			}
			time.Sleep(100 * time.Millisecond)
		}
		return dark, sum
	}
	for _, data := range []string{"Wine", "Heart"} {
		p.set("dataset-select", data)
		p.waitTrainEnabled()
		p.click("train")
		p.waitResult("converged", time.Minute)
		dark1, sum1 := settled()
		if dark1 == 0 {
			t.Fatalf("%s: no feature names on the heat map after the first result", data)
		}
		p.set("flip", "0.3") // other triplets: another metric
		p.click("train")
		p.waitResult("converged", time.Minute)
		var sum2 float64
		for range 50 {
			if _, sum2 = state(); sum2 != sum1 {
				break
			}
			time.Sleep(100 * time.Millisecond)
		}
		if sum2 == sum1 {
			t.Fatalf("%s: the heat map did not change with the second result", data)
		}
		if dark2, _ := settled(); dark2 == 0 {
			t.Errorf("%s: no feature names on the heat map after a second result", data)
		}
		p.set("flip", "0")
	}
}

// A Compare's last run (the chosen method's, shown first) sorts the
// columns. Each column's cells are keyed by its run (the curves are not:
// keyed, they crashed Vecty), so the columns move: no small projection drawn before is drawn again (its paths'
// "d" never changes; unkeyed, the first column's was redrawn with the
// chosen method's points, three paths on Wine, and the best case's drawn
// anew in the last), and each run keeps its colour, the same on its swatch
// and its curve. A new column's small projection comes as its frame alone,
// its points drawn in a task after the column's (ui.miniView: the panel's
// task is then lighter), and every column's ends drawn.
func TestCompareMovesColumns(t *testing.T) {
	p := open(t, "#data=Wine")
	p.noiseLesson()
	// A MutationObserver's callback runs at the end of the task that made
	// its mutations: a small projection first added with its points already
	// in it was drawn in its column's task (a column that moves is added
	// again, drawn: only the first time counts).
	p.eval(`(() => { window.__redrawn = 0; window.__frames = 0; window.__withPoints = 0; const seen = new WeakSet();
		new MutationObserver((ms) => { for (const m of ms) if (m.target.closest('svg.mini-proj')) window.__redrawn++ })
			.observe(document.body, {subtree: true, attributes: true, attributeFilter: ['d']});
		new MutationObserver((ms) => { for (const m of ms) for (const n of m.addedNodes) {
			if (n.nodeType !== 1) continue;
			for (const s of [...(n.matches('svg.mini-proj') ? [n] : []), ...n.querySelectorAll('svg.mini-proj')]) {
				if (seen.has(s)) continue;
				seen.add(s);
				window.__frames++;
				if (s.querySelector('path.pts')) window.__withPoints++;
			} } })
			.observe(document.body, {subtree: true, childList: true});
		return true })()`, new(bool))
	p.click("compare")
	p.waitRuns(compareCount, compareRuns, 2*time.Minute)
	p.poll(`[...document.querySelectorAll('svg.mini-proj')].every(s => s.querySelector('path.pts'))`, 10*time.Second)
	var got struct {
		Redrawn, Frames, WithPoints int
		Methods                     string
		Swatches                    []string
		Curves                      []string
	}
	p.eval(`(() => {
		const colour = (e, p) => getComputedStyle(e)[p];
		return {
			Redrawn: window.__redrawn, Frames: window.__frames, WithPoints: window.__withPoints,
			Methods: [...document.querySelectorAll('[data-testid="compare-table"] tr:first-child th')].slice(1).map(e => e.textContent.replace('×', '').trim()).join(','),
			Swatches: [...document.querySelectorAll('[data-testid="compare-table"] .key-mark path:first-child')].map(e => colour(e, 'stroke')),
			Curves: [...document.querySelectorAll('[data-testid="compare-chart"] path.curve')].map(e => colour(e, 'stroke')),
		} })()`, &got)
	if got.Redrawn != 0 {
		t.Errorf("the Compare redrew %d paths of small projections already drawn", got.Redrawn)
	}
	if got.Frames != compareRuns || got.WithPoints != 0 {
		t.Errorf("the Compare added %d small projections, %d of them with their points drawn in their column's task (want %d, none)", got.Frames, got.WithPoints, compareRuns)
	}
	// Euclid has no curve (no iterations): the curves' colours are the
	// other columns' swatches, in column order.
	k := 0
	for _, c := range got.Swatches {
		if k < len(got.Curves) && got.Curves[k] == c {
			k++
		}
	}
	if len(got.Swatches) != compareRuns || len(got.Curves) != compareRuns-1 || k != len(got.Curves) {
		t.Errorf("columns %s: swatches %v, curves %v (want %d columns, a curve for each but Euclid's, in their colours and order)", got.Methods, got.Swatches, got.Curves, compareRuns)
	}
	seen := map[string]bool{}
	for _, c := range got.Swatches {
		if seen[c] {
			t.Errorf("colour %s on two columns: %v", c, got.Swatches)
		}
		seen[c] = true
	}
	t.Logf("columns %s; colours %v", got.Methods, got.Swatches)

	// Keyed columns leave too: remove the first, pin the shown run twice
	// (the same result in two columns, told apart by their IDs), then a
	// second Compare, whose columns push the oldest out beyond ten
	// (store.MaxPinned).
	p.eval(`document.querySelector('[aria-label="remove column 1"]').click(), true`, new(bool))
	p.poll(`document.querySelector('[data-testid="compare-table"]').dataset.runs === "`+strconv.Itoa(compareRuns-1)+`"`, 5*time.Second)
	p.click("pin")
	p.click("pin")
	p.poll(`document.querySelector('[data-testid="compare-table"]').dataset.runs === "`+strconv.Itoa(compareRuns+1)+`"`, 5*time.Second)
	p.click("compare")
	// The two pins, then the second Compare's columns, once its last run
	// has sorted them (a page that faulted never gets there).
	p.poll(`[...document.querySelectorAll('[data-testid="compare-table"] tr:first-child th')].slice(1)
		.map(e => e.textContent.replace('×', '').trim()).join(',') === "RML (fast),RML (fast),RML (fast),Hinge,Best case,Logistic,t-STE,LMNN,Xing,Euclid"`, 2*time.Minute)
}

// A wide file says as it loads that a run may take minutes in the page,
// and a run on it guesses its length from its first iterations, before
// its gap can say more (spec.FirstGuess); Stop ends it.
func TestWideGuess(t *testing.T) {
	p := open(t, "")
	p.uploadLoaded("wide-5000x100.csv", bigcsv.CSV(5000, 100, 4, 6))
	var body string
	p.eval(`document.body.textContent`, &body)
	if !strings.Contains(body, "a run may take minutes in the page") {
		t.Errorf("a 5000 × 100 file loaded without saying that a run may take minutes")
	}
	p.set("tol", "1e-3")
	p.click("train")
	p.waitStatus("running", 10*time.Second)
	p.poll(`/^first guess: \d+ (s|min|h) to \d+ (s|min|h)$/.test(document.querySelector('[data-testid="remaining"]').textContent)`, 20*time.Second)
	var fits bool
	p.eval(`(e => e.scrollWidth <= e.clientWidth)(document.querySelector('[data-testid="remaining"]').parentElement)`, &fits)
	if !fits {
		t.Errorf("the guess %q is cut off", p.text("remaining"))
	}
	p.click("stop")
	p.waitResult("stopped", 5*time.Second)
}
