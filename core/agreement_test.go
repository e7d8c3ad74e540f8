package core

import (
	"math"
	"testing"

	"gonum.org/v1/gonum/mat"
)

// TripletAgreement on points placed by hand: the Euclidean metric, and
// each metric that sees one feature only, agree with two of the three
// triplets (not the same two); A = 0 ties them all (½); a tie counts half.
func TestTripletAgreement(t *testing.T) {
	x := mat.NewDense(4, 2, []float64{
		0, 0,
		1, 0,
		0, 2,
		3, 1,
	})
	ts := []Triplet{
		{I: 0, J: 1, K: 2}, // 1 against 4: agrees
		{I: 0, J: 2, K: 1}, // 4 against 1: disagrees
		{I: 1, J: 0, K: 3}, // 1 against 5: agrees
	}
	for _, c := range []struct {
		name string
		a    *mat.SymDense
		want float64
	}{
		{"Euclidean", mat.NewSymDense(2, []float64{1, 0, 0, 1}), 2.0 / 3},
		// Second feature only: 0 against 4, 4 against 0, 0 against 1.
		{"second feature", mat.NewSymDense(2, []float64{0, 0, 0, 1}), 2.0 / 3},
		// First feature only: 1 against 0, 0 against 1, 1 against 4.
		{"first feature", mat.NewSymDense(2, []float64{1, 0, 0, 0}), 2.0 / 3},
		{"A = 0", mat.NewSymDense(2, nil), 0.5},
	} {
		if got := TripletAgreement(c.a, x, ts); math.Abs(got-c.want) > 1e-15 {
			t.Errorf("%s: %v, want %v", c.name, got, c.want)
		}
	}
	// A tie counts half: x_J and x_K mirror each other about x_I.
	tie := mat.NewDense(3, 2, []float64{0, 0, 1, 0, -1, 0})
	if got := TripletAgreement(mat.NewSymDense(2, []float64{1, 0, 0, 1}), tie, []Triplet{{I: 0, J: 1, K: 2}}); got != 0.5 {
		t.Errorf("a tie: %v, want 0.5", got)
	}
}
