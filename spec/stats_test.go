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
