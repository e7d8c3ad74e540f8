package core

import (
	"context"
	"fmt"
	"math"
	"math/rand/v2"
	"slices"
	"testing"

	"gonum.org/v1/gonum/blas"
	"gonum.org/v1/gonum/blas/blas64"
	"gonum.org/v1/gonum/lapack"
	"gonum.org/v1/gonum/lapack/lapack64"
	"gonum.org/v1/gonum/mat"
)

// eigenCases returns symmetric test matrices (row-major, full) that are
// hard for inverse iteration: random ones, eigenvalues repeated exactly
// (a cluster Gram–Schmidt must separate), nearly repeated (10⁻¹⁰ apart),
// spread over twenty orders of magnitude, a zero row and column (T splits
// into blocks, as with Ionosphere's constant feature), a low-rank matrix
// (most eigenvalues 0), and tridiagonal Wilkinson matrices (pairs of
// eigenvalues equal to many digits).
func eigenCases(t *testing.T) map[string][]float64 {
	t.Helper()
	rnd := rand.New(rand.NewPCG(3, 4))
	cases := map[string][]float64{}
	orthogonal := func(d int) *mat.Dense {
		g := mat.NewDense(d, d, nil)
		for i := 0; i < d; i++ {
			for j := 0; j < d; j++ {
				g.Set(i, j, rnd.NormFloat64())
			}
		}
		var qr mat.QR
		qr.Factorize(g)
		var q mat.Dense
		qr.QTo(&q)
		return &q
	}
	// withSpectrum returns Q diag(w) Qᵀ for a random orthogonal Q.
	withSpectrum := func(w []float64) []float64 {
		d := len(w)
		q := orthogonal(d)
		a := make([]float64, d*d)
		for i := 0; i < d; i++ {
			for j := 0; j < d; j++ {
				var s float64
				for k := 0; k < d; k++ {
					s += q.At(i, k) * w[k] * q.At(j, k)
				}
				a[i*d+j] = s
			}
		}
		averageSymmetrize(a, d)
		return a
	}
	for _, d := range []int{1, 2, 3, 13, 34, 60} {
		a := make([]float64, d*d)
		for i := 0; i < d; i++ {
			for j := i; j < d; j++ {
				v := rnd.NormFloat64()
				a[i*d+j], a[j*d+i] = v, v
			}
		}
		cases[fmt.Sprintf("random-d%d", d)] = a
	}
	for _, d := range []int{4, 20, 60} {
		w := make([]float64, d)
		for k := range w {
			w[k] = float64(k%4) - 1 // −1, 0, 1, 2 repeated
		}
		cases[fmt.Sprintf("repeated-d%d", d)] = withSpectrum(w)
		near := make([]float64, d)
		for k := range near {
			near[k] = 1 + 1e-10*float64(k) - 2*float64(k%2)
		}
		cases[fmt.Sprintf("nearly-repeated-d%d", d)] = withSpectrum(near)
		graded := make([]float64, d)
		for k := range graded {
			graded[k] = math.Pow(10, -20*float64(k)/float64(d)) * float64(1-2*(k%3&1))
		}
		cases[fmt.Sprintf("graded-d%d", d)] = withSpectrum(graded)
		low := make([]float64, d)
		low[0], low[d/2] = 3, -2
		cases[fmt.Sprintf("rank2-d%d", d)] = withSpectrum(low)
	}
	// A zero row and column in the middle of a random matrix.
	{
		const d = 34
		a := append([]float64(nil), cases["random-d34"]...)
		for i := 0; i < d; i++ {
			a[i*d+1], a[1*d+i] = 0, 0
		}
		cases["zero-row-d34"] = a
	}
	for _, m := range []int{10, 25} {
		d := 2*m + 1
		a := make([]float64, d*d)
		for i := 0; i < d; i++ {
			a[i*d+i] = math.Abs(float64(m - i))
			if i+1 < d {
				a[i*d+i+1], a[(i+1)*d+i] = 1, 1
			}
		}
		cases[fmt.Sprintf("wilkinson-d%d", d)] = a
	}
	return cases
}

// TestPartialEigenvectors checks the partial eigensolver against LAPACK's
// Dsyev (through mat.EigenSym) on eigenCases, for the positive side and
// for the smaller side: the same eigenvalues, the same π₊(M) (V₊Λ₊V₊ᵀ, or
// M − V₋Λ₋V₋ᵀ), the part exactly the positive or the negative eigenvalues,
// orthonormal vectors, each an eigenvector (‖M v − λ v‖ small), all to
// tolerances scaled by ‖M‖.
func TestPartialEigenvectors(t *testing.T) {
	for name, a := range eigenCases(t) {
		d := int(math.Sqrt(float64(len(a))))
		var norm float64
		for _, v := range a {
			norm = max(norm, math.Abs(v))
		}
		norm *= float64(d)
		var es mat.EigenSym
		if !es.Factorize(mat.NewSymDense(d, append([]float64(nil), a...)), true) {
			t.Fatalf("%s: Dsyev failed", name)
		}
		want := es.Values(nil)
		var v mat.Dense
		es.VectorsTo(&v)
		wantPlus := make([]float64, d*d)
		for k, l := range want {
			if l <= 0 {
				continue
			}
			for i := 0; i < d; i++ {
				for j := 0; j < d; j++ {
					wantPlus[i*d+j] += l * v.At(i, k) * v.At(j, k)
				}
			}
		}

		for _, smaller := range []bool{false, true} {
			checkPart(t, fmt.Sprintf("%s smaller=%v", name, smaller), a, want, wantPlus, norm, smaller)
		}
	}
}

// checkPart runs tridiag.partTo on a (d×d, full) and checks it against
// Dsyev's eigenvalues want and π₊(a) = wantPlus.
func checkPart(t *testing.T, name string, a, want, wantPlus []float64, norm float64, smaller bool) {
	t.Helper()
	d := len(want)
	tri := newTridiag(d)
	lower := make([]float64, d*d)
	for i := 0; i < d; i++ {
		for j := 0; j <= i; j++ {
			lower[i*d+j] = a[i*d+j]
		}
	}
	vals := make([]float64, d)
	vecs := make([]float64, d*d)
	lo, hi, neg, ok := tri.partTo(vecs, vals, lower, d, smaller)
	if !ok {
		// A failed check is allowed (the evaluator falls back to Dsyev),
		// but none is expected on these.
		t.Errorf("%s: the partial eigensolver's check failed", name)
		return
	}
	tol := 1e-12 * norm
	for k := range vals {
		if math.Abs(vals[k]-want[k]) > tol {
			t.Errorf("%s: eigenvalue %d = %g, Dsyev's %g", name, k, vals[k], want[k])
		}
	}
	// The part is exactly the positive eigenvalues, or the negative ones
	// when asked for the smaller side and they are fewer.
	pos, nneg := 0, 0
	for _, v := range vals {
		if v > 0 {
			pos++
		}
		if v < 0 {
			nneg++
		}
	}
	wantNeg := smaller && nneg < pos
	switch {
	case neg != wantNeg:
		t.Errorf("%s: negative side %v with %d positive and %d negative eigenvalues", name, neg, pos, nneg)
	case !neg && (lo != d-pos || hi != d), neg && (lo != 0 || hi != nneg):
		t.Errorf("%s: part %d…%d with %d positive and %d negative eigenvalues (negative side %v)", name, lo, hi, pos, nneg, neg)
	}
	got := make([]float64, d*d)
	if neg {
		copy(got, a)
	}
	for k := lo; k < hi; k++ {
		var n2 float64
		for i := 0; i < d; i++ {
			n2 += vecs[i*d+k] * vecs[i*d+k]
		}
		if math.Abs(n2-1) > 1e-12 {
			t.Errorf("%s: ‖v_%d‖² = %v", name, k, n2)
		}
		for g := lo; g < k; g++ {
			var dot float64
			for i := 0; i < d; i++ {
				dot += vecs[i*d+k] * vecs[i*d+g]
			}
			if math.Abs(dot) > 1e-11 {
				t.Errorf("%s: v_%d·v_%d = %v", name, g, k, dot)
			}
		}
		var r2 float64
		for i := 0; i < d; i++ {
			s := -vals[k] * vecs[i*d+k]
			for j := 0; j < d; j++ {
				s += a[i*d+j] * vecs[j*d+k]
			}
			r2 += s * s
		}
		if math.Sqrt(r2) > 1e-11*norm {
			t.Errorf("%s: ‖M v_%d − λ v_%d‖ = %v (‖M‖ ≈ %v)", name, k, k, math.Sqrt(r2), norm)
		}
		sign := 1.0
		if neg {
			sign = -1
		}
		for i := 0; i < d; i++ {
			for j := 0; j < d; j++ {
				got[i*d+j] += sign * vals[k] * vecs[i*d+k] * vecs[j*d+k]
			}
		}
	}
	for k := 0; k < d; k++ {
		if k >= lo && k < hi {
			continue
		}
		for i := 0; i < d; i++ {
			if vecs[i*d+k] != 0 {
				t.Fatalf("%s: column %d outside the part %d…%d is not 0", name, k, lo, hi)
			}
		}
	}
	var diff float64
	for i := range got {
		diff = max(diff, math.Abs(got[i]-wantPlus[i]))
	}
	if diff > 1e-11*norm {
		t.Errorf("%s: max |π₊(M) − Dsyev's| = %v (‖M‖ ≈ %v)", name, diff, norm)
	}
}

// TestEigenFallback checks that a failed check falls back to Dsyev: with
// the checks' tolerance made negative, LMNN's projection (the smaller
// side) still returns Dsyev's π₊(M), and the fallback is counted.
func TestEigenFallback(t *testing.T) {
	p := labelProblem(t, "wine.csv", 0.8, 1)
	e := newEvaluator(p)
	d := e.d
	m := make([]float64, d*d)
	q := make([]float64, e.N)
	for i := range q {
		q[i] = 0.5
	}
	e.formM(m, q)
	symmetrize(m, d)
	if !e.eigen(m, eigAll) {
		t.Fatal("Dsyev failed")
	}
	want := make([]float64, d*d)
	e.metricTo(want) // π₊(M)/λ, λ = 1
	top := e.vals[d-1]
	for _, fail := range []bool{false, true} {
		e.tri = newTridiag(d)
		if fail {
			e.tri.checkTol = -1
		}
		e.eigenFallbacks = 0
		a := slices.Clone(m)
		if err := projectPSDTo(e, a); err != nil {
			t.Fatal(err)
		}
		if got := e.eigenFallbacks; got != map[bool]int{false: 0, true: 1}[fail] {
			t.Fatalf("check made to fail %v: %d fallbacks", fail, got)
		}
		for i := range a {
			if math.Abs(a[i]-want[i]) > 1e-12*top {
				t.Fatalf("check made to fail %v: π₊(M)[%d] = %v, Dsyev's %v", fail, i, a[i], want[i])
			}
		}
	}
}

// TestNoEigenFallbacks runs LMNN (at most 200 iterations) on every built-in
// dataset and the fast method on a random problem with d = 120 (to 1e-3),
// and
// checks that the partial eigensolver never failed its check (each failure
// costs a Dsyev on top).
func TestNoEigenFallbacks(t *testing.T) {
	type tc struct {
		name string
		p    *Problem
		s    Settings
	}
	var cases []tc
	for _, name := range []string{"iris.csv", "wine.csv", "heart.csv", "ionosphere.csv", "sonar.csv"} {
		p := labelProblem(t, name, 0.8, 1)
		cases = append(cases, tc{name + " LMNN", p, Settings{Method: LMNN, MaxIter: 200}})
	}
	rnd := rand.New(rand.NewPCG(7, 8))
	cases = append(cases, tc{"random-d120", randomProblem(rnd, 400, partialMinDim+20, 3000, 0.8, 1), Settings{Tol: 1e-3}})
	for _, c := range cases {
		res, err := Solve(context.Background(), c.p, c.s)
		if err != nil {
			t.Fatal(err)
		}
		fallbacks, evals := res.EigenFallbacks, max(res.Evaluations, res.Iter) // a baseline counts iterations
		if evals == 0 {
			t.Fatalf("%s: no evaluation", c.name)
		}
		if fallbacks != 0 {
			t.Errorf("%s: %d of %d evaluations fell back to Dsyev", c.name, fallbacks, evals)
		}
		t.Logf("%s: %d evaluations, no fallback", c.name, evals)
	}
}

// BenchmarkEigen compares the positive part's eigensolver with Dsyev on
// M(q) at the fast method's solution (η = 0.8, λ = 1) of four built-in
// datasets, and on random symmetric matrices (seeded) of growing size:
// time per decomposition, the number of positive eigenvalues, and the
// fallbacks to Dsyev.
func BenchmarkEigen(b *testing.B) {
	type tc struct {
		name string
		e    *evaluator
		m    []float64
	}
	var cases []tc
	for _, name := range []string{"wine", "heart", "ionosphere", "sonar"} {
		p := labelProblem(b, name+".csv", 0.8, 1)
		res, err := Solve(context.Background(), p, Settings{Tol: 1e-3})
		if err != nil {
			b.Fatal(err)
		}
		e := newEvaluator(p)
		m := make([]float64, e.d*e.d)
		e.formM(m, res.Q)
		cases = append(cases, tc{name, e, m})
	}
	rnd := rand.New(rand.NewPCG(5, 6))
	for _, d := range []int{20, 50, 100, 200} {
		e := newEvaluator(randomProblem(rnd, 2*d, d, 10, 0.8, 1))
		m := make([]float64, d*d)
		for i := range m {
			m[i] = rnd.NormFloat64()
		}
		averageSymmetrize(m, d)
		cases = append(cases, tc{fmt.Sprintf("random-d%d", d), e, m})
	}
	for _, c := range cases {
		for _, job := range []eigJob{eigPositive, eigSmaller, eigAll, eigValues} {
			b.Run(fmt.Sprintf("%s/%v", c.name, [...]string{"values", "positive", "smaller", "dsyev"}[job]), func(b *testing.B) {
				c.e.eigenFallbacks = 0
				for b.Loop() {
					if !c.e.eigen(c.m, job) {
						b.Fatal("eigen failed")
					}
				}
				first, _ := c.e.positive()
				b.ReportMetric(float64(c.e.d-first), "positive")
				b.ReportMetric(float64(c.e.eigenFallbacks), "fallbacks")
			})
		}
		// gonum's own Dsyev on the same matrix, for the dsyev rows (syevTo,
		// steqr.go): the same results, its rotations applied column-wise.
		b.Run(c.name+"/gonum-dsyev", func(b *testing.B) {
			d := c.e.d
			a, w := make([]float64, d*d), make([]float64, d)
			work := make([]float64, len(c.e.work))
			for b.Loop() {
				copy(a, c.m)
				if !lapack64.Syev(lapack.EVCompute, blas64.Symmetric{N: d, Stride: d, Data: a, Uplo: blas.Upper}, w, work, len(work)) {
					b.Fatal("Dsyev failed")
				}
			}
		})
	}
}
