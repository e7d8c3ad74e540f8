package ask

import "math/rand/v2"

// Respondent answers as a hidden metric does, wrong at rate Err: each
// answer, independently, picks the candidate the metric finds farther.
// It never says it cannot tell.
type Respondent struct {
	Dist Dist
	Err  float64
	rng  *rand.Rand
}

// NewRespondent is a respondent by dist erring at rate errRate, seeded.
func NewRespondent(dist Dist, errRate float64, seed uint64) *Respondent {
	if !(errRate >= 0 && errRate <= 1) {
		panic("ask: error rate outside [0, 1]")
	}
	return &Respondent{Dist: dist, Err: errRate, rng: rand.New(rand.NewPCG(seed, 0x726573706f6e64))} // "respond"
}

// Answer answers q.
func (r *Respondent) Answer(q Question) Choice {
	c := Left
	if r.Dist(q.Anchor, q.Right) < r.Dist(q.Anchor, q.Left) {
		c = Right
	}
	if r.rng.Float64() < r.Err {
		c = Left + Right - c
	}
	return c
}
