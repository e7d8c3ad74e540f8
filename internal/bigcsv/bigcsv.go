// Package bigcsv writes the seeded CSV that stands for a user's large
// upload: the browser tests upload it and core's benchmarks solve the
// problem the page builds from it, so that the two measure the same data.
package bigcsv

import (
	"fmt"
	"math/rand/v2"
	"strconv"
	"strings"
)

// CSV is n rows of d features and a label of k classes: the class moves
// the first signal features' means, the rest is noise (seeded, the same
// text on every call). The e2e visit uploads CSV(5000, 50, 5, 10).
func CSV(n, d, k, signal int) string {
	r := rand.New(rand.NewPCG(1, 2))
	var b strings.Builder
	for j := range d {
		fmt.Fprintf(&b, "f%d,", j)
	}
	b.WriteString("class\n")
	for i := range n {
		c := i % k
		for j := range d {
			v := r.NormFloat64()
			if j < signal {
				v += 1.5 * float64((c+j)%k) / float64(k-1)
			}
			b.WriteString(strconv.FormatFloat(v, 'f', 4, 64) + ",")
		}
		fmt.Fprintf(&b, "c%d\n", c)
	}
	return b.String()
}
