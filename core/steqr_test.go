package core

import (
	"math"
	"math/rand/v2"
	"testing"

	"gonum.org/v1/gonum/blas"
	"gonum.org/v1/gonum/blas/blas64"
	"gonum.org/v1/gonum/lapack"
	"gonum.org/v1/gonum/lapack/gonum"
	"gonum.org/v1/gonum/lapack/lapack64"
)

// TestRotateColumnsMatchesDlasr checks rotateColumns against gonum's Dlasr
// (side Right, pivot Variable) to the bit, both directions, on random
// rotations with some left out (c = 1, s = 0, which Dlasr skips) and on
// matrices with signed zeros, infinities and NaNs, whose results a
// reordering of the arithmetic would change.
func TestRotateColumnsMatchesDlasr(t *testing.T) {
	rng := rand.New(rand.NewPCG(1, 2))
	var impl gonum.Implementation
	for _, forward := range []bool{true, false} {
		direct := lapack.Backward
		if forward {
			direct = lapack.Forward
		}
		for _, sz := range [][3]int{{1, 2, 2}, {3, 2, 5}, {7, 7, 7}, {5, 9, 12}, {60, 60, 60}, {4, 1, 3}} {
			m, n, lda := sz[0], sz[1], sz[2]
			c, s := make([]float64, max(n-1, 0)), make([]float64, max(n-1, 0))
			for j := range c {
				th := rng.Float64() * 2 * math.Pi
				c[j], s[j] = math.Cos(th), math.Sin(th)
				if rng.IntN(4) == 0 {
					c[j], s[j] = 1, 0
				}
			}
			a := make([]float64, (m-1)*lda+n)
			specials := []float64{0, math.Copysign(0, -1), math.Inf(1), math.NaN()}
			for i := range a {
				a[i] = rng.NormFloat64()
				if rng.IntN(8) == 0 {
					a[i] = specials[rng.IntN(len(specials))]
				}
			}
			want := append([]float64(nil), a...)
			impl.Dlasr(blas.Right, lapack.Variable, direct, m, n, c, s, want, lda)
			rotateColumns(forward, m, n, c, s, a, lda)
			for i := range a {
				if math.Float64bits(a[i]) != math.Float64bits(want[i]) {
					t.Fatalf("forward %v, %d×%d (lda %d): a[%d] = %v, Dlasr gives %v", forward, m, n, lda, i, a[i], want[i])
				}
			}
		}
	}
}

// TestSyevMatchesGonum checks the evaluator's full eigendecomposition
// (syevTo) against gonum's Dsyev to the bit, eigenvalues and eigenvectors,
// on random symmetric matrices of every size from 1 to 70 and on matrices
// that exercise Dsteqr's other paths: diagonal ones (no rotation), repeated
// eigenvalues, split blocks, 2×2 blocks, and entries near underflow and
// overflow (Dsyev's scaling).
func TestSyevMatchesGonum(t *testing.T) {
	rng := rand.New(rand.NewPCG(3, 4))
	type tc struct {
		name string
		a    []float64
		n    int
	}
	var cases []tc
	random := func(n int, scale float64) []float64 {
		a := make([]float64, n*n)
		for i := 0; i < n; i++ {
			for j := i; j < n; j++ {
				v := rng.NormFloat64() * scale
				a[i*n+j], a[j*n+i] = v, v
			}
		}
		return a
	}
	for n := 1; n <= 70; n++ {
		cases = append(cases, tc{"random", random(n, 1), n})
	}
	for _, n := range []int{2, 5, 33} {
		diag := make([]float64, n*n)
		rep := make([]float64, n*n)
		blocks := make([]float64, n*n)
		for i := 0; i < n; i++ {
			diag[i*n+i] = float64(n - i)
			rep[i*n+i] = 1
			for j := i + 1; j < n && j < i+2 && i%3 != 2; j++ {
				v := rng.NormFloat64()
				blocks[i*n+j], blocks[j*n+i] = v, v
			}
			blocks[i*n+i] = rng.NormFloat64()
		}
		for i := 0; i < n; i++ { // rank one on top of the identity: n−1 eigenvalues 1
			for j := 0; j < n; j++ {
				rep[i*n+j] += 0.5
			}
		}
		cases = append(cases, tc{"diagonal", diag, n}, tc{"repeated", rep, n}, tc{"blocks", blocks, n},
			tc{"tiny", random(n, 1e-160), n}, tc{"huge", random(n, 1e160), n})
	}
	for _, c := range cases {
		n := c.n
		e := &evaluator{pairIndex: &pairIndex{d: n}}
		e.allocEigen(n)
		got, gotW := append([]float64(nil), c.a...), make([]float64, n)
		want, wantW := append([]float64(nil), c.a...), make([]float64, n)
		work := make([]float64, len(e.work))
		okGot := syevTo(n, got, n, gotW, e.work)
		okWant := lapack64.Syev(lapack.EVCompute, blas64.Symmetric{N: n, Stride: n, Data: want, Uplo: blas.Upper}, wantW, work, len(work))
		if okGot != okWant {
			t.Fatalf("%s %d×%d: converged %v, Dsyev %v", c.name, n, n, okGot, okWant)
		}
		for i := range gotW {
			if math.Float64bits(gotW[i]) != math.Float64bits(wantW[i]) {
				t.Fatalf("%s %d×%d: eigenvalue %d = %v, Dsyev's %v", c.name, n, n, i, gotW[i], wantW[i])
			}
		}
		for i := range got {
			if math.Float64bits(got[i]) != math.Float64bits(want[i]) {
				t.Fatalf("%s %d×%d: vector entry %d = %v, Dsyev's %v", c.name, n, n, i, got[i], want[i])
			}
		}
	}
}
