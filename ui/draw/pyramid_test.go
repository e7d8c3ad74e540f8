package draw

import (
	"math"
	"strconv"
	"testing"
)

// The pyramid's point stream draws the same curve as the raw trace, to
// within a pixel: every point of the trace lies inside the vertical extent
// of the drawn points within one pixel column of it. It uses far fewer
// points, and the trace can grow in steps.
func TestPyramidDrawsLikeTheTrace(t *testing.T) {
	box := Box{60, 12, 488, 194}
	iters, gaps := trace(300000, 7)
	var p Pyramid
	for _, n := range []int{1, 100, 5000, 40000, 123457, 300000} {
		it, gp := iters[:n], gaps[:n]
		p.Update(it, gp)
		ti, gi := p.Points(it, gp, 4*int(box.W))
		c, _ := NewCurve(box, it, gp)
		if c2, _ := NewCurve(box, ti, gi); c2 != c {
			t.Errorf("n=%d: the stream lays out as %+v, the trace as %+v", n, c2, c)
		}
		if n >= 40000 && len(ti) > 4*4*int(box.W)+2*n/int(box.W) {
			t.Errorf("n=%d: %d points drawn", n, len(ti))
		}
		if ti[0] != it[0] || gi[0] != gp[0] || ti[len(ti)-1] != it[n-1] || gi[len(gi)-1] != gp[n-1] {
			t.Errorf("n=%d: the first or last point is not drawn", n)
		}
		lo, hi := map[int]float64{}, map[int]float64{}
		for i := range ti {
			col, y := int(math.Floor(c.X(ti[i]))), c.Y(gi[i])
			if v, ok := lo[col]; !ok || y < v {
				lo[col] = y
			}
			if v, ok := hi[col]; !ok || y > v {
				hi[col] = y
			}
		}
		for i := range it {
			col, y := int(math.Floor(c.X(it[i]))), c.Y(gp[i])
			l, h := math.Inf(1), math.Inf(-1)
			for _, cc := range []int{col - 1, col, col + 1} {
				if v, ok := lo[cc]; ok {
					l = math.Min(l, v)
					h = math.Max(h, hi[cc])
				}
			}
			if y < l-0.5 || y > h+0.5 {
				t.Fatalf("n=%d: point %d (t=%v) at y=%.2f outside the drawn extent [%.2f, %.2f] near column %d", n, i, it[i], y, l, h, col)
			}
		}
	}
	// A shorter trace is a new run.
	p.Update(iters[:10], gaps[:10])
	if ti, _ := p.Points(iters[:10], gaps[:10], 100); len(ti) != 10 {
		t.Errorf("after a reset: %d points", len(ti))
	}
}

func BenchmarkCurve(b *testing.B) {
	box := Box{60, 12, 488, 194}
	for _, n := range []int{10000, 100000, 1000000} {
		iters, gaps := trace(n, 1)
		b.Run("raw/"+strconv.Itoa(n), func(b *testing.B) {
			for b.Loop() {
				c, _ := NewCurve(box, iters, gaps)
				c.Path(iters, gaps)
			}
		})
		var p Pyramid
		p.Update(iters, gaps)
		b.Run("pyramid/"+strconv.Itoa(n), func(b *testing.B) {
			for b.Loop() {
				ti, gi := p.Points(iters, gaps, 4*int(box.W))
				c, _ := NewCurve(box, ti, gi) // the stream holds the extremes
				c.Path(ti, gi)
			}
		})
	}
}
