package main

import (
	"bytes"
	"context"
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"
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
		{[]string{"train", "--data", iris, "--eta", "1.5"}, "--eta 1.5"},
		{[]string{"train", "--data", iris, "--lambda", "0"}, "--lambda 0"},
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
}
