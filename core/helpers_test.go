package core

import (
	"math"
	"math/rand/v2"
	"os"
	"testing"

	"gonum.org/v1/gonum/mat"
)

// loadStd reads a built-in dataset and standardizes it.
func loadStd(t testing.TB, name string) (*mat.Dense, *Dataset) {
	t.Helper()
	ds := readBuiltin(t, name)
	return FitStandardizer(ds.X, nil).Transform(ds.X), ds
}

// readBuiltin reads a built-in dataset from assets/datasets.
func readBuiltin(t testing.TB, name string) *Dataset {
	t.Helper()
	f, err := os.Open("../assets/datasets/" + name)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	ds, err := ReadCSV(f, CSVOptions{})
	if err != nil {
		t.Fatal(err)
	}
	return ds
}

// labelProblem is the problem of a built-in dataset with k_same = k_diff = 3.
func labelProblem(t testing.TB, name string, eta, lambda float64) *Problem {
	t.Helper()
	x, ds := loadStd(t, name)
	ts, err := LabelTriplets(x, ds.Labels, ds.Classes, 3, 3)
	if err != nil {
		t.Fatal(err)
	}
	return &Problem{X: x, Triplets: ts, Eta: eta, Lambda: lambda}
}

// randomProblem draws n points in d dimensions and N random triplets.
func randomProblem(rng *rand.Rand, n, d, N int, eta, lambda float64) *Problem {
	x := mat.NewDense(n, d, nil)
	for i := 0; i < n; i++ {
		for j := 0; j < d; j++ {
			x.Set(i, j, rng.NormFloat64())
		}
	}
	ts := make([]Triplet, N)
	for t := range ts {
		p := rng.Perm(n)
		ts[t] = Triplet{p[0], p[1], p[2]}
	}
	return &Problem{X: x, Triplets: ts, Eta: eta, Lambda: lambda}
}

// kTriplet returns K_i = u uᵀ − v vᵀ explicitly (the per-triplet form).
func kTriplet(p *Problem, t Triplet) *mat.SymDense {
	_, d := p.X.Dims()
	k := mat.NewSymDense(d, nil)
	for a := 0; a < d; a++ {
		for b := a; b < d; b++ {
			ua := p.X.At(t.I, a) - p.X.At(t.K, a)
			ub := p.X.At(t.I, b) - p.X.At(t.K, b)
			va := p.X.At(t.I, a) - p.X.At(t.J, a)
			vb := p.X.At(t.I, b) - p.X.At(t.J, b)
			k.SetSym(a, b, ua*ub-va*vb)
		}
	}
	return k
}

// primalDirect is P(A) computed per triplet from its definition, with the
// worst-case sum as an explicit sort.
func primalDirect(p *Problem, a mat.Symmetric) float64 {
	var h []float64
	for _, t := range p.Triplets {
		m := mat.Sum(mulElem(a, kTriplet(p, t))) // tr(A K) for symmetric A, K
		h = append(h, math.Max(0, 1-m))
	}
	f := mat.Norm(a, 2) // Frobenius for matrices
	return p.Lambda/2*f*f + topSum(h, p.Budget())
}

// mulElem returns the element-wise product, so that 1ᵀ(A∘K)1 = tr(A K).
func mulElem(a, b mat.Matrix) *mat.Dense {
	var c mat.Dense
	c.MulElem(a, b)
	return &c
}

// relClose reports |a − b| ≤ tol·max(1, |b|).
func relClose(a, b, tol float64) bool {
	return math.Abs(a-b) <= tol*math.Max(1, math.Abs(b))
}

// must returns v or fails the test with err: must(f())(t) for an f that
// returns a value and an error.
func must[T any](v T, err error) func(t testing.TB) T {
	return func(t testing.TB) T {
		t.Helper()
		if err != nil {
			t.Fatal(err)
		}
		return v
	}
}

// gaussianRows draws n rows of d standard normal features (seeded) and
// labels them i mod k.
func gaussianRows(seed uint64, n, d, k int) (*mat.Dense, []int) {
	rng := rand.New(rand.NewPCG(seed, seed))
	x := mat.NewDense(n, d, nil)
	labels := make([]int, n)
	for i := range labels {
		labels[i] = i % k
		for j := 0; j < d; j++ {
			x.Set(i, j, rng.NormFloat64())
		}
	}
	return x, labels
}
