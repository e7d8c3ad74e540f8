package core

import (
	"math"

	"gonum.org/v1/gonum/blas"
	"gonum.org/v1/gonum/lapack/gonum"
)

// One side of a symmetric eigendecomposition, for π₊(M).
//
// π₊(M) = V₊ Λ₊ V₊ᵀ = M − V₋ Λ₋ V₋ᵀ needs the eigenvectors of one side of
// M's spectrum only. LAPACK's Dsyev computes all of them by QR iteration,
// accumulating every rotation into a d×d matrix. LAPACK's Dsyevx route is
// cheaper when fewer vectors are wanted, and gonum v0.17.0 has its parts
// but the third:
//
//  1. M = Q T Qᵀ, T tridiagonal (Dsytrd, lower: Q's reflectors in QR form);
//  2. T's eigenvalues alone (Dsterf, root-free QR);
//  3. T's eigenvectors for the wanted eigenvalues by inverse iteration, as
//     LAPACK's Dstein does it (below);
//  4. back to M's: V = Q Z (Dormqr).
//
// It pays where few vectors are wanted or d is large (BenchmarkEigen):
// LMNN's iterates, with few negative eigenvalues, and d from 100 on; not
// for the fast method's M on Sonar (29 positive eigenvalues of 60: 361 µs,
// as much as every vector by syevTo, steqr.go).
//
// Inverse iteration can fail (LAPACK reports it): each vector's residual
// ‖T z − μ z‖ and the vectors' orthogonality are checked, and the caller
// falls back to Dsyev when they are not at rounding level.

// eigJob says what evaluator.eigen computes beside the eigenvalues.
type eigJob int

const (
	eigValues   eigJob = iota // the eigenvalues alone
	eigPositive               // and the eigenvectors of the positive eigenvalues
	eigSmaller                // and those of the positive or, if fewer, the negative ones
	eigAll                    // and every eigenvector
)

// tridiag is the scratch of the partial eigensolver for d×d matrices.
type tridiag struct {
	diag, off, tau []float64 // T's diagonal and off-diagonal; Q's reflectors' factors
	offCopy        []float64 // the off-diagonal for Dsterf, which destroys it
	z              []float64 // d×k, row-major: T's eigenvectors, then M's
	v              []float64 // k×d: T's eigenvectors, one per row
	// One LU factorization of T − μI with partial pivoting (LAPACK's Dlagtf
	// layout): u0 U's diagonal, u1 and u2 its two superdiagonals, l the
	// multipliers, swap whether rows k and k+1 were exchanged.
	u0, u1, u2, l []float64
	swap          []bool
	tol           float64   // the solves' perturbation of a tiny pivot
	b             []float64 // the iterate
	seed          uint64    // the start vectors' generator (the same for every call)
	work          []float64
	checkTol      float64 // the checks' factor (below); tests make it negative
}

func newTridiag(d int) *tridiag {
	var impl gonum.Implementation
	t := &tridiag{
		diag: make([]float64, d), off: make([]float64, d), tau: make([]float64, d),
		offCopy: make([]float64, d), z: make([]float64, d*d), v: make([]float64, d*d),
		u0: make([]float64, d), u1: make([]float64, d), u2: make([]float64, d), l: make([]float64, d),
		swap: make([]bool, d), b: make([]float64, d), checkTol: 1e4,
	}
	work := make([]float64, 1)
	a := make([]float64, d*d)
	impl.Dsytrd(blas.Lower, d, a, max(d, 1), t.diag, t.off, t.tau, work, -1)
	n := int(work[0])
	if d > 1 {
		impl.Dormqr(blas.Left, blas.NoTrans, d-1, d, d-1, a[d:], d, t.tau[:d-1], t.z[d:], d, work, -1)
		n = max(n, int(work[0]))
	}
	t.work = make([]float64, max(n, 1))
	return t
}

// partTo computes the eigenvalues of the symmetric d×d matrix a (lower
// triangle read, destroyed) into vals, ascending, and the eigenvectors of a
// part of them into the columns lo…hi−1 of vecs (d×d, row-major; the other
// columns are set to 0; vecs may be a): the positive eigenvalues', or, if
// smaller is set and the negative eigenvalues are fewer, theirs (neg is
// then true). ok is
// false if an eigenvalue did not converge or an eigenvector failed its
// check; vals and vecs are then not valid.
func (t *tridiag) partTo(vecs, vals, a []float64, d int, smaller bool) (lo, hi int, neg, ok bool) {
	var impl gonum.Implementation
	if d == 1 {
		// The rule below for one eigenvalue, without LAPACK.
		vals[0] = a[0]
		vecs[0] = 0
		switch {
		case a[0] > 0 && smaller:
			return 0, 0, true, true // no negative eigenvalue: the smaller side
		case a[0] > 0:
			vecs[0] = 1
			return 0, 1, false, true
		case a[0] < 0 && smaller:
			vecs[0] = 1
			return 0, 1, true, true
		}
		return 1, 1, false, true
	}
	// 1. M = Q T Qᵀ.
	impl.Dsytrd(blas.Lower, d, a, d, t.diag, t.off, t.tau, t.work, len(t.work))
	// 2. T's eigenvalues.
	copy(vals, t.diag)
	copy(t.offCopy, t.off[:d-1])
	if !dsterf(d, vals, t.offCopy) {
		return 0, 0, false, false
	}
	lo, hi = d, d
	for lo > 0 && vals[lo-1] > 0 {
		lo--
	}
	if smaller {
		n := 0
		for n < d && vals[n] < 0 {
			n++
		}
		if n < d-lo {
			lo, hi, neg = 0, n, true
		}
	}
	k := hi - lo
	if k == 0 {
		clear(vecs)
		return lo, hi, neg, true
	}
	// 3. T's eigenvectors for vals[lo:hi], into z (d×k).
	z := t.z[:d*k]
	if !t.inverseIteration(z, vals[lo:hi], d, k) {
		return 0, 0, false, false
	}
	// 4. V = Q Z: Q's first row and column are e₁'s, and its reflectors
	// act on rows 1…d−1 (LAPACK's Dormtr, lower).
	impl.Dormqr(blas.Left, blas.NoTrans, d-1, k, d-1, a[d:], d, t.tau[:d-1], z[k:], k, t.work, len(t.work))
	clear(vecs) // a's reflectors are used: vecs may be a
	for i := 0; i < d; i++ {
		copy(vecs[i*d+lo:i*d+hi], z[i*k:(i+1)*k])
	}
	return lo, hi, neg, true
}

// dsterf runs gonum's Dsterf, and reports false if it panicked (see
// lapackOK) or did not converge.
func dsterf(d int, vals, off []float64) bool {
	var impl gonum.Implementation
	return lapackOK(func() bool { return impl.Dsterf(d, vals, off) })
}

// inverseIteration sets the k columns of z (d×k, row-major) to unit
// eigenvectors of T (t.diag, t.off) for the ascending eigenvalues w, as
// LAPACK's Dstein: each from a pseudo-random start, by up to five solves
// with T − μI (μ nudged apart from an equal predecessor), two more once the
// iterate has grown enough, and modified Gram–Schmidt against the vectors
// of eigenvalues within 10⁻³‖T‖₁ before it. It then checks every residual
// ‖T z − w z‖₂ and every inner product, and reports false if one is not at
// rounding level.
func (t *tridiag) inverseIteration(z, w []float64, d, k int) bool {
	eps := math.Nextafter(1, 2) - 1 // LAPACK's dlamch('P')
	oneNorm := t.oneNorm(d)
	if oneNorm == 0 {
		return false // T = 0: no positive eigenvalue; not reached
	}
	orthTol := 1e-3 * oneNorm
	t.seed = 0x9e3779b97f4a7c15
	group := 0 // the first vector of the current cluster
	var muPrev float64
	for j := 0; j < k; j++ {
		mu := w[j]
		if j > 0 {
			if pert := 10 * math.Abs(eps*mu); mu-muPrev < pert {
				mu = muPrev + pert
			}
			if mu-muPrev > orthTol {
				group = j
			}
		}
		muPrev = mu
		if !t.vectorAt(mu, j, group, d, eps, oneNorm) {
			return false
		}
	}
	if !t.checked(w, d, k, eps, oneNorm) {
		return false
	}
	v := t.v
	for j := 0; j < k; j++ {
		for i, x := range v[j*d : (j+1)*d] {
			z[i*k+j] = x
		}
	}
	return true
}

// oneNorm returns ‖T‖₁, the largest absolute column sum of T (d×d).
func (t *tridiag) oneNorm(d int) float64 {
	var n float64
	for i := 0; i < d; i++ {
		s := math.Abs(t.diag[i])
		if i > 0 {
			s += math.Abs(t.off[i-1])
		}
		if i < d-1 {
			s += math.Abs(t.off[i])
		}
		n = max(n, s)
	}
	return n
}

// vectorAt sets t.v's vector j to the eigenvector of T for the shift mu by
// inverse iteration from a pseudo-random start, orthogonalized against the
// vectors group … j−1 of its cluster (Dstein's loop: at most maxIts
// solves, stopping extra solves after the iterate has grown past the
// threshold), normalized with its largest entry positive. It returns false
// where Dstein reports a failure.
func (t *tridiag) vectorAt(mu float64, j, group, d int, eps, oneNorm float64) bool {
	const (
		maxIts = 5
		extra  = 2
	)
	growth := math.Sqrt(0.1 / float64(d)) // Dstein's DTPCRT
	b, v := t.b, t.v
	for i := range b[:d] {
		b[i] = t.uniform()
	}
	t.factor(mu, d, eps)
	checks := 0
	for its := 0; ; its++ {
		if its == maxIts {
			return false // LAPACK's Dstein reports a failure here
		}
		// Scale so that the solve neither overflows nor loses the
		// start (Dstein's SCL).
		var bmax float64
		for _, v := range b[:d] {
			bmax = max(bmax, math.Abs(v))
		}
		if bmax == 0 {
			return false
		}
		scl := float64(d) * oneNorm * max(eps, math.Abs(t.u0[d-1])) / bmax
		for i := range b[:d] {
			b[i] *= scl
		}
		t.solve(b, d)
		for g := group; g < j; g++ {
			vg := v[g*d : (g+1)*d]
			var dot float64
			for i, x := range vg {
				dot += b[i] * x
			}
			for i, x := range vg {
				b[i] -= dot * x
			}
		}
		var nrm float64
		for _, v := range b[:d] {
			nrm = max(nrm, math.Abs(v))
		}
		if !finite(nrm) {
			return false
		}
		if nrm < growth {
			continue
		}
		checks++
		if checks == extra+1 {
			break
		}
	}
	// Normalize, the largest entry positive (Dstein's sign).
	var s2, big float64
	jmax := 0
	for i, v := range b[:d] {
		s2 += v * v
		if math.Abs(v) > big {
			big, jmax = math.Abs(v), i
		}
	}
	scl := 1 / math.Sqrt(s2)
	if b[jmax] < 0 {
		scl = -scl
	}
	vj := v[j*d : (j+1)*d]
	for i, x := range b[:d] {
		vj[i] = x * scl
	}
	return true
}

// checked reports whether t.v's k vectors pass the checks, loose enough
// for vectors of eigenvalues 10⁻³‖T‖₁ apart (not reorthogonalized: their
// inner products are about ε‖T‖/gap ≤ 10³ε), tight enough to catch a
// failure (two vectors of a cluster alike, an iterate that did not
// converge): ‖T z − w z‖₂ ≤ 10⁴·d·ε·‖T‖₁ and |z_iᵀ z_j| ≤ 10⁴·d·ε.
func (t *tridiag) checked(w []float64, d, k int, eps, oneNorm float64) bool {
	v := t.v
	resTol := t.checkTol * float64(d) * eps * oneNorm
	for j := 0; j < k; j++ {
		vj := v[j*d : (j+1)*d]
		var r2 float64
		for i, x := range vj {
			r := (t.diag[i] - w[j]) * x
			if i > 0 {
				r += t.off[i-1] * vj[i-1]
			}
			if i < d-1 {
				r += t.off[i] * vj[i+1]
			}
			r2 += r * r
		}
		if !(math.Sqrt(r2) <= resTol) {
			return false
		}
	}
	orthTolDot := t.checkTol * float64(d) * eps
	for j := 1; j < k; j++ {
		vj := v[j*d : (j+1)*d]
		for g := 0; g < j; g++ {
			vg := v[g*d : (g+1)*d]
			var dot float64
			for i, x := range vj {
				dot += x * vg[i]
			}
			if !(math.Abs(dot) <= orthTolDot) {
				return false
			}
		}
	}
	return true
}

// uniform returns the next number in (−1, 1) of a fixed-seed generator
// (splitmix64): the start vectors are the same on every call.
func (t *tridiag) uniform() float64 {
	t.seed += 0x9e3779b97f4a7c15
	x := t.seed
	x = (x ^ x>>30) * 0xbf58476d1ce4e5b9
	x = (x ^ x>>27) * 0x94d049bb133111eb
	x ^= x >> 31
	return 2*(float64(x>>11)/(1<<53)) - 1
}

// factor sets t.u0, u1, u2, l and swap to the LU factorization of T − μI
// with partial pivoting, row k exchanged with row k+1 where swap[k]
// (LAPACK's Dlagtf with a tolerance of 0).
func (t *tridiag) factor(mu float64, d int, eps float64) {
	a, b, c, dd := t.u0, t.u1, t.l, t.u2
	copy(a, t.diag[:d])
	copy(b, t.off[:d-1])
	copy(c, t.off[:d-1])
	a[0] -= mu
	scale1 := math.Abs(a[0]) + math.Abs(b[0])
	for k := 0; k < d-1; k++ {
		a[k+1] -= mu
		scale2 := math.Abs(c[k]) + math.Abs(a[k+1])
		if k < d-2 {
			scale2 += math.Abs(b[k+1])
		}
		piv1 := 0.0
		if a[k] != 0 {
			piv1 = math.Abs(a[k]) / scale1
		}
		t.swap[k] = false
		switch {
		case c[k] == 0:
			scale1 = scale2
			if k < d-2 {
				dd[k] = 0
			}
		case math.Abs(c[k])/scale2 <= piv1:
			scale1 = scale2
			c[k] /= a[k]
			a[k+1] -= c[k] * b[k]
			if k < d-2 {
				dd[k] = 0
			}
		default:
			t.swap[k] = true
			mult := a[k] / c[k]
			a[k] = c[k]
			tmp := a[k+1]
			a[k+1] = b[k] - mult*tmp
			if k < d-2 {
				dd[k] = b[k+1]
				b[k+1] = -mult * dd[k]
			}
			b[k] = tmp
			c[k] = mult
		}
	}
	// The solves' perturbation: ε times U's largest entry (Dlagts's TOL).
	tol := math.Abs(a[0])
	if d > 1 {
		tol = max(tol, math.Abs(a[1]), math.Abs(b[0]))
	}
	for k := 2; k < d; k++ {
		tol = max(tol, math.Abs(a[k]), math.Abs(b[k-1]), math.Abs(dd[k-2]))
	}
	t.tol = tol * eps
	if t.tol == 0 {
		t.tol = eps
	}
}

// solve overwrites y with the solution of (T − μI) x = y from the factors
// of factor, a pivot too small to divide by nudged by ε‖U‖ (LAPACK's Dlagts
// with job −1).
func (t *tridiag) solve(y []float64, d int) {
	a, b, c, dd := t.u0[:d], t.u1[:d], t.l[:d], t.u2[:d]
	tol := t.tol
	for k := 1; k < d; k++ {
		if !t.swap[k-1] {
			y[k] -= c[k-1] * y[k-1]
		} else {
			tmp := y[k-1]
			y[k-1] = y[k]
			y[k] = tmp - c[k-1]*y[k]
		}
	}
	const sfmin = 0x1p-1022
	bignum := 1 / sfmin
	for k := d - 1; k >= 0; k-- {
		tmp := y[k]
		if k <= d-2 {
			tmp -= b[k] * y[k+1]
		}
		if k <= d-3 {
			tmp -= dd[k] * y[k+2]
		}
		ak := a[k]
		if math.Abs(ak) >= 1 || math.Abs(ak) >= sfmin && math.Abs(tmp) <= math.Abs(ak)*bignum {
			y[k] = tmp / ak // no risk of overflow: no perturbation
			continue
		}
		pert := math.Copysign(tol, ak)
		for {
			absak := math.Abs(ak)
			if absak < 1 {
				if absak < sfmin {
					if absak == 0 || math.Abs(tmp)*sfmin > absak {
						ak += pert
						pert *= 2
						continue
					}
					tmp *= bignum
					ak *= bignum
				} else if math.Abs(tmp) > absak*bignum {
					ak += pert
					pert *= 2
					continue
				}
			}
			break
		}
		y[k] = tmp / ak
	}
}
