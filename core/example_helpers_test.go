package core_test

import (
	"io"
	"strings"

	"gonum.org/v1/gonum/mat"
)

func stringsReader(s string) io.Reader { return strings.NewReader(s) }

func mustDense() *mat.Dense { return mat.NewDense(3, 2, []float64{0, 0, 1, 0.5, 3, -1}) }
