package core

import (
	"context"
	"encoding/json"
	"math"
	"os"
	"testing"

	"gonum.org/v1/gonum/mat"
)

// The optimum of a small problem equals an independent convex solver's:
// testdata/reference/problem.json holds a 9-point, 18-triplet problem
// (three triplets reversed) and, for η ∈ {1, 0.35, 0.25} and λ ∈ {0.25, 4},
// the primal optimum and optimal A from CVXOPT's cone QP on the primal
// (testdata/reference/solve.py says how; no code of this project is used
// there). At η = 1 the budget is inactive, at η = 0.35 and λ = 4 it binds
// with A ≠ 0, and at η = 0.25 the worst case collapses to A = 0, P* = m.
func TestReferenceOptimum(t *testing.T) {
	x, ts, b := referenceProblem(t)
	var ref struct {
		Cases []struct {
			Eta, Lambda, Primal float64
			Status              string
			A                   [][]float64
		}
	}
	if err := json.Unmarshal(b, &ref); err != nil {
		t.Fatal(err)
	}
	d := x.RawMatrix().Cols
	pp, err := Prepare(x, ts)
	if err != nil {
		t.Fatal(err)
	}
	for _, c := range ref.Cases {
		if c.Status != "optimal" {
			t.Fatalf("η %g, λ %g: the reference solver said %q", c.Eta, c.Lambda, c.Status)
		}
		p := pp.Problem(c.Eta, c.Lambda)
		for _, m := range []Method{Fast, Nesterov, Gradient} {
			// CVXOPT stops at a relative gap of 1e-10; its P(A), evaluated
			// at its A, is within ~1e-10 of the optimum. Algorithm 1 and
			// projected gradient are slow, so they are held to 1e-7.
			tol, cmp := 1e-10, 1e-8
			if m != Fast {
				tol, cmp = 1e-7, 2e-6
			}
			res, err := Solve(context.Background(), p, Settings{Method: m, Tol: tol, MaxIter: 2_000_000})
			if err != nil {
				t.Fatal(err)
			}
			if res.Status != Converged {
				t.Errorf("η %g, λ %g, %v: %v at relative gap %v", c.Eta, c.Lambda, m, res.Status, res.RelGap)
				continue
			}
			// −L(q) ≤ P* ≤ P(A): both bounds within tolerance of CVXOPT's.
			if !relClose(res.Primal, c.Primal, cmp) || !relClose(-res.Dual, c.Primal, cmp) {
				t.Errorf("η %g, λ %g, %v: P = %.12g, −L = %.12g; CVXOPT P* = %.12g", c.Eta, c.Lambda, m, res.Primal, -res.Dual, c.Primal)
			}
			// The optimal A is unique (λ/2‖A‖² is strictly convex): the
			// two agree to the square root of the objective's accuracy.
			var diff float64
			for i := 0; i < d; i++ {
				for j := 0; j < d; j++ {
					diff = math.Max(diff, math.Abs(res.A.At(i, j)-c.A[i][j]))
				}
			}
			if m == Fast && diff > 1e-4 {
				t.Errorf("η %g, λ %g: A differs from CVXOPT's by %.3g", c.Eta, c.Lambda, diff)
			}
			// The collapse is detected where, and only where, it happens.
			eig, err := Eigenvalues(res.A)
			if err != nil {
				t.Fatal(err)
			}
			if got, want := p.Collapsed(eig[0]), c.Eta == 0.25; got != want {
				t.Errorf("η %g, λ %g, %v: collapsed %v (largest eigenvalue %.3g)", c.Eta, c.Lambda, m, got, eig[0])
			}
		}
	}
}

// referenceProblem reads testdata/reference/problem.json: its data, its
// triplets, and the file for the cases a test reads from it.
func referenceProblem(t *testing.T) (*mat.Dense, []Triplet, []byte) {
	t.Helper()
	b, err := os.ReadFile("testdata/reference/problem.json")
	if err != nil {
		t.Fatal(err)
	}
	var ref struct {
		X        [][]float64
		Triplets [][3]int
	}
	if err := json.Unmarshal(b, &ref); err != nil {
		t.Fatal(err)
	}
	x := mat.NewDense(len(ref.X), len(ref.X[0]), nil)
	for i, row := range ref.X {
		x.SetRow(i, row)
	}
	ts := make([]Triplet, len(ref.Triplets))
	for i, tr := range ref.Triplets {
		ts[i] = Triplet{tr[0], tr[1], tr[2]}
	}
	return x, ts, b
}
