package core

import (
	"context"
	"fmt"
	"math"
	"math/rand/v2"
	"slices"

	"gonum.org/v1/gonum/mat"

	"github.com/rml-lab/rml/spec"
)

// LambdaGrid is the paper's grid for λ: 2^-3, …, 2^6 and 100 (spec's).
var LambdaGrid = spec.LambdaGrid

// TripletOptions say how triplets are drawn from labels and corrupted.
type TripletOptions struct {
	KSame, KDiff int     // neighbours per point; defaults 3 and 3
	Flip         float64 // probability of swapping each triplet
	Seed         uint64  // seed of the swaps
}

func (o *TripletOptions) defaults() {
	if o.KSame == 0 {
		o.KSame = spec.KSame
	}
	if o.KDiff == 0 {
		o.KDiff = spec.KDiff
	}
}

// BuildProblem standardizes the given rows of x with their own mean and
// std, draws label triplets on them, swaps some as o says, and returns the
// problem (over those rows, in that order), the swap record and the
// standardizer (to map other rows the same way). It is Standardize, then
// LabelData, then Prepared.Problem.
func BuildProblem(x mat.Matrix, labels []int, classes []string, rows []int, o TripletOptions, eta, lambda float64) (*Problem, []bool, *Standardizer, error) {
	st, xs, err := Standardize(x, rows)
	if err != nil {
		return nil, nil, nil, err
	}
	pp, swapped, err := LabelData(context.Background(), nil, xs, SelectLabels(labels, rows), classes, o)
	if err != nil {
		return nil, nil, nil, err
	}
	return pp.Problem(eta, lambda), swapped, st, nil
}

// Standardize fits a standardizer on the given rows of x (nil: all) and
// returns it with those rows standardized. A NaN is a missing value
// (MissingMean): it standardizes to 0, the mean of its column's observed
// values on the rows. It refuses an infinite value, and data whose every
// feature is constant on the rows: no metric can tell them apart.
func Standardize(x mat.Matrix, rows []int) (*Standardizer, *mat.Dense, error) {
	n, d := x.Dims()
	if rows == nil {
		rows = make([]int, n)
		for i := range rows {
			rows[i] = i
		}
	}
	for _, i := range rows {
		for j := 0; j < d; j++ {
			if v := x.At(i, j); math.IsInf(v, 0) {
				return nil, nil, fmt.Errorf("row %d, column %d is %v: expected a finite number", i, j, v)
			}
		}
	}
	st := FitStandardizer(x, rows)
	if c := st.ConstantColumns(); len(c) == d {
		return nil, nil, fmt.Errorf("every feature (%d of %d) is constant on the %d training rows: there is no distance to learn", d, d, len(rows))
	}
	return st, st.Transform(SelectRows(x, rows)), nil
}

// LabelData draws label triplets on the (standardized) rows of x, swaps
// some as o says, and prepares the result: the problem's data for any η
// and λ, and the swap record. ctx stops the neighbour search; h reports it.
// It is LabelTripletsContext, then PrepareSwapped: a caller that keeps the
// triplets drawn (the search is O(n²·d)) calls the two itself.
func LabelData(ctx context.Context, h *Hooks, x *mat.Dense, labels []int, classes []string, o TripletOptions) (*Prepared, []bool, error) {
	o.defaults()
	ts, err := LabelTripletsContext(ctx, h, x, labels, classes, o.KSame, o.KDiff)
	if err != nil {
		return nil, nil, err
	}
	return PrepareSwapped(x, ts, o.Flip, o.Seed)
}

// PrepareSwapped swaps each of ts with probability flip (Flip, seeded; ts
// itself is not changed) and prepares the result on x. It returns the
// preparation and which triplets were swapped.
func PrepareSwapped(x *mat.Dense, ts []Triplet, flip float64, seed uint64) (*Prepared, []bool, error) {
	ts, swapped := Flip(ts, flip, seed)
	pp, err := Prepare(x, ts)
	if err != nil {
		return nil, nil, err
	}
	return pp, swapped, nil
}

// EvalOptions control Evaluate, the paper's protocol. Zero fields take the
// defaults beside them.
type EvalOptions struct {
	Triplets TripletOptions // defaults: 3, 3, Flip as given (the paper: 0.2)
	Eta      float64        // default 0.8
	Lambda   float64        // fixed λ; 0 chooses λ from Grid by cross-validation
	Grid     []float64      // default LambdaGrid
	Folds    int            // cross-validation folds on the training part; default 3
	Reps     int            // repetitions; default 10
	TestFrac float64        // default 0.15
	K        int            // kNN neighbours; default 5
	Seed     uint64         // seed of the splits (and, offset, of the swaps)
	Solver   Settings       // Tol defaults to 1e-4 here
}

// EvalReport is the outcome of Evaluate.
type EvalReport struct {
	EuclidErr, RMLErr []float64 // test error of each repetition
	Lambdas           []float64 // λ used in each repetition
	// Collapsed counts the repetitions whose learned metric collapsed to
	// A = 0 (DecideCollapse), and IsCollapsed says which: their "learned"
	// error is k-NN with every distance 0, a constant guess by the
	// training rows' order, not a metric's.
	Collapsed             int
	IsCollapsed           []bool
	EuclidMean, EuclidStd float64
	// RMLMean and RMLStd are over the repetitions that learned a metric
	// (NaN when none did).
	RMLMean, RMLStd float64
}

// Evaluate runs the paper's protocol on ds: Reps stratified splits
// (1−TestFrac train, TestFrac test); on each, triplets from the training
// part, λ fixed or chosen by cross-validation on the training part only, and
// the k-NN test error under the Euclidean and the learned metric. It is
// Compare for the solver's method and Euclid.
func Evaluate(ctx context.Context, ds *Dataset, o EvalOptions) (*EvalReport, error) {
	o.Triplets.defaults()
	if o.Solver.Tol == 0 {
		o.Solver.Tol = 1e-4
	}
	c, err := Compare(ctx, []string{""}, []*Dataset{ds}, CompareOptions{
		Methods: []Method{o.Solver.Method, Euclid}, Reps: o.Reps, Eta: o.Eta, Flip: o.Triplets.Flip, Seed: o.Seed,
		TestFrac: o.TestFrac, K: o.K, Folds: o.Folds, Grid: o.Grid, Lambda: o.Lambda,
		KSame: o.Triplets.KSame, KDiff: o.Triplets.KDiff, Tol: o.Solver.Tol, MaxIter: o.Solver.MaxIter,
	})
	if err != nil {
		return nil, err
	}
	rml, eu := c.Rows[0], c.Rows[1]
	rep := &EvalReport{EuclidErr: eu.Errors, RMLErr: rml.Errors, Lambdas: rml.Lambdas, Collapsed: rml.Collapsed, IsCollapsed: rml.IsCollapsed,
		EuclidMean: eu.Mean, EuclidStd: eu.Std}
	rep.RMLMean, rep.RMLStd, _ = rml.Learned()
	return rep, nil
}

// stratifiedFolds deals the given rows into k folds, class by class, after a
// seeded shuffle.
func stratifiedFolds(labels []int, rows []int, k int, seed uint64) [][]int {
	rng := rand.New(rand.NewPCG(seed, 0xf01d))
	folds := make([][]int, k)
	next := 0
	for _, idx := range shuffledByClass(labels, rows, rng) {
		for _, i := range idx {
			folds[next%k] = append(folds[next%k], i)
			next++
		}
	}
	for _, f := range folds {
		slices.Sort(f)
	}
	return folds
}
