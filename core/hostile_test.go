package core

// Hostile and edge inputs (issue 7): each case ends, with a correct result
// or a one-line reason, and never with NaN or ±Inf in what is returned.

import (
	"context"
	"errors"
	"fmt"
	"math"
	"math/rand/v2"
	"runtime"
	"slices"
	"strings"
	"testing"
	"time"

	"gonum.org/v1/gonum/mat"
)

// checkResult fails unless every number in res is finite, Δ ≥ 0 and A is
// symmetric.
func checkResult(t *testing.T, what string, res *Result) {
	t.Helper()
	for name, v := range map[string]float64{"gap": res.Gap, "relgap": res.RelGap, "dual": res.Dual, "primal": res.Primal, "sumq": res.SumQ} {
		if !finite(v) {
			t.Errorf("%s: %s = %v", what, name, v)
		}
	}
	if res.Gap < 0 {
		t.Errorf("%s: gap %v < 0", what, res.Gap)
	}
	d, _ := res.A.Dims()
	for i := 0; i < d; i++ {
		for j := 0; j < d; j++ {
			if v := res.A.At(i, j); !finite(v) || v != res.A.At(j, i) {
				t.Errorf("%s: A[%d,%d] = %v", what, i, j, v)
			}
		}
	}
	for _, q := range res.Q {
		if !(q >= 0 && q <= 1) {
			t.Fatalf("%s: q = %v outside [0, 1]", what, q)
		}
	}
}

// Issue 7, case 1: all rows identical. It used to loop for ever (the
// scales were 0/0 = NaN). Data whose every feature is constant is refused
// by BuildProblem, a hand-made problem with K_i = 0 by Validate, and the
// scales are finite whatever the problem.
func TestAllRowsIdentical(t *testing.T) {
	ds, err := readCSV("a,b,label\n1,1,x\n1,1,y\n1,1,x\n1,1,y\n1,1,x\n1,1,y\n1,1,x\n1,1,y\n", CSVOptions{})
	if err != nil {
		t.Fatal(err)
	}
	all := []int{0, 1, 2, 3, 4, 5, 6, 7}
	_, _, _, err = BuildProblem(ds.X, ds.Labels, ds.Classes, all, TripletOptions{KSame: 1, KDiff: 1}, 0.8, 1)
	if err == nil || !strings.Contains(err.Error(), "constant") {
		t.Errorf("all-constant data: error %v", err)
	}
	p := &Problem{X: mat.NewDense(8, 2, nil), Triplets: []Triplet{{0, 1, 2}, {3, 4, 5}}, Eta: 0.8, Lambda: 1}
	if _, err := Solve(context.Background(), p, Settings{}); err == nil || !strings.Contains(err.Error(), "degenerate") {
		t.Errorf("K_i = 0 for all i: error %v", err)
	}
	w, u := tripletScales(p)
	for i := range w {
		if !finite(w[i]) || !finite(u[i]) {
			t.Errorf("scale %d: w = %v, u = %v", i, w[i], u[i])
		}
	}
	// One constant column beside a real one is fine: it maps to zeros.
	ds, err = readCSV("a,b,label\n1,5,x\n2,5,y\n3,5,x\n4,5,y\n5,5,x\n6,5,y\n", CSVOptions{})
	if err != nil {
		t.Fatal(err)
	}
	p, _, st, err := BuildProblem(ds.X, ds.Labels, ds.Classes, []int{0, 1, 2, 3, 4, 5}, TripletOptions{KSame: 1, KDiff: 1}, 0.8, 1)
	if err != nil {
		t.Fatal(err)
	}
	if !slices.Equal(st.ConstantColumns(), []int{1}) {
		t.Errorf("constant columns %v, want [1]", st.ConstantColumns())
	}
	res, err := Solve(context.Background(), p, Settings{Tol: 1e-8})
	if err != nil || res.Status != Converged {
		t.Fatalf("%v %v", res.Status, err)
	}
	checkResult(t, "constant column", res)
}

// Issue 7, case 1 continued: a problem with some degenerate triplets and
// repeated rows converges with every method.
func TestDegenerateTripletsMixed(t *testing.T) {
	x := mat.NewDense(6, 2, []float64{0, 0, 0, 0, 0, 0, 1, 0, 0, 1, 1, 1})
	ts := []Triplet{{0, 1, 2}, {0, 3, 4}, {1, 2, 5}, {3, 4, 5}}
	for _, m := range []Method{Fast, Nesterov, Gradient} {
		p := &Problem{X: x, Triplets: ts, Eta: 0.75, Lambda: 1}
		res, err := Solve(context.Background(), p, Settings{Method: m, Tol: 1e-7, MaxIter: 200000})
		if err != nil {
			t.Fatalf("%v: %v", m, err)
		}
		if res.Status != Converged {
			t.Errorf("%v: %v at relative gap %v", m, res.Status, res.RelGap)
		}
		checkResult(t, m.String(), res)
	}
}

// Issue 7, case 2: λ whose 1/λ overflows the data's scale used to panic in
// LAPACK (λ = 1e-150 on Iris). The range is refused with what works, and
// the ends of that range solve to finite numbers with every method.
func TestLambdaRange(t *testing.T) {
	p := labelProblem(t, "iris.csv", 0.8, 1)
	lo, hi := p.LambdaRange()
	// Iris standardized, 1,350 triplets: N·max‖K_i‖ = 1.8e4, so lo =
	// 1.8e-96 and hi = 1.8e254 (printed by the error below).
	if !(lo > 1e-97 && lo < 1e-95 && hi > 1e253 && hi < 1e255) {
		t.Errorf("range [%g, %g]", lo, hi)
	}
	for _, l := range []float64{1e-150, lo / 2, hi * 2, 1e300} {
		q := *p
		q.Lambda = l
		_, err := Solve(context.Background(), &q, Settings{})
		if err == nil || !strings.Contains(err.Error(), "works") || !strings.Contains(err.Error(), fmt.Sprintf("%.2g", lo)) {
			t.Errorf("λ = %g: error %v", l, err)
		}
	}
	for _, m := range []Method{Fast, Nesterov, Gradient} {
		for _, l := range []float64{lo * 1.01, 1e-30, 1e30, hi / 1.01} {
			q := *p
			q.Lambda = l
			res, err := Solve(context.Background(), &q, Settings{Method: m, MaxIter: 300})
			if err != nil {
				t.Errorf("%v, λ = %g: %v", m, l, err)
				continue
			}
			checkResult(t, fmt.Sprintf("%v, λ = %g", m, l), res)
			// Large λ: A is negligible, the optimum is L = −m = −P, and
			// every method must reach it (it used to fail at 1e300).
			if l >= 1e30 && res.Status != Converged {
				t.Errorf("%v, λ = %g: %v at relative gap %v", m, l, res.Status, res.RelGap)
			}
		}
	}
}

// Issue 7, case 3: k_same × k_diff × rows beyond MaxTriplets used to try
// to allocate 48 GB. It is refused, with the count, before any large
// allocation.
func TestTripletCountRefusedBeforeAllocating(t *testing.T) {
	n := 2000
	x, labels := gaussianRows(3, n, 3, 2)
	var before, after runtime.MemStats
	runtime.ReadMemStats(&before)
	_, err := LabelTriplets(x, labels, []string{"a", "b"}, 999, 1000)
	runtime.ReadMemStats(&after)
	if err == nil || !strings.Contains(err.Error(), "1998000000 triplets") || !strings.Contains(err.Error(), "2000000") {
		t.Errorf("error %v", err)
	}
	if grew := after.TotalAlloc - before.TotalAlloc; grew > 1<<20 {
		t.Errorf("allocated %d bytes before refusing", grew)
	}
	if _, err := PaperTriplets(x, labels, 1999); err == nil || !strings.Contains(err.Error(), "the limit is 2000000") {
		t.Errorf("paper triplets, k = 1999: %v", err)
	}
}

// bruteNeighbours is the reference the bounded selection replaces: every
// other row sorted by (distance, index).
func bruteNeighbours(x *mat.Dense, i int) []neighbour {
	n, _ := x.Dims()
	var out []neighbour
	for j := 0; j < n; j++ {
		if j != i {
			out = append(out, neighbour{dist2(x.RawRowView(i), x.RawRowView(j), math.Inf(1)), j})
		}
	}
	slices.SortFunc(out, cmpNeighbour)
	return out
}

// Issue 7, case 4: the k nearest are chosen without sorting every list,
// and give exactly the triplets of a full sort, ties (repeated rows)
// included, on one core and on several.
func TestLabelTripletsMatchFullSort(t *testing.T) {
	rng := rand.New(rand.NewPCG(4, 4))
	n, d := 700, 3
	x := mat.NewDense(n, d, nil)
	labels := make([]int, n)
	for i := 0; i < n; i++ {
		labels[i] = rng.IntN(3)
		for j := 0; j < d; j++ {
			x.Set(i, j, float64(rng.IntN(4))) // a coarse grid: many ties
		}
	}
	var want []Triplet
	for i := 0; i < n; i++ {
		var same, diff []int
		for _, nb := range bruteNeighbours(x, i) {
			if labels[nb.i] == labels[i] && len(same) < 2 {
				same = append(same, nb.i)
			} else if labels[nb.i] != labels[i] && len(diff) < 3 {
				diff = append(diff, nb.i)
			}
		}
		for _, j := range same {
			for _, k := range diff {
				want = append(want, Triplet{i, j, k})
			}
		}
	}
	for _, procs := range []int{1, 4} {
		old := runtime.GOMAXPROCS(procs)
		got, err := LabelTriplets(x, labels, nil, 2, 3)
		runtime.GOMAXPROCS(old)
		if err != nil {
			t.Fatal(err)
		}
		if !slices.Equal(got, want) {
			t.Errorf("GOMAXPROCS %d: triplets differ from the full sort's", procs)
		}
	}
	// The paper's triplets too.
	got, err := PaperTriplets(x, labels, 5)
	if err != nil {
		t.Fatal(err)
	}
	var wantP []Triplet
	for i := 0; i < n; i++ {
		var same, diff []int
		for _, nb := range bruteNeighbours(x, i)[:5] {
			if labels[nb.i] == labels[i] {
				same = append(same, nb.i)
			} else {
				diff = append(diff, nb.i)
			}
		}
		for _, j := range same {
			for _, k := range diff {
				wantP = append(wantP, Triplet{i, j, k})
			}
		}
	}
	if !slices.Equal(got, wantP) {
		t.Error("paper triplets differ from the full sort's")
	}
}

// Issue 7, case 4: building triplets reports progress, yields to the host
// and stops when cancelled, with the context's error.
func TestLabelTripletsCancelAndProgress(t *testing.T) {
	n := 3000
	x, labels := gaussianRows(5, n, 4, 3)
	var last, calls int
	h := &Hooks{Progress: func(done, total int) {
		if total != n || done < last || done > n {
			t.Errorf("progress %d of %d after %d", done, total, last)
		}
		last, calls = done, calls+1
	}}
	if _, err := LabelTripletsContext(context.Background(), h, x, labels, nil, 2, 2); err != nil {
		t.Fatal(err)
	}
	if last != n || calls == 0 {
		t.Errorf("progress ended at %d of %d after %d calls", last, n, calls)
	}
	// Cancelled from the host's yield, as a worker's Stop is: the build
	// ends at once (a yield comes after every row here).
	ctx, cancel := context.WithCancel(context.Background())
	yields := 0
	old := runtime.GOMAXPROCS(1)
	defer runtime.GOMAXPROCS(old)
	_, err := LabelTripletsContext(ctx, &Hooks{YieldEvery: time.Nanosecond, Yield: func() {
		if yields++; yields == 10 {
			cancel()
		}
	}}, x, labels, nil, 2, 2)
	if !errors.Is(err, context.Canceled) || yields != 10 {
		t.Errorf("cancelled build: %v after %d yields", err, yields)
	}
}

// Issue 7, case 6: standardizing gives the same values for any finite
// rescaling of a column, and the same decision about constant columns.
func TestStandardizeScaleInvariant(t *testing.T) {
	base := []float64{1, 2, 2.5, -3, 7, 0.25}
	var ref []float64
	for _, scale := range []float64{1, 1e-13, 1e-300, 1e300, 1.7e308 / 7, 5e-324 * 8} {
		x := mat.NewDense(len(base), 2, nil)
		for i, v := range base {
			x.Set(i, 0, v*scale)
			x.Set(i, 1, 4*scale) // constant
		}
		st := FitStandardizer(x, nil)
		z := st.Transform(x)
		col := mat.Col(nil, 0, z)
		if ref == nil {
			ref = col
		}
		// Subnormal scales keep only a few bits of each value.
		tol := 1e-14
		if scale < 1e-300 {
			tol = 0.3
		}
		for i := range col {
			if !finite(col[i]) || math.Abs(col[i]-ref[i]) > tol*max(1, math.Abs(ref[i])) {
				t.Errorf("× %g: row %d standardizes to %v, × 1 to %v", scale, i, col[i], ref[i])
			}
			if z.At(i, 1) != 0 {
				t.Errorf("× %g: the constant column gives %v", scale, z.At(i, 1))
			}
		}
		if !slices.Equal(st.ConstantColumns(), []int{1}) {
			t.Errorf("× %g: constant columns %v", scale, st.ConstantColumns())
		}
	}
	// The extremes of double precision in one column.
	x := mat.NewDense(4, 1, []float64{1.7e308, -1.7e308, 1.7e308, -1.7e308})
	z := FitStandardizer(x, nil).Transform(x)
	if !slices.Equal(mat.Col(nil, 0, z), []float64{1, -1, 1, -1}) {
		t.Errorf("±1.7e308 standardize to %v", mat.Col(nil, 0, z))
	}
}

// Issue 7, case 6: a dataset × 1e-13 learns what the dataset learns.
func TestTinyDataLearnsAsScaled(t *testing.T) {
	_, ds := loadStd(t, "wine.csv")
	small := mat.DenseCopyOf(ds.X)
	small.Scale(1e-13, small)
	rows := make([]int, ds.Rows())
	for i := range rows {
		rows[i] = i
	}
	var res [2]*Result
	for k, x := range []*mat.Dense{ds.X, small} {
		p, _, _, err := BuildProblem(x, ds.Labels, ds.Classes, rows, TripletOptions{}, 0.8, 1)
		if err != nil {
			t.Fatal(err)
		}
		if res[k], err = Solve(context.Background(), p, Settings{Tol: 1e-8}); err != nil {
			t.Fatal(err)
		}
	}
	// Both are within 1e-8 (relative) of the optimum: their P agree to that.
	if res[1].Status != Converged || !relClose(res[0].Primal, res[1].Primal, 2e-8) {
		t.Errorf("× 1e-13: %v, P = %v; × 1: P = %v", res[1].Status, res[1].Primal, res[0].Primal)
	}
}

// Issue 7, case 7: what a file's first line or encoding is taken for is
// said, or the file refused with the reason.
func TestFileGuesses(t *testing.T) {
	// A first line of numbers is data, even if one is not an index.
	if _, err := ReadTriplets(strings.NewReader("0,1,1e2\n0,1,2\n"), 5); err == nil || !strings.Contains(err.Error(), "line 1") || !strings.Contains(err.Error(), `"1e2"`) {
		t.Errorf("0,1,1e2: %v", err)
	}
	if ts, err := ReadTriplets(strings.NewReader("anchor,similar,dissimilar\n0,1,2\n"), 5); err != nil || len(ts) != 1 {
		t.Errorf("a header: %v %v", ts, err)
	}
	// UTF-16 with a byte order mark is decoded, and said so.
	u := []byte{0xff, 0xfe}
	for _, r := range "a,b,label\n1,2,x\n3,4,y\n5,6,x\n" {
		u = append(u, byte(r), 0)
	}
	ds, err := ReadCSV(strings.NewReader(string(u)), CSVOptions{})
	if err != nil || ds.Rows() != 3 || len(ds.Notes) != 1 || !strings.Contains(ds.Notes[0], "UTF-16") {
		t.Errorf("UTF-16: %v, notes %q", err, dsNotes(ds))
	}
	// Without the mark it is named, not read as bytes.
	mustFail(t, string(u[2:]), CSVOptions{}, "UTF-16 without a byte order mark")
	mustFail(t, "a,b,label\n1,2,x\n\x00\x01\x02,4,y\n", CSVOptions{}, "NUL byte")
	// Old Mac line ends.
	ds, err = readCSV("a,b,label\r1,2,x\r3,4,y\r5,6,x\r", CSVOptions{})
	if err != nil || ds.Rows() != 3 || len(ds.Notes) != 1 || !strings.Contains(ds.Notes[0], "old Mac") {
		t.Errorf("CR line ends: %v, notes %q", err, dsNotes(ds))
	}
}

func dsNotes(ds *Dataset) []string {
	if ds == nil {
		return nil
	}
	return ds.Notes
}

// Issue 7, case 8: the raw L + P of the best points is at worst a rounding
// error below zero, and Δ as reported is never negative. The cases are the
// ones that showed negative gaps: many classes, and a large λ.
func TestGapRounding(t *testing.T) {
	n := 1000
	x, labels := gaussianRows(8, n, 5, 200)
	ts, err := LabelTriplets(x, labels, nil, 1, 2)
	if err != nil {
		t.Fatal(err)
	}
	wine := labelProblem(t, "wine.csv", 0.8, 1)
	for _, c := range []struct {
		p      *Problem
		lambda float64
	}{{&Problem{X: x, Triplets: ts, Eta: 0.8}, 1}, {wine, 1e11}, {wine, 1e6}, {&Problem{X: x, Triplets: ts, Eta: 0.3}, 1e11}} {
		p := *c.p
		p.Lambda = c.lambda
		worst := 0.0
		_, err := Solve(context.Background(), &p, Settings{Tol: 1e-14, MaxIter: 300, Progress: func(pr Progress) bool {
			if pr.Gap < 0 {
				t.Errorf("λ = %g: Δ = %v < 0", c.lambda, pr.Gap)
			}
			// Rounding in L and P: a few ulps of each of the N terms.
			raw := pr.Dual + pr.Primal
			scale := float64(len(p.Triplets)) * 1e-15 * (math.Abs(pr.Dual) + math.Abs(pr.Primal) + 1)
			worst = min(worst, raw/scale)
			return true
		}})
		if err != nil {
			t.Fatal(err)
		}
		if worst < -1 {
			t.Errorf("λ = %g: raw L + P fell to %.3g times the rounding bound", c.lambda, worst)
		}
	}
}

// Property test over random extreme data: every input ends, with a result
// whose numbers are finite or with a one-line reason. FuzzSolve explores
// the same space further.
func TestSolveExtremeData(t *testing.T) {
	for seed := uint64(0); seed < 60; seed++ {
		solveExtreme(t, seed, randomBytes(seed))
	}
}

func randomBytes(seed uint64) []byte {
	rng := rand.New(rand.NewPCG(seed, 77))
	b := make([]byte, 64)
	for i := range b {
		b[i] = byte(rng.UintN(256))
	}
	return b
}

// extremes are the values solveExtreme draws data from.
var extremes = []float64{0, 1, -1, 0.5, 1e-300, -1e-300, 1e300, -1e300, 1.7e308, -1.7e308, 5e-324, 1e-13, 3, 1e15}

// solveExtreme builds a small labelled dataset from b, with values from
// extremes (and repeated rows), and solves it with the method, η and λ b
// picks. It fails the test on a panic, a hang (the run's limits are small),
// a non-finite number, or a multi-line error.
func solveExtreme(t *testing.T, seed uint64, b []byte) {
	t.Helper()
	next := func() int {
		if len(b) == 0 {
			return 0
		}
		v := int(b[0])
		b = b[1:]
		return v
	}
	n, d := 4+next()%12, 1+next()%4
	x := mat.NewDense(n, d, nil)
	labels := make([]int, n)
	for i := 0; i < n; i++ {
		labels[i] = i % 2
		for j := 0; j < d; j++ {
			v := extremes[next()%len(extremes)] * float64(1+next()%3)
			if math.IsInf(v, 0) {
				v = math.Copysign(math.MaxFloat64, v)
			}
			x.Set(i, j, v)
		}
	}
	eta := []float64{1, 0.8, 0.5, 0.1, 1e-9}[next()%5]
	lambda := []float64{1, 1e-90, 1e-30, 1e-3, 1e3, 1e30, 1e200}[next()%7]
	method := Method(next() % 3)
	rows := make([]int, n)
	for i := range rows {
		rows[i] = i
	}
	what := fmt.Sprintf("seed %d: n %d d %d η %g λ %g %v", seed, n, d, eta, lambda, method)
	p, _, _, err := BuildProblem(x, labels, []string{"a", "b"}, rows, TripletOptions{KSame: 1, KDiff: 1, Flip: 0.2, Seed: seed}, eta, lambda)
	if err != nil {
		if strings.Contains(err.Error(), "\n") {
			t.Errorf("%s: multi-line error %q", what, err)
		}
		return
	}
	res, err := Solve(context.Background(), p, Settings{Method: method, MaxIter: 500, TimeLimit: 5 * time.Second})
	if err != nil {
		var se *SolveError
		if strings.Contains(err.Error(), "\n") || (errors.As(err, &se) && res == nil) {
			t.Errorf("%s: %v", what, err)
		}
		if se == nil {
			return // refused by Validate, with its reason
		}
	}
	checkResult(t, what, res)
}

func FuzzSolve(f *testing.F) {
	for seed := uint64(0); seed < 8; seed++ {
		f.Add(randomBytes(seed))
	}
	f.Fuzz(func(t *testing.T, b []byte) { solveExtreme(t, 0, b) })
}
