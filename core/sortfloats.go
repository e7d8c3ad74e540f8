package core

import (
	"math"
	"runtime"
	"slices"
)

// sortFloats sorts v ascending, as slices.Sort does, using keys (grown if
// shorter than 2·len(v)) as scratch, and returns keys. A slice of
// radixMin values or more is sorted by a least-significant-digit radix
// sort on the bits of each value mapped to an unsigned key that orders
// as the value (negatives' bits complemented, positives' sign bit set),
// 11 bits a pass, a pass skipped where every key has the same digit: O(n)
// where slices.Sort is O(n log n). The upload's 38,250 margins sort 5.5×
// faster under wasm and 6× natively (BenchmarkSortFloats), and bestScale
// sorted them each time it ran (a tenth of the page's upload run in a
// V8 profile under Node, 2026-11-27).
//
// The values come out as slices.Sort leaves them, except that equal
// values may come in another order, which changes nothing (slices.Sort
// is not stable either) but for zeros: −0 comes before +0, where
// slices.Sort leaves them in any order. A slice with a NaN goes to
// slices.Sort, which puts NaNs first.
func sortFloats(v []float64, keys []uint64) []uint64 {
	n := len(v)
	if n < radixMin() {
		slices.Sort(v)
		return keys
	}
	if cap(keys) < 2*n {
		keys = make([]uint64, 2*n)
	}
	keys = keys[:2*n]
	k, tmp := keys[:n], keys[n:]
	for i, x := range v {
		if x != x {
			slices.Sort(v)
			return keys
		}
		b := math.Float64bits(x)
		if b>>63 == 1 {
			b = ^b
		} else {
			b |= 1 << 63
		}
		k[i] = b
	}
	const bits = 11
	var count [1 << bits]int
	for shift := uint(0); shift < 64; shift += bits {
		clear(count[:])
		for _, key := range k {
			count[(key>>shift)&(1<<bits-1)]++
		}
		if count[(k[0]>>shift)&(1<<bits-1)] == n {
			continue // one digit for all: the pass would move nothing
		}
		sum := 0
		for d, c := range count {
			count[d] = sum
			sum += c
		}
		for _, key := range k {
			d := (key >> shift) & (1<<bits - 1)
			tmp[count[d]] = key
			count[d]++
		}
		k, tmp = tmp, k
	}
	for i, b := range k {
		if b>>63 == 1 {
			b &^= 1 << 63
		} else {
			b = ^b
		}
		v[i] = math.Float64frombits(b)
	}
	return keys
}

// radixMin is the least length sortFloats sorts by radix, where it
// overtakes slices.Sort (BenchmarkSortFloats, 2026-11-27): under wasm at
// 300 values radix took 10.4 µs against 12.3, at 1,000 40 against 55;
// natively at 3,000 it still took 42.5 µs against 33–34, at 10,000 132–140
// against 660. Table 2's problems (at most about 2,700 triplets) keep
// slices.Sort natively.
func radixMin() int {
	if runtime.GOARCH == "wasm" {
		return 1000
	}
	return 6000
}
