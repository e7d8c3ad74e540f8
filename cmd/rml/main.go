// Command rml learns a Mahalanobis metric from noisy triplets with the
// robust formulation of Huang et al. (2010), and evaluates it with the
// paper's k-NN protocol.
//
// Usage:
//
//	rml train --data F.csv [flags]   fit on all rows, print the result
//	rml eval  --data F.csv [flags]   the paper's protocol: 10 splits, 5-NN error
//	rml table2 [flags]               the paper's Table 2 on its five datasets
//	rml figure1 [flags]              the paper's Figure 1, as CSV and SVG files
//	rml sweep [flags]                where the trust budget binds, and what it does
//	rml noise [flags]                every learner at every swap rate: which to use
//
// Run "rml <command> -h" for a command's flags. The exit status is 0
// for a converged run, 1 for bad input or a failed solver, 2 for a usage
// error, 3 for a run stopped by --max-iter before its tolerance, and 130
// when interrupted.
package main

import (
	"context"
	"encoding/json"
	"errors"
	"flag"
	"fmt"
	"io"
	"os"
	"os/signal"
	"slices"
	"strings"
	"time"

	"github.com/rml-lab/rml/core"
	"github.com/rml-lab/rml/spec"
)

const usage = `rml learns a distance metric from noisy triplets (Huang et al., 2010).

Usage:
  rml train --data F.csv [--label NAME] [--triplets T.csv] [--eta 0.8] [--lambda 1]
            [--k-same 3] [--k-diff 3] [--flip 0] [--seed 1] [--tol 1e-6] [--max-iter N]
            [--method fast|nesterov|gradient|lmnn|lmnn-sg|xing|euclid|bestcase|hinge|logistic|tste] [--json] [--save-problem P.json]
  rml eval  --data F.csv [--label NAME] [--lambda L] [--reps 10] [--flip 0.2] ...
  rml table2 [--data-dir assets/datasets] [--reps 10] [--eta 0.8] [--seed 1]
            [--tune cv|test] [--triplets-from labels|paper] [--json]
  rml figure1 [--out docs/figure1] [--reps 10] [--time-limit 6s] [--data-dir assets/datasets]
  rml sweep  [--data F.csv] [--flip 0.1,0.2,…] [--lambda 1,16,64] [--eta 0.5,…,0.9] [--reps 10]
  rml noise  [--data-dir assets/datasets] [--reps 10] [--rates 0,0.1,…,0.4] [-o docs/noise.md] [--json]

Run "rml <command> -h" for every flag of a command.

Exit status: 0 when the run converged (train) or finished (eval); 1 when the
input is wrong or the solver failed, with the reason on one line; 2 for a
usage error; 3 when train stopped at --max-iter before reaching --tol (the
result is printed, marked as not converged); 130 when interrupted (Ctrl-C).
`

func main() {
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt)
	defer stop()
	os.Exit(run(ctx, os.Args[1:], os.Stdout, os.Stderr))
}

func run(ctx context.Context, args []string, stdout, stderr io.Writer) int {
	if len(args) == 0 {
		fmt.Fprint(stderr, usage)
		return 2
	}
	var err error
	ctx, cancel := context.WithCancelCause(ctx)
	defer cancel(nil)
	switch args[0] {
	case "train":
		err = train(ctx, args[1:], stdout, stderr)
	case "eval":
		err = eval(ctx, args[1:], stdout, stderr)
	case "table2":
		err = table2(ctx, args[1:], stdout, stderr)
	case "figure1":
		err = figure1(ctx, args[1:], stdout, stderr)
	case "sweep":
		err = sweep(ctx, args[1:], stdout, stderr)
	case "noise":
		err = noise(ctx, args[1:], stdout, stderr)
	case "-h", "--help", "help":
		fmt.Fprint(stdout, usage)
		return 0
	default:
		err = usageError("unknown command %q: expected train, eval, table2, figure1, sweep or noise", args[0])
	}
	var ex *exitError
	switch {
	case err == nil:
		return 0
	case errors.Is(err, flag.ErrHelp):
		return 0
	case errors.As(err, &ex):
		if ex.msg != "" {
			fmt.Fprintf(stderr, "rml: %s\n", ex.msg)
		}
		return ex.code
	case ctx.Err() != nil:
		fmt.Fprintf(stderr, "rml: interrupted: %v\n", err)
		return 130
	}
	fmt.Fprintf(stderr, "rml: %v\n", err)
	return 1
}

// exitError ends the command with a status other than 1 (msg may be empty
// when the output already says it all).
type exitError struct {
	code int
	msg  string
}

func (e *exitError) Error() string { return e.msg }

// usageError is a bad flag value or argument: exit status 2.
func usageError(format string, a ...any) error {
	return &exitError{code: 2, msg: fmt.Sprintf(format, a...)}
}

// common holds the flags train and eval share.
type common struct {
	data, label            string
	eta, lambda, flip, tol float64
	kSame, kDiff, maxIter  int
	seed                   uint64
	method, missing        string
	dropMissing            bool
	exclude, oneHot        string
}

func (c *common) register(fs *flag.FlagSet, lambdaDefault float64) {
	fs.StringVar(&c.data, "data", "", "CSV file: numeric features and a label column (required)")
	fs.StringVar(&c.label, "label", "", "label column: a header name or 0-based index (default: the last)")
	fs.StringVar(&c.missing, "missing", "error", "missing values (empty, NA, ?, NaN): error, drop (the rows) or mean (fill with the training mean)")
	fs.BoolVar(&c.dropMissing, "drop-missing", false, "the same as --missing drop")
	fs.StringVar(&c.exclude, "exclude", "", "columns to leave out, comma-separated (names or 0-based indices); text columns are left out by themselves")
	fs.StringVar(&c.oneHot, "one-hot", "", "columns to one-hot encode, comma-separated (at most 12 distinct values each)")
	fs.Float64Var(&c.eta, "eta", spec.Eta, "η: the fraction of triplets trusted, in (0, 1]")
	fs.Float64Var(&c.lambda, "lambda", lambdaDefault, "λ > 0: the regularisation")
	fs.IntVar(&c.kSame, "k-same", spec.KSame, "same-class neighbours per point")
	fs.IntVar(&c.kDiff, "k-diff", spec.KDiff, "other-class neighbours per point")
	fs.Float64Var(&c.flip, "flip", 0, "probability of swapping each triplet (injected noise)")
	fs.Uint64Var(&c.seed, "seed", 1, "seed of every random choice")
	fs.IntVar(&c.maxIter, "max-iter", 0, "iteration limit (default 1,000,000; for lmnn 500)")
	fs.StringVar(&c.method, "method", "fast", "the robust problem's solver (fast, nesterov, gradient), a baseline on the same triplets (lmnn, lmnn-sg, xing, euclid; hinge: the plain hinge loss, η = 1; logistic and tste: smooth triplet losses), or the best case (bestcase)")
}

func (c *common) check(fs *flag.FlagSet) (core.Method, error) {
	if fs.NArg() > 0 {
		return 0, usageError("unexpected argument %q", fs.Arg(0))
	}
	if c.data == "" {
		return 0, usageError("--data is required")
	}
	for _, f := range []struct {
		flag string
		r    spec.Range
		v    float64
	}{{"--eta", spec.EtaRange, c.eta}, {"--flip", spec.FlipRange, c.flip}, {"--tol", spec.TolRange, c.tol}} {
		if err := f.r.Check(f.v); err != nil {
			return 0, usageError("%s: %v", f.flag, err)
		}
	}
	// eval's --lambda 0 means "choose by cross-validation".
	if c.lambda != 0 {
		if err := spec.LambdaRange.Check(c.lambda); err != nil {
			return 0, usageError("--lambda: %v", err)
		}
	}
	if c.maxIter < 0 {
		return 0, usageError("--max-iter %d: expected a positive count", c.maxIter)
	}
	if c.kSame < 1 || c.kDiff < 1 {
		return 0, usageError("--k-same %d --k-diff %d: each must be at least 1", c.kSame, c.kDiff)
	}
	if _, err := core.ParseMissing(c.missing); err != nil {
		return 0, usageError("--missing: %v", err)
	}
	m, err := core.ParseMethod(c.method)
	if err != nil {
		return 0, usageError("%v", err)
	}
	return m, nil
}

// read reads the data file and says on stderr what was assumed to read it.
func (c *common) read(stderr io.Writer) (*core.Dataset, error) {
	f, err := os.Open(c.data)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	missing, _ := core.ParseMissing(c.missing) // checked by check
	if c.dropMissing {
		missing = core.MissingDrop
	}
	ds, err := core.ReadCSV(f, core.CSVOptions{Label: c.label, Missing: missing, Exclude: list(c.exclude), OneHot: list(c.oneHot)})
	if err != nil {
		return nil, fmt.Errorf("%s: %w", c.data, err)
	}
	for _, n := range ds.Notes {
		fmt.Fprintf(stderr, "rml: note: %s: %s\n", c.data, n)
	}
	return ds, nil
}

// list splits a comma-separated flag value.
func list(s string) []string {
	if strings.TrimSpace(s) == "" {
		return nil
	}
	parts := strings.Split(s, ",")
	for i := range parts {
		parts[i] = strings.TrimSpace(parts[i])
	}
	return parts
}

// parse parses the flags; the flag package has already printed what was
// wrong, so a bad flag only sets the exit status (2).
func parse(fs *flag.FlagSet, args []string) error {
	err := fs.Parse(args)
	if err == nil || errors.Is(err, flag.ErrHelp) {
		return err
	}
	return &exitError{code: 2}
}

func newFlagSet(name string, stderr io.Writer) *flag.FlagSet {
	fs := flag.NewFlagSet("rml "+name, flag.ContinueOnError)
	fs.SetOutput(stderr)
	return fs
}

type trainOutput struct {
	N            int         `json:"n"`
	Dim          int         `json:"d"`
	Triplets     int         `json:"triplets"`
	Swapped      int         `json:"swapped"`
	Method       string      `json:"method"`
	Eta          float64     `json:"eta"`
	Lambda       float64     `json:"lambda"`
	Iterations   int         `json:"iterations"`
	Certified    bool        `json:"certified"` // Gap is a duality gap; otherwise RelGap is the method's stopping measure
	Gap          float64     `json:"gap"`
	RelGap       float64     `json:"relGap"`
	Primal       float64     `json:"primal"`
	Dual         float64     `json:"dual"`
	SumQOverM    float64     `json:"sumQOverM"`
	BudgetActive bool        `json:"budgetActive"`
	Status       string      `json:"status"`
	Seconds      float64     `json:"seconds"`
	Eigenvalues  []float64   `json:"eigenvalues"`
	Collapsed    bool        `json:"collapsed"` // A = 0 to rounding: not a usable metric
	A            [][]float64 `json:"A"`
	SetAside     *setAside   `json:"setAside,omitempty"` // the best case's
	// EtaFrom is the re-checked sample η was chosen from (--eta-from-check).
	EtaFrom *core.NoiseEstimate `json:"etaFrom,omitempty"`
}

// setAside is what the best case did not trust: the triplets (0-based
// indices) its metric explains worst, and, with injected swaps, how many
// of them were swapped, and of all the swapped how many it found.
type setAside struct {
	Triplets  []int    `json:"triplets"`
	Swapped   int      `json:"swapped"`
	Precision *float64 `json:"precision"` // Swapped / len(Triplets); null when nothing was swapped
	Recall    *float64 `json:"recall"`    // Swapped / every swapped triplet; null when nothing was swapped
}

func train(ctx context.Context, args []string, stdout, stderr io.Writer) error {
	fs := newFlagSet("train", stderr)
	var c common
	c.register(fs, 1)
	fs.Float64Var(&c.tol, "tol", spec.Tol, "stop at this relative duality gap Δ/max(1,|P|)")
	triplets := fs.String("triplets", "", "CSV of triplets as 0-based row indices anchor,similar,dissimilar (instead of labels)")
	asJSON := fs.Bool("json", false, "print one JSON object instead of text")
	save := fs.String("save-problem", "", "write the standardized problem as solved to this JSON file")
	check := fs.Int("eta-from-check", 0, "choose η as 1 − the share of wrong triplets in this many drawn at random and re-checked against the labels (the paper's Section 4); 0: --eta as given")
	if err := parse(fs, args); err != nil {
		return err
	}
	method, err := c.check(fs)
	if err != nil {
		return err
	}
	switch {
	case *check < 0:
		return usageError("--eta-from-check %d: expected a count of triplets, or 0", *check)
	case *check > 0 && *triplets != "":
		return usageError("--eta-from-check re-checks triplets against the labels; a triplet file's have no truth to check")
	}
	if err := spec.LambdaRange.Check(c.lambda); err != nil {
		return usageError("--lambda: %v", err)
	}
	ds, err := c.read(stderr)
	if err != nil {
		return err
	}
	live := !*asJSON && isTerminal(stderr)
	pp, swapped, err := c.prepare(ctx, ds, *triplets, live, stderr)
	if err != nil {
		return err
	}
	noise := c.etaFromCheck(*check, swapped)
	p := pp.Problem(c.eta, c.lambda)
	if *save != "" {
		if err := saveProblem(*save, p); err != nil {
			return err
		}
	}
	maxIter := c.maxIter
	if method == core.LMNN && maxIter == 0 {
		maxIter = spec.LMNNIters
	}
	settings := core.Settings{Method: method, Tol: c.tol, MaxIter: maxIter}
	res, err := solveLive(ctx, p, settings, live, stderr)
	if err != nil {
		return err // bad problem, or the solver failed: no result
	}
	if res.Status == core.Cancelled {
		return fmt.Errorf("after %d iterations (relative gap %.3g): no result", res.Iter, res.RelGap)
	}
	// Whether A collapsed to 0 is decided by the certificate, solving on
	// where the tolerance left it in doubt (the result is then that run's).
	res, collapsed, err := core.DecideCollapse(ctx, p, res, settings)
	if err != nil {
		return err
	}
	out, err := newTrainOutput(p, res, swapped, collapsed)
	if err != nil {
		return err
	}
	out.EtaFrom = noise
	var notConverged error
	if res.Status != core.Converged {
		notConverged = &exitError{code: 3, msg: fmt.Sprintf("not converged: %s after %d iterations at relative gap %.3g (asked %g)", res.Status, res.Iter, res.RelGap, c.tol)}
	}
	if *asJSON {
		if err := json.NewEncoder(stdout).Encode(out); err != nil {
			return err
		}
		return notConverged
	}
	out.print(stdout, c.data, len(ds.Classes))
	return notConverged
}

// prepare standardizes every row and prepares the triplets: read from a file
// (then swapped as --flip says), or drawn from the labels.
func (c *common) prepare(ctx context.Context, ds *core.Dataset, tripletFile string, live bool, stderr io.Writer) (*core.Prepared, []bool, error) {
	_, x, err := core.Standardize(ds.X, nil)
	if err != nil {
		return nil, nil, err
	}
	if tripletFile == "" {
		var h *core.Hooks
		if live {
			h = &core.Hooks{Progress: func(done, total int) {
				fmt.Fprintf(stderr, "\rfinding neighbours: %d of %d rows", done, total)
			}}
			defer fmt.Fprint(stderr, "\r\033[K")
		}
		return core.LabelData(ctx, h, x, ds.Labels, ds.Classes, core.TripletOptions{KSame: c.kSame, KDiff: c.kDiff, Flip: c.flip, Seed: c.seed})
	}
	f, err := os.Open(tripletFile)
	if err != nil {
		return nil, nil, err
	}
	// Row indices count the file's data rows from 0, also when some were
	// dropped for a missing value.
	ts, err := core.ReadTripletsKeyed(f, core.TripletKeys{N: ds.Rows(), Records: ds.Records, Total: ds.Rows() + ds.Dropped})
	f.Close()
	if err != nil {
		return nil, nil, fmt.Errorf("%s: %w", tripletFile, err)
	}
	return core.PrepareSwapped(x, ts, c.flip, c.seed)
}

// solveLive solves p, showing t, Δ_t and the time on one line of a
// terminal while it runs.
// etaFromCheck sets c.eta from m triplets re-checked against the labels
// (swapped: which are wrong), as --eta-from-check asks, and returns the
// estimate; nil for m = 0, when --eta stands.
func (c *common) etaFromCheck(m int, swapped []bool) *core.NoiseEstimate {
	if m == 0 {
		return nil
	}
	est := core.EstimateNoise(swapped, m, c.seed)
	c.eta = max(1-est.Rate, 1/float64(max(len(swapped), 1)))
	return &est
}

func solveLive(ctx context.Context, p *core.Problem, s core.Settings, live bool, stderr io.Writer) (*core.Result, error) {
	if live {
		var last time.Time
		var iters, gaps []float64
		guessed := false
		s.Progress = func(pr core.Progress) bool {
			iters, gaps = append(iters, float64(pr.Iter)), append(gaps, pr.Gap)
			if !guessed && pr.Elapsed >= guessAfter {
				guessed = true
				if line := firstGuess(pr, s.Method, s.Tol); line != "" {
					fmt.Fprint(stderr, "\r\033[K"+line+"\n")
				}
			}
			if time.Since(last) > 100*time.Millisecond {
				last = time.Now()
				fmt.Fprintf(stderr, "\rt = %-8d Δ_t = %-11.4g rel = %-10.3g %6.1fs%s", pr.Iter, pr.Gap, pr.RelGap, pr.Elapsed.Seconds(), timeLeft(pr, iters, gaps, s.Tol))
			}
			return true
		}
		defer fmt.Fprint(stderr, "\r\033[K")
	}
	return core.Solve(ctx, p, s)
}

// guessAfter is how long a run goes before the command line guesses its
// length from its time per iteration: long enough that the first
// iteration's extra work (the first curvature estimate) is not all of it.
const guessAfter = 300 * time.Millisecond

// firstGuess says, for a run that may be long (the guess's lower end
// at least 10 s), how long it may take to tol from its time per
// iteration so far (spec.FirstGuess), and how to make it shorter; "" for
// a short run or another method than the fast one, whose iterations
// spec.GuessIters bound.
func firstGuess(pr core.Progress, m core.Method, tol float64) string {
	if pr.Iter == 0 || m != core.Fast {
		return ""
	}
	per := pr.Elapsed.Seconds() / float64(pr.Iter)
	if lo, _ := spec.FirstGuess(per, tol); lo < 10 {
		return ""
	}
	return fmt.Sprintf("a long run: %.0f ms an iteration, and large sets took %.0f to %.0f iterations to a relative gap of %g, so expect %s (a looser --tol or --max-iter ends it sooner)",
		1000*per, spec.GuessIters[0], spec.GuessIters[1], spec.GuessTol, spec.GuessText(per, tol))
}

// timeLeft says how long the run may still take to reach tol (the
// page's estimate, spec.IterationsLeft, at the run's rate so far), once
// there is enough to go on: 20 iterations and a second.
func timeLeft(pr core.Progress, iters, gaps []float64, tol float64) string {
	secs := pr.Elapsed.Seconds()
	if len(iters) < 20 || secs < 1 || !pr.Certified {
		return ""
	}
	left, ok := spec.IterationsLeft(iters, gaps, spec.StopGap(tol, pr.Primal))
	if !ok {
		return ", no estimate yet    "
	}
	return ", " + spec.RoughDuration(left*secs/float64(pr.Iter)) + " to go  "
}

func newTrainOutput(p *core.Problem, res *core.Result, swapped []bool, collapsed bool) (*trainOutput, error) {
	n, d := p.X.Dims()
	nsw := 0
	for _, v := range swapped {
		if v {
			nsw++
		}
	}
	out := &trainOutput{
		N: n, Dim: d, Triplets: len(p.Triplets), Swapped: nsw, Method: res.Method.String(), Eta: p.Eta, Lambda: p.Lambda,
		Iterations: res.Iter, Certified: res.Certified, Gap: res.Gap, RelGap: res.RelGap, Primal: res.Primal, Dual: res.Dual,
		SumQOverM: res.SumQ / res.Budget, BudgetActive: res.BudgetActive, Status: res.Status.String(),
		Seconds: res.Elapsed.Seconds(),
	}
	var err error
	if out.Eigenvalues, err = core.Eigenvalues(res.A); err != nil {
		return nil, err
	}
	for i := 0; i < d; i++ {
		row := make([]float64, d)
		for j := range row {
			row[j] = res.A.At(i, j)
		}
		out.A = append(out.A, row)
	}
	out.Collapsed = len(out.Eigenvalues) == 0 || collapsed
	if res.Method == core.BestCase && res.Trusted != nil {
		trusted := make([]bool, len(p.Triplets))
		for _, i := range res.Trusted {
			trusted[i] = true
		}
		sa := &setAside{Triplets: []int{}}
		for i, t := range trusted {
			if !t {
				sa.Triplets = append(sa.Triplets, i)
				if i < len(swapped) && swapped[i] {
					sa.Swapped++
				}
			}
		}
		if nsw > 0 && len(sa.Triplets) > 0 {
			pr, rc := float64(sa.Swapped)/float64(len(sa.Triplets)), float64(sa.Swapped)/float64(nsw)
			sa.Precision, sa.Recall = &pr, &rc
		}
		out.SetAside = sa
	}
	return out, nil
}

// print writes the result for a person.
func (out *trainOutput) print(w io.Writer, file string, classes int) {
	fmt.Fprintf(w, "data         %s: %d rows, %d features, %d classes\n", file, out.N, out.Dim, classes)
	fmt.Fprintf(w, "triplets     %d (%d swapped)\n", out.Triplets, out.Swapped)
	if e := out.EtaFrom; e != nil {
		fmt.Fprintf(w, "η from       %d triplets re-checked: %d wrong (%.1f %%, 95 %% CI %.1f–%.1f %%), so η = %.4g; the share truly swapped is %.1f %%\n",
			e.Checked, e.Wrong, 100*e.Rate, 100*e.Lo, 100*e.Hi, out.Eta, 100*float64(out.Swapped)/float64(out.Triplets))
	}
	// η and the budget belong to the robust problem (and η to the best
	// case); λ to every method but Xing's and Euclid.
	robust := slices.Contains(spec.RMLMethods, out.Method)
	switch {
	case robust || out.Method == spec.BestCase:
		fmt.Fprintf(w, "method       %s, η = %g, λ = %g\n", out.Method, out.Eta, out.Lambda)
	case out.Method == spec.Xing || out.Method == spec.Euclid:
		fmt.Fprintf(w, "method       %s\n", out.Method)
	default:
		fmt.Fprintf(w, "method       %s, λ = %g\n", out.Method, out.Lambda)
	}
	fmt.Fprintf(w, "status       %s after %d iterations in %.3fs\n", out.Status, out.Iterations, out.Seconds)
	if out.Certified {
		fmt.Fprintf(w, "gap          Δ = %.3g, relative %.3g (P = %.10g, L = %.10g)\n", out.Gap, out.RelGap, out.Primal, out.Dual)
	} else {
		// Euclid and the best case certify nothing: their stopping measure
		// (docs/math.md) and their own objective.
		fmt.Fprintf(w, "stop test    %.3g, no certificate (objective %.10g)\n", out.RelGap, out.Primal)
	}
	if robust {
		act := "inactive: the robust problem equals the ordinary hinge-loss one here"
		if out.BudgetActive {
			act = "active: the worst-case budget discounts the hardest triplets"
		}
		fmt.Fprintf(w, "Σq/m         %.4f, budget %s\n", out.SumQOverM, act)
	}
	fmt.Fprintf(w, "eigenvalues  %s\n", fmtVec(out.Eigenvalues, 8))
	if sa := out.SetAside; sa != nil {
		fmt.Fprintf(w, "set aside    %d of %d triplets, those the metric explains worst", len(sa.Triplets), out.Triplets)
		if sa.Precision != nil {
			fmt.Fprintf(w, ": %d of them swapped (precision %.1f %%),\n             %.1f %% of the %d swapped", sa.Swapped, 100**sa.Precision, 100**sa.Recall, out.Swapped)
		}
		fmt.Fprintln(w)
	}
	if out.Collapsed {
		fmt.Fprintf(w, "COLLAPSED    A = 0: no metric beats ignoring the data for this worst case, so every\n"+
			"             distance is 0 and k-NN cannot use it. The budget Σq ≤ Nη binds. λ does not\n"+
			"             change this (docs/math.md); raise η, or use triplets with less noise.\n")
	}
}

func fmtVec(v []float64, n int) string {
	s := ""
	for i, x := range v {
		if i == n {
			return s + fmt.Sprintf(" … (%d more)", len(v)-n)
		}
		if i > 0 {
			s += " "
		}
		s += fmt.Sprintf("%.4g", x)
	}
	return s
}

func saveProblem(path string, p *core.Problem) error {
	n, d := p.X.Dims()
	x := make([][]float64, n)
	for i := range x {
		x[i] = make([]float64, d)
		for j := range x[i] {
			x[i][j] = p.X.At(i, j)
		}
	}
	ts := make([][3]int, len(p.Triplets))
	for i, t := range p.Triplets {
		ts[i] = [3]int{t.I, t.J, t.K}
	}
	b, err := json.Marshal(map[string]any{"X": x, "triplets": ts, "eta": p.Eta, "lambda": p.Lambda})
	if err != nil {
		return err
	}
	return os.WriteFile(path, b, 0o644)
}

func isTerminal(w io.Writer) bool {
	f, ok := w.(*os.File)
	if !ok {
		return false
	}
	st, err := f.Stat()
	return err == nil && st.Mode()&os.ModeCharDevice != 0
}

func eval(ctx context.Context, args []string, stdout, stderr io.Writer) error {
	fs := newFlagSet("eval", stderr)
	var c common
	c.register(fs, 0)
	fs.Float64Var(&c.tol, "tol", 1e-4, "stop each solve at this relative duality gap")
	reps := fs.Int("reps", 10, "repetitions (random 85/15 splits)")
	folds := fs.Int("folds", 3, "cross-validation folds for choosing λ")
	k := fs.Int("k", spec.KNN, "neighbours of the k-NN classifier")
	c.flip = 0.2
	fs.Lookup("flip").DefValue = "0.2"
	fs.Lookup("lambda").Usage = "fixed λ; 0 chooses it from {2^-3, …, 2^6, 100} by cross-validation on the training part"
	if err := parse(fs, args); err != nil {
		return err
	}
	method, err := c.check(fs)
	if err != nil {
		return err
	}
	if *reps < 1 || *folds < 2 || *k < 1 {
		return usageError("--reps ≥ 1, --folds ≥ 2 and --k ≥ 1 are required")
	}
	ds, err := c.read(stderr)
	if err != nil {
		return err
	}
	start := time.Now()
	rep, err := core.Evaluate(ctx, ds, core.EvalOptions{
		Triplets: core.TripletOptions{KSame: c.kSame, KDiff: c.kDiff, Flip: c.flip},
		Eta:      c.eta, Lambda: c.lambda, Folds: *folds, Reps: *reps, K: *k, Seed: c.seed,
		Solver: core.Settings{Method: method, Tol: c.tol, MaxIter: c.maxIter},
	})
	if err != nil {
		return err
	}
	fmt.Fprintf(stdout, "%s: %d rows, %d features; %d×(85/15 split), %d-NN, η = %g, flip = %g\n", c.data, ds.Rows(), len(ds.Features), *reps, *k, c.eta, c.flip)
	name := methodTitle[method]
	width := max(len("EUCL"), len([]rune(name)))
	fmt.Fprintf(stdout, "%-*s  test error %.4f ± %.4f\n", width, "EUCL", rep.EuclidMean, rep.EuclidStd)
	switch n := *reps - rep.Collapsed; {
	case n == 0:
		fmt.Fprintf(stdout, "%-*s  no metric: A = 0 in every split   (λ per split: %v)\n", width, name, rep.Lambdas)
	case rep.Collapsed > 0:
		fmt.Fprintf(stdout, "%-*s  test error %.4f ± %.4f over the %d splits that learned a metric   (λ per split: %v)\n", width, name, rep.RMLMean, rep.RMLStd, n, rep.Lambdas)
	default:
		fmt.Fprintf(stdout, "%-*s  test error %.4f ± %.4f   (λ per split: %v)\n", width, name, rep.RMLMean, rep.RMLStd, rep.Lambdas)
	}
	if rep.Collapsed > 0 {
		fmt.Fprintf(stdout, "COLLAPSED in %d of %d splits: A = 0, no metric beats trusting none; those splits have no error rate\n"+
			"      (k-NN with every distance 0 is a constant guess) and are not averaged. λ does not change a collapse; raise --eta.\n", rep.Collapsed, *reps)
	}
	fmt.Fprintf(stdout, "time  %.1fs\n", time.Since(start).Seconds())
	return nil
}
