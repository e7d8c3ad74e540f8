package e2e

import (
	"encoding/csv"
	"encoding/json"
	"encoding/xml"
	"image/png"
	"math"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/chromedp/cdproto/browser"

	"github.com/rml-lab/rml/ui/draw"
)

// downloaded clicks an export button and returns the file it saved.
func (p *page) downloaded(dir, testid, name string) []byte {
	p.t.Helper()
	p.click(testid)
	path := filepath.Join(dir, name)
	deadline := time.Now().Add(10 * time.Second)
	for {
		if b, err := os.ReadFile(path); err == nil && len(b) > 0 {
			return b
		}
		if time.Now().After(deadline) {
			entries, _ := os.ReadDir(dir)
			p.t.Fatalf("%s: no %s in the downloads (%v)", testid, name, entries)
		}
		time.Sleep(50 * time.Millisecond)
	}
}

// Every download is read back and checked against what the page shows;
// the saved run, opened in a fresh page, shows the same result.
func TestExports(t *testing.T) {
	dir := t.TempDir()
	allow := browser.SetDownloadBehavior(browser.SetDownloadBehaviorBehaviorAllow).WithDownloadPath(dir).WithEventsEnabled(true)
	p := open(t, "#data=Wine&flip=0.1&eta=0.9&lambda=4&seed=3", allow)
	p.click("train")
	p.waitResult("converged", 60*time.Second)

	// A: the heat map's table lists the same entries, rounded to at least
	// 3 significant digits (draw.Num); the features are the page's.
	rows, err := csv.NewReader(strings.NewReader(string(p.downloaded(dir, "export-matrix", "rml-wine-A.csv")))).ReadAll()
	if err != nil {
		t.Fatal(err)
	}
	if len(rows) != 14 || len(rows[0]) != 14 || rows[0][0] != "feature" {
		t.Fatalf("A.csv: %d rows, header %q", len(rows), rows[0])
	}
	index := map[string]int{}
	for j, f := range rows[0][1:] {
		index[f] = j
	}
	var shown [][]string
	// The table's rows are built when it is opened.
	p.eval(`document.querySelector('[data-testid="heatmap-table"]').open = true`, new(bool))
	p.poll(`document.querySelectorAll('[data-testid="heatmap-table"] tr').length > 1`, 10*time.Second)
	p.eval(`[...document.querySelectorAll('[data-testid="heatmap-table"] tr')].slice(1).map((r) => [...r.children].map((c) => c.textContent))`, &shown)
	if len(shown) < 20 {
		t.Fatalf("%d entries in the heat map's table", len(shown))
	}
	for _, e := range shown {
		i, ok1 := index[e[0]]
		j, ok2 := index[e[1]]
		want, err1 := strconv.ParseFloat(e[2], 64)
		if !ok1 || !ok2 || err1 != nil {
			t.Fatalf("table entry %q: features not in A.csv's header %q", e, rows[0])
		}
		got := mustFloat(t, rows[i+1][j+1])
		if d := got - want; math.Abs(d) > 5e-3*math.Abs(got) || got != mustFloat(t, rows[j+1][i+1]) {
			t.Errorf("A[%s][%s]: file %v, page %q", e[0], e[1], got, e[2])
		}
	}

	// The run: its errors, iterations and eigenvalues are the page's.
	raw := p.downloaded(dir, "export-run", "rml-wine-run.json")
	var run struct {
		Format, Link, Status string
		Iterations           int
		Dataset              struct{ Name, SHA256 string }
		TestError            struct{ Euclidean, Learned float64 }
		Eigenvalues          []float64
		Trace                struct{ Iters, Gaps []float64 }
		A                    [][]float64
	}
	if err := json.Unmarshal(raw, &run); err != nil {
		t.Fatal(err)
	}
	if run.Format != "rml-run" || run.Dataset.Name != "Wine" || len(run.Dataset.SHA256) != 64 || !strings.Contains(run.Link, "eta=0.9") || !strings.Contains(run.Link, "seed=3") {
		t.Errorf("run: %+v", run)
	}
	if draw.Percent(run.TestError.Learned) != p.text("error-learned") || draw.Percent(run.TestError.Euclidean) != p.text("error-euclid") ||
		strconv.Itoa(run.Iterations) != p.text("iteration") || len(run.Trace.Iters) != len(run.Trace.Gaps) || len(run.Trace.Iters) == 0 {
		t.Errorf("run errors %v, %d iterations (%d traced); page %s, %s, %s", run.TestError, run.Iterations, len(run.Trace.Iters),
			p.text("error-learned"), p.text("error-euclid"), p.text("iteration"))
	}
	if len(run.A) != 13 || run.A[2][2] != mustFloat(t, rows[3][3]) {
		t.Errorf("run's A differs from A.csv")
	}

	// The projection: one row per data row; the held-out count is the page's.
	prows, err := csv.NewReader(strings.NewReader(string(p.downloaded(dir, "export-projection", "rml-wine-projection.csv")))).ReadAll()
	if err != nil {
		t.Fatal(err)
	}
	held := 0
	for _, r := range prows[1:] {
		if r[2] == "test" {
			held++
		}
	}
	if len(prows) != 179 || !strings.Contains(p.text("projection-summary"), strconv.Itoa(held)+" of them held out") {
		t.Errorf("%d projection rows, %d held out; page: %q", len(prows)-1, held, p.text("projection-summary"))
	}

	// The figures: well-formed SVG, styled without the page's CSS (no
	// class left), with their paths; a PNG heat map, scaled up.
	for _, f := range []struct{ testid, name string }{{"export-figure", "rml-wine-convergence.svg"}, {"export-projection-svg", "rml-wine-projection.svg"}} {
		svg := p.downloaded(dir, f.testid, f.name)
		d := xml.NewDecoder(strings.NewReader(string(svg)))
		var paths int
		for {
			tok, err := d.Token()
			if err != nil {
				if err.Error() != "EOF" {
					t.Errorf("%s: not XML: %v", f.name, err)
				}
				break
			}
			if se, ok := tok.(xml.StartElement); ok && se.Name.Local == "path" {
				paths++
			}
		}
		if !strings.Contains(string(svg), `xmlns="http://www.w3.org/2000/svg"`) || paths == 0 || strings.Contains(string(svg), ` class="`) {
			t.Errorf("%s: %d paths, %d bytes", f.name, paths, len(svg))
		}
	}
	img, err := png.Decode(strings.NewReader(string(p.downloaded(dir, "export-heatmap", "rml-wine-A.png"))))
	if err != nil || img.Bounds().Dx() < 256 {
		t.Errorf("heat map PNG: %v %v", err, img)
	}

	// The saved run, opened in a fresh page (on Iris), shows the run again
	// (p's figures read first: p is then in the background, where it draws
	// nothing, and its helper may still change its state).
	want := [2]string{p.text("error-learned"), p.text("iteration")}
	q := open(t, "")
	q.upload(writeCSV(t, "rml-wine-run.json", string(raw)))
	q.waitResult("converged", 30*time.Second)
	q.poll(`document.querySelector('[data-testid="dataset-select"]').value === "Wine"`, 10*time.Second)
	var eta string
	q.eval(`document.querySelector('[data-testid="eta"]').value`, &eta)
	if q.text("error-learned") != want[0] || q.text("iteration") != want[1] || eta != "0.9" ||
		!strings.Contains(q.text("message"), "Opened the saved run") {
		t.Errorf("reopened: error %s, t %s, η %s, message %q", q.text("error-learned"), q.text("iteration"), eta, q.text("message"))
	}
}

func mustFloat(t *testing.T, s string) float64 {
	t.Helper()
	v, err := strconv.ParseFloat(s, 64)
	if err != nil {
		t.Fatal(err)
	}
	return v
}
