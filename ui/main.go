//go:build js && wasm

// Package ui is the page: a Vecty app whose components render from one
// store (ui/store) and whose only route to the solver is the Web Worker
// (wasm/worker) through the protocol (wasm/protocol). wasm/app runs it in
// the page's main thread.
package ui

import (
	"errors"
	"strconv"
	"syscall/js"
	"time"

	"github.com/hexops/vecty"

	"github.com/rml-lab/rml/spec"
	"github.com/rml-lab/rml/ui/store"
	"github.com/rml-lab/rml/wasm/jsmsg"
	"github.com/rml-lab/rml/wasm/protocol"
)

// maxRestarts bounds how often a dead worker is restarted in a row before
// the page gives up and says so.
const maxRestarts = 3

// The watchdog: a run must end within stopGrace of Stop (it takes tens of
// milliseconds: the solver lets messages in every 5 ms, and one step is at
// most ~50 ms at the page's largest d), and a running worker must say
// something within silentGrace (it reports about 20 times a second). A
// worker that does not is terminated and started again.
//
// A worker that says nothing for pingEvery, running or not, is asked
// whether it is alive (a ping, which it answers at once, or at its next
// yield, and which cancels nothing); one that does not answer within
// pingGrace is terminated and started again. A worker the browser ended
// (out of memory, say) posts nothing at all: it was found only at the
// next Train.
const (
	stopGrace   = 3000  // ms
	silentGrace = 20000 // ms
	pingEvery   = 5000  // ms
	pingGrace   = 5000  // ms
)

// glue owns the store, the worker and the root component; Dispatch is the
// one door through which anything changes the state.
type glue struct {
	askKept  map[string]string // the Ask-me answers last written to storage, by key
	state    *store.State
	root     *App
	worker   js.Value
	handlers []js.Func
	failures int // restarts since the worker last said it was ready

	readyMarked bool
	shown       store.Params // the settings the address holds (or will, once addressDue is done)
	addressDue  bool         // a task to write shown to the address is scheduled
	redraws     int          // redraws asked for (redraw)
	redrawn     throttle     // the page's redraws (drawNow), at most every batchRedrawEvery during a batch
	charted     throttle     // the chart's redraws by progress (drawLive), at most every progressRedrawEvery

	// The helper workers (pool.go): lanes 1… for the batches.
	helpers  []*helper
	nHelpers int                 // how many to start once the page is idle
	started  bool                // they were started for this lane 0
	lastLane int                 // the highest lane a helper was given
	replaced int                 // helpers that died and were replaced, for this lane 0
	sent     map[int]dataRequest // Load and Triplets requests lane 0 has not answered
	data     []dataRequest       // what lane 0 holds: its last Load read, and the Triplets read after it
	dataGen  int                 // counts the Loads data has held, so a helper can tell its copy is another dataset's
	feedDue  bool                // a check whether the helpers can be fed is scheduled (feedHelpers)

	// The watchdog's view (performance.now() times, in ms).
	stopID    int     // the run a Stop was sent for, until it ends
	stopAt    float64 // when that Stop was sent
	heardAt   float64 // when the worker last posted anything
	pingAt    float64 // when a ping was sent that is not answered yet (0: none)
	watchdogT js.Func

	keep keeper // the session kept in the browser's storage (keep.go)
}

// inBatch reports whether a batch's runs are under way.
func (g *glue) inBatch() bool {
	j := g.state.Job
	return j != nil && j.Kind != "step"
}

// Run starts the page and never returns.
func Run() {
	g := &glue{state: store.Open(js.Global().Get("location").Get("hash").String())}
	g.nHelpers = helperCount()
	g.root = &App{glue: g}
	g.root.newPanels(g.Dispatch, g.open, g.openTriplets, g.openAnswers, g.saveAnswers)
	if set := g.state.AskWanted(); set != "" {
		// A link into the Ask-me mode (a course page's "#ask=colours")
		// opens it on its own items and the answers kept for them, not on
		// the session kept. Before the worker is up and the page drawn: the
		// state alone changes (the items load when the worker is ready).
		store.Reduce(g.state, store.AskOpen{Set: set, Saved: keptAnswers(set, g.state.Params.Seed)})
	}
	g.startRestore()
	g.startWorker()
	g.watchdogT = js.FuncOf(func(js.Value, []js.Value) any { g.watchdog(); return nil })
	js.Global().Call("setInterval", g.watchdogT, 250)
	exposeTestHooks()
	// A link followed in this tab (the fragment changed by hand, or a
	// lesson's link clicked on a course page) applies at once, as a new
	// visit would. The page's own history.replaceState fires no event.
	js.Global().Call("addEventListener", "hashchange", js.FuncOf(func(js.Value, []js.Value) any {
		hash := js.Global().Get("location").Get("hash").String()
		if hash == "#"+store.EncodeURL(g.shown) {
			return nil // the address the page wrote itself
		}
		g.Dispatch(store.FollowLink{Fragment: hash})
		return nil
	}))
	vecty.SetTitle("Robust metric learning")
	g.root.syncViews()
	later(g.warm)            // while the worker starts: see warm
	vecty.RenderBody(g.root) // it renders, then never returns
}

// Dispatch reduces a, sends the requests it produced, keeps the link in
// step with the settings and redraws.
func (g *glue) Dispatch(a store.Action) {
	if e, ok := a.(store.Export); ok {
		g.export(e.Kind)
		return
	}
	for _, m := range store.Reduce(g.state, a) {
		if m.Kind == protocol.KindStop && g.stopID == 0 {
			g.stopID, g.stopAt = m.ID, now()
		}
		g.heardAt = now() // silence is counted from the latest request
		g.send(m)
	}
	// The address follows the settings (not on every progress message), in
	// a task of its own: history.replaceState cost 8 ms of the task that
	// changed them (a dataset chosen), which the redraw then made long.
	if g.state.Params != g.shown {
		g.shown = g.state.Params
		if !g.addressDue {
			g.addressDue = true
			later(func() {
				g.addressDue = false
				js.Global().Get("history").Call("replaceState", nil, "", "#"+store.EncodeURL(g.shown))
			})
		}
	}
	// Progress changes only the convergence panel: redraw just that, at
	// most every progressRedrawEvery, so a run costs the main thread a few
	// milliseconds per message.
	if r, ok := a.(store.Reply); ok && r.Message.Kind == protocol.KindProgress && r.Message.Progress.Status == "" {
		if r.Message.ID == g.state.LoadID && g.state.Loading {
			// A large file's load: its note says how far it has got.
			g.charted.call(progressRedrawEvery, func() { g.charted.done(); g.drawNow() })
			return
		}
		g.charted.call(progressRedrawEvery, g.drawLive)
		return
	}
	_, reply := a.(store.Reply)
	g.redraw(reply)
	g.kept()
	g.keepAnswers()
	if set := g.state.AskWanted(); set != "" {
		// A link or a restored session in the Ask-me mode: open it with the
		// answers kept.
		g.Dispatch(store.AskOpen{Set: set, Saved: keptAnswers(set, g.state.Params.Seed)})
	}
	if key := g.state.AskWantsKept(); key != "" {
		g.Dispatch(store.AskKept{Text: kept(key)}) // a dataset's rows arrived
	}
	g.startHelpers()
	g.feedHelpers()
	if !g.readyMarked && g.state.CanTrain() {
		// For the figures the e2e tests report: navigation to Train enabled.
		g.readyMarked = true
		js.Global().Get("performance").Call("mark", "rml-ready")
	}
}

// redraw redraws the page after a change: first the panels whose props
// changed, each on its own, then the page itself (the header, the status,
// the message). Vecty renders the
// components it is asked to redraw on animation frames, in order, and moves
// those that do not fit a frame's 16 ms to the next frame; redrawing the
// page as one component made a new result (projections, heat map,
// eigenvalues, suspects and the rest at once) one task of 60–210 ms on the
// main thread (e2e TestVisitLongTasks). The page comes last, so the status
// (and its data-shown, which the tests wait on) changes once the views show
// what it says. A view never rendered (hidden by the link) is not asked:
// Vecty panics on that.
//
// The page's body carries data-drawn, the number of redraws it reflects,
// and the e2e build's window.__rmlRedraws the number asked for: equal,
// every panel shows the store's state (the e2e tests read the page only
// then).
//
// While a batch runs, the redraws a worker's reply asks for come at most
// every batchRedrawEvery: one asked for sooner waits for then, and takes
// whatever else arrived meanwhile with it (what the user does, Stop
// included, is drawn at once). A batch's runs end every few tens of
// milliseconds (the η sweep on Wine: 14 in under a second), each redraw
// costs its renders and the browser's style, layout, paint and
// compositing, and two solver workers and the main thread share two cores:
// the main thread's time is taken from the workers' (README, "uses every
// core").
func (g *glue) redraw(reply bool) {
	g.redraws++
	redrawsAsked(g.redraws)
	if reply && g.inBatch() {
		g.redrawn.call(batchRedrawEvery, g.drawNow)
		return
	}
	g.drawNow() // a redraw due is then dropped (the batch's end draws at once)
}

// batchRedrawEvery is the least time between two redraws while a batch
// runs, in ms: a sweep of under a second on two workers draws its points
// in two or three steps. At 150 ms the main thread spent a median 0.140 s
// on tasks per η sweep on Wine, at 400 ms 0.117 s (a throwaway e2e run
// of seven sweeps each, 2026-11-24; within the machine's spread, but on
// two cores the main thread's time is taken from the two workers).
const batchRedrawEvery = 400

// progressRedrawEvery is the least time between two redraws of the chart
// by a run's progress messages, in ms. The worker posts one every 50 ms;
// a chart redrawn for each cost the main thread about a fifth of its time
// while the 5,000 × 50 upload trained (a V8 profile: Vecty's reconciling
// of the panel, its event listeners taken off and put back, and the
// collection of the values each render leaves), and a render that met a
// collection of Go's heap was one of the visit's last tasks over 50 ms
// (e2e TestVisitLongTasks). Four redraws a second still show Δ_t fall.
const progressRedrawEvery = 250

// drawLive redraws what a run's progress changes: the gap chart, the
// error curve and, with a new frame, the learned view. A batch's runs
// leave them as they were (App.syncViews), and a hidden one, never
// rendered, is left alone: Vecty panics on a Rerender of it (hide=chart
// crashed the page at its first progress message).
func (g *glue) drawLive() {
	g.charted.done()
	if g.inBatch() {
		return
	}
	a, s := g.root, g.state
	if a.chart.wasRendered() && a.chart.setProps(chartProps(s)) {
		vecty.Rerender(a.chart)
	}
	if a.errs.wasRendered() && a.errs.setProps(errorChartProps(s)) {
		vecty.Rerender(a.errs)
	}
	if a.proj.wasRendered() && a.proj.setProps(a.shown, s.Data, s.Frame) {
		vecty.Rerender(a.proj)
	}
}

// throttle runs a redraw at most once per interval: at once if the last
// one was that long ago, else once at the interval's end for every call
// between. A redraw done meanwhile by other means (done) drops the one due.
type throttle struct {
	at  float64 // when the last redraw was done (performance.now(), ms)
	due bool    // a redraw is scheduled
}

// call runs f (which calls t.done) now, or schedules it, as above.
func (t *throttle) call(every float64, f func()) {
	if t.due {
		return
	}
	if wait := t.at + every - now(); wait > 0 {
		t.due = true
		after(wait, func() {
			if t.due { // not done since
				f()
			}
		})
		return
	}
	f()
}

// done notes a redraw done now.
func (t *throttle) done() { t.at, t.due = now(), false }

// drawNow redraws what changed, then the page.
func (g *glue) drawNow() {
	a := g.root
	g.redrawn.done()
	for _, c := range a.syncViews() {
		vecty.Rerender(c)
	}
	vecty.Rerender(a)
}

func (g *glue) startWorker() {
	for _, h := range g.handlers {
		h.Release()
	}
	g.worker, g.handlers = newWorker(func(m protocol.Message) {
		g.heardAt, g.pingAt = now(), 0
		g.heard(m)
		if m.Kind == protocol.KindPong {
			return
		}
		if m.Kind == protocol.KindReady {
			g.failures = 0
			g.ready(store.WorkerReady{Builtins: m.Ready.Builtins, Kernels: m.Ready.Kernels})
			return
		}
		g.copyData(m)
		g.Dispatch(store.Reply{Message: m})
	}, func(err error) {
		g.heardAt = now()
		g.Dispatch(store.Invalid{Message: "The solver sent a message the page cannot read: " + err.Error()})
	}, g.died)
}

// newWorker starts a solver worker: got receives each message it posts,
// bad one the page cannot decode, died why it stopped (its loader's fatal
// message, or an error event).
func newWorker(got func(protocol.Message), bad func(error), died func(reason string)) (js.Value, []js.Func) {
	// The worker runs the page's own build (boot.js's rmlBuild; sw.js
	// serves a build's files by its name).
	q := js.Global().Get("rmlBuildQuery")
	if q.Type() != js.TypeString {
		q = js.ValueOf("")
	}
	w := js.Global().Get("Worker").New("assets/worker.js" + q.String())
	onMessage := js.FuncOf(func(_ js.Value, args []js.Value) any {
		data := args[0].Get("data")
		if f := data.Get("fatal"); f.Type() == js.TypeString {
			died(f.String())
			return nil
		}
		m, err := jsmsg.Receive(data)
		if err != nil {
			bad(err)
			return nil
		}
		got(m)
		return nil
	})
	onError := js.FuncOf(func(_ js.Value, args []js.Value) any {
		reason := "the worker failed"
		if msg := args[0].Get("message"); msg.Type() == js.TypeString {
			reason = msg.String()
		}
		args[0].Call("preventDefault")
		died(reason)
		return nil
	})
	w.Set("onmessage", onMessage)
	w.Set("onerror", onError)
	return w, []js.Func{onMessage, onError}
}

// maxUpload is the largest file the page reads.
const maxUpload = spec.MaxFileBytes

// open reads the first of the files a file input or a drop offers, as
// text, and dispatches it (or why it could not be read). Reading is
// asynchronous; it belongs here, not to a component's render.
// A saved run is read in pieces (openRun).
func (g *glue) open(files js.Value) {
	g.read(files, func(name, text string) {
		if store.IsRunFile(name, text) {
			g.openRun(name, text)
			return
		}
		g.Dispatch(store.Upload{Name: name, Text: text})
	})
}

// openTriplets reads a triplet file as open reads a data file.
func (g *glue) openTriplets(files js.Value) {
	g.read(files, func(name, text string) { g.Dispatch(store.UploadTriplets{Name: name, Text: text}) })
}

// read reads the first of files and hands its text to got.
//
// The file is read as bytes (arrayBuffer) and copied into Go in one block,
// as they are (store.FileText), for the worker's reader to decode; not read
// as a JS string (text()), which decoded every file as UTF-8 (UTF-16 came
// out as replacement characters), and whose conversion to a Go string
// encoded it to UTF-8 again on the main thread: 49 of the 60 ms the
// 5,000 × 50 upload (2.5 MB) held it (a CPU profile of that upload in
// Chromium).
func (g *glue) read(files js.Value, got func(name, text string)) {
	if files.Length() == 0 {
		return
	}
	g.readOne(files.Index(0), got, func() {})
}

// readOne reads file f as read does, calling failed after saying why it
// could not.
func (g *glue) readOne(f js.Value, got func(name, text string), failed func()) {
	name := f.Get("name").String()
	if size := f.Get("size").Int(); size > maxUpload {
		g.Dispatch(store.UploadFailed{Message: name + " is " + strconv.FormatFloat(float64(size)/(1<<20), 'f', 1, 64) + " MiB; the page reads files up to " + strconv.Itoa(maxUpload>>20) + " MiB."})
		failed()
		return
	}
	var ok, fail js.Func
	ok = js.FuncOf(func(_ js.Value, args []js.Value) any {
		ok.Release()
		fail.Release()
		b := make([]byte, args[0].Get("byteLength").Int())
		js.CopyBytesToGo(b, js.Global().Get("Uint8Array").New(args[0]))
		got(name, store.FileText(b)) // b is the text's now: not changed again
		return nil
	})
	fail = js.FuncOf(func(_ js.Value, args []js.Value) any {
		ok.Release()
		fail.Release()
		g.Dispatch(store.UploadFailed{Message: "Could not read " + name + ": " + args[0].Call("toString").String()})
		failed()
		return nil
	})
	f.Call("arrayBuffer").Call("then", ok, fail)
}

// errStopped ends the reading of a saved run that was stopped.
var errStopped = errors.New("stopped")

// openRun reads a saved run in a goroutine of its own, a piece at a time:
// after each openWork ms of parsing it sleeps a moment, so that the page
// draws, shows how far it has got and takes Stop (or another dataset),
// which drops it. A large run (a long Δ_t history) was one task of the
// main thread that froze the page.
func (g *glue) openRun(name, text string) {
	g.Dispatch(store.RunReading{Name: name, Total: len(text)})
	seq := g.state.OpenSeq
	stale := func() bool { return g.state.Opening != name || g.state.OpenSeq != seq }
	go func() {
		worked, shown := now(), now()
		run, p, err := store.ParseRunChecked(text, func(done, total int) error {
			if t := now(); t-worked >= openWork {
				time.Sleep(time.Millisecond)
				worked = now()
				if worked-shown >= progressRedrawEvery && !stale() {
					shown = worked
					g.Dispatch(store.RunReading{Name: name, Done: done, Total: total})
				}
			}
			if stale() {
				return errStopped
			}
			return nil
		})
		if !stale() {
			g.Dispatch(store.RunRead{Name: name, Seq: seq, Run: run, Params: p, Err: err})
		}
	}()
}

// openWork is how long a saved run's parse works before it lets the page
// run, in ms.
const openWork = 20

func now() float64 { return performance.Call("now").Float() }

// heard notes what a message from the worker proves: the run a Stop was
// sent for has ended when its last message (a final progress, its result,
// its error) arrives, or when the worker answers any later request (it
// handles them in order).
func (g *glue) heard(m protocol.Message) {
	if g.stopID == 0 {
		return
	}
	final := m.Kind == protocol.KindResult || m.Kind == protocol.KindError ||
		(m.Kind == protocol.KindProgress && m.Progress.Status != "")
	if m.ID != g.stopID || final {
		g.stopID = 0
	}
}

// watchdog restarts a worker that did not honour Stop within stopGrace, or
// that has said nothing for silentGrace while a run is on.
func (g *glue) watchdog() {
	t := now()
	switch {
	case g.stopID != 0 && t-g.stopAt > stopGrace:
		g.stopID = 0
		g.died("it did not stop within " + itoa(stopGrace/1000) + " s of Stop")
	case g.state.Status == store.Running && g.state.Ready && g.heardAt > 0 && t-g.heardAt > silentGrace:
		g.died("it said nothing for " + itoa(silentGrace/1000) + " s while running")
	case g.pingAt > 0 && t-g.pingAt > pingGrace:
		g.died("it did not answer for " + itoa(pingGrace/1000) + " s")
	case g.pingAt == 0 && g.state.Ready && g.heardAt > 0 && t-g.heardAt > pingEvery:
		g.pingAt = t
		g.send(protocol.Message{Kind: protocol.KindPing})
	}
}

// died restarts the worker, unless it keeps dying at once.
func (g *glue) died(reason string) {
	g.stopID, g.heardAt, g.pingAt = 0, now(), 0
	g.worker.Call("terminate")
	g.stopHelpers()
	g.failures++
	if g.failures > maxRestarts {
		g.Dispatch(store.Invalid{Message: "The solver could not be started (" + reason + "). Reload the page to try again."})
		return
	}
	g.Dispatch(store.WorkerDied{Reason: reason})
	g.startWorker()
}
