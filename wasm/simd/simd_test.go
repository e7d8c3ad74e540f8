//go:build js && wasm

package simd

import (
	"context"
	"math"
	"math/rand/v2"
	"slices"
	"strings"
	"syscall/js"
	"testing"
	"time"

	"github.com/rml-lab/rml/core"
	"github.com/rml-lab/rml/internal/bigcsv"
	"github.com/rml-lab/rml/spec"
)

// These tests run under Node by the project's exec script, which hands the
// Go program's memory over as the page's worker does:
//
//	GOOS=js GOARCH=wasm go test -exec "$PWD/.ci/go_js_wasm_exec" ./wasm/simd
//
// (Go's own go_js_wasm_exec does not, and they fail saying so.)

func kernels(t testing.TB) *Kernels {
	t.Helper()
	k, err := New(js.Global().Get("rmlGoMemory"))
	if err != nil {
		t.Fatalf("%v (run with -exec .ci/go_js_wasm_exec, which hands the Go program's memory over)", err)
	}
	return k
}

// sameBits reports the first index where a and b differ in their bits.
func sameBits(a, b []float64) (int, bool) {
	if len(a) != len(b) {
		return -1, false
	}
	for i := range a {
		if math.Float64bits(a[i]) != math.Float64bits(b[i]) {
			return i, false
		}
	}
	return 0, true
}

// randoms returns n normal values with some exact zeros and negative zeros
// among them (a sum's sign of zero depends on its order too).
func randoms(rng *rand.Rand, n int) []float64 {
	v := make([]float64, n)
	for i := range v {
		switch rng.IntN(10) {
		case 0:
			v[i] = 0
		case 1:
			v[i] = math.Copysign(0, -1)
		default:
			v[i] = rng.NormFloat64() * math.Pow(10, float64(rng.IntN(7)-3))
		}
	}
	return v
}

// The widths cover the kernels' blocks (two lanes, four rows, four
// columns) and their tails, and the upload's 50.
var widths = []int{1, 2, 3, 4, 5, 6, 7, 8, 9, 16, 17, 50, 51}

// TestOuterUpperMatchesGo compares OuterUpperTo with core's Go loop to the
// bit, for every width and row count around the blocks of four rows.
func TestOuterUpperMatchesGo(t *testing.T) {
	k := kernels(t)
	rng := rand.New(rand.NewPCG(1, 2))
	for _, d := range widths {
		for _, n := range []int{1, 2, 3, 4, 5, 7, 8, 9, 13, 40} {
			x, y := randoms(rng, n*d), randoms(rng, n*d)
			var rows []int32
			for _, r := range rng.Perm(n) {
				if rng.IntN(4) != 0 {
					rows = append(rows, int32(r))
				}
			}
			want := randoms(rng, d*d)
			got := randoms(rng, d*d) // the kernels write every entry
			core.GoKernels{}.OuterUpperTo(want, x, y, rows, d)
			k.OuterUpperTo(got, x, y, rows, d)
			if i, ok := sameBits(got, want); !ok {
				t.Fatalf("d=%d, %d rows of %d: entry %d is %v, Go's %v", d, len(rows), n, i, got[i], want[i])
			}
		}
	}
}

// TestAddPairsMatchesGo compares AddPairs with core's Go loop: y to the
// bit, the rows marked and their order, with pairs of weight 0 and −0,
// pairs of a row with itself and rows live before the call.
func TestAddPairsMatchesGo(t *testing.T) {
	k := kernels(t)
	rng := rand.New(rand.NewPCG(3, 4))
	for _, d := range widths {
		for _, n := range []int{1, 2, 5, 30} {
			for _, np := range []int{0, 1, 7, 100} {
				x := randoms(rng, n*d)
				pa, pb := make([]int32, np), make([]int32, np)
				for p := range pa {
					pa[p], pb[p] = int32(rng.IntN(n)), int32(rng.IntN(n))
				}
				w := randoms(rng, np)
				y0 := randoms(rng, n*d)
				live0 := make([]bool, n)
				var pre []int32
				for r := range live0 {
					if rng.IntN(5) == 0 {
						live0[r] = true
						pre = append(pre, int32(r))
					}
				}
				run := func(kk core.Kernels) ([]float64, []bool, []int32) {
					y, live := slices.Clone(y0), slices.Clone(live0)
					rows := make([]int32, len(pre), n)
					copy(rows, pre)
					rows = kk.AddPairs(y, x, w, pa, pb, live, rows, d)
					return y, live, rows
				}
				wy, wl, wr := run(core.GoKernels{})
				gy, gl, gr := run(k)
				if i, ok := sameBits(gy, wy); !ok {
					t.Fatalf("d=%d n=%d pairs=%d: y[%d] is %v, Go's %v", d, n, np, i, gy[i], wy[i])
				}
				if !slices.Equal(gl, wl) || !slices.Equal(gr, wr) {
					t.Fatalf("d=%d n=%d pairs=%d: rows marked %v %v, Go's %v %v", d, n, np, gl, gr, wl, wr)
				}
			}
		}
	}
}

// TestRowDotsMatchesGo compares RowDotsTo with core's Go loop to the bit,
// for odd and even row counts and column counts around the blocks of four.
func TestRowDotsMatchesGo(t *testing.T) {
	k := kernels(t)
	rng := rand.New(rand.NewPCG(5, 6))
	for _, d := range widths {
		for _, n := range []int{1, 2, 3, 4, 7, 30} {
			for _, r := range []int{1, 2, 3, 4, 5, 7, 8, 9, d} {
				x, w := randoms(rng, n*d), randoms(rng, r*d)
				want, got := randoms(rng, n*r), randoms(rng, n*r)
				core.GoKernels{}.RowDotsTo(want, x, w, d, r)
				k.RowDotsTo(got, x, w, d, r)
				if i, ok := sameBits(got, want); !ok {
					t.Fatalf("d=%d n=%d r=%d: z[%d] is %v, Go's %v", d, n, r, i, got[i], want[i])
				}
			}
		}
	}
}

// TestSolveSameBits solves the same problems with core's Go loops and with
// the kernels, by every method that forms M or its products: the results
// must be the same to the bit, iterations and all.
func TestSolveSameBits(t *testing.T) {
	k := kernels(t)
	defer core.UseKernels(nil)
	ds, err := core.ReadCSV(strings.NewReader(bigcsv.CSV(300, 13, 3, 4)), core.CSVOptions{})
	if err != nil {
		t.Fatal(err)
	}
	_, x, err := core.Standardize(ds.X, nil)
	if err != nil {
		t.Fatal(err)
	}
	ts, err := core.LabelTriplets(x, ds.Labels, ds.Classes, 3, 3)
	if err != nil {
		t.Fatal(err)
	}
	ts, _ = core.Flip(ts, 0.2, 1)
	p := &core.Problem{X: x, Triplets: ts, Eta: 0.8, Lambda: 1}
	for _, m := range []core.Method{core.Fast, core.Nesterov, core.LMNN, core.Xing, core.BestCase} {
		s := core.Settings{Method: m, Tol: 1e-6, MaxIter: 300}
		core.UseKernels(nil)
		want, err := core.Solve(context.Background(), p, s)
		if err != nil {
			t.Fatal(err)
		}
		core.UseKernels(k)
		got, err := core.Solve(context.Background(), p, s)
		if err != nil {
			t.Fatal(err)
		}
		if got.Iter != want.Iter || got.Status != want.Status {
			t.Fatalf("%v: %d iterations (%v) with the kernels, %d (%v) without", m, got.Iter, got.Status, want.Iter, want.Status)
		}
		if i, ok := sameBits(got.A.RawSymmetric().Data, want.A.RawSymmetric().Data); !ok {
			t.Fatalf("%v: A's entry %d is %v with the kernels, %v without", m, i, got.A.RawSymmetric().Data[i], want.A.RawSymmetric().Data[i])
		}
		if i, ok := sameBits(got.Q, want.Q); !ok {
			t.Fatalf("%v: q_%d is %v with the kernels, %v without", m, i, got.Q[i], want.Q[i])
		}
	}
}

// TestKernelsAllocateNothing: a call allocates nothing in Go (the solver's
// iterations allocate nothing, core's TestNoAllocationsPerIteration).
func TestKernelsAllocateNothing(t *testing.T) {
	k := kernels(t)
	const n, d, r = 40, 9, 5
	rng := rand.New(rand.NewPCG(7, 8))
	x, y, w := randoms(rng, n*d), randoms(rng, n*d), randoms(rng, r*d)
	dst, z := make([]float64, d*d), make([]float64, n*r)
	rows := []int32{3, 1, 4, 15, 9, 26, 5}
	pa, pb, pw := []int32{0, 1, 2}, []int32{5, 6, 7}, []float64{1, -2, 3}
	live, isLive := make([]int32, 0, n), make([]bool, n)
	k.RowDotsTo(z, x, w, d, r) // its scratch, once
	if a := testing.AllocsPerRun(20, func() {
		k.OuterUpperTo(dst, x, y, rows, d)
		clear(isLive)
		k.AddPairs(y, x, pw, pa, pb, isLive, live[:0], d)
		k.RowDotsTo(z, x, w, d, r)
	}); a != 0 {
		t.Errorf("%v allocations per round of the three kernels, want 0", a)
	}
}

// BenchmarkKernels times each kernel against core's Go loop on the
// upload's sizes (4,250 training rows × 50, every row live; 38,250 pairs
// of random rows; 50 columns of W).
func BenchmarkKernels(b *testing.B) {
	k := kernels(b)
	const n, d = 4250, 50
	rng := rand.New(rand.NewPCG(9, 10))
	x, y, w := randoms(rng, n*d), randoms(rng, n*d), randoms(rng, d*d)
	rows := make([]int32, n)
	for i, r := range rng.Perm(n) {
		rows[i] = int32(r)
	}
	np := 38250
	pa, pb, pw := make([]int32, np), make([]int32, np), randoms(rng, np)
	for p := range pa {
		pa[p], pb[p] = int32(rng.IntN(n)), int32(rng.IntN(n))
	}
	dst, z := make([]float64, d*d), make([]float64, n*d)
	live, isLive := make([]int32, 0, n), make([]bool, n)
	for _, kk := range []struct {
		name string
		k    core.Kernels
	}{{"go", core.GoKernels{}}, {"simd", k}} {
		b.Run("outer/"+kk.name, func(b *testing.B) {
			for b.Loop() {
				kk.k.OuterUpperTo(dst, x, y, rows, d)
			}
		})
		b.Run("pairs/"+kk.name, func(b *testing.B) {
			for b.Loop() {
				clear(isLive)
				kk.k.AddPairs(y, x, pw, pa, pb, isLive, live[:0], d)
			}
		})
		b.Run("rowdots/"+kk.name, func(b *testing.B) {
			for b.Loop() {
				kk.k.RowDotsTo(z, x, w, d, d)
			}
		})
	}
}

// BenchmarkUpload trains the e2e visit's 5,000 × 50 upload (bigcsv.CSV(5000,
// 50, 5, 10), split and standardized as the page does, 3 × 3 triplets per
// row, η = 0.8, λ = 1) to a relative gap of 1e-3 with core's Go loops and
// with the kernels: the page's figure, under Node.
func BenchmarkUpload(b *testing.B) {
	k := kernels(b)
	defer core.UseKernels(nil)
	ds, err := core.ReadCSV(strings.NewReader(bigcsv.CSV(5000, 50, 5, 10)), core.CSVOptions{})
	if err != nil {
		b.Fatal(err)
	}
	train, _ := core.StratifiedSplit(ds.Labels, spec.TestFrac, 1)
	_, x, err := core.Standardize(ds.X, train)
	if err != nil {
		b.Fatal(err)
	}
	pp, _, err := core.LabelData(context.Background(), nil, x, core.SelectLabels(ds.Labels, train), ds.Classes, core.TripletOptions{KSame: 3, KDiff: 3, Seed: 1})
	if err != nil {
		b.Fatal(err)
	}
	p := pp.Problem(0.8, 1)
	for _, kk := range []struct {
		name string
		k    core.Kernels
	}{{"go", nil}, {"simd", k}} {
		b.Run(kk.name, func(b *testing.B) {
			core.UseKernels(kk.k)
			var res *core.Result
			for b.Loop() {
				res, err = core.Solve(context.Background(), p, core.Settings{Tol: 1e-3, TimeLimit: 120 * time.Second})
				if err != nil {
					b.Fatal(err)
				}
			}
			b.ReportMetric(float64(res.Iter), "iters")
			b.ReportMetric(res.Progress.RelGap, "relgap")
		})
	}
}

// New refuses what is not a WebAssembly.Memory, and a memory the module
// cannot import (too small: it asks for one page), with an error, not a
// panic; Install then leaves core's Go loops in place.
func TestNewRefuses(t *testing.T) {
	for _, c := range []struct {
		name string
		mem  js.Value
	}{
		{"undefined", js.Undefined()},
		{"an object", js.Global().Get("Object").New()},
		{"a memory of no pages", js.Global().Get("WebAssembly").Get("Memory").New(map[string]any{"initial": 0})},
	} {
		if k, err := New(c.mem); err == nil || k != nil {
			t.Errorf("%s: New gave %v, %v; want an error", c.name, k, err)
		}
		if err := Install(c.mem); err == nil {
			t.Errorf("%s: Install succeeded", c.name)
		}
	}
}
