package e2e

import (
	"math/rand/v2"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/chromedp/chromedp"
	"github.com/chromedp/chromedp/kb"

	"github.com/rml-lab/rml/ui/ask"
)

// askReady says the Ask-me panel's items are loaded: answers count.
const askReady = `document.querySelector('[data-testid="ask-panel"]')?.dataset.ready === "true"`

// Ask me, driven from the keyboard by a simulated respondent that answers
// by CIEDE2000 and errs one time in ten (its own seeded generator, not the
// page's), then 140 by the page's own: after 200 answers the learned
// metric agrees with the held-out answers more often than Euclid's
// distance does, the error rate and η
// from it are shown, a reload (the address says ask=colours) keeps the
// answers, two saved files dropped together merge, and axe finds nothing.
func TestAskMe(t *testing.T) {
	p := open(t, "#data=Iris")
	p.waitTrainEnabled()
	p.click("ask")
	p.poll(askReady, 30*time.Second)
	it := ask.Colours(1, ask.DefaultItems) // the page's seed is 1
	rng := rand.New(rand.NewPCG(45, 45))
	p.run(chromedp.Focus(`[data-testid="ask-question"]`, chromedp.ByQuery))
	for n := 1; n <= 60; n++ {
		var items string
		p.eval(`document.querySelector('[data-testid="ask-question"]').dataset.items`, &items)
		var q [3]int
		for i, f := range strings.Split(items, ",") {
			q[i], _ = strconv.Atoi(f)
		}
		key := kb.ArrowLeft
		if it.Reference(q[0], q[2]) < it.Reference(q[0], q[1]) {
			key = kb.ArrowRight
		}
		if rng.Float64() < 0.1 {
			key = map[string]string{kb.ArrowLeft: kb.ArrowRight, kb.ArrowRight: kb.ArrowLeft}[key]
		}
		p.run(chromedp.KeyEvent(key))
		p.poll(`document.querySelector('[data-testid="ask-question"]').dataset.n === "`+strconv.Itoa(n+1)+`"`, 10*time.Second)
	}
	// 140 more by the page's own simulated respondent (CIEDE2000, wrong
	// one time in ten): about 40 questions held out in all.
	for n := 81; n <= 201; n += 20 {
		p.click("ask-simulate")
		p.poll(`document.querySelector('[data-testid="ask-question"]').dataset.n === "`+strconv.Itoa(n)+`"`, 10*time.Second)
	}
	// Every training answer learned from, the last run ended.
	p.poll(`(() => { const a = document.querySelector('[data-testid="ask-agreement"]').dataset;
		return a.learned !== "" && document.querySelector('[data-testid="status"]').textContent !== "running" })()`, 30*time.Second)
	var agree struct{ Learned, Euclid, Trained string }
	p.eval(`({...document.querySelector('[data-testid="ask-agreement"]').dataset})`, &agree)
	learned, _ := strconv.ParseFloat(agree.Learned, 64)
	euclid, _ := strconv.ParseFloat(agree.Euclid, 64)
	if !(learned > euclid) {
		t.Errorf("after 200 answers the learned metric agrees with %v of the held-out answers, Euclid with %v: %q", learned, euclid, p.text("ask-agreement"))
	}
	if r := p.text("ask-error-rate"); !strings.Contains(r, "your error rate is about") {
		t.Errorf("error rate: %q", r)
	}
	t.Logf("%s | %s | %s", p.text("ask-agreement"), p.text("ask-weighs"), p.text("ask-error-rate"))
	p.finite()
	p.axe()
	p.screenshot("ask-me.png")

	// A reload opens the mode again with the same answers.
	p.run(chromedp.Reload())
	p.poll(askReady+` && document.querySelector('[data-testid="ask-question"]').dataset.n === "201"`, 30*time.Second)

	// Two saved files dropped together: both counted, each with its rate.
	var files []string
	for i, rate := range []float64{0, 0.3} {
		a := &ask.Asker{Items: it}
		r := ask.NewRespondent(it.Reference, rate, uint64(i+1))
		for range 50 {
			q := a.Next(nil)
			a.Answers = append(a.Answers, ask.Answer{Question: q, Choice: r.Answer(q)})
		}
		files = append(files, writeCSV(t, "student"+strconv.Itoa(i+1)+".csv", ask.FileText(it, "student "+strconv.Itoa(i+1), a.All())))
	}
	p.run(chromedp.SetUploadFiles(`[data-testid="ask-files"]`, files, chromedp.ByQuery))
	p.poll(`document.querySelectorAll('[data-testid="ask-class"] li').length === 2`, 30*time.Second)
	if c := p.text("ask-class"); !strings.Contains(c, "student1.csv (student 1): 50 answers") {
		t.Errorf("the class: %q", c)
	}

	// The shapes: glyphs with their words, learned from as the colours.
	p.set("ask-set", "shapes")
	p.poll(askReady+` && !!document.querySelector('[data-testid="ask-anchor"] polygon')`, 30*time.Second)
	p.click("ask-simulate")
	p.poll(`document.querySelector('[data-testid="ask-question"]').dataset.n === "21"`, 10*time.Second)
	if a := p.text("ask-anchor"); !strings.Contains(a, "outline") {
		t.Errorf("the shape in the middle says %q", a)
	}
	// A weighting chosen for the respondent: the panel names it.
	p.eval(`document.querySelector('[data-testid="ask-panel"] details').open = true`, new(bool))
	p.set("ask-weight-1", "4")
	p.poll(`document.querySelector('[data-testid="ask-agreement"]').textContent.includes('the weighting you chose')`, 10*time.Second)
	p.axe()
}

// Ask me about the rows of the data loaded: stars with their words, the
// stage without a test error while in it, and the test error back once
// left.
func TestAskData(t *testing.T) {
	p := open(t, "#data=Iris")
	p.waitTrainEnabled()
	p.click("ask-data")
	p.poll(askReady+` && !!document.querySelector('[data-testid="ask-anchor"] polygon')`, 30*time.Second)
	if a := p.text("ask-anchor"); !strings.HasPrefix(a, "row ") {
		t.Errorf("the row in the middle says %q", a)
	}
	p.click("ask-simulate")
	p.poll(`document.querySelector('[data-testid="ask-question"]').dataset.n === "21"`, 10*time.Second)
	p.poll(`document.querySelector('[data-testid="ask-agreement"]').dataset.learned !== ""`, 30*time.Second)
	if e := p.text("error-learned"); !strings.Contains(e, "no rows held out") {
		t.Errorf("in Ask me the learned error reads %q", e)
	}
	p.finite()
	p.axe()
	p.click("ask-close")
	p.poll(`!document.querySelector('[data-testid="ask-panel"]') && /%/.test(document.querySelector('[data-testid="error-euclid"]').textContent)`, 30*time.Second)
}

// Ask me on a phone (320 px, opened by its link): nothing wider than the
// screen, every control a touch target of at least 24×24 CSS px (WCAG
// 2.2, 2.5.8), and axe finds nothing.
func TestAskSmallScreen(t *testing.T) {
	const w = 320
	p := open(t, "#ask=colours", chromedp.EmulateViewport(w, 800))
	p.poll(askReady, 30*time.Second)
	var wide float64
	p.eval(`document.documentElement.scrollWidth`, &wide)
	if wide > w {
		t.Errorf("the page is %v px wide on a %d px screen", wide, w)
	}
	if tiny := p.tinyTargets(".ask"); len(tiny) > 0 {
		t.Errorf("touch targets under 24×24 px: %v", tiny)
	}
	// The question comes first on a phone, before the views it changes.
	var first bool
	p.eval(`document.querySelector('[data-testid="ask-question"]').getBoundingClientRect().top < document.querySelector('.stage .projection').getBoundingClientRect().top`, &first)
	if !first {
		t.Error("on a phone the question is below the views")
	}
	p.axe()
	var shot []byte
	p.run(chromedp.CaptureScreenshot(&shot))
	if err := os.WriteFile(filepath.Join(outDir, "ask-small-screen.png"), shot, 0o644); err != nil {
		t.Fatal(err)
	}
}
