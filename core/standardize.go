package core

import (
	"fmt"
	"math"

	"gonum.org/v1/gonum/mat"
)

// Standardizer maps each column to zero mean and unit variance, with the
// statistics of the rows it was fitted on.
type Standardizer struct {
	Mean, Std []float64 // of each column; Std is 1 for a constant column
	// Scale is the power of two at or just below each column's largest magnitude
	// on the fitted rows (1 for a column of zeros): Transform divides by it
	// first, exactly, so that no intermediate result overflows or
	// underflows, whatever the units.
	Scale []float64

	constant []bool
}

// constantRel is the spread, relative to a column's largest magnitude,
// below which the column counts as constant: a few hundred roundings of the
// mean, far below any measured variation.
const constantRel = 1e-12

// FitStandardizer computes the mean and (population) standard deviation of
// the given rows of x; nil rows means all rows. A NaN is a missing value:
// the statistics are those of the observed values, and Transform maps a NaN
// to 0, the mean (a column with no observed value counts as constant). A
// constant column, one whose standard deviation is at most about 1e-12
// times its largest magnitude (1e-12 times Scale, within a factor 2 of it),
// gets Std = 1 and maps to zeros (in every row). The decision and the
// standardized values do not depend on the column's units: the statistics
// are computed on the column divided by its largest magnitude, so any
// finite column, × 1e-300 or × 1e300, standardizes as the same column × 1
// does.
func FitStandardizer(x mat.Matrix, rows []int) *Standardizer {
	n, d := x.Dims()
	if rows == nil {
		rows = make([]int, n)
		for i := range rows {
			rows[i] = i
		}
	}
	if len(rows) == 0 {
		panic("core: standardizer fitted on no rows")
	}
	s := &Standardizer{Mean: make([]float64, d), Std: make([]float64, d), Scale: make([]float64, d), constant: make([]bool, d)}
	for j := 0; j < d; j++ {
		var c float64
		seen := 0
		for _, i := range rows {
			if v := x.At(i, j); !math.IsNaN(v) {
				c = max(c, math.Abs(v))
				seen++
			}
		}
		if seen == 0 {
			s.Std[j], s.Scale[j], s.constant[j] = 1, 1, true
			continue
		}
		if c == 0 || math.IsInf(c, 0) {
			c = 1
		}
		// A power of two: dividing by it is exact, so for data that would
		// not overflow the statistics are bit for bit those of the column
		// itself (and iteration counts, which follow rounding, unchanged).
		// (2^(e−1) ≤ c < 2^e: 2^e itself overflows for c near 1.8e308.)
		_, e := math.Frexp(c)
		c = math.Ldexp(1, e-1)
		// μ' and σ' of the column's observed values divided by c, all in (−2, 2].
		var m float64
		for _, i := range rows {
			if v := x.At(i, j); !math.IsNaN(v) {
				m += v / c
			}
		}
		m /= float64(seen)
		var v float64
		for _, i := range rows {
			if xv := x.At(i, j); !math.IsNaN(xv) {
				t := xv/c - m
				v += t * t
			}
		}
		sd := math.Sqrt(v / float64(seen))
		s.Scale[j], s.Mean[j] = c, m*c
		if sd > constantRel {
			s.Std[j] = sd * c
		} else {
			s.Std[j], s.constant[j] = 1, true
		}
	}
	return s
}

// ConstantColumns returns the columns that were constant on the fitted
// rows (Std set to 1; they standardize to zeros there).
func (s *Standardizer) ConstantColumns() []int {
	var out []int
	for j, c := range s.constant {
		if c {
			out = append(out, j)
		}
	}
	return out
}

// transform standardizes the value v of column j:
//
//	(v − μ)/σ = (v/c − μ/c)/(σ/c),  c = Scale_j,
//
// and 0 for a column that was constant on the fitted rows (which say
// nothing about its other values), and for a missing value (NaN): the mean.
func (s *Standardizer) transform(j int, v float64) float64 {
	if s.constant != nil && s.constant[j] || math.IsNaN(v) {
		return 0
	}
	c := 1.0
	if s.Scale != nil && s.Scale[j] > 0 {
		c = s.Scale[j]
	}
	return (v/c - s.Mean[j]/c) / (s.Std[j] / c)
}

// Transform returns the standardized rows of x (all of them) as a new matrix.
func (s *Standardizer) Transform(x mat.Matrix) *mat.Dense {
	n, d := x.Dims()
	if d != len(s.Mean) {
		panic(fmt.Sprintf("core: standardizer for %d columns applied to %d", len(s.Mean), d))
	}
	dst := mat.NewDense(n, d, nil)
	for i := 0; i < n; i++ {
		for j := 0; j < d; j++ {
			dst.Set(i, j, s.transform(j, x.At(i, j)))
		}
	}
	return dst
}
