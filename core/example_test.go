package core_test

import (
	"context"
	"fmt"
	"os"

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
	_, err := readString("")
	fmt.Println(err)
	_, err = readString("height,weight,class\n1.7,70,a\n1.8,heavy,b\n")
	fmt.Println(err)
	// Output:
	// the file is empty: no rows
	// line 3, column 2 ("weight"): "heavy" is not a number
}

func readString(s string) (*core.Dataset, error) {
	return core.ReadCSV(stringsReader(s), core.CSVOptions{})
}

// Solve reports its progress to a callback that may stop it.
func ExampleSolve_progress() {
	p := &core.Problem{
		X:        mustDense(),
		Triplets: []core.Triplet{{I: 0, J: 1, K: 2}, {I: 1, J: 0, K: 2}, {I: 2, J: 1, K: 0}},
		Eta:      0.9, Lambda: 1,
	}
	res, _ := core.Solve(context.Background(), p, core.Settings{
		Progress: func(pr core.Progress) bool { return pr.Iter < 3 },
	})
	fmt.Println(res.Status, res.Iter, res.Gap >= 0)
	// Output: stopped 3 true
}
