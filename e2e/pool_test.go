package e2e

import (
	"strconv"
	"strings"
	"testing"
	"time"
)

// With two solver workers, the η sweep and Compare give exactly what one
// worker gives: the same points, columns and shown result (the store runs
// a batch's jobs on both and shows them in order; ui/store's
// TestPoolSameAsOneWorker checks every order of replies). The helper takes
// some of the runs; "?workers=1" keeps to one worker.
func TestWorkerPool(t *testing.T) {
	var seen [2]string
	for i, workers := range []int{1, 2} {
		p := newTab(t)
		p.navigate(baseURL + "?workers=" + strconv.Itoa(workers) + "#data=Iris")
		p.waitTrainEnabled()
		p.noiseLesson()
		// The helper starts once the page is idle, then reads the data.
		p.poll(`document.querySelector('[data-testid="status"]').dataset.workers === "`+strconv.Itoa(workers)+`"`, 30*time.Second)
		start := time.Now()
		p.click("eta-sweep")
		p.waitRuns(sweepCount, etaSweepRuns, 3*time.Minute)
		sweep := time.Since(start)
		p.click("compare")
		p.waitRuns(compareCount, compareRuns, 3*time.Minute)
		var helperRuns string
		p.eval(`document.querySelector('[data-testid="status"]').dataset.helperRuns`, &helperRuns)
		if (workers == 1) != (helperRuns == "0") {
			t.Errorf("%d workers: the helper ran %s runs", workers, helperRuns)
		}
		// The sweep chart by its drawing and text (attributes come in any
		// order), the summaries, the columns and the run shown.
		p.eval(`[[...document.querySelectorAll('[data-testid="eta-sweep-chart"] path, [data-testid="projection-learned"] path')].map(e => e.getAttribute('d')).join(' '),
			...['sweep-summary', 'compare-table', 'compare-summary', 'iteration', 'gap-value', 'rel-gap-value', 'error-learned', 'error-euclid']
				.map(id => document.querySelector('[data-testid="' + id + '"]').textContent)].join('\n')`, &seen[i])
		t.Logf("%d workers: η sweep on Wine in %.1f s; %s runs on the helper", workers, sweep.Seconds(), helperRuns)
	}
	if seen[0] != seen[1] {
		t.Errorf("one worker showed\n%s\n\ntwo showed\n%s", seen[0], seen[1])
	}
}

// A helper that dies in the middle of a sweep ends the sweep with the
// reason, once the page reaches the run it had; a new helper replaces it,
// and the next sweep completes on lane 0 and the new helper.
func TestHelperDies(t *testing.T) {
	wrap := beforeLoad(`(() => {
			const Real = window.Worker; window.__workers = [];
			window.Worker = function (url, opts) { const w = new Real(url, opts); window.__workers.push(w); return w; };
		})()`)
	p := open(t, "?workers=2#data=Wine", wrap)
	p.poll(`document.querySelector('[data-testid="status"]').dataset.workers === "2"`, 30*time.Second)
	p.click("eta-sweep")
	p.eval(`window.__workers[1].onmessage({data: {fatal: 'the solver program exited'}}); true`, new(bool))
	p.waitStatus("error", 60*time.Second)
	if m := p.text("message"); m != "A solver worker stopped unexpectedly (the solver program exited)." {
		t.Errorf("message %q", m)
	}
	// A new helper replaces it: a third Worker, in use once it holds the
	// data; the message stays.
	p.poll(`window.__workers.length === 3 && document.querySelector('[data-testid="status"]').dataset.workers === "2"`, 30*time.Second)
	if m := p.text("message"); !strings.Contains(m, "the solver program exited") {
		t.Errorf("after the replacement the message is %q", m)
	}
	p.click("eta-sweep")
	p.waitRuns(sweepCount, etaSweepRuns, 3*time.Minute)
}

// The helper reads lane 0's data when the page can spare a core: not while
// lane 0 trains on a dataset just chosen (it is then not counted as a
// worker, holding another dataset), but once lane 0 is quiet, and at once
// when a batch starts.
func TestHelperReadsWhenIdle(t *testing.T) {
	p := open(t, "?workers=2#data=Iris")
	workers := `document.querySelector('[data-testid="status"]').dataset.workers`
	p.poll(workers+` === "2"`, 30*time.Second)
	p.runSonar("1e-12")
	time.Sleep(2 * time.Second)
	var n string
	p.eval(workers, &n)
	if n != "1" {
		t.Errorf("while lane 0 trains on Sonar, %s workers hold it; want 1 (the helper reads it once lane 0 is quiet)", n)
	}
	p.click("stop")
	p.waitResult("stopped", 30*time.Second)
	p.poll(workers+` === "2"`, 15*time.Second)

	// A batch right after another dataset: the helper reads it at once and
	// takes some of the batch's runs.
	p.set("method", "fast")
	p.set("dataset-select", "Wine")
	p.waitTrainEnabled()
	p.click("eta-sweep")
	p.waitRuns(sweepCount, etaSweepRuns, 3*time.Minute)
	var runs string
	p.eval(`document.querySelector('[data-testid="status"]').dataset.helperRuns`, &runs)
	if runs == "0" {
		t.Error("the helper ran none of the η sweep's runs")
	}
}

// In Chromium the solver's innermost loops run as WebAssembly SIMD: the
// worker links wasm/simd's module to its own memory (assets/worker.js
// hands it over) and says so in its first message. Under Node,
// wasm/simd's tests check that the kernels give Go's results to the bit.
func TestSIMDKernels(t *testing.T) {
	p := open(t, "#data=Wine")
	kernels := `document.querySelector('[data-testid="status"]').dataset.kernels`
	p.poll(kernels+` !== ""`, 30*time.Second)
	var got string
	p.eval(kernels, &got)
	if got != "WebAssembly SIMD" {
		t.Errorf("the worker's kernels: %q, want %q", got, "WebAssembly SIMD")
	}
}
