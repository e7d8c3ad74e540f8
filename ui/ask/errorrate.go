package ask

import (
	"math"

	"github.com/rml-lab/rml/spec"
)

// ErrorRate is a person's error rate as estimated from the questions asked
// twice: Pairs answered both times, Disagree of them answered differently.
//
// If each answer is wrong with probability ε, independently, two answers
// to one question disagree with probability p = 2ε(1 − ε), so
//
//	ε = (1 − √(1 − 2p)) / 2   (p ≤ ½; above ½ no ε explains it, and ε = ½)
//
// Est maps the share of disagreements through it, and Lo and Hi map
// Wilson's 95 % interval for p: a monotone map keeps the interval's
// coverage. A person who errs on the same hard question both times is not
// caught by a repeat: the estimate is of the errors that vary.
type ErrorRate struct {
	Pairs, Disagree int
	Est, Lo, Hi     float64 // NaN without pairs
}

// epsOf is ε for a disagreement probability p.
func epsOf(p float64) float64 {
	return (1 - math.Sqrt(max(0, 1-2*min(p, 0.5)))) / 2
}

// EstimateErrorRate estimates the error rate from triplets answered by one
// person: two triplets with the same anchor and the same two candidates
// are one question answered twice, and they disagree when they chose
// differently. A question answered more than twice counts each answer
// after the first against the first.
func EstimateErrorRate(ts [][3]int) ErrorRate {
	type key struct{ a, lo, hi int }
	first := map[key]int{}
	var e ErrorRate
	for _, t := range ts {
		p := sortedPair(t[1], t[2])
		k := key{t[0], p[0], p[1]}
		chosen, seen := first[k]
		if !seen {
			first[k] = t[1]
			continue
		}
		e.Pairs++
		if chosen != t[1] {
			e.Disagree++
		}
	}
	e.Est, e.Lo, e.Hi = math.NaN(), math.NaN(), math.NaN()
	if e.Pairs > 0 {
		lo, hi := spec.Wilson(e.Disagree, e.Pairs)
		e.Est, e.Lo, e.Hi = epsOf(float64(e.Disagree)/float64(e.Pairs)), epsOf(lo), epsOf(hi)
	}
	return e
}
