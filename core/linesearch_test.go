package core

import (
	"errors"
	"math"
	"testing"
)

// The line search on f(x) = x²/2 from y = 1 (∇f = 1, true curvature 1):
// FISTA's test rejects every curvature below 1 and accepts the first at
// or above it; a search that never passes stops after maxTries trials;
// a trial's error ends it.
func TestBacktrack(t *testing.T) {
	f := func(x float64) float64 { return x * x / 2 }
	y, g := 1.0, 1.0
	var tried []float64
	l := 1.0 / 16
	err := backtrack(&l, 2, func(l float64) (bool, error) {
		tried = append(tried, l)
		x := y - g/l
		return underModel(f(x), f(y), g*(x-y), (x-y)*(x-y), l, roundingSlack), nil
	})
	if err != nil || l != 1 || len(tried) != 5 {
		t.Errorf("accepted L = %g after %v (%v), want 1 after 1/16 … 1", l, tried, err)
	}
	n := 0
	s := 1.0
	if err := backtrack(&s, 0.5, func(float64) (bool, error) { n++; return false, nil }); !errors.Is(err, errBacktrack) || n != maxTries {
		t.Errorf("a search that never passes: %v after %d trials, want errBacktrack after %d", err, n, maxTries)
	}
	stop := errors.New("stop")
	if err := backtrack(&s, 0.5, func(float64) (bool, error) { return false, stop }); err != stop {
		t.Errorf("a trial's error: %v", err)
	}
	// The test itself: exactly at the model passes, above it by more than
	// rounding fails, and a step of length 0 passes whatever f says.
	if !underModel(1.5, 1, 0.25, 0.5, 1, 0) || underModel(1.5+1e-9, 1, 0.25, 0.5, 1, roundingSlack) || !underModel(math.Inf(1), 1, 0, 0, 1, 0) {
		t.Error("underModel")
	}
}
