// Package e2e tests the app in a real browser: it builds the app, starts
// serve.go's server on a free loopback port and drives Debian's Chromium
// with chromedp. Run from the project: go test ./e2e (the README's test
// command does, after installing Chromium if needed).
package e2e

import (
	"bufio"
	"context"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"

	cdplog "github.com/chromedp/cdproto/log"
	"github.com/chromedp/cdproto/runtime"
	"github.com/chromedp/cdproto/storage"
	"github.com/chromedp/chromedp"
)

var (
	baseURL  string
	serveBin string          // serve.go, built; startServer runs another one
	allocCtx context.Context // the browser's context: tabs derive from it
	outDir   string
)

func chromium() (string, error) {
	if p := os.Getenv("CHROMIUM"); p != "" {
		return p, nil
	}
	for _, p := range []string{"/usr/bin/chromium", "/usr/bin/chromium-browser"} {
		if _, err := os.Stat(p); err == nil {
			return p, nil
		}
	}
	return "", fmt.Errorf("no Chromium at /usr/bin/chromium: install it with `apt-get install -y chromium` (bash .ci/test.sh does so when run as root), or set CHROMIUM to its path")
}

func TestMain(m *testing.M) {
	os.Exit(run(m))
}

func run(m *testing.M) int {
	browser, err := chromium()
	if err != nil {
		fmt.Fprintln(os.Stderr, "e2e:", err)
		return 1
	}
	root, _ := filepath.Abs("..")
	outDir = filepath.Join(root, "e2e", "out")
	os.MkdirAll(outDir, 0o755)

	build := exec.Command("bash", "build.sh")
	build.Dir = root
	build.Env = append(os.Environ(), "RML_TAGS=e2e") // the page's test hooks (ui/hooks_e2e.go)
	if out, err := build.CombinedOutput(); err != nil {
		fmt.Fprintf(os.Stderr, "e2e: build.sh failed: %v\n%s", err, out)
		return 1
	}
	tmp, _ := os.MkdirTemp("", "rml-e2e")
	defer os.RemoveAll(tmp)
	bin := filepath.Join(tmp, "serve")
	gb := exec.Command("go", "build", "-o", bin, "serve.go")
	gb.Dir = root
	if out, err := gb.CombinedOutput(); err != nil {
		fmt.Fprintf(os.Stderr, "e2e: building serve.go: %v\n%s", err, out)
		return 1
	}
	serveBin = bin
	srv, url, err := startServer()
	if err != nil {
		fmt.Fprintln(os.Stderr, "e2e:", err)
		return 1
	}
	defer srv.Process.Kill()
	baseURL = url

	opts := []chromedp.ExecAllocatorOption{
		chromedp.ExecPath(browser),
		chromedp.Flag("headless", true),
		chromedp.Flag("no-sandbox", true),
		chromedp.Flag("disable-gpu", true),
		chromedp.Flag("disable-background-networking", true),
		chromedp.Flag("disable-component-update", true),
		chromedp.Flag("no-first-run", true),
		chromedp.Flag("disable-sync", true),
		chromedp.Flag("disable-quic", true),
		chromedp.Flag("disable-dev-shm-usage", true), // containers often have a tiny /dev/shm
		chromedp.UserDataDir(filepath.Join(tmp, "profile")),
		chromedp.WindowSize(1400, 1100),
	}
	alloc, cancel := chromedp.NewExecAllocator(context.Background(), opts...)
	defer cancel()
	// One browser; every test opens its own tab in it.
	var cancelBrowser context.CancelFunc
	allocCtx, cancelBrowser = chromedp.NewContext(alloc, chromedp.WithErrorf(func(format string, args ...any) {
		// This chromedp's protocol tables predate some of Chromium's event
		// fields; those events are not used here.
		if !strings.HasPrefix(format, "could not unmarshal event") {
			fmt.Fprintf(os.Stderr, "chromedp: "+format+"\n", args...)
		}
	}))
	defer cancelBrowser()
	if err := chromedp.Run(allocCtx); err != nil {
		fmt.Fprintln(os.Stderr, "e2e: starting Chromium:", err)
		return 1
	}
	return m.Run()
}

// page is one browser tab with the app open; it records console errors,
// uncaught exceptions and failed loads, which fail the test at its end.
type page struct {
	t      *testing.T
	ctx    context.Context
	mu     sync.Mutex
	errors []string
}

// firstVisit, as open's fragment, opens the page with no address fragment,
// as a first visitor does.
const firstVisit = "first visit"

func open(t *testing.T, fragment string, before ...chromedp.Action) *page {
	t.Helper()
	p := newTab(t)
	p.run(before...)
	if fragment == "" {
		// A link to the plain defaults (Iris, no noise): an empty address
		// would open the first lesson and train it (see openFirstVisit).
		fragment = "#data=Iris"
	}
	if fragment == firstVisit {
		// A first visitor has no work kept from an earlier visit (another
		// test's, in this shared browser) for the page to restore.
		p.run(storage.ClearDataForOrigin(originOf(baseURL), "indexeddb"))
		fragment = ""
	} else if !strings.Contains(fragment, "autorun=") && strings.Contains(fragment, "#") {
		// Every link trains at once; a test that drives the page itself
		// opens it waiting (autorun=0), as a user's link may.
		fragment += "&autorun=0"
	}
	p.navigate(baseURL + fragment)
	p.waitTrainEnabled()
	return p
}

// navigate opens url in the tab, recording the browser's log.
func (p *page) navigate(url string) {
	p.t.Helper()
	p.run(cdplog.Enable(), chromedp.Navigate(url))
}

// newTab opens a blank tab in the shared browser that records errors.
func newTab(t *testing.T) *page {
	t.Helper()
	ctx, cancel := chromedp.NewContext(allocCtx)
	t.Cleanup(cancel)
	ctx, cancel2 := context.WithTimeout(ctx, 3*time.Minute)
	t.Cleanup(cancel2)
	p := &page{t: t, ctx: ctx}
	chromedp.ListenTarget(ctx, func(ev any) {
		p.mu.Lock()
		defer p.mu.Unlock()
		switch ev := ev.(type) {
		case *runtime.EventConsoleAPICalled:
			var parts []string
			for _, a := range ev.Args {
				parts = append(parts, string(a.Value)+a.Description)
			}
			line := "console." + string(ev.Type) + ": " + strings.Join(parts, " ")
			if ev.Type == runtime.APITypeError || ev.Type == runtime.APITypeAssert {
				p.errors = append(p.errors, line)
			} else if testing.Verbose() {
				t.Log(line)
			}
		case *runtime.EventExceptionThrown:
			p.errors = append(p.errors, "exception: "+ev.ExceptionDetails.Text+" "+describe(ev.ExceptionDetails))
		case *cdplog.EventEntryAdded:
			if ev.Entry.Level == cdplog.LevelError {
				p.errors = append(p.errors, "log: "+ev.Entry.Text+" "+ev.Entry.URL)
			}
		}
	})
	t.Cleanup(func() {
		p.mu.Lock()
		defer p.mu.Unlock()
		for _, e := range p.errors {
			t.Errorf("browser: %s", e)
		}
	})
	return p
}

// startServer starts serve.go's server (already built) on a free loopback
// port and returns it with its address.
func startServer() (*exec.Cmd, string, error) {
	root, _ := filepath.Abs("..")
	srv := exec.Command(serveBin, "-port", "0", "-no-build")
	srv.Dir = root
	stdout, _ := srv.StdoutPipe()
	srv.Stderr = os.Stderr
	if err := srv.Start(); err != nil {
		return nil, "", fmt.Errorf("starting serve: %w", err)
	}
	line, err := bufio.NewReader(stdout).ReadString('\n')
	if err != nil || !strings.HasPrefix(line, "serving ") {
		srv.Process.Kill()
		return nil, "", fmt.Errorf("serve said %q (%v)", line, err)
	}
	return srv, strings.TrimSpace(strings.TrimPrefix(line, "serving ")), nil
}

func describe(d *runtime.ExceptionDetails) string {
	if d.Exception != nil {
		return d.Exception.Description
	}
	return ""
}

func (p *page) run(actions ...chromedp.Action) {
	p.t.Helper()
	if err := chromedp.Run(p.ctx, actions...); err != nil {
		p.t.Fatalf("browser: %v", err)
	}
}

// eval evaluates a JavaScript expression (awaiting a promise) into out.
func (p *page) eval(expr string, out any) {
	p.t.Helper()
	p.run(chromedp.Evaluate(expr, out, func(e *runtime.EvaluateParams) *runtime.EvaluateParams { return e.WithAwaitPromise(true) }))
}

// drawnAll is a JavaScript expression, true once the page has drawn every
// change asked of it: it draws its panels over several animation frames,
// the status and message last, and body[data-drawn] reaches
// window.__rmlRedraws once the last one is drawn (true too on a page
// without the counter).
const drawnAll = `!(+document.body?.dataset.drawn < window.__rmlRedraws)`

// text returns the text of the element whose data-testid is testid ("" if
// none), once drawnAll holds (waiting at most 5 s: a tab in the background
// runs no animation frames, so it draws nothing, and its wait is timed by
// setTimeout instead).
func (p *page) text(testid string) string {
	p.t.Helper()
	var s string
	p.eval(`new Promise((ok) => { const t0 = performance.now(); const f = () => {
		if (`+drawnAll+` || performance.now() - t0 > 5000) {
			ok((document.querySelector('[data-testid="`+testid+`"]') || {textContent: ""}).textContent)
		} else if (document.hidden) { setTimeout(f, 20) } else { requestAnimationFrame(f) } }; f() })`, &s)
	return s
}

// poll waits until expr is truthy.
func (p *page) poll(expr string, timeout time.Duration) {
	p.t.Helper()
	var ok bool
	if err := chromedp.Run(p.ctx, chromedp.Poll(expr, &ok, chromedp.WithPollingTimeout(timeout), chromedp.WithPollingInterval(10*time.Millisecond))); err != nil {
		p.t.Fatalf("waiting for %s: %v (status %q, message %q)", expr, err, p.text("status"), p.text("message"))
	}
}

func (p *page) waitTrainEnabled() {
	p.t.Helper()
	p.poll(`(() => { const b = document.querySelector('[data-testid="train"]');
		return !!b && !b.disabled && `+drawnAll+` })()`, 30*time.Second)
}

func (p *page) waitStatus(status string, timeout time.Duration) {
	p.t.Helper()
	p.poll(`document.querySelector('[data-testid="status"]').textContent === "`+status+`"`, timeout)
}

// waitResult waits until the run has ended as want and its result (which
// follows the status by a few milliseconds) is on the page.
func (p *page) waitResult(want string, timeout time.Duration) {
	p.t.Helper()
	p.poll(`(() => { const s = document.querySelector('[data-testid="status"]');
		return s.textContent === "`+want+`" && s.dataset.run === s.dataset.shown })()`, timeout)
}

// set changes a control's value as a user would: value, then input and
// change events; it returns after two animation frames, when the page
// (which renders on animation frames) shows the consequences.
func (p *page) set(testid, value string) {
	p.t.Helper()
	var ok bool
	p.eval(fmt.Sprintf(`(() => { const e = document.querySelector('[data-testid=%q]'); if (!e) return false;
		e.value = %q; e.dispatchEvent(new Event('input', {bubbles: true})); e.dispatchEvent(new Event('change', {bubbles: true}));
		return new Promise((ok) => requestAnimationFrame(() => requestAnimationFrame(() => ok(true)))) })()`, testid, value), &ok)
	if !ok {
		p.t.Fatalf("no control %q", testid)
	}
}

func (p *page) click(testid string) {
	p.t.Helper()
	p.run(chromedp.Click(`[data-testid="`+testid+`"]`, chromedp.ByQuery))
}

// recordStatuses waits for any run in flight to end, then starts recording
// every status text the page shows after the current one. The values come
// from the mutations' old values as well as the text at each callback, so
// two changes within one task (which the observer reports together) are
// both recorded.
func (p *page) recordStatuses() {
	p.t.Helper()
	p.poll(`document.querySelector('[data-testid="status"]').textContent !== "running"`, 60*time.Second)
	var ok bool
	p.eval(`(() => { const s = document.querySelector('[data-testid="status"]'); const seen = [s.textContent];
		window.__statuses = [];
		new MutationObserver((rs) => {
			for (const r of rs) if (r.type === 'characterData') seen.push(r.oldValue);
			seen.push(s.textContent);
			window.__statuses = seen.filter((v, i) => i > 0 && v !== seen[i - 1]);
		}).observe(s, {childList: true, characterData: true, characterDataOldValue: true, subtree: true}); return true })()`, &ok)
}

func (p *page) screenshot(name string) {
	p.t.Helper()
	var buf []byte
	p.run(chromedp.FullScreenshot(&buf, 100))
	if err := os.WriteFile(filepath.Join(outDir, name), buf, 0o644); err != nil {
		p.t.Fatal(err)
	}
}
