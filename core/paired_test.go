package core

import (
	"math"
	"testing"
)

// PairedDiff against numbers worked by hand: the sign-flip p-value counts
// the assignments of signs to the differences whose sum is as far from 0
// (d = 1, 2, 3: only +6 and −6 of the 8 sums, 2/8; five equal
// differences: 2/32), and the 95 % interval is the mean ± t·s/√n with
// Student's t quantile t(0.975, 2) = 4.302653 (any t table).
func TestPairedDiff(t *testing.T) {
	p := PairedDiff([]float64{1, 2, 3}, []float64{0, 0, 0}, 1)
	if p.N != 3 || p.Mean != 2 || p.P != 0.25 || p.permutationsOf != 8 {
		t.Errorf("1, 2, 3: %+v", p)
	}
	if h := 4.302653 / math.Sqrt(3); math.Abs(p.Lo-(2-h)) > 1e-6 || math.Abs(p.Hi-(2+h)) > 1e-6 || !p.CannotTell {
		t.Errorf("1, 2, 3: interval [%g, %g], want 2 ∓ %g; cannot tell %v", p.Lo, p.Hi, h, p.CannotTell)
	}
	p = PairedDiff([]float64{0, 0, 0, 0, 0}, []float64{1, 1, 1, 1, 1}, 1)
	if p.P != 2.0/32 || p.Mean != -1 || p.Lo != -1 || p.Hi != -1 || p.Better {
		t.Errorf("five −1: %+v (p = 2/32 is not below 0.05)", p)
	}
	// Six equal improvements: p = 2/64 < 0.05 and an interval below 0.
	six := []float64{0, 0, 0, 0, 0, 0}
	p = PairedDiff(six, []float64{0.1, 0.1, 0.1, 0.1, 0.1, 0.1}, 1)
	if !p.Better || p.Worse || p.CannotTell || p.P != 2.0/64 {
		t.Errorf("six better: %+v", p)
	}
	// Ties (zero differences) change no sum: the p-value is that of the rest.
	p = PairedDiff([]float64{1, 2, 3, 5, 5}, []float64{0, 0, 0, 5, 5}, 1)
	if p.P != 0.25 {
		t.Errorf("with ties: p = %g, want 0.25", p.P)
	}
	// Past 16 pairs the flips are drawn: the same seed gives the same p.
	a, b := make([]float64, 30), make([]float64, 30)
	for i := range a {
		a[i] = float64(i % 7)
		b[i] = float64((i*3 + 1) % 7)
	}
	p1, p2 := PairedDiff(a, b, 7), PairedDiff(a, b, 7)
	if p1.P != p2.P || p1.permutationsOf != 1<<16 || !(p1.P > 0 && p1.P <= 1) {
		t.Errorf("30 pairs: %+v and %+v", p1, p2)
	}
}
