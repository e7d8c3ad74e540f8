package store

import (
	"math"

	"github.com/rml-lab/rml/spec"
)

// Remaining estimates the seconds a running run still needs to reach its
// stopping level, from the recent rate of decrease of the best gap so far:
// if the best Δ fell from g₁ at the middle iteration t/2 to g₂ at t, it is
// taken to keep falling by the same factor per iteration,
//
//	iterations left = (ln Δ_stop − ln g₂) / ((ln g₂ − ln g₁)/(t − t/2)),
//
// at the run's iterations per second. ok is false before there is enough
// to go on (20 iterations and 0.3 s) or while the gap does not fall. The
// best gap is used because the accelerated methods' gap oscillates; for a
// method that slows down as it goes (projected gradient), the estimate is
// a lower bound.
func (s *State) Remaining() (seconds float64, ok bool) {
	tr, last := s.Trace, s.Last
	n := len(tr.Iters)
	rate := s.Rate()
	if s.Status != Running || n < 20 || last.Seconds < 0.3 || rate <= 0 {
		return 0, false
	}
	stop := spec.StopGap(s.Params.Tol, last.Primal)
	t := tr.Iters[n-1]
	half := t / 2
	g1, g2 := math.Inf(1), math.Inf(1)
	for i, it := range tr.Iters {
		g := tr.Gaps[i]
		if !(g > 0) {
			continue
		}
		if it <= half {
			g1 = min(g1, g)
		}
		g2 = min(g2, g)
	}
	if math.IsInf(g1, 1) || !(g2 < g1) || !(stop > 0) {
		return 0, false
	}
	if g2 <= stop {
		return 0, true
	}
	perIter := (math.Log(g2) - math.Log(g1)) / (t - half)
	left := (math.Log(stop) - math.Log(g2)) / perIter
	return left / rate, true
}
