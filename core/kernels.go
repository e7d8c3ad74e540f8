package core

// Kernels are the evaluator's three innermost loops, which take most of an
// iteration on large problems: on the 5,000 × 50 upload under Node, 56 % of
// its time (a V8 profile of BenchmarkUpload: the outer products 22 %, the
// pass over the pairs 21 %, the row dot products 13 %). Go's js/wasm port
// compiles them to scalar code without vector instructions, so the page's
// worker supplies WebAssembly SIMD versions (package wasm/simd) through
// UseKernels.
//
// Every implementation must give GoKernels' results to the bit: each entry
// the same terms summed in the same order, with no fused multiply-add, so
// that a solve gives the same bits with any of them.
type Kernels interface {
	// OuterUpperTo sets dst (d×d, row-major) to the upper triangle of
	// Σ_{k ∈ rows} x_k y_kᵀ, x_k and y_k the k-th rows (length d) of x
	// and y, and 0 below the diagonal.
	OuterUpperTo(dst, x, y []float64, rows []int32, d int)
	// AddPairs does, for each pair p with w_p ≠ 0, a = pa[p], b = pb[p]:
	//
	//	v = w_p (x_a − x_b);  y_a += v;  y_b −= v
	//
	// (rows of length d), and appends to live each row a or b whose
	// isLive is false, setting it true, in that order; it returns live.
	// live has room for every row.
	AddPairs(y, x, w []float64, pa, pb []int32, isLive []bool, live []int32, d int) []int32
	// RowDotsTo sets z (n×r, row-major) to x wᵀ for x n×d and w r×d:
	// z_kc = Σ_j x_kj w_cj, summed from 0 in the order of j.
	RowDotsTo(z, x, w []float64, d, r int)
}

// GoKernels are the Kernels in Go, the evaluator's own: blocked so that
// each entry read serves several multiply-adds (see addOuterUpper).
type GoKernels struct{}

// OuterUpperTo implements Kernels.
func (GoKernels) OuterUpperTo(dst, x, y []float64, rows []int32, d int) {
	addOuterUpper(dst, x, y, rows, d)
}

// AddPairs implements Kernels.
func (GoKernels) AddPairs(y, x, w []float64, pa, pb []int32, isLive []bool, live []int32, d int) []int32 {
	return addPairs(y, x, w, pa, pb, isLive, live, d)
}

// RowDotsTo implements Kernels.
func (GoKernels) RowDotsTo(z, x, w []float64, d, r int) { rowDotsPaired(z, x, w, d, r) }

// kernels are the evaluator's kernels if UseKernels was given some; nil:
// its own loops (GoKernels, and gonum's dot products for long rows
// natively).
var kernels Kernels

// UseKernels makes every evaluation from now on use k (nil: the Go loops
// again). It is for a program's start, like gonum's blas64.Use: it must
// not be called while a solve runs.
func UseKernels(k Kernels) { kernels = k }
