package core

import (
	"math/rand/v2"
	"testing"
)

// EstimateNoise on triplets of which a known share is wrong: every
// triplet checked gives the share exactly; the same seed the same sample;
// and over 400 samples of 60 the 95 % interval holds the true share about
// 95 % of the time (at least 90 %: Wilson's interval is close to nominal
// at this size).
func TestEstimateNoise(t *testing.T) {
	rng := rand.New(rand.NewPCG(9, 9))
	wrong := make([]bool, 2000)
	k := 0
	for i := range wrong {
		if rng.Float64() < 0.2 {
			wrong[i], k = true, k+1
		}
	}
	truth := float64(k) / float64(len(wrong))
	all := EstimateNoise(wrong, 5000, 1)
	if all.Checked != len(wrong) || all.Wrong != k || all.Rate != truth || !(all.Lo <= truth && truth <= all.Hi) {
		t.Errorf("every triplet checked: %+v, truth %v", all, truth)
	}
	if a, b := EstimateNoise(wrong, 60, 3), EstimateNoise(wrong, 60, 3); a != b {
		t.Errorf("the same seed, two samples: %+v, %+v", a, b)
	}
	covered := 0
	for seed := uint64(1); seed <= 400; seed++ {
		e := EstimateNoise(wrong, 60, seed)
		if e.Checked != 60 || e.Rate != float64(e.Wrong)/60 {
			t.Fatalf("seed %d: %+v", seed, e)
		}
		if e.Lo <= truth && truth <= e.Hi {
			covered++
		}
	}
	if covered < 360 {
		t.Errorf("the 95 %% interval held the truth in %d of 400 samples", covered)
	}
	if e := EstimateNoise(nil, 10, 1); e.Checked != 0 || e.Lo != 0 || e.Hi != 1 {
		t.Errorf("no triplets: %+v", e)
	}
}
