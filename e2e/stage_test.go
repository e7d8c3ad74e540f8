package e2e

import (
	"fmt"
	"math"
	"regexp"
	"strconv"
	"strings"
	"testing"
	"time"
)

// The learned view moves while it learns: during the first lesson's run
// the page draws it from several frames of the current metric, each turned
// to match the one before (never mirrored: a frame flipped about either
// axis would lie further from the last), while the error curve gains a
// point a frame; the run ends on its result, the curve's last point its
// learned error.
func TestLiveView(t *testing.T) {
	p := open(t, "#preset=learn")
	p.eval(`(() => { window.__frames = []; const read = () => {
			const s = document.querySelector('[data-testid="projection-learned"]');
			return s ? [...s.querySelectorAll('path.pts')].map(e => e.getAttribute('d')).join('|') : '' };
		new MutationObserver(() => {
			const d = read(), st = document.querySelector('[data-testid="status"]').textContent;
			if (d && (window.__frames.length === 0 || window.__frames[window.__frames.length - 1].d !== d)) window.__frames.push({d, st});
		}).observe(document.body, {subtree: true, attributes: true, attributeFilter: ['d'], childList: true});
		return true })()`, new(bool))
	p.click("train")
	p.waitResult("converged", 60*time.Second)
	var frames []struct{ D, St string }
	p.eval(`window.__frames`, &frames)
	var during []string
	for _, f := range frames {
		if f.St == "running" {
			during = append(during, f.D)
		}
	}
	if len(during) < 2 {
		t.Fatalf("the learned view was drawn %d times while running (%d in all): want it to move", len(during), len(frames))
	}
	points := func(d string) [][2]float64 {
		var out [][2]float64
		for _, m := range regexp.MustCompile(`M(-?[\d.]+) (-?[\d.]+)`).FindAllStringSubmatch(d, -1) {
			x, _ := strconv.ParseFloat(m[1], 64)
			y, _ := strconv.ParseFloat(m[2], 64)
			out = append(out, [2]float64{x, y})
		}
		return out
	}
	// Mean distance between two drawings' markers, the second mirrored
	// about the view's centre (300 × 280) if asked.
	apart := func(a, b [][2]float64, mx, my bool) float64 {
		var s float64
		for i := range a {
			x, y := b[i][0], b[i][1]
			if mx {
				x = 300 - x
			}
			if my {
				y = 280 - y
			}
			s += math.Hypot(a[i][0]-x, a[i][1]-y)
		}
		return s / float64(len(a))
	}
	all := append(during, frames[len(frames)-1].D)
	for k := 1; k < len(all); k++ {
		a, b := points(all[k-1]), points(all[k])
		if len(a) != 600 || len(b) != 600 {
			t.Fatalf("frame %d has %d markers, the one before %d: want 600", k, len(b), len(a))
		}
		if d := apart(a, b, false, false); d > apart(a, b, true, false) || d > apart(a, b, false, true) {
			t.Errorf("frame %d lies %.1f px from the one before, a mirror of it nearer: the view flipped", k, d)
		}
	}
	var pts int
	p.eval(`+document.querySelector('[data-testid="error-chart"]').dataset.points`, &pts)
	if pts < len(during) {
		t.Errorf("the error curve has %d points for %d frames", pts, len(during))
	}
	var lastY, euclidY float64
	p.eval(`(() => { const d = document.querySelector('[data-testid="error-chart"] path.pts').getAttribute('d').match(/M(-?[\d.]+) (-?[\d.]+)/g); return +d[d.length - 1].split(' ')[1] })()`, &lastY)
	p.eval(`+document.querySelector('[data-testid="error-chart"] path.series').getAttribute('d').split(' ')[1].split('h')[0]`, &euclidY)
	if l := p.text("error-learned"); l != "0.0%" || !(lastY > euclidY) {
		t.Errorf("the run ends on %s, its curve's last point at y = %.1f, Euclid's line at %.1f (the learned error is the lower)", l, lastY, euclidY)
	}
}

// Every link runs: a lesson's link trains at once; a fragment changed in
// the same tab applies without a reload and trains; autorun=0 waits.
func TestLinksRun(t *testing.T) {
	p := open(t, "#preset=noise&autorun=1")
	p.waitResult("converged", 60*time.Second)
	if d := p.text("dataset-select"); !strings.Contains(d, "Wine") {
		t.Errorf("the noise lesson's link opened on %q", d)
	}
	run := p.shownRun()
	p.eval(`location.hash = '#preset=eta', true`, new(bool))
	p.waitAfter(run, "converged", 60*time.Second)
	var preset, dataset string
	p.eval(`document.querySelector('[data-testid="preset"]').value`, &preset)
	p.eval(`document.querySelector('[data-testid="dataset-select"]').value`, &dataset)
	if preset != "eta" || dataset != "Iris" {
		t.Errorf("after the hash changed to the η lesson: lesson %q, dataset %q", preset, dataset)
	}
	run = p.shownRun()
	p.eval(`location.hash = '#data=Wine&eta=0.9&autorun=0', true`, new(bool))
	p.poll(`document.querySelector('[data-testid="dataset-select"]').value === "Wine" && document.querySelector('[data-testid="status"]').textContent === "idle"`, 30*time.Second)
	var eta string
	p.eval(`document.querySelector('[data-testid="eta"]').value`, &eta)
	if eta != "0.9" || p.shownRun() != run {
		t.Errorf("autorun=0: η %s, run shown %d (was %d): want it waiting", eta, p.shownRun(), run)
	}
}

// penguinsCSV is a file as people bring it: an id, the species (the
// label), the island, measurements with NA holes, the sex, and the body
// mass last (numbers with many values, not a label).
func penguinsCSV() string {
	var b strings.Builder
	b.WriteString("id,species,island,bill_length_mm,bill_depth_mm,flipper_length_mm,sex,body_mass_g\n")
	for i := range 90 {
		sp := i % 3
		bill := fmt.Sprintf("%.1f", 38+6*float64(sp)+float64(i%7)*0.4)
		if i%17 == 5 {
			bill = "NA"
		}
		fmt.Fprintf(&b, "P%03d,%s,%s,%s,%.1f,%d,%s,%d\n", i+1, []string{"Adelie", "Gentoo", "Chinstrap"}[sp], []string{"Torgersen", "Biscoe", "Dream"}[i%3],
			bill, 18-2*float64(sp)+float64(i%5)*0.3, 190+10*sp+i%9, []string{"male", "female"}[i%2], 3400+400*sp+13*(i%11))
	}
	return b.String()
}

// A penguins file: the label is the species, not the mass; the rows with
// NA are dropped and counted beside the file, and it trains; a triplet
// file by id naming a dropped row leaves that triplet out and says so.
func TestPenguins(t *testing.T) {
	p := open(t, "")
	p.uploadLoaded("penguins.csv", penguinsCSV())
	var label string
	p.eval(`document.querySelector('[data-testid="label-select"]').value`, &label)
	if label != "species" {
		t.Errorf("the label guessed is %q, want species", label)
	}
	if m := p.text("message"); !strings.Contains(m, `the label is the column "species"`) || !strings.Contains(m, "5 rows with missing values were dropped") {
		t.Errorf("notice %q", m)
	}
	p.run(clickQuery(`[data-testid="columns"] summary`))
	p.poll(`!!document.querySelector('[data-testid="role-0"]')`, 5*time.Second)
	p.set("role-0", "id")
	p.poll(`document.querySelector('[data-testid="triplets-by"]').textContent.includes("“id”")`, 10*time.Second)
	p.waitTrainEnabled()
	// P006 was dropped (its bill length is NA): two triplets name it.
	var tr strings.Builder
	tr.WriteString("anchor,similar,dissimilar\n")
	for i := 1; i <= 60; i++ {
		fmt.Fprintf(&tr, "P%03d,P%03d,P%03d\n", i, i+3, i+1)
	}
	p.set("triplets-by", "id")
	p.run(uploadQuery(`[data-testid="triplets-input"]`, writeCSV(t, "answers.csv", tr.String())))
	p.poll(`document.querySelector('[data-testid="triplet-source"]').value === "file"`, 10*time.Second)
	if m := p.text("message"); !strings.Contains(m, "answers.csv: ") || !strings.Contains(m, "name a row dropped for a missing value and are left out") {
		t.Errorf("triplets notice %q", m)
	}
	p.waitTrainEnabled()
	run := p.shownRun()
	p.click("train")
	p.poll(`(() => { const s = document.querySelector('[data-testid="status"]');
		return (s.textContent === "converged" || s.textContent === "collapsed") && +s.dataset.shown > `+strconv.Itoa(run)+` })()`, 60*time.Second)
	for _, id := range []string{"error-euclid", "error-learned", "gap-value"} {
		if v := p.text(id); v == "" || strings.Contains(v, "NaN") || strings.Contains(v, "Inf") {
			t.Errorf("%s reads %q", id, v)
		}
	}
}
