package e2e

import (
	"context"
	"encoding/json"
	"fmt"
	"runtime"
	"sort"
	"strings"
	"sync"

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
	cfg := &tracing.TraceConfig{IncludedCategories: []string{"toplevel", "v8.wasm", "blink.user_timing"}}
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

// tracedTask is one of the page's main-thread tasks in a trace.
type tracedTask struct {
	ts        float64 // µs
	step      string  // the last "rml-step:" mark before it
	wall, cpu float64 // ms
	compile   float64 // ms of CPU V8's background wasm compilation took within its span, summed over threads
	others    float64 // ms of CPU every other thread of the browser's took within its span (the compilation's included)
}

// traceSummary is what a trace says about the page's main thread.
type traceSummary struct {
	long    []tracedTask // its tasks over 50 ms of wall time, in order
	compile float64      // ms of CPU V8's background wasm compilation took through the whole trace
}

// summarize finds the page's main thread (the thread that emitted the
// "rml-step:" marks; visit marks its first step at once) and its tasks
// over 50 ms.
func summarize(evs []traceEvent) traceSummary {
	type thread struct{ pid, tid int }
	type mark struct {
		ts   float64
		step string
	}
	var marks []mark
	var main thread
	for _, e := range evs {
		if s, ok := strings.CutPrefix(e.Name, "rml-step:"); ok {
			marks = append(marks, mark{e.Ts, s})
			main = thread{e.Pid, e.Tid}
		}
	}
	var sum traceSummary
	if len(marks) == 0 {
		return sum // no step marked: no main thread to speak of
	}
	sort.Slice(marks, func(i, j int) bool { return marks[i].ts < marks[j].ts })
	var compiles, tasks []traceEvent
	for _, e := range evs {
		if e.Ph == "X" && (e.Name == "ThreadControllerImpl::RunTask" || e.Name == "ThreadPool_RunTask") && (thread{e.Pid, e.Tid}) != main {
			tasks = append(tasks, e)
		}
		if e.Ph == "X" && e.Name == "wasm.ExecuteCompilationUnits" {
			compiles = append(compiles, e)
			sum.compile += e.TDur / 1000
		}
	}
	for _, e := range evs {
		if e.Ph != "X" || e.Name != "ThreadControllerImpl::RunTask" || e.Dur <= 50000 || (thread{e.Pid, e.Tid}) != main {
			continue
		}
		t := tracedTask{ts: e.Ts, wall: e.Dur / 1000, cpu: e.TDur / 1000}
		for _, m := range marks {
			if m.ts <= e.Ts {
				t.step = m.step
			}
		}
		t.compile, t.others = cpuWithin(compiles, e), cpuWithin(tasks, e)
		sum.long = append(sum.long, t)
	}
	sort.Slice(sum.long, func(i, j int) bool { return sum.long[i].ts < sum.long[j].ts })
	return sum
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
	out := []string{fmt.Sprintf("Chromium's trace of the same visit (wall time / the main thread's CPU time / the CPU time of V8's background compilation of the wasm meanwhile / of every other thread of the browser meanwhile, ms; %d cores give %d ms of CPU per ms): %d tasks over 50 ms of wall time; over 50 ms of CPU time: %d, the most CPU in one task %.0f ms; V8 compiled the wasm's hot functions for %.1f s of CPU on its background threads during the visit",
		runtime.NumCPU(), runtime.NumCPU(), len(s.long), over, longest, s.compile/1000)}
	return append(out, byStep...)
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
