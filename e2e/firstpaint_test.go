package e2e

import (
	"context"
	"sync"
	"testing"
	"time"

	"github.com/chromedp/cdproto/fetch"
	"github.com/chromedp/cdproto/network"
	"github.com/chromedp/chromedp"
)

// The first screen paints without the wasm: with app.wasm held back, a
// first visit shows the first lesson's text, its controls and its data's
// Euclidean view, one marker a row (index.html carries them, written by
// internal/firstpaint); when the load then fails the page says it could
// not start, in place of a screen whose controls cannot work. A link to
// other settings shows "loading" instead of the first lesson's screen.
func TestFirstPaint(t *testing.T) {
	p, held := holdWasm(t, baseURL)
	var got struct {
		Text    string
		Markers int
		Boot    bool
	}
	p.poll(`!!document.querySelector('#first .lesson-text')`, 10*time.Second)
	p.eval(`({Text: document.querySelector('#first .lesson-text').textContent,
		Markers: (decodeURIComponent(document.querySelector('#first img.view-img').getAttribute('src')).match(/M/g) || []).length,
		Boot: getComputedStyle(document.getElementById('boot')).display !== 'none'})`, &got)
	if got.Markers != 600 || got.Boot || len(got.Text) < 100 {
		t.Errorf("before the app: %d markers, boot line shown %v, lesson text %q", got.Markers, got.Boot, got.Text)
	}
	held(func(ctx context.Context, id fetch.RequestID) error {
		return fetch.FailRequest(id, network.ErrorReasonBlockedByClient).Do(ctx)
	})
	p.poll(`!document.getElementById('first') && document.getElementById('boot').textContent.includes('could not start')`, 10*time.Second)
	p.forgetErrors() // the failed load is logged as an error: it is the point here

	q, _ := holdWasm(t, baseURL+"#preset=noise")
	var first, boot bool
	q.poll(`!!document.getElementById('first')`, 10*time.Second)
	q.eval(`getComputedStyle(document.getElementById('first')).display !== 'none'`, &first)
	q.eval(`getComputedStyle(document.getElementById('boot')).display !== 'none'`, &boot)
	if first || !boot {
		t.Errorf("a link to the noise lesson shows the first lesson's screen (%v) or no loading line (%v)", first, boot)
	}
}

// holdWasm opens url in a new tab whose requests for app.wasm are held,
// unanswered; release answers each held one (and any later) with do.
func holdWasm(t *testing.T, url string) (p *page, release func(do func(context.Context, fetch.RequestID) error)) {
	p = newTab(t)
	var (
		mu   sync.Mutex
		ids  []fetch.RequestID
		with func(context.Context, fetch.RequestID) error
	)
	chromedp.ListenTarget(p.ctx, func(ev any) {
		if e, ok := ev.(*fetch.EventRequestPaused); ok {
			mu.Lock()
			defer mu.Unlock()
			if with != nil {
				go chromedp.Run(p.ctx, chromedp.ActionFunc(func(ctx context.Context) error { return with(ctx, e.RequestID) }))
				return
			}
			ids = append(ids, e.RequestID)
		}
	})
	// The service worker an earlier test installed would answer from its
	// cache, where no request is held: the tab goes around it.
	p.run(network.Enable(), network.SetBypassServiceWorker(true),
		fetch.Enable().WithPatterns([]*fetch.RequestPattern{{URLPattern: "*app.wasm*"}}))
	p.navigate(url)
	return p, func(do func(context.Context, fetch.RequestID) error) {
		mu.Lock()
		with = do
		held := ids
		ids = nil
		mu.Unlock()
		for _, id := range held {
			p.run(chromedp.ActionFunc(func(ctx context.Context) error { return do(ctx, id) }))
		}
	}
}

// forgetErrors drops the browser errors recorded so far.
func (p *page) forgetErrors() {
	p.mu.Lock()
	defer p.mu.Unlock()
	p.errors = nil
}
