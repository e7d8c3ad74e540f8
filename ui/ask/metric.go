package ask

import (
	"math"
	"slices"
	"strconv"
	"strings"
)

// Standardized is the items' features as the worker learns on them: each
// column to zero mean and unit (population) variance over every item (the
// Ask-me mode holds no row out), as core.FitStandardizer makes them, to
// rounding. It is written here because the page links neither core nor
// gonum (the root's TestPageLinks): it reaches the solver only through the
// worker. A constant column maps to zeros, as core's does.
func (it *Items) Standardized() [][]float64 {
	n, d := it.Len(), len(it.Features)
	z := make([][]float64, n)
	for i := range z {
		z[i] = make([]float64, d)
	}
	for j := range d {
		var mean, ss float64
		for _, row := range it.X {
			mean += row[j]
		}
		mean /= float64(n)
		for _, row := range it.X {
			ss += (row[j] - mean) * (row[j] - mean)
		}
		sd := math.Sqrt(ss / float64(n))
		for i, row := range it.X {
			if sd > 1e-12*math.Max(math.Abs(mean), 1e-300) {
				z[i][j] = (row[j] - mean) / sd
			}
		}
	}
	return z
}

// Mahalanobis is the squared distance (zᵢ − zⱼ)ᵀ A (zᵢ − zⱼ) between rows of
// z, A d×d row-major; nil A is the Euclidean distance.
func Mahalanobis(z [][]float64, a []float64) Dist {
	d := 0
	if len(z) > 0 {
		d = len(z[0])
	}
	diff := make([]float64, d)
	return func(i, j int) float64 {
		for k := range diff {
			diff[k] = z[i][k] - z[j][k]
		}
		var s float64
		for r := range d {
			if a == nil {
				s += diff[r] * diff[r]
				continue
			}
			for c := range d {
				s += diff[r] * a[r*d+c] * diff[c]
			}
		}
		return s
	}
}

// Weighs says in words which features A weighs, by its diagonal's shares
// of the trace: "by lightness (46 %) and red (21 %), hardly by blue (2 %)".
// "" for A = 0.
func Weighs(features []string, a []float64) string {
	d := len(features)
	if len(a) != d*d {
		panic("ask: A's size is not the features' count squared")
	}
	var tr float64
	for i := range d {
		tr += max(0, a[i*d+i])
	}
	if !(tr > 0) || math.IsInf(tr, 0) {
		return ""
	}
	order := make([]int, d)
	for i := range order {
		order[i] = i
	}
	share := func(i int) float64 { return max(0, a[i*d+i]) / tr }
	slices.SortStableFunc(order, func(x, y int) int { return -cmpFloat(share(x), share(y)) })
	say := func(i int) string { return features[i] + " (" + strconv.Itoa(int(math.Round(100*share(i)))) + " %)" }
	words := []string{"by " + say(order[0])}
	if d > 1 && share(order[1]) >= 0.15 {
		words[0] += " and " + say(order[1])
	}
	if last := order[d-1]; d > 2 && share(last) < 0.5/float64(d) {
		words = append(words, "hardly by "+say(last))
	}
	return strings.Join(words, ", ")
}

func cmpFloat(a, b float64) int {
	switch {
	case a < b:
		return -1
	case a > b:
		return 1
	}
	return 0
}

// Direction says in words A's strongest direction, its top eigenvector: the
// share of A's trace it carries and its largest components ("62 % of the
// trace: lightness +0.71, blue −0.52"), the largest made positive. With
// features that move together (a colour's sRGB and its lightness), the
// diagonal (Weighs) spreads a weight over them; the direction shows what
// it is. "" for A = 0.
func Direction(features []string, a []float64) string {
	d := len(features)
	vals, vecs := eigenSym(a, d)
	var tr float64
	for _, v := range vals {
		tr += max(0, v)
	}
	if d == 0 || !(vals[0] > 0) || !(tr > 0) {
		return ""
	}
	v := vecs[0]
	order := make([]int, d)
	for i := range order {
		order[i] = i
	}
	slices.SortStableFunc(order, func(x, y int) int { return -cmpFloat(math.Abs(v[x]), math.Abs(v[y])) })
	sign := math.Copysign(1, v[order[0]])
	var parts []string
	for _, i := range order {
		if math.Abs(v[i]) < 0.3 && len(parts) > 0 {
			break
		}
		c := sign * v[i]
		s := "+"
		if c < 0 {
			s = "−"
		}
		parts = append(parts, features[i]+" "+s+strconv.FormatFloat(math.Abs(c), 'f', 2, 64))
	}
	return strconv.Itoa(int(math.Round(100*vals[0]/tr))) + " % of the trace: " + strings.Join(parts, ", ")
}
