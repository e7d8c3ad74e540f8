package core

import (
	"math"
)

// newton is the fast method's second-order step: a projected Newton step
// on the dual, its Newton system solved inexactly by conjugate gradients
// (Bertsekas 1982's two-metric projection, with a semismooth Newton
// method's generalized Hessian).
//
// First-order steps find which q_i sit at a bound long before they find the
// values of the others: on Sonar (λ = 1, η = 0.8) a trace of FISTA alone
// showed the support of q fixed within the first tenth of the 766
// iterations it then needed for a relative gap of 1e-6. On the free variables F the dual is smooth wherever no
// eigenvalue of M is 0, and its Hessian is
//
//	H_ij = tr(K_i Dπ₊(M)[K_j]) / λ,
//	Dπ₊(M)[X] = V (Γ ∘ (Vᵀ X V)) Vᵀ,  Γ_kl = (μ_k⁺ − μ_l⁺) / (μ_k − μ_l)
//
// (Daleckii–Krein; M = V diag(μ) Vᵀ, Γ_kl = 1 when both μ are positive and
// 0 when neither is). H ⪰ 0 because π₊ is monotone. Where an eigenvalue is
// 0 the same formula, with 0 counted as not positive, is an element of the
// generalized Jacobian, which is what a semismooth Newton method needs.
//
// A step is only ever taken when it lowers L by Armijo's rule along the
// projection arc, and FISTA restarts from the new point, so the method
// converges whatever the step does; its points go to the certificate like
// any other, so the gap stays a certified bound.
type newton struct {
	zf    []float64 // n_t×d: X_t V, the rows in the eigenbasis
	u, y  []float64 // n_t×r: L_w Z₊ and Zf C'
	gm    []float64 // d×r: (Vᵀ 𝒦v V)[:, +], then C'
	gamma []float64 // d×r: Γ[:, +]
	rowOn []bool    // rows touched by a free triplet
	rows  []int32

	free                         []int32 // the free set F
	gt, dir, r, z, p, hp, xn, ct []float64
	sumOnly                      bool // the budget is active: directions keep Σ q
	cgIters                      int  // conjugate-gradient products of the last step
}

func newNewton(e *evaluator) *newton {
	n, nt, d := e.N, e.nt, e.d
	return &newton{
		zf: make([]float64, nt*d), u: make([]float64, nt*d), y: make([]float64, nt*d),
		gm: make([]float64, d*d), gamma: make([]float64, d*d),
		rowOn: make([]bool, nt), rows: make([]int32, 0, nt),
		free: make([]int32, 0, n),
		gt:   make([]float64, n), dir: make([]float64, n), r: make([]float64, n), z: make([]float64, n),
		p: make([]float64, n), hp: make([]float64, n), xn: make([]float64, n), ct: make([]float64, n),
	}
}

// Newton's settings.
const (
	newtonArmijo = 1e-4 // sufficient decrease along the projection arc
	newtonTries  = 12   // halvings of the step before giving up
	newtonMaxCG  = 60   // conjugate-gradient iterations per step
	newtonEps    = 1e-9 // Bertsekas's ε at most
)

// step tries one projected Newton step from x, whose eigendecomposition
// (of M(x)) is in c.e and whose gradient is g, with L(x) = fx; u is the
// preconditioner (solveCG). On success
// it sets xn to the new point, returns its value and true; M(xn) is then in
// mx (upper triangle). It returns false when no step lowers L enough.
func (nw *newton) step(c *certificate, x, g, u, mx []float64, fx float64) (float64, bool, error) {
	if !nw.setup(c, x, g) {
		return 0, false, nil
	}
	if ok, err := nw.solveCG(c, u); !ok || err != nil {
		return 0, false, err
	}
	// Projection arc: x(t) = Π(x + t·dir), accepted when
	// L(x(t)) ≤ L(x) + σ ∇L(x)ᵀ(x(t) − x).
	t := 1.0
	for range newtonTries {
		for i, v := range x {
			nw.ct[i] = v + t*nw.dir[i]
		}
		c.proj.projectTo(nw.xn, nw.ct)
		var lin float64
		for i, v := range nw.xn {
			lin += g[i] * (v - x[i])
		}
		if lin >= 0 {
			return 0, false, nil // not a descent direction to rounding
		}
		fn, err := c.evalDual(mx, nw.xn)
		if err != nil {
			return 0, false, err
		}
		if fn <= fx+newtonArmijo*lin {
			c.dualPoint(nw.xn, fn)
			return fn, true, nil
		}
		t /= 2
	}
	return 0, false, nil
}

// setup finds the free set F at x (Bertsekas's ε-active set: a q_i within
// ε of a bound that its reduced gradient pushes against is held there),
// the rows its triplets touch, X_t V and Γ. It reports false when F is
// empty or the gradient on it is already 0.
func (nw *newton) setup(c *certificate, x, g []float64) bool {
	e := c.e
	d := e.d
	// The projected gradient step x̄ = Π(x − g) = clip(x − g − μ, 0, 1)
	// gives the budget's multiplier μ; g + μ is the reduced gradient and
	// ‖x − x̄‖ the distance to stationarity.
	for i, v := range x {
		nw.ct[i] = v - g[i]
	}
	mu := c.proj.projectTo(nw.xn, nw.ct)
	var w2 float64
	for i, v := range x {
		w2 += (v - nw.xn[i]) * (v - nw.xn[i])
	}
	eps := min(newtonEps, math.Sqrt(w2))
	nw.sumOnly = mu > 0
	nw.free = nw.free[:0]
	for i, v := range x {
		gr := g[i] + mu
		if v <= eps && gr > 0 || v >= 1-eps && gr < 0 {
			continue
		}
		nw.gt[i] = gr
		nw.free = append(nw.free, int32(i))
	}
	if len(nw.free) == 0 {
		return false
	}
	for _, k := range nw.rows {
		nw.rowOn[k] = false
	}
	nw.rows = nw.rows[:0]
	touch := func(p int32) {
		for _, k := range [2]int32{e.pa[p], e.pb[p]} {
			if !nw.rowOn[k] {
				nw.rowOn[k] = true
				nw.rows = append(nw.rows, k)
			}
		}
	}
	for _, i := range nw.free {
		touch(e.sim[i])
		touch(e.dis[i])
	}
	// Zf = X_t V on the touched rows: zf_kl = x_k · v_l.
	for _, k := range nw.rows {
		xk := e.xt[int(k)*d : int(k+1)*d]
		zk := nw.zf[int(k)*d : int(k+1)*d]
		clear(zk)
		for j, xj := range xk {
			if xj == 0 {
				continue
			}
			vj := e.eigA[j*d : (j+1)*d]
			for l, v := range vj {
				zk[l] += xj * v
			}
		}
	}
	// Γ[:, +] (d×r): Γ_kl for every k and the positive l.
	first, _ := e.positive()
	r := d - first
	if r == 0 {
		return false // π₊(M) = 0 around x: L is linear on F
	}
	for k := 0; k < d; k++ {
		mk := e.vals[k]
		for c := 0; c < r; c++ {
			ml := e.vals[first+c]
			v := 1.0
			if mk <= 0 {
				v = ml / (ml - mk)
			}
			nw.gamma[k*r+c] = v
		}
	}
	return true
}

// hess sets hv_i = (H v)_i for i in F, for v supported on F.
func (nw *newton) hess(e *evaluator, hv, v []float64) {
	d := e.d
	first, _ := e.positive()
	r := d - first
	// Pair weights of 𝒦v = Σ v_i K_i: w_p as in formM, over F only.
	for _, i := range nw.free {
		e.w[e.dis[i]] = 0
		e.w[e.sim[i]] = 0
	}
	for _, i := range nw.free {
		e.w[e.dis[i]] += v[i]
		e.w[e.sim[i]] -= v[i]
	}
	// U = L_w Z₊ (rows of F), then G = Vᵀ (𝒦v) V₊ = Zfᵀ U (d×r).
	for _, k := range nw.rows {
		clear(nw.u[int(k)*r : int(k+1)*r])
	}
	for _, i := range nw.free {
		for _, p := range [2]int32{e.dis[i], e.sim[i]} {
			wp := e.w[p]
			if wp == 0 {
				continue
			}
			e.w[p] = 0 // each pair once
			a, b := int(e.pa[p]), int(e.pb[p])
			za, zb := nw.zf[a*d+first:(a+1)*d], nw.zf[b*d+first:(b+1)*d]
			ua, ub := nw.u[a*r:(a+1)*r], nw.u[b*r:(b+1)*r]
			for c := range ua {
				t := wp * (za[c] - zb[c])
				ua[c] += t
				ub[c] -= t
			}
		}
	}
	gm := nw.gm[:d*r]
	addOuterRows(gm, nw.zf, nw.u, nw.rows, d, r)
	// C' = Γ∘G on the rows of negative eigenvalues, ½ Γ∘G = ½ G on the
	// positive rows, so that for z = Vᵀe_p, z_pᵀ (Γ∘G) z_p = 2 (zᵀC') z₊.
	for k := 0; k < d; k++ {
		row, gr := gm[k*r:(k+1)*r], nw.gamma[k*r:(k+1)*r]
		s := 1.0
		if k >= first {
			s = 0.5
		}
		for c := range row {
			row[c] *= s * gr[c]
		}
	}
	// Y = Zf C' on the touched rows, then the pair values
	// e_pᵀ Dπ₊[𝒦v] e_p = 2 (Y_a − Y_b)·(Z₊a − Z₊b).
	for _, k := range nw.rows {
		combineRowsTo(nw.y[int(k)*r:int(k+1)*r], nw.zf[int(k)*d:int(k+1)*d], gm)
	}
	pair := func(p int32) float64 {
		a, b := int(e.pa[p]), int(e.pb[p])
		ya, yb := nw.y[a*r:(a+1)*r], nw.y[b*r:(b+1)*r]
		za, zb := nw.zf[a*d+first:(a+1)*d], nw.zf[b*d+first:(b+1)*d]
		var s float64
		for c := range ya {
			s += (ya[c] - yb[c]) * (za[c] - zb[c])
		}
		return 2 * s
	}
	for _, i := range nw.free {
		hv[i] = (pair(e.dis[i]) - pair(e.sim[i])) / e.lambda
	}
}

// solveCG sets dir (zero off F) to an inexact solution of H_FF d = −g̃_F,
// g̃ = g + μ, by conjugate gradients preconditioned by u = 1/w, the fast
// method's scaling (w_i ∝ ‖K_i‖²_F, which bounds H_ii); with the budget
// active, in the subspace Σ d = 0, where the preconditioner is the
// projection onto it in u's metric. It reports false when the reduced
// gradient is 0, and the certificate's error if the run was cancelled.
func (nw *newton) solveCG(c *certificate, u []float64) (bool, error) {
	e := c.e
	clear(nw.dir)
	precond := func(z, r []float64) { nw.precondTo(z, r, u) }
	// r = −g̃, made to sum to 0 when the budget is active; z = P_u(u∘r);
	// p = z.
	nw.residual()
	precond(nw.z, nw.r)
	var rz, rr float64
	for _, i := range nw.free {
		nw.p[i] = nw.z[i]
		rz += nw.r[i] * nw.z[i]
		rr += nw.r[i] * nw.r[i]
	}
	if rr == 0 || rz <= 0 {
		return false, nil
	}
	r0 := math.Sqrt(rr)
	tol := min(0.1, math.Sqrt(r0)) * r0
	var top float64 // the largest curvature pᵀHp/pᵀp met
	nw.cgIters = 0
	for it := 0; it < newtonMaxCG; it++ {
		if err := c.tick(); err != nil {
			return false, err
		}
		nw.cgIters++
		nw.hess(e, nw.hp, nw.p)
		var php, pp float64
		for _, i := range nw.free {
			php += nw.p[i] * nw.hp[i]
			pp += nw.p[i] * nw.p[i]
		}
		top = max(top, php/pp)
		if !(php > 1e-12*top*pp) {
			// No curvature along p (H is only semidefinite): stop here, or
			// take the preconditioned reduced gradient if nothing was
			// found yet.
			if it == 0 {
				copy(nw.dir, nw.z)
			}
			break
		}
		a := rz / php
		var rn float64
		for _, i := range nw.free {
			nw.dir[i] += a * nw.p[i]
			nw.r[i] -= a * nw.hp[i]
			rn += nw.r[i] * nw.r[i]
		}
		if math.Sqrt(rn) <= tol {
			break
		}
		precond(nw.z, nw.r)
		var rzn float64
		for _, i := range nw.free {
			rzn += nw.r[i] * nw.z[i]
		}
		b := rzn / rz
		rz = rzn
		for _, i := range nw.free {
			nw.p[i] = nw.z[i] + b*nw.p[i]
		}
	}
	return true, nil
}

// precondTo sets z to P_u(u∘r) = u∘r − u·(Σ u r)/(Σ u) on the free
// triplets, which keeps Σ z = 0 when the budget is active (else u∘r).
func (nw *newton) precondTo(z, r, u []float64) {
	var sr, su float64
	for _, i := range nw.free {
		z[i] = u[i] * r[i]
		sr += z[i]
		su += u[i]
	}
	if !nw.sumOnly {
		return
	}
	for _, i := range nw.free {
		z[i] -= u[i] * sr / su
	}
}

// residual sets r = −g̃ on the free triplets, made to sum to 0 when the
// budget is active.
func (nw *newton) residual() {
	var mean float64
	for _, i := range nw.free {
		nw.r[i] = -nw.gt[i]
		mean += nw.r[i]
	}
	if nw.sumOnly {
		mean /= float64(len(nw.free))
		for _, i := range nw.free {
			nw.r[i] -= mean
		}
	}
}

// addOuterRows sets g (d×r, row-major) to Zᵀ U = Σ_{k ∈ rows} z_k u_kᵀ,
// z_k the k-th row (length d) of z and u_k the k-th row (length r) of u.
//
// Four rows at a time: each pass over a row of g adds four terms, where an
// axpy per row and entry of z (the obvious loop) cost more in calls than in
// arithmetic at these lengths (r ≤ d ≤ 60 on the built-in datasets). Each
// entry sums its terms in the order of rows, as the obvious loop does
// (TestNewtonKernelsAgainstNaive).
func addOuterRows(g, z, u []float64, rows []int32, d, r int) {
	clear(g)
	k := 0
	for ; k+4 <= len(rows); k += 4 {
		k0, k1, k2, k3 := int(rows[k]), int(rows[k+1]), int(rows[k+2]), int(rows[k+3])
		z0, z1, z2, z3 := z[k0*d:(k0+1)*d], z[k1*d:(k1+1)*d], z[k2*d:(k2+1)*d], z[k3*d:(k3+1)*d]
		u0, u1, u2, u3 := u[k0*r:(k0+1)*r], u[k1*r:(k1+1)*r], u[k2*r:(k2+1)*r], u[k3*r:(k3+1)*r]
		for l := range d {
			a0, a1, a2, a3 := z0[l], z1[l], z2[l], z3[l]
			gl := g[l*r : (l+1)*r]
			gl = gl[:len(u0)]
			for c, v := range u0 {
				gl[c] = gl[c] + a0*v + a1*u1[c] + a2*u2[c] + a3*u3[c]
			}
		}
	}
	for ; k < len(rows); k++ {
		zk, uk := z[int(rows[k])*d:int(rows[k]+1)*d], u[int(rows[k])*r:int(rows[k]+1)*r]
		for l, a := range zk {
			gl := g[l*r : (l+1)*r]
			gl = gl[:len(uk)]
			for c, v := range uk {
				gl[c] += a * v
			}
		}
	}
}

// combineRowsTo sets y (length r) to Σ_l z_l g_l, g_l the l-th row (length
// r) of g (len(z)×r, row-major): four rows of g a time, each entry summed
// in the order of l (TestNewtonKernelsAgainstNaive).
func combineRowsTo(y, z, g []float64) {
	r := len(y)
	clear(y)
	l := 0
	for ; l+4 <= len(z); l += 4 {
		a0, a1, a2, a3 := z[l], z[l+1], z[l+2], z[l+3]
		g0, g1, g2, g3 := g[l*r:(l+1)*r], g[(l+1)*r:(l+2)*r], g[(l+2)*r:(l+3)*r], g[(l+3)*r:(l+4)*r]
		g0, g1, g2, g3 = g0[:len(y)], g1[:len(y)], g2[:len(y)], g3[:len(y)]
		for c := range y {
			y[c] = y[c] + a0*g0[c] + a1*g1[c] + a2*g2[c] + a3*g3[c]
		}
	}
	for ; l < len(z); l++ {
		a, gl := z[l], g[l*r:(l+1)*r]
		gl = gl[:len(y)]
		for c := range y {
			y[c] += a * gl[c]
		}
	}
}
