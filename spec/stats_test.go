package spec

import (
	"math"
	"testing"
)

// Wilson's interval against the published values: R. G. Newcombe, "Two-sided
// confidence intervals for the single proportion: comparison of seven
// methods", Statistics in Medicine 17 (1998) 857–872, Table I, method 3
// (the score interval without continuity correction), to its 4 decimals.
func TestWilsonNewcombe(t *testing.T) {
	for _, c := range []struct {
		k, n   int
		lo, hi float64
	}{
		{81, 263, 0.2553, 0.3662},
		{15, 148, 0.0624, 0.1605},
		{0, 20, 0, 0.1611},
		{1, 29, 0.0061, 0.1718},
	} {
		lo, hi := Wilson(c.k, c.n)
		if math.Abs(lo-c.lo) > 5e-5 || math.Abs(hi-c.hi) > 5e-5 {
			t.Errorf("Wilson(%d, %d) = [%.5f, %.5f], Newcombe gives [%.4f, %.4f]", c.k, c.n, lo, hi, c.lo, c.hi)
		}
	}
}

// The interval holds its proportion, mirrors (k ↔ n − k), and narrows as n
// grows at a fixed rate.
func TestWilsonShape(t *testing.T) {
	for n := 1; n <= 60; n++ {
		for k := 0; k <= n; k++ {
			lo, hi := Wilson(k, n)
			p := float64(k) / float64(n)
			if !(0 <= lo && lo <= p && p <= hi && hi <= 1) {
				t.Fatalf("Wilson(%d, %d) = [%g, %g] does not hold %g within [0, 1]", k, n, lo, hi, p)
			}
			mlo, mhi := Wilson(n-k, n)
			if math.Abs(lo-(1-mhi)) > 1e-12 || math.Abs(hi-(1-mlo)) > 1e-12 {
				t.Fatalf("Wilson(%d, %d) and Wilson(%d, %d) are not mirrors", k, n, n-k, n)
			}
		}
	}
	l1, h1 := Wilson(1, 36)
	l2, h2 := Wilson(10, 360)
	if !(h2-l2 < h1-l1) {
		t.Errorf("10 of 360 gives a width %g, not below 1 of 36's %g", h2-l2, h1-l1)
	}
	if k := Misclassified(1.0/36, 36); k != 1 {
		t.Errorf("Misclassified(1/36, 36) = %d", k)
	}
}

// IterationsLeft on a gap that halves every iteration from 1 (best so far
// at t = 40 is 2^−40, at t/2 = 20 it is 2^−20): to reach 2^−50 takes 10
// more; a gap below the level needs none; a flat gap or no trace gives no
// estimate.
func TestIterationsLeft(t *testing.T) {
	var iters, gaps []float64
	for i := 0; i <= 40; i++ {
		iters, gaps = append(iters, float64(i)), append(gaps, math.Pow(2, -float64(i)))
	}
	if left, ok := IterationsLeft(iters, gaps, math.Pow(2, -50)); !ok || math.Abs(left-10) > 1e-9 {
		t.Errorf("halving: %v left (ok %v), want 10", left, ok)
	}
	if left, ok := IterationsLeft(iters, gaps, 1e-3); !ok || left != 0 {
		t.Errorf("already below: %v (ok %v)", left, ok)
	}
	flat := make([]float64, len(gaps))
	for i := range flat {
		flat[i] = 1
	}
	if _, ok := IterationsLeft(iters, flat, 1e-6); ok {
		t.Error("a flat gap gave an estimate")
	}
	if _, ok := IterationsLeft(nil, nil, 1e-6); ok {
		t.Error("no trace gave an estimate")
	}
}

// FirstGuess scales GuessIters by the time per iteration, and has no upper
// end below GuessTol; RoughDuration moves to
// minutes at 90 s and to hours at 90 min, each rounded to the nearest.
func TestFirstGuess(t *testing.T) {
	lo, hi := FirstGuess(0.1, GuessTol)
	if lo != GuessIters[0]*0.1 || hi != GuessIters[1]*0.1 {
		t.Errorf("FirstGuess(0.1 s, %g) = %v, %v", GuessTol, lo, hi)
	}
	if _, hi := FirstGuess(0.1, GuessTol/10); !math.IsInf(hi, 1) {
		t.Errorf("FirstGuess below GuessTol: hi = %v, want +Inf", hi)
	}
	for _, c := range []struct {
		secs float64
		want string
	}{{0.4, "under 1 s"}, {1, "about 1 s"}, {39.2, "about 39 s"}, {89, "about 89 s"}, {90, "about 2 min"}, {3599, "about 60 min"}, {5400, "about 2 h"}} {
		if got := RoughDuration(c.secs); got != c.want {
			t.Errorf("RoughDuration(%v) = %q, want %q", c.secs, got, c.want)
		}
	}
	if got, want := GuessText(0.2, GuessTol), roughUnit(GuessIters[0]*0.2)+" to "+roughUnit(GuessIters[1]*0.2); got != want {
		t.Errorf("GuessText = %q, want %q", got, want)
	}
	if got := GuessText(0.2, 1e-6); got != "at least "+roughUnit(GuessIters[0]*0.2) {
		t.Errorf("GuessText below GuessTol = %q", got)
	}
}
