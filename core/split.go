package core

import (
	"maps"
	"math"
	"math/rand/v2"
	"slices"

	"gonum.org/v1/gonum/mat"
)

// StratifiedSplit splits row indices into a training and a test part, class
// by class, putting round(testFrac·count) rows of each class in the test
// part (at least one when the class has two or more rows and testFrac > 0).
// Both parts are sorted. The same seed gives the same split.
func StratifiedSplit(labels []int, testFrac float64, seed uint64) (train, test []int) {
	if testFrac < 0 || testFrac >= 1 {
		panic("core: test fraction outside [0, 1)")
	}
	rng := rand.New(rand.NewPCG(seed, 0x5eed5))
	for _, idx := range shuffledByClass(labels, nil, rng) {
		k := int(math.Round(testFrac * float64(len(idx))))
		if k == 0 && testFrac > 0 && len(idx) >= 2 {
			k = 1
		}
		if k >= len(idx) {
			k = len(idx) - 1
		}
		test = append(test, idx[:k]...)
		train = append(train, idx[k:]...)
	}
	slices.Sort(train)
	slices.Sort(test)
	return train, test
}

// shuffledByClass groups rows (nil: all) by label, classes in ascending
// order, rows within a class in the given order, and shuffles each group
// with rng: the stratification StratifiedSplit and the CV folds share.
func shuffledByClass(labels, rows []int, rng *rand.Rand) [][]int {
	byClass := map[int][]int{}
	add := func(i int) { byClass[labels[i]] = append(byClass[labels[i]], i) }
	if rows == nil {
		for i := range labels {
			add(i)
		}
	} else {
		for _, i := range rows {
			add(i)
		}
	}
	var groups [][]int
	for _, c := range slices.Sorted(maps.Keys(byClass)) {
		idx := byClass[c]
		rng.Shuffle(len(idx), func(i, j int) { idx[i], idx[j] = idx[j], idx[i] })
		groups = append(groups, idx)
	}
	return groups
}

// SelectLabels returns the labels of the given rows, in that order.
func SelectLabels(labels, rows []int) []int {
	out := make([]int, len(rows))
	for k, i := range rows {
		out[k] = labels[i]
	}
	return out
}

// SelectRows returns the given rows of x as a new matrix.
func SelectRows(x mat.Matrix, rows []int) *mat.Dense {
	if len(rows) == 0 {
		return &mat.Dense{}
	}
	_, d := x.Dims()
	out := mat.NewDense(len(rows), d, nil)
	for k, i := range rows {
		for j := 0; j < d; j++ {
			out.Set(k, j, x.At(i, j))
		}
	}
	return out
}
