package core

import (
	"fmt"
	"math"
	"math/rand/v2"
	"slices"
	"testing"
)

// TestSortFloats checks sortFloats against slices.Sort, value by value,
// on slices below and above radixMin (under wasm and natively): random values of one sign and of
// both, few distinct values (many ties), margins like bestScale's, ±0,
// ±Inf, subnormals and the largest floats, one value repeated, sorted and
// reversed input; a NaN goes to slices.Sort (NaNs first). Equal values may
// come in any order, so the comparison is by value (−0 == +0), and −0
// must come before +0.
func TestSortFloats(t *testing.T) {
	r := rand.New(rand.NewPCG(7, 1))
	gens := map[string]func(int) float64{
		"normal":   func(int) float64 { return r.NormFloat64() },
		"positive": func(int) float64 { return r.ExpFloat64() },
		"margins":  func(int) float64 { return 1 + 0.7*r.NormFloat64() },
		"ties":     func(int) float64 { return float64(r.IntN(5) - 2) },
		"zeros": func(int) float64 {
			if r.IntN(2) == 0 {
				return math.Copysign(0, -1)
			}
			return 0
		},
		"extremes": func(int) float64 {
			vs := []float64{math.Inf(1), math.Inf(-1), math.MaxFloat64, -math.MaxFloat64, math.SmallestNonzeroFloat64,
				-math.SmallestNonzeroFloat64, 0x1p-1022, math.Copysign(0, -1), 0, 1, -1}
			return vs[r.IntN(len(vs))]
		},
		"constant":  func(int) float64 { return 3.25 },
		"ascending": func(i int) float64 { return float64(i) / 7 },
		"reversed":  func(i int) float64 { return -float64(i) * 1e-300 },
	}
	var keys []uint64
	for name, gen := range gens {
		for _, n := range []int{0, 1, 2, 999, 1000, 5999, 6000, 38250} {
			v := make([]float64, n)
			for i := range v {
				v[i] = gen(i)
			}
			want := slices.Clone(v)
			slices.Sort(want)
			keys = sortFloats(v, keys)
			for i := range v {
				if v[i] != want[i] {
					t.Fatalf("%s, %d values: [%d] = %v, slices.Sort has %v", name, n, i, v[i], want[i])
				}
				if i > 0 && v[i] == 0 && v[i-1] == 0 && math.Signbit(v[i]) && !math.Signbit(v[i-1]) {
					if n >= radixMin() {
						t.Fatalf("%s, %d values: +0 before −0 at %d", name, n, i)
					}
				}
			}
		}
	}
	// A NaN: slices.Sort's order, NaNs first.
	v := make([]float64, 2*radixMin())
	for i := range v {
		v[i] = r.NormFloat64()
	}
	v[17] = math.NaN()
	keys = sortFloats(v, keys)
	if !math.IsNaN(v[0]) || !slices.IsSorted(v[1:]) {
		t.Errorf("with a NaN: first %v, the rest sorted %v", v[0], slices.IsSorted(v[1:]))
	}
}

// BenchmarkSortFloats sorts n margins like bestScale's (1 + 0.7·N(0, 1),
// seeded) by slices.Sort and by sortFloats.
func BenchmarkSortFloats(b *testing.B) {
	for _, n := range []int{300, 1000, 3000, 10000, 38250} {
		r := rand.New(rand.NewPCG(1, 2))
		v := make([]float64, n)
		for i := range v {
			v[i] = 1 + 0.7*r.NormFloat64()
		}
		w := make([]float64, n)
		b.Run(fmt.Sprintf("n=%d/slices", n), func(b *testing.B) {
			for b.Loop() {
				copy(w, v)
				slices.Sort(w)
			}
		})
		var keys []uint64
		b.Run(fmt.Sprintf("n=%d/radix", n), func(b *testing.B) {
			for b.Loop() {
				copy(w, v)
				keys = sortFloats(w, keys)
			}
		})
	}
}
