package e2e

import (
	"encoding/json"
	"fmt"
	"net/http"
	"net/http/httptest"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/chromedp/cdproto/browser"
	"github.com/chromedp/cdproto/cdp"
	"github.com/chromedp/chromedp"
)

// A course page on another origin (a second loopback port) embeds the
// widget as the page's "Copy embed code" gives it, in a column 320, 500
// and 760 px wide: the widget trains by itself, the hidden controls are
// not in it, the stage comes before the fold, and the snippet's script
// sizes the frame to the widget's height: never 0, and settling on one
// height rather than swinging between two.
func TestEmbed(t *testing.T) {
	origin := strings.TrimSuffix(baseURL, "/")
	g := open(t, "#data=Wine&hide=lesson,guide,params,upload,noise",
		browser.GrantPermissions([]browser.PermissionType{browser.PermissionTypeClipboardReadWrite, browser.PermissionTypeClipboardSanitizedWrite}).WithOrigin(origin))
	g.click("copy-embed")
	g.poll(`!!document.querySelector('[data-testid="embed-code"]')`, 5*time.Second)
	var snippet string
	g.eval(`document.querySelector('[data-testid="embed-code"]').value`, &snippet)
	if !strings.Contains(snippet, `class="rml-widget"`) || !strings.Contains(snippet, "<script>") || strings.Contains(snippet, "autorun") {
		t.Fatalf("embed code %q", snippet)
	}
	for _, width := range []int{320, 500, 760} {
		t.Run(strconv.Itoa(width), func(t *testing.T) { embedAt(t, origin, snippet, width) })
	}
}

func embedAt(t *testing.T, origin, snippet string, width int) {
	course := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "text/html; charset=utf-8")
		fmt.Fprintf(w, `<!doctype html><html lang="en"><title>Week 5: metrics</title><body style="margin:0">
<script>window.heights = []; addEventListener('message', (e) => { if (e.data && e.data.type === 'rml-height') window.heights.push(e.data.height); });</script>
<h1>Week 5</h1><div style="width:%dpx">%s</div>`, width, snippet)
	}))
	defer course.Close()
	if strings.HasPrefix(course.URL, origin) {
		t.Fatalf("the course page %s is on the widget's origin", course.URL)
	}
	p := newTab(t)
	p.run(chromedp.EmulateViewport(int64(width)+40, 900))
	p.navigate(course.URL)
	var frames []*cdp.Node
	p.run(chromedp.Nodes("iframe.rml-widget", &frames, chromedp.ByQuery))
	inFrame := func(expr string, timeout time.Duration) string {
		t.Helper()
		var out string
		for tries := 0; ; tries++ {
			err := chromedp.Run(p.ctx, chromedp.Poll(expr, &out, chromedp.WithPollingInFrame(frames[0]),
				chromedp.WithPollingTimeout(timeout), chromedp.WithPollingInterval(20*time.Millisecond)))
			if err != nil && strings.Contains(err.Error(), "executionContextId") && tries < 50 {
				// The frame's document has no context to run in yet.
				time.Sleep(100 * time.Millisecond)
				continue
			}
			if err != nil {
				t.Fatalf("in the widget, waiting for %s: %v", expr, err)
			}
			return out
		}
	}
	// It trains by itself and shows a result.
	inFrame(`(() => { const s = document.querySelector('[data-testid="status"]');
		return s && s.textContent === "converged" && s.dataset.run === s.dataset.shown && s.dataset.run !== "0" ? "yes" : "" })()`, 60*time.Second)
	var during int // heights posted while the page was starting and training
	p.eval(`window.heights.length`, &during)
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
		const hidden = ['[data-testid="preset"]', '.panel.guide', '.panel.params', '[data-testid="csv-input"]', '[data-testid="flip"]', '[data-testid="method"]'].filter((s) => q(s));
		const present = ['[data-testid="stage"]', '[data-testid="gap-chart"]', '[data-testid="error-chart"]', '[data-testid="projection-learned"]', '.panel.result', '.panel.data', '.panel.side',
			'[data-testid="dataset-select"]', '[data-testid="eta"]', '[data-testid="train"]', '[data-testid="copy-link"]'].filter((s) => !q(s));
		const stage = q('[data-testid="stage"]'), fold = q('details[data-testid="settings"]');
		return {Hidden: hidden, Present: present, Embedded: document.body.classList.contains('embed'),
			Order: !!stage && !!fold && !!(stage.compareDocumentPosition(fold) & Node.DOCUMENT_POSITION_FOLLOWING),
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
	// The snippet's script sized the frame: once the layout settles, the
	// last height posted is the widget's document height and the frame's,
	// and it stays so.
	var heard struct {
		Heights []int
		Frame   float64
	}
	var doc string
	deadline := time.Now().Add(10 * time.Second)
	settled := 0
	for settled < 10 {
		p.eval(`({Heights: window.heights, Frame: document.querySelector('iframe.rml-widget').getBoundingClientRect().height})`, &heard)
		doc = inFrame(`String(Math.ceil(document.documentElement.getBoundingClientRect().height))`, 5*time.Second)
		if n := len(heard.Heights); n > 0 && fmt.Sprint(heard.Heights[n-1]) == doc && int(heard.Frame+0.5) == heard.Heights[n-1] {
			settled++
		} else {
			settled = 0
		}
		if time.Now().After(deadline) {
			t.Fatalf("heights %v, frame %.0f px, widget document %s px", heard.Heights, heard.Frame, doc)
		}
		time.Sleep(50 * time.Millisecond)
	}
	hs := heard.Heights
	last := hs[len(hs)-1]
	for i, h := range hs {
		if h <= 0 || h > 2*last {
			t.Errorf("a height of %d posted, the widget being %d (%v)", h, last, hs)
		}
		// Once the run is shown nothing changes: a swing back to a height
		// two posts before is the frame's size feeding back into the page.
		if i >= max(2, during) && h == hs[i-2] && h != hs[i-1] {
			t.Errorf("the height swings: %v", hs)
			break
		}
	}
	if last < 400 || last > 4000 {
		t.Errorf("the widget says it is %d px tall at %d px wide", last, width)
	}
	t.Logf("%d px wide: heights posted %v", width, hs)
}

// Copy link gives the full page's link with every setting and the seed;
// Copy embed code the snippet: an <iframe> of the same settings with
// embed=1 (it trains at once, as every link does) and the page's hide list
// (a course page's defaults when it hides nothing), and the script that
// sizes it. Both land on the clipboard and in the box beside the buttons.
func TestShareButtons(t *testing.T) {
	origin := strings.TrimSuffix(baseURL, "/")
	p := open(t, "#data=Wine&eta=0.9&lambda=2&seed=5",
		browser.GrantPermissions([]browser.PermissionType{browser.PermissionTypeClipboardReadWrite, browser.PermissionTypeClipboardSanitizedWrite}).WithOrigin(origin))
	read := func(button, testid string) (shown, clip, status string) {
		t.Helper()
		p.click(button)
		p.poll(`(() => { const b = document.querySelector('[data-testid="`+testid+`"]'); return !!b && b.value.includes(`+fmt.Sprintf("%q", map[string]string{"copy-link": "#", "copy-embed": "<iframe"}[button])+`) })()`, 5*time.Second)
		p.eval(`document.querySelector('[data-testid="`+testid+`"]').value`, &shown)
		p.eval(`navigator.clipboard.readText()`, &clip)
		return shown, clip, p.text("share-status")
	}
	link, clip, status := read("copy-link", "share-text")
	want := baseURL + "#data=Wine&ksame=3&kdiff=3&flip=0&eta=0.9&lambda=2&method=fast&tol=1e-06&seed=5"
	if link != want || clip != link || !strings.Contains(status, "Copied") {
		t.Errorf("link %q (clipboard %q, %q), want %q", link, clip, status, want)
	}
	code, clip, _ := read("copy-embed", "embed-code")
	var src string
	p.eval(`new DOMParser().parseFromString(`+fmt.Sprintf("%q", code)+`, 'text/html').querySelector('iframe').getAttribute('src')`, &src)
	if src != want+"&embed=1&hide=upload,method,tol" || clip != code || !strings.Contains(code, `class="rml-widget"`) || !strings.Contains(code, `"rml-height"`) {
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
