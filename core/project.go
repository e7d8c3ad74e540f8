package core

import "slices"

// projector computes Euclidean projections onto Q̂ = {q ∈ [0,1]^N : Σ q ≤ m}.
type projector struct {
	m  float64
	ev []event // scratch, 2N
}

type event struct {
	at    float64 // the value of μ where the slope of φ changes
	slope float64 // −1 where c_i − μ falls below 1, +1 where it falls below 0
}

func newProjector(n int, m float64) *projector {
	return &projector{m: m, ev: make([]event, 0, 2*n)}
}

// projectTo sets dst to argmin_{q ∈ Q̂} ‖q − c‖², which is
//
//	q_i = clip(c_i − μ, 0, 1),
//
// with μ = 0 if that already satisfies Σ q ≤ m, and otherwise the μ > 0 at
// which φ(μ) = Σ_i clip(c_i − μ, 0, 1) = m. φ is piecewise linear and
// non-increasing with breakpoints {c_i − 1, c_i}; sorting them and walking
// the pieces finds μ exactly in O(N log N). It returns μ. dst and c may be the
// same slice.
func (pr *projector) projectTo(dst, c []float64) (mu float64) {
	var s float64
	for _, v := range c {
		s += min(max(v, 0), 1)
	}
	if s <= pr.m {
		for i, v := range c {
			dst[i] = min(max(v, 0), 1)
		}
		return 0
	}
	// φ(0) = s > m. Slope just right of μ = 0: −#{i : c_i − 1 ≤ 0 < c_i}.
	ev := pr.ev[:0]
	var slope float64
	for _, v := range c {
		if v <= 0 {
			continue // clip(v − μ) = 0 for all μ ≥ 0
		}
		if v-1 > 0 {
			ev = append(ev, event{v - 1, -1})
		} else {
			slope--
		}
		ev = append(ev, event{v, +1})
	}
	slices.SortFunc(ev, func(a, b event) int {
		switch {
		case a.at < b.at:
			return -1
		case a.at > b.at:
			return 1
		}
		return 0
	})
	phi, at := s, 0.0
	mu = -1
	for _, e := range ev {
		next := phi + slope*(e.at-at)
		if next <= pr.m && slope < 0 {
			mu = at + (phi-pr.m)/(-slope)
			break
		}
		phi, at = next, e.at
		slope += e.slope
	}
	if mu < 0 {
		// Only rounding can bring us here: φ reaches 0 ≤ m at the last
		// breakpoint, so μ lies at or below it.
		mu = at
	}
	for i, v := range c {
		dst[i] = min(max(v-mu, 0), 1)
	}
	pr.ev = ev
	return mu
}
