package core

import (
	"context"
	"slices"
	"testing"
	"time"

	"gonum.org/v1/gonum/mat"
)

// Settings.Metric hands out the run's best metric so far without changing
// the run: with it called after every iteration, every method returns the
// same bits as without; and the metric it gave after iteration t is, to the
// bit, the one a run stopped by MaxIter = t returns.
func TestMetricChangesNothing(t *testing.T) {
	p := labelProblem(t, "iris.csv", 0.8, 1)
	for _, m := range []Method{Fast, Nesterov, Gradient, LMNN, Xing, BestCase} {
		t.Run(m.String(), func(t *testing.T) {
			base := Settings{Method: m, Tol: 1e-6, MaxIter: 60}
			plain, err := Solve(context.Background(), p, base)
			if err != nil {
				t.Fatal(err)
			}
			type snap struct {
				iter int
				a    *mat.SymDense
			}
			var got []snap
			watched := base
			watched.MetricEvery = time.Nanosecond
			watched.Metric = func(pr Progress, a *mat.SymDense) { got = append(got, snap{pr.Iter, a}) }
			res, err := Solve(context.Background(), p, watched)
			if err != nil {
				t.Fatal(err)
			}
			if !mat.Equal(res.A, plain.A) || !slices.Equal(res.Q, plain.Q) || res.Iter != plain.Iter || res.Gap != plain.Gap {
				t.Fatalf("with Metric: %d iterations, gap %g; without: %d, %g (or A, q differ)", res.Iter, res.Gap, plain.Iter, plain.Gap)
			}
			// The first call comes after the first iteration; later ones
			// are spaced (TestMetricSpacing).
			if res.Iter > 1 && (len(got) == 0 || got[0].iter != 1) {
				t.Fatalf("%d calls in %d iterations, the first not after the first iteration", len(got), res.Iter)
			}
			if m == BestCase {
				return // its MaxIter bounds its inner solves too: no run stops where it did
			}
			for _, k := range []int{0, len(got) / 2, len(got) - 1} {
				if k < 0 || k >= len(got) {
					continue
				}
				s := got[k]
				cut := base
				cut.MaxIter = s.iter
				r, err := Solve(context.Background(), p, cut)
				if err != nil {
					t.Fatal(err)
				}
				if !mat.Equal(s.a, r.A) {
					t.Errorf("the metric after iteration %d differs from a run stopped there", s.iter)
				}
			}
		})
	}
}

// Metric's calls are spaced by MetricEvery, and by metricSpacing times what
// a call took when that is longer: a slow callback gets at most a twentieth
// of the run.
func TestMetricSpacing(t *testing.T) {
	p := labelProblem(t, "sonar.csv", 0.8, 1)
	calls := 0
	const cost = 20 * time.Millisecond
	start := time.Now()
	res, err := Solve(context.Background(), p, Settings{Method: Gradient, Tol: 1e-12, TimeLimit: time.Second,
		MetricEvery: time.Nanosecond, Metric: func(Progress, *mat.SymDense) { calls++; time.Sleep(cost) }})
	if err != nil {
		t.Fatal(err)
	}
	el := time.Since(start)
	// Each call costs at least cost and is followed by at least
	// metricSpacing·cost without one: at most el/((1+metricSpacing)·cost)
	// + 1 calls, whatever the machine.
	if limit := int(el/((1+metricSpacing)*cost)) + 1; calls > limit || calls == 0 {
		t.Errorf("%d calls in %v (%d iterations): want between 1 and %d", calls, el, res.Iter, limit)
	}
}
