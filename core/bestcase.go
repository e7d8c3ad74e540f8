package core

import (
	"context"
	"errors"
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
	e := newEvaluator(p)

	// The start: the η = 1 solution, on every triplet (from s.Warm, the
	// start of a run at another λ, when given: Result.Q returns it).
	in0 := inner
	if len(s.Warm) == n {
		in0.Warm = s.Warm
	}
	r0, err := bestCaseStart(ctx, p, in0)
	if err != nil {
		return nil, err
	}
	res := &Result{Method: BestCase}
	if r0.Status == Cancelled {
		res.Status, res.A = Cancelled, r0.A
		return res, nil
	}
	if k == n {
		// Every triplet trusted: the best case is the convex hinge problem
		// its start solved (η = 1), and the start is its answer, the same
		// to the bit as the robust method's at η = 1 with these settings.
		// An outer step would only solve it again to the tolerance,
		// elsewhere within it. It counts as one outer step, and its gap is
		// a true certificate.
		r0.Method, r0.Trusted, r0.Iter = BestCase, nil, 1
		for i := range n {
			r0.Trusted = append(r0.Trusted, i)
		}
		return r0, nil
	}
	bc := &bestCase{e: e, p: p, k: k, lambda: p.Lambda}
	a := r0.A
	set := bc.trusted(a)
	bestB, bestA := bc.value(a), a
	outer, changed := 0, true
	// q of the last solve, by triplet: the next trusted set starts from it
	// (0 for the triplets it adds), the η = 1 solution's at first.
	qOf := slices.Clone(r0.Q)
	var lastA mat.Symmetric = r0.A
	step := func() error {
		sub := &Problem{X: p.X, Triplets: make([]Triplet, len(set)), Eta: 1, Lambda: p.Lambda}
		in := inner
		in.Warm = make([]float64, len(set))
		in.Start = lastA // the last solve's metric: the new set's primal, to begin with
		for j, i := range set {
			sub.Triplets[j] = p.Triplets[i]
			in.Warm[j] = qOf[i]
		}
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

// keptStart is a best-case start kept on a Prepared: the η = 1 solution
// for λ, solved cold to tol within maxIter iterations.
type keptStart struct {
	lambda, tol float64
	maxIter     int
	res         *Result
}

// bestCaseStart returns the best case's start for p: the η = 1 solution by
// the inner settings in. A start solved cold (no warm start) that converged
// is kept on p's preparation, one per Prepared, and returned again (as a
// copy) for the same λ, tolerance and iteration limit: an η sweep's best
// cases all start from it (on Wine's, the start was about three fifths of
// each best-case run in the page).
func bestCaseStart(ctx context.Context, p *Problem, in Settings) (*Result, error) {
	pp := p.prepared()
	full := &Problem{X: p.X, Triplets: p.Triplets, Eta: 1, Lambda: p.Lambda, prep: pp}
	keep := pp != nil && in.Warm == nil
	if keep {
		pp.startMu.Lock()
		k := pp.start
		pp.startMu.Unlock()
		if k != nil && k.lambda == p.Lambda && k.tol == in.Tol && k.maxIter == in.MaxIter {
			return k.res.clone(), nil
		}
	}
	if pp != nil {
		pp.startMu.Lock()
		pp.startsSolved++
		pp.startMu.Unlock()
	}
	r, err := Solve(ctx, full, in)
	if err != nil {
		return nil, err
	}
	if keep && r.Status == Converged {
		pp.startMu.Lock()
		pp.start = &keptStart{lambda: p.Lambda, tol: in.Tol, maxIter: in.MaxIter, res: r.clone()}
		pp.startMu.Unlock()
	}
	return r, nil
}

// A Start is the best case's η = 1 start as a Prepared keeps it: the
// solution solved cold for Lambda to Tol within MaxIter iterations, its
// metric A (d×d, row-major) and its q (one weight per triplet). Data is the
// Prepared.Fingerprint of the data and triplets it was solved on.
//
// Prepared.Start hands the kept start out and Prepared.KeepStart takes one
// solved elsewhere on the same data, so that several solvers that each
// prepared the same triplets (the page's pool of workers, each running some
// of an η sweep's best cases) solve the start once between them, as one
// solver does. Solve is deterministic, so the start taken is the one a
// solve would have returned, to the bit, and so are the runs from it.
type Start struct {
	Lambda, Tol float64
	MaxIter     int
	Data        uint64
	A, Q        []float64
}

// Start returns a copy of the start kept on pp, if there is one.
func (pp *Prepared) Start() (Start, bool) {
	pp.startMu.Lock()
	k := pp.start
	pp.startMu.Unlock()
	if k == nil {
		return Start{}, false
	}
	d := k.res.A.SymmetricDim()
	a := make([]float64, d*d)
	for i := 0; i < d; i++ {
		for j := 0; j < d; j++ {
			a[i*d+j] = k.res.A.At(i, j) // both triangles (a clone keeps only the upper one)
		}
	}
	return Start{Lambda: k.lambda, Tol: k.tol, MaxIter: k.maxIter, Data: pp.Fingerprint(), A: a, Q: slices.Clone(k.res.Q)}, true
}

// KeepStart keeps s, a start solved on data with pp's fingerprint, as if it
// had been solved on pp: the best case's runs at s.Lambda with its
// tolerance and iteration limit take it instead of solving it. It returns
// an error, and keeps nothing, for a start of other data or one whose
// sizes or values are not a start's (A d×d, symmetric and finite; q one
// value in [0, 1] per triplet; λ and the tolerance positive).
func (pp *Prepared) KeepStart(s Start) error {
	_, d := pp.X.Dims()
	n := len(pp.Triplets)
	switch {
	case s.Data != pp.Fingerprint():
		return errors.New("core: the start was solved on other data or triplets")
	case len(s.A) != d*d || len(s.Q) != n:
		return fmt.Errorf("core: a start of %d metric entries and %d weights, want %d and %d", len(s.A), len(s.Q), d*d, n)
	case !(s.Lambda > 0) || !(s.Tol > 0) || s.MaxIter < 0 || math.IsInf(s.Lambda, 0) || math.IsInf(s.Tol, 0):
		return fmt.Errorf("core: a start for λ = %g, tolerance %g, %d iterations", s.Lambda, s.Tol, s.MaxIter)
	}
	for i := 0; i < d; i++ {
		for j := i; j < d; j++ {
			if v := s.A[i*d+j]; !finite(v) || v != s.A[j*d+i] {
				return fmt.Errorf("core: the start's metric is not finite and symmetric at (%d, %d)", i, j)
			}
		}
	}
	for i, q := range s.Q {
		if !(q >= 0 && q <= 1) {
			return fmt.Errorf("core: the start's weight %d is %g, not in [0, 1]", i, q)
		}
	}
	res := &Result{Method: Fast, Status: Converged, A: mat.NewSymDense(d, slices.Clone(s.A)), Q: slices.Clone(s.Q)}
	pp.startMu.Lock()
	pp.start = &keptStart{lambda: s.Lambda, tol: s.Tol, maxIter: s.MaxIter, res: res}
	pp.startMu.Unlock()
	return nil
}

// StartsSolved returns how many best-case starts were solved on pp rather
// than taken from the one it keeps.
func (pp *Prepared) StartsSolved() int {
	pp.startMu.Lock()
	defer pp.startMu.Unlock()
	return pp.startsSolved
}

// Fingerprint returns a 64-bit FNV-1a hash of pp's data and triplets (X's
// size and every value's bits, then every triplet's indices), computed once:
// two preparations of the same data and triplets have the same one.
func (pp *Prepared) Fingerprint() uint64 {
	pp.fpOnce.Do(func() {
		const prime = 1099511628211
		h := uint64(14695981039346656037)
		word := func(v uint64) {
			for k := 0; k < 8; k++ {
				h ^= v & 0xff
				h *= prime
				v >>= 8
			}
		}
		n, d := pp.X.Dims()
		word(uint64(n))
		word(uint64(d))
		for i := 0; i < n; i++ {
			for j := 0; j < d; j++ {
				word(math.Float64bits(pp.X.At(i, j)))
			}
		}
		word(uint64(len(pp.Triplets)))
		for _, t := range pp.Triplets {
			word(uint64(t.I))
			word(uint64(t.J))
			word(uint64(t.K))
		}
		pp.fp = h
	})
	return pp.fp
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
