package e2e

import (
	"context"
	"encoding/json"
	"fmt"
	"math"
	"runtime"
	"slices"
	"sort"
	"strings"
	"sync"
	"testing"

	"github.com/chromedp/cdproto/tracing"
	"github.com/chromedp/chromedp"
)

// A Chromium trace of a tab, light enough to run under a whole visit: the
// tasks of every thread ("toplevel": each with its wall time dur and its
// thread's CPU time tdur), V8's compilation of the wasm ("v8.wasm") and the
// page's performance marks ("blink.user_timing"), which name the steps.
//
// PerformanceObserver's long tasks are wall time: a task that waits for a
// core counts as long as one that computes. The trace tells the two
// apart, and says what else ran meanwhile.

// traceEvent is one event of Chromium's trace format.
type traceEvent struct {
	Name string  `json:"name"`
	Ph   string  `json:"ph"`
	Ts   float64 `json:"ts"`   // µs
	Dur  float64 `json:"dur"`  // µs of wall time
	TDur float64 `json:"tdur"` // µs of the thread's CPU time
	Pid  int     `json:"pid"`
	Tid  int     `json:"tid"`
	Args struct {
		Name string `json:"name"` // a thread's name, in its "thread_name" metadata event
	} `json:"args"`
}

type tabTrace struct {
	mu      sync.Mutex
	evs     []traceEvent
	stopped bool
	done    chan struct{}
	once    sync.Once
}

// startTrace starts tracing p's browser.
func (p *page) startTrace() *tabTrace {
	tr := &tabTrace{done: make(chan struct{})}
	chromedp.ListenTarget(p.ctx, func(ev any) {
		switch ev := ev.(type) {
		case *tracing.EventDataCollected:
			tr.mu.Lock()
			if tr.stopped {
				tr.mu.Unlock()
				return // a later trace's
			}
			for _, raw := range ev.Value {
				var e traceEvent
				if json.Unmarshal(raw, &e) == nil {
					tr.evs = append(tr.evs, e)
				}
			}
			tr.mu.Unlock()
		case *tracing.EventTracingComplete:
			tr.once.Do(func() { close(tr.done) })
		}
	})
	cfg := &tracing.TraceConfig{IncludedCategories: []string{"toplevel", "v8.wasm", "blink.user_timing", "devtools.timeline", "v8"}}
	p.run(tracing.Start().WithTransferMode(tracing.TransferModeReportEvents).WithTraceConfig(cfg))
	return tr
}

// stop ends the trace and returns its events.
func (tr *tabTrace) stop(p *page) []traceEvent {
	p.run(chromedp.ActionFunc(func(ctx context.Context) error { return tracing.End().Do(ctx) }))
	<-tr.done
	tr.mu.Lock()
	defer tr.mu.Unlock()
	tr.stopped = true
	return tr.evs
}

// thread is a thread of the browser, across its processes.
type thread struct{ pid, tid int }

func threadOf(e traceEvent) thread { return thread{e.Pid, e.Tid} }

// threadNames maps each thread to its name (its "thread_name" metadata
// event), "" if it has none.
func threadNames(evs []traceEvent) map[thread]string {
	names := map[thread]string{}
	for _, e := range evs {
		if e.Ph == "M" && e.Name == "thread_name" {
			names[threadOf(e)] = e.Args.Name
		}
	}
	return names
}

// isTask reports whether e is a task of a thread ("toplevel").
func isTask(e traceEvent) bool {
	return e.Ph == "X" && (e.Name == "ThreadControllerImpl::RunTask" || e.Name == "ThreadPool_RunTask")
}

// cpuByThread returns the CPU the tasks took within w's span, by thread
// name ("main" for main, "unnamed" for a thread without a name), those of
// 1 ms or more, most first.
func cpuByThread(tasks []traceEvent, names map[thread]string, main thread, w traceEvent) []spent {
	by := map[string]float64{}
	for _, c := range tasks {
		name := names[threadOf(c)]
		switch {
		case threadOf(c) == main:
			name = "main"
		case name == "":
			name = "unnamed"
		}
		by[name] += cpuWithin([]traceEvent{c}, w)
	}
	var out []spent
	for name, ms := range by {
		if ms >= 1 {
			out = append(out, spent{name: name, cpu: ms})
		}
	}
	sort.Slice(out, func(i, j int) bool { return out[i].cpu > out[j].cpu })
	return out
}

// top formats the first n of sp by f, joined by commas.
func top(sp []spent, n int, f func(spent) string) string {
	var out []string
	for _, c := range sp[:min(n, len(sp))] {
		out = append(out, f(c))
	}
	return strings.Join(out, ", ")
}

// tracedTask is one of the page's main-thread tasks in a trace.
type tracedTask struct {
	ts        float64 // µs
	step      string  // the last "rml-step:" mark before it
	since     float64 // ms from that mark to the task's start
	wall, cpu float64 // ms
	compile   float64 // ms of CPU V8's background wasm compilation took within its span, summed over threads
	others    float64 // ms of CPU every other thread of the browser's took within its span (the compilation's included)
	inside    []spent // the main thread's outermost traced events within it, longest first
	renders   []spent // the panels it rendered (wall ms, from the "rml-render:" marks), longest first
	threads   []spent // the CPU other threads took within its span, by thread name, most first
}

// spent is time spent by one named thing: wall and CPU, ms.
type spent struct {
	name      string
	wall, cpu float64
}

// traceSummary is what a trace says about the page's main thread.
type traceSummary struct {
	long    []tracedTask // its tasks over 50 ms of wall time, in order
	compile float64      // ms of CPU V8's background wasm compilation took through the whole trace
	// heaviest is each panel's longest render in one task through the
	// whole trace (wall ms), longest first: what stands nearest the 50 ms
	// line even in a visit with no long task.
	heaviest []spent
}

// mark is a performance mark in a trace: when, and its name after the
// prefix ("rml-step:" or "rml-render:").
type mark struct {
	ts   float64
	step string
}

// summarize finds the page's main thread (the thread that emitted the
// "rml-step:" marks; visit marks its first step at once) and its tasks
// over 50 ms.
func summarize(evs []traceEvent) traceSummary {
	var marks, renders []mark
	var main thread
	for _, e := range evs {
		if s, ok := strings.CutPrefix(e.Name, "rml-step:"); ok {
			marks = append(marks, mark{e.Ts, s})
			main = threadOf(e)
		}
		if s, ok := strings.CutPrefix(e.Name, "rml-render:"); ok {
			renders = append(renders, mark{e.Ts, s})
		}
	}
	sort.Slice(renders, func(i, j int) bool { return renders[i].ts < renders[j].ts })
	var sum traceSummary
	if len(marks) == 0 {
		return sum // no step marked: no main thread to speak of
	}
	sort.Slice(marks, func(i, j int) bool { return marks[i].ts < marks[j].ts })
	var compiles, tasks, onMain []traceEvent
	names := threadNames(evs)
	for _, e := range evs {
		if e.Ph == "X" && threadOf(e) == main && e.Name != "ThreadControllerImpl::RunTask" {
			onMain = append(onMain, e)
		}
		if isTask(e) && threadOf(e) != main {
			tasks = append(tasks, e)
		}
		if e.Ph == "X" && e.Name == "wasm.ExecuteCompilationUnits" {
			compiles = append(compiles, e)
			sum.compile += e.TDur / 1000
		}
	}
	longest := map[string]float64{}
	for _, e := range evs {
		if e.Ph != "X" || e.Name != "ThreadControllerImpl::RunTask" || threadOf(e) != main {
			continue
		}
		by := rendersIn(renders, e)
		for name, ms := range by {
			longest[name] = max(longest[name], ms)
		}
		if e.Dur <= 50000 {
			continue
		}
		t := tracedTask{ts: e.Ts, wall: e.Dur / 1000, cpu: e.TDur / 1000}
		for _, m := range marks {
			if m.ts <= e.Ts {
				t.step, t.since = m.step, (e.Ts-m.ts)/1000
			}
		}
		t.compile, t.others = cpuWithin(compiles, e), cpuWithin(tasks, e)
		t.inside = outermost(onMain, e)
		for name, ms := range by {
			t.renders = append(t.renders, spent{name: name, wall: ms})
		}
		sort.Slice(t.renders, func(i, j int) bool { return t.renders[i].wall > t.renders[j].wall })
		t.threads = cpuByThread(tasks, names, main, e)
		sum.long = append(sum.long, t)
	}
	sort.Slice(sum.long, func(i, j int) bool { return sum.long[i].ts < sum.long[j].ts })
	for name, ms := range longest {
		sum.heaviest = append(sum.heaviest, spent{name: name, wall: ms})
	}
	sort.Slice(sum.heaviest, func(i, j int) bool {
		a, b := sum.heaviest[i], sum.heaviest[j]
		return a.wall > b.wall || a.wall == b.wall && a.name < b.name
	})
	return sum
}

// rendersIn returns the panels rendered in the task e, by name (wall ms):
// each render runs from its "rml-render:" mark (renders, sorted by time)
// to the next panel's mark, or to the task's end.
func rendersIn(renders []mark, e traceEvent) map[string]float64 {
	by := map[string]float64{}
	for i, m := range renders {
		if m.ts < e.Ts || m.ts > e.Ts+e.Dur {
			continue
		}
		end := e.Ts + e.Dur
		if i+1 < len(renders) && renders[i+1].ts < end {
			end = renders[i+1].ts
		}
		by[m.step] += (end - m.ts) / 1000
	}
	return by
}

// lines reports the summary for e2e/out/longtasks.txt.
func (s traceSummary) lines() []string {
	over, longest := 0, 0.0
	var byStep []string
	last := ""
	for _, t := range s.long {
		longest = max(longest, t.cpu)
		if t.cpu > 50 {
			over++
		}
		item := fmt.Sprintf("%.0f/%.0f/%.0f/%.0f", t.wall, t.cpu, t.compile, t.others)
		if t.step != last || len(byStep) == 0 {
			byStep = append(byStep, "    "+t.step+": "+item)
			last = t.step
		} else {
			byStep[len(byStep)-1] += ", " + item
		}
	}
	out := []string{fmt.Sprintf("Chromium's trace of that visit (wall time / the main thread's CPU time / the CPU time of V8's background compilation of the wasm meanwhile / of every other thread of the browser meanwhile, ms; %d cores give %d ms of CPU per ms): %d tasks over 50 ms of wall time; over 50 ms of CPU time: %d, the most CPU in one task %.0f ms; V8 compiled the wasm's hot functions for %.1f s of CPU on its background threads during the visit",
		runtime.NumCPU(), runtime.NumCPU(), len(s.long), over, longest, s.compile/1000)}
	out = append(out, byStep...)
	if len(s.heaviest) > 0 {
		out = append(out, "  each panel's longest render in one task through the visit (wall ms, from its \"rml-render:\" mark to the next panel's or the task's end; the longest six): "+top(s.heaviest, 6, func(r spent) string { return fmt.Sprintf("%s %.0f", r.name, r.wall) }))
	}
	return append(out, s.details()...)
}

// details reports, for each task over 50 ms, what the main thread ran in
// it and which threads took the cores meanwhile.
func (s traceSummary) details() []string {
	var out []string
	if len(s.long) > 0 {
		out = append(out, "  each such task, by its step (+ ms from the step's start to the task's): the main thread's outermost traced events in it (wall/CPU ms, the longest four; then the panels it rendered, from their \"rml-render:\" marks), and the CPU other threads took meanwhile (ms, by thread, the most four)")
	}
	for _, t := range s.long {
		covered := 0.0
		for _, c := range t.inside {
			covered += c.wall
		}
		in := top(t.inside, 4, wallCPU) + fmt.Sprintf(", in no traced event %.0f", max(0, t.wall-covered))
		if len(t.renders) > 0 {
			in += ", panels rendered (wall ms): " + top(t.renders, 4, func(r spent) string { return fmt.Sprintf("%s %.0f", r.name, r.wall) })
		}
		out = append(out, fmt.Sprintf("    %s (+%.0f ms) %.0f/%.0f: %s; meanwhile %s", t.step, t.since, t.wall, t.cpu, in, top(t.threads, 4, cpuOnly)))
	}
	return out
}

// wallCPU and cpuOnly format a spent for a report.
func wallCPU(c spent) string { return fmt.Sprintf("%s %.0f/%.0f", c.name, c.wall, c.cpu) }
func cpuOnly(c spent) string { return fmt.Sprintf("%s %.0f", c.name, c.cpu) }

// outermost returns the events of evs (one thread's, sorted or not) that
// lie within w's span and inside no other such event, merged by name and
// longest first: where the thread's time in the task w went, as far as
// the trace's categories name it.
func outermost(evs []traceEvent, w traceEvent) []spent {
	var in []traceEvent
	for _, c := range evs {
		if c.Ph == "X" && c.Ts >= w.Ts && c.Ts+c.Dur <= w.Ts+w.Dur {
			in = append(in, c)
		}
	}
	// Longer first among events that start together, so that a parent
	// precedes its children.
	sort.Slice(in, func(i, j int) bool {
		if in[i].Ts != in[j].Ts {
			return in[i].Ts < in[j].Ts
		}
		return in[i].Dur > in[j].Dur
	})
	by := map[string]*spent{}
	var order []string
	end := -1.0
	for _, c := range in {
		if c.Ts < end {
			continue // inside the last outermost event
		}
		end = c.Ts + c.Dur
		sp := by[c.Name]
		if sp == nil {
			sp = &spent{name: c.Name}
			by[c.Name] = sp
			order = append(order, c.Name)
		}
		sp.wall += c.Dur / 1000
		sp.cpu += c.TDur / 1000
	}
	out := make([]spent, 0, len(order))
	for _, n := range order {
		out = append(out, *by[n])
	}
	sort.SliceStable(out, func(i, j int) bool { return out[i].wall > out[j].wall })
	return out
}

// cpuWithin returns the ms of CPU the events took within w's span, each
// event's CPU time taken in proportion to its overlap with the span.
func cpuWithin(evs []traceEvent, w traceEvent) float64 {
	var ms float64
	for _, c := range evs {
		if lo, hi := max(w.Ts, c.Ts), min(w.Ts+w.Dur, c.Ts+c.Dur); hi > lo && c.Dur > 0 {
			ms += c.TDur * (hi - lo) / c.Dur / 1000
		}
	}
	return ms
}

// TestOutermost checks the summary's breakdown of a task on a made-up
// trace: children inside a child are not counted again, events that
// cross the task's edges are left out, and names are merged.
func TestOutermost(t *testing.T) {
	ev := func(name string, ts, dur, tdur float64) traceEvent {
		return traceEvent{Name: name, Ph: "X", Ts: ts, Dur: dur, TDur: tdur}
	}
	task := ev("ThreadControllerImpl::RunTask", 1000, 100000, 30000)
	evs := []traceEvent{
		ev("FireAnimationFrame", 1000, 40000, 10000), // starts with the task
		ev("FunctionCall", 1000, 39000, 9000),        // inside the frame
		ev("Layout", 50000, 10000, 5000),
		ev("Layout", 70000, 20000, 6000),
		ev("Paint", 72000, 1000, 1000),  // inside the second layout
		ev("Paint", 95000, 10000, 1000), // crosses the task's end
		ev("GC", 0, 500, 500),           // before the task
	}
	got := outermost(evs, task)
	want := []spent{{"FireAnimationFrame", 40, 10}, {"Layout", 30, 11}}
	if !slices.Equal(got, want) {
		t.Errorf("outermost = %v, want %v", got, want)
	}
}

// spanCPU is what a trace says about one span of the page's (a sweep's,
// between its "rml-sweep:start" and "rml-sweep:end" marks): the CPU every
// thread of the browser took in it, by thread name (the page's main
// thread as "main"), and the main thread's outermost traced events.
type spanCPU struct {
	wall    float64 // ms
	threads []spent // CPU by thread name, most first
	main    []spent // the main thread's outermost events, longest first
	workers []lane  // each worker thread's time in the span, by its first task
}

// lane is one worker thread's time in a span, ms: the wall time of its
// tasks, and the time it ran none, before its first, between two (in
// gaps over 2 ms, counted) and after its last.
type lane struct {
	busy, before, between, after float64
	gaps                         int
}

// summarizeSpan finds the span between the last pair of sweep marks.
func summarizeSpan(evs []traceEvent) (spanCPU, bool) {
	var from, to float64
	var main thread
	for _, e := range evs {
		switch e.Name {
		case "rml-sweep:start":
			from, main = e.Ts, threadOf(e)
		case "rml-sweep:end":
			to = e.Ts
		}
	}
	if to <= from {
		return spanCPU{}, false
	}
	span := traceEvent{Ts: from, Dur: to - from}
	names := threadNames(evs)
	var onMain, tasks []traceEvent
	onWorker := map[thread][]traceEvent{}
	for _, e := range evs {
		if e.Ph != "X" {
			continue
		}
		th := threadOf(e)
		if e.Name == "ThreadControllerImpl::RunTask" && names[th] == "DedicatedWorker thread" && e.Ts < to && e.Ts+e.Dur > from {
			onWorker[th] = append(onWorker[th], e)
		}
		if th == main && e.Name != "ThreadControllerImpl::RunTask" {
			onMain = append(onMain, e)
		}
		if isTask(e) {
			tasks = append(tasks, e)
		}
	}
	out := spanCPU{wall: span.Dur / 1000, main: outermost(onMain, span), threads: cpuByThread(tasks, names, main, span)}
	for _, ts := range onWorker {
		sort.Slice(ts, func(i, j int) bool { return ts[i].Ts < ts[j].Ts })
		var l lane
		at := from // the end of the last task, clipped to the span
		for i, e := range ts {
			lo, hi := max(e.Ts, from), min(e.Ts+e.Dur, to)
			l.busy += max(0, hi-lo) / 1000
			switch gap := (lo - at) / 1000; {
			case i == 0:
				l.before = max(0, gap)
			case gap > 2:
				l.between += gap
				l.gaps++
			}
			at = max(at, hi)
		}
		l.after = (to - at) / 1000
		out.workers = append(out.workers, l)
	}
	sort.Slice(out.workers, func(i, j int) bool { return out.workers[i].before < out.workers[j].before })
	return out, true
}

// line reports the span: CPU by thread, then the main thread's events.
func (s spanCPU) line() string {
	var ws []string
	for _, l := range s.workers {
		if l.busy < 5 {
			continue // the other page's worker, idle
		}
		ws = append(ws, fmt.Sprintf("busy %.0f, idle %.0f before its first task, %.0f in %d gaps over 2 ms, %.0f after its last", l.busy, l.before, l.between, l.gaps, l.after))
	}
	return fmt.Sprintf("%.0f ms; CPU by thread (ms): %s; the main thread's outermost events (wall/CPU ms): %s; each worker's wall time (ms): %s", s.wall, top(s.threads, 6, cpuOnly), top(s.main, 5, wallCPU), strings.Join(ws, "; "))
}

// sweepBound is the most two workers could gain over one for the sweeps
// that one and two traced (the page on one worker, the page on two): one
// worker's wall time T₁ over the least time two cores need for what the
// two-worker sweep asked of them — its workers' CPU W₂ and every other
// thread's R, split perfectly — plus its tail τ, the time from its
// workers' last task to its end (the last result decoded and drawn):
//
//	bound = T₁ / ((W₂ + R)/2 + τ)
//
// A measured ratio under it lost time to an imperfect split (a lane idle
// while the other works); one at it has nothing left to gain but CPU.
func sweepBound(one, two spanCPU) (bound, workers, rest, tail float64) {
	for _, c := range two.threads {
		if c.name == "DedicatedWorker thread" {
			workers += c.cpu
		} else {
			rest += c.cpu
		}
	}
	tail = two.wall
	for _, l := range two.workers {
		if l.busy >= two.wall/4 { // another page's worker, busy 9 ms of a sweep once, is no lane
			tail = min(tail, l.after)
		}
	}
	return one.wall / ((workers+rest)/2 + tail), workers, rest, tail
}

// mainTasks returns the wall and CPU ms of each task of the main thread
// (the thread that made the mark named from) that ends after that mark,
// in the trace's order.
func mainTasks(evs []traceEvent, from string) (wall, cpu []float64) {
	var at float64
	var main thread
	found := false
	for _, e := range evs {
		if e.Name == from {
			at, main, found = e.Ts, threadOf(e), true
		}
	}
	if !found {
		return nil, nil
	}
	for _, e := range evs {
		if e.Ph == "X" && e.Name == "ThreadControllerImpl::RunTask" && threadOf(e) == main && e.Ts+e.Dur > at {
			wall, cpu = append(wall, e.Dur/1000), append(cpu, e.TDur/1000)
		}
	}
	return wall, cpu
}

// TestMainTasks checks that mainTasks keeps the marking thread's tasks
// that end after the mark, and no other thread's.
func TestMainTasks(t *testing.T) {
	task := func(tid int, ts, dur, tdur float64) traceEvent {
		return traceEvent{Name: "ThreadControllerImpl::RunTask", Ph: "X", Tid: tid, Ts: ts, Dur: dur, TDur: tdur}
	}
	evs := []traceEvent{
		task(1, 0, 5000, 4000), // ends before the mark
		{Name: "rml-compare:start", Ph: "R", Tid: 1, Ts: 10000},
		task(1, 8000, 6000, 5000),    // ends after it
		task(2, 20000, 90000, 90000), // another thread's
		task(1, 30000, 60000, 20000),
	}
	wall, cpu := mainTasks(evs, "rml-compare:start")
	if !slices.Equal(wall, []float64{6, 60}) || !slices.Equal(cpu, []float64{5, 20}) {
		t.Errorf("mainTasks = %v, %v; want [6 60], [5 20]", wall, cpu)
	}
	if w, c := mainTasks(evs, "rml-sweep:start"); w != nil || c != nil {
		t.Errorf("with no such mark, mainTasks = %v, %v; want none", w, c)
	}
}

// TestSummarizeSpan checks the sweep's summary on a made-up trace: CPU is
// taken in proportion to each task's overlap with the marked span, the
// marks' thread is "main", and threads are named by their metadata.
func TestSummarizeSpan(t *testing.T) {
	ev := func(name string, tid int, ts, dur, tdur float64) traceEvent {
		return traceEvent{Name: name, Ph: "X", Tid: tid, Ts: ts, Dur: dur, TDur: tdur}
	}
	meta := traceEvent{Name: "thread_name", Ph: "M", Tid: 2}
	meta.Args.Name = "DedicatedWorker thread"
	evs := []traceEvent{
		meta,
		{Name: "rml-sweep:start", Ph: "R", Tid: 1, Ts: 10000},
		{Name: "rml-sweep:end", Ph: "R", Tid: 1, Ts: 110000},
		ev("ThreadControllerImpl::RunTask", 1, 20000, 10000, 8000),
		ev("FunctionCall", 1, 20000, 9000, 7000),
		ev("ThreadControllerImpl::RunTask", 2, 0, 40000, 40000),     // three quarters inside
		ev("ThreadControllerImpl::RunTask", 2, 50000, 40000, 20000), // inside
		ev("ThreadPool_RunTask", 3, 100000, 20000, 20000),           // half inside, no name
	}
	sp, ok := summarizeSpan(evs)
	if !ok {
		t.Fatal("no span found")
	}
	want := []spent{{"DedicatedWorker thread", 0, 50}, {"unnamed", 0, 10}, {"main", 0, 8}}
	// The worker: busy 30 ms of its first task (clipped) and 40 of its
	// second, 10 ms between them, 20 ms after.
	lanes := []lane{{busy: 70, before: 0, between: 10, gaps: 1, after: 20}}
	if sp.wall != 100 || !slices.Equal(sp.threads, want) || !slices.Equal(sp.main, []spent{{"FunctionCall", 9, 7}}) || !slices.Equal(sp.workers, lanes) {
		t.Errorf("summarizeSpan = %+v, want 100 ms, threads %v, main [FunctionCall 9/7], workers %v", sp, want, lanes)
	}
}

// TestSweepBound checks the bound on made-up spans: one worker took
// 700 ms; two took 650 ms of worker CPU and 150 of the rest's, and the
// sooner of the two busy lanes ended 25 ms before the sweep (a third
// worker, busy 9 ms of it and ending 10 ms before, is no lane):
// 700 / (800/2 + 25) = ×1.647.
func TestSweepBound(t *testing.T) {
	one := spanCPU{wall: 700}
	two := spanCPU{wall: 450,
		threads: []spent{{"DedicatedWorker thread", 0, 650}, {"main", 0, 100}, {"VizCompositorThread", 0, 50}},
		workers: []lane{{busy: 400, after: 40}, {busy: 390, after: 25}, {busy: 9, after: 10}}}
	b, w, r, tail := sweepBound(one, two)
	if w != 650 || r != 150 || tail != 25 || math.Abs(b-700.0/425) > 1e-12 {
		t.Errorf("sweepBound = ×%v (workers %v, rest %v, tail %v), want ×%v (650, 150, 25)", b, w, r, tail, 700.0/425)
	}
}

// TestSummarizeRenders checks that a long task's panels are timed from
// each "rml-render:" mark to the next one within it, or to its end.
func TestSummarizeRenders(t *testing.T) {
	evs := []traceEvent{
		{Name: "rml-step:train", Ph: "R", Tid: 1, Ts: 0},
		{Name: "ThreadControllerImpl::RunTask", Ph: "X", Tid: 1, Ts: 1000, Dur: 60000, TDur: 50000},
		{Name: "rml-render:chart", Ph: "R", Tid: 1, Ts: 2000},
		{Name: "rml-render:projection", Ph: "R", Tid: 1, Ts: 12000},
		{Name: "rml-render:result", Ph: "R", Tid: 1, Ts: 52000},
		{Name: "rml-render:page", Ph: "R", Tid: 1, Ts: 90000}, // in a later task
	}
	sum := summarize(evs)
	if len(sum.long) != 1 {
		t.Fatalf("%d long tasks, want 1", len(sum.long))
	}
	want := []spent{{"projection", 40, 0}, {"chart", 10, 0}, {"result", 9, 0}}
	if got := sum.long[0].renders; !slices.Equal(got, want) {
		t.Errorf("renders %v, want %v", got, want)
	}
}

// TestSummarizeHeaviest checks that each panel's longest render is kept
// over every task of the main thread, long or not, and none of another
// thread's.
func TestSummarizeHeaviest(t *testing.T) {
	task := func(tid int, ts, dur float64) traceEvent {
		return traceEvent{Name: "ThreadControllerImpl::RunTask", Ph: "X", Tid: tid, Ts: ts, Dur: dur, TDur: dur}
	}
	render := func(name string, ts float64) traceEvent {
		return traceEvent{Name: "rml-render:" + name, Ph: "R", Tid: 1, Ts: ts}
	}
	evs := []traceEvent{
		{Name: "rml-step:visit", Ph: "R", Tid: 1, Ts: 0},
		task(1, 1000, 30000), render("chart", 2000), render("compare", 5000), // chart 3, compare 26
		task(1, 40000, 10000), render("chart", 41000), // chart 9
		task(2, 60000, 90000), render("projection", 61000), // another thread's task: not counted
		task(1, 200000, 60000), render("compare", 201000), render("chart", 251000), // compare 50, chart 9
	}
	sum := summarize(evs)
	want := []spent{{"compare", 50, 0}, {"chart", 9, 0}}
	if !slices.Equal(sum.heaviest, want) {
		t.Errorf("heaviest %v, want %v", sum.heaviest, want)
	}
}
