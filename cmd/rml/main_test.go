package main

import (
	"bytes"
	"context"
	"encoding/json"
	"encoding/xml"
	"fmt"
	"io"
	"math"
	"os"
	"path/filepath"
	"reflect"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/rml-lab/rml/core"
	"github.com/rml-lab/rml/ui/draw"
)

const iris = "../../assets/datasets/iris.csv"

func runCLI(args ...string) (code int, stdout, stderr string) {
	var o, e bytes.Buffer
	code = run(context.Background(), args, &o, &e)
	return code, o.String(), e.String()
}

func TestTrainJSON(t *testing.T) {
	dir := t.TempDir()
	prob := filepath.Join(dir, "p.json")
	code, out, errs := runCLI("train", "--data", iris, "--json", "--flip", "0.1", "--save-problem", prob)
	if code != 0 {
		t.Fatalf("exit %d: %s", code, errs)
	}
	var r map[string]any
	if err := json.Unmarshal([]byte(out), &r); err != nil {
		t.Fatal(err)
	}
	for _, k := range []string{"n", "d", "triplets", "iterations", "gap", "relGap", "primal", "dual", "status", "seconds", "A"} {
		if _, ok := r[k]; !ok {
			t.Errorf("JSON lacks %q", k)
		}
	}
	if r["n"].(float64) != 150 || r["d"].(float64) != 4 || r["status"] != "converged" || r["relGap"].(float64) > 1e-6 {
		t.Errorf("JSON %v", r)
	}
	var p struct {
		X        [][]float64
		Triplets [][3]int
		Eta      float64
		Lambda   float64
	}
	b, _ := os.ReadFile(prob)
	if err := json.Unmarshal(b, &p); err != nil {
		t.Fatal(err)
	}
	if len(p.X) != 150 || len(p.Triplets) != int(r["triplets"].(float64)) || p.Eta != 0.8 || p.Lambda != 1 {
		t.Errorf("saved problem: %d rows, %d triplets, η %v, λ %v", len(p.X), len(p.Triplets), p.Eta, p.Lambda)
	}
}

func TestTrainTripletsFile(t *testing.T) {
	f := filepath.Join(t.TempDir(), "t.csv")
	os.WriteFile(f, []byte("anchor,similar,dissimilar\n0,1,60\n50,51,120\n100,101,2\n"), 0o644)
	code, out, errs := runCLI("train", "--data", iris, "--triplets", f)
	if code != 0 || !strings.Contains(out, "triplets     3") || !strings.Contains(out, "converged") {
		t.Fatalf("exit %d\n%s\n%s", code, out, errs)
	}
}

func TestBadArguments(t *testing.T) {
	cases := []struct {
		args []string
		msg  string
	}{
		{nil, "Usage"},
		{[]string{"fit"}, `unknown command "fit"`},
		{[]string{"train"}, "--data is required"},
		{[]string{"train", "--data", iris, "--eta", "1.5"}, "--eta: η = 1.5"},
		{[]string{"train", "--data", iris, "--lambda", "0"}, "--lambda: λ = 0"},
		{[]string{"train", "--data", iris, "--method", "newton"}, `unknown method "newton"`},
		{[]string{"train", "--data", "nope.csv"}, "nope.csv"},
		{[]string{"train", "--data", iris, "--k-same", "60"}, "k_same = 60"},
		{[]string{"train", "--data", iris, "--label", "colour"}, `no column named "colour"`},
		{[]string{"eval", "--data", iris, "--reps", "0"}, "--reps"},
	}
	for _, c := range cases {
		code, _, errs := runCLI(c.args...)
		if code == 0 || !strings.Contains(errs, c.msg) {
			t.Errorf("%v: exit %d, stderr %q; want non-zero and %q", c.args, code, errs, c.msg)
		}
		if c.args != nil && strings.Count(strings.TrimSpace(errs), "\n") > 0 && !strings.Contains(errs, "Usage") && !strings.Contains(errs, "flag") {
			t.Errorf("%v: reason is more than one line: %q", c.args, errs)
		}
	}
}

func TestEval(t *testing.T) {
	code, out, errs := runCLI("eval", "--data", iris, "--reps", "2", "--lambda", "1")
	if code != 0 || !strings.Contains(out, "EUCL  test error") || !strings.Contains(out, "RML   test error") {
		t.Fatalf("exit %d\n%s\n%s", code, out, errs)
	}
	// Another method's line is named after it, not "RML".
	code, out, errs = runCLI("eval", "--data", iris, "--reps", "2", "--lambda", "1", "--method", "bestcase")
	if code != 0 || !strings.Contains(out, "best case  test error") || strings.Contains(out, "RML") {
		t.Fatalf("--method bestcase: exit %d\n%s\n%s", code, out, errs)
	}
}

func writeFile(t *testing.T, name, text string) string {
	t.Helper()
	f := filepath.Join(t.TempDir(), name)
	if err := os.WriteFile(f, []byte(text), 0o644); err != nil {
		t.Fatal(err)
	}
	return f
}

// Exit statuses (issue 7): a failed, interrupted or unfinished run is never
// reported with status 0, and its A is not printed as a result.
func TestExitStatus(t *testing.T) {
	same := writeFile(t, "same.csv", "a,b,label\n1,1,x\n1,1,y\n1,1,x\n1,1,y\n1,1,x\n1,1,y\n1,1,x\n1,1,y\n")
	for _, c := range []struct {
		args   []string
		code   int
		stdout string // a part of stdout ("" = must be empty)
		stderr string // a part of stderr
	}{
		{[]string{"train", "--data", iris}, 0, "converged", ""},
		{[]string{"train", "--data", iris, "--max-iter", "3"}, 3, "iteration limit", "not converged"},
		{[]string{"train", "--data", iris, "--max-iter", "3", "--json"}, 3, `"status":"iteration limit"`, "not converged"},
		{[]string{"train", "--data", same, "--k-same", "1", "--k-diff", "1"}, 1, "", "constant"},
		{[]string{"train", "--data", iris, "--lambda", "1e-150"}, 1, "", "works"},
		{[]string{"train", "--data", iris, "--lambda", "1e300"}, 1, "", "works"},
		{[]string{"train", "--data", iris, "--k-same", "0"}, 2, "", "--k-same 0"},
		{[]string{"train", "--data", iris, "--tol", "0"}, 2, "", "--tol: tolerance = 0"},
		{[]string{"train", "--data", iris, "--no-such-flag"}, 2, "", "no-such-flag"},
		{[]string{"fit"}, 2, "", `unknown command "fit"`},
	} {
		code, out, errs := runCLI(c.args...)
		if code != c.code || (c.stdout == "") != (out == "") || !strings.Contains(out, c.stdout) || !strings.Contains(errs, c.stderr) {
			t.Errorf("%v: exit %d (want %d)\nstdout %q\nstderr %q", c.args, code, c.code, out, errs)
		}
	}
	// Interrupted (Ctrl-C cancels the context): 130, no result.
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	var o, e bytes.Buffer
	if code := run(ctx, []string{"train", "--data", iris}, &o, &e); code != 130 || o.Len() != 0 || !strings.Contains(e.String(), "interrupted") {
		t.Errorf("interrupted: exit %d, stdout %q, stderr %q", code, o.String(), e.String())
	}
}

// A model that collapsed to A = 0 says so, in text and in JSON; its numbers
// are finite (JSON cannot carry NaN or ±Inf).
func TestCollapseIsSaid(t *testing.T) {
	// Two classes at random over two features: the worst case over 80% of
	// the triplets has no metric better than none (measured: Σq = m, A = 0).
	var b strings.Builder
	b.WriteString("a,b,label\n")
	for i := 0; i < 40; i++ {
		b.WriteString(strconv.Itoa((i*37)%17) + "," + strconv.Itoa((i*53)%23) + "," + []string{"x", "y"}[(i*7)%3%2] + "\n")
	}
	f := writeFile(t, "noise.csv", b.String())
	code, out, errs := runCLI("train", "--data", f, "--k-same", "1", "--k-diff", "1", "--eta", "0.5")
	if code != 0 || !strings.Contains(out, "COLLAPSED") {
		t.Fatalf("exit %d\n%s\n%s", code, out, errs)
	}
	code, out, _ = runCLI("train", "--data", f, "--k-same", "1", "--k-diff", "1", "--eta", "0.5", "--json")
	var r map[string]any
	if err := json.Unmarshal([]byte(out), &r); err != nil || code != 0 || r["collapsed"] != true {
		t.Errorf("JSON: exit %d, %v, collapsed %v", code, err, r["collapsed"])
	}
	// eval says so too, and how many splits it concerns.
	code, out, errs = runCLI("eval", "--data", f, "--k-same", "1", "--k-diff", "1", "--eta", "0.5", "--lambda", "1", "--reps", "2", "--flip", "0")
	if code != 0 || !strings.Contains(out, "COLLAPSED in 2 of 2 splits") || !strings.Contains(out, "RML   no metric: A = 0 in every split") {
		t.Errorf("eval: exit %d\n%s\n%s", code, out, errs)
	}
	// Iris is not collapsed.
	_, out, _ = runCLI("train", "--data", iris, "--json")
	if err := json.Unmarshal([]byte(out), &r); err != nil || r["collapsed"] != false {
		t.Errorf("Iris: %v, collapsed %v", err, r["collapsed"])
	}
}

// Files whose form was guessed: the guess is said, or the file refused
// with the reason.
func TestFileNotes(t *testing.T) {
	cr := writeFile(t, "cr.csv", "a,b,label\r1,2,x\r3,4,y\r5,1,x\r2,6,y\r4,4,x\r6,2,y\r")
	code, out, errs := runCLI("train", "--data", cr, "--k-same", "1", "--k-diff", "1")
	if code != 0 || !strings.Contains(out, "6 rows") || !strings.Contains(errs, "old Mac") {
		t.Errorf("CR file: exit %d\n%s\n%s", code, out, errs)
	}
	trip := writeFile(t, "t.csv", "0,1,1e2\n0,1,2\n")
	if code, _, errs := runCLI("train", "--data", iris, "--triplets", trip); code != 1 || !strings.Contains(errs, `line 1, column 3 ("dissimilar"): "1e2" is not a row index`) {
		t.Errorf("triplet file: exit %d, %q", code, errs)
	}
}

// table2 on Iris alone, one repetition: a row per method with the paper's
// numbers beside ours (none for the hinge loss and the best case, which
// the paper has not), finite errors, and bad flags refused.
func TestTable2(t *testing.T) {
	code, out, errs := runCLI("table2", "--data-dir", "../../assets/datasets", "--datasets", "iris", "--reps", "1", "--json")
	if code != 0 {
		t.Fatalf("exit %d: %s", code, errs)
	}
	var r struct {
		Rows []struct {
			Dataset, Method string
			Mean            float64
			PaperMean       *float64
			VsEuclid        *vsEuclid
			VsHinge         *vsEuclid
		}
	}
	if err := json.Unmarshal([]byte(out), &r); err != nil {
		t.Fatal(err)
	}
	if len(r.Rows) != 7 {
		t.Fatalf("%d rows", len(r.Rows))
	}
	for _, row := range r.Rows {
		if row.Dataset != "iris" || !(row.Mean >= 0 && row.Mean <= 100) || (row.PaperMean == nil) != (row.Method == "best case" || row.Method == "hinge") {
			t.Errorf("row %+v", row)
		}
		// One split: no interval, so no paired comparison.
		if row.VsEuclid != nil || row.VsHinge != nil {
			t.Errorf("%s: a comparison from one split: %+v, %+v", row.Method, row.VsEuclid, row.VsHinge)
		}
	}
	// Three splits: each method against Euclid and the hinge loss, split
	// by split, with a verdict that agrees with its interval and p-value.
	code, out, errs = runCLI("table2", "--data-dir", "../../assets/datasets", "--datasets", "iris", "--reps", "3", "--tune", "test", "--json")
	r.Rows = nil
	if err := json.Unmarshal([]byte(out), &r); code != 0 || err != nil {
		t.Fatalf("exit %d, %v: %s", code, err, errs)
	}
	for _, row := range r.Rows {
		v := row.VsEuclid
		if (v == nil) != (row.Method == "EUCL") {
			t.Errorf("%s: against Euclid %+v", row.Method, v)
			continue
		}
		if v != nil && (v.N != 3 || !(v.Lo <= v.Mean && v.Mean <= v.Hi) || (v.Verdict == "better") != (v.P < 0.05 && v.Hi < 0)) {
			t.Errorf("%s: %+v", row.Method, v)
		}
		if h := row.VsHinge; (h == nil) != (row.Method == "hinge") || (h != nil && (h.N != 3 || !(h.Lo <= h.Mean && h.Mean <= h.Hi))) {
			t.Errorf("%s: against the hinge loss %+v", row.Method, h)
		}
	}
	for _, bad := range [][]string{{"--tune", "guess"}, {"--triplets-from", "oracle"}, {"--reps", "0"}, {"--eta", "2"},
		{"--folds", "1"}, {"--cv-tol", "0"}, {"--cv-tol", "1"}, {"--cv-lmnn-iters", "0"},
		{"--tune", "test", "--folds", "3"}, {"--cv-tol", "0.001", "--tune", "test"}, {"--tune", "test", "--cv-lmnn-iters", "500"}} {
		if code, _, errs := runCLI(append([]string{"table2"}, bad...)...); code != 2 || errs == "" {
			t.Errorf("%v: exit %d, %q", bad, code, errs)
		}
	}
}

// table2 reads a dataset with missing values as --missing says: refused
// by default, naming the cell; its rows dropped with --missing drop.
func TestTable2Missing(t *testing.T) {
	raw, err := os.ReadFile(iris)
	if err != nil {
		t.Fatal(err)
	}
	lines := strings.Split(string(raw), "\n")
	lines[5] = "?" + lines[5][strings.Index(lines[5], ","):] // a row's first cell missing
	dir := t.TempDir()
	if err := os.WriteFile(filepath.Join(dir, "holes.csv"), []byte(strings.Join(lines, "\n")), 0o644); err != nil {
		t.Fatal(err)
	}
	args := []string{"table2", "--data-dir", dir, "--datasets", "holes", "--reps", "1", "--tune", "test", "--json"}
	if code, _, errs := runCLI(args...); code == 0 || !strings.Contains(errs, "missing") {
		t.Errorf("with holes, no --missing: exit %d, %q", code, errs)
	}
	if code, out, errs := runCLI(append(args, "--missing", "drop")...); code != 0 || !strings.Contains(out, `"holes"`) {
		t.Errorf("--missing drop: exit %d, %q", code, errs)
	}
	if code, _, _ := runCLI(append(args, "--missing", "guess")...); code != 2 {
		t.Errorf("--missing guess: exit %d", code)
	}
}

// figure1 writes its CSV files and well-formed, self-contained SVG files
// (short runs here: one repetition, 300 iterations per convergence run).
func TestFigure1(t *testing.T) {
	out := t.TempDir()
	code, stdout, errs := runCLI("figure1", "--data-dir", "../../assets/datasets", "--out", out, "--reps", "1", "--iters", "300")
	if code != 0 {
		t.Fatalf("exit %d: %s", code, errs)
	}
	// Wine at η = 0.5 collapses (docs/figure1.md): said as A = 0, never
	// as an error rate.
	if !strings.Contains(stdout, "η = 0.5 RML       A = 0 (1 of 1)") || !strings.Contains(stdout, "sonar      nesterov  iteration limit      300 iterations") {
		t.Errorf("stdout: %q", stdout)
	}
	for _, name := range []string{"convergence.csv", "eta.csv", "eta.svg", "convergence-sonar.svg", "convergence-iris.svg", "convergence-ionosphere.svg", "convergence-heart.svg", "convergence-wine.svg"} {
		b, err := os.ReadFile(filepath.Join(out, name))
		if err != nil {
			t.Fatal(err)
		}
		if strings.HasSuffix(name, ".svg") {
			d := xml.NewDecoder(bytes.NewReader(b))
			for {
				_, err := d.Token()
				if err == io.EOF {
					break
				}
				if err != nil {
					t.Fatalf("%s is not well-formed: %v", name, err)
				}
			}
			if strings.Contains(string(b), "href=\"http") || strings.Contains(string(b), "NaN") {
				t.Errorf("%s fetches from elsewhere or shows NaN", name)
			}
		} else if lines := strings.Count(string(b), "\n"); lines < 2 {
			t.Errorf("%s has %d lines", name, lines)
		}
		if name == "eta.csv" && !strings.Contains(string(b), "0.5,RML,NaN,NaN,1,A=0\n") {
			t.Errorf("eta.csv does not say RML collapsed at η = 0.5:\n%s", b)
		}
		if name == "eta.svg" && !strings.Contains(string(b), ">A = 0 in 1/1</text>") {
			t.Error("eta.svg does not mark where RML collapsed")
		}
	}
}

// sweep prints a row per noise rate, λ and η, and says where RML collapses
// (Wine at η = 0.5 with 30 % swapped and λ = 16: every split, measured).
func TestSweep(t *testing.T) {
	code, out, errs := runCLI("sweep", "--data", "../../assets/datasets/wine.csv", "--flip", "0.3", "--lambda", "16", "--eta", "0.5,0.9", "--reps", "2")
	if code != 0 {
		t.Fatalf("exit %d: %s", code, errs)
	}
	if strings.Count(out, "| 30% | 16 |") != 2 || !strings.Contains(out, "| 0.5 | A = 0 (2 of 2) | collapses | 2 | 2 |") {
		t.Errorf("sweep printed:\n%s", out)
	}
	if code, _, _ := runCLI("sweep", "--eta", "x"); code != 2 {
		t.Errorf("--eta x: exit %d", code)
	}
}

// train with LMNN and no --max-iter stops at table2's cap of 500 (its
// certified gap stays far from the tolerance on Wine: 0.87), with exit 3.
func TestTrainLMNNCapped(t *testing.T) {
	code, _, errs := runCLI("train", "--data", "../../assets/datasets/wine.csv", "--method", "lmnn")
	if code != 3 || !strings.Contains(errs, "after 500 iterations") {
		t.Errorf("exit %d: %s", code, errs)
	}
}

// The sweep's change column: a collapse first, then the same error; a
// difference where no split's budget bound is put down to the solves, not
// to the budget.
func TestSweepChange(t *testing.T) {
	ref := core.CompareRow{Mean: 0.05}
	for _, c := range []struct {
		r    core.CompareRow
		want string
	}{
		{core.CompareRow{Mean: 0.6667, Collapsed: 10, BudgetActive: 10}, "collapses"},
		{core.CompareRow{Mean: 0.05}, "same"},
		{core.CompareRow{Mean: 0.0537}, "same problem (budget never bound); +0.37 from the solves' tolerance"},
		{core.CompareRow{Mean: 0.0519, BudgetActive: 1}, "worse by 0.19"},
		{core.CompareRow{Mean: 0.0481, BudgetActive: 2}, "better by 0.19"},
	} {
		if got := changeOf(c.r, ref); got != c.want {
			t.Errorf("%+v: %q, want %q", c.r, got, c.want)
		}
	}
}

// rml train says only what holds for the method: η and the budget for the
// robust problem, a gap where there is a certificate, the stopping
// measure where there is none.
func TestTrainTextPerMethod(t *testing.T) {
	for _, c := range []struct {
		method   string
		has, not []string
	}{
		{"fast", []string{"η = 0.8, λ = 1", "gap          Δ =", "Σq/m"}, []string{"no certificate"}},
		{"lmnn", []string{"lmnn, λ = 1", "gap          Δ ="}, []string{"η =", "Σq/m", "no certificate"}},
		{"xing", []string{"method       xing\n", "gap          Δ ="}, []string{"λ =", "Σq/m", "no certificate"}},
		{"bestcase", []string{"η = 0.8, λ = 1", "no certificate"}, []string{"Σq/m", "gap "}},
	} {
		_, out, errs := runCLI("train", "--data", iris, "--method", c.method)
		for _, s := range c.has {
			if !strings.Contains(out, s) {
				t.Errorf("%s: output lacks %q:\n%s%s", c.method, s, out, errs)
			}
		}
		for _, s := range c.not {
			if strings.Contains(out, s) {
				t.Errorf("%s: output has %q:\n%s", c.method, s, out)
			}
		}
	}
}

// Figure 1's charts use the page's rules: decades on a log axis labelled
// as powers of ten, round numbers or the data's own points on a linear
// one, each learner in its page colour and dash, and the legend beside
// the plot, not on its curves.
func TestFigure1Axes(t *testing.T) {
	var a axes
	if got := a.ticks(true, -6, -3, nil); !slices.Equal(got, []float64{1e-6, 1e-5, 1e-4, 1e-3}) {
		t.Errorf("log ticks %v", got)
	}
	if got := a.ticks(false, 0, 60, nil); !slices.Equal(got, []float64{0, 20, 40, 60}) {
		t.Errorf("linear ticks %v", got)
	}
	for v, want := range map[float64]string{1e-6: "1e-6", 1e5: "1e5", 1000: "1000", 0.5: "0.5", 2000: "2000", 0.001: "0.001", 2.5e-5: "2.5e-05"} {
		if got := tickLabel(v); got != want {
			t.Errorf("tickLabel(%g) = %q, want %q", v, got, want)
		}
	}
	fast := series{name: "projected gradient (RML_gd)", style: draw.MethodStyle("gradient"), x: []float64{0.5, 0.7, 1}, y: []float64{10, 20, 5}, err: []float64{1, 2, 1}}
	svg := lineChart(chart{title: "t", xLabel: "η", yLabel: "%", w: 720, h: 400, xTicks: []float64{0.5, 0.7, 1}, legend: true}, []series{fast})
	for _, want := range []string{`>0.5</text>`, `>0.7</text>`, `>1</text>`, `stroke="` + draw.MethodStyle("gradient").Colour + `"`, `stroke-dasharray="2 2"`} {
		if !strings.Contains(svg, want) {
			t.Errorf("the chart has no %q", want)
		}
	}
	// The legend's line starts right of the plot's frame (at w − 190).
	m := regexp.MustCompile(`<line x1="(\d+)" x2="\d+" y1="\d+" y2="\d+" stroke="[^"]+" stroke-width="2"`).FindStringSubmatch(svg)
	if m == nil {
		t.Fatal("no legend")
	}
	if x, _ := strconv.Atoi(m[1]); x < 720-190 {
		t.Errorf("the legend starts at x = %d, inside the plot", x)
	}
}

// The best case says which triplets it set aside and, with swaps
// injected, how many of those were swapped: its precision and recall
// agree with the counts, and the set is the ⌈N(1−η)⌉ it did not trust.
func TestBestCaseSetAside(t *testing.T) {
	code, out, errs := runCLI("train", "--data", iris, "--flip", "0.2", "--method", "bestcase", "--json")
	if code != 0 {
		t.Fatalf("exit %d: %s", code, errs)
	}
	var r trainOutput
	if err := json.Unmarshal([]byte(out), &r); err != nil {
		t.Fatal(err)
	}
	sa := r.SetAside
	if sa == nil || sa.Precision == nil || sa.Recall == nil {
		t.Fatalf("set aside %+v", sa)
	}
	if want := r.Triplets - int(math.Ceil(float64(r.Triplets)*r.Eta-1e-9)); len(sa.Triplets) != want {
		t.Errorf("%d set aside of %d at η = %g, want %d", len(sa.Triplets), r.Triplets, r.Eta, want)
	}
	if *sa.Precision != float64(sa.Swapped)/float64(len(sa.Triplets)) || *sa.Recall != float64(sa.Swapped)/float64(r.Swapped) || sa.Swapped > r.Swapped {
		t.Errorf("precision %v, recall %v of %d swapped among %d, %d swapped in all", *sa.Precision, *sa.Recall, sa.Swapped, len(sa.Triplets), r.Swapped)
	}
	if _, text, _ := runCLI("train", "--data", iris, "--flip", "0.2", "--method", "bestcase"); !strings.Contains(text, "set aside") || !strings.Contains(text, "precision") {
		t.Errorf("text output:\n%s", text)
	}
	if _, text, _ := runCLI("train", "--data", iris, "--method", "bestcase"); strings.Contains(text, "precision") {
		t.Errorf("no swaps, a precision:\n%s", text)
	}
}

// A method that collapsed to A = 0 is counted in table2, never averaged:
// Wine at η = 0.5 (half the triplets swapped) collapses RML on every
// split, at every λ of the grid.
func TestTable2Collapsed(t *testing.T) {
	args := []string{"table2", "--data-dir", "../../assets/datasets", "--datasets", "wine", "--reps", "2", "--eta", "0.5", "--tune", "test"}
	code, out, errs := runCLI(args...)
	if code != 0 || !strings.Contains(out, "| wine | A = 0 (2 of 2) [") || !strings.Contains(out, "counted, not averaged") {
		t.Fatalf("exit %d\n%s\n%s", code, out, errs)
	}
	code, out, errs = runCLI(append(args, "--json")...)
	var r struct {
		Rows []struct {
			Method    string
			Mean      *float64
			Collapsed int
			Errors    []float64
		}
	}
	if err := json.Unmarshal([]byte(out), &r); code != 0 || err != nil {
		t.Fatalf("exit %d, %v: %s", code, err, errs)
	}
	for _, row := range r.Rows {
		if row.Method == "RML" && (row.Mean != nil || row.Collapsed != 2 || len(row.Errors) != 2) {
			t.Errorf("RML: mean %v, %d collapsed, errors %v", row.Mean, row.Collapsed, row.Errors)
		}
		if row.Method == "EUCL" && row.Mean == nil {
			t.Error("Euclid has no mean")
		}
	}
}

// noise on a small configuration (Iris, three splits, no noise and 30 %
// swapped): a cell per learner and rate, the same cells for one worker and
// for two, RML at η = 1 − 0 the hinge loss itself, Euclid paired with none
// but the hinge loss, agreements that are shares, and bad flags refused.
func TestNoise(t *testing.T) {
	args := []string{"noise", "--data-dir", "../../assets/datasets", "--datasets", "iris", "--reps", "3", "--rates", "0,0.3", "--json"}
	cells := func(workers string) []map[string]any {
		t.Helper()
		code, out, errs := runCLI(append(args, "--workers", workers)...)
		var r struct{ Cells []map[string]any }
		if err := json.Unmarshal([]byte(out), &r); code != 0 || err != nil {
			t.Fatalf("exit %d, %v: %s", code, err, errs)
		}
		return r.Cells
	}
	one, two := cells("1"), cells("2")
	if len(one) != 2*len(noiseLearners) || !reflect.DeepEqual(one, two) {
		t.Fatalf("%d cells; one worker and two differ: %v", len(one), !reflect.DeepEqual(one, two))
	}
	by := map[string]map[string]any{}
	for _, c := range one {
		by[fmt.Sprint(c["rate"], c["learner"])] = c
		if a := c["agree"].(float64); !(a >= 0 && a <= 100) {
			t.Errorf("%v: agreement %v", c["learner"], a)
		}
		// No pairing from fewer than two splits with a metric.
		few := c["collapsed"].(float64) >= 2
		if (c["vsEuclid"] == nil) != (c["learner"] == "EUCL" || few) || (c["vsHinge"] == nil) != (c["learner"] == "hinge" || few) {
			t.Errorf("%v at %v: against Euclid %v, against the hinge loss %v", c["learner"], c["rate"], c["vsEuclid"], c["vsHinge"])
		}
	}
	if h, r := by["0hinge"], by["0RML η=1−rate"]; fmt.Sprint(h["mean"], h["agree"]) != fmt.Sprint(r["mean"], r["agree"]) {
		t.Errorf("no noise: RML at η = 1 %v, the hinge loss %v", r, h)
	}
	for _, bad := range [][]string{{"--reps", "1"}, {"--rates", "0.5"}, {"--rates", "x"}, {"--workers", "-1"}, {"--tune", "test"}} {
		if code, _, errs := runCLI(append([]string{"noise"}, bad...)...); code != 2 || errs == "" {
			t.Errorf("%v: exit %d, %q", bad, code, errs)
		}
	}
}

// train --eta-from-check chooses η from a re-checked sample: η = 1 − the
// share wrong among the triplets checked, said beside the truth; refused
// with a triplet file (no labels to check against) or a negative count.
func TestEtaFromCheck(t *testing.T) {
	code, out, errs := runCLI("train", "--data", "../../assets/datasets/wine.csv", "--flip", "0.3", "--eta-from-check", "80", "--json")
	var r struct {
		Eta     float64
		Swapped int
		EtaFrom *struct{ Checked, Wrong int }
	}
	if err := json.Unmarshal([]byte(out), &r); code != 0 || err != nil {
		t.Fatalf("exit %d, %v: %s", code, err, errs)
	}
	if r.EtaFrom == nil || r.EtaFrom.Checked != 80 || r.Eta != 1-float64(r.EtaFrom.Wrong)/80 || r.Swapped == 0 {
		t.Errorf("η %v from %+v (%d swapped)", r.Eta, r.EtaFrom, r.Swapped)
	}
	code, out, _ = runCLI("train", "--data", "../../assets/datasets/wine.csv", "--flip", "0.3", "--eta-from-check", "80")
	if code != 0 || !strings.Contains(out, "80 triplets re-checked") || !strings.Contains(out, "the share truly swapped is") {
		t.Errorf("exit %d:\n%s", code, out)
	}
	for _, bad := range [][]string{{"--eta-from-check", "-1"}, {"--eta-from-check", "5", "--triplets", "x.csv"}} {
		if code, _, errs := runCLI(append([]string{"train", "--data", "../../assets/datasets/wine.csv"}, bad...)...); code != 2 || errs == "" {
			t.Errorf("%v: exit %d, %q", bad, code, errs)
		}
	}
}

// The live line's estimate: none before 20 iterations and a second, the
// page's extrapolation at the run's rate after (a gap that halves every
// iteration, 40 iterations in 4 s, 10 more to go: 1 s).
func TestTimeLeft(t *testing.T) {
	var iters, gaps []float64
	for i := 0; i <= 40; i++ {
		iters, gaps = append(iters, float64(i)), append(gaps, math.Pow(2, -float64(i)))
	}
	pr := core.Progress{Iter: 40, Elapsed: 4 * time.Second, Certified: true, Primal: 1}
	if got := timeLeft(pr, iters, gaps, math.Pow(2, -50)); !strings.Contains(got, "about 1 s to go") {
		t.Errorf("%q", got)
	}
	pr.Elapsed = time.Second / 2
	if got := timeLeft(pr, iters, gaps, math.Pow(2, -50)); got != "" {
		t.Errorf("after half a second: %q", got)
	}
}

// The first guess at a run's length: the time per iteration so far times
// spec.GuessIters, said only when even its lower end is 10 s or more
// (100 ms an iteration: 20 s to 8 min at 1e-3; at 1e-6 no upper end), and
// only for the fast method, whose iterations GuessIters bound.
func TestFirstGuess(t *testing.T) {
	pr := core.Progress{Iter: 10, Elapsed: time.Second, Certified: true}
	if got := firstGuess(pr, core.Fast, 1e-3); !strings.Contains(got, "100 ms an iteration") || !strings.Contains(got, "expect 20 s to 8 min") {
		t.Errorf("100 ms an iteration: %q", got)
	}
	if got := firstGuess(pr, core.Fast, 1e-6); !strings.Contains(got, "expect at least 20 s") {
		t.Errorf("at 1e-6: %q", got)
	}
	if got := firstGuess(pr, core.Gradient, 1e-3); got != "" {
		t.Errorf("projected gradient: %q", got)
	}
	pr.Elapsed = 400 * time.Millisecond
	if got := firstGuess(pr, core.Fast, 1e-3); got != "" {
		t.Errorf("40 ms an iteration (from 8 s): %q, want nothing", got)
	}
}

// cellsWhere names the datasets, each with its rates, where a learner's
// comparison has the verdict, in the cells' order.
func TestCellsWhere(t *testing.T) {
	v := func(verdict string) *vsEuclid { return &vsEuclid{Verdict: verdict} }
	cells := []noiseCell{
		{Dataset: "sonar", Rate: 0.1, Learner: "t-STE", VsEuclid: v("better")},
		{Dataset: "sonar", Rate: 0.4, Learner: "t-STE", VsEuclid: v("better")},
		{Dataset: "wine", Rate: 0, Learner: "t-STE", VsEuclid: v("better")},
		{Dataset: "wine", Rate: 0.2, Learner: "t-STE", VsEuclid: v("worse")},
		{Dataset: "iris", Rate: 0.1, Learner: "LMNN", VsEuclid: v("better")},
		{Dataset: "iris", Rate: 0.3, Learner: "t-STE"},
	}
	vs := func(c noiseCell) *vsEuclid { return c.VsEuclid }
	if got, want := cellsWhere(cells, "t-STE", "better", vs), "sonar (10, 40 %), wine (0 %)"; got != want {
		t.Errorf("better: %q, want %q", got, want)
	}
	if got, want := cellsWhere(cells, "t-STE", "worse", vs), "wine (20 %)"; got != want {
		t.Errorf("worse: %q, want %q", got, want)
	}
	if got := cellsWhere(cells, "Xing", "better", vs); got != "" {
		t.Errorf("no cells: %q", got)
	}
}
