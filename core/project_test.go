package core

import (
	"math"
	"math/rand/v2"
	"testing"
)

// bruteProject finds argmin ‖q − c‖² over Q̂ = {q ∈ [0,1]^N : Σq ≤ m} by
// enumerating every assignment of each coordinate to "at 0", "at 1" or
// "free", with the budget either slack (free q_i = c_i) or tight (free
// q_i = c_i − μ with μ ≥ 0 solving Σq = m), keeping the feasible candidate
// of least distance. Exponential, for N ≤ 6.
func bruteProject(c []float64, m float64) []float64 { return bruteProjectScaled(c, nil, m) }

// bruteProjectScaled does the same in the norm Σ w_i v_i², u_i = 1/w_i
// (nil: 1): free q_i = c_i − μ u_i, and μ = (#at 1 + Σ_free c_i − m)/Σ_free u_i
// when the budget is tight.
func bruteProjectScaled(c, u []float64, m float64) []float64 {
	ui := func(i int) float64 {
		if u == nil {
			return 1
		}
		return u[i]
	}
	n := len(c)
	best, bestD := []float64(nil), math.Inf(1)
	total := 1
	for range n {
		total *= 3
	}
	q := make([]float64, n)
	for code := 0; code < total; code++ {
		for _, tight := range []bool{false, true} {
			k, fixed, free := code, 0.0, 0
			var sumFree, sumU float64
			state := make([]int, n)
			for i := range n {
				state[i] = k % 3
				k /= 3
				switch state[i] {
				case 1:
					fixed++
				case 2:
					free++
					sumFree += c[i]
					sumU += ui(i)
				}
			}
			mu := 0.0
			if tight {
				if free == 0 {
					continue
				}
				mu = (fixed + sumFree - m) / sumU
				if mu < 0 {
					continue
				}
			}
			ok := true
			var s, dist float64
			for i := range n {
				switch state[i] {
				case 0:
					q[i] = 0
				case 1:
					q[i] = 1
				case 2:
					q[i] = c[i] - mu*ui(i)
					if q[i] < -1e-12 || q[i] > 1+1e-12 {
						ok = false
					}
				}
				s += q[i]
				dist += (q[i] - c[i]) * (q[i] - c[i]) / ui(i)
			}
			if ok && s <= m+1e-9 && dist < bestD-1e-15 {
				bestD = dist
				best = append(best[:0], q...)
			}
		}
	}
	return best
}

func TestProjectionMatchesBruteForce(t *testing.T) {
	rng := rand.New(rand.NewPCG(9, 9))
	type tc struct {
		name string
		c    []float64
		m    float64
	}
	cases := []tc{
		{"all zeros", []float64{0, 0, 0, 0}, 1.5},
		{"ties", []float64{0.7, 0.7, 0.7, 0.7, 0.7}, 2},
		{"ties at breakpoints", []float64{1, 1, 0, 2, 1}, 2.5},
		{"budget slack", []float64{0.1, -3, 0.2, 5}, 3.5},
		{"budget tight, non-integer m", []float64{0.9, 0.8, 1.7, -0.2, 0.6}, 1.3},
		{"all above one", []float64{3, 2, 4}, 0.5},
		{"negative", []float64{-1, -2, -0.5}, 1},
	}
	for range 300 {
		n := 1 + rng.IntN(6)
		c := make([]float64, n)
		for i := range c {
			c[i] = 3*rng.Float64() - 1
			if rng.IntN(5) == 0 {
				c[i] = math.Round(c[i]) // ties with the breakpoints 0 and 1
			}
		}
		cases = append(cases, tc{"random", c, rng.Float64() * float64(n)})
	}
	for _, k := range cases {
		pr := newProjector(len(k.c), k.m)
		got := make([]float64, len(k.c))
		pr.projectTo(got, k.c)
		want := bruteProject(k.c, k.m)
		for i := range got {
			if math.Abs(got[i]-want[i]) > 1e-10 {
				t.Fatalf("%s: Π(%v) with m = %v is %v, brute force %v", k.name, k.c, k.m, got, want)
			}
		}
	}
}

// projectTo may write over its input.
func TestProjectionInPlace(t *testing.T) {
	c := []float64{0.9, 0.8, 1.7, -0.2, 0.6}
	want := bruteProject(c, 1.3)
	newProjector(5, 1.3).projectTo(c, c)
	for i := range c {
		if math.Abs(c[i]-want[i]) > 1e-12 {
			t.Fatalf("in place: %v, want %v", c, want)
		}
	}
}

// The scaled projection (the fast method's step) against brute force, with
// weights over four orders of magnitude, ties, and budgets active or not.
func TestScaledProjectionMatchesBruteForce(t *testing.T) {
	rng := rand.New(rand.NewPCG(5, 6))
	for k := range 400 {
		n := 1 + rng.IntN(6)
		c, u := make([]float64, n), make([]float64, n)
		for i := range c {
			c[i] = 3*rng.Float64() - 1
			if rng.IntN(5) == 0 {
				c[i] = math.Round(c[i])
			}
			u[i] = math.Pow(10, 4*rng.Float64()-2)
			if k%7 == 0 {
				u[i] = 2.5 // equal weights: ties between breakpoints
			}
		}
		m := rng.Float64() * float64(n)
		got := make([]float64, n)
		newProjector(n, m).projectScaledTo(got, c, u)
		want := bruteProjectScaled(c, u, m)
		for i := range got {
			if math.Abs(got[i]-want[i]) > 1e-9 {
				t.Fatalf("Π_W(%v), u = %v, m = %v: %v, brute force %v", c, u, m, got, want)
			}
		}
	}
}
