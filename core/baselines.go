package core

import (
	"context"
	"fmt"
	"math"
	"slices"
	"time"

	"gonum.org/v1/gonum/lapack"
	"gonum.org/v1/gonum/mat"
)

// The paper's baselines (docs/math.md, "Baselines"), trained on the same
// triplets and run by the same driver as RML: LMNN in the paper's triplet
// form, Xing et al.'s MMC with the pairs read off the triplets, and Euclid.
// They work on the metric A directly, so a run reports the method's own
// objective (Progress.Primal, lower is better: −g for Xing) and a certified
// bound on its optimum (−Progress.Dual): LMNN's from its dual, Xing's
// Frank–Wolfe's; Progress.RelGap is the gap between them, relative to
// max(1, |objective|).

func isBaseline(m Method) bool {
	return m == LMNN || m == LMNNSubgradient || m == Xing || m == Euclid || m == Logistic || m == TSTE
}

// primal is the state a baseline shares with the driver: the iteration
// count, the best objective so far (lower is better) and the metric that
// has it, and the best certified lower bound on the optimum.
type primal struct {
	e      *evaluator
	iter   int
	best   float64
	bestA  []float64
	start  time.Time
	budget float64
	lower  float64
	// uncertified: lower is an estimate, not a bound (a non-convex
	// learner's), and the gap no certificate.
	uncertified bool
}

func (c *primal) offer(a []float64, f float64) {
	if f < c.best || c.bestA == nil {
		c.best = f
		if c.bestA == nil {
			c.bestA = make([]float64, len(a))
		}
		copy(c.bestA, a)
	}
}

// metric returns a copy of the best metric, symmetrized against rounding.
func (c *primal) metric() *mat.SymDense {
	a := slices.Clone(c.bestA)
	averageSymmetrize(a, c.e.d)
	return mat.NewSymDense(c.e.d, a)
}

// progress reports the best objective, the bound and the gap between them.
func (c *primal) progress() Progress {
	gap := max(0, c.best-c.lower)
	return Progress{Certified: !c.uncertified, Iter: c.iter, Gap: gap, RelGap: gap / math.Max(1, math.Abs(c.best)),
		Primal: c.best, Dual: -c.lower, Budget: c.budget, Elapsed: time.Since(c.start)}
}

// solveBaseline runs a baseline method on p.
func solveBaseline(ctx context.Context, p *Problem, s Settings) (*Result, error) {
	e := newEvaluator(p)
	d := e.d
	res := &Result{Method: s.Method}
	if s.Method == Euclid {
		res.A, res.Status = identity(d), Converged
		res.Progress = Progress{Budget: p.Budget()}
		return res, nil
	}
	tk := newTicker(ctx, s.YieldEvery, s.Yield)
	c := &primal{e: e, best: math.Inf(1), start: time.Now(), budget: p.Budget()}
	var step func() error
	switch s.Method {
	case LMNNSubgradient:
		m, err := newLMNN(p, e)
		if err != nil {
			return nil, err
		}
		c.offer(m.a, m.objective())
		step = func() error { return m.iterate(c, tk) }
	case LMNN:
		l, err := newLMNN(p, e)
		if err != nil {
			return nil, err
		}
		if err := l.startAt(s.Start); err != nil {
			return nil, err
		}
		c.offer(l.a, l.objective())
		m := newLMNNSmooth(l)
		step = func() error { return m.iterate(c, tk) }
	case Logistic, TSTE:
		loss, certify := smoothLoss(logisticLoss), true
		if s.Method == TSTE {
			loss, certify, c.uncertified = tsteLoss, false, true
		}
		l := newLearner(e, p.Lambda, loss, certify)
		c.offer(l.a, l.fa)
		step = func() error { return l.iterate(c, tk) }
	case Xing:
		m, err := newXing(e)
		if err != nil {
			return nil, err
		}
		c.offer(m.a, -m.objective(m.x))
		c.lower = -m.bound()
		step = func() error { return m.iterate(c, tk) }
	}
	st, err := drive(ctx, s, tk, run{
		step: func() error {
			if err := step(); err != nil {
				return err
			}
			c.iter++
			return nil
		},
		progress: c.progress,
		metric:   func() (*mat.SymDense, error) { return c.metric(), nil },
	})
	res.Status, err = endStatus(ctx, st, err)
	res.Progress = c.progress()
	res.EigenFallbacks = e.eigenFallbacks
	res.A = c.metric()
	if err != nil {
		return res, &SolveError{Method: s.Method, Iter: c.iter, Err: err}
	}
	return res, nil
}

// projectPSDTo sets a (d×d, symmetric, both triangles) to π₊(a), its
// nearest PSD matrix in the Frobenius norm, by one eigendecomposition:
//
//	π₊(a) = Σ_{λ_k>0} λ_k v_k v_kᵀ = a − Σ_{λ_k<0} λ_k v_k v_kᵀ,
//
// whichever side has fewer eigenvectors (LMNN's iterates have few negative
// eigenvalues; eigen computes only the side it needs).
func projectPSDTo(e *evaluator, a []float64) error {
	if !e.eigen(a, eigSmaller) {
		return ErrEigen
	}
	d := e.d
	neg := e.partNeg
	if !neg {
		clear(a)
	}
	for k := 0; k < d; k++ {
		l := e.vals[k]
		if neg {
			if !(l < 0) {
				continue
			}
			l = -l
		} else if !(l > 0) {
			continue
		}
		addOuterCol(a, e.eigA, d, k, l)
	}
	return nil
}

// stepTerms returns a backtracking test's terms for the step from y to x
// with gradient g: ⟨g, x − y⟩ and ‖x − y‖².
func stepTerms(x, y, g []float64) (lin, sq float64) {
	for i, v := range x {
		dv := v - y[i]
		lin += g[i] * dv
		sq += dv * dv
	}
	return lin, sq
}

// frob returns ⟨a, b⟩_F.
func frob(a, b []float64) float64 {
	var s float64
	for i, v := range a {
		s += v * b[i]
	}
	return s
}

// lmnn minimises the paper's LMNN objective on the triplets,
//
//	F(A) = Σ_i (1 − tr(A K_i))_+ + λ/2 · tr(W A),  W = (1/N) Σ_i v_i v_iᵀ,
//
// over A ⪰ 0 by projected sub-gradient: with the sub-gradient
//
//	G = −Σ_{i: tr(A K_i) < 1} K_i + λ/2 · W,
//
// A ← π₊(A − s_t G), s_t = r / (‖G‖_F √t), r = ‖A_0‖_F: each step moves A by
// r/√t, the classic diminishing rule under which the best F converges to the
// minimum. It starts from A_0 = I (the Euclidean metric), as LMNN does (the
// accelerated solver, lmnnSmooth, from the best multiple of I or a given
// start: startAt).
//
// The gap is certified. LMNN's dual is
//
//	max Σ_i q_i  over q ∈ [0, 1]^N  subject to  λ/2 · W − Σ_i q_i K_i ⪰ 0,
//
// so any q ∈ [0, 1]^N scaled by τ = min(1, (λ/2) / λ_max(W^{-½} M(q) W^{-½}))
// is feasible and τ Σ q_i bounds the optimum from below (W^{+½} on W's
// range when W is singular: boundFrom). The q used is the
// step-weighted average of the sub-gradients' active sets (the indicators
// of margin < 1), which converges to a dual solution; the bound is
// evaluated every 10 iterations and the run stops when best F − bound ≤
// tol·max(1, |F|).
type lmnn struct {
	e          *evaluator
	lambda     float64
	a, g, w, m []float64
	wInvHalf   []float64 // W^{+½}: W^{-½} on W's range, 0 on its null space; nil if W = 0 (then the bound is 0)
	wNull      []float64 // an orthonormal basis of W's null space, as rows (d each)
	tmp        []float64 // d×d scratch for the bound
	qSum, q    []float64 // Σ_t s_t·active_t, and the average
	sSum       float64
	r          float64
	t          int
}

func newLMNN(p *Problem, e *evaluator) (*lmnn, error) {
	d := e.d
	l := &lmnn{e: e, lambda: p.Lambda, a: make([]float64, d*d), g: make([]float64, d*d), w: make([]float64, d*d), m: make([]float64, d*d),
		tmp: make([]float64, d*d), qSum: make([]float64, e.N), q: make([]float64, e.N)}
	for i := 0; i < d; i++ {
		l.a[i*d+i] = 1
	}
	l.r = math.Sqrt(float64(d))
	// W = (1/N) Σ_i v_i v_iᵀ, v_i = x_I − x_J: the similar pairs' weights.
	clear(e.w)
	for _, p := range e.sim {
		e.w[p] += 1 / float64(e.N)
	}
	e.formW(l.w)
	symmetrize(l.w, d)
	// W^{+½} = Σ_{w_k > 0} w_k^{-½} v_k v_kᵀ, eigenvalues up to 1e-12 of the
	// largest counted as 0: W is singular when a feature does not vary
	// between similar pairs (Ionosphere's second column is constant), and
	// with W^{-½} alone its bound was 0.
	copy(l.m, l.w)
	if !e.eigen(l.m, eigAll) {
		return nil, ErrEigen
	}
	if top := e.vals[d-1]; top > 0 {
		l.wInvHalf = make([]float64, d*d)
		for k := 0; k < d; k++ {
			if e.vals[k] <= 1e-12*top {
				for i := 0; i < d; i++ {
					l.wNull = append(l.wNull, e.eigA[i*d+k])
				}
				continue
			}
			addOuterCol(l.wInvHalf, e.eigA, d, k, 1/math.Sqrt(e.vals[k]))
		}
	}
	return l, nil
}

// lowerBound returns τ Σ q_i for the averaged q (see lmnn), a lower bound
// on the optimum; 0 if W is singular.
func (l *lmnn) lowerBound() (float64, error) {
	if l.sSum == 0 {
		return 0, nil
	}
	for i, v := range l.qSum {
		l.q[i] = v / l.sSum
	}
	return l.boundFrom(l.q)
}

// boundFrom returns τ Σ q_i for q ∈ [0, 1]^N (see lmnn): a lower bound on
// the optimum; 0 if W = 0, or if M(q) does not vanish on W's null space.
//
// With W singular, λ/2 · W − τ M ⪰ 0 needs M z = 0 for every z with W z = 0
// (otherwise zᵀMz > 0 for some such z, or a cross term that no τ > 0
// makes up for); then M lives on W's range R, where W is invertible, and
// τ ≤ (λ/2) / λ_max(W^{+½} M W^{+½}) suffices. A feature constant over
// every triplet's rows gives M and W the same zero row and column.
func (l *lmnn) boundFrom(q []float64) (float64, error) {
	if l.wInvHalf == nil {
		return 0, nil
	}
	e, d := l.e, l.e.d
	var sum float64
	for _, v := range q {
		sum += v
	}
	e.formM(l.m, q)
	symmetrize(l.m, d)
	if len(l.wNull) > 0 {
		var big float64
		for _, v := range l.m {
			big = max(big, math.Abs(v))
		}
		for z := l.wNull; len(z) > 0; z = z[d:] {
			for i := 0; i < d; i++ {
				var s float64
				for j, zj := range z[:d] {
					s += l.m[i*d+j] * zj
				}
				if math.Abs(s) > 1e-10*big {
					return 0, nil
				}
			}
		}
	}
	// B = W^{+½} M W^{+½}, into l.g's room (recomputed before its next use).
	mulTo(l.tmp, l.wInvHalf, l.m, d)
	mulTo(l.g, l.tmp, l.wInvHalf, d)
	if !e.eigen(l.g, eigValues) {
		return 0, ErrEigen
	}
	tau := 1.0
	if top := e.vals[d-1]; top > 0 {
		tau = math.Min(1, l.lambda/2/top)
	}
	return tau * sum, nil
}

// mulTo sets dst = a·b for d×d row-major matrices.
func mulTo(dst, a, b []float64, d int) {
	clear(dst)
	for i := 0; i < d; i++ {
		for k := 0; k < d; k++ {
			if v := a[i*d+k]; v != 0 {
				row, brow := dst[i*d:(i+1)*d], b[k*d:(k+1)*d]
				for j := range row {
					row[j] += v * brow[j]
				}
			}
		}
	}
}

// startAt sets l.a to π₊(a) (a d×d symmetric; not PSD, it is projected),
// or, if a is nil, to s·I, the multiple of the Euclidean metric with the
// lowest F (scaledIdentity). It panics if a is not d×d or holds a NaN or an
// infinity (programmer misuse: a start is a metric that Solve returned).
func (l *lmnn) startAt(a mat.Symmetric) error {
	d := l.e.d
	if a == nil {
		s := l.scaledIdentity()
		clear(l.a)
		for i := 0; i < d; i++ {
			l.a[i*d+i] = s
		}
		return nil
	}
	if n := a.SymmetricDim(); n != d {
		panic(fmt.Sprintf("core: Settings.Start is %d×%d, want %d×%d", n, n, d, d))
	}
	for i := 0; i < d; i++ {
		for j := 0; j < d; j++ {
			v := a.At(i, j)
			if !finite(v) {
				panic(fmt.Sprintf("core: Settings.Start(%d, %d) = %v", i, j, v))
			}
			l.a[i*d+j] = v
		}
	}
	return projectPSDTo(l.e, l.a)
}

// scaledIdentity returns the s ≥ 0 that minimises F(s·I): the best start
// along the Euclidean metric's ray. With m_i = tr(K_i) the triplets' margins
// under I and c = λ/2 · tr(W),
//
//	F(s·I) = c·s + Σ_i (1 − s·m_i)_+,  F'(s) = c − Σ_{i: s·m_i < 1} m_i,
//
// convex and piecewise linear: F' starts at c − Σ_i m_i and rises by m_i
// as s passes each kink 1/m_i (m_i > 0), largest margin first; the minimum
// is the first kink where F' ≥ 0, or 0 if F'(0) ≥ 0 already. On Sonar
// (d = 60) the Euclidean metric's scale is far from LMNN's (s ≈ 0.07–0.09),
// and 500 iterations from s·I end far lower than from I; on Ionosphere and
// Wine somewhat higher; the λ path is lowest on all three
// (BenchmarkLMNNStart).
func (l *lmnn) scaledIdentity() float64 {
	e, d := l.e, l.e.d
	clear(l.m)
	for i := 0; i < d; i++ {
		l.m[i*d+i] = 1
	}
	e.pairValuesAt(l.m)
	var trW float64
	for i := 0; i < d; i++ {
		trW += l.w[i*d+i]
	}
	g := l.lambda / 2 * trW
	pos := e.hs[:0]
	for t := range e.sim {
		m := e.margin(t)
		g -= m
		if m > 0 {
			pos = append(pos, m)
		}
	}
	if g >= 0 {
		return 0
	}
	slices.Sort(pos)
	for k := len(pos) - 1; k >= 0; k-- {
		if g += pos[k]; g >= 0 {
			return 1 / pos[k]
		}
	}
	// F' ends at c − Σ_{m_i ≤ 0} m_i ≥ 0; below 0 only by rounding, when the
	// last kink is the minimum.
	return 1 / pos[0]
}

// objective returns F(l.a), leaving the margins' pair values in e.pm.
func (l *lmnn) objective() float64 {
	e := l.e
	e.pairValuesAt(l.a)
	var h float64
	for t := range e.sim {
		if margin := e.margin(t); margin < 1 {
			h += 1 - margin
		}
	}
	return h + l.lambda/2*frob(l.w, l.a)
}

// subgradient sets l.g to G at l.a (the pair values in e.pm must be l.a's).
func (l *lmnn) subgradient() {
	e := l.e
	clear(e.w)
	for t := range e.sim {
		if margin := e.margin(t); margin < 1 {
			// −K_i = −u uᵀ + v vᵀ: minus the dissimilar pair, plus the similar.
			e.w[e.dis[t]]--
			e.w[e.sim[t]]++
		}
	}
	e.formW(l.g)
	symmetrize(l.g, e.d)
	for i, v := range l.w {
		l.g[i] += l.lambda / 2 * v
	}
}

func (l *lmnn) iterate(c *primal, tk *ticker) error {
	if err := tk.tick(); err != nil {
		return err
	}
	l.objective()
	l.subgradient()
	norm := math.Sqrt(frob(l.g, l.g))
	if norm == 0 {
		return nil // a minimum: F's sub-differential holds 0
	}
	l.t++
	step := l.r / (norm * math.Sqrt(float64(l.t)))
	// The active set of this sub-gradient, weighted by its step, for the
	// dual average (e.pm still holds l.a's pair values).
	e := l.e
	for t := range e.sim {
		if e.margin(t) < 1 {
			l.qSum[t] += step
		}
	}
	l.sSum += step
	for i, v := range l.g {
		l.a[i] -= step * v
	}
	if err := projectPSDTo(l.e, l.a); err != nil {
		return err
	}
	f := l.objective()
	if !finite(f) {
		return errNonFinite("the LMNN objective", f)
	}
	c.offer(l.a, f)
	if l.t%10 == 1 {
		lb, err := l.lowerBound()
		if err != nil {
			return err
		}
		c.lower = max(c.lower, lb)
	}
	return nil
}

// xing maximises Xing et al.'s (MMC) objective with the pairs read off the
// triplets, must-links (x, y) and cannot-links (x, z):
//
//	g(A) = Σ_{(x,z)} √d_A(x, z)   subject to   f(A) = ⟨B, A⟩ ≤ 1,  A ⪰ 0,
//
// B = Σ_{(x,y)} e eᵀ, e = x − y. g is concave and nondecreasing in A's PSD
// order, so the optimum has f(A) = 1. In B's whitened coordinates,
// A = T X Tᵀ with T = U diag(b^{-½}) over B's range (B = U diag(b) Uᵀ), the
// constraint is tr X = 1, X ⪰ 0: the spectrahedron, onto which the
// Euclidean projection is exact (X's eigenvalues projected onto the
// probability simplex). So it runs accelerated projected gradient ascent
// there (FISTA on −g, with backtracking and restarts, as lmnnSmooth), and
// its gap is certified by Frank–Wolfe's bound: for concave g and any
// feasible Z, g* ≤ g(Z) + max_S ⟨∇g(Z), S − Z⟩ = g(Z) + λ_max(G) − ⟨G, Z⟩,
// G = ∇_X g(Z), and ⟨G, Z⟩ = g(Z)/2 since g grows as √s. The run stops
// when that gap is within the tolerance of g. It reports −g as its
// objective and −(g + gap) as the bound.
//
// It starts from the Euclidean metric scaled to f(A) = 1 (X = diag(b)/tr B).
// Directions of B's null space are left out: there f is 0, so a cannot-link
// pair that varies along one would make g unbounded (Ionosphere's constant
// feature varies along none).
//
// An earlier version stepped along ∇g, projected onto the PSD cone and then
// rescaled to f(A) = 1, which is not a projection onto the constraint set;
// it stalled within a few iterations where Frank–Wolfe's bound left 10–41 %
// of g (Sonar, Wine, Iris and Heart, λ-free, one split each; a throwaway
// test).
type xing struct {
	e        *evaluator
	r        int       // rank of B
	t        []float64 // d×r: A = T X Tᵀ
	x, prev  []float64 // r×r iterates
	y, nx, g []float64 // r×r: extrapolated point, trial, gradient at y
	a, tmp   []float64 // d×d: A, and scratch
	gd       []float64 // d×d: ∇_A g
	must     []float64 // d×d: B, so that f(A) = ⟨B, A⟩
	isCannot []bool    // per pair
	eig      *evaluator
	gx       float64 // g at x
	lk       float64
	theta    float64
	iter     int
}

func newXing(e *evaluator) (*xing, error) {
	d := e.d
	x := &xing{e: e, a: make([]float64, d*d), tmp: make([]float64, d*d), gd: make([]float64, d*d), isCannot: make([]bool, e.np)}
	isMust := make([]bool, e.np)
	clear(e.w)
	for t := range e.sim {
		if !isMust[e.sim[t]] {
			isMust[e.sim[t]] = true
			e.w[e.sim[t]] = 1
		}
		x.isCannot[e.dis[t]] = true
	}
	x.must = make([]float64, d*d)
	e.formW(x.must)
	symmetrize(x.must, d)
	copy(x.tmp, x.must)
	if !e.eigen(x.tmp, eigAll) {
		return nil, ErrEigen
	}
	top := e.vals[d-1]
	if !(top > 0) {
		return nil, errDegenerate(e.N)
	}
	var cols []int
	var trB float64
	for k := 0; k < d; k++ {
		if e.vals[k] > 1e-12*top {
			cols = append(cols, k)
			trB += e.vals[k]
		}
	}
	r := len(cols)
	x.r = r
	x.t = make([]float64, d*r)
	x.x, x.prev, x.y, x.nx, x.g = make([]float64, r*r), make([]float64, r*r), make([]float64, r*r), make([]float64, r*r), make([]float64, r*r)
	for c, k := range cols {
		s := 1 / math.Sqrt(e.vals[k])
		for i := 0; i < d; i++ {
			x.t[i*r+c] = s * e.eigA[i*d+k]
		}
		x.x[c*r+c] = e.vals[k] / trB
	}
	// The projection's eigendecompositions are r×r: an evaluator of that
	// size gives their scratch (no data: only eigen is used).
	x.eig = &evaluator{pairIndex: &pairIndex{d: r}}
	x.eig.allocEigen(r)
	copy(x.prev, x.x)
	copy(x.y, x.x)
	x.gx = x.objective(x.x)
	x.theta = 1
	return x, nil
}

// metricTo sets dst (d×d) to A = T X Tᵀ.
func (x *xing) metricTo(dst, xx []float64) {
	d, r := x.e.d, x.r
	// tmp = T X (d×r), then dst = tmp Tᵀ.
	for i := 0; i < d; i++ {
		ti := x.t[i*r : (i+1)*r]
		row := x.tmp[i*r : (i+1)*r]
		clear(row)
		for k, v := range ti {
			if v == 0 {
				continue
			}
			xk := xx[k*r : (k+1)*r]
			for j := range row {
				row[j] += v * xk[j]
			}
		}
	}
	for i := 0; i < d; i++ {
		ri := x.tmp[i*r : (i+1)*r]
		for j := 0; j < d; j++ {
			tj := x.t[j*r : (j+1)*r]
			var s float64
			for k, v := range ri {
				s += v * tj[k]
			}
			dst[i*d+j] = s
		}
	}
}

// objective returns g at X = xx, leaving A in x.a and its pair values in
// e.pm.
func (x *xing) objective(xx []float64) float64 {
	e := x.e
	x.metricTo(x.a, xx)
	e.pairValuesAt(x.a)
	var g float64
	for p, c := range x.isCannot {
		if c {
			g += math.Sqrt(math.Max(0, e.pm[p]))
		}
	}
	return g
}

// gradientTo sets dst (r×r) to ∇_X g = Tᵀ (Σ_{(x,z)} e eᵀ / (2 √d_A)) T from
// the pair values in e.pm (a pair at distance 0 contributes 0, a
// supergradient's choice).
func (x *xing) gradientTo(dst []float64) {
	e, d, r := x.e, x.e.d, x.r
	clear(e.w)
	for p, cannot := range x.isCannot {
		if cannot && e.pm[p] > 0 {
			e.w[p] = 1 / (2 * math.Sqrt(e.pm[p]))
		}
	}
	e.formW(x.gd)
	symmetrize(x.gd, d)
	// tmp = G T (d×r), dst = Tᵀ tmp.
	for i := 0; i < d; i++ {
		row := x.tmp[i*r : (i+1)*r]
		clear(row)
		for k := 0; k < d; k++ {
			v := x.gd[i*d+k]
			if v == 0 {
				continue
			}
			tk := x.t[k*r : (k+1)*r]
			for j := range row {
				row[j] += v * tk[j]
			}
		}
	}
	clear(dst)
	for k := 0; k < d; k++ {
		tk, row := x.t[k*r:(k+1)*r], x.tmp[k*r:(k+1)*r]
		for i, ti := range tk {
			if ti == 0 {
				continue
			}
			out := dst[i*r : (i+1)*r]
			for j, v := range row {
				out[j] += ti * v
			}
		}
	}
}

// projectTo sets xx (r×r, symmetric) to its Euclidean projection onto
// {X ⪰ 0, tr X = 1}: X's eigenvalues projected onto the probability simplex
// (μ ← (μ − θ)_+ with θ such that they sum to 1).
func (x *xing) projectTo(xx []float64) error {
	r, ev := x.r, x.eig
	copy(ev.eigA, xx)
	if !ev.syev(lapack.EVCompute) {
		return ErrEigen
	}
	mu := ev.vals // ascending; read only
	var sum float64
	theta := 0.0
	for k := r - 1; k >= 0; k-- {
		sum += mu[k]
		th := (sum - 1) / float64(r-k)
		if k == 0 || mu[k-1] <= th {
			theta = th
			break
		}
	}
	clear(xx)
	for k := 0; k < r; k++ {
		if l := mu[k] - theta; l > 0 {
			addOuterCol(xx, ev.eigA, r, k, l)
		}
	}
	return nil
}

// bound returns Frank–Wolfe's upper bound on g*, g(Z)/2 + λ_max(∇g(Z)),
// at the feasible Z = x.x (its pair values in e.pm), or +Inf if the
// eigenvalues did not converge.
func (x *xing) bound() float64 {
	x.gradientTo(x.nx)
	ev := x.eig
	copy(ev.eigA, x.nx)
	if !ev.syev(lapack.EVNone) {
		return math.Inf(1)
	}
	return x.gx/2 + ev.vals[x.r-1]
}

func (x *xing) iterate(c *primal, tk *ticker) error {
	x.iter++
	// The gradient at y (its pair values: from its objective).
	gy := x.objective(x.y)
	x.gradientTo(x.g)
	if x.lk == 0 {
		x.lk = 1
	} else {
		x.lk *= 0.8
	}
	copy(x.prev, x.x)
	var gn float64
	// X⁺ = Π(y + ∇g(y)/L), accepted when
	// g(X⁺) ≥ g(y) + ⟨∇g(y), X⁺ − y⟩ − L/2 ‖X⁺ − y‖²: −g under its model.
	err := backtrack(&x.lk, 2, func(lk float64) (bool, error) {
		if err := tk.tick(); err != nil {
			return false, err
		}
		for i, v := range x.g {
			x.nx[i] = x.y[i] + v/lk
		}
		if err := x.projectTo(x.nx); err != nil {
			return false, err
		}
		lin, sq := stepTerms(x.nx, x.y, x.g)
		gn = x.objective(x.nx)
		return underModel(-gn, -gy, -lin, sq, lk, roundingSlack), nil
	})
	if err != nil {
		return err
	}
	x.x, x.nx = x.nx, x.x
	// Momentum, restarted when g fell.
	if gn < x.gx {
		x.theta = 1
		copy(x.y, x.x)
	} else {
		tn, beta := momentum(x.theta, 1)
		extrapolateTo(x.y, x.x, x.prev, beta)
		x.theta = tn
	}
	x.gx = gn
	if !finite(gn) {
		return errNonFinite("Xing's objective", gn)
	}
	c.offer(x.a, -gn) // x.a and e.pm are X⁺'s
	if x.iter%10 == 1 {
		c.lower = max(c.lower, -x.bound())
	}
	return nil
}

// lmnnSmooth minimises the same LMNN objective faster: Nesterov's smoothing
// of the hinge by the Huber function of width μ,
//
//	h_μ(z) = 0 (z ≤ 0),  z²/(2μ) (0 < z < μ),  z − μ/2 (z ≥ μ),
//
// so that F_μ ≤ F ≤ F_μ + Nμ/2 and F_μ has a gradient, Lipschitz with
// constant ‖𝒦‖²/μ,
//
//	∇F_μ(A) = −Σ_i h′_μ(1 − tr(A K_i)) K_i + λ/2 · W,   h′_μ ∈ [0, 1],
//
// minimised by accelerated projected gradient on the PSD cone (FISTA with
// backtracking and adaptive restarts). The weights h′_μ at the current
// point are dual estimates: the lower bound of lmnn (τ Σ q_i, τ scaling q
// into the dual's feasible set) is taken from them every 10 iterations.
// μ starts at 1 (margins are asked to reach 1) and is halved whenever the
// certified gap is down to the smoothing's own error, Nμ.
type lmnnSmooth struct {
	*lmnn
	// The accelerated step's state (its fa is F_μ at a). Its a is lmnn's:
	// the two are kept the same slice, which lmnn's methods read.
	psdFISTA
	mu, lk float64
	hp     []float64 // the weights h′_μ at the last gradient: dual estimates
	iter   int
}

func newLMNNSmooth(l *lmnn) *lmnnSmooth {
	d2 := len(l.a)
	m := &lmnnSmooth{lmnn: l, mu: 1, hp: make([]float64, l.e.N),
		psdFISTA: psdFISTA{a: l.a, y: append([]float64(nil), l.a...), prev: make([]float64, d2), na: make([]float64, d2), theta: 1}}
	l.e.pairValuesAt(l.a)
	m.fa, _ = m.smoothed(l.a, nil)
	m.pmA = slices.Clone(l.e.pm)
	m.pmPrev, m.pmY = slices.Clone(m.pmA), slices.Clone(m.pmA)
	return m
}

// smoothed returns F_μ(a) and F(a) from the pair values in e.pm, which
// must be a's; if grad is not nil it receives ∇F_μ(a) and m.hp the weights
// h′_μ.
func (m *lmnnSmooth) smoothed(a, grad []float64) (fmu, f float64) {
	e := m.e
	var h, hinge float64
	if grad != nil {
		clear(e.w)
	}
	for t := range e.sim {
		z := 1 - e.margin(t)
		var hp float64
		switch {
		case z <= 0:
		case z < m.mu:
			h += z * z / (2 * m.mu)
			hp = z / m.mu
		default:
			h += z - m.mu/2
			hp = 1
		}
		hinge += max(z, 0)
		if grad != nil {
			m.hp[t] = hp
			e.w[e.dis[t]] -= hp
			e.w[e.sim[t]] += hp
		}
	}
	if grad != nil {
		e.formW(grad)
		symmetrize(grad, e.d)
		for i, v := range m.w {
			grad[i] += m.lambda / 2 * v
		}
	}
	reg := m.lambda / 2 * frob(m.w, a)
	return h + reg, hinge + reg
}

func (m *lmnnSmooth) iterate(c *primal, tk *ticker) error {
	m.iter++
	e := m.e
	copy(e.pm, m.pmY)
	fy, _ := m.smoothed(m.y, m.g)
	if m.lk == 0 {
		// A first curvature: ‖𝒦‖² is at least ‖G‖² / ‖the gradient's
		// active part‖; 1/μ times the mean ‖K_i‖² is a safe start.
		m.lk = 1 / m.mu
	} else {
		m.lk *= 0.8
	}
	copy(m.prev, m.lmnn.a)
	var fn, f float64 // F_μ and F at the trial point
	err := backtrack(&m.lk, 2, func(lk float64) (bool, error) {
		if err := tk.tick(); err != nil {
			return false, err
		}
		for i, v := range m.g {
			m.na[i] = m.y[i] - v/lk
		}
		if err := projectPSDTo(m.e, m.na); err != nil {
			return false, err
		}
		lin, sq := stepTerms(m.na, m.y, m.g)
		e.pairValuesAt(m.na)
		fn, f = m.smoothed(m.na, nil)
		return underModel(fn, fy, lin, sq, lk, roundingSlack), nil
	})
	if err != nil {
		return err
	}
	m.accept(e.pm, fn) // momentum, restarted when F_μ rose
	m.lmnn.a = m.psdFISTA.a
	if !finite(f) {
		return errNonFinite("the LMNN objective", f)
	}
	c.offer(m.lmnn.a, f)
	if m.iter%10 == 1 {
		copy(e.pm, m.pmA)
		m.smoothed(m.lmnn.a, m.g) // the weights h′_μ at a, into m.hp
		lb, err := m.boundFrom(m.hp)
		if err != nil {
			return err
		}
		c.lower = max(c.lower, lb)
		// The smoothing's error is at most Nμ/2: once the certified gap is
		// that small, sharpen it.
		if c.best-c.lower <= float64(m.e.N)*m.mu && m.mu > 1e-12 {
			m.mu /= 2
			copy(e.pm, m.pmA)
			m.fa, _ = m.smoothed(m.lmnn.a, nil)
			m.theta = 1
			copy(m.y, m.lmnn.a)
			copy(m.pmY, m.pmA)
		}
	}
	return nil
}

// identity returns the d×d identity, the Euclidean metric.
func identity(d int) *mat.SymDense {
	id := mat.NewSymDense(d, nil)
	for i := range d {
		id.SetSym(i, i, 1)
	}
	return id
}
