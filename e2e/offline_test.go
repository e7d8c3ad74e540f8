package e2e

import (
	"context"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	cdppage "github.com/chromedp/cdproto/page"
	"github.com/chromedp/cdproto/runtime"
	"github.com/chromedp/chromedp"
)

// After one visit the app works with no server at all: the service worker
// serves the page, the program, the scripts and the built-in datasets from
// the build's cache. The test visits a server of its own (its own origin,
// so its own service worker), stops that server, reloads, trains Iris and
// reads an uploaded CSV.
func TestOffline(t *testing.T) {
	srv, url, err := startServer()
	if err != nil {
		t.Fatal(err)
	}
	defer srv.Process.Kill()
	p := newTab(t)
	p.navigate(url + "#data=Iris")
	p.waitTrainEnabled()
	// The worker has installed (every file cached) and controls the page.
	var version string
	p.poll(`!!navigator.serviceWorker.controller`, 30*time.Second)
	p.eval(`caches.keys().then((k) => k.join(','))`, &version)
	if !strings.HasPrefix(version, "rml-") || strings.Contains(version, ",") {
		t.Fatalf("caches %q: want one, rml-<build>", version)
	}
	var cached int
	p.eval(`caches.open('`+version+`').then((c) => c.keys()).then((k) => k.length)`, &cached)
	if cached < 10 {
		t.Errorf("%d files cached", cached)
	}

	srv.Process.Kill()
	srv.Wait()
	if _, err := (&http.Client{Timeout: 2 * time.Second}).Get(url); err == nil {
		t.Fatal("the server still answers")
	}
	p.run(chromedp.Reload())
	p.waitTrainEnabled()
	p.click("train")
	p.waitResult("converged", 60*time.Second)
	if e := p.text("error-learned"); !strings.HasSuffix(e, "%") {
		t.Errorf("offline run: learned error %q", e)
	}
	// Another built-in dataset comes from the cache too.
	p.set("dataset-select", "Wine")
	p.poll(`document.querySelector('[data-testid="dataset-select"]').value === "Wine" && !document.querySelector('[data-testid="train"]').disabled`, 30*time.Second)
	var b strings.Builder
	b.WriteString("a,b,class\n")
	for i := 0; i < 20; i++ {
		b.WriteString(strings.Repeat("1", 1+i%3) + "," + strings.Repeat("2", 1+i%4) + "," + []string{"x", "y"}[i%2] + "\n")
	}
	p.uploadLoaded("offline.csv", b.String())
	p.click("train")
	p.waitResult("converged", 60*time.Second)
}

// A new build put on the server while two tabs run the old one: both
// offer it (data-testid="update"); taking it in tab A reloads A alone onto
// the new build. Tab B, where a run was trained and pinned, is told and
// keeps running its build: its pinned run stays, and a worker it starts
// again loads its own build's files from that build's cache, which stays
// while B runs it. B's own reload then restores its work on the new build,
// and the old build's cache goes. The test serves a copy of build/ (its
// own origin) and makes the "new build" by changing the version in the
// copy's sw.js and index.html (build.sh writes it from the files' hash).
func TestServiceWorkerUpdate(t *testing.T) {
	src, _ := filepath.Abs(filepath.Join("..", "build"))
	dir := t.TempDir()
	if err := os.CopyFS(dir, os.DirFS(src)); err != nil {
		t.Fatal(err)
	}
	host := httptest.NewServer(http.FileServer(http.Dir(dir)))
	defer host.Close()
	a := newTab(t)
	a.navigate(host.URL + "/#data=Iris&autorun=0")
	a.waitTrainEnabled()
	a.poll(`!!navigator.serviceWorker.controller`, 30*time.Second)
	var old string
	a.eval(`caches.keys().then((k) => k.join(','))`, &old)
	if !strings.HasPrefix(old, "rml-") || strings.Contains(old, ",") {
		t.Fatalf("caches %q: want one, rml-<build>", old)
	}
	version := strings.TrimPrefix(old, "rml-")
	shown := func(p *page) string {
		var text string
		p.eval(`(document.querySelector('[data-testid="update"]') || {}).textContent || ''`, &text)
		return text
	}
	if shown(a) != "" {
		t.Fatal("an update is offered before there is one")
	}

	// Tab B: a run trained and pinned, its worker's creation recorded.
	b := newTab(t)
	b.run(beforeLoad(`(() => {
			const Real = window.Worker; window.__workers = [];
			window.__w = [];
			window.Worker = function (url, opts) { const w = new Real(url, opts); window.__workers.push(url); window.__w.push(w); return w; };
		})()`))
	b.navigate(host.URL + "/#data=Wine&autorun=0")
	b.waitTrainEnabled()
	b.click("train")
	b.waitResult("converged", 60*time.Second)
	b.click("pin")
	b.poll(kept(`s.pinned.length === 1`), 10*time.Second)
	b.eval(`window.__beforeB = true`, new(bool))

	swPath := filepath.Join(dir, "sw.js")
	sw, err := os.ReadFile(swPath)
	if err != nil {
		t.Fatal(err)
	}
	next := strings.Replace(string(sw), "version: '"+version+"'", "version: 'e2e-update'", 1)
	if next == string(sw) {
		t.Fatalf("sw.js does not hold the version %q", version)
	}
	if err := os.WriteFile(swPath, []byte(next), 0o644); err != nil {
		t.Fatal(err)
	}
	// The new build's page names it, as build.sh writes it.
	indexPath := filepath.Join(dir, "index.html")
	index, err := os.ReadFile(indexPath)
	if err != nil {
		t.Fatal(err)
	}
	named := strings.Replace(string(index), `<meta name="rml-build" content="`+version+`">`, `<meta name="rml-build" content="e2e-update">`, 1)
	if named == string(index) {
		t.Fatalf("index.html does not name its build %q", version)
	}
	if err := os.WriteFile(indexPath, []byte(named), 0o644); err != nil {
		t.Fatal(err)
	}
	a.eval(`navigator.serviceWorker.getRegistration().then((r) => r.update()).then(() => true)`, new(bool))
	a.poll(`!!document.querySelector('[data-testid="update"] button')`, 30*time.Second)
	b.poll(`!!document.querySelector('[data-testid="update"] button')`, 30*time.Second)
	// A tab opened while the update waits offers it too, after the app's
	// first render (which draws the whole body).
	c := newTab(t)
	c.navigate(host.URL + "/#data=Iris&autorun=0")
	c.waitTrainEnabled()
	if !strings.Contains(shown(c), "A new version of the app is ready") {
		t.Errorf("a tab opened while the update waits shows %q, want the offer", shown(c))
	}
	c.navigate("about:blank")

	// Taking it in A: the new worker takes over and A reloads onto it. A
	// is brought to the front first: a tab in the background draws
	// nothing (the page draws on animation frames).
	a.run(cdppage.BringToFront())
	a.eval(`window.__before = true; document.querySelector('[data-testid="update"] button').click(); true`, new(bool))
	a.waitReloaded("__before", `navigator.serviceWorker.getRegistration().then((r) => JSON.stringify({active: r.active && r.active.state,
		waiting: r.waiting && r.waiting.state, installing: !!r.installing, controlled: !!navigator.serviceWorker.controller,
		bar: (document.querySelector('[data-testid="update"]') || {}).textContent}))`)
	a.waitTrainEnabled()
	if shown(a) != "" {
		t.Error("the update is still offered after the reload onto it")
	}
	var build string
	a.eval(`document.querySelector('meta[name="rml-build"]').content`, &build)
	if build != "e2e-update" {
		t.Errorf("A names build %q after the reload, want the new one", build)
	}

	// B was told, not reloaded, and keeps its work and its build.
	b.run(cdppage.BringToFront())
	b.poll(`document.querySelector('[data-testid="update"]')?.textContent.includes('in use in another tab')`, 10*time.Second)
	var stayed bool
	b.eval(`window.__beforeB === true`, &stayed)
	if !stayed {
		t.Fatal("tab B reloaded when A took the update")
	}
	var runs string
	b.eval(`document.querySelector('[data-testid="compare-table"]').dataset.runs || '0'`, &runs)
	if runs != "1" {
		t.Errorf("tab B has %s pinned runs after A took the update, want its 1", runs)
	}
	var caches string
	b.eval(`caches.keys().then((k) => k.sort().join(','))`, &caches)
	if caches != "rml-"+version+",rml-e2e-update" && caches != "rml-e2e-update,rml-"+version {
		t.Errorf("caches while B runs the old build: %q, want both", caches)
	}
	// A worker B starts again (its first one said to have died) loads B's
	// build, and trains.
	b.eval(`window.__w[0].onmessage({data: {fatal: 'ended by the test'}}); true`, new(bool))
	b.poll(`window.__workers.length > 1`, 10*time.Second)
	var workers []string
	b.eval(`window.__workers`, &workers)
	for _, w := range workers {
		if !strings.HasSuffix(w, "?v="+version) {
			t.Errorf("tab B started worker %q, not of its build %s", w, version)
		}
	}
	b.set("dataset-select", "Iris")
	b.waitTrainEnabled()
	b.click("train")
	b.waitResult("converged", 60*time.Second)

	// B reloads when its user chooses: its work is restored, and no tab
	// runs the old build any more.
	b.eval(`document.querySelector('[data-testid="update"] button').click(); true`, new(bool))
	b.waitReloaded("__beforeB", "")
	b.waitTrainEnabled()
	if m := b.text("message"); !strings.Contains(m, "Restored your work") {
		t.Errorf("tab B after its reload: message %q, want its work restored", m)
	}
	for t0 := time.Now(); ; time.Sleep(100 * time.Millisecond) {
		b.eval(`caches.keys().then((k) => k.join(','))`, &caches)
		if caches == "rml-e2e-update" {
			break
		}
		if time.Since(t0) > 20*time.Second {
			t.Fatalf("caches once no tab runs the old build: %q, want rml-e2e-update alone", caches)
		}
	}
}

// waitReloaded waits until the tab has loaded a new document: one without
// window[marker], which the test set on the old one.
//
// If it does not, the test fails with what state, a JavaScript expression
// ("" for none), gives in the tab.
func (p *page) waitReloaded(marker, state string) {
	p.t.Helper()
	reloaded := false
	for t0 := time.Now(); !reloaded && time.Since(t0) < 60*time.Second; time.Sleep(50 * time.Millisecond) {
		// The page navigates meanwhile: an evaluation may fail or wait for
		// the new document, and is tried again, each attempt cut at 2 s so
		// that one cannot hold the loop (one CI run failed at 30 s here,
		// on a busy machine; locally the reload takes under a second).
		ctx, cancel := context.WithTimeout(p.ctx, 2*time.Second)
		_ = chromedp.Run(ctx, chromedp.Evaluate(`window.`+marker+` === undefined && document.readyState === 'complete'`, &reloaded))
		cancel()
	}
	if !reloaded {
		var got string
		if state != "" {
			ctx, cancel := context.WithTimeout(p.ctx, 5*time.Second)
			_ = chromedp.Run(ctx, chromedp.Evaluate(state, &got, func(e *runtime.EvaluateParams) *runtime.EvaluateParams { return e.WithAwaitPromise(true) }))
			cancel()
		}
		p.t.Fatalf("the page did not reload within 60 s (%s)", got)
	}
}
