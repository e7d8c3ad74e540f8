package main

import (
	"context"
	"encoding/json"
	"flag"
	"fmt"
	"io"
	"math"
	"os"
	"path/filepath"
	"strings"
	"time"

	"github.com/rml-lab/rml/core"
	"github.com/rml-lab/rml/spec"
)

// table2Datasets are the paper's five datasets, in its Table 2's order.
var table2Datasets = []string{"sonar", "iris", "ionosphere", "heart", "wine"}

// methodTitle names a method as the table does.
var methodTitle = map[core.Method]string{core.Fast: "RML", core.Gradient: "RML_gd", core.LMNN: "LMNN",
	core.Xing: "Xing", core.Euclid: "EUCL", core.BestCase: "best case"}

type table2Row struct {
	Dataset      string    `json:"dataset"`
	Method       string    `json:"method"`
	Mean         *float64  `json:"mean"` // over the repetitions that learned a metric; null if none did
	Std          *float64  `json:"std"`
	Errors       []float64 `json:"errors"` // every repetition's, a collapsed one's (a constant guess) too
	Lambdas      []float64 `json:"lambdas"`
	Seconds      float64   `json:"seconds"`
	Collapsed    int       `json:"collapsed"`
	BudgetActive int       `json:"budgetActive"`
	PaperMean    *float64  `json:"paperMean,omitempty"`
	PaperStd     *float64  `json:"paperStd,omitempty"`
	VsEuclid     *vsEuclid `json:"vsEuclid,omitempty"` // every method but Euclid
	cell         string    // the table's cell (figure1's cell)
}

// vsEuclid is a method against Euclid on the same splits (core.PairedDiff
// of the test errors in %, over the splits where the method learned a
// metric): the mean difference, its 95 % interval, the sign-flip test's
// p-value, and the verdict: "better", "worse" or "cannot tell".
type vsEuclid struct {
	N       int     `json:"n"`
	Mean    float64 `json:"mean"`
	Lo      float64 `json:"lo"`
	Hi      float64 `json:"hi"`
	P       float64 `json:"p"`
	Verdict string  `json:"verdict"`
}

// pairedWithEuclid compares r with eu, Euclid on the same splits.
func pairedWithEuclid(r, eu core.CompareRow, seed uint64) *vsEuclid {
	var a, b []float64
	for i, e := range r.Errors {
		if i < len(r.IsCollapsed) && r.IsCollapsed[i] {
			continue
		}
		a, b = append(a, 100*e), append(b, 100*eu.Errors[i])
	}
	p := core.PairedDiff(a, b, seed)
	v := &vsEuclid{N: p.N, Mean: p.Mean, Lo: p.Lo, Hi: p.Hi, P: p.P, Verdict: "cannot tell"}
	switch {
	case p.Better:
		v.Verdict = "better"
	case p.Worse:
		v.Verdict = "worse"
	}
	if p.N < 2 {
		return nil // no interval: nothing to say
	}
	return v
}

// table2 reproduces the paper's Table 2 (Section 5's protocol) for RML and
// the baselines on the same noisy triplets, beside the paper's numbers.
func table2(ctx context.Context, args []string, stdout, stderr io.Writer) error {
	fs := newFlagSet("table2", stderr)
	dir := fs.String("data-dir", "assets/datasets", "folder with sonar.csv, iris.csv, ionosphere.csv, heart.csv, wine.csv")
	reps := fs.Int("reps", 10, "repetitions (random 85/15 stratified splits)")
	eta := fs.Float64("eta", spec.Eta, "η for RML and the best case")
	flip := fs.Float64("flip", -1, "probability of swapping each triplet (default 1 − η, as the paper ties them)")
	seed := fs.Uint64("seed", 1, "seed of the splits and the swaps")
	tune := fs.String("tune", "cv", "how λ is chosen from {2^-3, …, 2^6, 100}: cv (cross-validation on the training part) or test (the test error, the paper's looser choice)")
	folds := fs.Int("folds", 2, "cross-validation folds of the training part (--tune cv)")
	cvTol := fs.Float64("cv-tol", 1e-2, fmt.Sprintf("relative gap at which the cross-validation's fits stop (LMNN's certified one, or --cv-lmnn-iters); the final fit's is %g", core.CompareTol))
	cvLMNN := fs.Int("cv-lmnn-iters", 150, fmt.Sprintf("LMNN's iterations in the cross-validation; the final fit's are %d", spec.LMNNIters))
	from := fs.String("triplets-from", "labels", "labels (each point's 3 nearest of its class × 3 nearest of others) or paper (its 5 nearest, split by class)")
	only := fs.String("datasets", strings.Join(table2Datasets, ","), "which datasets, comma-separated")
	asJSON := fs.Bool("json", false, "print one JSON object instead of the table")
	missingFlag := fs.String("missing", "error", "missing values (empty, NA, ?, NaN): error, drop (the rows) or mean (fill with the training mean)")
	if err := parse(fs, args); err != nil {
		return err
	}
	missing, err := core.ParseMissing(*missingFlag)
	if err != nil {
		return usageError("--missing: %v", err)
	}
	if fs.NArg() > 0 {
		return usageError("unexpected argument %q", fs.Arg(0))
	}
	if err := spec.EtaRange.Check(*eta); err != nil {
		return usageError("--eta: %v", err)
	}
	if *flip >= 0 {
		if err := spec.FlipRange.Check(*flip); err != nil {
			return usageError("--flip: %v", err)
		}
	}
	if *reps < 1 {
		return usageError("--reps %d: expected at least 1", *reps)
	}
	if *folds < 2 {
		return usageError("--folds %d: expected at least 2", *folds)
	}
	if !(*cvTol > 0 && *cvTol < 1) {
		return usageError("--cv-tol %g: expected a relative gap above 0 and below 1", *cvTol)
	}
	if *cvLMNN < 1 {
		return usageError("--cv-lmnn-iters %d: expected at least 1", *cvLMNN)
	}
	if *tune != "cv" && *tune != "test" {
		return usageError("--tune %q: expected cv or test", *tune)
	}
	if *tune == "test" {
		// Those flags set the cross-validation, which --tune test does not run.
		var set []string
		fs.Visit(func(f *flag.Flag) {
			if f.Name == "folds" || f.Name == "cv-tol" || f.Name == "cv-lmnn-iters" {
				set = append(set, "--"+f.Name)
			}
		})
		if len(set) > 0 {
			return usageError("%s: they apply to the cross-validation, which --tune test does not run", strings.Join(set, ", "))
		}
	}
	if *from != "labels" && *from != "paper" {
		return usageError("--triplets-from %q: expected labels or paper", *from)
	}
	var names []string
	var data []*core.Dataset
	for _, n := range strings.Split(*only, ",") {
		path := filepath.Join(*dir, n+".csv")
		f, err := os.Open(path)
		if err != nil {
			return err
		}
		ds, err := core.ReadCSV(f, core.CSVOptions{Missing: missing})
		f.Close()
		if err != nil {
			return fmt.Errorf("%s: %w", path, err)
		}
		names, data = append(names, n), append(data, ds)
	}
	o := core.CompareOptions{Reps: *reps, Eta: *eta, Flip: *flip, Seed: *seed, TuneOnTest: *tune == "test", PaperTriplets: *from == "paper",
		Folds: *folds, CVTol: *cvTol, CVLMNNIters: *cvLMNN}
	live := !*asJSON && isTerminal(stderr)
	if live {
		o.Progress = func(done, total int) { fmt.Fprintf(stderr, "\r%d of %d repetitions", done, total) }
	}
	start := time.Now()
	rep, err := core.Compare(ctx, names, data, o)
	if live {
		fmt.Fprint(stderr, "\r\033[K")
	}
	if err != nil {
		return err
	}
	euclid := map[string]core.CompareRow{}
	for _, r := range rep.Rows {
		if r.Method == core.Euclid {
			euclid[r.Dataset] = r
		}
	}
	var rows []table2Row
	for _, r := range rep.Rows {
		// Mean and Std are over the repetitions that learned a metric
		// (null when none did): a collapse is counted, never averaged.
		mean, std, n := r.Learned()
		row := table2Row{Dataset: r.Dataset, Method: methodTitle[r.Method], Seconds: r.Seconds,
			Lambdas: r.Lambdas, Collapsed: r.Collapsed, BudgetActive: r.BudgetActive, cell: cell(100*mean, 100*std, n, r.Collapsed)}
		if n > 0 {
			m, s := 100*mean, 100*std
			row.Mean, row.Std = &m, &s
		}
		if eu, ok := euclid[r.Dataset]; ok && r.Method != core.Euclid {
			row.VsEuclid = pairedWithEuclid(r, eu, *seed)
		}
		for _, e := range r.Errors {
			row.Errors = append(row.Errors, 100*e)
		}
		if p, ok := core.PaperTable2[r.Dataset][r.Method]; ok {
			row.PaperMean, row.PaperStd = &p[0], &p[1]
		}
		rows = append(rows, row)
	}
	if *asJSON {
		return json.NewEncoder(stdout).Encode(map[string]any{"rows": rows, "reps": *reps, "eta": *eta, "flip": rep.Options.Flip,
			"seed": *seed, "tune": *tune, "folds": *folds, "cvTol": *cvTol, "cvLMNNIters": *cvLMNN, "tripletsFrom": *from, "seconds": time.Since(start).Seconds()})
	}
	how := "the test error (the paper's choice)"
	if *tune == "cv" {
		how = fmt.Sprintf("%d-fold cross-validation on the training part (its solves to %g, LMNN's to %d iterations)", *folds, *cvTol, *cvLMNN)
	}
	fmt.Fprintf(stdout, "Test error (%%) of 5-NN, mean ± std over %d repetitions; η = %g, %.0f%% of the triplets swapped; triplets from %s; λ by %s.\n",
		*reps, *eta, 100*rep.Options.Flip, *from, how)
	fmt.Fprintf(stdout, "Ours first, the paper's in brackets; s: seconds spent on the method, summed over repetitions.\n\n")
	fmt.Fprintf(stdout, "| dataset |")
	for _, m := range rep.Options.Methods {
		fmt.Fprintf(stdout, " %s |", methodTitle[m])
	}
	fmt.Fprintf(stdout, "\n|---|%s\n", strings.Repeat("---|", len(rep.Options.Methods)))
	var notes []string
	for i := 0; i < len(rows); i += len(rep.Options.Methods) {
		fmt.Fprintf(stdout, "| %s |", rows[i].Dataset)
		for _, r := range rows[i : i+len(rep.Options.Methods)] {
			cell := r.cell
			if r.PaperMean != nil {
				cell += fmt.Sprintf(" [%.2f ± %.2f]", *r.PaperMean, *r.PaperStd)
			}
			cell += fmt.Sprintf(" (%.0fs)", r.Seconds)
			fmt.Fprintf(stdout, " %s |", cell)
			if r.Collapsed > 0 {
				notes = append(notes, fmt.Sprintf("%s, %s: %d of %d repetitions collapsed to A = 0 (k-NN then guesses by the rows' order): counted, not averaged", r.Dataset, r.Method, r.Collapsed, *reps))
			}
			if r.Method == "RML" {
				notes = append(notes, fmt.Sprintf("%s, RML: the budget Σq ≤ Nη bound in %d of %d repetitions", r.Dataset, r.BudgetActive, *reps))
			}
		}
		fmt.Fprintln(stdout)
	}
	fmt.Fprintln(stdout)
	for _, n := range notes {
		fmt.Fprintln(stdout, "- "+n)
	}
	fmt.Fprintf(stdout, "\nAgainst Euclid on the same splits: the mean of each split's error minus Euclid's (points), its 95 %% interval, "+
		"the p-value of a paired sign-flip test, and the verdict (better or worse only when both say so); a collapsed split is left out.\n\n")
	fmt.Fprintf(stdout, "| dataset |")
	for _, m := range rep.Options.Methods {
		if m != core.Euclid {
			fmt.Fprintf(stdout, " %s |", methodTitle[m])
		}
	}
	fmt.Fprintf(stdout, "\n|---|%s\n", strings.Repeat("---|", len(rep.Options.Methods)-1))
	for i := 0; i < len(rows); i += len(rep.Options.Methods) {
		fmt.Fprintf(stdout, "| %s |", rows[i].Dataset)
		for _, r := range rows[i : i+len(rep.Options.Methods)] {
			if r.Method == methodTitle[core.Euclid] {
				continue
			}
			if v := r.VsEuclid; v != nil {
				fmt.Fprintf(stdout, " %s [%s, %s], p %.2f: %s |", points(v.Mean), points(v.Lo), points(v.Hi), v.P, v.Verdict)
			} else {
				fmt.Fprintf(stdout, " — |")
			}
		}
		fmt.Fprintln(stdout)
	}
	fmt.Fprintf(stdout, "\nEach final fit at the chosen λ stops at a relative gap of %g (LMNN: a certified one, or %d iterations); RML_gd solves RML's problem with RML's λ by projected gradient, at most %d iterations.\n",
		rep.Options.Tol, rep.Options.LMNNIters, rep.Options.GradientIters)
	fmt.Fprintf(stdout, "Wall time %.0f s on %d workers.\n", time.Since(start).Seconds(), rep.Options.Workers)
	return nil
}

// points writes a difference in points with its sign, two decimals, and
// no "-0.00" for a difference that rounds to nothing.
func points(v float64) string {
	r := math.Round(v*100) / 100
	if r == 0 {
		r = 0 // not −0
	}
	return fmt.Sprintf("%+.2f", r)
}
