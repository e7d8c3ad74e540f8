// Package spec is the vocabulary that the page, the worker and core share:
// the methods and run statuses by name, the paper's λ grid, the defaults,
// the limits, the stopping rule, the range every setting must be in, and
// the interval a test error is given (Wilson).
//
// It imports only errors, math and strconv, so the page's program uses it
// without linking gonum or fmt (TestPageLinks, at the top of the project,
// checks), and core uses the same values, so the two cannot drift apart.
package spec

import (
	"errors"
	"math"
	"strconv"
)

// The methods, by the names the page, the link and the command line use.
const (
	Fast     = "fast"     // accelerated projected gradient, scaled, with restarts and projected Newton steps (the default)
	Nesterov = "nesterov" // the paper's Algorithm 1
	Gradient = "gradient" // projected gradient with Armijo steps (the paper's RML_gd)
	LMNN     = "lmnn"     // baseline: LMNN in the paper's triplet form, smoothed and accelerated
	LMNNSG   = "lmnn-sg"  // the same LMNN objective by projected sub-gradient, as the paper
	Xing     = "xing"     // baseline: Xing et al.'s MMC, pairs read off the triplets
	Euclid   = "euclid"   // baseline: A = I
	BestCase = "bestcase" // beyond the paper: the best case over which Nη triplets to trust
	Hinge    = "hinge"    // baseline: the plain hinge loss on every triplet (the robust problem at η = 1)
	Logistic = "logistic" // the logistic (maximum-likelihood) triplet loss of Jain, Jamieson and Nowak (2016)
	TSTE     = "tste"     // t-STE's heavy-tailed triplet loss (van der Maaten and Weinberger, 2012): a local optimum
)

// Methods lists the methods in the order core numbers them: the three that
// solve the robust problem, then the baselines.
var Methods = []string{Fast, Nesterov, Gradient, LMNN, Xing, Euclid, LMNNSG, BestCase, Hinge, Logistic, TSTE}

// RMLMethods are the methods that solve the robust problem (the page's
// choice of solver).
var RMLMethods = Methods[:3]

// CheckMethod reports whether s names a method of the robust problem, and
// if not, which do.
func CheckMethod(s string) error {
	for _, m := range RMLMethods {
		if s == m {
			return nil
		}
	}
	return errors.New("unknown method " + strconv.Quote(s) + ": expected fast, nesterov or gradient")
}

// Why a run ended, by the names core's Status prints and the worker sends.
const (
	NotTerminated  = "not terminated"
	Converged      = "converged"       // the relative gap reached the tolerance
	IterationLimit = "iteration limit" // the iteration limit came first
	TimeLimit      = "time limit"      // the time limit came first
	Cancelled      = "cancelled"       // the context was cancelled
	Stopped        = "stopped"         // the progress callback, or the user, stopped it
	Failed         = "failed"          // a number went out of range
)

// Statuses lists the statuses in the order core numbers them.
var Statuses = []string{NotTerminated, Converged, IterationLimit, TimeLimit, Cancelled, Stopped, Failed}

// LambdaGrid is the paper's grid for λ: 2^-3, …, 2^6 and 100.
var LambdaGrid = []float64{0.125, 0.25, 0.5, 1, 2, 4, 8, 16, 32, 64, 100}

// Defaults: the paper's settings where it has them.
const (
	Eta      = 0.8  // η, the share of triplets trusted
	Lambda   = 1.0  // λ
	Tol      = 1e-6 // relative duality gap to stop at
	KSame    = 3    // same-class neighbours per point
	KDiff    = 3    // other-class neighbours per point
	TestFrac = 0.15 // share of rows held out (stratified) for the test error
	KNN      = 5    // neighbours of the k-NN classifier that measures the test error
	// LMNNIters caps LMNN's iterations wherever no limit is asked for
	// (rml table2 and train, the page's Train, Compare and sweeps): its
	// certified gap stays far from any tolerance on most datasets (core's
	// BenchmarkLMNNGap), so without a cap its runs would not end.
	LMNNIters = 500
)

// Limits.
const (
	MaxFileBytes = 64 << 20  // the largest data or triplet file read
	MaxRows      = 20_000    // data rows
	MaxCols      = 1_000     // feature columns (the command line)
	MaxTriplets  = 2_000_000 // triplets built or read: about 250 MB of solver state
	// PageMaxFeatures is the most feature columns the page takes: one
	// eigendecomposition at d = 200 takes about 47 ms under wasm (300:
	// 147 ms), and Stop gets in between two.
	PageMaxFeatures = 200
	// PageSlowWork is the size, rows × features², from which the page
	// says before a run that it may take minutes rather than seconds: an
	// iteration's passes over the rows grow as rows × features² (core's
	// BenchmarkWide), and the fast method takes hundreds to thousands of
	// them (GuessIters). The 5,000 × 50 upload, below it, trains in the
	// page in under half a minute (docs/measured.md); 5,000 × 100 is
	// above it.
	PageSlowWork = 5000 * 75 * 75
	// MaxLevels is the most distinct values a column may have to be one-hot
	// encoded.
	MaxLevels = 12
	// PageMaxK bounds k_same and k_diff in the page.
	PageMaxK = 50
)

// RelGap is the stopping rule's measure: a run has converged when
// Δ / max(1, |P|) ≤ the tolerance.
func RelGap(gap, primal float64) float64 {
	return gap / math.Max(1, math.Abs(primal))
}

// StopGap is the gap at which a run with tolerance tol and primal value P
// stops: RelGap(Δ, P) ≤ tol exactly when Δ ≤ StopGap(tol, P).
func StopGap(tol, primal float64) float64 {
	return tol * math.Max(1, math.Abs(primal))
}

// Trusted is how many of n triplets the best case trusts when the budget
// is m = n·η: k = ⌈m⌉ (m within 1e-9 of an integer counts as it), at least
// 1 and at most n. core's best case and the page's account of it both use it.
func Trusted(n int, m float64) int {
	return min(max(int(math.Ceil(m-1e-9)), 1), n)
}

// Range is a setting's admissible values, with its name and what a user
// must enter, for messages.
type Range struct {
	Name string
	OK   func(v float64) bool
	Want string
}

// Check returns nil if v is in r, otherwise an error saying what r wants.
func (r Range) Check(v float64) error {
	if r.OK(v) {
		return nil
	}
	return errors.New(r.Name + " = " + strconv.FormatFloat(v, 'g', -1, 64) + ": expected " + r.Want)
}

// Named returns r under another name (k_same, k_diff).
func (r Range) Named(name string) Range {
	r.Name = name
	return r
}

func finite(v float64) bool { return !math.IsNaN(v) && !math.IsInf(v, 0) }

// The ranges of the settings. λ's range also depends on the data, which
// core checks (Problem.LambdaRange).
var (
	EtaRange    = Range{"η", func(v float64) bool { return v > 0 && v <= 1 }, "a number in (0, 1]"}
	LambdaRange = Range{"λ", func(v float64) bool { return v > 0 && finite(v) }, "a finite number > 0"}
	TolRange    = Range{"tolerance", func(v float64) bool { return v > 0 && v < 1 }, "a number between 0 and 1"}
	FlipRange   = Range{"swap probability", func(v float64) bool { return v >= 0 && v <= 1 }, "a number from 0 to 1"}
	// PageEtaRange and PageFlipRange are η's and the swap probability's
	// ranges in the page, its sliders' (a link outside them drew the
	// slider at its end while the run used the link's value).
	PageEtaRange  = Range{"η", func(v float64) bool { return v >= 0.5 && v <= 1 }, "a number from 0.5 to 1 (the page's slider)"}
	PageFlipRange = Range{"swap probability", func(v float64) bool { return v >= 0 && v <= 0.5 }, "a number from 0 to 0.5 (the page's slider)"}
	// PageKRange is k_same's and k_diff's range in the page; the command
	// line takes any k ≥ 1 (core counts the triplets before building them).
	PageKRange = Range{"k", func(v float64) bool { return v >= 1 && v <= PageMaxK && v == math.Trunc(v) }, "a whole number from 1 to " + strconv.Itoa(PageMaxK)}
)
