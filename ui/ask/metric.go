package ask

import (
	"math"
	"slices"
	"strconv"
	"strings"

	"gonum.org/v1/gonum/mat"

	"github.com/rml-lab/rml/core"
)

// Standardized is the items' features as the worker learns on them: each
// column to zero mean and unit variance over every item (the Ask-me mode
// holds no row out), by core's own standardizer.
func (it *Items) Standardized() *mat.Dense {
	x := mat.NewDense(it.Len(), len(it.Features), nil)
	for i, row := range it.X {
		x.SetRow(i, row)
	}
	return core.FitStandardizer(x, nil).Transform(x)
}

// Mahalanobis is the squared distance (zᵢ − zⱼ)ᵀ A (zᵢ − zⱼ) between rows of
// z, A d×d row-major; nil A is the Euclidean distance.
func Mahalanobis(z *mat.Dense, a []float64) Dist {
	_, d := z.Dims()
	diff := make([]float64, d)
	return func(i, j int) float64 {
		for k := range diff {
			diff[k] = z.At(i, k) - z.At(j, k)
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
