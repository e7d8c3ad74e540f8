package core

import (
	"context"
	"math"
	"math/rand/v2"
	"testing"
)

// The two losses' derivatives against central differences in d_sim and
// d_dis, over distances from 0 to far apart, and no overflow where the
// exponentials would (margins of ±800).
func TestSmoothLossDerivatives(t *testing.T) {
	for _, c := range []struct {
		name string
		loss smoothLoss
	}{{"logistic", logisticLoss}, {"tste", tsteLoss}} {
		for _, ds := range []float64{0, 0.3, 2, 40} {
			for _, dd := range []float64{0, 0.5, 3, 55} {
				l, gs, gd := c.loss(ds, dd)
				h := 1e-6 * math.Max(1, ds+dd)
				fs := func(v float64) float64 { x, _, _ := c.loss(v, dd); return x }
				fd := func(v float64) float64 { x, _, _ := c.loss(ds, v); return x }
				ns, nd := diff(fs, ds, h), diff(fd, dd, h)
				if !finite(l) || math.Abs(gs-ns) > 1e-6*math.Max(1, math.Abs(gs)) || math.Abs(gd-nd) > 1e-6*math.Max(1, math.Abs(gd)) {
					t.Errorf("%s(%v, %v) = %v: ∂ %v, %v; differences %v, %v", c.name, ds, dd, l, gs, gd, ns, nd)
				}
			}
		}
		for _, m := range []float64{-800, 800} {
			l, gs, gd := c.loss(math.Max(0, -m), math.Max(0, m))
			if !finite(l) || !finite(gs) || !finite(gd) || l < 0 {
				t.Errorf("%s at margin %v: %v, %v, %v", c.name, m, l, gs, gd)
			}
		}
	}
	// log(1 + e^{−m}) at m = 0 is log 2, and t-STE's p is ½ at equal
	// distances.
	if l, _, _ := logisticLoss(1, 1); math.Abs(l-math.Ln2) > 1e-15 {
		t.Errorf("logistic at margin 0: %v", l)
	}
	if l, _, _ := tsteLoss(2, 2); math.Abs(l-math.Ln2) > 1e-15 {
		t.Errorf("t-STE at equal distances: %v", l)
	}
}

// diff is f′(x) by central differences, or at x = 0 (distances are not
// negative) by the second-order one-sided formula.
func diff(f func(float64) float64, x, h float64) float64 {
	if x == 0 {
		return (-3*f(0) + 4*f(h) - f(2*h)) / (2 * h)
	}
	return (f(x+h) - f(x-h)) / (2 * h)
}

// objectiveAt returns F(a) and ∇F(a) of l's problem.
func objectiveAt(l *learner, a []float64) (float64, []float64) {
	grad := make([]float64, len(a))
	l.e.pairValuesAt(a)
	return l.objective(a, grad), grad
}

// randomPSD returns a d×d PSD matrix B Bᵀ/d, B standard normal.
func randomPSD(rng *rand.Rand, d int) []float64 {
	b := make([]float64, d*d)
	for i := range b {
		b[i] = rng.NormFloat64()
	}
	a := make([]float64, d*d)
	mulTo(a, b, transposed(b, d), d)
	for i := range a {
		a[i] /= float64(d)
	}
	return a
}

func transposed(b []float64, d int) []float64 {
	t := make([]float64, d*d)
	for i := 0; i < d; i++ {
		for j := 0; j < d; j++ {
			t[j*d+i] = b[i*d+j]
		}
	}
	return t
}

// ∇F of each learner against central differences along random symmetric
// directions, at random PSD points of a random problem.
func TestLearnerGradients(t *testing.T) {
	rng := rand.New(rand.NewPCG(3, 4))
	p := randomProblem(rng, 30, 6, 200, 0.8, 0.7)
	for _, c := range []struct {
		name string
		loss smoothLoss
	}{{"logistic", logisticLoss}, {"tste", tsteLoss}} {
		l := newLearner(newEvaluator(p), p.Lambda, c.loss, false)
		d := l.e.d
		for range 3 {
			a := randomPSD(rng, d)
			f, g := objectiveAt(l, a)
			v := make([]float64, d*d)
			for i := 0; i < d; i++ {
				for j := i; j < d; j++ {
					x := rng.NormFloat64()
					v[i*d+j], v[j*d+i] = x, x
				}
			}
			h := 1e-5
			step := func(s float64) float64 {
				b := make([]float64, d*d)
				for i := range b {
					b[i] = a[i] + s*v[i]
				}
				fb, _ := objectiveAt(l, b)
				return fb
			}
			num := (step(h) - step(-h)) / (2 * h)
			got := frob(g, v)
			if math.Abs(got-num) > 1e-6*math.Max(1, math.Abs(f)) {
				t.Errorf("%s: ⟨∇F, V⟩ = %v, central difference %v (F = %v)", c.name, got, num, f)
			}
		}
	}
}

// The logistic learner's certificate: the dual D(q) is below F(A) for
// random q and random PSD A (weak duality), the run's gap is non-negative
// and falls to the tolerance, and on a problem with d = 2 no point of a
// fine grid over the PSD cone beats the run's metric, while the grid's best
// is within its spacing of it.
func TestLogisticCertified(t *testing.T) {
	rng := rand.New(rand.NewPCG(5, 6))
	p := randomProblem(rng, 25, 2, 60, 0.8, 0.5)
	l := newLearner(newEvaluator(p), p.Lambda, logisticLoss, true)
	for range 20 {
		a := randomPSD(rng, 2)
		f, _ := objectiveAt(l, a)
		q := make([]float64, len(p.Triplets))
		for i := range q {
			q[i] = rng.Float64()
		}
		dq, err := l.logisticDual(q)
		if err != nil || dq > f*(1+1e-12) {
			t.Fatalf("weak duality: D(q) = %v above F(A) = %v (%v)", dq, f, err)
		}
	}
	var gaps []float64
	res, err := Solve(context.Background(), p, Settings{Method: Logistic, Tol: 1e-9, Progress: func(pr Progress) bool {
		gaps = append(gaps, pr.Gap)
		return true
	}})
	if err != nil || res.Status != Converged || !res.Certified {
		t.Fatalf("%v, %v, certified %v", err, res.Status, res.Certified)
	}
	for i, g := range gaps {
		if g < 0 || (i > 0 && g > gaps[i-1]) {
			t.Fatalf("gap %v at iteration %d after %v: not non-negative and falling", g, i+1, gaps[max(0, i-1)])
		}
	}
	best := math.Inf(1)
	const n = 60
	top := 4 * math.Max(res.A.At(0, 0), res.A.At(1, 1))
	for i := 0; i <= n; i++ {
		for j := 0; j <= n; j++ {
			a11, a22 := top*float64(i)/n, top*float64(j)/n
			r := math.Sqrt(a11 * a22)
			for k := -n; k <= n; k++ {
				a12 := r * float64(k) / n
				f, _ := objectiveAt(l, []float64{a11, a12, a12, a22})
				best = min(best, f)
			}
		}
	}
	if res.Primal > best*(1+1e-9) || best-res.Primal > 1e-3*res.Primal {
		t.Errorf("the run's F = %v; the grid's best %v", res.Primal, best)
	}
}

// t-STE is not convex: its run says so (no certificate), ends below its
// start, and at a point where a projected gradient step moves it little.
func TestTSTELocalOptimum(t *testing.T) {
	p := labelProblem(t, "wine.csv", 0.8, 1)
	res, err := Solve(context.Background(), p, Settings{Method: TSTE, Tol: 1e-6})
	if err != nil || res.Status != Converged || res.Certified {
		t.Fatalf("%v, %v, certified %v", err, res.Status, res.Certified)
	}
	l := newLearner(newEvaluator(p), p.Lambda, tsteLoss, false)
	if res.Primal >= l.fa {
		t.Errorf("F = %v, not below the start's %v", res.Primal, l.fa)
	}
	d := l.e.d
	a := make([]float64, d*d)
	for i := 0; i < d; i++ {
		for j := 0; j < d; j++ {
			a[i*d+j] = res.A.At(i, j)
		}
	}
	_, g := objectiveAt(l, a)
	// The projected gradient step with a step of 1/(λ + L_est): its
	// movement relative to A's size.
	step := 1 / (p.Lambda + 1e3)
	b := make([]float64, d*d)
	for i := range b {
		b[i] = a[i] - step*g[i]
	}
	if err := projectPSDTo(l.e, b); err != nil {
		t.Fatal(err)
	}
	var moved, size float64
	for i := range b {
		moved += (b[i] - a[i]) * (b[i] - a[i])
		size += a[i] * a[i]
	}
	if math.Sqrt(moved) > 1e-3*math.Sqrt(size) {
		t.Errorf("a projected gradient step moves A by %v of its size", math.Sqrt(moved/size))
	}
}

// FISTA evaluates t-STE at extrapolated points that are not PSD, whose
// "distances" may be negative: the loss takes them as 0, finite, where
// s(d) is not even real below −α. (A run on Sonar at λ = 0.25 failed on
// a NaN before.)
func TestTSTENegativeDistances(t *testing.T) {
	for _, c := range [][2]float64{{-3, 1}, {1, -3}, {-0.5, -7}} {
		l, gs, gd := tsteLoss(c[0], c[1])
		l0, gs0, gd0 := tsteLoss(max(c[0], 0), max(c[1], 0))
		if !finite(l) || l != l0 || gs != gs0 || gd != gd0 {
			t.Errorf("tsteLoss(%v, %v) = %v, %v, %v; at the distances clamped to 0: %v, %v, %v", c[0], c[1], l, gs, gd, l0, gs0, gd0)
		}
	}
	p := labelProblem(t, "sonar.csv", 0.8, 0.25)
	if res, err := Solve(context.Background(), p, Settings{Method: TSTE, Tol: 1e-2}); err != nil || res.Status != Converged {
		t.Errorf("Sonar at λ = 0.25: %v (%v)", err, res.Status)
	}
}
