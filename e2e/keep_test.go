package e2e

import (
	"net/url"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/chromedp/chromedp"
)

// originOf is the origin (scheme and host) of address u.
func originOf(u string) string {
	p, err := url.Parse(u)
	if err != nil {
		return u
	}
	return p.Scheme + "://" + p.Host
}

// kept is a JavaScript expression, true once the browser's storage holds
// a session of this tab's address that satisfies cond (an expression of
// s, the parsed session, and r, the record).
func kept(cond string) string {
	return `new Promise((ok) => { const o = indexedDB.open('rml'); o.onerror = () => ok(false);
		o.onsuccess = () => { const d = o.result; if (!d.objectStoreNames.contains('sessions')) { ok(false); return; }
			const g = d.transaction('sessions').objectStore('sessions').getAll();
			g.onsuccess = () => ok(g.result.some((r) => { const s = JSON.parse(r.session); return r.hash === location.hash && (` + cond + `); }));
			g.onerror = () => ok(false); }; })`
}

// Nothing lost on a reload: a file uploaded, trained, pinned and trained
// again at another λ comes back after a reload as it was (the file, the
// settings, the result drawn to the same coordinates, the pinned run),
// with a notice that offers to start afresh; Start fresh opens the first
// lesson.
func TestReloadKeepsWork(t *testing.T) {
	p := open(t, "")
	var b strings.Builder
	b.WriteString("height,width,kind\n")
	for i := 0; i < 40; i++ {
		b.WriteString(strconv.Itoa(10+i%2*6+i%5) + "," + strconv.Itoa(3+i%7) + "," + []string{"cat", "dog"}[i%2] + "\n")
	}
	p.uploadLoaded("kept.csv", b.String())
	p.set("lambda", "4")
	p.click("train")
	p.waitResult("converged", 60*time.Second)
	p.click("pin")
	first := p.shownRun()
	p.set("lambda", "2") // trains again from the result
	p.waitAfter(first, "converged", 60*time.Second)
	const learned = `document.querySelector('[data-testid="heatmap-table"]').textContent + document.querySelector('[data-testid="eigenvalues"]').textContent`
	var before, after string
	p.eval(learned, &before)
	p.poll(kept(`s.pinned.length === 1 && s.run !== null && s.link.includes('lambda=2') && r.csv.includes('height,width,kind')`), 10*time.Second)

	p.run(chromedp.Reload())
	p.poll(`(document.querySelector('[data-testid="message"]') || {}).textContent?.includes('Restored your work')`, 30*time.Second)
	p.waitTrainEnabled()
	if m := p.text("message"); !strings.Contains(m, "kept.csv, its last result, 1 pinned run") {
		t.Errorf("message %q", m)
	}
	var file, lambda, runs string
	p.eval(`document.querySelector('[data-testid="dataset-select"]').selectedOptions[0].textContent`, &file)
	p.eval(`document.querySelector('[data-testid="lambda"]').value`, &lambda)
	p.eval(`document.querySelector('[data-testid="compare-table"]').dataset.runs || ''`, &runs)
	if !strings.Contains(file, "kept.csv") || lambda != "2" || runs != "1" {
		t.Errorf("after the reload: dataset %q, λ %q, %q pinned runs; want kept.csv, 2, 1", file, lambda, runs)
	}
	if s := p.text("status"); s != "converged" {
		t.Errorf("status %q after the reload, want the kept run's converged", s)
	}
	p.eval(learned, &after)
	if after != before {
		t.Errorf("the learned view after the reload differs from before it:\n%.300s\n%.300s", before, after)
	}

	p.click("start-fresh")
	p.poll(`!document.querySelector('[data-testid="dataset-select"]').selectedOptions[0].textContent.includes('kept.csv')`, 30*time.Second)
	p.waitResult("converged", 60*time.Second)
	p.poll(drawnAll+` && !document.querySelector('[data-testid="compare-table"]').dataset.runs`, 10*time.Second)
}
