package core

import (
	"math"
	"math/rand/v2"
	"testing"

	"gonum.org/v1/gonum/mat"
)

// AlignTo against brute force: no rotation or reflection on a fine grid of
// angles comes closer to the reference than the one it finds, and a turned
// and mirrored copy of the reference is turned back onto it.
func TestAlignToBruteForce(t *testing.T) {
	rng := rand.New(rand.NewPCG(7, 8))
	for trial := 0; trial < 20; trial++ {
		n := 5 + rng.IntN(40)
		y, ref := mat.NewDense(n, 2, nil), mat.NewDense(n, 2, nil)
		for i := 0; i < n; i++ {
			for j := 0; j < 2; j++ {
				y.Set(i, j, rng.NormFloat64())
				ref.Set(i, j, rng.NormFloat64()+0.5*y.At(i, 1-j))
			}
		}
		var got mat.Dense
		AlignTo(&got, y, ref)
		miss := func(a mat.Matrix) float64 {
			var d mat.Dense
			d.Sub(a, ref)
			return mat.Norm(&d, 2)
		}
		best := math.Inf(1)
		for k := 0; k < 3600; k++ {
			th := 2 * math.Pi * float64(k) / 3600
			c, s := math.Cos(th), math.Sin(th)
			for _, r := range []*mat.Dense{mat.NewDense(2, 2, []float64{c, -s, s, c}), mat.NewDense(2, 2, []float64{c, s, s, -c})} {
				var yr mat.Dense
				yr.Mul(y, r)
				best = math.Min(best, miss(&yr))
			}
		}
		if m := miss(&got); m > best*(1+1e-9)+1e-12 {
			t.Errorf("trial %d: aligned to within %g, a grid angle reaches %g", trial, m, best)
		}
		// Distances are kept.
		for i := 1; i < n; i++ {
			d0 := math.Hypot(y.At(i, 0)-y.At(0, 0), y.At(i, 1)-y.At(0, 1))
			d1 := math.Hypot(got.At(i, 0)-got.At(0, 0), got.At(i, 1)-got.At(0, 1))
			if math.Abs(d0-d1) > 1e-12*math.Max(1, d0) {
				t.Fatalf("trial %d: a distance moved from %g to %g", trial, d0, d1)
			}
		}
		// A mirrored, turned copy of ref comes back onto ref.
		th := rng.Float64() * 2 * math.Pi
		c, s := math.Cos(th), math.Sin(th)
		var turned, back mat.Dense
		turned.Mul(ref, mat.NewDense(2, 2, []float64{c, s, s, -c}))
		AlignTo(&back, &turned, ref)
		if !mat.EqualApprox(&back, ref, 1e-12) {
			t.Fatalf("trial %d: a mirrored copy of the reference is not turned back onto it", trial)
		}
	}
	// Zero coordinates (A = 0) stay as they are.
	z := mat.NewDense(3, 2, nil)
	var out mat.Dense
	AlignTo(&out, z, mat.NewDense(3, 2, []float64{1, 2, 3, 4, 5, 6}))
	if mat.Norm(&out, 1) != 0 {
		t.Error("zero coordinates moved")
	}
}
