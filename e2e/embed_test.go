package e2e

import (
	"encoding/json"
	"fmt"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"
	"time"

	"github.com/chromedp/cdproto/browser"
	"github.com/chromedp/cdproto/cdp"
	"github.com/chromedp/chromedp"
)

// A course page on another origin (a second loopback port) embeds the
// widget with embed=1&autorun=1&hide=…, as the README shows: the widget
// trains by itself, the hidden panels and controls are not in it, the
// results come before the folded settings, and the parent receives the
// widget's height and sizes the frame with it.
func TestEmbed(t *testing.T) {
	origin := strings.TrimSuffix(baseURL, "/")
	src := baseURL + "#data=Wine&embed=1&autorun=1&hide=lesson,guide,params,upload,noise"
	course := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "text/html; charset=utf-8")
		// The README's snippet, with the widget's origin.
		fmt.Fprintf(w, `<!doctype html><html lang="en"><title>Week 5: metrics</title><h1>Week 5</h1>
<iframe id="rml" src="%s" title="Robust metric learning" width="760" height="300" style="border:0"></iframe>
<script>
window.heights = [];
addEventListener('message', (e) => {
  if (e.origin !== %q || !e.data || e.data.type !== 'rml-height') return;
  window.heights.push(e.data.height);
  document.getElementById('rml').style.height = e.data.height + 'px';
});
</script>`, src, origin)
	}))
	defer course.Close()
	if strings.HasPrefix(course.URL, origin) {
		t.Fatalf("the course page %s is on the widget's origin", course.URL)
	}
	p := newTab(t)
	p.navigate(course.URL)
	var frames []*cdp.Node
	p.run(chromedp.Nodes("iframe#rml", &frames, chromedp.ByQuery))
	inFrame := func(expr string, timeout time.Duration) string {
		t.Helper()
		var out string
		if err := chromedp.Run(p.ctx, chromedp.Poll(expr, &out, chromedp.WithPollingInFrame(frames[0]),
			chromedp.WithPollingTimeout(timeout), chromedp.WithPollingInterval(20*time.Millisecond))); err != nil {
			t.Fatalf("in the widget, waiting for %s: %v", expr, err)
		}
		return out
	}
	// It trains by itself (autorun) and shows a result.
	inFrame(`(() => { const s = document.querySelector('[data-testid="status"]');
		return s && s.textContent === "converged" && s.dataset.run === s.dataset.shown && s.dataset.run !== "0" ? "yes" : "" })()`, 60*time.Second)
	var got struct {
		Hidden   []string
		Present  []string
		Order    bool
		Folded   bool
		Embedded bool
		Error    string
	}
	raw := inFrame(`JSON.stringify((() => {
		const q = (sel) => document.querySelector(sel);
		const hidden = ['.panel.lesson', '.panel.guide', '.panel.params', '[data-testid="csv-input"]', '[data-testid="flip"]', '[data-testid="eta"]', '[data-testid="train"]'].filter((s) => q(s));
		const present = ['.panel.chart', '.panel.projection', '.panel.result', '.panel.data', '.panel.side', '[data-testid="dataset-select"]', '[data-testid="copy-link"]', '[data-testid="copy-embed"]'].filter((s) => !q(s));
		const views = q('.views'), fold = q('details[data-testid="settings"]');
		return {Hidden: hidden, Present: present, Embedded: document.body.classList.contains('embed'),
			Order: !!views && !!fold && !!(views.compareDocumentPosition(fold) & Node.DOCUMENT_POSITION_FOLLOWING),
			Folded: !!fold && !fold.open && !!fold.querySelector('.panel.data'),
			Error: q('[data-testid="error-learned"]') ? q('[data-testid="error-learned"]').textContent : ''};
	})())`, 5*time.Second)
	if err := json.Unmarshal([]byte(raw), &got); err != nil {
		t.Fatal(err)
	}
	if len(got.Hidden) > 0 {
		t.Errorf("hidden yet in the widget: %v", got.Hidden)
	}
	if len(got.Present) > 0 {
		t.Errorf("not hidden yet missing: %v", got.Present)
	}
	if !got.Embedded || !got.Order || !got.Folded {
		t.Errorf("embed layout: %+v", got)
	}
	if !strings.HasSuffix(strings.TrimSpace(got.Error), "%") {
		t.Errorf("learned error %q", got.Error)
	}
	// The parent heard the height and sized the frame with it: once the
	// layout settles, the last height posted is the widget's document
	// height and the frame's.
	var heard struct {
		Heights []int
		Frame   float64
	}
	var doc string
	deadline := time.Now().Add(10 * time.Second)
	for {
		p.eval(`({Heights: window.heights, Frame: document.getElementById('rml').getBoundingClientRect().height})`, &heard)
		doc = inFrame(`String(Math.ceil(document.documentElement.getBoundingClientRect().height))`, 5*time.Second)
		if n := len(heard.Heights); n > 0 && fmt.Sprint(heard.Heights[n-1]) == doc && int(heard.Frame+0.5) == heard.Heights[n-1] {
			break
		}
		if time.Now().After(deadline) {
			t.Fatalf("heights %v, frame %.0f px, widget document %s px", heard.Heights, heard.Frame, doc)
		}
		time.Sleep(50 * time.Millisecond)
	}
	if last := heard.Heights[len(heard.Heights)-1]; last < 600 {
		t.Errorf("the widget says it is %d px tall", last)
	}
}

// Copy link gives the full page's link with every setting and the seed;
// Copy embed code an <iframe> of the same settings with embed=1 and
// autorun=1. Both land on the clipboard and in the box beside the buttons.
func TestShareButtons(t *testing.T) {
	origin := strings.TrimSuffix(baseURL, "/")
	p := open(t, "#data=Wine&eta=0.9&lambda=2&seed=5&hide=guide",
		browser.GrantPermissions([]browser.PermissionType{browser.PermissionTypeClipboardReadWrite, browser.PermissionTypeClipboardSanitizedWrite}).WithOrigin(origin))
	read := func(button string) (shown, clip, status string) {
		t.Helper()
		p.click(button)
		p.poll(`(() => { const b = document.querySelector('[data-testid="share-text"]'); return !!b && b.value.includes(`+fmt.Sprintf("%q", map[string]string{"copy-link": "#", "copy-embed": "<iframe"}[button])+`) })()`, 5*time.Second)
		p.eval(`document.querySelector('[data-testid="share-text"]').value`, &shown)
		p.eval(`navigator.clipboard.readText()`, &clip)
		return shown, clip, p.text("share-status")
	}
	link, clip, status := read("copy-link")
	want := baseURL + "#data=Wine&ksame=3&kdiff=3&flip=0&eta=0.9&lambda=2&method=fast&tol=1e-06&seed=5"
	if link != want || clip != link || !strings.Contains(status, "Copied") {
		t.Errorf("link %q (clipboard %q, %q), want %q", link, clip, status, want)
	}
	code, clip, _ := read("copy-embed")
	var src string
	p.eval(`new DOMParser().parseFromString(`+fmt.Sprintf("%q", code)+`, 'text/html').querySelector('iframe').getAttribute('src')`, &src)
	if src != want+"&embed=1&hide=guide&autorun=1" || clip != code || !strings.Contains(code, `width="760"`) {
		t.Errorf("embed code %q (src %q)", code, src)
	}
	// The link rebuilds the settings.
	q := open(t, strings.TrimPrefix(link, baseURL))
	var eta, lambda, seed string
	q.eval(`document.querySelector('[data-testid="eta"]').value`, &eta)
	q.eval(`document.querySelector('[data-testid="lambda"]').value`, &lambda)
	q.eval(`document.querySelector('[data-testid="seed"]').value`, &seed)
	if eta != "0.9" || lambda != "2" || seed != "5" {
		t.Errorf("the link opened with η %s, λ %s, seed %s", eta, lambda, seed)
	}
}

// Every panel but the settings can be hidden at once, and a run still
// trains and reports: a hidden panel is never rendered, and nothing may
// redraw it (hide=chart crashed the page at the run's first progress
// message: a Vecty Rerender of a component never rendered).
func TestHidePanels(t *testing.T) {
	p := open(t, "#data=Sonar&hide=lesson,guide,data,side,chart,projection,result,compare,sweep")
	p.clickUntil("train", "converged", 60*time.Second)
	var panels int
	p.eval(`document.querySelectorAll('section.panel').length`, &panels)
	if panels != 1 {
		t.Errorf("%d panels shown, want the settings alone", panels)
	}
}
