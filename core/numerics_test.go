package core

import (
	"context"
	"fmt"
	"math"
	"math/rand/v2"
	"slices"
	"strings"
	"testing"
	"time"

	"gonum.org/v1/gonum/mat"

	"github.com/rml-lab/rml/spec"
)

// evalAt returns L(q), ∇L(q) and P(A(q)) through the evaluator.
func evalAt(e *evaluator, q []float64) (l float64, g []float64, p float64) {
	m := make([]float64, e.d*e.d)
	g = make([]float64, e.N)
	e.formM(m, q)
	if !e.eigen(m, eigAll) {
		panic("eigen failed")
	}
	return e.dual(q), g, e.gradPrimal(g)
}

// The gradient ∇L(q)_i = −1 + tr(K_i A(q)) (docs/math.md, "The gradient": Eq. 6–7 corrected)
// matches central differences of L. L is C¹ with a Lipschitz gradient, so
// the difference quotient with step h is accurate to O(h·L_g).
func TestGradientFiniteDifference(t *testing.T) {
	rng := rand.New(rand.NewPCG(1, 1))
	for _, lambda := range []float64{0.1, 1, 10} {
		p := randomProblem(rng, 12, 4, 30, 0.7, lambda)
		e := newEvaluator(p)
		q := make([]float64, e.N)
		for i := range q {
			q[i] = rng.Float64()
		}
		_, g, _ := evalAt(e, q)
		const h = 1e-6
		for i := range q {
			qp, qm := slices.Clone(q), slices.Clone(q)
			qp[i] += h
			qm[i] -= h
			lp, _, _ := evalAt(e, qp)
			lm, _, _ := evalAt(e, qm)
			fd := (lp - lm) / (2 * h)
			if !relClose(g[i], fd, 1e-6) {
				t.Errorf("λ=%v: ∂L/∂q_%d = %v, central difference %v", lambda, i, g[i], fd)
			}
		}
	}
}

// Σ_i q_i K_i through distinct pairs and the Laplacian equals the sum of the
// explicit per-triplet matrices; margins through pairs equal tr(K_i A).
func TestPairAggregationMatchesPerTriplet(t *testing.T) {
	rng := rand.New(rand.NewPCG(2, 2))
	p := randomProblem(rng, 10, 5, 60, 0.8, 0.5)
	// Repeat some triplets so that pairs are shared.
	p.Triplets = append(p.Triplets, p.Triplets[:20]...)
	e := newEvaluator(p)
	q := make([]float64, e.N)
	for i := range q {
		q[i] = rng.Float64()
	}
	m := make([]float64, e.d*e.d)
	e.formM(m, q)
	want := mat.NewSymDense(e.d, nil)
	for i, tr := range p.Triplets {
		want.AddSym(want, scaled(q[i], kTriplet(p, tr)))
	}
	for a := 0; a < e.d; a++ {
		for b := a; b < e.d; b++ {
			if !relClose(m[a*e.d+b], want.At(a, b), 1e-12) {
				t.Fatalf("M[%d,%d] = %v by pairs, %v per triplet", a, b, m[a*e.d+b], want.At(a, b))
			}
		}
	}
	_, g, pval := evalAt(e, q)
	var vals mat.EigenSym
	vals.Factorize(want, true)
	a := mat.NewSymDense(e.d, nil)
	{
		ev := vals.Values(nil)
		var v mat.Dense
		vals.VectorsTo(&v)
		for k, l := range ev {
			if l > 0 {
				col := v.ColView(k)
				a.SymRankOne(a, l/p.Lambda, col)
			}
		}
	}
	for i, tr := range p.Triplets {
		direct := -1 + mat.Sum(mulElem(a, kTriplet(p, tr)))
		if !relClose(g[i], direct, 1e-10) {
			t.Fatalf("gradient %d: %v by pairs, %v per triplet", i, g[i], direct)
		}
	}
	if d := primalDirect(p, a); !relClose(pval, d, 1e-10) {
		t.Fatalf("P(A(q)) = %v by pairs, %v per triplet", pval, d)
	}
}

func scaled(s float64, k *mat.SymDense) *mat.SymDense {
	var out mat.SymDense
	out.ScaleSym(s, k)
	return &out
}

// The global constant by power iteration equals λ_max(G)/λ with the Gram
// matrix G_ij = ⟨K_i, K_j⟩ built explicitly (docs/math.md, "The Lipschitz constant").
func TestLipschitzConstant(t *testing.T) {
	rng := rand.New(rand.NewPCG(3, 3))
	p := randomProblem(rng, 9, 3, 25, 0.8, 2)
	e := newEvaluator(p)
	got := lipschitzConstant(e, 1e-13, 100000)
	g := mat.NewSymDense(e.N, nil)
	for i, ti := range p.Triplets {
		ki := kTriplet(p, ti)
		for j := i; j < e.N; j++ {
			g.SetSym(i, j, mat.Sum(mulElem(ki, kTriplet(p, p.Triplets[j]))))
		}
	}
	want := must(Eigenvalues(g))(t)[0] / p.Lambda
	if !relClose(got, want, 1e-8) {
		t.Fatalf("L_g = %v by power iteration, %v from the explicit Gram matrix", got, want)
	}
}

// Every method keeps Δ_t ≥ 0 (to rounding) at every iteration, ends with a
// relative gap ≤ tol, and reports primal and dual values that agree with
// direct evaluation.
func TestGapNonNegativeAndConverges(t *testing.T) {
	iris := labelProblem(t, "iris.csv", 0.8, 1)
	rng := rand.New(rand.NewPCG(4, 4))
	cases := []struct {
		name string
		p    *Problem
		tol  float64
	}{
		{"iris", iris, 1e-6},
		{"random", randomProblem(rng, 20, 3, 80, 0.6, 0.3), 1e-6},
		{"budget active", randomProblem(rng, 15, 3, 60, 0.1, 50), 1e-6},
	}
	for _, c := range cases {
		for _, m := range []Method{Fast, Nesterov, Gradient} {
			tol := c.tol
			if m == Nesterov {
				tol = 1e-4 // Algorithm 1 with the global constant is slow by design
			}
			var gaps []float64
			res, err := Solve(context.Background(), c.p, Settings{Method: m, Tol: tol, MaxIter: 300000,
				Progress: func(pr Progress) bool {
					gaps = append(gaps, pr.Gap)
					if pr.Gap < -1e-9*math.Max(1, math.Abs(pr.Primal)) {
						t.Errorf("%s/%v: Δ_%d = %v < 0", c.name, m, pr.Iter, pr.Gap)
					}
					return true
				}})
			if err != nil {
				t.Fatal(err)
			}
			if res.Status != Converged || res.RelGap > tol {
				t.Errorf("%s/%v: %v with relative gap %v after %d iterations", c.name, m, res.Status, res.RelGap, res.Iter)
			}
			if len(gaps) != res.Iter {
				t.Errorf("%s/%v: %d progress reports for %d iterations", c.name, m, len(gaps), res.Iter)
			}
			// The best-so-far gap never rises.
			for i := 1; i < len(gaps); i++ {
				if gaps[i] > gaps[i-1] {
					t.Errorf("%s/%v: gap rose at %d: %v → %v", c.name, m, i, gaps[i-1], gaps[i])
					break
				}
			}
			// The reported values are those of the returned points.
			if d := primalDirect(c.p, res.A); !relClose(res.Primal, d, 1e-9) {
				t.Errorf("%s/%v: reported P = %v, direct P(A) = %v", c.name, m, res.Primal, d)
			}
			e := newEvaluator(c.p)
			if l, _, _ := evalAt(e, res.Q); !relClose(res.Dual, l, 1e-9) {
				t.Errorf("%s/%v: reported L = %v, direct L(q) = %v", c.name, m, res.Dual, l)
			}
			var s float64
			for _, v := range res.Q {
				if v < 0 || v > 1 {
					t.Fatalf("%s/%v: q outside [0,1]: %v", c.name, m, v)
				}
				s += v
			}
			if s > c.p.Budget()*(1+1e-12) {
				t.Errorf("%s/%v: Σq = %v > m = %v", c.name, m, s, c.p.Budget())
			}
			if c.name == "budget active" && !res.BudgetActive {
				t.Errorf("%s/%v: budget reported inactive, Σq/m = %v", c.name, m, res.SumQ/res.Budget)
			}
			if c.name == "iris" && res.BudgetActive {
				t.Errorf("%s/%v: budget reported active, Σq/m = %v", c.name, m, res.SumQ/res.Budget)
			}
		}
	}
}

// subgradientPrimal minimises P(A) over A ⪰ 0 by projected subgradient with
// step 1/(λ(t+1)) and weighted averaging (Lacoste-Julien, Schmidt & Bach
// 2012), an independent method sharing no code with the dual solvers but
// kTriplet and topSum's definition. It returns the best P seen.
func subgradientPrimal(p *Problem, iters int) float64 {
	_, d := p.X.Dims()
	ks := make([]*mat.SymDense, len(p.Triplets))
	for i, tr := range p.Triplets {
		ks[i] = kTriplet(p, tr)
	}
	m := p.Budget()
	a := mat.NewSymDense(d, nil)
	avg := mat.NewSymDense(d, nil)
	var wsum float64
	best := math.Inf(1)
	type hv struct {
		h float64
		i int
	}
	hs := make([]hv, len(ks))
	sub := mat.NewSymDense(d, nil)
	for it := 0; it < iters; it++ {
		// ∂P(A) ∋ λA − Σ_i q_i K_i, q the worst-case weights of the hinges.
		for i, k := range ks {
			hs[i] = hv{1 - mat.Sum(mulElem(a, k)), i}
		}
		slices.SortFunc(hs, func(x, y hv) int {
			switch {
			case x.h > y.h:
				return -1
			case x.h < y.h:
				return 1
			}
			return x.i - y.i
		})
		sub.ScaleSym(p.Lambda, a)
		left := m
		for _, v := range hs {
			if v.h <= 0 || left <= 0 {
				break
			}
			w := math.Min(1, left)
			left -= w
			sub.AddSym(sub, scaled(-w, ks[v.i]))
		}
		step := 1 / (p.Lambda * float64(it+1))
		a.AddSym(a, scaled(-step, sub))
		projectPSD(a)
		w := float64(it + 1)
		wsum += w
		var tmp mat.SymDense
		tmp.ScaleSym((wsum-w)/wsum, avg)
		tmp.AddSym(&tmp, scaled(w/wsum, a))
		avg.CopySym(&tmp)
		if it%1000 == 999 || it == iters-1 {
			best = math.Min(best, primalDirect(p, avg))
		}
	}
	return best
}

func projectPSD(a *mat.SymDense) {
	var es mat.EigenSym
	es.Factorize(a, true)
	v := es.Values(nil)
	var vec mat.Dense
	es.VectorsTo(&vec)
	n := len(v)
	out := mat.NewSymDense(n, nil)
	for k, l := range v {
		if l > 0 {
			out.SymRankOne(out, l, vec.ColView(k))
		}
	}
	a.CopySym(out)
}

// The optimum of every method equals that of the independent primal
// subgradient method on tiny problems, to 1e-5 relative, with the budget
// active in some cases and not in others.
func TestOptimumMatchesIndependentMethod(t *testing.T) {
	rng := rand.New(rand.NewPCG(5, 5))
	cases := []struct {
		name   string
		p      *Problem
		active bool
	}{
		{"inactive", consistent(randomProblem(rng, 6, 2, 8, 0.9, 0.5)), false},
		{"active", randomProblem(rng, 6, 2, 8, 0.25, 20), true},
		{"fractional m", randomProblem(rng, 7, 2, 9, 0.3, 5), true},
	}
	for _, c := range cases {
		ref := subgradientPrimal(c.p, 400000)
		for _, m := range []Method{Fast, Nesterov, Gradient} {
			// A relative gap of 1e-7 bounds −L − P* by 1e-7, well inside the
			// 1e-5 compared below.
			res, err := Solve(context.Background(), c.p, Settings{Method: m, Tol: 1e-7, MaxIter: 2000000})
			if err != nil {
				t.Fatal(err)
			}
			if res.Status != Converged {
				t.Fatalf("%s/%v: %v", c.name, m, res.Status)
			}
			if res.BudgetActive != c.active {
				t.Errorf("%s/%v: budget active = %v, want %v (Σq/m = %v)", c.name, m, res.BudgetActive, c.active, res.SumQ/res.Budget)
			}
			// −L(q*) = min P = the subgradient method's value.
			if !relClose(-res.Dual, ref, 1e-5) {
				t.Errorf("%s/%v: optimum −L = %.10g, primal subgradient %.10g", c.name, m, -res.Dual, ref)
			}
		}
	}
}

// With η = 1 the budget Σq ≤ N never binds and P is the ordinary hinge-loss
// objective λ/2‖A‖² + Σ_i (1 − tr(K_i A))_+.
func TestEtaOneIsHingeLoss(t *testing.T) {
	rng := rand.New(rand.NewPCG(6, 6))
	p := randomProblem(rng, 8, 3, 20, 1, 0.7)
	res, err := Solve(context.Background(), p, Settings{Tol: 1e-10})
	if err != nil {
		t.Fatal(err)
	}
	var hinge float64
	for _, tr := range p.Triplets {
		hinge += math.Max(0, 1-mat.Sum(mulElem(res.A, kTriplet(p, tr))))
	}
	f := mat.Norm(res.A, 2)
	if plain := p.Lambda/2*f*f + hinge; !relClose(res.Primal, plain, 1e-12) {
		t.Fatalf("η = 1: P = %v, hinge-loss objective %v", res.Primal, plain)
	}
	if ref := subgradientPrimal(p, 200000); !relClose(res.Primal, ref, 1e-5) {
		t.Fatalf("η = 1: optimum %v, hinge-loss problem by subgradient %v", res.Primal, ref)
	}
}

// With η = 1 and triplets that a metric separates with margin 1, the
// fraction of triplets with margin < 1 − 1e-6 at the optimum falls to zero as
// λ decreases (docs/math.md: binding triplets sit at margin exactly 1).
func TestSeparableMarginsAsLambdaFalls(t *testing.T) {
	// Triplets consistent with A₀ = diag(1, 0): the first coordinate decides.
	rng := rand.New(rand.NewPCG(7, 7))
	x := mat.NewDense(12, 2, nil)
	for i := 0; i < 12; i++ {
		x.Set(i, 0, float64(i)+0.1*rng.Float64())
		x.Set(i, 1, 5*rng.NormFloat64())
	}
	var ts []Triplet
	for i := 0; i < 12; i++ {
		for _, j := range []int{i - 1, i + 1} {
			for _, k := range []int{i - 3, i + 3} {
				if j >= 0 && j < 12 && k >= 0 && k < 12 {
					ts = append(ts, Triplet{i, j, k})
				}
			}
		}
	}
	frac := func(lambda float64) float64 {
		p := &Problem{X: x, Triplets: ts, Eta: 1, Lambda: lambda}
		res, err := Solve(context.Background(), p, Settings{Tol: 1e-10})
		if err != nil || res.Status != Converged {
			t.Fatalf("λ = %v: %v %v", lambda, err, res.Status)
		}
		bad := 0
		for _, tr := range ts {
			if mat.Sum(mulElem(res.A, kTriplet(p, tr))) < 1-1e-6 {
				bad++
			}
		}
		return float64(bad) / float64(len(ts))
	}
	prev := 2.0
	for _, l := range []float64{100, 10, 1, 0.1, 0.001} {
		f := frac(l)
		if f > prev+1e-12 {
			t.Errorf("λ = %v: fraction below margin %v rose from %v", l, f, prev)
		}
		prev = f
	}
	if prev != 0 {
		t.Errorf("at λ = 0.001, %v of the triplets still violate margin 1", prev)
	}
}

// A warm start from the solution converges in a fraction of the cold run's
// iterations (it carries q, not the best primal point, whose gap may be just
// above tol: measured 16 iterations against 74), and one from another λ's
// solution is valid and converges.
func TestWarmStart(t *testing.T) {
	p := labelProblem(t, "iris.csv", 0.8, 1)
	cold, _ := Solve(context.Background(), p, Settings{Tol: 1e-8})
	again, _ := Solve(context.Background(), p, Settings{Tol: 1e-8, Warm: cold.Q})
	if again.Iter > cold.Iter/4 {
		t.Errorf("warm start from the solution took %d iterations, cold %d", again.Iter, cold.Iter)
	}
	p2 := *p
	p2.Lambda = 2
	p2.Eta = 0.5
	warm, _ := Solve(context.Background(), &p2, Settings{Tol: 1e-8, Warm: cold.Q})
	fresh, _ := Solve(context.Background(), &p2, Settings{Tol: 1e-8})
	if warm.Status != Converged || !relClose(warm.Dual, fresh.Dual, 1e-7) {
		t.Errorf("warm start: %v L = %v, cold L = %v", warm.Status, warm.Dual, fresh.Dual)
	}
}

// Settings.Start is the fast method's first primal point: from the
// optimum, one iteration certifies the optimal value on the primal side;
// from a matrix that is not PSD, its projection is offered; the reported
// value is always the returned metric's (primalDirect).
func TestStartPrimal(t *testing.T) {
	p := labelProblem(t, "iris.csv", 0.8, 1)
	opt, err := Solve(context.Background(), p, Settings{Tol: 1e-9})
	if err != nil || opt.Status != Converged {
		t.Fatalf("reference run: %v, %v", opt.Status, err)
	}
	one := Settings{MaxIter: 1, Tol: 1e-12}
	cold, _ := Solve(context.Background(), p, one)
	one.Start = opt.A
	warm, _ := Solve(context.Background(), p, one)
	// P(A*) is within the reference's gap of the optimum, 1e-9 relative;
	// the cold run's first primal point is far above it.
	if warm.Primal > opt.Primal*(1+1e-12) || cold.Primal < opt.Primal*(1+1e-3) {
		t.Errorf("after one iteration: P = %v from the optimum's metric, %v cold; P* ≤ %v", warm.Primal, cold.Primal, opt.Primal)
	}
	neg := mat.NewSymDense(4, nil)
	for i := 0; i < 4; i++ {
		neg.SetSym(i, i, -1)
	}
	neg.SetSym(0, 1, 3) // eigenvalues −4, −1, −1, 2: a PSD part of rank one
	for _, start := range []mat.Symmetric{opt.A, neg} {
		one.Start = start
		res, err := Solve(context.Background(), p, one)
		if err != nil {
			t.Fatal(err)
		}
		if d := primalDirect(p, res.A); !relClose(res.Primal, d, 1e-9) {
			t.Errorf("reported P = %v, direct P(A) = %v", res.Primal, d)
		}
		eig, err := Eigenvalues(res.A)
		if err != nil || eig[0] < -1e-12*max(1, eig[len(eig)-1]) {
			t.Errorf("returned metric not PSD: eigenvalues %v (%v)", eig, err)
		}
	}
	defer func() {
		if r := recover(); r == nil || !strings.HasPrefix(fmt.Sprint(r), "core: ") {
			t.Errorf("a 2×2 Start for d = 4: recovered %v, want a core: panic", r)
		}
	}()
	Solve(context.Background(), p, Settings{Start: mat.NewSymDense(2, nil)})
}

// Limits, cancellation and the callback each end a run with their status.
func TestDriverStops(t *testing.T) {
	p := labelProblem(t, "sonar.csv", 0.8, 1)
	res, _ := Solve(context.Background(), p, Settings{Tol: 1e-12, MaxIter: 7})
	if res.Status != IterationLimit || res.Iter != 7 {
		t.Errorf("MaxIter 7: %v after %d", res.Status, res.Iter)
	}
	res, _ = Solve(context.Background(), p, Settings{Tol: 1e-12, Progress: func(pr Progress) bool { return pr.Iter < 5 }})
	if res.Status != Stopped || res.Iter != 5 {
		t.Errorf("callback: %v after %d", res.Status, res.Iter)
	}
	// The context is checked before every evaluation, so a cancel during
	// the third iteration's callback ends the run before a fourth completes.
	ctx, cancel := context.WithCancel(context.Background())
	evals := 0
	res, _ = Solve(ctx, p, Settings{Tol: 1e-12, YieldEvery: -1, Progress: func(pr Progress) bool {
		if pr.Iter == 3 {
			cancel()
			evals = pr.Evaluations
		}
		return true
	}})
	if res.Status != Cancelled || res.Iter != 3 || res.Evaluations != evals {
		t.Errorf("cancel: %v after %d iterations, %d evaluations (%d at the cancel)", res.Status, res.Iter, res.Evaluations, evals)
	}
	res, _ = Solve(context.Background(), p, Settings{Tol: 1e-12, TimeLimit: 1})
	if res.Status != TimeLimit || res.Iter != 1 {
		t.Errorf("time limit: %v after %d", res.Status, res.Iter)
	}
	// A host's yield runs every YieldEvery (here: before every evaluation
	// and after every iteration, each at least one), and a cancel seen
	// during it stops the run before another evaluation.
	yields := 0
	ctx, cancel = context.WithCancel(context.Background())
	res, _ = Solve(ctx, p, Settings{Tol: 1e-12, YieldEvery: time.Nanosecond, Yield: func() {
		yields++
		if yields == 3 {
			cancel()
		}
	}})
	if res.Status != Cancelled || res.Iter >= 3 || yields != 3 {
		t.Errorf("yield: %v after %d iterations and %d yields", res.Status, res.Iter, yields)
	}
}

// The same inputs give the same bits.
func TestDeterministic(t *testing.T) {
	x, ds := loadStd(t, "wine.csv")
	run := func() *Result {
		tr, _ := StratifiedSplit(ds.Labels, 0.15, 42)
		ts, err := LabelTriplets(SelectRows(x, tr), SelectLabels(ds.Labels, tr), ds.Classes, 3, 3)
		if err != nil {
			t.Fatal(err)
		}
		ts, _ = Flip(ts, 0.2, 42)
		res, _ := Solve(context.Background(), &Problem{X: SelectRows(x, tr), Triplets: ts, Eta: 0.8, Lambda: 1}, Settings{Tol: 1e-6})
		return res
	}
	a, b := run(), run()
	if !slices.Equal(a.Q, b.Q) || !mat.Equal(a.A, b.A) || a.Gap != b.Gap || a.Iter != b.Iter {
		t.Fatal("two runs with the same seed differ")
	}
}

// consistent orders each triplet so that it holds in the Euclidean metric.
func consistent(p *Problem) *Problem {
	for i, t := range p.Triplets {
		dj := mat.Norm(rowDiff(p.X, t.I, t.J), 2)
		dk := mat.Norm(rowDiff(p.X, t.I, t.K), 2)
		if dj > dk {
			p.Triplets[i].J, p.Triplets[i].K = t.K, t.J
		}
	}
	return p
}

func rowDiff(x *mat.Dense, i, j int) *mat.VecDense {
	var v mat.VecDense
	v.SubVec(x.RowView(i), x.RowView(j))
	return &v
}

// The paper's Eq. 8 bounds |h_i| by tr(K_i Z), Z = Σ (x_i − z_i)(x_i − z_i)ᵀ,
// which cannot hold where tr(K_i Z) < 0 (docs/math.md, slip 2). On Iris's
// label triplets (standardized, k_same = k_diff = 3) that is 105 of 1,350.
func TestPaperEq8BoundFails(t *testing.T) {
	p := labelProblem(t, "iris.csv", 0.8, 1)
	_, d := p.X.Dims()
	z := mat.NewSymDense(d, nil)
	for _, tr := range p.Triplets {
		z.SymRankOne(z, 1, rowDiff(p.X, tr.I, tr.K))
	}
	neg := 0
	for _, tr := range p.Triplets {
		if mat.Sum(mulElem(kTriplet(p, tr), z)) < 0 {
			neg++
		}
	}
	if neg != 105 {
		t.Errorf("tr(K_i Z) < 0 for %d of %d Iris triplets; docs/math.md says 105", neg, len(p.Triplets))
	}
}

// Methods and statuses print as spec names them (the page compares them).
func TestNamesAreSpecs(t *testing.T) {
	for i, n := range spec.Methods {
		if m, err := ParseMethod(n); err != nil || int(m) != i || m.String() != n {
			t.Errorf("method %q: %v, %v", n, m, err)
		}
	}
	if len(spec.Statuses) != int(Failed)+1 {
		t.Fatalf("%d status names for %d statuses", len(spec.Statuses), Failed+1)
	}
	for i, n := range spec.Statuses {
		if Status(i).String() != n {
			t.Errorf("status %d prints %q, spec says %q", i, Status(i), n)
		}
	}
}

// bestScale's multiple minimizes P(s·A) over s ≥ 0 exactly: checked against
// a brute-force search (a grid of 4,000 points, then golden section around
// the best) of P(s·A) computed through topSum, with the budget slack,
// binding, fractional and larger than N, and margins of both signs.
func TestBestScaleBruteForce(t *testing.T) {
	rng := rand.New(rand.NewPCG(8, 9))
	for trial := 0; trial < 40; trial++ {
		N := 20 + rng.IntN(60)
		eta := []float64{0.05, 0.3, 0.8, 1, 1.5}[trial%5] // 1.5: m > N, every hinge counts
		if trial%2 == 1 {
			eta += 0.37 / float64(N) // a fractional budget
		}
		e := &evaluator{pairIndex: &pairIndex{N: N}, lambda: math.Exp2(float64(rng.IntN(9) - 4)), m: float64(N) * eta}
		e.pm = make([]float64, 2*N)
		e.sim, e.dis = make([]int32, N), make([]int32, N)
		e.hs = make([]float64, N)
		for i := 0; i < N; i++ {
			e.sim[i], e.dis[i] = int32(2*i), int32(2*i+1)
			e.pm[2*i] = rng.Float64()
			e.pm[2*i+1] = rng.Float64() + rng.NormFloat64()*0.6 + 0.5
		}
		a2 := 0.01 + rng.Float64()
		f := func(s float64) float64 {
			var h []float64
			for t := range e.sim {
				if mg := s * e.margin(t); mg < 1 {
					h = append(h, 1-mg)
				}
			}
			return e.lambda/2*s*s*a2 + topSum(h, e.m)
		}
		p1 := f(1)
		s, p := e.bestScale(a2, p1)
		// Reference: the grid's best point, refined by golden section on
		// the bracket around it (f is convex).
		const n, hi = 4000, 40.0
		bi := 0
		for i := 1; i <= n; i++ {
			if f(hi*float64(i)/n) < f(hi*float64(bi)/n) {
				bi = i
			}
		}
		lo, up := hi*float64(max(bi-1, 0))/n, hi*float64(min(bi+1, n))/n
		g := (math.Sqrt(5) - 1) / 2
		for it := 0; it < 100; it++ {
			a, b := up-g*(up-lo), lo+g*(up-lo)
			if f(a) < f(b) {
				up = b
			} else {
				lo = a
			}
		}
		ref := min(f((lo+up)/2), p1)
		if s < 0 || p > ref+1e-12*math.Abs(ref) {
			t.Errorf("trial %d (N=%d, m=%v): bestScale gives s=%v, P=%v; brute force P=%v at s≈%v", trial, N, e.m, s, p, ref, (lo+up)/2)
		}
		if d := f(s); math.Abs(d-p) > 1e-12*math.Abs(d) {
			t.Errorf("trial %d: bestScale reports P=%v at s=%v, where P(s·A)=%v", trial, p, s, d)
		}
		if p > p1 {
			t.Errorf("trial %d: P(s·A)=%v > P(A)=%v", trial, p, p1)
		}
	}
}

// TestSelectNth checks the selection behind topSum against a sort, on random
// values, many ties, sorted and reversed orders, and every index.
func TestSelectNth(t *testing.T) {
	rng := rand.New(rand.NewPCG(7, 8))
	gens := map[string]func(i, n int) float64{
		"random":   func(i, n int) float64 { return rng.NormFloat64() },
		"ties":     func(i, n int) float64 { return float64(rng.IntN(3)) },
		"equal":    func(i, n int) float64 { return 1 },
		"sorted":   func(i, n int) float64 { return float64(i) },
		"reversed": func(i, n int) float64 { return float64(n - i) },
		"organ":    func(i, n int) float64 { return float64(min(i, n-i)) },
	}
	for name, gen := range gens {
		for _, n := range []int{1, 2, 3, 5, 17, 100} {
			h := make([]float64, n)
			for i := range h {
				h[i] = gen(i, n)
			}
			want := slices.Clone(h)
			slices.Sort(want)
			for k := 0; k < n; k++ {
				got := slices.Clone(h)
				selectNth(got, k)
				if got[k] != want[k] {
					t.Fatalf("%s n=%d: element %d is %v, want %v", name, n, k, got[k], want[k])
				}
				for i, v := range got {
					if (i < k && v > got[k]) || (i > k && v < got[k]) {
						t.Fatalf("%s n=%d k=%d: h[%d] = %v on the wrong side of %v", name, n, k, i, v, got[k])
					}
				}
				g2 := slices.Clone(got)
				slices.Sort(g2)
				if !slices.Equal(g2, want) {
					t.Fatalf("%s n=%d k=%d: not a permutation", name, n, k)
				}
			}
		}
	}
	// topSum against its definition: the sorted top ⌊m⌋ plus the fraction.
	for _, m := range []float64{0, 0.5, 3, 3.7, 99.2, 150} {
		h := make([]float64, 100)
		for i := range h {
			h[i] = rng.Float64()
		}
		s := slices.Clone(h)
		slices.Sort(s)
		slices.Reverse(s)
		var want float64
		k := int(math.Floor(m))
		for i := 0; i < min(k, len(s)); i++ {
			want += s[i]
		}
		if k < len(s) {
			want += (m - float64(k)) * s[k]
		}
		if got := topSum(h, m); math.Abs(got-want) > 1e-12*max(1, want) {
			t.Errorf("topSum(m=%v) = %v, want %v", m, got, want)
		}
	}
}

// TestKernelsAgainstNaive checks the products every evaluation runs (the
// three versions of rowDots, and addOuterUpper through formM's rows)
// against plain loops, for widths around their blocking of four and their
// pairs of rows; the blocked and paired rowDots must agree to the bit (they
// sum in the same order).
func TestKernelsAgainstNaive(t *testing.T) {
	rng := rand.New(rand.NewPCG(9, 10))
	for _, d := range []int{1, 2, 3, 4, 5, 8, 9} {
		for _, nt := range []int{1, 2, 4, 7, 13} {
			x := make([]float64, nt*d)
			y := make([]float64, nt*d)
			for i := range x {
				x[i], y[i] = rng.NormFloat64(), rng.NormFloat64()
			}
			rows := []int32{}
			for k := 0; k < nt; k++ {
				if k%3 != 1 {
					rows = append(rows, int32(k))
				}
			}
			got := make([]float64, d*d)
			addOuterUpper(got, x, y, rows, d)
			for i := 0; i < d; i++ {
				for j := i; j < d; j++ {
					var want float64
					for _, k := range rows {
						want += x[int(k)*d+i] * y[int(k)*d+j]
					}
					if math.Abs(got[i*d+j]-want) > 1e-12*(1+math.Abs(want)) {
						t.Fatalf("addOuterUpper d=%d nt=%d: (%d,%d) = %v, want %v", d, nt, i, j, got[i*d+j], want)
					}
				}
			}
			e := &evaluator{pairIndex: &pairIndex{d: d, nt: nt, xt: x}}
			for _, r := range []int{1, 4, 6, d} {
				if r*d > len(y) {
					continue
				}
				w := y[:r*d]
				z1, z2, z3 := make([]float64, nt*r), make([]float64, nt*r), make([]float64, nt*r)
				e.rowDotsBLAS(z1, w, r, 0, nt)
				e.rowDotsBlocked(z2, w, r, 0, nt)
				rowDotsPaired(z3, x, w, d, r)
				if !slices.Equal(z2, z3) {
					t.Fatalf("rowDotsPaired d=%d r=%d nt=%d: %v, rowDotsBlocked %v", d, r, nt, z3, z2)
				}
				for k := 0; k < nt; k++ {
					for c := 0; c < r; c++ {
						var want float64
						for j := 0; j < d; j++ {
							want += x[k*d+j] * w[c*d+j]
						}
						for name, z := range map[string][]float64{"BLAS": z1, "blocked": z2} {
							if math.Abs(z[k*r+c]-want) > 1e-12*(1+math.Abs(want)) {
								t.Fatalf("rowDots%s d=%d r=%d: (%d,%d) = %v, want %v", name, d, r, k, c, z[k*r+c], want)
							}
						}
					}
				}
			}
		}
	}
}

// FISTA's primal average offers Σ θ_j A(q_j) / Σ θ_j (or its best
// multiple) with its exact value: checked against A(q_j) = π₊(Σ q_i K_i)/λ
// formed per triplet and eigendecomposed by gonum's EigenSym, and P of the
// offered matrix computed per triplet (primalDirect), in both cases of the
// best-multiple search.
func TestPrimalAverageExact(t *testing.T) {
	rng := rand.New(rand.NewPCG(9, 9))
	p := randomProblem(rng, 20, 4, 90, 0.7, 0.5)
	d := 4
	for _, scale := range []bool{false, true} {
		c := newCertificate(p, nil)
		c.scalePrimal = scale
		var v primalAverage
		want := mat.NewSymDense(d, nil)
		var wsum float64
		m, g := make([]float64, d*d), make([]float64, len(p.Triplets))
		for j := 0; j < primalAverageEvery; j++ {
			q := make([]float64, len(p.Triplets))
			for i := range q {
				q[i] = rng.Float64()
			}
			if _, _, err := c.evalFull(m, q, g, eigPositive); err != nil {
				t.Fatal(err)
			}
			// A(q) per triplet, independently.
			a := mat.NewSymDense(d, nil)
			for i, tr := range p.Triplets {
				a.AddSym(a, scaled(q[i], kTriplet(p, tr)))
			}
			projectPSD(a)
			theta := 1 + float64(j)/3
			want.AddSym(want, scaled(theta/p.Lambda, a))
			wsum += theta
			c.bestP = math.Inf(1) // accept whatever is offered
			c.primalIsA = false
			v.add(c, theta)
			if offered := c.primalIsA; offered != (j == primalAverageEvery-1) {
				t.Fatalf("scale %v: after %d points the average offered: %v", scale, j+1, offered)
			}
		}
		want.ScaleSym(1/wsum, want)
		got := mat.NewSymDense(d, slices.Clone(c.primalA))
		if direct := primalDirect(p, got); !relClose(c.bestP, direct, 1e-9) {
			t.Errorf("scale %v: offered P = %v, direct P = %v", scale, c.bestP, direct)
		}
		// got = s·want with s = 1 without the search, s ≥ 0 with it.
		s := mat.Sum(mulElem(got, want)) / mat.Sum(mulElem(want, want))
		if !scale && !relClose(s, 1, 1e-12) || s < 0 {
			t.Errorf("scale %v: offered %v × the average", scale, s)
		}
		var diff mat.SymDense
		diff.AddSym(got, scaled(-s, want))
		if n := mat.Norm(&diff, 2); n > 1e-12*mat.Norm(want, 2) {
			t.Errorf("scale %v: offered matrix is not a multiple of the average: ‖got − s·want‖ = %v", scale, n)
		}
		if scale && primalDirect(p, got) > primalDirect(p, want)*(1+1e-12) {
			t.Errorf("the best multiple has P = %v > P(average) = %v", primalDirect(p, got), primalDirect(p, want))
		}
	}
}

// Hinge solves the robust problem at η = 1 whatever the problem's η: the
// same bits as Fast on the problem at η = 1, named Hinge, with its budget
// N (every triplet counts).
func TestHingeIsEtaOne(t *testing.T) {
	p := labelProblem(t, "wine.csv", 0.7, 4)
	h, err := Solve(context.Background(), p, Settings{Method: Hinge, Tol: 1e-6})
	if err != nil {
		t.Fatal(err)
	}
	one := *p
	one.Eta = 1
	f, err := Solve(context.Background(), &one, Settings{Method: Fast, Tol: 1e-6})
	if err != nil {
		t.Fatal(err)
	}
	if h.Method != Hinge || !mat.Equal(h.A, f.A) || h.Iter != f.Iter || h.Primal != f.Primal || h.Budget != float64(len(p.Triplets)) {
		t.Errorf("hinge: %v after %d iterations, P %v, budget %v; fast at η = 1: %d, %v", h.Method, h.Iter, h.Primal, h.Budget, f.Iter, f.Primal)
	}
	if eig, _ := Eigenvalues(h.A); p.CollapsedResult(eig[0], h) {
		t.Error("the hinge metric on Wine was judged collapsed")
	}
}
