package core

import (
	"context"
	"fmt"
	"math"
	"slices"
	"time"

	"gonum.org/v1/gonum/mat"

	"github.com/rml-lab/rml/spec"
)

// The best-case counterpart of the robust problem (docs/math.md). The paper
// trusts the worst case over which Nη triplets count, the sum of the Nη
// largest hinge losses: convex, but it sets aside the easiest triplets, not
// the wrong ones, and collapses to A = 0 when its budget binds. The best
// case trusts the k = ⌈Nη⌉ triplets the metric explains best:
//
//	B(A) = λ/2 ‖A‖_F² + Σ of the k smallest (1 − tr(A K_i))_+ ,   A ⪰ 0.
//
// B is a difference of convex functions, λ/2‖A‖² + Σ_all h_i minus the sum
// of the N − k largest h_i, so the convex–concave procedure applies: fix
// the trusted set S as the k triplets of smallest loss at the current A
// (ties, which are losses of 0, to the larger margin, then to the lower
// index: so S is the k largest margins, the same for A and any multiple
// s·A, s > 0, such as the fast method may return), solve the convex hinge
// problem on S (the robust problem with η = 1 on those triplets, by the
// fast method, warm started from the last solve's q on the triplets S
// keeps, with the last solve's metric as its first primal point), and
// repeat
// until S stops changing. B never rises from one outer step to the next
// (up to the inner tolerance); the
// answer is a local optimum, started from the η = 1 solution. Progress
// reports one outer step per iteration, B as Primal, and RelGap 0 once S
// is unchanged (Certified is false: no bound certifies a local optimum).

// solveBestCase runs the convex–concave procedure on p.
func solveBestCase(ctx context.Context, p *Problem, s Settings) (*Result, error) {
	start := time.Now()
	n := len(p.Triplets)
	k := spec.Trusted(n, float64(n)*p.Eta)
	inner := Settings{Method: Fast, Tol: s.Tol, MaxIter: s.MaxIter, TimeLimit: s.TimeLimit, YieldEvery: s.YieldEvery, Yield: s.Yield}
	tk := newTicker(ctx, s.YieldEvery, s.Yield)

	// The start: the η = 1 solution, on every triplet (from s.Warm, the
	// start of a run at another λ, when given: Result.Q returns it).
	in0 := inner
	if len(s.Warm) == n {
		in0.Warm = s.Warm
	}
	r0, bs, err := bestCaseStart(ctx, p, in0, s.BestStart)
	if err != nil {
		return nil, err
	}
	res := &Result{Method: BestCase, BestStart: bs}
	if r0.Status == Cancelled {
		res.Status, res.A = Cancelled, r0.A
		return res, nil
	}
	if k == n {
		return trustAll(r0, bs, n), nil
	}
	bc := &bestCase{e: newEvaluator(p), p: p, k: k, lambda: p.Lambda}
	set := bc.trusted(r0.A)
	bestB, bestA := bc.value(r0.A), r0.A
	outer, changed := 0, true
	// q of the last solve, by triplet: the next trusted set starts from it
	// (0 for the triplets it adds), the η = 1 solution's at first.
	qOf := slices.Clone(r0.Q)
	var lastA mat.Symmetric = r0.A
	step := func() error {
		sub, in := bc.subProblem(set, qOf, lastA, inner)
		r, err := Solve(ctx, sub, in)
		if err != nil {
			return err
		}
		if r.Status == Cancelled {
			return ctx.Err()
		}
		outer++
		lastA = r.A
		clear(qOf)
		for j, i := range set {
			qOf[i] = r.Q[j]
		}
		next := bc.trusted(r.A)
		changed = !slices.Equal(next, set)
		set = next
		if b := bc.value(r.A); b < bestB {
			bestB, bestA = b, r.A
		}
		return nil
	}
	progress := func() Progress {
		rel := 0.0
		if changed {
			rel = 1
		}
		return Progress{Iter: outer, Gap: rel, RelGap: rel, Primal: bestB, Budget: p.Budget(), Elapsed: time.Since(start)}
	}
	metric := func() (*mat.SymDense, error) {
		var a mat.SymDense
		a.CopySym(bestA)
		return &a, nil
	}
	st, err := drive(ctx, s, tk, run{step: step, progress: progress, metric: metric})
	res.Status, err = endStatus(ctx, st, err)
	res.Progress = progress()
	res.A = bestA
	res.Trusted = set
	res.Q = r0.Q // the η = 1 start's: a warm start for a run at another λ
	if err != nil {
		return res, &SolveError{Method: BestCase, Iter: outer, Err: err}
	}
	return res, nil
}

// trustAll is the best case's answer when every triplet is trusted
// (η = 1): the convex hinge problem its start r0 solved, the same to the
// bit as the robust method's at η = 1 with these settings. An outer step
// would only solve it again to the tolerance, elsewhere within it. It
// counts as one outer step, and its gap is a true certificate.
func trustAll(r0 *Result, bs *BestStart, n int) *Result {
	r0.Method, r0.Trusted, r0.Iter, r0.BestStart = BestCase, nil, 1, bs
	for i := range n {
		r0.Trusted = append(r0.Trusted, i)
	}
	return r0
}

// subProblem returns the convex hinge problem on the trusted set (η = 1
// on those triplets) and its settings: inner's, warm started from the
// last solve's q on the triplets set keeps (qOf, by triplet), with the last
// solve's metric as its first primal point.
func (b *bestCase) subProblem(set []int, qOf []float64, lastA mat.Symmetric, inner Settings) (*Problem, Settings) {
	p := b.p
	sub := &Problem{X: p.X, Triplets: make([]Triplet, len(set)), Eta: 1, Lambda: p.Lambda}
	in := inner
	in.Warm = make([]float64, len(set))
	in.Start = lastA
	for j, i := range set {
		sub.Triplets[j] = p.Triplets[i]
		in.Warm[j] = qOf[i]
	}
	return sub, in
}

// A BestStart is the best case's start: the η = 1 solution (the convex
// hinge problem on every triplet) solved cold for Lambda to Tol within
// MaxIter iterations, its metric A (d×d, row-major, both triangles) and its
// q (one weight per triplet).
//
// Result.BestStart returns the start a best-case run began from, and
// Settings.BestStart hands it to the next run on the same data and
// triplets, which takes it instead of solving it when its λ, tolerance and
// iteration limit are the run's. Solve is deterministic, so the start taken
// is the one a solve would have returned, to the bit, and so are the runs
// from it: an η sweep's best cases, run by one solver or by several (the
// page's workers), solve the start once between them. Keeping starts, and
// knowing which data they were solved on, is the caller's business.
type BestStart struct {
	Lambda, Tol float64
	MaxIter     int
	A, Q        []float64

	res *Result // the run that solved it, when it was solved in this process
}

// newBestStart returns r, a converged cold run of the η = 1 problem, as a
// start.
func newBestStart(lambda float64, in Settings, r *Result) *BestStart {
	d := r.A.SymmetricDim()
	a := make([]float64, d*d)
	for i := 0; i < d; i++ {
		for j := 0; j < d; j++ {
			a[i*d+j] = r.A.At(i, j)
		}
	}
	return &BestStart{Lambda: lambda, Tol: in.Tol, MaxIter: in.MaxIter, A: a, Q: slices.Clone(r.Q), res: r.clone()}
}

// fits reports whether st is the start of a run at λ with the inner
// settings in.
func (st *BestStart) fits(lambda float64, in Settings) bool {
	return st != nil && st.Lambda == lambda && st.Tol == in.Tol && st.MaxIter == in.MaxIter
}

// result returns st as the result of the run that solved it: that run's
// own (a copy), or, for a start solved elsewhere, its metric and weights.
func (st *BestStart) result() *Result {
	if st.res != nil {
		return st.res.clone()
	}
	d := int(math.Sqrt(float64(len(st.A))))
	return &Result{Method: Fast, Status: Converged, A: mat.NewSymDense(d, slices.Clone(st.A)), Q: slices.Clone(st.Q)}
}

// Check returns an error if st cannot be the start of a problem with d
// features and n triplets: A not d×d, symmetric and finite, q not one value
// in [0, 1] per triplet, or λ, the tolerance or the iteration limit out of
// range. A start that passes may still have been solved on other data:
// that, Check cannot see.
func (st *BestStart) Check(d, n int) error {
	switch {
	case len(st.A) != d*d || len(st.Q) != n:
		return fmt.Errorf("core: a start of %d metric entries and %d weights, want %d and %d", len(st.A), len(st.Q), d*d, n)
	case !(st.Lambda > 0) || !(st.Tol > 0) || st.MaxIter < 0 || math.IsInf(st.Lambda, 0) || math.IsInf(st.Tol, 0):
		return fmt.Errorf("core: a start for λ = %g, tolerance %g, %d iterations", st.Lambda, st.Tol, st.MaxIter)
	}
	for i := 0; i < d; i++ {
		for j := i; j < d; j++ {
			if v := st.A[i*d+j]; !finite(v) || v != st.A[j*d+i] {
				return fmt.Errorf("core: the start's metric is not finite and symmetric at (%d, %d)", i, j)
			}
		}
	}
	for i, q := range st.Q {
		if !(q >= 0 && q <= 1) {
			return fmt.Errorf("core: the start's weight %d is %g, not in [0, 1]", i, q)
		}
	}
	return nil
}

// bestCaseStart returns the best case's start for p, the η = 1 solution
// by the inner settings in, and that solution as a start to keep: given,
// when it fits (and no warm start is asked for), else the run solved here
// when it was solved cold and converged, else nil.
func bestCaseStart(ctx context.Context, p *Problem, in Settings, given *BestStart) (*Result, *BestStart, error) {
	cold := in.Warm == nil
	if cold && given.fits(p.Lambda, in) {
		_, d := p.X.Dims()
		if err := given.Check(d, len(p.Triplets)); err != nil {
			panic(err.Error() + " (Settings.BestStart: check it with BestStart.Check)")
		}
		return given.result(), given, nil
	}
	full := &Problem{X: p.X, Triplets: p.Triplets, Eta: 1, Lambda: p.Lambda, prep: p.prepared()}
	r, err := Solve(ctx, full, in)
	if err != nil || !cold || r.Status != Converged {
		return r, nil, err
	}
	return r, newBestStart(p.Lambda, in, r), nil
}

// clone returns a copy of r whose A, Q and Trusted are its own.
func (r *Result) clone() *Result {
	c := *r
	if r.A != nil {
		c.A = mat.NewSymDense(r.A.SymmetricDim(), nil)
		c.A.CopySym(r.A)
	}
	c.Q = slices.Clone(r.Q)
	c.Trusted = slices.Clone(r.Trusted)
	return &c
}

type bestCase struct {
	e      *evaluator
	p      *Problem
	k      int
	lambda float64
	order  []int
}

// losses sets e.pm to a's pair values and returns each triplet's hinge loss.
func (b *bestCase) losses(a mat.Symmetric) []float64 {
	e := b.e
	e.pairValuesOf(a)
	h := make([]float64, e.N)
	for t := range h {
		h[t] = math.Max(0, 1-e.margin(t))
	}
	return h
}

// trusted returns the k triplets of smallest loss under a, in index order:
// the k largest margins (a loss (1 − margin)_+ is smaller exactly when the
// margin is larger, and ties of 0 go to the larger margin), ties to the
// lower index.
func (b *bestCase) trusted(a mat.Symmetric) []int {
	e := b.e
	e.pairValuesOf(a)
	if b.order == nil {
		b.order = make([]int, e.N)
	}
	for i := range b.order {
		b.order[i] = i
	}
	slices.SortStableFunc(b.order, func(x, y int) int {
		mx, my := e.margin(x), e.margin(y)
		switch {
		case mx > my:
			return -1
		case mx < my:
			return 1
		}
		return 0
	})
	set := slices.Clone(b.order[:b.k])
	slices.Sort(set)
	return set
}

// value returns B(a).
func (b *bestCase) value(a mat.Symmetric) float64 {
	h := b.losses(a)
	slices.Sort(h)
	var s float64
	for _, v := range h[:b.k] {
		s += v
	}
	var f2 float64
	d, _ := a.Dims()
	for i := 0; i < d; i++ {
		for j := 0; j < d; j++ {
			v := a.At(i, j)
			f2 += v * v
		}
	}
	return b.lambda/2*f2 + s
}
