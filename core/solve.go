package core

import (
	"context"
	"errors"
	"fmt"
	"math"
	"slices"
	"strings"
	"time"

	"gonum.org/v1/gonum/mat"

	"github.com/rml-lab/rml/spec"
)

// Method selects the algorithm that minimises the dual L(q) over Q̂.
type Method int

const (
	// Fast is accelerated projected gradient (FISTA) with a backtracking
	// step that may also grow and adaptive restarts, joined by projected
	// Newton steps once the free set settles (newton.go). It is the
	// default.
	Fast Method = iota
	// Nesterov is the paper's Algorithm 1 as restated in docs/math.md: the
	// global constant L_g = λ_max(G)/λ, the monotone step and the weighted
	// average of the primal iterates.
	Nesterov
	// Gradient is projected gradient with an Armijo backtracking step, the
	// paper's RML_gd.
	Gradient
	// LMNN is the paper's LMNN baseline: the hinge loss on the same
	// triplets plus λ/2·tr(W A), by projected sub-gradient (baselines.go).
	LMNN
	// Xing is Xing et al.'s MMC baseline, with the must-link and
	// cannot-link pairs read off the triplets (baselines.go).
	Xing
	// Euclid is the Euclidean metric, A = I.
	Euclid
	// LMNNSubgradient is LMNN's objective by projected sub-gradient, as the
	// paper describes it (baselines.go); LMNN solves the same objective
	// faster.
	LMNNSubgradient
	// BestCase minimises λ/2‖A‖² plus the ⌈Nη⌉ smallest hinge losses (the
	// best case over which triplets to trust, where the paper takes the
	// worst) by the convex–concave procedure: a local optimum (bestcase.go).
	BestCase
	// Hinge is the plain hinge loss on every triplet, λ/2‖A‖² + Σ_i
	// (1 − tr(A K_i))_+: the robust problem at η = 1 whatever the
	// problem's η, solved by Fast. It is the baseline that says what the
	// worst case's budget adds under noise.
	Hinge
	// Logistic is the logistic (maximum-likelihood) triplet loss of Jain,
	// Jamieson and Nowak (2016) on the metric, with λ/2‖A‖²: convex, its
	// gap certified by its dual (learners.go).
	Logistic
	// TSTE is t-STE's heavy-tailed triplet loss (van der Maaten and
	// Weinberger, 2012) on the metric, with λ/2‖A‖²: not convex, a local
	// optimum (learners.go).
	TSTE
)

func (m Method) String() string {
	if m >= 0 && int(m) < len(spec.Methods) {
		return spec.Methods[m]
	}
	return fmt.Sprintf("Method(%d)", int(m))
}

// ParseMethod returns the Method named s, one of spec.Methods.
func ParseMethod(s string) (Method, error) {
	i := slices.Index(spec.Methods, s)
	if i < 0 {
		return 0, fmt.Errorf("unknown method %q: expected one of %s", s, strings.Join(spec.Methods, ", "))
	}
	return Method(i), nil
}

// Status says why Solve returned.
type Status int

const (
	NotTerminated  Status = iota
	Converged             // relative gap ≤ Settings.Tol
	IterationLimit        // Settings.MaxIter iterations done
	TimeLimit             // Settings.TimeLimit elapsed
	Cancelled             // the context was cancelled
	Stopped               // the Progress callback asked to stop
	Failed                // an eigendecomposition did not converge
)

// String is the status's name in spec.Statuses (the worker sends it).
func (s Status) String() string {
	if s >= 0 && int(s) < len(spec.Statuses) {
		return spec.Statuses[s]
	}
	return fmt.Sprintf("Status(%d)", int(s))
}

// Settings control Solve. The zero value is usable: every zero field takes
// the default documented beside it.
type Settings struct {
	Method  Method  // default Fast
	Tol     float64 // stop when spec.RelGap(Δ, P) = Δ/max(1,|P|) ≤ Tol; default spec.Tol
	MaxIter int     // default 1,000,000

	// TimeLimit stops the run after this long; 0 means no limit.
	TimeLimit time.Duration

	// Warm, if not nil, is the starting q (length N); it is projected onto
	// Q̂, so a solution for another η or λ is a valid start. Default 0.
	Warm []float64

	// Progress, if not nil, is called after every iteration; returning
	// false stops the run with status Stopped.
	Progress func(Progress) bool

	// YieldEvery makes the driver sleep for a millisecond whenever this
	// much time has passed since the last sleep, so that a single-threaded
	// host (Go on js/wasm) can deliver messages such as "stop". The default
	// is 20ms on GOOS=js and never elsewhere; a negative value disables it.
	YieldEvery time.Duration

	// Yield, if not nil, is called every YieldEvery instead of the
	// millisecond's sleep: a host with a cheaper way to let its event loop
	// run (a Web Worker's MessageChannel) sets it. The driver checks the
	// context right after.
	Yield func()

	// Metric, if not nil, receives a copy of the run's best metric so far
	// (the A that Result would hold were the run to stop now) with the
	// progress it belongs to: after the first iteration, then at most
	// every MetricEvery, and never more than a twentieth of the run's
	// time: the driver times each call, the metric's computation included,
	// and waits at least nineteen times as long before the next. It is computed
	// in scratch of its own, so a run with Metric set returns, to the bit,
	// what a run without returns. The page draws the learned view from it
	// while the solver runs.
	Metric func(Progress, *mat.SymDense)
	// MetricEvery is the least time between two Metric calls; default
	// 200 ms.
	MetricEvery time.Duration

	// Start, if not nil, is LMNN's starting metric (d×d, symmetric; it is
	// projected onto the PSD cone): LMNN's solution at another λ, which
	// Result.A returns, is a warm start. Default: the multiple s·I of the
	// Euclidean metric with the lowest objective (lmnn.scaledIdentity).
	// The fast method offers it (projected, or its best multiple) as its
	// first primal point: the metric of a nearby problem then bounds the
	// gap from the first iteration, where Warm starts the dual side only
	// (the best case passes each outer step's metric to the next, the
	// page's warm restarts the last run's). Other methods ignore it.
	Start mat.Symmetric

	// BestStart, if not nil, is the best case's η = 1 start, solved before
	// on the same data and triplets (Result.BestStart returns it): a
	// best-case run with no Warm takes it when its λ, tolerance and
	// iteration limit are the run's, and solves its own otherwise. The
	// caller vouches for the data; Solve panics if the start fails
	// BestStart.Check. Other methods ignore it.
	BestStart *BestStart
}

// Progress is the state after one iteration.
type Progress struct {
	// Certified is true when Gap is a duality gap (the robust problem's
	// methods); a baseline reports its own stopping measure instead.
	Certified    bool
	Iter         int           // iterations done (1 after the first)
	Gap          float64       // Δ = L(q) + P(A) ≥ 0 for the best q and A so far
	RelGap       float64       // Δ / max(1, |P|)
	Dual         float64       // L(q)
	Primal       float64       // P(A)
	SumQ         float64       // Σ q of the best dual point
	Budget       float64       // m = N·η
	BudgetActive bool          // Σ q = m, to within the gap Δ or 1e-9·m, whichever is larger
	Evaluations  int           // evaluations of L so far
	Elapsed      time.Duration // since Solve began
}

// Result is what Solve returns.
type Result struct {
	Progress               // the final state
	Status   Status        // why the run ended
	Method   Method        // the method that ran
	A        *mat.SymDense // the metric: the best primal point found
	Q        []float64     // the best dual point found, in Q̂
	Lg       float64       // the global Lipschitz constant, when the method computed it
	Trusted  []int         // BestCase: the triplets trusted at the end, by index
	// EigenFallbacks counts the partial eigendecompositions (of the
	// positive part, d ≥ partialMinDim) that failed their residual check
	// and were done again by LAPACK's Dsyev: each costs a full one on top.
	EigenFallbacks int
	// BestCase: the η = 1 start the run began from, when it was solved
	// cold and converged here or taken from Settings.BestStart: for the
	// next run on these triplets.
	BestStart *BestStart
	// (For BestCase, Q is its η = 1 start's dual point, a warm start for a
	// run at another λ; Settings.Warm is taken as such.)
}

// Solve minimises the dual of p with the method in s, from s.Warm or from 0,
// until the relative duality gap falls to s.Tol or a limit is reached. It
// returns an error only for a problem that fails Validate; a run cut short by
// a limit, the context or the callback is reported in Result.Status.
func Solve(ctx context.Context, p *Problem, s Settings) (*Result, error) {
	return solve(ctx, p, s, fastFull)
}

// fastParts are the fast method's parts that benchmarks switch off to
// measure what each gains.
type fastParts struct {
	unscaled  bool // W = I instead of the diagonal scaling
	noNewton  bool // FISTA with restarts alone, no Newton steps
	noScale   bool // the certificate offers A(q) alone, not its best multiple
	noAverage bool // FISTA offers no primal average (methods.go)
	// shrink, if not 0, is FISTA's factor on its curvature estimate at
	// every iteration instead of the one its size takes (fistaShrink,
	// fistaShrinkLarge).
	shrink float64
}

var fastFull = fastParts{}

// solve is Solve with the fast method's parts chosen.
func solve(ctx context.Context, p *Problem, s Settings, parts fastParts) (*Result, error) {
	if err := p.Validate(); err != nil {
		return nil, err
	}
	s.defaults()
	if isBaseline(s.Method) {
		return solveBaseline(ctx, p, s)
	}
	if s.Method == BestCase {
		return solveBestCase(ctx, p, s)
	}
	if s.Method == Hinge {
		s.Method = Fast
		res, err := solve(ctx, p.hinge(), s, parts)
		if res != nil {
			res.Method = Hinge
		}
		if e, ok := err.(*SolveError); ok {
			e.Method = Hinge
		}
		return res, err
	}
	N := len(p.Triplets)
	if s.Warm != nil && len(s.Warm) != N {
		panic(fmt.Sprintf("core: warm start has length %d, want %d", len(s.Warm), N))
	}
	start := time.Now()
	tk := newTicker(ctx, s.YieldEvery, s.Yield)
	c := newCertificate(p, tk)
	q0 := make([]float64, N)
	if s.Warm != nil {
		for i, v := range s.Warm {
			if math.IsNaN(v) || math.IsInf(v, 0) {
				panic(fmt.Sprintf("core: warm start q[%d] = %v", i, v))
			}
		}
		c.proj.projectTo(q0, s.Warm)
	}
	m := newStepper(p, c, s.Method, parts)
	if s.Start != nil && s.Method == Fast {
		c.startPrimal(s.Start)
	}
	res := &Result{Method: s.Method}
	err := m.init(c, q0)
	if err == nil {
		res.Status, err = drive(ctx, s, tk, run{
			step: func() error {
				if err := m.iterate(c); err != nil {
					return err
				}
				c.iter++
				return nil
			},
			progress: func() Progress { return c.progress(time.Since(start)) },
			metric:   c.snapshot,
		})
	}
	res.Status, err = endStatus(ctx, res.Status, err)
	if l, ok := m.(interface{ lipschitz() float64 }); ok {
		res.Lg = l.lipschitz()
	}
	res.Progress = c.progress(time.Since(start))
	res.Q = c.bestQ
	a, aerr := c.metric()
	res.EigenFallbacks = c.e.eigenFallbacks
	res.A = a
	if err == nil && aerr != nil {
		res.Status, err = Failed, aerr
	}
	if err != nil {
		return res, &SolveError{Method: s.Method, Iter: c.iter, Err: err}
	}
	return res, nil
}

// defaults fills the zero fields of s.
func (s *Settings) defaults() {
	if s.Tol == 0 {
		s.Tol = spec.Tol
	}
	if s.Tol < 0 || math.IsNaN(s.Tol) {
		panic("core: negative tolerance")
	}
	if s.MaxIter == 0 {
		s.MaxIter = 1_000_000
	}
	if s.MetricEvery == 0 {
		s.MetricEvery = 200 * time.Millisecond
	}
	// YieldEvery's default (20 ms on js) is newTicker's.
}

// metricSpacing is how many times a Metric call's own time the driver
// waits before the next: the calls take at most 1/(1+metricSpacing) of a
// run.
const metricSpacing = 19

// run is what the driver needs of a method: step takes one step, progress
// reads the state after it, metric returns a copy of the best metric so
// far, computed without touching the step's own scratch (Settings.Metric).
type run struct {
	step     func() error
	progress func() Progress
	metric   func() (*mat.SymDense, error)
}

// drive is the loop every method runs in: it takes a step, reads the
// progress, ends the run when the relative gap (or, for a baseline, its own
// stopping measure) reaches s.Tol, a limit is reached, the context is
// cancelled or the callback says stop, hands the metric to s.Metric when
// it is due, and lets the host breathe between steps. It returns the
// status, or the error a step returned.
func drive(ctx context.Context, s Settings, tk *ticker, r run) (Status, error) {
	var due time.Time // when s.Metric is next due: at once, after the first step
	for {
		if err := r.step(); err != nil {
			return NotTerminated, err
		}
		pr := r.progress()
		status := NotTerminated
		switch {
		case pr.RelGap <= s.Tol:
			status = Converged
		case pr.Iter >= s.MaxIter:
			status = IterationLimit
		case s.TimeLimit > 0 && pr.Elapsed >= s.TimeLimit:
			status = TimeLimit
		case ctx.Err() != nil:
			status = Cancelled
		}
		if s.Progress != nil && !s.Progress(pr) && status == NotTerminated {
			status = Stopped
		}
		if status != NotTerminated {
			return status, nil
		}
		if s.Metric != nil && !time.Now().Before(due) {
			t0 := time.Now()
			// A metric that cannot be computed (an eigendecomposition that
			// does not converge) is not handed out; the run goes on, as it
			// would without Metric.
			if a, err := r.metric(); err == nil {
				s.Metric(pr, a)
			}
			// At most a twentieth of the run: the next call waits
			// nineteen times what this one took, if that is longer than
			// MetricEvery (wasm/session's BenchmarkFrames measures what
			// the page's frames cost a large upload).
			now := time.Now()
			due = now.Add(max(s.MetricEvery, metricSpacing*now.Sub(t0)))
		}
		if err := tk.tick(); err != nil {
			return NotTerminated, err
		}
	}
}

// endStatus turns a run's error into its status: a cancelled context is
// Cancelled (no error), anything else Failed.
func endStatus(ctx context.Context, st Status, err error) (Status, error) {
	switch {
	case err == nil:
		return st, nil
	case ctx.Err() != nil && errors.Is(err, ctx.Err()):
		return Cancelled, nil
	}
	return Failed, err
}

// newStepper returns the method, the fast one with the given parts.
func newStepper(p *Problem, c *certificate, m Method, parts fastParts) stepper {
	switch m {
	case Fast:
		f := &fista{w: c.proj.ones, u: c.proj.ones}
		if !parts.noNewton {
			f.nw = newNewton(c.e)
		}
		if !parts.unscaled {
			f.w, f.u = p.scales()
		}
		f.noAverage = parts.noAverage
		f.shrink = fistaShrink
		switch {
		case parts.shrink != 0:
			f.shrink = parts.shrink
		case len(p.Triplets) >= fistaLargeN:
			f.shrink = fistaShrinkLarge
		}
		c.scalePrimal = !parts.noScale
		return f
	case Nesterov:
		return &nesterov{}
	case Gradient:
		return &projGrad{}
	}
	panic(fmt.Sprintf("core: unknown method %d", m))
}

// SolveError is a run that failed: a number went out of range or an
// eigendecomposition did not converge. Solve returns it beside a Result
// that holds the best certified points found before the failure.
type SolveError struct {
	Method Method
	Iter   int // iterations completed
	Err    error
}

func (e *SolveError) Error() string {
	return fmt.Sprintf("the %s solver failed after %d iterations: %v", e.Method, e.Iter, e.Err)
}

func (e *SolveError) Unwrap() error { return e.Err }

// errBacktrack says a step search did not end. (An eigendecomposition
// that does not converge is ErrEigen, for errors.Is on a SolveError.)
var errBacktrack = errors.New("the step search found no acceptable step in 1,100 tries")

// errNonFinite says which computed value was NaN or ±Inf.
func errNonFinite(what string, v float64) error {
	return fmt.Errorf("%s is %v: the data or λ are outside what double precision can represent", what, v)
}

// finite reports whether v is neither NaN nor ±Inf.
func finite(v float64) bool { return !math.IsNaN(v) && !math.IsInf(v, 0) }

// stepper is one method: init evaluates the start, iterate takes one step
// and offers every dual and primal point it evaluates to the certificate.
// Both return the certificate's error if an evaluation failed or the run
// was cancelled, and errBacktrack if a step search did not end. Every loop
// in a method is bounded.
type stepper interface {
	init(c *certificate, q0 []float64) error
	iterate(c *certificate) error
}

// maxTries bounds every step search: a factor of 2 per try, and 2^1100
// spans double precision's whole range (2^-1074 to 2^1024), so a search
// that starts at a step of 1 reaches any step λ calls for.
const maxTries = 1100

// minCurvature is the least curvature a method assumes, in units where q ∈
// [0,1]^N and ∇L is O(1): a step longer than 1e6 per unit of gradient only
// overshoots the box further. It matters only when λ is so large that L is
// linear to rounding (A(q) ≈ 0), where an unbounded step would overflow.
const minCurvature = 1e-6

// certificate keeps the best dual point (lowest L) and the best primal point
// (lowest P) seen; Δ = L + P is a valid gap for both.
type certificate struct {
	e     *evaluator
	proj  *projector
	tick  func() error // before each evaluation: cancellation and yields
	iter  int
	evals int

	bestL, bestP float64
	bestQ        []float64 // argmin of L so far
	primalQ      []float64 // A = A(primalQ) is the best primal point, unless primalA is set
	primalA      []float64 // an explicit best primal matrix (Algorithm 1's average)
	primalIsA    bool
	placeholder  bool       // the primal point is still the starting A = 0
	primalScale  float64    // the best primal point is primalScale·A(primalQ)
	snap         *evaluator // snapshot's scratch, made at its first call

	// scalePrimal: with A(q), offer the best multiple s·A(q)
	// (evaluator.bestScale). The fast method sets it; Algorithm 1 and
	// projected gradient keep the paper's certificate, so that figure1
	// shows the paper's Δ_t. The search sorts the N margins, which costs
	// about as much as the rest of an evaluation on the small built-in sets
	// (searched at every evaluation, a variant not kept nearly doubled
	// Heart's time to 1e-6), so it runs at every evaluation only while it
	// lowers the best P; otherwise the evaluations between searches
	// double, up to maxScaleSpace.
	scalePrimal           bool
	scaleNext, scaleSpace int
}

// maxScaleSpace bounds the evaluations between two searches for the best
// primal multiple.
const maxScaleSpace = 64

// primalValue is the value P of a primal point s·A(q).
type primalValue struct{ p, s float64 }

// newCertificate starts from the pair that needs no computation: q = 0,
// with L(0) = 0, and A = A(0) = 0, with P(0) = the top-m sum of N losses of
// 1 = m (m ≤ N), so that every value it reports is finite from the start.
// A = 0 is only a placeholder: the method's first primal point replaces it
// whatever its value (where P is flat near 0, A = 0 could otherwise be
// "within tolerance" and hide the metric the method finds).
func newCertificate(p *Problem, tk *ticker) *certificate {
	e := newEvaluator(p)
	c := &certificate{
		e: e, proj: newProjector(e.N, e.m),
		bestL: 0, bestP: e.m, placeholder: true,
		bestQ: make([]float64, e.N), primalQ: make([]float64, e.N), primalScale: 1,
		primalA: make([]float64, e.d*e.d),
	}
	c.tick = func() error { return nil }
	if tk != nil {
		c.tick = tk.tick
	}
	return c
}

// startPrimal offers Settings.Start, projected onto the PSD cone, or its
// best multiple (as the fast method offers A(q)), as the first primal point;
// a start whose projection or value cannot be computed (an
// eigendecomposition that does not converge) is not offered: it is only a
// start, and the run's own points follow. It panics on a matrix of the
// wrong size or with a non-finite entry, as LMNN's start and Warm do.
func (c *certificate) startPrimal(start mat.Symmetric) {
	e := c.e
	d := e.d
	if n := start.SymmetricDim(); n != d {
		panic(fmt.Sprintf("core: Settings.Start is %d×%d, want %d×%d", n, n, d, d))
	}
	a := make([]float64, d*d)
	for i := 0; i < d; i++ {
		for j := i; j < d; j++ {
			v := start.At(i, j)
			if !finite(v) {
				panic(fmt.Sprintf("core: Settings.Start(%d, %d) = %v", i, j, v))
			}
			a[i*d+j], a[j*d+i] = v, v
		}
	}
	// π₊(a) by the same route as A(q)'s (eigPositive), not LMNN's smaller
	// side, so that a warm restart in the page runs only code its runs
	// run: V8 compiles a wasm function on its first hot use, on the cores
	// the page shares (CI on e7519a9 saw a 179 ms task at the upload's warm
	// restart while V8 compiled for 102 ms, the first time that worker ran
	// the smaller side's code: a likely cause, not confirmed).
	if !e.eigen(a, eigPositive) {
		return
	}
	e.positivePartTo(a, 1)
	p := e.primalAt(a)
	if c.scalePrimal {
		var a2 float64
		for _, v := range a {
			a2 += v * v
		}
		var s float64
		if s, p = e.bestScale(a2, p); s != 1 {
			for i := range a {
				a[i] *= s
			}
		}
	}
	if finite(p) {
		c.primalMatrix(a, p)
	}
}

// dualPoint offers a q in Q̂ with value L(q).
func (c *certificate) dualPoint(q []float64, l float64) {
	if l < c.bestL {
		c.bestL = l
		copy(c.bestQ, q)
	}
}

// primalOfQ offers pv.s·A(q), whose value is pv.p.
func (c *certificate) primalOfQ(q []float64, pv primalValue) {
	if pv.p < c.bestP || c.placeholder {
		c.bestP, c.placeholder = pv.p, false
		copy(c.primalQ, q)
		c.primalIsA = false
		c.primalScale = pv.s
	}
}

// primalMatrix offers an explicit PSD matrix a with value P.
func (c *certificate) primalMatrix(a []float64, p float64) {
	if p < c.bestP || c.placeholder {
		c.bestP, c.placeholder = p, false
		copy(c.primalA, a)
		c.primalIsA = true
	}
}

// evalFull sets m = M(q), g = ∇L(q) and returns L(q) and the value of the
// primal point it offers: A(q), or its best multiple if c.scalePrimal. job
// (eigPositive, or eigAll before a Newton step, whose Hessian needs every
// eigenvector) says what M(q)'s eigendecomposition leaves in the evaluator.
func (c *certificate) evalFull(m, q, g []float64, job eigJob) (l float64, pv primalValue, err error) {
	if err := c.tick(); err != nil {
		return 0, pv, err
	}
	c.e.formM(m, q)
	return c.evalFullM(m, q, g, job)
}

// evalFullM is evalFull for an m that already holds M(q) (upper triangle).
func (c *certificate) evalFullM(m, q, g []float64, job eigJob) (l float64, pv primalValue, err error) {
	c.evals++
	if !c.e.eigen(m, job) {
		return 0, pv, ErrEigen
	}
	l, p := c.e.dual(q), c.e.gradPrimal(g)
	switch {
	case !finite(l):
		return 0, pv, errNonFinite("the dual value L(q)", l)
	case !finite(p):
		return 0, pv, errNonFinite("the primal value P(A)", p)
	}
	pv = primalValue{p: p, s: 1}
	if c.scalePrimal && c.evals >= c.scaleNext {
		// ‖A(q)‖² = Σ_{λ_k>0} λ_k² / λ².
		_, sq := c.e.positive()
		pv.s, pv.p = c.e.bestScale(sq/(c.e.lambda*c.e.lambda), p)
		if pv.p < c.bestP && p >= c.bestP {
			c.scaleSpace = 1
		} else {
			c.scaleSpace = min(2*max(c.scaleSpace, 1), maxScaleSpace)
		}
		c.scaleNext = c.evals + c.scaleSpace
	}
	return l, pv, nil
}

// evalDual sets m = M(q) and returns L(q) only.
func (c *certificate) evalDual(m, q []float64) (float64, error) {
	if err := c.tick(); err != nil {
		return 0, err
	}
	c.evals++
	c.e.formM(m, q)
	if !c.e.eigen(m, eigValues) {
		return 0, ErrEigen
	}
	l := c.e.dual(q)
	if !finite(l) {
		return 0, errNonFinite("the dual value L(q)", l)
	}
	return l, nil
}

func (c *certificate) progress(el time.Duration) Progress {
	var s float64
	for _, v := range c.bestQ {
		s += v
	}
	// Weak duality makes L(q) + P(A) ≥ 0 in exact arithmetic; rounding can
	// leave it a few units in the last place below zero (measured: −1.3e-11
	// with 200 classes). Δ is reported as 0 then: the points are optimal to
	// rounding (TestGapRounding bounds the raw value).
	gap := max(0, c.bestL+c.bestP)
	return Progress{Certified: true,
		Iter: c.iter, Gap: gap, RelGap: spec.RelGap(gap, c.bestP),
		Dual: c.bestL, Primal: c.bestP, SumQ: s, Budget: c.e.m,
		BudgetActive: c.e.m-s <= max(1e-9*c.e.m, gap), Evaluations: c.evals, Elapsed: el,
	}
}

// snapshot returns the best primal point as metric does, computed in an
// evaluator of its own (made at the first call), so that the method's
// next step finds its evaluator as it left it: Settings.Metric changes
// nothing the run computes.
func (c *certificate) snapshot() (*mat.SymDense, error) {
	if c.snap == nil {
		c.snap = newEvaluatorFor(c.e)
	}
	return c.metricWith(c.snap)
}

// metric returns the best primal point as a SymDense.
func (c *certificate) metric() (*mat.SymDense, error) { return c.metricWith(c.e) }

// metricWith is metric, computed in e's scratch.
func (c *certificate) metricWith(e *evaluator) (*mat.SymDense, error) {
	d := e.d
	a := make([]float64, d*d)
	if c.primalIsA {
		copy(a, c.primalA)
	} else {
		m := make([]float64, d*d)
		e.formM(m, c.primalQ)
		if !e.eigen(m, eigPositive) {
			return mat.NewSymDense(d, nil), ErrEigen
		}
		e.metricTo(a)
		if c.primalScale != 1 {
			for i := range a {
				a[i] *= c.primalScale
			}
		}
	}
	averageSymmetrize(a, d)
	return mat.NewSymDense(d, a), nil
}

// averageSymmetrize sets a (d×d) and its transpose to their average,
// against rounding.
func averageSymmetrize(a []float64, d int) {
	for i := 0; i < d; i++ {
		for j := i + 1; j < d; j++ {
			v := (a[i*d+j] + a[j*d+i]) / 2
			a[i*d+j], a[j*d+i] = v, v
		}
	}
}

// scales returns the fast method's scales: p's prepared ones, or new.
func (p *Problem) scales() (w, u []float64) {
	if pp := p.prepared(); pp != nil {
		return pp.w, pp.u
	}
	return tripletScales(p)
}

// tripletScales returns the fast method's diagonal scaling: the diagonal
// of 𝒦*𝒦, w_i = ‖K_i‖²_F, divided by its mean (floored at 1e-3 for
// degenerate triplets), and u = 1/w. With K_i = a aᵀ − b bᵀ, a = x_I − x_K,
// b = x_I − x_J:
//
//	‖K_i‖²_F = ‖a‖⁴ + ‖b‖⁴ − 2 (aᵀb)².
//
// The curvature of L along coordinate i is about w_i/λ, and the w_i spread
// over orders of magnitude (squared distances, squared); steps in the norm
// ‖v‖²_W even them out (BenchmarkScaling, to 1e-6: Sonar 4,151 iterations
// unscaled, 1,294 scaled; Ionosphere 4,147 and 667; FISTA's restarts make
// such counts move with the order of a sum: 4,381, 766, 3,633 and 1,046
// before the evaluation's products were rewritten).
func tripletScales(p *Problem) (w, u []float64) {
	n := len(p.Triplets)
	w, u = make([]float64, n), make([]float64, n)
	var mean float64
	for t, tr := range p.Triplets {
		w[t] = kNorm2(p.X, tr)
		mean += w[t]
	}
	mean /= float64(n)
	for t := range w {
		w[t] = max(w[t]/mean, 1e-3)
		if !finite(w[t]) {
			// mean = 0 (every K_i = 0, which Validate refuses) or ∞: 0/0
			// or ∞/∞ would be NaN, and a NaN scale never passes a test.
			w[t] = 1
		}
		u[t] = 1 / w[t]
	}
	return w, u
}
