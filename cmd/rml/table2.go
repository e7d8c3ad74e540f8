package main

import (
	"bytes"
	"context"
	"encoding/json"
	"flag"
	"fmt"
	"io"
	"math"
	"os"
	"path/filepath"
	"runtime"
	"slices"
	"strings"
	"time"

	"github.com/rml-lab/rml/core"
	"github.com/rml-lab/rml/spec"
)

// table2Datasets are the paper's five datasets, in its Table 2's order.
var table2Datasets = []string{"sonar", "iris", "ionosphere", "heart", "wine"}

// methodTitle names a method as the table does.
var methodTitle = map[core.Method]string{core.Fast: "RML", core.Gradient: "RML_gd", core.Hinge: "hinge", core.LMNN: "LMNN",
	core.Xing: "Xing", core.Euclid: "EUCL", core.BestCase: "best case"}

// table2Methods are the table's columns: the paper's (RML by the fast
// method and by projected gradient, LMNN, Xing, Euclid), with the plain
// hinge loss after RML (what the worst case's budget adds to it) and the
// best case last.
var table2Methods = []core.Method{core.Fast, core.Gradient, core.Hinge, core.LMNN, core.Xing, core.Euclid, core.BestCase}

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
	Extended     int       `json:"extended"`   // repetitions whose λ was chosen past the grid's end
	Iterations   []int     `json:"iterations"` // the final fit's, by repetition
	PaperMean    *float64  `json:"paperMean,omitempty"`
	PaperStd     *float64  `json:"paperStd,omitempty"`
	VsEuclid     *vsEuclid `json:"vsEuclid,omitempty"` // every method but Euclid
	VsHinge      *vsEuclid `json:"vsHinge,omitempty"`  // every method but the hinge loss
	cell         string    // the table's cell (figure1's cell)
}

// vsEuclid is a method against a reference (Euclid, or the plain hinge
// loss) on the same splits (core.PairedDiff of the test errors in %, over
// the splits where both learned a metric): the mean difference, its 95 %
// interval, the sign-flip test's p-value, and the verdict: "better",
// "worse", "cannot tell", or "the same" when every split's error is.
type vsEuclid struct {
	N       int     `json:"n"`
	Mean    float64 `json:"mean"`
	Lo      float64 `json:"lo"`
	Hi      float64 `json:"hi"`
	P       float64 `json:"p"`
	Verdict string  `json:"verdict"`
}

// pairedWith compares r with ref, another method on the same splits,
// leaving out the splits where either collapsed; nil for fewer than two
// splits (no interval: nothing to say).
func pairedWith(r, ref core.CompareRow, seed uint64) *vsEuclid {
	var a, b []float64
	for i, e := range r.Errors {
		if r.IsCollapsed[i] || ref.IsCollapsed[i] {
			continue
		}
		a, b = append(a, 100*e), append(b, 100*ref.Errors[i])
	}
	p := core.PairedDiff(a, b, seed)
	if p.N < 2 {
		return nil
	}
	v := &vsEuclid{N: p.N, Mean: p.Mean, Lo: p.Lo, Hi: p.Hi, P: p.P, Verdict: "cannot tell"}
	switch {
	case p.Better:
		v.Verdict = "better"
	case p.Worse:
		v.Verdict = "worse"
	case slices.Equal(a, b):
		v.Verdict = "the same"
	}
	return v
}

// table2Flags are table2's settings, as its flags set them.
type table2Flags struct {
	dir, tune, from, datasets string
	reps, folds, cvLMNN       int
	lmnnIters                 int
	eta, flip, cvTol          float64
	seed                      uint64
	asJSON                    bool
	out                       string
	missing                   core.MissingPolicy
}

// parseTable2 reads and checks table2's flags.
func parseTable2(args []string, stderr io.Writer) (*table2Flags, error) {
	var f table2Flags
	fs := newFlagSet("table2", stderr)
	fs.StringVar(&f.dir, "data-dir", "assets/datasets", "folder with sonar.csv, iris.csv, ionosphere.csv, heart.csv, wine.csv")
	fs.IntVar(&f.reps, "reps", 30, "repetitions (random 85/15 stratified splits): fewer cannot tell differences of a point or two apart")
	fs.Float64Var(&f.eta, "eta", spec.Eta, "η for RML and the best case")
	fs.Float64Var(&f.flip, "flip", -1, "probability of swapping each triplet (default 1 − η, as the paper ties them)")
	fs.Uint64Var(&f.seed, "seed", 1, "seed of the splits and the swaps")
	fs.StringVar(&f.tune, "tune", "cv", "how λ is chosen from {2^-3, …, 2^6, 100}: cv (cross-validation on the training part, by the folds' labels), agreement (the same, by the folds' own triplets, swapped as the training ones are: no labels needed) or test (the test error, the paper's looser choice)")
	fs.IntVar(&f.folds, "folds", 2, "cross-validation folds of the training part (--tune cv)")
	fs.Float64Var(&f.cvTol, "cv-tol", 1e-2, fmt.Sprintf("relative gap at which the cross-validation's fits stop (LMNN's certified one, or --cv-lmnn-iters); the final fit's is %g", core.CompareTol))
	fs.IntVar(&f.cvLMNN, "cv-lmnn-iters", 150, fmt.Sprintf("LMNN's iterations in the cross-validation; the final fit's are %d", spec.LMNNIters))
	fs.IntVar(&f.lmnnIters, "lmnn-iters", spec.LMNNIters, "LMNN's iterations at most in the final fit, unless it certifies its relative gap first")
	fs.StringVar(&f.from, "triplets-from", "labels", "labels (each point's 3 nearest of its class × 3 nearest of others) or paper (its 5 nearest, split by class)")
	fs.StringVar(&f.datasets, "datasets", strings.Join(table2Datasets, ","), "which datasets, comma-separated")
	fs.BoolVar(&f.asJSON, "json", false, "print one JSON object instead of the table")
	fs.StringVar(&f.out, "o", "", "write the table as Markdown to this file (with the machine and the date) instead of standard output")
	missing := fs.String("missing", "error", "missing values (empty, NA, ?, NaN): error, drop (the rows) or mean (fill with the training mean)")
	if err := parse(fs, args); err != nil {
		return nil, err
	}
	var err error
	if f.missing, err = core.ParseMissing(*missing); err != nil {
		return nil, usageError("--missing: %v", err)
	}
	if fs.NArg() > 0 {
		return nil, usageError("unexpected argument %q", fs.Arg(0))
	}
	if err := spec.EtaRange.Check(f.eta); err != nil {
		return nil, usageError("--eta: %v", err)
	}
	if f.flip >= 0 {
		if err := spec.FlipRange.Check(f.flip); err != nil {
			return nil, usageError("--flip: %v", err)
		}
	}
	switch {
	case f.reps < 1:
		return nil, usageError("--reps %d: expected at least 1", f.reps)
	case f.folds < 2:
		return nil, usageError("--folds %d: expected at least 2", f.folds)
	case !(f.cvTol > 0 && f.cvTol < 1):
		return nil, usageError("--cv-tol %g: expected a relative gap above 0 and below 1", f.cvTol)
	case f.cvLMNN < 1:
		return nil, usageError("--cv-lmnn-iters %d: expected at least 1", f.cvLMNN)
	case f.lmnnIters < 1:
		return nil, usageError("--lmnn-iters %d: expected at least 1", f.lmnnIters)
	case f.tune != "cv" && f.tune != "test" && f.tune != "agreement":
		return nil, usageError("--tune %q: expected cv, agreement or test", f.tune)
	case f.from != "labels" && f.from != "paper":
		return nil, usageError("--triplets-from %q: expected labels or paper", f.from)
	}
	if f.tune == "test" {
		// Those flags set the cross-validation, which --tune test does not run.
		var set []string
		fs.Visit(func(fl *flag.Flag) {
			if fl.Name == "folds" || fl.Name == "cv-tol" || fl.Name == "cv-lmnn-iters" {
				set = append(set, "--"+fl.Name)
			}
		})
		if len(set) > 0 {
			return nil, usageError("%s: they apply to the cross-validation, which --tune test does not run", strings.Join(set, ", "))
		}
	}
	return &f, nil
}

// readDatasets reads dir/name.csv for each name.
func readDatasets(dir string, names []string, missing core.MissingPolicy) ([]*core.Dataset, error) {
	var data []*core.Dataset
	for _, n := range names {
		path := filepath.Join(dir, n+".csv")
		f, err := os.Open(path)
		if err != nil {
			return nil, err
		}
		ds, err := core.ReadCSV(f, core.CSVOptions{Missing: missing})
		f.Close()
		if err != nil {
			return nil, fmt.Errorf("%s: %w", path, err)
		}
		data = append(data, ds)
	}
	return data, nil
}

// table2 reproduces the paper's Table 2 (Section 5's protocol) for RML and
// the baselines on the same noisy triplets, beside the paper's numbers.
func table2(ctx context.Context, args []string, stdout, stderr io.Writer) error {
	f, err := parseTable2(args, stderr)
	if err != nil {
		return err
	}
	names := strings.Split(f.datasets, ",")
	data, err := readDatasets(f.dir, names, f.missing)
	if err != nil {
		return err
	}
	o := core.CompareOptions{Methods: table2Methods, Reps: f.reps, Eta: f.eta, Flip: f.flip, Seed: f.seed, TuneOnTest: f.tune == "test", TuneByAgreement: f.tune == "agreement",
		PaperTriplets: f.from == "paper", Folds: f.folds, CVTol: f.cvTol, CVLMNNIters: f.cvLMNN, LMNNIters: f.lmnnIters}
	live := !f.asJSON && isTerminal(stderr)
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
	rows := table2Rows(rep, f.seed)
	if f.asJSON {
		return json.NewEncoder(stdout).Encode(map[string]any{"rows": rows, "reps": f.reps, "eta": f.eta, "flip": rep.Options.Flip,
			"seed": f.seed, "tune": f.tune, "folds": f.folds, "cvTol": f.cvTol, "cvLMNNIters": f.cvLMNN, "tripletsFrom": f.from, "seconds": time.Since(start).Seconds()})
	}
	var doc bytes.Buffer
	w := io.Writer(stdout)
	if f.out != "" {
		w = &doc
		fmt.Fprintf(w, "# The paper's Table 2, reproduced\n\nGenerated by `go run ./cmd/rml table2 -o %s` on %s, %d cores, %s/%s, %s. "+
			"Do not edit by hand: run the command again. [`reproduction.md`](reproduction.md) says how to read it.\n\n",
			f.out, time.Now().UTC().Format("2006-01-02"), runtime.NumCPU(), runtime.GOOS, runtime.GOARCH, runtime.Version())
	}
	printTable2(w, rows, rep, f)
	fmt.Fprintf(w, "\nAgainst Euclid on the same splits: the mean of each split's error minus Euclid's (points), its 95 %% interval, "+
		"the p-value of a paired sign-flip test, and the verdict (better or worse only when both say so); a split where either collapsed is left out.\n\n")
	printPaired(w, rows, rep.Options.Methods, core.Euclid, func(r table2Row) *vsEuclid { return r.VsEuclid })
	fmt.Fprintf(w, "\nAgainst the plain hinge loss (η = 1) on the same splits, as above: what the worst case's budget, "+
		"and the best case's choice of triplets, add to it under the same noise.\n\n")
	printPaired(w, rows, rep.Options.Methods, core.Hinge, func(r table2Row) *vsEuclid { return r.VsHinge })
	fmt.Fprintln(w)
	printClaims(w, rows, len(rep.Options.Methods))
	fmt.Fprintf(w, "\nEach final fit at the chosen λ stops at a relative gap of %g (LMNN: a certified one, or %d iterations); RML_gd solves RML's problem with RML's λ by projected gradient, at most %d iterations.\n",
		rep.Options.Tol, rep.Options.LMNNIters, rep.Options.GradientIters)
	fmt.Fprintf(w, "Wall time %.0f s on %d workers.\n", time.Since(start).Seconds(), rep.Options.Workers)
	if f.out != "" {
		return os.WriteFile(f.out, doc.Bytes(), 0o644)
	}
	return nil
}

// table2Rows turns the report into the table's rows, each method paired
// with Euclid and with the hinge loss on the same splits.
func table2Rows(rep *core.CompareReport, seed uint64) []table2Row {
	ref := map[string]map[core.Method]core.CompareRow{}
	for _, r := range rep.Rows {
		if r.Method == core.Euclid || r.Method == core.Hinge {
			if ref[r.Dataset] == nil {
				ref[r.Dataset] = map[core.Method]core.CompareRow{}
			}
			ref[r.Dataset][r.Method] = r
		}
	}
	var rows []table2Row
	for _, r := range rep.Rows {
		// Mean and Std are over the repetitions that learned a metric
		// (null when none did): a collapse is counted, never averaged.
		mean, std, n := r.Learned()
		row := table2Row{Dataset: r.Dataset, Method: methodTitle[r.Method], Seconds: r.Seconds,
			Lambdas: r.Lambdas, Collapsed: r.Collapsed, BudgetActive: r.BudgetActive, Extended: r.Extended, Iterations: r.Iterations, cell: cell(100*mean, 100*std, n, r.Collapsed)}
		if n > 0 {
			m, s := 100*mean, 100*std
			row.Mean, row.Std = &m, &s
		}
		if eu, ok := ref[r.Dataset][core.Euclid]; ok && r.Method != core.Euclid {
			row.VsEuclid = pairedWith(r, eu, seed)
		}
		if h, ok := ref[r.Dataset][core.Hinge]; ok && r.Method != core.Hinge {
			row.VsHinge = pairedWith(r, h, seed)
		}
		for _, e := range r.Errors {
			row.Errors = append(row.Errors, 100*e)
		}
		if p, ok := core.PaperTable2[r.Dataset][r.Method]; ok {
			row.PaperMean, row.PaperStd = &p[0], &p[1]
		}
		rows = append(rows, row)
	}
	return rows
}

// printTable2 prints the table of errors, ours beside the paper's, and its
// notes: collapses counted, how often RML's budget bound.
func printTable2(w io.Writer, rows []table2Row, rep *core.CompareReport, f *table2Flags) {
	methods := rep.Options.Methods
	how := "the test error (the paper's choice)"
	if f.tune != "test" {
		how = fmt.Sprintf("%d-fold cross-validation on the training part (its solves to %g, LMNN's to %d iterations)", f.folds, f.cvTol, f.cvLMNN)
	}
	if f.tune == "agreement" {
		how += ", scored by each held-out fold's own triplets (swapped as the training ones are), not its labels"
	}
	fmt.Fprintf(w, "Test error (%%) of 5-NN, mean ± std over %d repetitions; η = %g, %.0f%% of the triplets swapped; triplets from %s; λ by %s.\n",
		f.reps, f.eta, 100*rep.Options.Flip, f.from, how)
	fmt.Fprintf(w, "Ours first, the paper's in brackets; s: seconds spent on the method, summed over repetitions.\n\n")
	fmt.Fprintf(w, "| dataset |")
	for _, m := range methods {
		fmt.Fprintf(w, " %s |", methodTitle[m])
	}
	fmt.Fprintf(w, "\n|---|%s\n", strings.Repeat("---|", len(methods)))
	var notes []string
	for i := 0; i < len(rows); i += len(methods) {
		fmt.Fprintf(w, "| %s |", rows[i].Dataset)
		for _, r := range rows[i : i+len(methods)] {
			cell := r.cell
			if r.PaperMean != nil {
				cell += fmt.Sprintf(" [%.2f ± %.2f]", *r.PaperMean, *r.PaperStd)
			}
			cell += fmt.Sprintf(" (%.0fs)", r.Seconds)
			fmt.Fprintf(w, " %s |", cell)
			if r.Collapsed > 0 {
				notes = append(notes, fmt.Sprintf("%s, %s: %d of %d repetitions collapsed to A = 0 (k-NN then guesses by the rows' order): counted, not averaged", r.Dataset, r.Method, r.Collapsed, f.reps))
			}
			if r.Method == "RML" {
				notes = append(notes, fmt.Sprintf("%s, RML: the budget Σq ≤ Nη bound in %d of %d repetitions", r.Dataset, r.BudgetActive, f.reps))
			}
			if r.Method == "LMNN" {
				capped := 0
				for _, it := range r.Iterations {
					if it >= rep.Options.LMNNIters {
						capped++
					}
				}
				notes = append(notes, fmt.Sprintf("%s, LMNN: its final fit stopped at the %d-iteration cap, its gap not certified, in %d of %d repetitions", r.Dataset, rep.Options.LMNNIters, capped, f.reps))
			}
			if r.Extended > 0 {
				notes = append(notes, fmt.Sprintf("%s, %s: λ chosen past the grid's end (by factors of 4) in %d of %d repetitions", r.Dataset, r.Method, r.Extended, f.reps))
			}
		}
		fmt.Fprintln(w)
	}
	fmt.Fprintln(w)
	for _, n := range notes {
		fmt.Fprintln(w, "- "+n)
	}
}

// printPaired prints each method against ref, split by split (vs picks
// the comparison from a row).
func printPaired(w io.Writer, rows []table2Row, methods []core.Method, ref core.Method, vs func(table2Row) *vsEuclid) {
	if !slices.Contains(methods, ref) {
		fmt.Fprintf(w, "(%s was not run.)\n", methodTitle[ref])
		return
	}
	fmt.Fprintf(w, "| dataset |")
	for _, m := range methods {
		if m != ref {
			fmt.Fprintf(w, " %s |", methodTitle[m])
		}
	}
	fmt.Fprintf(w, "\n|---|%s\n", strings.Repeat("---|", len(methods)-1))
	for i := 0; i < len(rows); i += len(methods) {
		fmt.Fprintf(w, "| %s |", rows[i].Dataset)
		for _, r := range rows[i : i+len(methods)] {
			if r.Method == methodTitle[ref] {
				continue
			}
			if v := vs(r); v != nil {
				fmt.Fprintf(w, " %s [%s, %s], p %.2f: %s |", points(v.Mean), points(v.Lo), points(v.Hi), v.P, v.Verdict)
			} else {
				fmt.Fprintf(w, " — |")
			}
		}
		fmt.Fprintln(w)
	}
}

// printClaims says, dataset by dataset, whether the paper's two claims
// hold on these splits: RML is better than Euclid, and (the point of its
// worst case) better than the plain hinge loss under the same noise.
// "holds" and "does not" need the paired test and the interval to agree
// (better, or worse); otherwise the splits cannot tell.
func printClaims(w io.Writer, rows []table2Row, perDataset int) {
	verdict := func(v *vsEuclid) string {
		switch {
		case v == nil:
			return "no comparison (fewer than two splits with a metric)"
		case v.Verdict == "better":
			return "holds"
		case v.Verdict == "worse":
			return "does not (worse)"
		case v.Verdict == "the same":
			return "does not (the same error on every split)"
		}
		return "cannot tell"
	}
	fmt.Fprintln(w, "The paper's claims, dataset by dataset:")
	fmt.Fprintln(w)
	for i := 0; i < len(rows); i += perDataset {
		for _, r := range rows[i : i+perDataset] {
			if r.Method == "RML" {
				fmt.Fprintf(w, "- %s: RML better than Euclid: %s; better than the hinge loss: %s.\n", r.Dataset, verdict(r.VsEuclid), verdict(r.VsHinge))
			}
		}
	}
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
