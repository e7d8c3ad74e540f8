package e2e

import (
	"fmt"
	"github.com/chromedp/cdproto/network"
	"os"
	"path/filepath"
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

// TestFigures measures what the README quotes for the page (timings are
// reported, not asserted: see DEVELOPERS.md), and writes them to
// e2e/out/figures.txt:
//   - ready: navigation to the built-in dataset loaded and Train enabled;
//   - Iris: Train to converged at the default tolerance (1e-6);
//   - Sonar: Train to a relative gap of 1e-3.
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

	var sizes []string
	for _, f := range []string{"app.wasm.gz", "worker.wasm.gz"} {
		st, err := os.Stat(filepath.Join("..", "build", f))
		if err != nil {
			t.Fatal(err)
		}
		sizes = append(sizes, fmt.Sprintf("%s %d bytes", f, st.Size()))
	}
	lines := []string{
		fmt.Sprintf("page ready (dataset loaded, Train enabled): %.0f ms after navigation", ready),
		fmt.Sprintf("Iris, fast method, to relative gap 1e-6: %.0f ms from Train to converged (%s iterations)", iris, irisIters),
		fmt.Sprintf("Sonar, fast method, to relative gap 1e-3: %.0f ms from Train to converged (%s iterations)", sonar, sonarIters),
		"wasm, gzip: " + strings.Join(sizes, ", "),
	}
	for _, l := range lines {
		t.Log(l)
	}
	if err := os.WriteFile(filepath.Join(outDir, "figures.txt"), []byte(strings.Join(lines, "\n")+"\n"), 0o644); err != nil {
		t.Fatal(err)
	}
}

// TestTeachingScreenshot saves the page after a run on the synthetic set
// with 10 % of the triplets swapped: e2e/out/trained-synthetic.png.
func TestTeachingScreenshot(t *testing.T) {
	p := open(t, "#data=Synthetic%3A+2+signal+%2B+18+noise&flip=0.1")
	p.click("train")
	p.waitResult("converged", 60*time.Second)
	el, ll := p.text("error-euclid"), p.text("error-learned")
	t.Logf("synthetic, 10%% swapped: Euclidean error %s, learned %s", el, ll)
	t.Logf("suspects: %s", p.text("suspects"))
	p.screenshot("trained-synthetic.png")
}
