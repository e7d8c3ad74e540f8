package spec_test

import (
	"fmt"
	"math"
	"testing"

	"github.com/rml-lab/rml/spec"
)

func TestRanges(t *testing.T) {
	for _, c := range []struct {
		r       spec.Range
		in, out []float64
	}{
		{spec.EtaRange, []float64{1, 0.5, 1e-9}, []float64{0, -0.1, 1.0000001, math.NaN()}},
		{spec.LambdaRange, []float64{1e-300, 1, 1e300}, []float64{0, -1, math.Inf(1), math.NaN()}},
		{spec.TolRange, []float64{1e-12, 0.5}, []float64{0, 1, math.NaN()}},
		{spec.FlipRange, []float64{0, 0.2, 1}, []float64{-0.01, 1.01, math.NaN()}},
		{spec.PageKRange, []float64{1, 3, 50}, []float64{0, 2.5, 51}},
	} {
		for _, v := range c.in {
			if err := c.r.Check(v); err != nil {
				t.Errorf("%s: %v refused: %v", c.r.Name, v, err)
			}
		}
		for _, v := range c.out {
			if c.r.Check(v) == nil {
				t.Errorf("%s: %v accepted", c.r.Name, v)
			}
		}
	}
	if err := spec.CheckMethod("newton"); err == nil || spec.CheckMethod(spec.Nesterov) != nil {
		t.Errorf("CheckMethod: %v", err)
	}
}

func ExampleRange_Check() {
	fmt.Println(spec.EtaRange.Check(1.5))
	fmt.Println(spec.PageKRange.Named("k_same").Check(0))
	fmt.Println(spec.RelGap(2e-6, -4), spec.RelGap(2e-6, 0.5))
	// Output:
	// η = 1.5: expected a number in (0, 1]
	// k_same = 0: expected a whole number from 1 to 50
	// 5e-07 2e-06
}

// Trusted counts ⌈m⌉ triplets, an m within rounding of an integer as that
// integer, and always at least one and at most all of them.
func TestTrusted(t *testing.T) {
	for _, c := range []struct {
		n    int
		m    float64
		want int
	}{
		{10, 8, 8}, {10, 7.5, 8}, {10, 8 + 1e-12, 8}, {10, 0.2, 1}, {10, 0, 1}, {10, 12, 10},
		{1836, 1836 * 0.8, 1469}, {1000, 1000 * 0.7, 700}, {3, 3 * (1 - 1e-16), 3},
	} {
		if got := spec.Trusted(c.n, c.m); got != c.want {
			t.Errorf("Trusted(%d, %v) = %d, want %d", c.n, c.m, got, c.want)
		}
	}
}
