package core

import (
	"context"
	"reflect"
	"testing"
)

// The protocol on Iris, two repetitions: one row per method; every λ from
// the grid where the method has one, none where it has not; RML_gd uses
// RML's λ (it solves the same problem); errors are shares of the 24
// held-out rows; and the report does not depend on the number of workers.
func TestCompareIris(t *testing.T) {
	_, ds := loadStd(t, "iris.csv")
	o := CompareOptions{Reps: 2, Seed: 5, Methods: []Method{Fast, Gradient, Xing, Euclid}}
	one := o
	one.Workers = 1
	a, err := Compare(context.Background(), []string{"iris"}, []*Dataset{ds}, one)
	if err != nil {
		t.Fatal(err)
	}
	two := o
	two.Workers = 2
	b, err := Compare(context.Background(), []string{"iris"}, []*Dataset{ds}, two)
	if err != nil {
		t.Fatal(err)
	}
	if len(a.Rows) != 4 {
		t.Fatalf("%d rows", len(a.Rows))
	}
	for i := range a.Rows {
		ra, rb := a.Rows[i], b.Rows[i]
		if !reflect.DeepEqual(ra.Errors, rb.Errors) || !reflect.DeepEqual(ra.Lambdas, rb.Lambdas) {
			t.Errorf("%v: one worker %v %v, two %v %v", ra.Method, ra.Errors, ra.Lambdas, rb.Errors, rb.Lambdas)
		}
		for r, e := range ra.Errors {
			if k := e * 24; k != float64(int(k)) {
				t.Errorf("%v, repetition %d: error %v is not a share of 24 rows", ra.Method, r, e)
			}
			l := ra.Lambdas[r]
			switch ra.Method {
			case Fast:
				if !inGrid(l) {
					t.Errorf("RML's λ %v is not from the grid", l)
				}
			case Gradient:
				if l != a.Rows[0].Lambdas[r] {
					t.Errorf("RML_gd's λ %v, RML's %v", l, a.Rows[0].Lambdas[r])
				}
			default:
				if l != 0 {
					t.Errorf("%v has a λ: %v", ra.Method, l)
				}
			}
		}
	}
}

func inGrid(l float64) bool {
	for _, g := range LambdaGrid {
		if g == l {
			return true
		}
	}
	return false
}
