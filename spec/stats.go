package spec

import "math"

// Z95 is the standard normal quantile of a two-sided 95 % interval.
const Z95 = 1.959963984540054

// Wilson returns Wilson's score interval for a proportion at the 95 %
// level: k successes (here, misclassified test rows) out of n. With
// p = k/n and z = Z95,
//
//	(p + z²/2n ± z·√(p(1−p)/n + z²/4n²)) / (1 + z²/n).
//
// Unlike p ± z·√(p(1−p)/n) it stays in [0, 1] and is not empty at k = 0,
// which is the case that matters for a test error on a few dozen rows.
// It returns (0, 1) for n = 0, and panics for k outside [0, n].
func Wilson(k, n int) (lo, hi float64) {
	if k < 0 || k > n {
		panic("spec: Wilson: k outside [0, n]")
	}
	if n == 0 {
		return 0, 1
	}
	z2, fn := Z95*Z95, float64(n)
	p := float64(k) / fn
	centre := p + z2/(2*fn)
	half := Z95 * math.Sqrt(p*(1-p)/fn+z2/(4*fn*fn))
	den := 1 + z2/fn
	lo, hi = max(0, (centre-half)/den), min(1, (centre+half)/den)
	if k == 0 {
		lo = 0
	}
	if k == n {
		hi = 1
	}
	return lo, hi
}

// Misclassified is the number of test rows an error rate err stands for
// out of n (the rate is a count over n, rounded back).
func Misclassified(err float64, n int) int {
	return min(n, max(0, int(math.Round(err*float64(n)))))
}
