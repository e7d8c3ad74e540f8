package core

import (
	"context"
	"math"
	"reflect"
	"slices"
	"testing"

	"gonum.org/v1/gonum/mat"
)

// The protocol on Iris, two repetitions: one row per method; every λ from
// the grid where the method has one, none where it has not; RML_gd uses
// RML's λ (it solves the same problem); errors are shares of the 24
// held-out rows; and the report does not depend on the number of workers
// (LMNN's warm starts along the λ path and from the folds' mean included).
func TestCompareIris(t *testing.T) {
	_, ds := loadStd(t, "iris.csv")
	o := CompareOptions{Reps: 2, Seed: 5, Methods: []Method{Fast, Gradient, Xing, Euclid, LMNN}}
	one := o
	one.Workers = 1
	a, err := Compare(context.Background(), []string{"iris"}, []*Dataset{ds}, one)
	if err != nil {
		t.Fatal(err)
	}
	two := o
	two.Workers = 2
	b, err := Compare(context.Background(), []string{"iris"}, []*Dataset{ds}, two)
	if err != nil {
		t.Fatal(err)
	}
	if len(a.Rows) != 5 {
		t.Fatalf("%d rows", len(a.Rows))
	}
	for i := range a.Rows {
		ra, rb := a.Rows[i], b.Rows[i]
		if !reflect.DeepEqual(ra.Errors, rb.Errors) || !reflect.DeepEqual(ra.Lambdas, rb.Lambdas) {
			t.Errorf("%v: one worker %v %v, two %v %v", ra.Method, ra.Errors, ra.Lambdas, rb.Errors, rb.Lambdas)
		}
		for r, e := range ra.Errors {
			if k := e * 24; k != float64(int(k)) {
				t.Errorf("%v, repetition %d: error %v is not a share of 24 rows", ra.Method, r, e)
			}
			l := ra.Lambdas[r]
			switch ra.Method {
			case Fast, LMNN:
				if !inGrid(l) {
					t.Errorf("%v's λ %v is not from the grid", ra.Method, l)
				}
			case Gradient:
				if l != a.Rows[0].Lambdas[r] {
					t.Errorf("RML_gd's λ %v, RML's %v", l, a.Rows[0].Lambdas[r])
				}
			default:
				if l != 0 {
					t.Errorf("%v has a λ: %v", ra.Method, l)
				}
			}
		}
	}
}

func inGrid(l float64) bool {
	for _, g := range LambdaGrid {
		if g == l {
			return true
		}
	}
	return false
}

// LMNN's final fit starts from its own metric at λ where the final split was
// solved there (λ tuned on the test part), else from the folds' mean metric
// at λ, else from the default (nil).
func TestLMNNStartMean(t *testing.T) {
	sym := func(v ...float64) *mat.SymDense { return mat.NewSymDense(2, v) }
	f1 := &split{lmnnA: map[float64]*mat.SymDense{1: sym(1, 0, 0, 3), 2: sym(9, 9, 9, 9)}}
	f2 := &split{lmnnA: map[float64]*mat.SymDense{1: sym(3, 2, 2, 1)}}
	final := &split{}
	got := lmnnStart(final, []*split{f1, f2}, 1)
	if got == nil || !reflect.DeepEqual(*got, []float64{2, 1, 1, 2}) {
		t.Errorf("the folds' mean at λ = 1: %v, want [2 1 1 2]", got)
	}
	if got := lmnnStart(final, []*split{f1, f2}, 2); got != nil {
		t.Errorf("λ = 2, solved on one fold of two: %v, want nil", *got)
	}
	if got := lmnnStart(final, nil, 1); got != nil {
		t.Errorf("no folds: %v, want nil", *got)
	}
	final.lmnnA = map[float64]*mat.SymDense{1: sym(5, 0, 0, 5)}
	if got := lmnnStart(final, []*split{f1, f2}, 1); got == nil || !reflect.DeepEqual(*got, []float64{5, 0, 0, 5}) {
		t.Errorf("the final split's own metric: %v, want [5 0 0 5]", got)
	}
}

// The cross-validation's solves take CVTol and CVLMNNIters where they are
// set, and the final fit keeps Tol and LMNNIters: with LMNN capped at 2
// iterations in the cross-validation and a tolerance it cannot reach, the
// final fit still runs its 500, and with the cap at 1 a fold's fit is one
// iteration's.
func TestCVSettings(t *testing.T) {
	for _, c := range []struct {
		in        CompareOptions
		tol       float64
		lmnnIters int
	}{
		{CompareOptions{Tol: 1e-3, LMNNIters: 500}, 1e-3, 500},
		{CompareOptions{Tol: 1e-3, LMNNIters: 500, CVTol: 1e-2}, 1e-2, 500},
		{CompareOptions{Tol: 1e-3, LMNNIters: 500, CVLMNNIters: 150}, 1e-3, 150},
		{CompareOptions{Tol: 1e-3, LMNNIters: 500, CVTol: 1e-2, CVLMNNIters: 150}, 1e-2, 150},
	} {
		if got := c.in.forCV(); got.Tol != c.tol || got.LMNNIters != c.lmnnIters {
			t.Errorf("%+v: cross-validation with tolerance %g and %d LMNN iterations, want %g and %d", c.in, got.Tol, got.LMNNIters, c.tol, c.lmnnIters)
		}
	}
	_, ds := loadStd(t, "iris.csv")
	rep, err := Compare(context.Background(), []string{"iris"}, []*Dataset{ds},
		CompareOptions{Reps: 1, Seed: 5, Methods: []Method{LMNN}, Tol: 1e-12, CVLMNNIters: 2, Folds: 2})
	if err != nil {
		t.Fatal(err)
	}
	if it := rep.Rows[0].Iterations[0]; it != 500 {
		t.Errorf("LMNN's final fit ran %d iterations, want its cap of 500", it)
	}
	// And the cross-validation runs with them: after choosing LMNN's λ with
	// one iteration a fit, a fold's metric at the grid's largest λ (its
	// first, started from the default) is, to the bit, that of one LMNN
	// iteration there.
	o := CompareOptions{Reps: 1, Seed: 5, Tol: 1e-12, CVLMNNIters: 1, Folds: 2}
	o.defaults()
	train, test := StratifiedSplit(ds.Labels, o.TestFrac, 5)
	fold, err := newSplit(context.Background(), ds, train, test, o, 5, false)
	if err != nil {
		t.Fatal(err)
	}
	if _, _, err := chooseLambdaFor(context.Background(), LMNN, nil, []*split{fold}, o); err != nil {
		t.Fatal(err)
	}
	top := slices.Max(o.Grid)
	one, err := Solve(context.Background(), fold.prep.Problem(o.Eta, top), Settings{Method: LMNN, Tol: 1e-12, MaxIter: 1})
	if err != nil {
		t.Fatal(err)
	}
	if got := fold.lmnnA[top]; got == nil || !mat.Equal(got, one.A) {
		t.Errorf("the cross-validation's LMNN fit at λ = %g is not one iteration's", top)
	}
}

// extendPast goes past the grid's end while the error keeps falling: on
// an error of |log λ − log 1000| from λ = 100, it tries 400 (better),
// 1,600 (better), 6,400 (worse) and stops at 1,600; downwards from 2⁻³
// the same; not at all when the end ties its neighbour (a flat error) or
// is worse; and at most maxExtend steps.
func TestExtendPast(t *testing.T) {
	dist := func(to float64) func(float64) (float64, error) {
		return func(l float64) (float64, error) { return math.Abs(math.Log(l) - math.Log(to)), nil }
	}
	at := func(cv func(float64) (float64, error), l float64) float64 { e, _ := cv(l); return e }
	for _, c := range []struct {
		name                  string
		lambda, factor, inner float64
		cv                    func(float64) (float64, error)
		want                  float64
		moved                 bool
	}{
		{"up", 100, 4, 10, dist(1000), 1600, true},
		{"down", 0.125, 0.25, 10, dist(0.01), 0.0078125, true},
		{"flat", 100, 4, 0, func(float64) (float64, error) { return 0, nil }, 100, false},
		{"the end is no better than its neighbour", 100, 4, 0, dist(1000), 100, false},
		{"capped", 100, 4, 100, dist(1e12), 100 * math.Pow(4, maxExtend), true},
	} {
		inner := c.inner
		if c.name == "the end is no better than its neighbour" {
			inner = at(c.cv, 100) // a tie
		}
		got, moved, err := extendPast(c.lambda, c.factor, at(c.cv, c.lambda), inner, c.cv)
		if err != nil || math.Abs(got-c.want) > 1e-9*c.want || moved != c.moved {
			t.Errorf("%s: λ %v, moved %v (%v); want %v, %v", c.name, got, moved, err, c.want, c.moved)
		}
	}
}

// With TuneByAgreement the cross-validation ranks λ by the fold's own
// triplets, swapped as the training ones are, and not by its labels: the
// λ chosen is the one whose metric disorders fewest of them, worked out
// here λ by λ on a fresh copy of the fold.
func TestTuneByAgreement(t *testing.T) {
	_, ds := loadStd(t, "wine.csv")
	o := CompareOptions{Reps: 1, Seed: 2, Flip: 0.2, Grid: []float64{0.25, 4, 64}, TuneByAgreement: true}
	o.defaults()
	train, test := StratifiedSplit(ds.Labels, o.TestFrac, 2)
	fold := func() *split {
		sp, err := newSplit(context.Background(), ds, train, test, o, 2, true)
		if err != nil {
			t.Fatal(err)
		}
		return sp
	}
	sp := fold()
	if len(sp.evalNoisy) != len(sp.evalTriplets) || len(sp.evalNoisy) == 0 {
		t.Fatalf("%d noisy held-out triplets, %d clean", len(sp.evalNoisy), len(sp.evalTriplets))
	}
	swapped := 0
	for i, tr := range sp.evalNoisy {
		if tr != sp.evalTriplets[i] {
			swapped++
		}
	}
	if swapped == 0 {
		t.Fatal("no held-out triplet swapped at a rate of 20 %")
	}
	got, extended, err := chooseLambdaFor(context.Background(), Fast, nil, []*split{sp}, o)
	if err != nil {
		t.Fatal(err)
	}
	best, bestErr := 0.0, math.Inf(1)
	for _, l := range []float64{64, 4, 0.25} { // the search's order: ties to the larger λ
		f := fold()
		_, res, err := f.score(context.Background(), Fast, l, o.forCV(), nil)
		if err != nil {
			t.Fatal(err)
		}
		if e := 1 - TripletAgreement(res.A, f.xEval, f.evalNoisy); e < bestErr-1e-12 {
			best, bestErr = l, e
		}
	}
	t.Logf("chose λ = %v (past the grid: %v); by hand %v", got, extended, best)
	if !extended && got != best {
		t.Errorf("chose λ = %v; the fold's noisy triplets are disordered least at %v", got, best)
	}
}
