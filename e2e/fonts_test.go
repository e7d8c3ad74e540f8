package e2e

import (
	"encoding/json"
	"slices"
	"strings"
	"testing"
	"time"
)

// fontsJS lists the font size (in screen pixels: an SVG text's size times
// its scale on the screen, as Chromium lays it out), weight, style and
// family of every text drawn on the page, each with the first place it
// was seen.
const fontsJS = `(() => {
	const m = {}; const w = document.createTreeWalker(document.body, NodeFilter.SHOW_TEXT); let n;
	while ((n = w.nextNode())) {
		if (!n.textContent.trim()) continue;
		const el = n.parentElement, cs = getComputedStyle(el);
		if (!el.getBoundingClientRect().width || cs.visibility === 'hidden') continue;
		let fs = parseFloat(cs.fontSize);
		if (el instanceof SVGElement) { const c = el.getScreenCTM(); fs *= Math.sqrt((c.a*c.a + c.d*c.d) / 2) }
		const k = fs.toFixed(2) + 'px ' + cs.fontWeight + ' ' + cs.fontStyle + ' ' + cs.fontFamily;
		if (!m[k]) { const at = el.closest('[data-testid]'); m[k] = (at ? at.dataset.testid : el.tagName) + ': ' + n.textContent.trim().slice(0, 20) }
	}
	return JSON.stringify(m) })()`

// TestNoNewFontStrikes checks that Compare and the sweeps draw their text
// in sizes and weights the page has already drawn once it is ready: a new
// one makes Chromium on Linux ask the browser process for the font strike's
// render style, a long stall of the first Compare's main-thread task in a
// Chromium trace, until the compare table's 0.85rem bold and 500-weight
// cells were changed to the preview's sizes.
func TestNoNewFontStrikes(t *testing.T) {
	p := open(t, "")
	fonts := func() map[string]string {
		var s string
		p.eval(fontsJS, &s)
		m := map[string]string{}
		if err := json.Unmarshal([]byte(s), &m); err != nil {
			t.Fatal(err)
		}
		return m
	}
	p.noiseLesson()
	ready := fonts()
	if len(ready) < 5 {
		t.Fatalf("only %d fonts found on the ready page: %v", len(ready), ready)
	}
	p.click("compare")
	p.waitRuns(compareCount, compareRuns, 2*time.Minute)
	p.sweepEta()
	p.click("flip-sweep")
	p.waitRuns(sweepCount, noiseSweepRuns, 3*time.Minute)
	var fresh []string
	for k, where := range fonts() {
		if _, ok := ready[k]; !ok {
			fresh = append(fresh, k+" ("+where+")")
		}
	}
	slices.Sort(fresh)
	if len(fresh) > 0 {
		t.Errorf("text in a font size or weight the ready page had not drawn:\n%s", strings.Join(fresh, "\n"))
	}
}
