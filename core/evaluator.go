package core

import (
	"math"
	"runtime"
	"slices"

	"gonum.org/v1/gonum/blas"
	"gonum.org/v1/gonum/blas/blas64"
	"gonum.org/v1/gonum/lapack"
	"gonum.org/v1/gonum/lapack/lapack64"
	"gonum.org/v1/gonum/mat"
)

// pairIndex is the triplets' structure, which η and λ do not change: the
// rows some triplet touches, copied contiguously, and each triplet's two
// pairs among the distinct pairs.
type pairIndex struct {
	n, d, nt, np, N int

	xt       []float64 // n_t×d touched rows, row-major
	rowOf    []int     // touched-row index → row of X
	pa, pb   []int32   // pair endpoints, as touched-row indices
	sim, dis []int32   // per triplet: index of pair (I,J) and of pair (I,K)
}

func newPairIndex(x *mat.Dense, ts []Triplet) *pairIndex {
	n, d := x.Dims()
	N := len(ts)
	e := &pairIndex{n: n, d: d, N: N}
	local := make(map[int]int32)
	touch := func(r int) int32 {
		if k, ok := local[r]; ok {
			return k
		}
		k := int32(len(e.rowOf))
		local[r] = k
		e.rowOf = append(e.rowOf, r)
		return k
	}
	pairIdx := make(map[[2]int32]int32)
	pair := func(a, b int) int32 {
		la, lb := touch(a), touch(b)
		if la > lb {
			la, lb = lb, la
		}
		key := [2]int32{la, lb}
		if k, ok := pairIdx[key]; ok {
			return k
		}
		k := int32(len(e.pa))
		pairIdx[key] = k
		e.pa = append(e.pa, la)
		e.pb = append(e.pb, lb)
		return k
	}
	e.sim = make([]int32, N)
	e.dis = make([]int32, N)
	for t, tr := range ts {
		e.sim[t] = pair(tr.I, tr.J)
		e.dis[t] = pair(tr.I, tr.K)
	}
	e.nt, e.np = len(e.rowOf), len(e.pa)
	e.xt = make([]float64, e.nt*d)
	for k, r := range e.rowOf {
		mat.Row(e.xt[k*d:(k+1)*d], r, x)
	}
	return e
}

// evaluator computes L(q), ∇L(q) and P(A) for one problem, reusing its
// buffers so that an evaluation allocates nothing.
//
// Work goes through distinct pairs, never through triplets' d×d matrices:
// Σ_i q_i K_i = Σ_pairs w_p e_p e_pᵀ with e_p = x_a − x_b and w_p the signed
// sum of the q_i that use pair p, and that sum is formed as X_tᵀ (L_w X_t),
// where L_w is the weighted graph Laplacian of the pairs over the n_t rows
// that some triplet touches. The cost per evaluation is O(N + P·d + n_t·d²)
// plus one d×d symmetric eigendecomposition.
type evaluator struct {
	*pairIndex
	lambda, m float64

	w      []float64 // per pair weight w_p
	y      []float64 // L_w X_t, n_t×d
	live   []int32   // rows of y that may be non-zero
	isLive []bool
	eigA   []float64 // d×d: M on entry to Syev, eigenvectors on exit
	vals   []float64 // eigenvalues, ascending
	tri    *tridiag  // the partial eigensolver (eigen.go), made at first use
	// partNeg: after eigen(eigSmaller), e.eigA holds the negative
	// eigenvalues' vectors only (else the positive ones', or all).
	partNeg bool
	// eigenFallbacks counts the partial eigendecompositions that failed
	// their check and went to Dsyev (tests read it).
	eigenFallbacks int
	work           []float64 // lapack work
	z              []float64 // n_t×d projections onto the positive eigenvectors
	vt             []float64 // d×d: the positive eigenvectors as rows
	pm             []float64 // per pair: e_pᵀ A e_p
	hs             []float64 // hinge scratch for the top-m sum
	keys           []uint64  // sortFloats' scratch
}

// newEvaluator returns an evaluator for p, on p's prepared pair index if it
// has one.
func newEvaluator(p *Problem) *evaluator {
	idx := (*pairIndex)(nil)
	if pp := p.prepared(); pp != nil {
		idx = pp.idx
	} else {
		idx = newPairIndex(p.X, p.Triplets)
	}
	return newEvaluatorOn(idx, p.Lambda, p.Budget())
}

// newEvaluatorFor returns an evaluator of the same problem as e, with
// scratch of its own.
func newEvaluatorFor(e *evaluator) *evaluator { return newEvaluatorOn(e.pairIndex, e.lambda, e.m) }

// newEvaluatorOn returns an evaluator on the pair index idx, for λ and
// the budget m.
func newEvaluatorOn(idx *pairIndex, lambda, m float64) *evaluator {
	e := &evaluator{pairIndex: idx, lambda: lambda, m: m}
	d := e.d
	e.w = make([]float64, e.np)
	e.y = make([]float64, e.nt*d)
	e.isLive = make([]bool, e.nt)
	e.live = make([]int32, 0, e.nt)
	e.allocEigen(d)
	e.z = make([]float64, e.nt*d)
	e.vt = make([]float64, d*d)
	e.pm = make([]float64, e.np)
	e.hs = make([]float64, e.N)
	return e
}

// allocEigen gives e the scratch of a d×d eigendecomposition by Dsyev
// (e.syev): the matrix and its eigenvectors, the eigenvalues, the workspace.
func (e *evaluator) allocEigen(d int) {
	e.eigA = make([]float64, d*d)
	e.vals = make([]float64, d)
	work := make([]float64, 1)
	lapack64.Syev(lapack.EVCompute, blas64.Symmetric{N: d, Stride: d, Data: e.eigA, Uplo: blas.Upper}, e.vals, work, -1)
	e.work = make([]float64, int(work[0]))
}

// formM sets dst (d×d, row-major) to M(q) = Σ_i q_i K_i.
func (e *evaluator) formM(dst, q []float64) {
	// w_p = Σ_{i: (I,K) = p} q_i − Σ_{i: (I,J) = p} q_i
	clear(e.w)
	for t, qt := range q {
		e.w[e.dis[t]] += qt
		e.w[e.sim[t]] -= qt
	}
	e.formW(dst)
}

// formW sets dst (d×d, row-major, upper triangle) to Σ_p w_p e_p e_pᵀ for
// the pair weights in e.w.
func (e *evaluator) formW(dst []float64) {
	d := e.d
	// Y = L_w X_t: row a += w_p (x_a − x_b), row b −= w_p (x_a − x_b).
	// Only rows touched by a pair with w_p ≠ 0 are non-zero; q is sparse near
	// the optimum, so they are listed and the rest skipped.
	for _, k := range e.live {
		clear(e.y[int(k)*d : int(k+1)*d])
		e.isLive[k] = false
	}
	// M = X_tᵀ Y = Σ_p w_p (x_a − x_b)(x_a − x_b)ᵀ, upper triangle only
	// (symmetric by construction; eigen reads the upper triangle).
	if k := kernels; k != nil {
		e.live = k.AddPairs(e.y, e.xt, e.w, e.pa, e.pb, e.isLive, e.live[:0], d)
		k.OuterUpperTo(dst, e.xt, e.y, e.live, d)
		return
	}
	e.live = addPairs(e.y, e.xt, e.w, e.pa, e.pb, e.isLive, e.live[:0], d)
	addOuterUpper(dst, e.xt, e.y, e.live, d)
}

// addPairs is GoKernels.AddPairs. Natively a large pass splits the
// columns between goroutines (parallel.go): each entry of y takes the same
// terms in the same order of pairs either way.
func addPairs(y, x, w []float64, pa, pb []int32, isLive []bool, live []int32, d int) []int32 {
	for p, wp := range w {
		if wp == 0 {
			continue
		}
		if ia := pa[p]; !isLive[ia] {
			isLive[ia] = true
			live = append(live, ia)
		}
		if ib := pb[p]; !isLive[ib] {
			isLive[ib] = true
			live = append(live, ib)
		}
	}
	parts := parallelParts(3 * float64(len(w)) * float64(d))
	if parts == 1 {
		addPairsCols(y, x, w, pa, pb, d, 0, d)
		return live
	}
	runParts(evenCuts(d, min(parts, d)), func(lo, hi int) { addPairsCols(y, x, w, pa, pb, d, lo, hi) })
	return live
}

// addPairsCols does addPairs' arithmetic on the columns j0 ≤ j < j1 alone.
func addPairsCols(y, x, w []float64, pa, pb []int32, d, j0, j1 int) {
	for p, wp := range w {
		if wp == 0 {
			continue
		}
		// The slices cut to xa's length, so that the compiler drops the
		// bounds checks in the loop (js/wasm: 3.6 → 3.0 ms of formM on
		// 5,000 × 50; BenchmarkFormM).
		a, b := int(pa[p])*d, int(pb[p])*d
		xa := x[a+j0 : a+j1]
		xb, ya, yb := x[b+j0:b+j1], y[a+j0:a+j1], y[b+j0:b+j1]
		xb, ya, yb = xb[:len(xa)], ya[:len(xa)], yb[:len(xa)]
		for j, v := range xa {
			v = wp * (v - xb[j])
			ya[j] += v
			yb[j] -= v
		}
	}
}

// addOuterUpper sets the upper triangle of dst (d×d, row-major) to
// Σ_{k ∈ rows} x_k y_kᵀ, x_k and y_k the k-th rows (length d) of x and y.
//
// Four rows of x and y at a time, and two rows of dst: each entry of y read
// serves eight multiply-adds, and each pass over dst four per entry. One
// axpy per row and entry of x, the obvious loop, spent more time in calls
// than in arithmetic: on js/wasm, which has no assembly kernels, the
// product took 25 ms of a 31 ms formM on 5,000 × 50, 5 ms four rows at a
// time with one row of dst, 3.7 ms with two (natively 6.9 → 1.7 → 1.2 ms;
// BenchmarkFormM). Every entry sums its terms in the same order as the
// one-row loop, so the result is the same to the bit
// (TestKernelsAgainstNaive checks it against plain loops). Natively a large
// product splits the rows of dst between goroutines (parallel.go).
func addOuterUpper(dst, x, y []float64, rows []int32, d int) {
	parts := parallelParts(float64(len(rows)) * float64(d) * float64(d+1) / 2)
	if parts == 1 {
		addOuterUpperRange(dst, x, y, rows, d, 0, d)
		return
	}
	runParts(triangleCuts(d, parts), func(lo, hi int) { addOuterUpperRange(dst, x, y, rows, d, lo, hi) })
}

// addOuterUpperRange is addOuterUpper for the rows i0 ≤ i < i1 of dst
// alone (i0 even, and i1 even or d), which it sets and no other: each entry
// sums the same terms in the same order whatever the range.
func addOuterUpperRange(dst, x, y []float64, rows []int32, d, i0, i1 int) {
	clear(dst[i0*d : i1*d])
	k := 0
	for ; k+4 <= len(rows); k += 4 {
		r0, r1, r2, r3 := int(rows[k])*d, int(rows[k+1])*d, int(rows[k+2])*d, int(rows[k+3])*d
		x0, x1, x2, x3 := x[r0:r0+d], x[r1:r1+d], x[r2:r2+d], x[r3:r3+d]
		y0, y1, y2, y3 := y[r0:r0+d], y[r1:r1+d], y[r2:r2+d], y[r3:r3+d]
		i := i0
		for ; i+2 <= i1; i += 2 {
			// Rows i and i+1 of dst: (i, i) alone, then both from column i+1.
			a0, a1, a2, a3 := x0[i], x1[i], x2[i], x3[i]
			b0, b1, b2, b3 := x0[i+1], x1[i+1], x2[i+1], x3[i+1]
			dst[i*d+i] += a0*y0[i] + a1*y1[i] + a2*y2[i] + a3*y3[i]
			ra := dst[i*d+i+1 : (i+1)*d]
			n := len(ra)
			rb := dst[(i+1)*d+i+1 : (i+2)*d]
			rb = rb[:n]
			z0, z1, z2, z3 := y0[i+1:i+1+n], y1[i+1:i+1+n], y2[i+1:i+1+n], y3[i+1:i+1+n]
			for j := range ra {
				v0, v1, v2, v3 := z0[j], z1[j], z2[j], z3[j]
				ra[j] += a0*v0 + a1*v1 + a2*v2 + a3*v3
				rb[j] += b0*v0 + b1*v1 + b2*v2 + b3*v3
			}
		}
		if i < i1 { // d odd: the last row, one entry
			dst[i*d+i] += x0[i]*y0[i] + x1[i]*y1[i] + x2[i]*y2[i] + x3[i]*y3[i]
		}
	}
	for ; k < len(rows); k++ {
		r := int(rows[k]) * d
		xk, yk := x[r:r+d], y[r:r+d]
		for i := i0; i < i1; i++ {
			a := xk[i]
			row := dst[i*d+i : (i+1)*d]
			z := yk[i : i+len(row)]
			for j := range row {
				row[j] += a * z[j]
			}
		}
	}
}

// symmetrize copies the upper triangle of the d×d matrix m to the lower.
func symmetrize(m []float64, d int) {
	for i := 0; i < d; i++ {
		for j := i + 1; j < d; j++ {
			m[j*d+i] = m[i*d+j]
		}
	}
}

// eigen factorizes the symmetric d×d matrix m (upper triangle read) into
// e.vals and, as job asks, eigenvectors in e.eigA: for eigPositive at least
// those of the positive eigenvalues, for eigSmaller those of the positive or
// (e.partNeg) of the negative ones (the partial route sets the other
// columns to 0; Dsyev fills them all). It reports false if LAPACK did not
// converge.
//
// M is first scaled by a power of two (exact) so that its largest entry is
// in [1/2, 1): gonum v0.17.0's Dsterf, which computes eigenvalues alone,
// rescales a block whose norm is below about 1e-122 or above 4.5e153 by a
// call that panics ("insufficient length of a"), and Syev lets M's norm
// through unscaled between 1e-146 and 1e146.
func (e *evaluator) eigen(m []float64, job eigJob) bool {
	d := e.d
	var big float64
	for i := 0; i < d; i++ {
		for _, v := range m[i*d+i : (i+1)*d] {
			big = max(big, math.Abs(v))
		}
	}
	if big == 0 {
		// M = 0: eigenvalues 0, eigenvectors the identity.
		clear(e.vals)
		e.partNeg = false
		if job != eigValues {
			clear(e.eigA)
			for i := 0; i < d; i++ {
				e.eigA[i*d+i] = 1
			}
		}
		return true
	}
	if !finite(big) {
		return false
	}
	_, exp := math.Frexp(big) // big = f·2^exp, f in [1/2, 1)
	// scaled sets e.eigA's upper triangle (or, transposed, its lower) to
	// M·2^−exp.
	scaled := func(lower bool) {
		for i := 0; i < d; i++ {
			for j := i; j < d; j++ {
				if lower {
					e.eigA[j*d+i] = math.Ldexp(m[i*d+j], -exp)
				} else {
					e.eigA[i*d+j] = math.Ldexp(m[i*d+j], -exp)
				}
			}
		}
	}
	// The positive part alone (eigen.go's route) pays from d ≈ 100 on
	// (BenchmarkEigen: no faster than every vector on Sonar's M at d = 60,
	// 1.3–1.7× faster on random matrices at d = 100 and 200); the smaller
	// side (LMNN's projections, most eigenvalues positive) pays on every
	// built-in dataset. Dsyev's route (syev, steqr.go) computes every
	// vector otherwise, and when that route fails its check.
	partial := job == eigSmaller || job == eigPositive && d >= partialMinDim
	ok := false
	switch {
	case job == eigValues:
		// A deflated block can still be tiny next to the rest of M: then
		// Dsterf panics all the same, and Dsteqr (the eigenvector path,
		// whose rescaling is right) is used instead.
		scaled(false)
		ok = e.syev(lapack.EVNone)
	case partial:
		scaled(true) // the partial route reads the lower triangle
		if e.tri == nil {
			e.tri = newTridiag(d)
		}
		var neg bool
		if _, _, neg, ok = e.tri.partTo(e.eigA, e.vals, e.eigA, d, job == eigSmaller); ok {
			e.partNeg = neg
		} else {
			e.eigenFallbacks++
		}
	}
	if !ok {
		scaled(false)
		if !e.syev(lapack.EVCompute) {
			return false
		}
		e.partNeg = false // every vector
	}
	for k, v := range e.vals {
		e.vals[k] = math.Ldexp(v, exp)
	}
	return true
}

// partialMinDim is the least d at which eigen computes the positive part
// alone (eigen.go's route) instead of every eigenvector.
const partialMinDim = 100

// syev runs LAPACK's symmetric eigensolver on e.eigA (upper triangle). It
// reports false if it did not converge or panicked (lapackOK).
func (e *evaluator) syev(job lapack.EVJob) bool {
	return lapackOK(func() bool {
		if job == lapack.EVCompute {
			return syevTo(e.d, e.eigA, e.d, e.vals, e.work) // gonum's Dsyev, its rotations row by row (steqr.go)
		}
		return lapack64.Syev(job, blas64.Symmetric{N: e.d, Stride: e.d, Data: e.eigA, Uplo: blas.Upper}, e.vals, e.work, len(e.work))
	})
}

// lapackOK returns f's report, false if f panicked: gonum v0.17.0's Dsterf
// panics on some valid inputs (see eigen), and no input of the user's may
// crash the solver.
func lapackOK(f func() bool) (ok bool) {
	defer func() {
		if recover() != nil {
			ok = false
		}
	}()
	return f()
}

// positive returns the index of the first positive eigenvalue and
// Σ_{λ_k>0} λ_k² = ‖π₊(M)‖_F².
func (e *evaluator) positive() (first int, sq float64) {
	first = e.d
	for k := e.d - 1; k >= 0 && e.vals[k] > 0; k-- {
		first = k
		sq += e.vals[k] * e.vals[k]
	}
	return first, sq
}

// dual returns L(q) = −Σ q_i + ‖π₊(M)‖²/(2λ), given that e.vals holds the
// eigenvalues of M = M(q).
func (e *evaluator) dual(q []float64) float64 {
	_, sq := e.positive()
	var s float64
	for _, v := range q {
		s += v
	}
	return -s + sq/(2*e.lambda)
}

// gradPrimal uses the eigenvectors in e.eigA (of M(q)) to set
// grad_i = ∇L(q)_i = −1 + tr(K_i A(q)), A(q) = π₊(M)/λ, and returns
// P(A(q)) = λ/2 ‖A(q)‖_F² + top-m sum of the hinge losses (1 − tr(K_i A))_+.
// grad may be nil.
func (e *evaluator) gradPrimal(grad []float64) float64 {
	d := e.d
	first, sq := e.positive()
	r := d - first
	// Z = X_t V₊ (n_t×r); e_pᵀ A e_p = Σ_k (λ_k/λ) (Z_ak − Z_bk)².
	// V₊ is copied to rows of vt so that each entry of Z is one contiguous
	// dot product (gonum's Dgemm goes parallel and allocates at these sizes).
	for c := 0; c < r; c++ {
		for j := 0; j < d; j++ {
			e.vt[c*d+j] = e.eigA[j*d+first+c]
		}
	}
	e.rowDots(e.z[:e.nt*r], e.vt[:r*d], r)
	sc := e.vals[first:]
	for p := range e.pm {
		a, b := int(e.pa[p])*r, int(e.pb[p])*r
		za, zb := e.z[a:a+r], e.z[b:b+r]
		var s float64
		for k, l := range sc {
			t := za[k] - zb[k]
			s += l * t * t
		}
		e.pm[p] = s / e.lambda
	}
	return e.lambda/2*sq/(e.lambda*e.lambda) + e.hingeTop(grad)
}

// hingeTop turns the pair values in e.pm into the gradient (if grad is not
// nil) and returns the worst-case loss max_{q∈Q̂} Σ q_i (1 − margin_i)_+.
func (e *evaluator) hingeTop(grad []float64) float64 {
	h := e.hs[:0]
	for t := range e.sim {
		margin := e.margin(t)
		if grad != nil {
			grad[t] = margin - 1
		}
		if margin < 1 {
			h = append(h, 1-margin)
		}
	}
	return topSum(h, e.m)
}

// bestScale returns the multiple s ≥ 0 of A that minimizes P(s·A) and
// that value, given that e.pm holds A's pair values and a2 = ‖A‖²_F; s = 1
// and p1 = P(A) when no multiple does better. Every s·A is PSD, so s·A is
// as valid a primal point as A: near the optimum, A(q) leaves many margins
// just short of 1, and P(A(q)) − P* is first order in q's error, while a
// slightly larger multiple clears those hinges at a second-order cost
// (synthetic 5,000 × 200: 305 → 80 iterations to a relative gap of 1e-3,
// BenchmarkToGap).
//
// With margins u sorted ascending and s > 0, the top-m hinge sum takes the
// same terms at every s, T(s) = Σ_k c_k (1 − s·u_k)_+ with c_k = 1 for the
// ⌊m⌋ smallest margins, m − ⌊m⌋ for the next, 0 for the rest, and
//
//	f(s) = λ/2 s² a2 + T(s),  f'(s) = λ a2 s − Σ_{k: s u_k < 1} c_k u_k,
//
// is convex and piecewise quadratic: f' rises with s, jumping up by c_k u_k
// at s = 1/u_k. The minimizer is found by walking those kinks upward.
// It reorders e.hs.
func (e *evaluator) bestScale(a2, p1 float64) (s, p float64) {
	if a2 == 0 || !finite(a2) {
		return 1, p1
	}
	u := e.hs[:0]
	for t := range e.sim {
		u = append(u, e.margin(t))
	}
	e.keys = sortFloats(u, e.keys)
	fm := math.Floor(e.m)
	k, frac := int(fm), e.m-fm
	n := len(u)
	if k < n {
		if frac == 0 {
			n = k
		} else {
			n = k + 1
		}
	} else {
		k, frac = n, 0
	}
	c := func(j int) float64 {
		if j < k {
			return 1
		}
		return frac
	}
	// G = Σ c_k u_k over the terms active just above s0; start at s0 = 0.
	var g float64
	for j, v := range u[:n] {
		g += c(j) * v
	}
	la := e.lambda * a2
	s0 := 0.0
	for j := n - 1; j >= 0; j-- {
		if r := g / la; r <= s0 {
			break // f' ≥ 0 just above the last kink: the minimum is there
		} else if u[j] <= 0 || r*u[j] < 1 {
			s0 = r // f'(r) = 0 before the next kink (none for u ≤ 0)
			break
		}
		s0 = 1 / u[j]
		g -= c(j) * u[j]
		if j == 0 {
			s0 = max(s0, g/la)
		}
	}
	s = s0
	p = e.lambda / 2 * s * s * a2
	for j, v := range u[:n] {
		p += c(j) * max(0, 1-s*v)
	}
	if !(p < p1) || !finite(p) {
		return 1, p1
	}
	return s, p
}

// topSum returns the sum of the ⌊m⌋ largest entries of h (all ≥ 0) plus
// (m − ⌊m⌋) times the next one: max_{q∈[0,1]^len(h), Σq≤m} Σ q_i h_i.
// It reorders h.
func topSum(h []float64, m float64) float64 {
	fm := math.Floor(m)
	k := int(fm)
	var s float64
	if len(h) <= k {
		for _, v := range h {
			s += v
		}
		return s
	}
	n := len(h)
	selectNth(h, n-k-1)
	for _, v := range h[n-k:] {
		s += v
	}
	return s + (m-fm)*h[n-k-1]
}

// selectNth reorders h so that h[i] is the value a sort would put there,
// with every entry before it ≤ h[i] ≤ every entry after it: Hoare's
// selection with a median-of-three pivot, O(len(h)) on average where a sort
// cost O(len(h) log len(h)) (on 5,000 × 50 with 45,000 triplets the sort was
// a sixth of an iteration without assembly kernels). After 64 rounds, which
// only an adversarial order reaches, it sorts what is left.
func selectNth(h []float64, i int) {
	lo, hi := 0, len(h)-1
	for round := 0; lo < hi; round++ {
		if round == 64 {
			slices.Sort(h[lo : hi+1])
			return
		}
		mid := lo + (hi-lo)/2
		a, b, c := h[lo], h[mid], h[hi]
		pivot := max(min(a, b), min(max(a, b), c))
		l, r := lo, hi
		for l <= r {
			for h[l] < pivot {
				l++
			}
			for h[r] > pivot {
				r--
			}
			if l <= r {
				h[l], h[r] = h[r], h[l]
				l++
				r--
			}
		}
		// h[lo:r+1] ≤ pivot ≤ h[l:hi+1], and h[r+1:l] = pivot.
		switch {
		case i <= r:
			hi = r
		case i >= l:
			lo = l
		default:
			return
		}
	}
}

// primalAt returns P(A) for a symmetric d×d matrix A (row-major) that the
// caller guarantees is positive semidefinite.
func (e *evaluator) primalAt(a []float64) float64 {
	e.pairValuesAt(a)
	var f2 float64
	for _, v := range a {
		f2 += v * v
	}
	return e.lambda/2*f2 + e.hingeTop(nil)
}

// metricTo sets dst (d×d) to A(q) = π₊(M)/λ from the eigenpairs in e.
func (e *evaluator) metricTo(dst []float64) { e.positivePartTo(dst, 1/e.lambda) }

// positivePartTo sets dst (d×d) to s·π₊(M) = s Σ_{λ_k>0} λ_k v_k v_kᵀ from
// the eigenpairs of the matrix M the evaluator last decomposed.
func (e *evaluator) positivePartTo(dst []float64, s float64) {
	d := e.d
	clear(dst)
	first, _ := e.positive()
	for k := first; k < d; k++ {
		addOuterCol(dst, e.eigA, d, k, e.vals[k]*s)
	}
}

// addOuterCol adds l·v_k v_kᵀ to dst (n×n, row-major), v_k the k-th column
// of v (n×n, row-major): one eigenpair's term of a spectral sum.
func addOuterCol(dst, v []float64, n, k int, l float64) {
	for i := 0; i < n; i++ {
		vi := l * v[i*n+k]
		if vi == 0 {
			continue
		}
		row := dst[i*n : (i+1)*n]
		for j := range row {
			row[j] += vi * v[j*n+k]
		}
	}
}

// pairValuesAt sets e.pm[p] = e_pᵀ a e_p for a symmetric d×d matrix a.
func (e *evaluator) pairValuesAt(a []float64) {
	d := e.d
	// Z = X_t a (a symmetric: its rows are its columns);
	// e_pᵀ a e_p = (x_a − x_b)ᵀ (Z_a − Z_b).
	e.rowDots(e.z, a, d)
	for p := range e.pm {
		i, j := int(e.pa[p])*d, int(e.pb[p])*d
		var s float64
		for k := 0; k < d; k++ {
			s += (e.xt[i+k] - e.xt[j+k]) * (e.z[i+k] - e.z[j+k])
		}
		e.pm[p] = s
	}
}

// pairValuesOf is pairValuesAt for any symmetric matrix a.
func (e *evaluator) pairValuesOf(a mat.Symmetric) {
	d := e.d
	buf := make([]float64, d*d)
	for i := 0; i < d; i++ {
		for j := 0; j < d; j++ {
			buf[i*d+j] = a.At(i, j)
		}
	}
	e.pairValuesAt(buf)
}

// margin returns triplet t's margin tr(A K_t) = d_A(x, z) − d_A(x, y) from
// the pair values in e.pm (of A).
func (e *evaluator) margin(t int) float64 { return e.pm[e.dis[t]] - e.pm[e.sim[t]] }

// rowDots sets z (n_t×r) to X_t Wᵀ for w (r×d, row-major): z_kc = x_k · w_c.
//
// On js/wasm, and natively for short rows, four columns at a time, each x_k
// read once per four dot products: on js/wasm, which has no assembly
// kernels, a call per dot product cost more than its arithmetic (gradPrimal
// on 5,000 × 50: 31 → 9 ms with the selection in topSum; BenchmarkFormM),
// and natively it is faster for d = 20 and 50; for long rows (d = 200)
// gonum's assembly dot product is faster natively (23 ms against 30).
//
// Where UseKernels gave kernels (the page's workers: WebAssembly SIMD,
// wasm/simd), they compute it, to the same bits as rowDotsPaired.
//
// On js/wasm two rows of X_t go together (rowDotsPaired): each w_c entry
// read serves two dot products, 3.3 → 2.4 ms at r = 10 and 7.6 → 6.0 ms at
// r = 30 on 5,000 × 50 under Node; natively that was no faster (0.63 ms
// both at r = 10, 3.0 → 3.3 ms at r = 50), so it is not used there.
func (e *evaluator) rowDots(z, w []float64, r int) {
	if kernels != nil {
		kernels.RowDotsTo(z, e.xt, w, e.d, r)
		return
	}
	if runtime.GOARCH == "wasm" {
		rowDotsPaired(z, e.xt[:e.nt*e.d], w, e.d, r)
		return
	}
	// Natively a large product splits the rows of X_t between goroutines
	// (parallel.go); each entry is one dot product either way.
	parts := parallelParts(float64(e.nt) * float64(e.d) * float64(r))
	if parts == 1 {
		e.rowDotsRange(z, w, r, 0, e.nt)
		return
	}
	runParts(evenCuts(e.nt, parts), func(lo, hi int) { e.rowDotsRange(z, w, r, lo, hi) })
}

// rowDotsRange is rowDots natively for the rows k0 ≤ k < k1 of X_t.
func (e *evaluator) rowDotsRange(z, w []float64, r, k0, k1 int) {
	if e.d >= 128 {
		e.rowDotsBLAS(z, w, r, k0, k1)
	} else {
		e.rowDotsBlocked(z, w, r, k0, k1)
	}
}

// rowDotsBLAS is rowDots for the rows k0 ≤ k < k1 of X_t, by one gonum dot
// product per entry.
func (e *evaluator) rowDotsBLAS(z, w []float64, r, k0, k1 int) {
	d := e.d
	for k := k0; k < k1; k++ {
		xk := blas64.Vector{N: d, Inc: 1, Data: e.xt[k*d : (k+1)*d]}
		for c := 0; c < r; c++ {
			z[k*r+c] = blas64.Dot(xk, blas64.Vector{N: d, Inc: 1, Data: w[c*d : (c+1)*d]})
		}
	}
}

// rowDotsBlocked is rowDots for the rows k0 ≤ k < k1 of X_t, four columns
// at a time.
func (e *evaluator) rowDotsBlocked(z, w []float64, r, k0, k1 int) {
	d := e.d
	for k := k0; k < k1; k++ {
		xk := e.xt[k*d : (k+1)*d]
		zk := z[k*r : (k+1)*r]
		c := 0
		for ; c+4 <= r; c += 4 {
			w0, w1, w2, w3 := w[c*d:(c+1)*d], w[(c+1)*d:(c+2)*d], w[(c+2)*d:(c+3)*d], w[(c+3)*d:(c+4)*d]
			w0, w1, w2, w3 = w0[:len(xk)], w1[:len(xk)], w2[:len(xk)], w3[:len(xk)]
			var s0, s1, s2, s3 float64
			for j, v := range xk {
				s0 += v * w0[j]
				s1 += v * w1[j]
				s2 += v * w2[j]
				s3 += v * w3[j]
			}
			zk[c], zk[c+1], zk[c+2], zk[c+3] = s0, s1, s2, s3
		}
		dotsFrom(zk, xk, w, c)
	}
}

// dotsFrom sets zk[c] = xk · w_c for the columns c from c0 on (w's rows,
// len(xk) each), one at a time.
func dotsFrom(zk, xk, w []float64, c0 int) {
	d := len(xk)
	for c := c0; c < len(zk); c++ {
		wc := w[c*d : (c+1)*d]
		wc = wc[:len(xk)]
		var s float64
		for j, v := range xk {
			s += v * wc[j]
		}
		zk[c] = s
	}
}

// rowDotsPaired is GoKernels.RowDotsTo, rowDots two rows × four columns
// at a time (each entry sums its terms in rowDotsBlocked's order: the same
// results).
func rowDotsPaired(z, x, w []float64, d, r int) {
	nt := len(x) / d
	k := 0
	for ; k+2 <= nt; k += 2 {
		xk := x[k*d : (k+1)*d]
		xl := x[(k+1)*d : (k+2)*d]
		xl = xl[:len(xk)]
		zk, zl := z[k*r:(k+1)*r], z[(k+1)*r:(k+2)*r]
		c := 0
		for ; c+4 <= r; c += 4 {
			w0, w1, w2, w3 := w[c*d:(c+1)*d], w[(c+1)*d:(c+2)*d], w[(c+2)*d:(c+3)*d], w[(c+3)*d:(c+4)*d]
			w0, w1, w2, w3 = w0[:len(xk)], w1[:len(xk)], w2[:len(xk)], w3[:len(xk)]
			var s0, s1, s2, s3, t0, t1, t2, t3 float64
			for j, v := range xk {
				u := xl[j]
				a0, a1, a2, a3 := w0[j], w1[j], w2[j], w3[j]
				s0 += v * a0
				s1 += v * a1
				s2 += v * a2
				s3 += v * a3
				t0 += u * a0
				t1 += u * a1
				t2 += u * a2
				t3 += u * a3
			}
			zk[c], zk[c+1], zk[c+2], zk[c+3] = s0, s1, s2, s3
			zl[c], zl[c+1], zl[c+2], zl[c+3] = t0, t1, t2, t3
		}
		for ; c < r; c++ {
			wc := w[c*d : (c+1)*d]
			wc = wc[:len(xk)]
			var s, t float64
			for j, v := range xk {
				s += v * wc[j]
				t += xl[j] * wc[j]
			}
			zk[c], zl[c] = s, t
		}
	}
	if k < nt { // an odd row left
		dotsFrom(z[k*r:(k+1)*r], x[k*d:(k+1)*d], w, 0)
	}
}
