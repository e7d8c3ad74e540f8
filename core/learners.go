package core

import (
	"math"
	"slices"
)

// Two learners from the ordinal-embedding literature, on the same triplets
// and Mahalanobis metric as RML, by the same driver (docs/math.md,
// "Smooth triplet losses"). Each minimises
//
//	F(A) = λ/2 ‖A‖_F² + Σ_i ℓ(d_sim,i, d_dis,i),   A ⪰ 0,
//
// where d_sim,i = (x_I − x_J)ᵀ A (x_I − x_J) and d_dis,i the same for K, so
// that tr(A K_i) = d_dis,i − d_sim,i:
//
//   - Logistic, the maximum-likelihood loss of a logistic noise model
//     (Jain, Jamieson and Nowak, "Finite Sample Prediction and Recovery
//     Bounds for Ordinal Embedding", NIPS 2016): ℓ = log(1 + e^{−tr(A K_i)}).
//     Convex; its Fenchel dual certifies the gap (below).
//   - TSTE, the heavy-tailed t-distributed stochastic triplet embedding
//     (van der Maaten and Weinberger, "Stochastic Triplet Embedding",
//     MLSP 2012) on the metric, one degree of freedom (α = 1):
//     ℓ = −log p_i, p_i = s(d_sim)/(s(d_sim) + s(d_dis)),
//     s(d) = (1 + d/α)^{−(α+1)/2}. Not convex: the answer is a local
//     optimum, and the run reports no certificate.
//
// Both are minimised by accelerated projected gradient on the PSD cone
// (FISTA with backtracking and adaptive restarts, the LMNN learner's
// scheme), from the Euclidean metric scaled so that the mean triplet
// distance is 1.

// smoothLoss returns ℓ(ds, dd) and its partial derivatives in ds and dd.
type smoothLoss func(ds, dd float64) (l, gs, gd float64)

// logisticLoss is log(1 + e^{−m}), m = dd − ds, computed without overflow.
func logisticLoss(ds, dd float64) (l, gs, gd float64) {
	m := dd - ds
	// σ(−m) = 1/(1 + e^{m}), the derivative of the loss in −m.
	var s float64
	if m >= 0 {
		em := math.Exp(-m)
		l, s = math.Log1p(em), em/(1+em)
	} else {
		l, s = -m+math.Log1p(math.Exp(m)), 1/(1+math.Exp(m))
	}
	return l, s, -s
}

// tsteAlpha is t-STE's degrees of freedom.
const tsteAlpha = 1.0

// tsteLoss is −log p, p = s(ds)/(s(ds) + s(dd)), as log(1 + r) with
// r = s(dd)/s(ds) = ((α + ds)/(α + dd))^{(α+1)/2}. A distance below 0 is
// taken as 0: FISTA's extrapolated point is not PSD, and its "distances"
// may be negative, where s is not defined (below −α it is not even real).
func tsteLoss(ds, dd float64) (l, gs, gd float64) {
	ds, dd = max(ds, 0), max(dd, 0)
	h := (tsteAlpha + 1) / 2
	logr := h * (math.Log1p(ds/tsteAlpha) - math.Log1p(dd/tsteAlpha))
	// log(1 + r) and r/(1 + r), stable for either sign of log r.
	var w float64
	if logr > 0 {
		er := math.Exp(-logr)
		l, w = logr+math.Log1p(er), 1/(1+er)
	} else {
		er := math.Exp(logr)
		l, w = math.Log1p(er), er/(1+er)
	}
	return l, w * h / (tsteAlpha + ds), -w * h / (tsteAlpha + dd)
}

// learner is the state of a smooth-loss run.
type learner struct {
	e       *evaluator
	lambda  float64
	loss    smoothLoss
	certify bool // Logistic: a dual bound every certifyEvery iterations

	psdFISTA
	g            []float64 // the gradient at y, d×d
	m            []float64 // scratch for M(q), d×d
	q            []float64 // the loss's weights at a: −∂ℓ/∂d_dis, a dual point for Logistic
	lk           float64
	iter         int
	stationarity float64 // ‖a − y‖_F·L at the last step: the gradient mapping's norm
}

// psdFISTA is the state of accelerated projected gradient on the PSD cone
// that LMNN's smoothed solver and the smooth triplet losses share: the
// iterate a, the one before it, the extrapolated point y and the trial na
// (d×d, both triangles), the pair values of a, prev and y (linear in the
// matrix, so y's are extrapolated in O(P) instead of formed in
// O(n_t d²)), the objective at a and FISTA's θ.
type psdFISTA struct {
	a, y, prev, na   []float64
	pmA, pmPrev, pmY []float64
	fa, theta        float64
}

// accept takes the trial point na, whose pair values are pm and objective
// fn, as the new iterate (prev = a before it), and moves y by FISTA's
// momentum, restarted (y = a) when the objective rose.
func (s *psdFISTA) accept(pm []float64, fn float64) {
	s.a, s.na = s.na, s.a
	s.pmA, s.pmPrev = s.pmPrev, s.pmA
	copy(s.pmA, pm)
	if fn > s.fa {
		s.theta = 1
		copy(s.y, s.a)
		copy(s.pmY, s.pmA)
	} else {
		tn, beta := momentum(s.theta, 1)
		extrapolateTo(s.y, s.a, s.prev, beta)
		extrapolateTo(s.pmY, s.pmA, s.pmPrev, beta)
		s.theta = tn
	}
	s.fa = fn
}

const certifyEvery = 10

func newLearner(e *evaluator, lambda float64, loss smoothLoss, certify bool) *learner {
	d := e.d
	l := &learner{e: e, lambda: lambda, loss: loss, certify: certify,
		psdFISTA: psdFISTA{theta: 1, a: make([]float64, d*d), prev: make([]float64, d*d), na: make([]float64, d*d)},
		g:        make([]float64, d*d), m: make([]float64, d*d), q: make([]float64, e.N)}
	// The start: I scaled so that the mean of the triplets' distances
	// (similar and dissimilar) is 1.
	for i := 0; i < d; i++ {
		l.a[i*d+i] = 1
	}
	e.pairValuesAt(l.a)
	var mean float64
	for t := range e.sim {
		mean += (e.pm[e.sim[t]] + e.pm[e.dis[t]]) / float64(2*e.N)
	}
	if s := 1 / mean; mean > 0 && finite(s) {
		for i := range l.a {
			l.a[i] *= s
		}
		for p := range e.pm {
			e.pm[p] *= s
		}
	}
	l.fa = l.objective(l.a, nil)
	l.pmA = slices.Clone(e.pm)
	l.pmPrev, l.pmY = slices.Clone(l.pmA), slices.Clone(l.pmA)
	l.y = slices.Clone(l.a)
	return l
}

// objective returns F(a) from the pair values in e.pm, which must be a's;
// if grad is not nil it receives ∇F(a) = λ a + Σ_i (∂ℓ/∂d_sim e_sim e_simᵀ +
// ∂ℓ/∂d_dis e_dis e_disᵀ), and l.q the weights −∂ℓ/∂d_dis.
func (l *learner) objective(a, grad []float64) float64 {
	e := l.e
	if grad != nil {
		clear(e.w)
	}
	var f float64
	for t := range e.sim {
		v, gs, gd := l.loss(e.pm[e.sim[t]], e.pm[e.dis[t]])
		f += v
		if grad != nil {
			e.w[e.sim[t]] += gs
			e.w[e.dis[t]] += gd
			l.q[t] = -gd
		}
	}
	if grad != nil {
		e.formW(grad)
		symmetrize(grad, e.d)
		for i, v := range a {
			grad[i] += l.lambda * v
		}
	}
	return f + l.lambda/2*frob(a, a)
}

// logisticDual returns the dual bound D(q) ≤ min F of the logistic
// problem at q ∈ [0, 1]^N. With log(1 + e^{−m}) = max_{q∈[0,1]} (−q m + H(q)),
// H the binary entropy,
//
//	min_{A⪰0} F = max_q Σ H(q_i) − ‖π₊(Σ q_i K_i)‖²_F/(2λ)
//
// (the inner minimum over A ⪰ 0 of λ/2‖A‖² − tr(A M) is −‖π₊(M)‖²/(2λ)),
// and every q gives a lower bound.
func (l *learner) logisticDual(q []float64) (float64, error) {
	e := l.e
	clear(e.w)
	var h float64
	for t, v := range q {
		e.w[e.dis[t]] += v
		e.w[e.sim[t]] -= v
		if v > 0 && v < 1 {
			h -= v*math.Log(v) + (1-v)*math.Log1p(-v)
		}
	}
	e.formW(l.m) // M(q) = Σ q_i K_i, upper triangle
	if !e.eigen(l.m, eigValues) {
		return 0, ErrEigen
	}
	_, sq := e.positive()
	return h - sq/(2*l.lambda), nil
}

// iterate takes one accelerated projected-gradient step.
func (l *learner) iterate(c *primal, tk *ticker) error {
	l.iter++
	e := l.e
	copy(e.pm, l.pmY)
	fy := l.objective(l.y, l.g)
	if l.lk == 0 {
		l.lk = l.lambda + 1
	} else {
		l.lk *= 0.8
	}
	copy(l.prev, l.a)
	var fn float64
	var sq float64
	err := backtrack(&l.lk, 2, func(lk float64) (bool, error) {
		if err := tk.tick(); err != nil {
			return false, err
		}
		for i, v := range l.g {
			l.na[i] = l.y[i] - v/lk
		}
		if err := projectPSDTo(e, l.na); err != nil {
			return false, err
		}
		var lin float64
		lin, sq = stepTerms(l.na, l.y, l.g)
		e.pairValuesAt(l.na)
		fn = l.objective(l.na, nil)
		return underModel(fn, fy, lin, sq, lk, roundingSlack), nil
	})
	if err != nil {
		return err
	}
	l.stationarity = l.lk * math.Sqrt(sq)
	l.accept(e.pm, fn)
	if !finite(fn) {
		return errNonFinite("the triplet loss", fn)
	}
	c.offer(l.a, fn)
	if !l.certify {
		// No bound: the gap reported is the gradient mapping's norm times
		// the metric's, a first-order estimate of what a step could still
		// gain (0 exactly at a stationary point).
		c.lower = c.best - l.stationarity*math.Sqrt(frob(l.a, l.a))
		return nil
	}
	if l.iter%certifyEvery == 1 {
		copy(e.pm, l.pmA)
		l.objective(l.a, l.g) // the weights at a, into l.q
		lb, err := l.logisticDual(l.q)
		if err != nil {
			return err
		}
		c.lower = max(c.lower, lb)
	}
	return nil
}
