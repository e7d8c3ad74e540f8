package core

import (
	"runtime"
	"sync"
)

// The three passes over the rows that take most of an iteration on large
// problems, X_t Wᵀ for the margins (rowDots), and L_w X_t (addPairs) and
// X_tᵀ (L_w X_t) (addOuterUpper) for M, split their output between
// goroutines natively: each goroutine fills its own rows (or columns) of
// the result, and every entry sums the same terms in the same order as the
// serial loop, so a run gives the same bits with one core or many
// (TestParallelKernelsExact). On js/wasm there is one thread, and the page's
// workers run in parallel with each other instead.

// parallelMinWork is the least work, in multiply-adds, that a product splits
// between goroutines: at about half a millisecond of arithmetic the cost of
// starting and waiting for them (microseconds) is lost in it.
const parallelMinWork = 1 << 20

// parallelParts is how many goroutines a product of the given work uses: 1
// below parallelMinWork or where the host has one thread, else the
// processors Go may use, at most 8.
func parallelParts(work float64) int {
	if runtime.GOARCH == "wasm" || work < parallelMinWork {
		return 1
	}
	return min(runtime.GOMAXPROCS(0), 8)
}

// runParts calls f(cuts[i], cuts[i+1]) for every part, the last in the
// calling goroutine and the others each in one of their own, and returns
// when all have.
func runParts(cuts []int, f func(lo, hi int)) {
	var wg sync.WaitGroup
	last := len(cuts) - 2
	for i := 0; i < last; i++ {
		wg.Add(1)
		go func() {
			defer wg.Done()
			f(cuts[i], cuts[i+1])
		}()
	}
	f(cuts[last], cuts[last+1])
	wg.Wait()
}

// evenCuts splits [0, n) into parts of nearly equal length.
func evenCuts(n, parts int) []int {
	cuts := make([]int, parts+1)
	for i := range cuts {
		cuts[i] = i * n / parts
	}
	return cuts
}

// triangleCuts splits the rows [0, d) of a d×d upper triangle into parts
// with nearly equal numbers of entries (row i has d − i), every cut but the
// last at an even row, as addOuterUpperRange needs.
func triangleCuts(d, parts int) []int {
	cuts := make([]int, 1, parts+1)
	total := float64(d) * float64(d+1) / 2
	var done float64
	i := 0
	for p := 1; p < parts; p++ {
		for i < d && done < total*float64(p)/float64(parts) {
			done += float64(d - i)
			i++
		}
		c := min(i+i%2, d)
		if c > cuts[len(cuts)-1] && c < d {
			cuts = append(cuts, c)
		}
	}
	return append(cuts, d)
}
