package draw

// Pyramid summarises a growing trace (t, Δ_t) for drawing in time
// independent of its length: level k holds blocks of base·2^k consecutive
// points, each kept as its first, last, lowest and highest point. Drawing
// picks the finest level with at most a few blocks per pixel column, so a
// run of 10^6 iterations costs as much to draw as one of 10^4.
type Pyramid struct {
	levels [][]block
	used   int       // points of the trace taken in
	open   block     // the base block being filled
	n      int       // points in open
	ti, gi []float64 // scratch for Points
}

// base is the size of a level-0 block: below about base·(a few per
// column) points the raw trace is drawn as it is.
const base = 32

type point struct{ t, g float64 }

type block struct{ first, last, lo, hi point }

func merge(a, b block) block {
	m := block{first: a.first, last: b.last, lo: a.lo, hi: a.hi}
	if b.lo.g < m.lo.g {
		m.lo = b.lo
	}
	if b.hi.g > m.hi.g {
		m.hi = b.hi
	}
	return m
}

// Update takes in the points of the trace not yet seen. A trace that got
// shorter (a new run) starts the pyramid afresh.
func (p *Pyramid) Update(iters, gaps []float64) {
	if len(iters) < p.used {
		*p = Pyramid{ti: p.ti[:0], gi: p.gi[:0]}
	}
	for i := p.used; i < len(iters); i++ {
		pt := point{iters[i], gaps[i]}
		if p.n == 0 {
			p.open = block{pt, pt, pt, pt}
		} else {
			p.open = merge(p.open, block{pt, pt, pt, pt})
		}
		p.n++
		if p.n == base {
			p.push(0, p.open)
			p.n = 0
		}
	}
	p.used = len(iters)
}

func (p *Pyramid) push(k int, b block) {
	if k == len(p.levels) {
		p.levels = append(p.levels, nil)
	}
	p.levels[k] = append(p.levels[k], b)
	if l := p.levels[k]; len(l)%2 == 0 {
		p.push(k+1, merge(l[len(l)-2], l[len(l)-1]))
	}
}

// Points returns a point stream for Curve.Path that draws the trace as the
// raw points would, to within a pixel, with at most about 4·maxBlocks +
// (the trace's length)/maxBlocks points: the blocks of the finest level
// with at most maxBlocks of them, then the raw points after them.
// iters and gaps are the trace that Update last took in.
func (p *Pyramid) Points(iters, gaps []float64, maxBlocks int) (ti, gi []float64) {
	k := 0
	for k < len(p.levels) && len(p.levels[k]) > maxBlocks {
		k++
	}
	// Blocks must be dense enough to stand for the points (at least
	// maxBlocks/2 of them: a finer level had more than maxBlocks); a short
	// trace is drawn as it is.
	if k == len(p.levels) || k == 0 && len(p.levels[0]) < maxBlocks/2 {
		return iters, gaps
	}
	ti, gi = p.ti[:0], p.gi[:0]
	add := func(q point) {
		ti = append(ti, q.t)
		gi = append(gi, q.g)
	}
	for _, b := range p.levels[k] {
		add(b.first)
		lo, hi := b.lo, b.hi
		if hi.t < lo.t {
			lo, hi = hi, lo // in time order
		}
		add(lo)
		add(hi)
		add(b.last)
	}
	covered := len(p.levels[k]) * base << k
	for i := covered; i < len(iters); i++ {
		add(point{iters[i], gaps[i]})
	}
	p.ti, p.gi = ti, gi
	return ti, gi
}
