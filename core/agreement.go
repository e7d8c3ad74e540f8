package core

import "gonum.org/v1/gonum/mat"

// TripletAgreement returns the share of the triplets ts over the rows of x
// that the metric a orders as they say, d_A(x_I, x_J) < d_A(x_I, x_K), a
// tie counting half: 1 is perfect agreement, ½ is what A = 0 (every
// distance 0) or a coin gives. Held-out triplets measure a metric without
// labels, as the answers a person gives would.
func TripletAgreement(a mat.Symmetric, x *mat.Dense, ts []Triplet) float64 {
	if len(ts) == 0 {
		return 0
	}
	_, d := x.Dims()
	diff := make([]float64, d)
	dist := func(i, j int) float64 {
		for k := range diff {
			diff[k] = x.At(i, k) - x.At(j, k)
		}
		var s float64
		for r := 0; r < d; r++ {
			var row float64
			for c := 0; c < d; c++ {
				row += a.At(r, c) * diff[c]
			}
			s += diff[r] * row
		}
		return s
	}
	var agree float64
	for _, t := range ts {
		switch ds, dd := dist(t.I, t.J), dist(t.I, t.K); {
		case ds < dd:
			agree++
		case ds == dd:
			agree += 0.5
		}
	}
	return agree / float64(len(ts))
}
