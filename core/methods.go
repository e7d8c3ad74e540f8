package core

import (
	"math"

	"gonum.org/v1/gonum/floats"
)

// fista is accelerated projected gradient with backtracking both ways and
// adaptive restart (Beck & Teboulle 2009; Scheinberg, Goldfarb & Bai 2014;
// O'Donoghue & Candès 2015), and projected Newton steps (newton.go) once
// they succeed.
//
// Each iteration evaluates the full gradient at the extrapolated point y
// (whose metric A(y) ⪰ 0 is a valid primal point even when y leaves Q̂) and
// the dual value at the new iterate x (in Q̂), so the duality gap is
// certified at every step.
type fista struct {
	u, w              []float64 // diagonal scaling: the step is in the norm ‖v‖²_W, W = diag(w), u = 1/w
	x, xPrev, y, g, c []float64
	m, mx, mPrev, my  []float64 // scratch, M(x), M(x_prev), M(y)
	fx, fy            float64
	lk, lAcc, theta   float64 // trial and last accepted curvature, momentum
	shrink            float64 // factor on the curvature estimate at the start of every iteration (newStepper)

	nw                *newton // the Newton steps' state (newton.go); nil: none are taken
	nextNewton, space int     // the iteration of the next Newton attempt, and the spacing after a failure
	streak            bool    // the last Newton step succeeded

	avg       primalAverage // the θ-weighted mean of the A(y) since the last restart
	noAverage bool          // offer no average (benchmarks)
}

const (
	fistaGrow   = 2.0 // factor on the curvature estimate when the test fails
	fistaShrink = 0.8 // factor tried at the start of every iteration, below fistaLargeN triplets
	// fistaShrinkLarge is the factor on problems of at least
	// fistaLargeN triplets. A gentler shrink fails the sufficient-decrease
	// test less often, so it saves evaluations (each forms M(q) anew) and
	// costs iterations (each also decomposes M(y) with its eigenvectors and
	// takes A(y)'s pair values). Where forming M dominates (tens of
	// thousands of triplets: the page's 5,000 × 50 upload, BenchmarkUpload
	// and BenchmarkToGap), the first wins; on Table 2's problems (at most
	// about 2,700 triplets), whose eigendecompositions cost as much as
	// their data, the second does, so they keep × 0.8, and with it their
	// paths to the bit.
	fistaShrinkLarge = 0.9
	fistaLargeN      = 10000
)

func (f *fista) init(c *certificate, q0 []float64) error {
	n, d := c.e.N, c.e.d
	f.x, f.xPrev, f.y = q0, make([]float64, n), make([]float64, n)
	f.g, f.c = make([]float64, n), make([]float64, n)
	f.m, f.mx, f.mPrev, f.my = make([]float64, d*d), make([]float64, d*d), make([]float64, d*d), make([]float64, d*d)
	copy(f.y, f.x)
	l, p, err := c.evalFull(f.my, f.y, f.g, eigPositive)
	copy(f.mx, f.my)
	if err != nil {
		return err
	}
	f.fx, f.fy = l, l
	c.dualPoint(f.x, l)
	c.primalOfQ(f.y, p)
	f.theta = 1
	f.lk = 0
	f.nextNewton, f.space = newtonFirst, newtonFirst
	return nil
}

// When the fast method tries Newton steps: first at iteration newtonFirst,
// then at every iteration while they succeed; after a failure, not before
// the spacing, which doubles with each failure, has passed.
const newtonFirst = 10

func (f *fista) iterate(c *certificate) error {
	copy(f.xPrev, f.x)
	f.mx, f.mPrev = f.mPrev, f.mx
	if f.lk == 0 {
		f.lk = f.initialCurvature(c)
	} else {
		f.lk *= f.shrink
	}
	f.lk = max(f.lk, minCurvature)
	lPrev := f.lAcc
	if lPrev == 0 {
		lPrev = f.lk
	}
	var fx float64
	// x = Π(y − ∇L(y)/L_k), accepted when
	// L(x) ≤ L(y) + ∇L(y)ᵀ(x − y) + L_k/2 ‖x − y‖² (in the scaled norm).
	err := backtrack(&f.lk, fistaGrow, func(lk float64) (bool, error) {
		for i := range f.c {
			f.c[i] = f.y[i] - f.u[i]*f.g[i]/lk
		}
		c.proj.projectScaledTo(f.x, f.c, f.u)
		var lin, sq float64
		for i, xi := range f.x {
			dv := xi - f.y[i]
			lin += f.g[i] * dv
			sq += f.w[i] * dv * dv
		}
		var err error
		if fx, err = c.evalDual(f.mx, f.x); err != nil {
			return false, err
		}
		return underModel(fx, f.fy, lin, sq, lk, roundingSlack), nil
	})
	if err != nil {
		return err
	}
	c.dualPoint(f.x, fx)
	f.lAcc = f.lk

	// Restart when the step goes against the momentum: (y − x)ᵀ(x − x_prev) > 0,
	// or when L increased.
	var dot float64
	for i, xi := range f.x {
		dot += f.w[i] * (f.y[i] - xi) * (xi - f.xPrev[i])
	}
	restart := dot > 0 || fx > f.fx
	// A Newton step needs the gradient at x: it is tried after a restart.
	// After a Newton step that succeeded, the next is tried at once, with a
	// restart of its own.
	newton := (restart || f.streak) && f.nw != nil && c.iter >= f.nextNewton
	restart = restart || newton
	if restart {
		f.avg.reset()
		f.theta = 1
		copy(f.y, f.x)
		copy(f.my, f.mx)
	} else {
		// θ⁺ = (1 + √(1 + 4 (L_k/L_{k−1}) θ²))/2, the largest θ⁺ with
		// θ⁺(θ⁺ − 1)/L_k ≤ θ²/L_{k−1} (L the accepted constants), and
		// y = x + (θ − 1)/θ⁺ (x − x_prev).
		tn, beta := momentum(f.theta, f.lk/lPrev)
		extrapolateTo(f.y, f.x, f.xPrev, beta)
		// M is linear in q: M(y) = M(x) + β (M(x) − M(x_prev)).
		extrapolateTo(f.my, f.mx, f.mPrev, beta)
		f.theta = tn
	}
	f.fx = fx
	job := eigPositive
	if newton {
		job = eigAll // the Newton step's Hessian needs them all
	}
	if err := f.evalY(c, job); err != nil {
		return err
	}
	if newton {
		return f.newtonStep(c)
	}
	return nil
}

// momentum returns FISTA's next θ⁺ = (1 + √(1 + 4 r θ²))/2 and the step
// β = (θ − 1)/θ⁺ of y = x + β (x − x_prev); r is the ratio of the accepted
// curvatures L_k/L_{k−1} where they change (fista), else 1.
func momentum(theta, r float64) (tn, beta float64) {
	tn = (1 + math.Sqrt(1+4*r*theta*theta)) / 2
	return tn, (theta - 1) / tn
}

// extrapolateTo sets y = x + β (x − prev).
func extrapolateTo(y, x, prev []float64, beta float64) {
	for i, v := range x {
		y[i] = v + beta*(v-prev[i])
	}
}

// evalY evaluates the extrapolated point y, whose M(y) is in my: the
// gradient for the next step, L(y), and A(y) offered as a primal point (job
// as for evalFull).
func (f *fista) evalY(c *certificate, job eigJob) error {
	fy, p, err := c.evalFullM(f.my, f.y, f.g, job)
	if err != nil {
		return err
	}
	f.fy = fy
	c.primalOfQ(f.y, p)
	if !f.noAverage {
		f.avg.add(c, f.theta)
	}
	return nil
}

// primalAverage is the mean of the metrics A(y_j) that FISTA evaluated
// since its last restart, weighted by their momentum θ_j,
//
//	Ā = Σ_j θ_j A(y_j) / Σ_j θ_j,
//
// offered to the certificate as a primal point (Ā ⪰ 0 as a mean of PSD
// matrices), as Algorithm 1 offers its average (Eq. 13). The dual's
// iterates approach q* at the rate of L, but P(A(y)) − P* is first order
// in A(y)'s error: many margins sit just short of 1 at any A(y), on every
// side of the optimum. The mean of iterates that oscillate about A* clears
// them: on the 5,000 × 50 upload (38,250 triplets, η = 0.8, λ = 1), where
// FISTA runs 1,100 iterations before its first restart, the average took
// the run to a relative gap of 1e-3 in 2,013 iterations instead of 2,733
// natively with the curvature shrunk by × 0.8 per iteration (under js/wasm,
// whose sums round differently, 1,811 either way), and in 1,744 instead of
// 2,258 natively and 1,749 instead of 1,887 under js/wasm with × 0.9, the
// factor such problems now take (BenchmarkUpload; docs/solver.md). Margins are linear in
// A, so the pair values of Ā are
// the same mean of the pair values the gradients computed: the average
// costs a d×d metric and a pass over the pairs per iteration, and its value
// P(Ā) (a top-m sum over the N margins and the search for its best
// multiple, which sorts them) is computed every primalAverageEvery
// iterations.
type primalAverage struct {
	a, pm, buf []float64 // Σ θ_j A(y_j) (d×d, upper triangle), Σ θ_j pm(A(y_j)), scratch
	w          float64   // Σ θ_j; 0 after a reset
	n          int       // the points added since the last reset
}

// primalAverageEvery is how many points the average takes between two
// evaluations of P(Ā).
const primalAverageEvery = 8

func (v *primalAverage) reset() { v.w, v.n = 0, 0 }

// add adds the metric A(y) whose eigenpairs and pair values the evaluator
// holds, with weight theta, and offers the average to c every
// primalAverageEvery points.
func (v *primalAverage) add(c *certificate, theta float64) {
	e := c.e
	if v.a == nil {
		v.a, v.buf = make([]float64, e.d*e.d), make([]float64, max(e.d*e.d, len(e.pm)))
		v.pm = make([]float64, len(e.pm))
	}
	if v.w == 0 {
		clear(v.a)
		clear(v.pm)
	}
	// The upper triangle of θ A(y) = θ/λ Σ_{k: λ_k>0} λ_k v_k v_kᵀ: row i of
	// the eigenvectors' matrix holds the i-th entries of every v_k, so each
	// entry is one contiguous dot product, θ/λ Σ_k λ_k V_ik V_jk.
	d := e.d
	first, _ := e.positive()
	r := d - first
	w := v.buf[:r]
	for i := 0; i < d; i++ {
		vi := e.eigA[i*d+first : (i+1)*d]
		for k, x := range vi {
			w[k] = theta / e.lambda * e.vals[first+k] * x
		}
		row := v.a[i*d : (i+1)*d]
		for j := i; j < d; j++ {
			row[j] += floats.Dot(w, e.eigA[j*d+first:(j+1)*d])
		}
	}
	for i, x := range e.pm {
		v.pm[i] += theta * x
	}
	v.w += theta
	v.n++
	if v.n%primalAverageEvery != 0 {
		return
	}
	// P(Ā) = λ/2 ‖Ā‖² + the top-m hinge sum at Ā's margins, from Ā's pair
	// values Σ θ_j pm_j / Σ θ_j, put in e.pm for the sum and then put back.
	inv := 1 / v.w
	var a2 float64
	for i := 0; i < d; i++ {
		a2 += v.a[i*d+i] * v.a[i*d+i]
		for _, x := range v.a[i*d+i+1 : (i+1)*d] {
			a2 += 2 * x * x
		}
	}
	a2 *= inv * inv
	pm := v.buf[:len(e.pm)]
	for i, x := range v.pm {
		pm[i] = x * inv
	}
	e.pm, pm = pm, e.pm
	p, s := e.lambda/2*a2+e.hingeTop(nil), 1.0
	if c.scalePrimal {
		s, p = e.bestScale(a2, p)
	}
	e.pm, pm = pm, e.pm
	if !finite(p) || p >= c.bestP {
		return
	}
	m := v.buf[:d*d]
	for i := 0; i < d; i++ {
		for j := i; j < d; j++ {
			m[i*d+j] = v.a[i*d+j] * inv * s
			m[j*d+i] = m[i*d+j]
		}
	}
	c.primalMatrix(m, p)
}

// newtonStep tries a Newton step from x = y, whose gradient and
// eigendecomposition the last evaluation left, and restarts FISTA from its
// point if it is taken.
func (f *fista) newtonStep(c *certificate) error {
	fn, ok, err := f.nw.step(c, f.x, f.g, f.u, f.m, f.fx)
	if err != nil {
		return err
	}
	// Newton steps go on while they succeed and conjugate gradients solve
	// their systems to tolerance within newtonMaxCG products: otherwise x is
	// not yet where L is locally quadratic on a settled free set (on Heart
	// with its budget active, most q_i free at once in a trace), and the
	// next attempt waits.
	f.streak = ok && f.nw.cgIters < newtonMaxCG
	if f.streak {
		f.space = newtonFirst
		f.nextNewton = c.iter + 1
	} else {
		f.space *= 2
		f.nextNewton = c.iter + f.space
	}
	if !ok {
		return nil
	}
	copy(f.x, f.nw.xn)
	copy(f.y, f.x)
	copy(f.mx, f.m)
	copy(f.my, f.m)
	f.fx = fn
	return f.evalY(c, eigPositive)
}

// initialCurvature estimates the curvature along the first projected
// gradient direction: L(x + s·d) for a small s fixes a secant estimate, which
// backtracking then corrects.
func (f *fista) initialCurvature(c *certificate) float64 {
	// A Barzilai–Borwein-like start from the norm of M's response to the
	// gradient: ‖𝒦 g‖² / (λ ‖g‖²) ≤ L_g, a lower bound on the global constant.
	// In the scaled norm the direction is u∘g and its length² Σ w (u g)².
	for i, v := range f.g {
		f.c[i] = f.u[i] * v
	}
	return curvatureAlong(c, f.m, f.c, f.w)
}

// curvatureAlong returns ‖𝒦 v‖²_F / (λ ‖v‖²_W) (W = diag(w)), the
// curvature of L along v when π₊ keeps all of M, a lower bound on the
// global constant; 1 if v or 𝒦v is 0. m is d×d scratch.
func curvatureAlong(c *certificate, m, v, w []float64) float64 {
	c.e.formM(m, v)
	symmetrize(m, c.e.d)
	var num, den float64
	for _, x := range m {
		num += x * x
	}
	for i, x := range v {
		den += w[i] * x * x
	}
	if num == 0 || den == 0 || !finite(num/(c.e.lambda*den)) {
		return 1
	}
	return num / (c.e.lambda * den)
}

// nesterov is the paper's Algorithm 1, as restated in docs/math.md.
type nesterov struct {
	lg                       float64
	z, q, qhat, w, g, sg, cb []float64
	m, acc, avg              []float64
	fq                       float64
	t                        int
}

func (a *nesterov) lipschitz() float64 { return a.lg }

func (a *nesterov) init(c *certificate, q0 []float64) error {
	n, d := c.e.N, c.e.d
	// Any constant ≥ L_g is valid; the floor only bites when A(q) ≈ 0.
	a.lg = max(lipschitzConstant(c.e, 1e-10, 10000), minCurvature)
	a.z, a.q = q0, make([]float64, n)
	a.qhat, a.w, a.g, a.sg, a.cb = make([]float64, n), make([]float64, n), make([]float64, n), make([]float64, n), make([]float64, n)
	a.m, a.acc, a.avg = make([]float64, d*d), make([]float64, d*d), make([]float64, d*d)
	// q_{−1} = 0, L(0) = 0; with a warm start q_{−1} is the start itself.
	l, err := c.evalDual(a.m, a.z)
	if err != nil {
		return err
	}
	copy(a.q, a.z)
	a.fq = l
	c.dualPoint(a.q, l)
	return nil
}

func (a *nesterov) iterate(c *certificate) error {
	t := float64(a.t)
	// Â_t = π₊(Σ z_i K_i)/λ, g_t = ∇L(z_t).
	fz, pz, err := c.evalFull(a.m, a.z, a.g, eigPositive)
	if err != nil {
		return err
	}
	c.dualPoint(a.z, fz)
	c.primalOfQ(a.z, pz)
	// Σ_{j≤t} (j+1)/2 Â_j, for the average of Eq. 13.
	c.e.metricTo(a.avg)
	wt := (t + 1) / 2
	for i, v := range a.avg {
		a.acc[i] += wt * v
	}
	// q̂ = Π(z_t − g_t/L_g)   (Eq. 10)
	for i := range a.cb {
		a.cb[i] = a.z[i] - a.g[i]/a.lg
	}
	c.proj.projectTo(a.qhat, a.cb)
	// Only L(q̂) is needed (eigenvalues alone); the certificate's primal
	// points are Â_t and the average A_t.
	fh, err := c.evalDual(a.m, a.qhat)
	if err != nil {
		return err
	}
	c.dualPoint(a.qhat, fh)
	// q_t = the one of {q_{t−1}, q̂, z_t} with the smallest L (monotone).
	if fh < a.fq {
		copy(a.q, a.qhat)
		a.fq = fh
	}
	if fz < a.fq {
		copy(a.q, a.z)
		a.fq = fz
	}
	// w_t = Π(−Σ_{j≤t} (j+1)/2 g_j / L_g)   (Eq. 11)
	for i, gi := range a.g {
		a.sg[i] += wt * gi
		a.cb[i] = -a.sg[i] / a.lg
	}
	c.proj.projectTo(a.w, a.cb)
	// z_{t+1} = 2/(t+3) w_t + (t+1)/(t+3) q_t   (Eq. 12)
	for i := range a.z {
		a.z[i] = 2/(t+3)*a.w[i] + (t+1)/(t+3)*a.q[i]
	}
	// A_t = 4/((t+1)(t+2)) Σ_{j≤t} (j+1)/2 Â_j   (Eq. 13)
	s := 4 / ((t + 1) * (t + 2))
	for i, v := range a.acc {
		a.avg[i] = s * v
	}
	if pa := c.e.primalAt(a.avg); finite(pa) {
		c.primalMatrix(a.avg, pa)
	}
	a.t++
	return nil
}

// lipschitzConstant returns λ_max(G)/λ, G_ij = ⟨K_i, K_j⟩, by power
// iteration on q ↦ (tr(K_i 𝒦 q))_i, stopping when the Rayleigh quotient
// changes by less than tol (relative) or after maxIter products. G is PSD,
// so the quotient rises towards λ_max from below.
func lipschitzConstant(e *evaluator, tol float64, maxIter int) float64 {
	v := make([]float64, e.N)
	gv := make([]float64, e.N)
	m := make([]float64, e.d*e.d)
	// A deterministic start with no special structure.
	for i := range v {
		v[i] = 1 + 0.5*math.Sin(float64(i)+1)
	}
	normalize(v)
	var rq float64
	for it := 0; it < maxIter; it++ {
		// Gv = (tr(K_i M(v)))_i; vᵀGv = ‖M(v)‖_F².
		e.formM(m, v)
		symmetrize(m, e.d)
		e.pairValuesAt(m)
		for t := range gv {
			gv[t] = e.margin(t)
		}
		var r float64
		for i := range v {
			r += v[i] * gv[i]
		}
		copy(v, gv)
		if normalize(v) == 0 {
			return 1 / e.lambda
		}
		if it > 0 && math.Abs(r-rq) <= tol*r {
			rq = r
			break
		}
		rq = r
	}
	return rq / e.lambda
}

func normalize(v []float64) float64 {
	var s float64
	for _, x := range v {
		s += x * x
	}
	s = math.Sqrt(s)
	if s == 0 {
		return 0
	}
	for i := range v {
		v[i] /= s
	}
	return s
}

// projGrad is projected gradient with an Armijo backtracking line search
// along the projection arc:
//
//	q⁺ = Π(q − s ∇L(q)),  accepted when L(q⁺) ≤ L(q) + σ ∇L(q)ᵀ(q⁺ − q),
//
// with s doubled before each iteration and halved on each rejection.
type projGrad struct {
	q, qn, g, c, m []float64
	fq, s          float64
}

const armijoSigma = 1e-4

// roundingSlack, relative to |L|, is how much FISTA's backtracking test
// tolerates L rising by rounding alone.
const roundingSlack = 1e-12

func (a *projGrad) init(c *certificate, q0 []float64) error {
	n, d := c.e.N, c.e.d
	a.q, a.qn, a.g, a.c, a.m = q0, make([]float64, n), make([]float64, n), make([]float64, n), make([]float64, d*d)
	l, p, err := c.evalFull(a.m, a.q, a.g, eigPositive)
	if err != nil {
		return err
	}
	a.fq = l
	c.dualPoint(a.q, l)
	c.primalOfQ(a.q, p)
	a.s = 1
	return nil
}

func (a *projGrad) iterate(c *certificate) error {
	a.s = min(2*a.s, 1/minCurvature)
	var fn float64
	err := backtrack(&a.s, 0.5, func(s float64) (bool, error) {
		for i := range a.c {
			a.c[i] = a.q[i] - s*a.g[i]
		}
		c.proj.projectTo(a.qn, a.c)
		var lin float64
		for i, v := range a.qn {
			lin += a.g[i] * (v - a.q[i])
		}
		var err error
		if fn, err = c.evalDual(a.m, a.qn); err != nil {
			return false, err
		}
		return fn <= a.fq+armijoSigma*lin || lin == 0, nil
	})
	if err != nil {
		return err
	}
	a.q, a.qn = a.qn, a.q
	l, p, err := c.evalFull(a.m, a.q, a.g, eigPositive)
	if err != nil {
		return err
	}
	a.fq = l
	c.dualPoint(a.q, l)
	c.primalOfQ(a.q, p)
	return nil
}
