package core

import (
	"context"
	"fmt"
	"math"
	"runtime"
	"slices"
	"sync"
	"time"

	"gonum.org/v1/gonum/mat"
	"gonum.org/v1/gonum/stat"

	"github.com/rml-lab/rml/spec"
)

// The paper's Section 5 protocol for its Table 2, for every method on the
// same noisy triplets: repeated 85/15 stratified splits; triplets from the
// training part, a fraction of them swapped; λ per method and repetition
// chosen on the training part only (or, as the paper leaves open, on the
// test part); the 5-NN test error under each learned metric.

// CompareTol is Compare's default tolerance of every solve (CompareOptions.Tol).
const CompareTol = 1e-3

// CompareOptions control Compare. Zero fields take the defaults beside them.
type CompareOptions struct {
	Methods  []Method // default: Fast, Gradient, LMNN, Xing, Euclid, BestCase
	Reps     int      // repetitions (random splits); default 10
	Eta      float64  // η for RML and the best case; default spec.Eta
	Flip     float64  // probability of swapping each triplet; negative: 1 − η, as the paper ties them
	Seed     uint64   // seed of the splits and the swaps
	TestFrac float64  // default spec.TestFrac
	K        int      // k-NN neighbours; default spec.KNN
	Folds    int      // cross-validation folds for λ; default 3 (rml table2 asks for 2)
	Grid     []float64
	// Lambda, if not 0, is every method's λ: no choice is made (the
	// paper's Figure 1 fixes λ = 2^6 so).
	Lambda float64
	// TuneOnTest chooses λ by the test error, the paper's looser, unstated
	// choice, instead of by cross-validation on the training part.
	TuneOnTest bool
	// TuneByAgreement chooses λ in the cross-validation by the held-out
	// fold's own triplets instead of its labels: the share of them the
	// metric orders as they say, each fold's label triplets swapped at the
	// rate Flip as the training triplets are. That is what a user without
	// labels has (answers to "which is closer?", some wrong).
	TuneByAgreement bool
	// PaperTriplets draws triplets as the paper describes (each point's
	// PaperK nearest, split by class) instead of LabelTriplets (KSame
	// nearest of the class × KDiff nearest of the others).
	PaperTriplets bool
	PaperK        int // default 5
	KSame, KDiff  int // defaults spec.KSame, spec.KDiff
	// Tol is every solve's tolerance (default CompareTol): a certified
	// relative gap for RML and LMNN, the stopping measure of the others.
	Tol float64
	// GradientIters caps RML_gd's iterations (default 2,000): it solves
	// RML's problem, with RML's λ, by projected gradient, which is slow.
	GradientIters int
	// LMNNIters caps LMNN's iterations (default 500): its certified gap
	// closes slowly where few triplets stay active (well-separated data).
	LMNNIters int
	// MaxIter, if not 0, caps every method's iterations instead.
	MaxIter int
	// CVTol, if not 0, is the tolerance of the cross-validation's solves
	// instead of Tol, and CVLMNNIters, if not 0, caps LMNN's iterations there
	// instead of LMNNIters; the final fit at the chosen λ keeps Tol and
	// LMNNIters. The cross-validation only ranks the grid's λ by a k-NN
	// error, and it is nearly all of a repetition's solves (Folds × 11
	// against 1): rml table2 asks for 1e-2 and 150, and runs the careful
	// one with --cv-tol 1e-3 --cv-lmnn-iters 500.
	CVTol       float64
	CVLMNNIters int
	// Agreement asks for each metric's held-out triplet agreement as
	// well (TripletAgreement on the label triplets of the evaluation rows,
	// none swapped): a measure that needs no labels at test time.
	Agreement bool
	Workers   int                   // parallel repetitions; default GOMAXPROCS
	Progress  func(done, total int) // after each repetition of each dataset
}

func (o *CompareOptions) defaults() {
	if o.Methods == nil {
		o.Methods = []Method{Fast, Gradient, LMNN, Xing, Euclid, BestCase}
	}
	if o.Reps == 0 {
		o.Reps = 10
	}
	if o.Eta == 0 {
		o.Eta = spec.Eta
	}
	if o.Flip < 0 {
		o.Flip = 1 - o.Eta
	}
	if o.TestFrac == 0 {
		o.TestFrac = spec.TestFrac
	}
	if o.K == 0 {
		o.K = spec.KNN
	}
	if o.Folds == 0 {
		o.Folds = 3
	}
	if o.Grid == nil {
		o.Grid = LambdaGrid
	}
	if o.PaperK == 0 {
		o.PaperK = 5
	}
	if o.KSame == 0 {
		o.KSame = spec.KSame
	}
	if o.KDiff == 0 {
		o.KDiff = spec.KDiff
	}
	if o.Tol == 0 {
		o.Tol = CompareTol
	}
	if o.GradientIters == 0 {
		o.GradientIters = 2000
	}
	if o.LMNNIters == 0 {
		o.LMNNIters = spec.LMNNIters
	}
	if o.Workers == 0 {
		o.Workers = runtime.GOMAXPROCS(0)
	}
}

// CompareRow is one method on one dataset over the repetitions.
type CompareRow struct {
	Dataset   string
	Method    Method
	Errors    []float64 // test error of each repetition
	Lambdas   []float64 // λ of each repetition (0 where the method has none)
	Mean, Std float64
	Seconds   float64 // time spent on this method, summed over repetitions (λ's choice included)
	// Collapsed counts the repetitions whose metric was zero to rounding
	// (Problem.Collapsed): every distance is then 0 and k-NN predicts by
	// the order of the training rows, a constant guess, not a result.
	Collapsed int
	// IsCollapsed says which repetitions collapsed (Collapsed counts them).
	IsCollapsed []bool
	// BudgetActive counts RML's repetitions whose budget Σq ≤ Nη bound at
	// the optimum (RML then differs from the plain hinge-loss problem).
	BudgetActive int
	// Extended counts the repetitions whose λ was chosen past the grid's
	// end (chooseLambdaFor): the grid alone would have cut the choice.
	Extended int
	// Agreements is each repetition's held-out triplet agreement
	// (CompareOptions.Agreement; nil otherwise).
	Agreements []float64
	Iterations []int // the final solve's iterations in each repetition
}

// Learned is the mean and standard deviation of the errors of the n
// repetitions that learned a metric: a collapsed one's error is k-NN's
// constant guess, not a metric's, and is left out (NaN, NaN when every
// repetition collapsed; the deviation is 0 for one).
func (r CompareRow) Learned() (mean, std float64, n int) {
	var errs []float64
	for i, e := range r.Errors {
		if i >= len(r.IsCollapsed) || !r.IsCollapsed[i] {
			errs = append(errs, e)
		}
	}
	switch len(errs) {
	case 0:
		return math.NaN(), math.NaN(), 0
	case 1:
		return errs[0], 0, 1
	}
	mean, std = stat.MeanStdDev(errs, nil)
	return mean, std, len(errs)
}

// CompareReport is the outcome of Compare: a row per dataset and method, in
// the order given.
type CompareReport struct {
	Rows    []CompareRow
	Options CompareOptions
}

// Compare runs the protocol on each dataset for each method. Repetitions
// run in parallel (o.Workers); each is seeded on its own, so the report is
// the same for any number of workers.
func Compare(ctx context.Context, names []string, data []*Dataset, o CompareOptions) (*CompareReport, error) {
	o.defaults()
	type unit struct{ d, r int }
	results := make([][]repOutcome, len(data))
	for d := range data {
		results[d] = make([]repOutcome, o.Reps)
	}
	units := make(chan unit)
	var (
		wg       sync.WaitGroup
		mu       sync.Mutex
		firstErr error
		done     int
	)
	for w := 0; w < o.Workers; w++ {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for u := range units {
				out, err := compareRep(ctx, data[u.d], o, u.r)
				mu.Lock()
				if err != nil && firstErr == nil {
					firstErr = fmt.Errorf("%s, repetition %d: %w", names[u.d], u.r+1, err)
				}
				results[u.d][u.r] = out
				done++
				if o.Progress != nil {
					o.Progress(done, len(data)*o.Reps)
				}
				mu.Unlock()
			}
		}()
	}
feed:
	for d := range data {
		for r := 0; r < o.Reps; r++ {
			mu.Lock()
			stop := firstErr != nil
			mu.Unlock()
			if stop || ctx.Err() != nil {
				break feed
			}
			units <- unit{d, r}
		}
	}
	close(units)
	wg.Wait()
	if firstErr != nil {
		return nil, firstErr
	}
	if err := ctx.Err(); err != nil {
		return nil, err
	}
	rep := &CompareReport{Options: o}
	for d := range data {
		for m, method := range o.Methods {
			rep.Rows = append(rep.Rows, compareRow(names[d], method, m, results[d], o))
		}
	}
	return rep, nil
}

// compareRow gathers method's figures (the m-th of each outcome) over the
// repetitions of one dataset.
func compareRow(name string, method Method, m int, outs []repOutcome, o CompareOptions) CompareRow {
	row := CompareRow{Dataset: name, Method: method}
	for _, out := range outs {
		row.Errors = append(row.Errors, out.errs[m])
		row.Lambdas = append(row.Lambdas, out.lambdas[m])
		row.Seconds += out.secs[m]
		row.Iterations = append(row.Iterations, out.iters[m])
		row.IsCollapsed = append(row.IsCollapsed, out.collapsed[m])
		if out.collapsed[m] {
			row.Collapsed++
		}
		if out.active[m] {
			row.BudgetActive++
		}
		if out.extended[m] {
			row.Extended++
		}
		if o.Agreement {
			row.Agreements = append(row.Agreements, out.agree[m])
		}
	}
	row.Mean, row.Std = stat.MeanStdDev(row.Errors, nil)
	if len(row.Errors) == 1 {
		row.Std = 0
	}
	return row
}

// repOutcome is one repetition's figures, one entry per method.
type repOutcome struct {
	errs, lambdas, secs []float64
	collapsed, active   []bool
	extended            []bool
	iters               []int
	agree               []float64
}

// split is one training part made ready: standardized, its triplets
// prepared, and the rows to score on standardized the same way.
type split struct {
	xTrain, xEval *mat.Dense
	yTrain, yEval []int
	prep          *Prepared
	// evalTriplets are the label triplets of the evaluation rows, none
	// swapped (CompareOptions.Agreement); evalNoisy the same swapped at
	// the rate Flip (CompareOptions.TuneByAgreement).
	evalTriplets, evalNoisy []Triplet
	// rmlQ is RML's dual solution on this split by λ, once solved: the best
	// case at the same λ starts from it. Its start is the η = 1 solution,
	// which RML's is wherever the budget does not bind (nearly every
	// repetition of the default table: docs/table2.md counts them) and
	// which it is close to otherwise; warm-started from the previous λ's
	// instead, the start took a large share of the best case's iterations.
	rmlQ map[float64][]float64
	// lmnnA is LMNN's metric on this split by λ, once solved. LMNN's
	// 500 iterations end far from its optimum from a cold start (on a Sonar
	// fold at λ = 1, F = 14.9 from I and 1.42 from the best multiple of I,
	// against 0.37 along the λ path), so cross-validation warm-starts it
	// from the previous λ's metric, as RML's q, and the final fit starts
	// from the folds' mean metric at the chosen λ (lmnnStart).
	lmnnA map[float64]*mat.SymDense
}

// newSplit standardizes the training rows, draws and swaps their triplets
// (seeded), and standardizes the evaluation rows with the same map; with
// heldOut, it also draws the evaluation rows' label triplets, clean and
// swapped at the rate o.Flip (evalTriplets, evalNoisy): the final split's
// score its metric (Agreement), the folds' choose λ (TuneByAgreement).
func newSplit(ctx context.Context, ds *Dataset, train, eval []int, o CompareOptions, seed uint64, heldOut bool) (*split, error) {
	st, xTr, err := Standardize(ds.X, train)
	if err != nil {
		return nil, err
	}
	yTr := SelectLabels(ds.Labels, train)
	var ts []Triplet
	if o.PaperTriplets {
		ts, err = PaperTripletsContext(ctx, nil, xTr, yTr, o.PaperK)
	} else {
		ts, err = LabelTripletsContext(ctx, nil, xTr, yTr, ds.Classes, o.KSame, o.KDiff)
	}
	if err != nil {
		return nil, err
	}
	ts, _ = Flip(ts, o.Flip, seed)
	pp, err := Prepare(xTr, ts)
	if err != nil {
		return nil, err
	}
	sp := &split{xTrain: xTr, xEval: st.Transform(SelectRows(ds.X, eval)), yTrain: yTr, yEval: SelectLabels(ds.Labels, eval), prep: pp}
	if heldOut {
		if sp.evalTriplets, err = LabelTripletsContext(ctx, nil, sp.xEval, sp.yEval, ds.Classes, o.KSame, o.KDiff); err != nil {
			return nil, fmt.Errorf("the evaluation rows' triplets: %w", err)
		}
		sp.evalNoisy, _ = Flip(sp.evalTriplets, o.Flip, seed^0xa9ee)
	}
	return sp, nil
}

// score solves sp's problem with method at λ (warm, if not nil, is the
// start and receives the solution's q, for LMNN its metric A, d×d; the best
// case starts from RML's q at λ on sp instead, when RML has been solved
// there) and returns the k-NN error on the evaluation rows, with the
// result.
func (sp *split) score(ctx context.Context, method Method, lambda float64, o CompareOptions, warm *[]float64) (float64, *Result, error) {
	k := min(o.K, len(sp.yTrain))
	if method == Euclid {
		e, err := KNNError(nil, sp.xTrain, sp.yTrain, sp.xEval, sp.yEval, k)
		return e, &Result{Method: Euclid, Status: Converged, A: identity(sp.xTrain.RawMatrix().Cols)}, err
	}
	s := o.settings(method)
	d := sp.xTrain.RawMatrix().Cols
	switch {
	case warm == nil:
	case method == LMNN && len(*warm) == d*d:
		s.Start = mat.NewSymDense(d, slices.Clone(*warm))
	case len(*warm) == len(sp.prep.Triplets) && (method == Fast || method == Nesterov || method == Gradient || method == BestCase || method == Hinge):
		s.Warm = *warm
	}
	if q, ok := sp.rmlQ[lambda]; ok && method == BestCase {
		s.Warm = q
	}
	if !hasLambda(method) {
		lambda = 1 // unused by the method; Validate asks for one
	}
	res, err := Solve(ctx, sp.prep.Problem(o.Eta, lambda), s)
	if err != nil {
		return 0, nil, err
	}
	if res.Status == Cancelled {
		return 0, nil, ctx.Err()
	}
	switch {
	case warm == nil:
	case method == LMNN && res.A != nil:
		// The data of the metric kept in sp.lmnnA, not a copy: the next
		// start copies it (above), and nothing writes to either.
		*warm = res.A.RawSymmetric().Data
	case res.Q != nil:
		*warm = res.Q
	}
	if method == LMNN && res.A != nil {
		if sp.lmnnA == nil {
			sp.lmnnA = map[float64]*mat.SymDense{}
		}
		sp.lmnnA[lambda] = res.A
	}
	if method == Fast && res.Q != nil {
		if sp.rmlQ == nil {
			sp.rmlQ = map[float64][]float64{}
		}
		sp.rmlQ[lambda] = res.Q
	}
	e, err := KNNError(res.A, sp.xTrain, sp.yTrain, sp.xEval, sp.yEval, k)
	return e, res, err
}

// settings are the settings of every solve of method.
func (o CompareOptions) settings(method Method) Settings {
	s := Settings{Method: method, Tol: o.Tol, MaxIter: o.MaxIter}
	switch {
	case o.MaxIter != 0:
	case method == Gradient:
		s.MaxIter = o.GradientIters
	case method == LMNN:
		s.MaxIter = o.LMNNIters
	}
	return s
}

// hasLambda says whether a method has a λ to choose.
func hasLambda(m Method) bool { return m != Xing && m != Euclid }

// compareRep runs one repetition of the protocol for every method.
func compareRep(ctx context.Context, ds *Dataset, o CompareOptions, r int) (repOutcome, error) {
	seed := o.Seed*1000 + uint64(r)
	train, test := StratifiedSplit(ds.Labels, o.TestFrac, seed)
	n := len(o.Methods)
	out := repOutcome{errs: make([]float64, n), lambdas: make([]float64, n), secs: make([]float64, n),
		collapsed: make([]bool, n), active: make([]bool, n), extended: make([]bool, n), iters: make([]int, n), agree: make([]float64, n)}
	final, err := newSplit(ctx, ds, train, test, o, seed, o.Agreement)
	if err != nil {
		return out, err
	}
	// λ by cross-validation on the training part (or on the test part).
	var folds []*split
	if !o.TuneOnTest && o.Lambda == 0 {
		fs := stratifiedFolds(ds.Labels, train, o.Folds, seed)
		for f := range fs {
			var inner []int
			for g, fold := range fs {
				if g != f {
					inner = append(inner, fold...)
				}
			}
			slices.Sort(inner)
			sp, err := newSplit(ctx, ds, inner, fs[f], o, seed*31+uint64(f), o.TuneByAgreement)
			if err != nil {
				return out, fmt.Errorf("choosing λ: %w", err)
			}
			folds = append(folds, sp)
		}
	}
	rmlLambda := 0.0
	for m, method := range o.Methods {
		start := time.Now()
		lambda := 0.0
		switch {
		case o.Lambda != 0 && hasLambda(method):
			lambda = o.Lambda
		case method == Gradient && rmlLambda > 0:
			lambda = rmlLambda // the same problem as RML's: its λ
		case hasLambda(method):
			var err error
			if lambda, out.extended[m], err = chooseLambdaFor(ctx, method, final, folds, o); err != nil {
				return out, err
			}
		}
		if method == Fast {
			rmlLambda = lambda
		}
		var from *[]float64
		if method == LMNN {
			from = lmnnStart(final, folds, lambda)
		}
		e, res, err := final.score(ctx, method, lambda, o, from)
		if err != nil {
			return out, fmt.Errorf("%v: %w", method, err)
		}
		if method != Euclid && method != Xing {
			// Whether the metric collapsed to A = 0 is decided by the
			// certificate, solving closer where the run's tolerance
			// left it in doubt (and then scoring the closer metric).
			decided, collapsed, err := DecideCollapse(ctx, final.prep.Problem(o.Eta, lambda), res, o.settings(method))
			if err != nil {
				return out, fmt.Errorf("%v: %w", method, err)
			}
			if decided != res {
				res = decided
				if e, err = KNNError(res.A, final.xTrain, final.yTrain, final.xEval, final.yEval, min(o.K, len(final.yTrain))); err != nil {
					return out, err
				}
			}
			out.collapsed[m] = collapsed
		}
		out.errs[m], out.lambdas[m], out.iters[m] = e, lambda, res.Iter
		if o.Agreement {
			out.agree[m] = TripletAgreement(res.A, final.xEval, final.evalTriplets)
		}
		out.active[m] = (method == Fast || method == Gradient || method == Nesterov) && res.BudgetActive
		out.secs[m] = time.Since(start).Seconds()
	}
	return out, nil
}

// lmnnStart returns LMNN's start for the final fit at λ (as score's warm):
// its own metric at λ if it was solved there (λ tuned on the test part),
// else the mean of the folds' metrics at λ (each PSD, so their mean is;
// all learned on parts of the same training rows); nil (the default start)
// if neither was solved.
func lmnnStart(final *split, folds []*split, lambda float64) *[]float64 {
	if a, ok := final.lmnnA[lambda]; ok {
		s := slices.Clone(a.RawSymmetric().Data)
		return &s
	}
	var sum []float64
	for _, f := range folds {
		a, ok := f.lmnnA[lambda]
		if !ok {
			return nil
		}
		if sum == nil {
			sum = make([]float64, len(a.RawSymmetric().Data))
		}
		for i, v := range a.RawSymmetric().Data {
			sum[i] += v / float64(len(folds))
		}
	}
	if sum == nil {
		return nil
	}
	return &sum
}

// chooseLambdaFor returns the λ of the grid with the lowest k-NN error
// (with o.TuneByAgreement, the lowest share of the fold's noisy triplets
// disordered): summed over the folds (each solved from the largest λ down, warm-started
// where the method allows), or on the test part when o.TuneOnTest. Ties go
// to the larger λ. When the best λ is the grid's largest or smallest and
// strictly better than its neighbour, the grid goes on past it by factors
// of 4, up to maxExtend steps, for as long as each step is strictly
// better: extended says so.
func chooseLambdaFor(ctx context.Context, method Method, final *split, folds []*split, o CompareOptions) (lambda float64, extended bool, err error) {
	grid := slices.Clone(o.Grid)
	slices.Sort(grid)
	slices.Reverse(grid)
	sets := folds
	if o.TuneOnTest {
		sets = []*split{final}
	} else {
		o = o.forCV()
	}
	// cvError is the error at λ summed over the sets (warm: each set's
	// start, nil for a cold one).
	cvError := func(l float64, warm [][]float64) (float64, error) {
		sum := 0.0
		for i, sp := range sets {
			var w *[]float64
			if warm != nil {
				w = &warm[i]
			}
			e, res, err := sp.score(ctx, method, l, o, w)
			if err != nil {
				return 0, fmt.Errorf("%v, choosing λ (λ = %g): %w", method, l, err)
			}
			if o.TuneByAgreement && !o.TuneOnTest {
				e = 1 - TripletAgreement(res.A, sp.xEval, sp.evalNoisy)
			}
			sum += e
		}
		return sum, nil
	}
	errs := make([]float64, len(grid))
	warm := make([][]float64, len(sets))
	for gi, l := range grid {
		if errs[gi], err = cvError(l, warm); err != nil {
			return 0, false, err
		}
	}
	best := 0
	for gi := range grid {
		if errs[gi] < errs[best]-1e-12 {
			best = gi
		}
	}
	lambda = grid[best]
	if len(grid) < 2 || (best != 0 && best != len(grid)-1) {
		return lambda, false, nil
	}
	// At an end: go on past it while that is strictly better.
	factor, inner := 4.0, errs[1]
	if best == len(grid)-1 {
		factor, inner = 0.25, errs[len(grid)-2]
	}
	return extendPast(lambda, factor, errs[best], inner, func(l float64) (float64, error) { return cvError(l, nil) })
}

// extendPast goes on from λ, an end of the grid with error at and its
// neighbour's inner, by factor at a time (cv gives the error at a λ), up
// to maxExtend steps, while λ's error is strictly below the last one's,
// and returns the best λ and whether it moved.
func extendPast(lambda, factor, at, inner float64, cv func(float64) (float64, error)) (float64, bool, error) {
	extended := false
	for range maxExtend {
		if !(at < inner-1e-12) {
			break
		}
		next := lambda * factor
		e, err := cv(next)
		if err != nil {
			return 0, false, err
		}
		if !(e < at-1e-12) {
			break
		}
		lambda, inner, at, extended = next, at, e, true
	}
	return lambda, extended, nil
}

// maxExtend is how many factors of 4 chooseLambdaFor goes past the grid's
// end (4⁵ = 1024: from 100 to 102,400, from 2⁻³ to 2⁻¹³).
const maxExtend = 5

// forCV returns the options of the cross-validation's solves: o with
// CVTol and CVLMNNIters in place of Tol and LMNNIters where they are set.
func (o CompareOptions) forCV() CompareOptions {
	if o.CVTol != 0 {
		o.Tol = o.CVTol
	}
	if o.CVLMNNIters != 0 {
		o.LMNNIters = o.CVLMNNIters
	}
	return o
}

// PaperTable2 is the paper's Table 2 (test error in %, mean ± std over 10
// repetitions, η = 0.8), by dataset and method: RML_nes, RML_gd, LMNN,
// Xing, EUCL.
var PaperTable2 = map[string]map[Method][2]float64{
	"sonar":      {Fast: {17.42, 5.73}, Gradient: {17.96, 5.25}, LMNN: {36.45, 7.91}, Xing: {17.42, 6.31}, Euclid: {19.68, 6.17}},
	"iris":       {Fast: {1.82, 3.18}, Gradient: {1.97, 3.53}, LMNN: {2.27, 3.21}, Xing: {2.73, 2.36}, Euclid: {2.73, 2.58}},
	"ionosphere": {Fast: {11.13, 4.12}, Gradient: {11.13, 4.12}, LMNN: {11.89, 4.27}, Xing: {13.77, 3.78}, Euclid: {14.15, 4.81}},
	"heart":      {Fast: {16.00, 7.38}, Gradient: {15.93, 6.32}, LMNN: {17.50, 5.00}, Xing: {19.75, 7.12}, Euclid: {17.55, 6.39}},
	"wine":       {Fast: {1.48, 2.59}, Gradient: {1.81, 2.52}, LMNN: {6.67, 5.74}, Xing: {2.96, 1.56}, Euclid: {4.07, 4.43}},
}
