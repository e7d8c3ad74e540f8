package core

import (
	"context"
	"fmt"
	"math/rand/v2"
	"runtime"
	"strings"
	"testing"
	"time"

	"gonum.org/v1/gonum/mat"

	"github.com/rml-lab/rml/internal/bigcsv"
	"github.com/rml-lab/rml/spec"
)

// mallocsDuring counts heap allocations between iterations from and to.
// The driver's yield to the host is left out (YieldEvery an hour): on
// js/wasm it is a runtime sleep, whose timer the runtime allocates (on
// Sonar 14–20 allocations in iterations 5–40 with the default yield every
// 20 ms, none without it; the solver's own iterations allocate nothing
// there either, which is what this counts).
func mallocsDuring(p *Problem, m Method, from, to int) uint64 {
	var ms runtime.MemStats
	var a, b uint64
	Solve(context.Background(), p, Settings{Method: m, Tol: 1e-300, MaxIter: to, YieldEvery: time.Hour, Progress: func(pr Progress) bool {
		switch pr.Iter {
		case from:
			runtime.ReadMemStats(&ms)
			a = ms.Mallocs
		case to:
			runtime.ReadMemStats(&ms)
			b = ms.Mallocs
		}
		return true
	}})
	return b - a
}

// After the first iterations every method allocates nothing. The runtime
// counts every goroutine's allocations, its own included (rarely a few
// while a run is measured), so the least of three runs is what counts: an
// allocation in the iterations shows in all three.
func TestNoAllocationsPerIteration(t *testing.T) {
	for _, name := range []string{"wine.csv", "sonar.csv"} {
		p := labelProblem(t, name, 0.8, 1)
		for _, m := range []Method{Fast, Nesterov, Gradient} {
			n := mallocsDuring(p, m, 5, 40)
			for try := 1; try < 3 && n != 0; try++ {
				n = min(n, mallocsDuring(p, m, 5, 40))
			}
			if n != 0 {
				t.Errorf("%s/%v: %d allocations in iterations 5..40", name, m, n)
			}
		}
	}
}

// benchData lists the built-in datasets (assets/datasets).
func benchData(b *testing.B) map[string]*Problem {
	out := map[string]*Problem{}
	for _, name := range []string{"iris", "wine", "sonar", "ionosphere", "heart"} {
		out[name] = labelProblem(b, name+".csv", 0.8, 1)
	}
	return out
}

func synthetic(b testing.TB, n, d int) *Problem {
	rng := rand.New(rand.NewPCG(uint64(n), uint64(d)))
	x := mat.NewDense(n, d, nil)
	labels := make([]int, n)
	for i := 0; i < n; i++ {
		labels[i] = i % 2
		for j := 0; j < d; j++ {
			v := rng.NormFloat64()
			if j < 2 {
				v = 0.5*v + float64(2*labels[i]-1)
			}
			x.Set(i, j, v)
		}
	}
	ts, err := LabelTriplets(x, labels, []string{"a", "b"}, 3, 3)
	if err != nil {
		b.Fatal(err)
	}
	return &Problem{X: x, Triplets: ts, Eta: 0.8, Lambda: 1}
}

var sizes = []struct{ n, d int }{{500, 20}, {2000, 50}, {5000, 200}}

// BenchmarkIteration reports the time and allocations of one iteration of
// each method: ms/iter from a run of 30 iterations, allocs/iter from
// iterations 5..30.
func BenchmarkIteration(b *testing.B) {
	problems := benchData(b)
	names := []string{"iris", "wine", "sonar", "ionosphere", "heart"}
	for _, s := range sizes {
		names = append(names, fmt.Sprintf("synthetic-n%d-d%d", s.n, s.d))
	}
	for _, name := range names {
		p, ok := problems[name]
		if !ok {
			var n, d int
			if _, err := fmt.Sscanf(name, "synthetic-n%d-d%d", &n, &d); err != nil {
				continue // heart.csv absent
			}
			p = synthetic(b, n, d)
		}
		for _, m := range []Method{Fast, Nesterov, Gradient} {
			b.Run(name+"/"+m.String(), func(b *testing.B) {
				const iters = 30
				var el time.Duration
				for b.Loop() {
					res, _ := Solve(context.Background(), p, Settings{Method: m, Tol: 1e-300, MaxIter: iters})
					el += res.Elapsed
				}
				b.ReportMetric(float64(el.Microseconds())/1e3/float64(iters*b.N), "ms/iter")
				b.ReportMetric(float64(mallocsDuring(p, m, 5, iters))/float64(iters-5), "allocs/iter")
				b.ReportMetric(float64(len(p.Triplets)), "triplets")
			})
		}
	}
}

// BenchmarkFormM reports the time of M(q) = Σ q_i K_i and of the pair
// values of A(q) (the two passes over the data in every evaluation) on the
// synthetic sets, q uniform in [0,1] (every touched row live) from a seeded
// generator. Run it under js/wasm too: there gonum has no assembly kernels,
// and call overhead, not arithmetic, decided how the products were written.
func BenchmarkFormM(b *testing.B) {
	for _, s := range append([]struct{ n, d int }{{5000, 50}}, sizes...) {
		p := synthetic(b, s.n, s.d)
		e := newEvaluator(p)
		rng := rand.New(rand.NewPCG(1, 2))
		q := make([]float64, e.N)
		for i := range q {
			q[i] = rng.Float64()
		}
		m := make([]float64, s.d*s.d)
		name := fmt.Sprintf("synthetic-n%d-d%d", s.n, s.d)
		b.Run(name+"/formM", func(b *testing.B) {
			for b.Loop() {
				e.formM(m, q)
			}
		})
		b.Run(name+"/gradPrimal", func(b *testing.B) {
			e.formM(m, q)
			e.eigen(m, eigAll)
			g := make([]float64, e.N)
			for b.Loop() {
				e.gradPrimal(g)
			}
		})
	}
}

// BenchmarkToGap reports iterations and seconds to a relative gap of 1e-3
// and 1e-6 (Algorithm 1 only to 1e-3: it needs ~10^5–10^6 iterations for
// 1e-6; on the two largest synthetic sets only the fast method runs, and on
// problems of fistaLargeN triplets or more also the fast method with the
// smaller problems' factor on its curvature, fast-shrink0.8). Runs are cut
// at 60 s; "converged" is 0 when a run was cut.
func BenchmarkToGap(b *testing.B) {
	problems := benchData(b)
	names := []string{"iris", "wine", "sonar", "ionosphere", "heart", "synthetic-n500-d20", "synthetic-n2000-d50", "synthetic-n5000-d200"}
	for _, name := range names {
		p, ok := problems[name]
		if !ok {
			var n, d int
			if _, err := fmt.Sscanf(name, "synthetic-n%d-d%d", &n, &d); err != nil {
				continue
			}
			p = synthetic(b, n, d)
		}
		for _, m := range []Method{Fast, Gradient, Nesterov} {
			for _, tol := range []float64{1e-3, 1e-6} {
				if m == Nesterov && tol < 1e-3 || m != Fast && strings.HasPrefix(name, "synthetic-n") && name != "synthetic-n500-d20" {
					continue
				}
				b.Run(fmt.Sprintf("%s/%v/tol=%g", name, m, tol), func(b *testing.B) {
					var res *Result
					for b.Loop() {
						res, _ = Solve(context.Background(), p, Settings{Method: m, Tol: tol, TimeLimit: 60 * time.Second})
					}
					reportRun(b, res)
				})
				if m != Fast || len(p.Triplets) < fistaLargeN {
					continue
				}
				// The factor of smaller problems, for comparison (methods.go).
				b.Run(fmt.Sprintf("%s/fast-shrink0.8/tol=%g", name, tol), func(b *testing.B) {
					var res *Result
					for b.Loop() {
						res, _ = solve(context.Background(), p, Settings{Tol: tol, TimeLimit: 60 * time.Second}, fastParts{shrink: fistaShrink})
					}
					reportRun(b, res)
				})
			}
		}
	}
}

// reportRun reports a run's iterations, seconds, relative gap and whether
// it converged (1) or was cut (0).
func reportRun(b *testing.B, res *Result) {
	b.ReportMetric(float64(res.Iter), "iters")
	b.ReportMetric(res.Elapsed.Seconds(), "s")
	b.ReportMetric(res.RelGap, "relgap")
	conv := 0.0
	if res.Status == Converged {
		conv = 1
	}
	b.ReportMetric(conv, "converged")
}

// BenchmarkScaling reports the fast method's iterations to a relative gap
// of 1e-6 with its diagonal scaling and without (W = I), on the datasets
// where the scaling matters; without the Newton steps or the primal
// multiple, so that it measures the scaling alone (as when it was
// introduced).
func BenchmarkScaling(b *testing.B) {
	problems := benchData(b)
	for _, name := range []string{"sonar", "ionosphere"} {
		p, ok := problems[name]
		if !ok {
			continue
		}
		for _, scaled := range []bool{false, true} {
			b.Run(fmt.Sprintf("%s/scaled=%v", name, scaled), func(b *testing.B) {
				var res *Result
				for b.Loop() {
					res, _ = solve(context.Background(), p, Settings{Tol: 1e-6, TimeLimit: 60 * time.Second}, fastParts{unscaled: !scaled, noNewton: true, noScale: true, noAverage: true})
				}
				reportRun(b, res)
			})
		}
	}
}

// BenchmarkNewton reports the fast method's iterations and seconds to a
// relative gap of 1e-6 and 1e-8 in three builds: plain FISTA with restarts
// ("plain"), with the Newton steps ("newton"), and with the certificate's
// best primal multiple and FISTA's primal average as well ("full", the fast
// method as it ships), on
// the built-in datasets (η = 0.8, λ = 1; Heart also at η = 0.3, where the
// budget binds) and a synthetic set. Runs are cut at 60 s; "converged" is 0
// when a run was cut.
func BenchmarkNewton(b *testing.B) {
	type tc struct {
		name string
		p    *Problem
	}
	var cases []tc
	for _, name := range []string{"iris", "wine", "sonar", "ionosphere", "heart"} {
		cases = append(cases, tc{name, labelProblem(b, name+".csv", 0.8, 1)})
	}
	cases = append(cases, tc{"heart-eta0.3", labelProblem(b, "heart.csv", 0.3, 1)},
		tc{"synthetic-n2000-d50", synthetic(b, 2000, 50)})
	builds := []struct {
		name  string
		parts fastParts
	}{
		{"plain", fastParts{noNewton: true, noScale: true, noAverage: true}},
		{"newton", fastParts{noScale: true, noAverage: true}},
		{"full", fastFull},
	}
	for _, c := range cases {
		for _, tol := range []float64{1e-6, 1e-8} {
			for _, bd := range builds {
				b.Run(fmt.Sprintf("%s/tol=%g/%s", c.name, tol, bd.name), func(b *testing.B) {
					var res *Result
					for b.Loop() {
						res, _ = solve(context.Background(), c.p, Settings{Tol: tol, TimeLimit: 60 * time.Second}, bd.parts)
					}
					reportRun(b, res)
				})
			}
		}
	}
}

// BenchmarkNewtonHessian times one Hessian-vector product of the Newton
// step (newton.hess: Daleckii–Krein, over the free set) at the fast
// method's solution to 1e-3 on three built-in datasets, η = 0.8, λ = 1,
// every free triplet's weight in v.
func BenchmarkNewtonHessian(b *testing.B) {
	for _, name := range []string{"sonar", "ionosphere", "heart"} {
		p := labelProblem(b, name+".csv", 0.8, 1)
		res, err := Solve(context.Background(), p, Settings{Tol: 1e-3})
		if err != nil {
			b.Fatal(err)
		}
		nw, c := newtonSetUp(b, p, res.Q)
		v := make([]float64, c.e.N)
		for i := range v {
			v[i] = float64(i%7) - 3
		}
		hv := make([]float64, c.e.N)
		b.Run(name, func(b *testing.B) {
			for b.Loop() {
				nw.hess(c.e, hv, v)
			}
			b.ReportMetric(float64(len(nw.free)), "free")
			b.ReportMetric(float64(len(nw.rows)), "rows")
		})
	}
}

// BenchmarkLMNNGap reports the relative gap LMNN certifies after 500
// iterations (rml table2's and the page's cap) and 5,000, η = 0.8, λ = 1:
// where it stays far from 0, the cap, not the tolerance, ends its runs.
func BenchmarkLMNNGap(b *testing.B) {
	problems := benchData(b)
	for _, name := range []string{"iris", "wine", "sonar", "ionosphere", "heart"} {
		p, ok := problems[name]
		if !ok {
			continue
		}
		for _, iters := range []int{500, 5000} {
			b.Run(fmt.Sprintf("%s/iters=%d", name, iters), func(b *testing.B) {
				var res *Result
				for b.Loop() {
					res, _ = Solve(context.Background(), p, Settings{Method: LMNN, Tol: 1e-9, MaxIter: iters})
				}
				reportRun(b, res)
			})
		}
	}
}

// BenchmarkLabelTriplets measures the neighbour search that builds label
// triplets (k_same = k_diff = 3) on seeded Gaussian data, by rows × features,
// on every core (GOMAXPROCS). Before the bounded selection, 20,000 × 20 took
// 74 s (every row's full neighbour list was sorted).
func BenchmarkLabelTriplets(b *testing.B) {
	for _, c := range []struct{ n, d int }{{1000, 20}, {5000, 20}, {20000, 20}, {5000, 200}} {
		rng := rand.New(rand.NewPCG(uint64(c.n), uint64(c.d)))
		x := mat.NewDense(c.n, c.d, nil)
		labels := make([]int, c.n)
		for i := range labels {
			labels[i] = rng.IntN(4)
			for j := 0; j < c.d; j++ {
				x.Set(i, j, rng.NormFloat64()+float64(labels[i]*(j%2)))
			}
		}
		b.Run(fmt.Sprintf("n%d-d%d", c.n, c.d), func(b *testing.B) {
			for b.Loop() {
				if _, err := LabelTriplets(x, labels, nil, 3, 3); err != nil {
					b.Fatal(err)
				}
			}
			b.ReportMetric(float64(b.Elapsed().Seconds())/float64(b.N), "s/op")
		})
	}
}

// BenchmarkLMNNStart reports LMNN's best F after its 500 iterations (Table
// 2's cap) on whole datasets (label triplets, 3 × 3), by start: I (as LMNN
// usually starts), s·I (the default: the multiple of I with the lowest F)
// and the λ path (every λ of the grid from 100 down to this one, 500
// iterations each, each started from the previous λ's metric, as rml table2
// does). Lower is better; the runs are deterministic, so one is enough:
//
//	cd core && go test -run '^$' -bench LMNNStart -benchtime=1x
func BenchmarkLMNNStart(b *testing.B) {
	for _, name := range []string{"sonar", "ionosphere", "wine"} {
		for _, lambda := range []float64{16, 1} {
			p := labelProblem(b, name+".csv", 0.8, lambda)
			_, d := p.X.Dims()
			b.Run(fmt.Sprintf("%s/lambda=%g", name, lambda), func(b *testing.B) {
				var fI, fS, fPath float64
				for b.Loop() {
					solve := func(q *Problem, start mat.Symmetric) *Result {
						res, err := Solve(context.Background(), q, Settings{Method: LMNN, Tol: 1e-3, MaxIter: 500, Start: start})
						if err != nil {
							b.Fatal(err)
						}
						return res
					}
					fI = solve(p, eye(d)).Primal
					fS = solve(p, nil).Primal
					var start mat.Symmetric
					for _, l := range []float64{100, 64, 32, 16, 8, 4, 2, 1} {
						if l < lambda {
							break
						}
						res := solve(&Problem{X: p.X, Triplets: p.Triplets, Eta: p.Eta, Lambda: l}, start)
						start, fPath = res.A, res.Primal
					}
				}
				b.ReportMetric(fI, "F-from-I")
				b.ReportMetric(fS, "F-from-sI")
				b.ReportMetric(fPath, "F-path")
			})
		}
	}
}

// uploadProblem is the problem the page trains on after the e2e visit's
// upload of bigcsv.CSV(5000, 50, 5, 10): the 85 % training part of the
// stratified split with seed 1, standardized, 3 × 3 label triplets with no
// swaps (seed 1), η = 0.8, λ = 1: 38,250 triplets. (The page's wasm sums
// round differently, so its iteration counts differ from these.)
func uploadProblem(b testing.TB) *Problem {
	ds := uploadDataset(b)
	_, train, _, x := pageSplit(b, ds)
	pp, _, err := LabelData(context.Background(), nil, x, SelectLabels(ds.Labels, train), ds.Classes, TripletOptions{KSame: 3, KDiff: 3, Seed: 1})
	if err != nil {
		b.Fatal(err)
	}
	return pp.Problem(0.8, 1)
}

// uploadDataset is the e2e visit's 5,000 × 50 upload, bigcsv.CSV(5000, 50,
// 5, 10), as read.
func uploadDataset(b testing.TB) *Dataset {
	ds, err := ReadCSV(strings.NewReader(bigcsv.CSV(5000, 50, 5, 10)), CSVOptions{})
	if err != nil {
		b.Fatal(err)
	}
	return ds
}

// pageSplit splits ds as the page does (stratified, spec.TestFrac held out,
// seed 1) and standardizes it on the training rows: the standardizer, the
// two parts' rows and the training rows standardized.
func pageSplit(b testing.TB, ds *Dataset) (st *Standardizer, train, test []int, xTrain *mat.Dense) {
	train, test = StratifiedSplit(ds.Labels, spec.TestFrac, 1)
	st, xTrain, err := Standardize(ds.X, train)
	if err != nil {
		b.Fatal(err)
	}
	return st, train, test, xTrain
}

// BenchmarkUpload reports the fast method's iterations and seconds to a
// relative gap of 1e-3 on the page's 5,000 × 50 upload problem, with
// FISTA's primal average (as it ships) and without it, and with the
// curvature estimate shrunk by × 0.8 per iteration, the factor of smaller
// problems, instead of the × 0.9 its size takes (methods.go).
func BenchmarkUpload(b *testing.B) {
	p := uploadProblem(b)
	for _, bd := range []struct {
		name  string
		parts fastParts
	}{
		{"average", fastFull},
		{"no-average", fastParts{noAverage: true}},
		{"average-shrink0.8", fastParts{shrink: fistaShrink}},
	} {
		b.Run(bd.name, func(b *testing.B) {
			var res *Result
			for b.Loop() {
				res, _ = solve(context.Background(), p, Settings{Tol: 1e-3, TimeLimit: 120 * time.Second}, bd.parts)
			}
			reportRun(b, res)
		})
	}
}

// BenchmarkWide runs what `rml train --data F --tol 1e-3` runs on wide
// data, with every default a user gets (all rows standardized, label
// triplets 3 × 3, none swapped, η = 0.8, λ = 1, the fast method): the set
// bigcsv.CSV(5000, d, 4, 6), four classes carried by six features, for
// d = 50, 100, 200 and 400. It reports the preparation's seconds (the
// neighbour search and the triplets), the solve's iterations and seconds,
// and the milliseconds per iteration; runs are cut at 120 s.
func BenchmarkWide(b *testing.B) {
	for _, d := range []int{50, 100, 200, 400} {
		b.Run(fmt.Sprintf("d=%d", d), func(b *testing.B) {
			ds, err := ReadCSV(strings.NewReader(bigcsv.CSV(5000, d, 4, 6)), CSVOptions{})
			if err != nil {
				b.Fatal(err)
			}
			var res *Result
			var prep time.Duration
			for b.Loop() {
				t0 := time.Now()
				_, x, err := Standardize(ds.X, nil)
				if err != nil {
					b.Fatal(err)
				}
				pp, _, err := LabelData(context.Background(), nil, x, ds.Labels, ds.Classes, TripletOptions{KSame: 3, KDiff: 3, Seed: 1})
				if err != nil {
					b.Fatal(err)
				}
				prep = time.Since(t0)
				res, _ = Solve(context.Background(), pp.Problem(spec.Eta, 1), Settings{Tol: 1e-3, TimeLimit: 120 * time.Second})
			}
			reportRun(b, res)
			b.ReportMetric(prep.Seconds(), "prep-s")
			b.ReportMetric(1000*res.Elapsed.Seconds()/float64(max(res.Iter, 1)), "ms/iter")
		})
	}
}

// BenchmarkBestCaseStart times a best-case run at η = 0.9 on Wine (every
// row, 20 % of the triplets swapped with seed 1, λ = 16, to 1e-3: the
// page's noise lesson) that solves its η = 1 start, and one given it
// (Settings.BestStart, as the page's workers hand it on), as the first and
// the later best cases of an η sweep run it. The difference is what a pool
// of two workers saves when the start is handed over instead of solved by
// each.
func BenchmarkBestCaseStart(b *testing.B) {
	pp, run := noiseLessonBestCase(b)
	b.Run("solved", func(b *testing.B) {
		for b.Loop() {
			run(b, pp, nil)
		}
	})
	b.Run("given", func(b *testing.B) {
		st := run(b, pp, nil)
		for b.Loop() {
			run(b, pp, st)
		}
	})
}

// noiseLessonBestCase returns the benchmarks' best-case job on Wine (every
// row, 20 % of the triplets swapped with seed 1: the page's noise lesson):
// its triplets, prepared, and run, which solves the best case at η = 0.9,
// λ = 16, to 1e-3 on them from the start given (nil: its own) and returns
// its start. Both report failures by b.Error, so that run may be called
// from another goroutine too.
func noiseLessonBestCase(b *testing.B) (*Prepared, func(*testing.B, *Prepared, *BestStart) *BestStart) {
	x, ds := loadStd(b, "wine.csv")
	ts, err := LabelTriplets(x, ds.Labels, ds.Classes, 3, 3)
	if err != nil {
		b.Fatal(err)
	}
	pp, _, err := PrepareSwapped(x, ts, 0.2, 1)
	if err != nil {
		b.Fatal(err)
	}
	run := func(b *testing.B, pp *Prepared, st *BestStart) *BestStart {
		res, err := Solve(context.Background(), pp.Problem(0.9, 16), Settings{Method: BestCase, Tol: 1e-3, BestStart: st})
		if err != nil {
			b.Error(err)
			return nil
		}
		return res.BestStart
	}
	return pp, run
}

// BenchmarkKNN times KNNError's k-NN (k = 5, Euclidean, on standardized
// rows) at the sizes it meets: a Table 2 split of Ionosphere (85 % of its
// 351 rows for training, the rest held out, d = 34) and the page's 5,000 × 50
// upload (4,250 and 750 rows, d = 50: the Euclidean error the page shows on
// load, and the learned one at the end of every run), both split with seed
// 1; "heap" is KNNClassify, "sort" the full sort of every training row it
// replaced (knnBySort).
func BenchmarkKNN(b *testing.B) {
	for _, c := range []struct {
		name string
		ds   *Dataset
	}{{"ionosphere", readBuiltin(b, "ionosphere.csv")}, {"upload-5000x50", uploadDataset(b)}} {
		st, train, test, xtr := pageSplit(b, c.ds)
		xte := SelectRows(st.Transform(c.ds.X), test)
		ytr := SelectLabels(c.ds.Labels, train)
		b.Run(c.name+"/heap", func(b *testing.B) {
			for b.Loop() {
				if _, err := KNNClassify(nil, xtr, ytr, xte, 5); err != nil {
					b.Fatal(err)
				}
			}
		})
		b.Run(c.name+"/sort", func(b *testing.B) {
			for b.Loop() {
				knnBySort(b, nil, xtr, ytr, xte, 5)
			}
		})
	}
}

// BenchmarkTwoCores measures what this machine's cores give the η sweep's
// kind of work when two solvers run at once, as the page's two workers do:
// a sweep's job (the best case at η = 0.9 on Wine with the noise lesson's
// 20 % swapped, λ = 16, its start solved, as in BenchmarkBestCaseStart)
// run twice in a row on one goroutine, then twice at once on two. It
// reports each job's milliseconds alone and beside another, and the
// speed-up 2·alone/pair, the most two workers could gain on this work with
// nothing else running (the page's main thread also needs a core while
// they run).
func BenchmarkTwoCores(b *testing.B) {
	pp, run := noiseLessonBestCase(b)
	job := func() { run(b, pp, nil) }
	var alone, pair time.Duration
	for b.Loop() {
		t := time.Now()
		job()
		job()
		alone += time.Since(t)
		t = time.Now()
		done := make(chan struct{})
		go func() { job(); close(done) }()
		job()
		<-done
		pair += time.Since(t)
	}
	b.ReportMetric(alone.Seconds()*1000/float64(2*b.N), "ms-alone")
	b.ReportMetric(pair.Seconds()*1000/float64(b.N), "ms-beside")
	b.ReportMetric(float64(alone)/float64(pair), "speedup")
}
