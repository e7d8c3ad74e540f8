package core

import (
	"math"
	"math/rand/v2"

	"gonum.org/v1/gonum/stat"
	"gonum.org/v1/gonum/stat/distuv"
)

// Paired is a paired comparison of two methods over the same splits: the
// mean of the differences a − b, its 95 % t-interval, and the two-sided
// p-value of a sign-flip permutation test of that mean (exact up to 2^16
// flips, else over 2^16 seeded random ones).
type Paired struct {
	N              int     // pairs
	Mean, Lo, Hi   float64 // mean difference and its 95 % interval
	P              float64
	Better, Worse  bool // the interval and the test (p < 0.05) agree that a is lower, or higher
	CannotTell     bool // neither
	permutationsOf int  // flips the p-value was counted over (tests)
}

// PairedDiff compares a and b (the same length: errors of two methods on
// the same splits), pair by pair. Under the null hypothesis that the two
// are exchangeable on each split, each difference's sign is a fair coin:
// the p-value is the share of sign assignments whose mean is at least as
// far from 0 as the one observed. seed draws the flips when there are too
// many to list.
func PairedDiff(a, b []float64, seed uint64) Paired {
	if len(a) != len(b) {
		panic("core: PairedDiff of lists of different lengths")
	}
	n := len(a)
	d := make([]float64, n)
	for i := range d {
		d[i] = a[i] - b[i]
	}
	p := Paired{N: n, Mean: math.NaN(), Lo: math.NaN(), Hi: math.NaN(), P: math.NaN()}
	if n == 0 {
		p.CannotTell = true
		return p
	}
	mean, sd := stat.MeanStdDev(d, nil)
	p.Mean = mean
	if n > 1 {
		h := distuv.StudentsT{Mu: 0, Sigma: 1, Nu: float64(n - 1)}.Quantile(0.975) * sd / math.Sqrt(float64(n))
		p.Lo, p.Hi = mean-h, mean+h
		if sd == 0 {
			p.Lo, p.Hi = mean, mean
		}
	}
	// The permutation test on the sum (the mean times n), compared with a
	// tolerance for rounding in the sums.
	obs := math.Abs(sumOf(d))
	tol := 1e-9 * (1 + obs)
	extreme, total := 0, 0
	// count adds one sign assignment: flip(i) says whether d[i] is negated.
	count := func(flip func(i int) bool) {
		var s float64
		for i, v := range d {
			if flip(i) {
				s -= v
			} else {
				s += v
			}
		}
		total++
		if math.Abs(s) >= obs-tol {
			extreme++
		}
	}
	const most = 1 << 16
	if n <= 16 {
		for signs := uint64(0); signs < 1<<uint(n); signs++ {
			count(func(i int) bool { return signs>>uint(i)&1 == 1 })
		}
	} else {
		rng := rand.New(rand.NewPCG(seed, 0x5e1f))
		for k := 0; k < most; k++ {
			count(func(int) bool { return rng.IntN(2) == 1 })
		}
	}
	p.P, p.permutationsOf = float64(extreme)/float64(total), total
	p.Better = p.P < 0.05 && p.Hi < 0
	p.Worse = p.P < 0.05 && p.Lo > 0
	p.CannotTell = !p.Better && !p.Worse
	return p
}

// sumOf is the sum of v, in order.
func sumOf(v []float64) float64 {
	var s float64
	for _, x := range v {
		s += x
	}
	return s
}
