package main

import (
	"encoding/json"
	"os/exec"
	"path/filepath"
	"regexp"
	"strconv"
	"testing"
)

// docs/numpy_fista.py, an independent NumPy solver of the same problem,
// reaches the optimum `rml train` certifies on the saved
// problem: its final −L and P bracket the optimum, so they must bracket the
// fast method's P too (which is within its own gap of it). Skipped where
// Debian's python3-numpy is not installed (the CI's machine does not need it).
func TestNumPyReferenceAgrees(t *testing.T) {
	py := "/usr/bin/python3"
	if exec.Command(py, "-c", "import numpy").Run() != nil {
		t.Skip("no NumPy for /usr/bin/python3 (apt-get install -y python3-numpy)")
	}
	prob := filepath.Join(t.TempDir(), "p.json")
	code, out, errs := runCLI("train", "--data", iris, "--json", "--flip", "0.1", "--tol", "1e-9", "--save-problem", prob)
	if code != 0 {
		t.Fatalf("exit %d: %s", code, errs)
	}
	var r struct{ Primal, Gap float64 }
	if err := json.Unmarshal([]byte(out), &r); err != nil {
		t.Fatal(err)
	}
	b, err := exec.Command(py, "../../docs/numpy_fista.py", prob, "--tol", "1e-6").CombinedOutput()
	if err != nil {
		t.Fatalf("%v: %s", err, b)
	}
	m := regexp.MustCompile(`\(converged\); P = (\S+), L = (\S+)`).FindSubmatch(b)
	if m == nil {
		t.Fatalf("numpy_fista.py printed %q", b)
	}
	p, _ := strconv.ParseFloat(string(m[1]), 64)
	l, _ := strconv.ParseFloat(string(m[2]), 64)
	// P* ∈ [−L, P] from NumPy's certificate and P* ∈ [r.Primal − r.Gap,
	// r.Primal] from ours; the printed values carry 10 digits.
	slack := 1e-9 * max(1, p)
	if r.Primal < -l-slack || r.Primal-r.Gap > p+slack {
		t.Errorf("NumPy brackets the optimum in [%v, %v]; rml train's P = %v (gap %v) lies outside", -l, p, r.Primal, r.Gap)
	}
	t.Logf("NumPy: %s", b)
}
