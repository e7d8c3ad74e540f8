package store

import "github.com/rml-lab/rml/spec"

// Remaining estimates the seconds a running run still needs to reach its
// stopping level: spec.IterationsLeft at the run's iterations per second.
// ok is false before there is enough to go on (20 iterations and 0.3 s) or
// while the gap does not fall.
func (s *State) Remaining() (seconds float64, ok bool) {
	tr, last := s.Trace, s.Last
	n := len(tr.Iters)
	rate := s.Rate()
	if s.Status != Running || n < 20 || last.Seconds < 0.3 || rate <= 0 {
		return 0, false
	}
	left, ok := spec.IterationsLeft(tr.Iters, tr.Gaps, spec.StopGap(s.Params.Tol, last.Primal))
	if !ok {
		return 0, false
	}
	return left / rate, true
}
