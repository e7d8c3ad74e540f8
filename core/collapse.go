package core

import "context"

// Deciding a collapse. A = 0 is the robust problem's optimum exactly when
// P* = P(0) = m = Nη (docs/math.md, "When the worst case collapses"). A
// run of one of its methods brackets the optimum, −L(q) ≤ P* ≤ P(A): when
// m lies inside the bracket by more than rounding, the run cannot tell a
// metric from A = 0, however small its gap, and a test by the run's
// tolerance (CollapsedResult) says "collapsed" where a closer solve may
// find a metric strictly better than none. DecideCollapse solves on until
// the bracket leaves no doubt.

// collapseSlack is the relative distance from m within which P(A) or
// −L(q) counts as m itself: rounding in sums of N terms of size 1.
const collapseSlack = 1e-9

// minDecideTol is the tightest tolerance DecideCollapse asks for; a
// bracket still around m there puts any metric within a relative
// collapseSlack of A = 0, which is called collapsed.
const minDecideTol = 1e-12

// CollapsedResult reports whether res, a run on p whose metric has
// largest eigenvalue eigMax, is no metric at all: for the robust
// problem's methods, when its bracket puts the optimum at m: −L(q) is m
// to within a relative collapseSlack, or m lies inside the bracket by more
// than that, where the run cannot tell its metric from A = 0; for the
// others, when A is zero to rounding (Collapsed). (That metric is tiny, and its direction, which k-NN
// uses, is set by where the solver stopped, not by the data: a warm start
// from η = 0.6 on Ionosphere, 20 % swapped, λ = 64, ended at η = 0.5 with
// λ_max(A) = 1.4e-6 and a 5-NN error of 17 %, where a cold start ends at
// A = 0 exactly: wasm/session's TestNearZeroIsCollapsed.) DecideCollapse
// solves on until the bracket decides.
func (p *Problem) CollapsedResult(eigMax float64, res *Result) bool {
	collapsed, _ := p.collapseVerdict(eigMax, res)
	return collapsed
}

// collapseVerdict is CollapsedResult's answer, and whether res's bracket
// decided it (false: m lies inside the bracket).
func (p *Problem) collapseVerdict(eigMax float64, res *Result) (collapsed, decided bool) {
	switch res.Method {
	case Hinge:
		p = p.hinge() // the robust problem at η = 1: its certificate
	case Fast, Nesterov, Gradient: // the robust problem's certificate
	default:
		// Another objective (P(0) is not Nη): only a metric zero to
		// rounding is none.
		return p.Collapsed(eigMax), true
	}
	if !res.Certified {
		return p.Collapsed(eigMax), true
	}
	// A metric zero to rounding is A = 0, but not a certificate that A = 0
	// is the optimum: a loose run may stop at A = 0 (its primal point when
	// P(0) is within the tolerance of −L(q)) where a closer one finds a
	// metric better than none. The bracket decides.
	m := p.Budget()
	switch {
	case res.Primal < m*(1-collapseSlack):
		return false, true // a metric strictly better than A = 0
	case -res.Dual >= m*(1-collapseSlack):
		return true, true // no metric is better than A = 0
	}
	return true, false // m inside the bracket: A = 0 as far as res can tell
}

// DecideCollapse says whether A = 0 is the optimum of p, from res, a run
// of s.Method on p, as CollapsedResult does; where res's bracket leaves it
// undecided, it solves on from res's weights and metric with a tolerance
// a hundred times smaller, down to minDecideTol (past which, or once a
// run stops short of its tolerance, the metric is within rounding of
// A = 0 and called collapsed), and returns the last run (its Iter counting
// every run's) with the verdict. The error is an eigendecomposition's or
// a solve's; a run stopped by ctx returns ctx's error.
func DecideCollapse(ctx context.Context, p *Problem, res *Result, s Settings) (*Result, bool, error) {
	for {
		eig, err := Eigenvalues(res.A)
		if err != nil {
			return res, false, err
		}
		collapsed, decided := p.collapseVerdict(eig[0], res)
		if decided || res.RelGap <= minDecideTol || res.Status != Converged {
			return res, collapsed, nil
		}
		next := s
		next.Tol = max(min(res.RelGap, s.Tol)/100, minDecideTol)
		next.Warm = res.Q
		next.Start = res.A
		r, err := Solve(ctx, p, next)
		if err != nil {
			return res, false, err
		}
		if r.Status == Cancelled {
			return res, false, ctx.Err()
		}
		r.Iter += res.Iter // the iterations of every run, as one
		res, s = r, next
	}
}
