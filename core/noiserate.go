package core

import (
	"math/rand/v2"

	"github.com/rml-lab/rml/spec"
)

// A NoiseEstimate is the share of wrong triplets estimated from a sample
// re-checked by hand, as the paper's Section 4 suggests for choosing η: of
// Checked triplets drawn at random, Wrong were wrong; Rate is Wrong/Checked
// and [Lo, Hi] its 95 % interval (Wilson's).
type NoiseEstimate struct {
	Checked, Wrong int
	Rate, Lo, Hi   float64
}

// EstimateNoise draws m of the triplets at random without replacement
// (all of them if m is more; seeded) and checks each against wrong, the
// truth a re-check would reveal (for label triplets: which were swapped).
func EstimateNoise(wrong []bool, m int, seed uint64) NoiseEstimate {
	n := len(wrong)
	m = min(m, n)
	idx := rand.New(rand.NewPCG(seed, 0xc4ec)).Perm(n)[:m]
	est := NoiseEstimate{Checked: m}
	for _, i := range idx {
		if wrong[i] {
			est.Wrong++
		}
	}
	if m > 0 {
		est.Rate = float64(est.Wrong) / float64(m)
	}
	est.Lo, est.Hi = spec.Wilson(est.Wrong, m)
	return est
}
