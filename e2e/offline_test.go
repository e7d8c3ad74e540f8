package e2e

import (
	"net/http"
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
