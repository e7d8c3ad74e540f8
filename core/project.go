package core

import "slices"

// projector computes Euclidean projections onto Q̂ = {q ∈ [0,1]^N : Σ q ≤ m}.
type projector struct {
	m    float64
	ev   []event   // scratch, 2N
	ones []float64 // u for the plain Euclidean projection
}

type event struct {
	at    float64 // the value of μ where the slope of φ changes
	slope float64 // −u_i where c_i − μ u_i falls below 1, +u_i where it falls below 0
}

func newProjector(n int, m float64) *projector {
	ones := make([]float64, n)
	for i := range ones {
		ones[i] = 1
	}
	return &projector{m: m, ev: make([]event, 0, 2*n), ones: ones}
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
	return pr.projectScaledTo(dst, c, pr.ones[:len(c)])
}

// projectScaledTo sets dst to the projection of c onto Q̂ in the norm
// ‖v‖²_W = Σ w_i v_i², given u_i = 1/w_i (nil: all 1), which is
//
//	q_i = clip(c_i − μ u_i, 0, 1),
//
// with μ found as in projectTo: φ(μ) = Σ_i clip(c_i − μ u_i, 0, 1) is
// piecewise linear with breakpoints (c_i − 1)/u_i and c_i/u_i, where its
// slope changes by ∓u_i.
func (pr *projector) projectScaledTo(dst, c, u []float64) (mu float64) {
	var s float64
	for _, v := range c {
		s += clip01(v)
	}
	if s <= pr.m {
		for i, v := range c {
			dst[i] = clip01(v)
		}
		return 0
	}
	// φ(0) = s > m. Slope just right of μ = 0: −#{i : c_i − 1 ≤ 0 < c_i}.
	ev := pr.ev[:0]
	var slope float64
	active := 0 // pieces with slope: slope is exactly 0 when none
	for i, v := range c {
		if v <= 0 {
			continue // clip(v − μ u_i) = 0 for all μ ≥ 0
		}
		w := u[i]
		if v-1 > 0 {
			ev = append(ev, event{(v - 1) / w, -w})
		} else {
			slope -= w
			active++
		}
		ev = append(ev, event{v / w, +w})
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
		if e.slope < 0 {
			active++
		} else {
			active--
		}
		if active == 0 {
			slope = 0
		}
	}
	if mu < 0 {
		// Only rounding can bring us here: φ reaches 0 ≤ m at the last
		// breakpoint, so μ lies at or below it.
		mu = at
	}
	var sum float64
	for i, v := range c {
		dst[i] = clip01(v - mu*u[i])
		sum += dst[i]
	}
	// μ carries the rounding of the breakpoints, which grows with |c|
	// (long steps at large λ put c near 1e6: Σ q then exceeded m by 2e-11
	// relative). A point outside Q̂ gives no valid bound, so the excess is
	// taken back in proportion: Σ q = m to a few ulps, the box kept.
	if sum > pr.m {
		f := pr.m / sum
		for i := range dst {
			dst[i] *= f
		}
	}
	pr.ev = ev
	return mu
}

// clip01 returns v clipped to [0, 1] (NaN stays NaN). It is what
// min(max(v, 0), 1) computes, but Go's js/wasm port compiles those builtins
// to calls of runtime.fmin64 and runtime.fmax64: in projectScaledTo, run
// once per FISTA step on every q_i, the two calls took 6 % of the page's
// 5,000 × 50 upload (a V8 profile of BenchmarkUpload under Node).
func clip01(v float64) float64 {
	if v < 0 {
		return 0
	}
	if v > 1 {
		return 1
	}
	return v
}
