package core

import (
	"context"
	"errors"
	"fmt"
	"math"
	"slices"

	"gonum.org/v1/gonum/mat"
)

// ErrEigen is returned when an eigendecomposition of the data does not
// converge (or its numbers are out of range).
var ErrEigen = errors.New("an eigendecomposition did not converge: the numbers are out of range")

// factorize is mat.EigenSym.Factorize with vectors (gonum v0.17.0's
// eigenvalues-only path can panic on valid input: see evaluator.eigen),
// reporting a panic as a failure.
func factorize(es *mat.EigenSym, a mat.Symmetric) (ok bool) {
	defer func() {
		if recover() != nil {
			ok = false
		}
	}()
	return es.Factorize(a, true)
}

// Eigenvalues returns the eigenvalues of the symmetric matrix a, largest
// first, or ErrEigen.
func Eigenvalues(a mat.Symmetric) ([]float64, error) {
	var es mat.EigenSym
	if !factorize(&es, a) {
		return nil, ErrEigen
	}
	v := es.Values(nil)
	slices.Reverse(v)
	return v, nil
}

// SqrtTo sets dst to the symmetric square root A^{1/2} of a PSD matrix a
// (negative rounding noise in the eigenvalues is clipped to zero):
//
//	A^{1/2} = Σ_k √λ_k v_k v_kᵀ = W Wᵀ,  W = V·diag(λ_+^{1/4}),
//
// formed by one symmetric rank-k update. It returns the eigenvalues of a,
// largest first (as Eigenvalues does), from the same factorization, or
// ErrEigen (dst is then unchanged).
func SqrtTo(dst *mat.SymDense, a mat.Symmetric) ([]float64, error) {
	var es mat.EigenSym
	if !factorize(&es, a) {
		return nil, ErrEigen
	}
	vals := es.Values(nil)
	var w mat.Dense
	es.VectorsTo(&w)
	n := len(vals)
	for k, l := range vals {
		f := 0.0
		if l > 0 {
			f = math.Sqrt(math.Sqrt(l))
		}
		for i := 0; i < n; i++ {
			w.Set(i, k, f*w.At(i, k))
		}
	}
	dst.Reset()
	dst.SymOuterK(1, &w)
	slices.Reverse(vals)
	return vals, nil
}

// mapRows returns x·A^{1/2}: Euclidean distances between its rows are the
// distances d_A between the rows of x. A nil a means the identity.
func mapRows(x mat.Matrix, a mat.Symmetric) (*mat.Dense, error) {
	var out mat.Dense
	if a == nil {
		out.CloneFrom(x)
		return &out, nil
	}
	var s mat.SymDense
	if _, err := SqrtTo(&s, a); err != nil {
		return nil, err
	}
	out.Mul(x, &s)
	return &out, nil
}

// KNNClassify predicts the class of each test row by the k nearest training
// rows under d_A (nil a: Euclidean). Votes are tied in favour of the class of
// the nearest neighbour among the tied classes; distance ties go to the lower
// training index.
func KNNClassify(a mat.Symmetric, xTrain *mat.Dense, yTrain []int, xTest *mat.Dense, k int) ([]int, error) {
	return KNNClassifyContext(context.Background(), nil, a, xTrain, yTrain, xTest, k)
}

// KNNClassifyContext is KNNClassify, one test row after another through h
// (its progress, and on js/wasm its yields; nil: none), in parallel on
// the machine's cores natively. It stops with ctx's error when ctx is
// cancelled.
func KNNClassifyContext(ctx context.Context, h *Hooks, a mat.Symmetric, xTrain *mat.Dense, yTrain []int, xTest *mat.Dense, k int) ([]int, error) {
	nTr, _ := xTrain.Dims()
	if k < 1 || k > nTr {
		panic(fmt.Sprintf("core: k = %d outside 1..%d", k, nTr))
	}
	tr, err := mapRows(xTrain, a)
	if err != nil {
		return nil, err
	}
	te, err := mapRows(xTest, a)
	if err != nil {
		return nil, err
	}
	nTe, _ := te.Dims()
	out := make([]int, nTe)
	// The k nearest by a bounded heap (selector), not a sort of all nTr:
	// a distance stops as soon as its partial sum passes the k-th nearest
	// so far, which it can then never beat (every term is ≥ 0). The kept
	// set and its order are the sort's: the same distances, compared the
	// same way (cmpNeighbour; TestKNNMatchesSort).
	type scratch struct {
		sel   selector
		votes map[int]int
	}
	err = eachRow(ctx, h, nTe, func() *scratch { return &scratch{votes: map[int]int{}} }, func(i int, sc *scratch) {
		xi := te.RawRowView(i)
		sc.sel.reset(k)
		for j := 0; j < nTr; j++ {
			bound := sc.sel.bound()
			if s := dist2(xi, tr.RawRowView(j), bound); s <= bound {
				sc.sel.offer(neighbour{s, j})
			}
		}
		nearest := sc.sel.sorted()
		clear(sc.votes)
		best, bestVotes := -1, 0
		for _, nb := range nearest {
			sc.votes[yTrain[nb.i]]++
		}
		// Walk neighbours nearest first so the nearest wins a tie.
		for _, nb := range nearest {
			c := yTrain[nb.i]
			if sc.votes[c] > bestVotes {
				best, bestVotes = c, sc.votes[c]
			}
		}
		out[i] = best
	})
	if err != nil {
		return nil, err
	}
	return out, nil
}

// KNNError returns the fraction of test rows that k-NN under d_A misclassifies.
func KNNError(a mat.Symmetric, xTrain *mat.Dense, yTrain []int, xTest *mat.Dense, yTest []int, k int) (float64, error) {
	return KNNErrorContext(context.Background(), nil, a, xTrain, yTrain, xTest, yTest, k)
}

// KNNErrorContext is KNNError through KNNClassifyContext.
func KNNErrorContext(ctx context.Context, h *Hooks, a mat.Symmetric, xTrain *mat.Dense, yTrain []int, xTest *mat.Dense, yTest []int, k int) (float64, error) {
	pred, err := KNNClassifyContext(ctx, h, a, xTrain, yTrain, xTest, k)
	if err != nil {
		return 0, err
	}
	wrong := 0
	for i, p := range pred {
		if p != yTest[i] {
			wrong++
		}
	}
	return float64(wrong) / float64(len(yTest)), nil
}

// Project returns 2-D coordinates (n×2) of the rows of x: the first two
// principal components of x·A^{1/2}, so that plotted distances follow d_A
// (nil a: Euclidean). Centre and axes come from the rows listed in fit (nil:
// all). Each axis's sign is fixed so that its largest-magnitude loading is
// positive, so the same input always gives the same picture.
func Project(x *mat.Dense, a mat.Symmetric, fit []int) (*mat.Dense, error) {
	y, err := mapRows(x, a)
	if err != nil {
		return nil, err
	}
	n, d := y.Dims()
	if fit == nil {
		fit = make([]int, n)
		for i := range fit {
			fit[i] = i
		}
	}
	mean := make([]float64, d)
	for _, i := range fit {
		for j, v := range y.RawRowView(i) {
			mean[j] += v
		}
	}
	for j := range mean {
		mean[j] /= float64(len(fit))
	}
	// cov = Σ_{i∈fit} (y_i − μ)(y_i − μ)ᵀ, by one rank-k update.
	centred := mat.NewDense(len(fit), d, nil)
	for r, i := range fit {
		row := centred.RawRowView(r)
		for j, v := range y.RawRowView(i) {
			row[j] = v - mean[j]
		}
	}
	var cov mat.SymDense
	cov.SymOuterK(1, centred.T())
	var es mat.EigenSym
	if !factorize(&es, &cov) {
		return nil, ErrEigen
	}
	var vec mat.Dense
	es.VectorsTo(&vec)
	out := mat.NewDense(n, 2, nil)
	for c := 0; c < 2 && c < d; c++ {
		col := d - 1 - c // eigenvalues ascend
		big, sign := 0.0, 1.0
		for j := 0; j < d; j++ {
			if v := vec.At(j, col); math.Abs(v) > big+1e-12 {
				big, sign = math.Abs(v), math.Copysign(1, v)
			}
		}
		for i := 0; i < n; i++ {
			var s float64
			for j, v := range y.RawRowView(i) {
				s += (v - mean[j]) * vec.At(j, col)
			}
			out.Set(i, c, sign*s)
		}
	}
	return out, nil
}

// Suspect is one triplet with its loss under the learned metric.
type Suspect struct {
	Index   int     // into the problem's triplets
	Margin  float64 // tr(A K_i) = d_A(x,z) − d_A(x,y)
	Loss    float64 // hinge loss (1 − margin)_+
	Swapped bool    // whether the triplet was swapped by Flip (if known)
}

// Suspects ranks the triplets of p by their hinge loss under a, largest
// first (ties by index): the triplets the metric least believes. If swapped
// is not nil, precision is the fraction of the first S suspects that were
// really swapped, S = the number swapped (NaN if none were).
func Suspects(p *Problem, a mat.Symmetric, swapped []bool) (list []Suspect, precision float64) {
	e := newEvaluator(p)
	e.pairValuesOf(a)
	list = make([]Suspect, len(p.Triplets))
	for t := range list {
		m := e.margin(t)
		list[t] = Suspect{Index: t, Margin: m, Loss: max(0, 1-m)}
		if swapped != nil {
			list[t].Swapped = swapped[t]
		}
	}
	slices.SortStableFunc(list, func(a, b Suspect) int {
		switch {
		case a.Loss > b.Loss:
			return -1
		case a.Loss < b.Loss:
			return 1
		case a.Margin < b.Margin:
			return -1
		case a.Margin > b.Margin:
			return 1
		}
		return 0
	})
	precision = math.NaN()
	if swapped != nil {
		s := 0
		for _, v := range swapped {
			if v {
				s++
			}
		}
		if s > 0 {
			hit := 0
			for _, v := range list[:s] {
				if v.Swapped {
					hit++
				}
			}
			precision = float64(hit) / float64(s)
		}
	}
	return list, precision
}
