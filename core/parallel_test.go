package core

import (
	"context"
	"math/rand/v2"
	"runtime"
	"slices"
	"testing"
)

// TestParallelKernelsExact checks that the products split between
// goroutines give the serial loops' results to the bit, for every number
// of parts from 1 to 8 and widths odd and even, so that a run's bits do
// not depend on how many cores the machine has; and that the cuts cover
// the rows once, in order, every inner cut of the triangle at an even row.
func TestParallelKernelsExact(t *testing.T) {
	rng := rand.New(rand.NewPCG(11, 12))
	for _, d := range []int{1, 2, 3, 7, 16, 33} {
		nt := 41
		x, y := make([]float64, nt*d), make([]float64, nt*d)
		for i := range x {
			x[i], y[i] = rng.NormFloat64(), rng.NormFloat64()
		}
		rows := []int32{}
		for k := 0; k < nt; k++ {
			if k%5 != 2 {
				rows = append(rows, int32(k))
			}
		}
		want := make([]float64, d*d)
		addOuterUpperRange(want, x, y, rows, d, 0, d)
		e := &evaluator{pairIndex: &pairIndex{d: d, nt: nt, xt: x}}
		r := min(d, 6)
		w := y[:r*d]
		zWant := make([]float64, nt*r)
		e.rowDotsBLAS(zWant, w, r, 0, nt)
		zWantB := make([]float64, nt*r)
		e.rowDotsBlocked(zWantB, w, r, 0, nt)
		pa, pb, pw := make([]int32, 60), make([]int32, 60), make([]float64, 60)
		for p := range pa {
			pa[p], pb[p] = int32(rng.IntN(nt)), int32(rng.IntN(nt))
			if p%4 != 3 {
				pw[p] = rng.NormFloat64()
			}
		}
		yWant := make([]float64, nt*d)
		addPairsCols(yWant, x, pw, pa, pb, d, 0, d)
		for parts := 1; parts <= 8; parts++ {
			yp := make([]float64, nt*d)
			runParts(evenCuts(d, min(parts, d)), func(lo, hi int) { addPairsCols(yp, x, pw, pa, pb, d, lo, hi) })
			if !slices.Equal(yp, yWant) {
				t.Fatalf("d=%d in %d parts: L_w X differs from the serial pass", d, parts)
			}
			cuts := triangleCuts(d, parts)
			if cuts[0] != 0 || cuts[len(cuts)-1] != d || len(cuts) > parts+1 {
				t.Fatalf("triangleCuts(%d, %d) = %v", d, parts, cuts)
			}
			for i := 1; i < len(cuts); i++ {
				if cuts[i] <= cuts[i-1] || i < len(cuts)-1 && cuts[i]%2 != 0 {
					t.Fatalf("triangleCuts(%d, %d) = %v", d, parts, cuts)
				}
			}
			got := make([]float64, d*d)
			for i := range got {
				got[i] = 7 // every entry must be set
			}
			runParts(cuts, func(lo, hi int) { addOuterUpperRange(got, x, y, rows, d, lo, hi) })
			if !slices.Equal(got, want) {
				t.Fatalf("d=%d in %d parts %v: the product differs from the serial one", d, parts, cuts)
			}
			z, zb := make([]float64, nt*r), make([]float64, nt*r)
			runParts(evenCuts(nt, parts), func(lo, hi int) {
				e.rowDotsBLAS(z, w, r, lo, hi)
				e.rowDotsBlocked(zb, w, r, lo, hi)
			})
			if !slices.Equal(z, zWant) || !slices.Equal(zb, zWantB) {
				t.Fatalf("d=%d in %d parts: the row dot products differ from the serial ones", d, parts)
			}
		}
	}
}

// A solve large enough for the passes to split (1,000 rows × 60 features)
// gives the same bits on one core as on two: the metric, the dual point
// and the gap.
func TestParallelSolveSameBits(t *testing.T) {
	if runtime.GOARCH == "wasm" {
		t.Skip("one thread: the passes never split")
	}
	p := synthetic(t, 1000, 60)
	old := runtime.GOMAXPROCS(2)
	parts := parallelParts(float64(1000) * 60 * 61 / 2)
	runtime.GOMAXPROCS(old)
	if parts == 1 {
		t.Fatalf("M's product at 1000 × 60 does not split: the test tests nothing")
	}
	solveOn := func(procs int) *Result {
		old := runtime.GOMAXPROCS(procs)
		defer runtime.GOMAXPROCS(old)
		res, err := Solve(context.Background(), p, Settings{Tol: 1e-8, MaxIter: 60})
		if err != nil {
			t.Fatal(err)
		}
		return res
	}
	one, two := solveOn(1), solveOn(2)
	if one.Iter != two.Iter || one.Gap != two.Gap || !slices.Equal(one.Q, two.Q) || !slices.Equal(one.A.RawSymmetric().Data, two.A.RawSymmetric().Data) {
		t.Errorf("one core: %d iterations, gap %v; two: %d, gap %v", one.Iter, one.Gap, two.Iter, two.Gap)
	}
}
