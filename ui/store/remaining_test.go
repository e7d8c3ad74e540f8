package store

import (
	"math"
	"testing"

	"github.com/rml-lab/rml/spec"
)

// A gap that falls by a factor 0.9 per iteration from 10, at 100
// iterations per second: from t = 100 (gap 10·0.9^100) to the stopping level
// 1e-6 × max(1, |P| = 2) = 2e-6 take ln(2e-6 / (10·0.9^100)) / ln 0.9
// iterations, worked out here by hand rather than by the code under test.
func TestRemaining(t *testing.T) {
	s := New(DefaultParams)
	s.Status = Running
	for i := 1; i <= 100; i++ {
		g := 10 * math.Pow(0.9, float64(i))
		if i%2 == 0 {
			g *= 3 // an oscillation the best-so-far gap ignores
		}
		s.Trace.Iters = append(s.Trace.Iters, float64(i))
		s.Trace.Gaps = append(s.Trace.Gaps, g)
	}
	s.Last.Iter, s.Last.Seconds, s.Last.Primal = 100, 1, 2
	got, ok := s.Remaining()
	// The best gap at t = 100 is that of t = 99, and at t/2 = 50 that of 49.
	want := math.Log(spec.StopGap(1e-6, 2)/(10*math.Pow(0.9, 99))) / math.Log(0.9) / 100
	if !ok || math.Abs(got-want) > 1e-9*want {
		t.Fatalf("remaining %v (ok %v), want %v", got, ok, want)
	}
	// Not enough to go on, not falling, not running: no estimate.
	for name, f := range map[string]func(*State){
		"early":       func(s *State) { s.Last.Seconds = 0.1 },
		"flat":        func(s *State) { s.Trace.Gaps = make([]float64, len(s.Trace.Gaps)); s.Trace.Gaps[0] = 1 },
		"not running": func(s *State) { s.Status = Converged },
	} {
		c := *s
		c.Trace = Trace{Iters: append([]float64(nil), s.Trace.Iters...), Gaps: append([]float64(nil), s.Trace.Gaps...)}
		f(&c)
		if v, ok := c.Remaining(); ok {
			t.Errorf("%s: estimate %v", name, v)
		}
	}
}
