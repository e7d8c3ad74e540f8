package session

import (
	"math"

	"github.com/rml-lab/rml/core"
	"github.com/rml-lab/rml/wasm/protocol"
)

// starts keeps the best case's η = 1 start for the triplets prepared last
// (core.Result.BestStart), so that runs at other η on them, such as an η
// sweep's, take it instead of solving it again. Another worker's start
// (protocol.Start) is known to be of the same data and triplets by their
// fingerprint.
type starts struct {
	prep  *core.Prepared  // the triplets the fields below belong to
	fp    uint64          // prep's fingerprint, once computed
	hasFP bool            // whether fp is computed
	start *core.BestStart // the last start solved on prep or handed to it
}

// on makes k belong to pp, dropping what it kept for other triplets.
func (k *starts) on(pp *core.Prepared) {
	if k.prep != pp {
		*k = starts{prep: pp}
	}
}

// fingerprint returns k.prep's fingerprint, computing it once.
func (k *starts) fingerprint() uint64 {
	if !k.hasFP {
		k.fp, k.hasFP = fingerprint(k.prep), true
	}
	return k.fp
}

// offer keeps st, a start another worker solved, if it was solved on
// k.prep's data and triplets and its values are a start's; else the run
// solves its own.
func (k *starts) offer(st protocol.Start) {
	if st.Empty() || st.Data != k.fingerprint() {
		return
	}
	bs := &core.BestStart{Lambda: st.Lambda, Tol: st.Tol, MaxIter: st.MaxIter, A: st.A, Q: st.Q}
	_, d := k.prep.X.Dims()
	if bs.Check(d, len(k.prep.Triplets)) == nil {
		k.start = bs
	}
}

// keep keeps the start res began from and returns it for the wire if the
// run solved it rather than took the one kept.
func (k *starts) keep(res *core.Result) protocol.Start {
	st := res.BestStart
	if st == nil || st == k.start {
		return protocol.Start{}
	}
	k.start = st
	return protocol.Start{Lambda: st.Lambda, Tol: st.Tol, MaxIter: st.MaxIter, Data: k.fingerprint(), A: st.A, Q: st.Q}
}

// fingerprint returns a 64-bit FNV-1a hash of pp's data and triplets (X's
// size and every value's bits, then every triplet's indices): two
// preparations of the same data and triplets, in two workers, have the same
// one. (hash/fnv would need every word turned into bytes first; this is
// the same function on the words directly.)
func fingerprint(pp *core.Prepared) uint64 {
	const prime = 1099511628211
	h := uint64(14695981039346656037)
	word := func(v uint64) {
		for range 8 {
			h ^= v & 0xff
			h *= prime
			v >>= 8
		}
	}
	n, d := pp.X.Dims()
	word(uint64(n))
	word(uint64(d))
	for i := range n {
		for j := range d {
			word(math.Float64bits(pp.X.At(i, j)))
		}
	}
	word(uint64(len(pp.Triplets)))
	for _, t := range pp.Triplets {
		word(uint64(t.I))
		word(uint64(t.J))
		word(uint64(t.K))
	}
	return h
}
