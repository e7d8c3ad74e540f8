package ask

import (
	"math"
	"slices"
	"strconv"
)

// Rows of a loaded dataset as items: each drawn as a star of its
// standardized features, its label hidden from the question (it only
// colours the views' points, as for any dataset).

// DataMaxRows and DataMaxFeatures bound the mode on a dataset: a star of
// more features cannot be read at a glance, and more rows than this are
// more than anyone answers about (the page receives them all).
const (
	DataMaxRows     = 2000
	DataMaxFeatures = 16
)

// FromRows makes items of the rows z (n × len(features), row-major,
// standardized) of a dataset, set naming it ("data-" and a prefix of its
// SHA-256: answers about one dataset are not another's), seed the page's.
// The simulated respondent judges by the features that tell the hidden
// classes apart: a weighted distance, each feature weighed by its Fisher
// ratio (the variance of the class means over the mean variance within
// a class), the weights summing to the number of features.
func FromRows(set string, seed uint64, features []string, z []float64, labels []float64, classes []string) *Items {
	d := len(features)
	if d == 0 || len(z)%d != 0 || len(labels) != len(z)/d {
		panic("ask: rows and labels do not match the features")
	}
	n := len(z) / d
	it := &Items{Set: set, Seed: seed, Features: features, Families: classes, Star: true,
		RefName: "the features that tell the hidden classes apart, each weighed by its Fisher ratio"}
	for i := range n {
		row := z[i*d : (i+1)*d]
		it.X = append(it.X, row)
		it.Family = append(it.Family, int(labels[i]))
		it.Names = append(it.Names, "row "+strconv.Itoa(i)+": "+largest(features, row))
	}
	it.Weights = fisher(it.X, it.Family, len(classes))
	it.ref = it.weighted(it.Weights)
	return it
}

// fisher is each feature's Fisher ratio, scaled to sum to the number of
// features (all 1 where no feature tells the classes apart).
func fisher(x [][]float64, y []int, classes int) []float64 {
	d := len(x[0])
	w := make([]float64, d)
	var sum float64
	for k := range d {
		n := make([]float64, classes)
		mean := make([]float64, classes)
		sq := make([]float64, classes)
		var all float64
		for i, row := range x {
			n[y[i]]++
			mean[y[i]] += row[k]
			all += row[k]
		}
		all /= float64(len(x))
		for c := range mean {
			if n[c] > 0 {
				mean[c] /= n[c]
			}
		}
		for i, row := range x {
			v := row[k] - mean[y[i]]
			sq[y[i]] += v * v
		}
		var between, within float64
		for c := range mean {
			between += n[c] * (mean[c] - all) * (mean[c] - all)
			within += sq[c]
		}
		if within > 0 {
			w[k] = between / within
		}
		sum += w[k]
	}
	for k := range w {
		if sum > 0 {
			w[k] *= float64(d) / sum
		} else {
			w[k] = 1
		}
	}
	return w
}

// largest says a row's three largest standardized values by size, with
// their signs: "petal length +1.3, sepal width −0.9, petal width +0.8".
func largest(features []string, row []float64) string {
	order := make([]int, len(row))
	for i := range order {
		order[i] = i
	}
	slices.SortStableFunc(order, func(a, b int) int { return -cmpFloat(math.Abs(row[a]), math.Abs(row[b])) })
	s := ""
	for k, i := range order[:min(3, len(order))] {
		if k > 0 {
			s += ", "
		}
		sign := "+"
		if row[i] < 0 {
			sign = "−"
		}
		s += features[i] + " " + sign + strconv.FormatFloat(math.Abs(row[i]), 'f', 1, 64)
	}
	return s
}

// StarPoints are a row's star in a box of side 2r centred at (r, r): one
// spoke a feature, clockwise from the top, its length the standardized
// value from −2.5 (short) to +2.5 (full), as an SVG polygon's points.
func (it *Items) StarPoints(i int, r float64) string {
	row := it.X[i]
	var s []byte
	for k, v := range row {
		f := 0.12 + 0.88*math.Min(1, math.Max(0, (v+2.5)/5))
		a := (-90 + 360*float64(k)/float64(len(row))) * math.Pi / 180
		if k > 0 {
			s = append(s, ' ')
		}
		s = strconv.AppendFloat(s, r+0.95*r*f*math.Cos(a), 'f', 1, 64)
		s = append(s, ',')
		s = strconv.AppendFloat(s, r+0.95*r*f*math.Sin(a), 'f', 1, 64)
	}
	return string(s)
}
