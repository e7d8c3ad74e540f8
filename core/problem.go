package core

import (
	"errors"
	"fmt"
	"math"

	"gonum.org/v1/gonum/mat"

	"github.com/rml-lab/rml/spec"
)

// Triplet is the constraint "row I is closer to row J than to row K", by
// 0-based row index into the data matrix: I is the anchor, J the similar and
// K the dissimilar point.
type Triplet struct{ I, J, K int }

// Problem is one instance of the robust metric learning problem.
type Problem struct {
	X        *mat.Dense // n×d data, one point per row (usually standardized)
	Triplets []Triplet
	Eta      float64 // fraction of triplets trusted, 0 < Eta ≤ 1; the budget is m = N·Eta
	Lambda   float64 // regularisation λ > 0

	prep *Prepared // the preparation it shares, from Prepared.Problem
}

// Prepared is the part of a problem that η and λ do not change, checked and
// made ready once: the data, the triplets, the index of their distinct pairs
// and the fast method's scales. Its Problem method makes a problem for any η
// and λ that shares all of it, so a warm restart after η or λ changed
// repeats none of that work. It must not be changed after Prepare.
type Prepared struct {
	X        *mat.Dense
	Triplets []Triplet

	idx    *pairIndex
	w, u   []float64 // the fast method's scales (tripletScales)
	maxK   float64   // max_i ‖K_i‖_F
	checks error     // what Validate found wrong with X and Triplets, if anything
}

// Prepare checks x and ts (every index in range, every value finite and
// at most MaxAbsX, some K_i ≠ 0) and prepares them for solving.
func Prepare(x *mat.Dense, ts []Triplet) (*Prepared, error) {
	pp := &Prepared{X: x, Triplets: ts}
	p := &Problem{X: x, Triplets: ts}
	if err := p.validateData(); err != nil {
		return nil, err
	}
	pp.maxK = p.maxK()
	if pp.maxK == 0 {
		return nil, errDegenerate(len(ts))
	}
	pp.idx = newPairIndex(x, ts)
	pp.w, pp.u = tripletScales(p)
	return pp, nil
}

// Problem returns the problem of pp with the given η and λ. It shares pp's
// preparation as long as its X and Triplets are not replaced.
func (pp *Prepared) Problem(eta, lambda float64) *Problem {
	return &Problem{X: pp.X, Triplets: pp.Triplets, Eta: eta, Lambda: lambda, prep: pp}
}

// hinge returns p at η = 1, sharing its data and preparation: the plain
// hinge-loss problem (Hinge).
func (p *Problem) hinge() *Problem {
	h := *p
	h.Eta = 1
	return &h
}

// prepared returns p's preparation if it still matches p's data.
func (p *Problem) prepared() *Prepared {
	pp := p.prep
	if pp == nil || pp.X != p.X || len(pp.Triplets) != len(p.Triplets) || len(p.Triplets) == 0 || &pp.Triplets[0] != &p.Triplets[0] {
		return nil
	}
	return pp
}

func errDegenerate(n int) error {
	return fmt.Errorf("all %d triplets are degenerate: in each the anchor is exactly as far from the similar as from the dissimilar point in every direction (K_i = 0), so there is no metric to learn; this happens when every feature is constant", n)
}

// Validate reports the first thing that makes p unsolvable, naming it.
func (p *Problem) Validate() error {
	if err := spec.EtaRange.Check(p.Eta); err != nil {
		return err
	}
	if err := spec.LambdaRange.Check(p.Lambda); err != nil {
		return err
	}
	if p.prepared() == nil {
		if err := p.validateData(); err != nil {
			return err
		}
		if p.maxK() == 0 {
			return errDegenerate(len(p.Triplets))
		}
	}
	lo, hi := p.LambdaRange()
	if p.Lambda < lo || p.Lambda > hi {
		return fmt.Errorf("λ = %g is outside what this problem can take in double precision: %s; λ from %.2g to %.2g works", p.Lambda,
			map[bool]string{true: "A = π₊(Σ q_i K_i)/λ would overflow", false: "A would underflow to zero, as would every distance"}[p.Lambda < lo], lo, hi)
	}
	return nil
}

// validateData checks X and the triplets.
func (p *Problem) validateData() error {
	if p.X == nil {
		return errors.New("core: problem has no data")
	}
	n, d := p.X.Dims()
	if n == 0 || d == 0 {
		return errors.New("core: problem has no rows or no columns")
	}
	if len(p.Triplets) == 0 {
		return errors.New("no triplets: nothing to learn from")
	}
	for t, tr := range p.Triplets {
		for _, v := range [3]int{tr.I, tr.J, tr.K} {
			if v < 0 || v >= n {
				return fmt.Errorf("triplet %d (%d,%d,%d): row index %d out of range 0..%d", t, tr.I, tr.J, tr.K, v, n-1)
			}
		}
		if tr.J == tr.K {
			return fmt.Errorf("triplet %d (%d,%d,%d): similar and dissimilar are the same row", t, tr.I, tr.J, tr.K)
		}
	}
	for i := 0; i < n; i++ {
		for j := 0; j < d; j++ {
			if v := p.X.At(i, j); !(math.Abs(v) <= MaxAbsX) {
				return fmt.Errorf("data row %d column %d is %v: the solver takes |x| ≤ %g (standardize the data first)", i, j, v, MaxAbsX)
			}
		}
	}
	return nil
}

// MaxAbsX bounds the data a Problem takes, so that Σ q_i K_i stays far
// inside what LAPACK's eigensolvers take without rescaling (about 1e150):
// ‖K_i‖_F ≤ 4·d·MaxAbsX² ≤ 4e63 for d ≤ 1,000, times N ≤ 2e6 triplets.
// Standardized data (|x| ≤ √n) is far inside.
const MaxAbsX = 1e30

// maxK returns max_i ‖K_i‖_F = max_i √(‖a‖⁴ + ‖b‖⁴ − 2 (aᵀb)²), a = x_I − x_K,
// b = x_I − x_J: the scale of the data as the formulation sees it.
func (p *Problem) maxK() float64 {
	if pp := p.prepared(); pp != nil {
		return pp.maxK
	}
	var s float64
	for _, tr := range p.Triplets {
		s = max(s, kNorm2(p.X, tr))
	}
	return math.Sqrt(s)
}

// kNorm2 returns ‖K_i‖²_F = ‖a‖⁴ + ‖b‖⁴ − 2 (aᵀb)² for the triplet's
// a = x_I − x_K and b = x_I − x_J (K_i = a aᵀ − b bᵀ).
func kNorm2(x *mat.Dense, tr Triplet) float64 {
	var aa, bb, ab float64
	xi, xj, xk := x.RawRowView(tr.I), x.RawRowView(tr.J), x.RawRowView(tr.K)
	for c, v := range xi {
		a, b := v-xk[c], v-xj[c]
		aa += a * a
		bb += b * b
		ab += a * b
	}
	return aa*aa + bb*bb - 2*ab*ab
}

// Collapsed reports whether a metric learned on p whose largest eigenvalue
// is eigMax is zero to rounding: eigMax·λ ≤ 1e-10·N·max_i ‖K_i‖_F, a bound
// on ‖π₊(Σ q_i K_i)‖ that any metric with a margin to show sits many orders
// above. The worst-case model collapses so when its budget binds and no
// metric beats ignoring the data: every distance is then 0 and k-NN cannot
// use it.
func (p *Problem) Collapsed(eigMax float64) bool {
	return eigMax*p.Lambda <= 1e-10*float64(len(p.Triplets))*p.maxK()
}

// LambdaRange returns the λ that p can be solved with in double precision.
// With S = N·max_i ‖K_i‖_F, ‖Σ q_i K_i‖_F ≤ S, so ‖A‖_F ≤ S/λ, the dual's
// ‖π₊(M)‖²/(2λ) ≤ S²/(2λ) and every margin tr(A K_i) ≤ S²/λ. Below
// lo = S·1e-100 these can overflow (‖A‖²_F ≤ 1e200 keeps a margin of 1e100
// for the sums); above hi = S·1e250, A(q) ≤ 1e-250 in every entry and its
// products underflow, so the answer would be A = 0 by rounding, not by
// optimization. Inside, λ/S spans 350 orders of magnitude. Validate
// refuses λ outside [lo, hi]; p must have data and triplets.
func (p *Problem) LambdaRange() (lo, hi float64) {
	s := float64(len(p.Triplets)) * p.maxK()
	return s * 1e-100, s * 1e250
}

// Budget returns m = N·η, the bound on Σ q.
func (p *Problem) Budget() float64 { return float64(len(p.Triplets)) * p.Eta }
