package e2e

import (
	"regexp"
	"strings"
	"testing"
	"time"

	"github.com/chromedp/cdproto/browser"

	"github.com/rml-lab/rml/internal/bigcsv"
)

// padTrace returns the saved run with its Δ_t history made n points long
// (a long run's, as the gradient method's can be): a valid run of the same
// data, and a large file.
func padTrace(t *testing.T, run []byte, n int) string {
	t.Helper()
	var b strings.Builder
	for i := 0; i < n; i++ {
		if i > 0 {
			b.WriteString(", ")
		}
		b.WriteString("0.0123456789012345")
	}
	list := "[" + b.String() + "]"
	out := string(run)
	for _, key := range []string{"iters", "gaps"} {
		re := regexp.MustCompile(`"` + key + `": \[[^\]]*\]`)
		if !re.MatchString(out) {
			t.Fatalf("the saved run has no %q list", key)
		}
		out = re.ReplaceAllLiteralString(out, `"`+key+`": `+list)
	}
	return out
}

// irisRun opens the page on Iris, trains it and downloads the run: the
// page, and the saved run's file.
func irisRun(t *testing.T) (*page, []byte) {
	t.Helper()
	dir := t.TempDir()
	allow := browser.SetDownloadBehavior(browser.SetDownloadBehaviorBehaviorAllow).WithDownloadPath(dir).WithEventsEnabled(true)
	p := open(t, "#data=Iris", allow)
	p.click("train")
	p.waitResult("converged", 60*time.Second)
	return p, p.downloaded(dir, "export-run", "rml-iris-run.json")
}

// A large saved run (a 21 MB file: a long Δ_t history) is read a piece
// at a time: the page says how far it has got, Stop drops it and leaves
// the result shown as it was; read to the end, it opens.
func TestLargeRunFile(t *testing.T) {
	p, run := irisRun(t)
	shown := p.shownRun()
	file := writeCSV(t, "big-run.json", padTrace(t, run, 550_000))

	p.upload(file)
	p.poll(`(document.querySelector('[data-testid="load-note"]') || {}).textContent?.startsWith('Opening big-run.json') &&
		!document.querySelector('[data-testid="stop"]').disabled`, 30*time.Second)
	p.click("stop")
	p.poll(drawnAll+` && (document.querySelector('[data-testid="message"]') || {}).textContent === 'Stopped opening big-run.json; nothing changed.'`, 10*time.Second)
	if p.shownRun() != shown || p.text("status") != "converged" || p.text("load-note") != "" {
		t.Errorf("after Stop: run %d shown (was %d), status %q, note %q", p.shownRun(), shown, p.text("status"), p.text("load-note"))
	}

	var long []int
	p.eval(`window.__long = []; new PerformanceObserver((l) => { for (const e of l.getEntries()) window.__long.push(Math.round(e.duration)); }).observe({type: 'longtask'}); true`, new(bool))
	p.upload(file)
	p.poll(`(document.querySelector('[data-testid="message"]') || {}).textContent?.startsWith('Opened the saved run') === true`, 120*time.Second)
	p.waitResult("converged", 30*time.Second)
	p.eval(`window.__long`, &long)
	t.Logf("opening the 21 MB run: tasks over 50 ms %v", long)
	if p.shownRun() == shown {
		t.Error("the saved run read to the end is not shown")
	}
}

// A large CSV (20,000 rows) is read in the worker, which takes Stop (or
// another dataset) while it reads: the data before it stays, and the
// dataset chosen meanwhile is the one loaded.
func TestLargeCSVStop(t *testing.T) {
	p := open(t, "#data=Iris")
	file := writeCSV(t, "big.csv", bigcsv.CSV(20000, 50, 5, 10))
	reading := `(document.querySelector('[data-testid="load-note"]') || {}).textContent?.startsWith('Reading big.csv') === true &&
		!document.querySelector('[data-testid="stop"]').disabled`
	p.upload(file)
	p.poll(reading, 30*time.Second)
	p.click("stop")
	p.poll(drawnAll+` && (document.querySelector('[data-testid="message"]') || {}).textContent === 'Stopped reading big.csv. Iris stays loaded.'`, 10*time.Second)
	p.waitTrainEnabled()
	var chosen string
	p.eval(`document.querySelector('[data-testid="dataset-select"]').value`, &chosen)
	if chosen != "Iris" {
		t.Errorf("after Stop the dataset is %q, want Iris", chosen)
	}
	p.click("train")
	p.waitResult("converged", 60*time.Second)

	p.upload(file)
	p.poll(reading, 30*time.Second)
	p.set("dataset-select", "Wine")
	p.poll(drawnAll+` && (document.querySelector('[data-testid="summary"]') || {}).textContent?.startsWith('Wine: 178 rows') === true`, 30*time.Second)
	p.waitTrainEnabled()
	p.click("train")
	p.waitResult("converged", 60*time.Second)
	if s := p.text("summary"); !strings.HasPrefix(s, "Wine") {
		t.Errorf("after training, the summary says %q", s)
	}
}

// A saved run edited by hand so that its histograms are one bar too long
// (the page indexed past its bars and its Go program died) is refused
// with the reason, and the page goes on: the result shown stays and
// trains again.
func TestCraftedRunFile(t *testing.T) {
	p, saved := irisRun(t)
	run := string(saved)
	for _, key := range []string{"marginHist", "qHist"} {
		re := regexp.MustCompile(`"` + key + `": \[`)
		crafted := re.ReplaceAllLiteralString(run, `"`+key+`": [1, `)
		if crafted == run {
			t.Fatalf("the saved run has no %q", key)
		}
		p.upload(writeCSV(t, key+".json", crafted))
		p.poll(drawnAll+` && (document.querySelector('[data-testid="message"]') || {}).textContent?.startsWith('`+key+`.json could not be opened') === true`, 10*time.Second)
		if m := p.text("message"); !strings.Contains(m, "histogram") && !strings.Contains(m, key) {
			t.Errorf("%s: message %q does not say what is wrong", key, m)
		}
		shown := p.shownRun()
		p.click("train")
		p.waitAfter(shown, "converged", 60*time.Second)
	}
}
