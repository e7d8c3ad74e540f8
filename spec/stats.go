package spec

import (
	"math"
	"strconv"
)

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

// IterationsLeft estimates how many more iterations a run needs to bring
// its gap down to stop, from its trace (iterations ascending, and the gap
// at each), by the recent rate of decrease of the best gap so far: if the
// best Δ fell from g₁ by the middle iteration t/2 to g₂ by t, it is taken
// to keep falling by the same factor per iteration,
//
//	iterations left = (ln Δ_stop − ln g₂) / ((ln g₂ − ln g₁)/(t − t/2)).
//
// The best gap is used because the accelerated methods' gap oscillates;
// for a method that slows down as it goes (projected gradient), the
// estimate is a lower bound. ok is false while the best gap does not fall
// (or there is no trace); 0 when it is already below stop. The page's
// remaining time and the command line's both come from it.
func IterationsLeft(iters, gaps []float64, stop float64) (left float64, ok bool) {
	n := len(iters)
	if n == 0 || !(stop > 0) {
		return 0, false
	}
	t := iters[n-1]
	half := t / 2
	g1, g2 := math.Inf(1), math.Inf(1)
	for i, it := range iters {
		g := gaps[i]
		if !(g > 0) {
			continue
		}
		if it <= half {
			g1 = min(g1, g)
		}
		g2 = min(g2, g)
	}
	if math.IsInf(g1, 1) || !(g2 < g1) {
		return 0, false
	}
	if g2 <= stop {
		return 0, true
	}
	perIter := (math.Log(g2) - math.Log(g1)) / (t - half)
	return (math.Log(stop) - math.Log(g2)) / perIter, true
}

// GuessIters bounds, rounded outward, the iterations the fast method took
// to a relative gap of GuessTol on the benchmarks' large sets (core's
// BenchmarkWide and BenchmarkUpload: 5,000 rows of 50 to 400 features,
// every default). Before a run's own gap can say how fast it falls
// (IterationsLeft), its time per iteration times these is the page's and
// the command line's first guess at its length.
var GuessIters = [2]float64{200, 5000}

// GuessTol is the tolerance GuessIters hold for.
const GuessTol = 1e-3

// FirstGuess returns how long a run that takes secPerIter seconds an
// iteration may need to reach the tolerance tol: from lo to hi seconds for
// tol ≥ GuessTol; for a tighter tol at least lo, with hi = +Inf, since how
// much longer depends on how fast the gap falls, which only the run shows.
func FirstGuess(secPerIter, tol float64) (lo, hi float64) {
	lo, hi = GuessIters[0]*secPerIter, GuessIters[1]*secPerIter
	if tol < GuessTol {
		hi = math.Inf(1)
	}
	return lo, hi
}

// RoughDuration says a number of seconds the way a person would, for an
// estimate: "under 1 s", "about 40 s", "about 3 min", "about 2 h".
func RoughDuration(secs float64) string {
	if secs < 1 {
		return "under 1 s"
	}
	return "about " + roughUnit(secs)
}

// roughUnit is secs to the nearest second below 90 s, minute below 90
// min, else hour: "40 s", "3 min", "2 h".
func roughUnit(secs float64) string {
	switch {
	case secs < 90:
		return strconv.FormatFloat(math.Round(secs), 'f', 0, 64) + " s"
	case secs < 90*60:
		return strconv.FormatFloat(math.Round(secs/60), 'f', 0, 64) + " min"
	}
	return strconv.FormatFloat(math.Round(secs/3600), 'f', 0, 64) + " h"
}

// GuessText is FirstGuess in a few words: "40 s to 17 min", or "at least
// 40 s" below GuessTol.
func GuessText(secPerIter, tol float64) string {
	lo, hi := FirstGuess(secPerIter, tol)
	if lo < 1 {
		lo = 1
	}
	if math.IsInf(hi, 1) {
		return "at least " + roughUnit(lo)
	}
	return roughUnit(lo) + " to " + roughUnit(max(hi, lo))
}
