package session

import (
	"fmt"
	"math"
	"math/rand/v2"

	"gonum.org/v1/gonum/mat"

	"github.com/rml-lab/rml/core"
)

// SyntheticName is the built-in teaching dataset's name.
const SyntheticName = "Synthetic: 2 signal + 18 noise"

// Synthetic returns the built-in teaching dataset: three classes that are
// well apart in two informative features (s1, s2; class means on a circle of
// radius 2, spread 0.6) and eighteen features of pure noise (n1…n18). After standardizing, every feature
// has unit variance, so Euclidean neighbours are decided mostly by noise and
// k-NN does poorly; a metric that weighs s1 and s2 does well. The same seed
// gives the same rows.
func Synthetic(seed uint64) *core.Dataset { return synth(seed, 18, 0.6) }

func synth(seed uint64, noise int, spread float64) *core.Dataset {
	const (
		perClass = 200 // 90 rows held out (15 %): a test error moves in steps of 1.1 points
		radius   = 2.0
	)
	rng := rand.New(rand.NewPCG(seed, 0x5eed))
	classes := []string{"a", "b", "c"}
	d := 2 + noise
	n := perClass * len(classes)
	x := mat.NewDense(n, d, nil)
	labels := make([]int, n)
	lines := make([]int, n)
	for i := range n {
		c := i % len(classes)
		angle := 2 * math.Pi * float64(c) / float64(len(classes))
		x.Set(i, 0, radius*math.Cos(angle)+spread*rng.NormFloat64())
		x.Set(i, 1, radius*math.Sin(angle)+spread*rng.NormFloat64())
		for j := 2; j < d; j++ {
			x.Set(i, j, 1.6*rng.NormFloat64())
		}
		labels[i] = c
		lines[i] = i + 2
	}
	features := []string{"s1", "s2"}
	for j := 1; j <= noise; j++ {
		features = append(features, fmt.Sprintf("n%d", j))
	}
	return &core.Dataset{Features: features, LabelName: "class", X: x, Labels: labels, Classes: classes, Lines: lines, Header: true, Delimiter: ','}
}
