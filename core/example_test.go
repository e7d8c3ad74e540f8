package core_test

import (
	"context"
	"fmt"
	"os"
	"strings"

	"gonum.org/v1/gonum/mat"

	"github.com/rml-lab/rml/core"
)

// Read a CSV, draw triplets from its labels, and learn a metric.
func Example() {
	f, err := os.Open("../assets/datasets/iris.csv")
	if err != nil {
		fmt.Println(err)
		return
	}
	defer f.Close()
	ds, err := core.ReadCSV(f, core.CSVOptions{})
	if err != nil {
		fmt.Println(err)
		return
	}
	x := core.FitStandardizer(ds.X, nil).Transform(ds.X)
	ts, err := core.LabelTriplets(x, ds.Labels, ds.Classes, 3, 3)
	if err != nil {
		fmt.Println(err)
		return
	}
	p := &core.Problem{X: x, Triplets: ts, Eta: 0.8, Lambda: 1}
	res, err := core.Solve(context.Background(), p, core.Settings{Tol: 1e-6})
	if err != nil {
		fmt.Println(err)
		return
	}
	fmt.Println(len(ts), "triplets:", res.Status, "with relative gap ≤ 1e-6:", res.RelGap <= 1e-6)
	// Output: 1350 triplets: converged with relative gap ≤ 1e-6: true
}

// Errors in a CSV name the line and the column.
func ExampleReadCSV() {
	_, err := core.ReadCSV(strings.NewReader(""), core.CSVOptions{})
	fmt.Println(err)
	_, err = core.ReadCSV(strings.NewReader("height,weight,class\n1.7,70,a\n1.8,heavy,b\n"), core.CSVOptions{})
	fmt.Println(err)
	// Output:
	// the file is empty: no rows
	// line 3, column 2 ("weight"): "heavy" is not a number (the column is read as numbers: fix the cell, or exclude the column)
}

// Solve reports its progress after every iteration to a callback, which
// may stop the run: here after three, while the certified gap falls.
func ExampleSolve_progress() {
	p := &core.Problem{
		X:        mat.NewDense(4, 2, []float64{0, 0, 1, 0.2, 3, -1, 2, 2}),
		Triplets: []core.Triplet{{I: 0, J: 1, K: 2}, {I: 1, J: 0, K: 2}, {I: 2, J: 1, K: 0}, {I: 3, J: 1, K: 0}},
		Eta:      0.75, Lambda: 1,
	}
	res, err := core.Solve(context.Background(), p, core.Settings{
		Progress: func(pr core.Progress) bool {
			fmt.Printf("t = %d: Δ = %.2g\n", pr.Iter, pr.Gap)
			return pr.Iter < 3
		},
	})
	if err != nil {
		fmt.Println(err)
		return
	}
	fmt.Println(res.Status, "after", res.Iter, "iterations")
	// Output:
	// t = 1: Δ = 0.04
	// t = 2: Δ = 0.032
	// t = 3: Δ = 0.0069
	// stopped after 3 iterations
}

// Project draws the rows in 2-D so that distances follow the metric: with A
// ignoring the second feature, rows that differ only there coincide.
func ExampleProject() {
	x := mat.NewDense(4, 2, []float64{0, 0, 0, 5, 1, 0, 2, -3})
	a := mat.NewSymDense(2, []float64{1, 0, 0, 0})
	y, err := core.Project(x, a, nil)
	if err != nil {
		fmt.Println(err)
		return
	}
	for i := 0; i < 4; i++ {
		fmt.Printf("row %d: (%.2f, %.2f)\n", i, y.At(i, 0)+0, y.At(i, 1)+0)
	}
	// Output:
	// row 0: (-0.75, 0.00)
	// row 1: (-0.75, 0.00)
	// row 2: (0.25, 0.00)
	// row 3: (1.25, 0.00)
}

// Suspects ranks the triplets by how little the metric believes them. One
// triplet here says the opposite of the other three; the learned metric
// gives it the largest loss.
func ExampleSuspects() {
	x := mat.NewDense(6, 2, []float64{0, 0, 0.1, 3, 2, 0, 0.2, -3, 2.2, 0.5, 1.9, -0.5})
	ts := []core.Triplet{{I: 0, J: 1, K: 2}, {I: 0, J: 3, K: 4}, {I: 1, J: 3, K: 5}, {I: 0, J: 2, K: 1}}
	swapped := []bool{false, false, false, true}
	p := &core.Problem{X: x, Triplets: ts, Eta: 1, Lambda: 0.1}
	res, err := core.Solve(context.Background(), p, core.Settings{Tol: 1e-8})
	if err != nil {
		fmt.Println(err)
		return
	}
	list, precision := core.Suspects(p, res.A, swapped)
	fmt.Println("least believed: triplet", list[0].Index, "swapped:", list[0].Swapped, "precision:", precision)
	// Output: least believed: triplet 3 swapped: true precision: 1
}
