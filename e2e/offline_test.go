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

// A new build put on the server while the page runs the old one: the page
// offers it (data-testid="update"), and taking it reloads the page onto
// the new build, whose cache has replaced the old one's. The test serves a
// copy of build/ (its own origin) and makes the "new build" by changing
// the version in the copy's sw.js (build.sh writes it from the files' hash).
func TestServiceWorkerUpdate(t *testing.T) {
	src, _ := filepath.Abs(filepath.Join("..", "build"))
	dir := t.TempDir()
	if err := os.CopyFS(dir, os.DirFS(src)); err != nil {
		t.Fatal(err)
	}
	host := httptest.NewServer(http.FileServer(http.Dir(dir)))
	defer host.Close()
	p := newTab(t)
	p.navigate(host.URL + "/#data=Iris")
	p.waitTrainEnabled()
	p.poll(`!!navigator.serviceWorker.controller`, 30*time.Second)
	var old string
	p.eval(`caches.keys().then((k) => k.join(','))`, &old)
	if !strings.HasPrefix(old, "rml-") || strings.Contains(old, ",") {
		t.Fatalf("caches %q: want one, rml-<build>", old)
	}
	updateShown := func() bool {
		var on bool
		p.eval(`!!document.querySelector('[data-testid="update"]')`, &on)
		return on
	}
	if updateShown() {
		t.Fatal("an update is offered before there is one")
	}

	swPath := filepath.Join(dir, "sw.js")
	sw, err := os.ReadFile(swPath)
	if err != nil {
		t.Fatal(err)
	}
	version := strings.TrimPrefix(old, "rml-")
	next := strings.Replace(string(sw), "version: '"+version+"'", "version: 'e2e-update'", 1)
	if next == string(sw) {
		t.Fatalf("sw.js does not hold the version %q", version)
	}
	if err := os.WriteFile(swPath, []byte(next), 0o644); err != nil {
		t.Fatal(err)
	}
	p.eval(`navigator.serviceWorker.getRegistration().then((r) => r.update()).then(() => true)`, new(bool))
	p.poll(`!!document.querySelector('[data-testid="update"] button')`, 30*time.Second)

	// Taking it: the new worker takes over and the page reloads onto it.
	p.eval(`window.__before = true; document.querySelector('[data-testid="update"] button').click(); true`, new(bool))
	reloaded := false
	for t0 := time.Now(); !reloaded && time.Since(t0) < 60*time.Second; time.Sleep(50 * time.Millisecond) {
		// The page navigates meanwhile: an evaluation may fail or wait for
		// the new document, and is tried again, each attempt cut at 2 s so
		// that one cannot hold the loop (one CI run failed at 30 s here,
		// on a busy machine; locally the reload takes under a second).
		ctx, cancel := context.WithTimeout(p.ctx, 2*time.Second)
		_ = chromedp.Run(ctx, chromedp.Evaluate(`window.__before === undefined && document.readyState === 'complete'`, &reloaded))
		cancel()
	}
	if !reloaded {
		t.Fatal("the page did not reload onto the new build within 60 s of taking it")
	}
	p.waitTrainEnabled()
	var now string
	p.eval(`caches.keys().then((k) => k.join(','))`, &now)
	if now != "rml-e2e-update" {
		t.Errorf("caches after the update %q, want rml-e2e-update alone", now)
	}
	if updateShown() {
		t.Error("the update is still offered after the reload onto it")
	}
}
