// Package draw turns numbers into what the page draws: number text, SVG
// path data for the convergence curve and the point clouds, axis ticks and
// colours. It has no DOM code, so it is tested natively.
package draw

import (
	"math"
	"slices"
	"strconv"
)

// Num formats v for people: 4 significant digits, plain or in e-notation
// when very small or large; "—" for NaN or ±Inf, so no NaN reaches the screen.
func Num(v float64) string {
	switch {
	case math.IsNaN(v) || math.IsInf(v, 0):
		return "—"
	case v == 0:
		return "0"
	case math.Abs(v) < 1e-3 || math.Abs(v) >= 1e6:
		return strconv.FormatFloat(v, 'e', 2, 64)
	}
	return strconv.FormatFloat(v, 'g', 4, 64)
}

// Percent formats a share as a percentage with one decimal.
func Percent(v float64) string {
	if math.IsNaN(v) || math.IsInf(v, 0) {
		return "—"
	}
	return strconv.FormatFloat(100*v, 'f', 1, 64) + "%"
}

// Box is a drawing area in pixels.
type Box struct{ X, Y, W, H float64 }

// LogRange returns the decades [lo, hi] (powers of ten) that hold the
// positive finite values of v, at least one decade apart; ok is false when
// there is none.
func LogRange(v []float64) (lo, hi float64, ok bool) {
	lo, hi = math.Inf(1), math.Inf(-1)
	for _, g := range v {
		if g > 0 && !math.IsInf(g, 0) {
			l := math.Log10(g)
			lo, hi = math.Min(lo, l), math.Max(hi, l)
		}
	}
	if lo > hi {
		return 0, 0, false
	}
	lo, hi = math.Floor(lo), math.Ceil(hi)
	if hi-lo < 1 {
		hi = lo + 1
	}
	return lo, hi, true
}

// Curve is a convergence curve laid out in a box: x linear in iteration
// from 0 to XMax, y linear in log10 Δ from YLo to YHi (decades).
type Curve struct {
	Box      Box
	XMax     float64
	YLo, YHi float64
}

// NewCurve lays out the trace (iterations, gaps) in b: x up to the largest
// iteration, so that several traces laid end to end (the Compare panel's
// overlay) all fit, not only the last.
func NewCurve(b Box, iters, gaps []float64) (Curve, bool) {
	lo, hi, ok := LogRange(gaps)
	if !ok || len(iters) == 0 {
		return Curve{}, false
	}
	return Curve{Box: b, XMax: math.Max(slices.Max(iters), 1), YLo: lo, YHi: hi}, true
}

// X is the pixel column of iteration t.
func (c Curve) X(t float64) float64 { return c.Box.X + c.Box.W*t/c.XMax }

// Y is the pixel row of gap g (clamped to the box for g ≤ 0).
func (c Curve) Y(g float64) float64 {
	l := c.YLo
	if g > 0 {
		l = math.Max(math.Log10(g), c.YLo)
	}
	return c.Box.Y + c.Box.H*(c.YHi-l)/(c.YHi-c.YLo)
}

// Path returns SVG path data for the curve through every point, merged per
// pixel column: each column keeps its first, lowest, highest and last point,
// so the drawn shape is exact to a pixel while long runs (10^5 iterations)
// stay a few thousand path commands.
func (c Curve) Path(iters, gaps []float64) string {
	return string(c.AppendPath(make([]byte, 0, 64*int(c.Box.W)), iters, gaps))
}

// AppendPath appends Path's data to dst[:0] and returns it: a caller that
// draws often keeps dst (the chart, four times a second while a run goes:
// Path's own buffer was about a third of the 100 KB each redraw allocated,
// and every byte allocated brings Go's collector nearer).
func (c Curve) AppendPath(dst []byte, iters, gaps []float64) []byte {
	b := dst[:0]
	col := math.Inf(-1)
	var first, low, high, last [2]float64
	n := 0
	flush := func() {
		if n == 0 {
			return
		}
		pts := [][2]float64{first, low, high, last}
		if low[0] > high[0] {
			pts[1], pts[2] = high, low
		}
		for _, p := range pts {
			if len(b) == 0 {
				b = append(b, 'M')
			} else {
				b = append(b, 'L')
			}
			b = AppendTenths(b, p[0])
			b = append(b, ' ')
			b = AppendTenths(b, p[1])
		}
		n = 0
	}
	for i, t := range iters {
		x, y := c.X(t), c.Y(gaps[i])
		if k := math.Floor(x); k != col {
			flush()
			col = k
			first, low, high = [2]float64{x, y}, [2]float64{x, y}, [2]float64{x, y}
		}
		if y > low[1] {
			low = [2]float64{x, y}
		}
		if y < high[1] {
			high = [2]float64{x, y}
		}
		last = [2]float64{x, y}
		n++
	}
	flush()
	return b
}

// Nearest returns the index of the trace point whose iteration is nearest
// to pixel column x (iters ascending), or -1 for an empty trace.
func (c Curve) Nearest(iters []float64, x float64) int {
	if len(iters) == 0 {
		return -1
	}
	t := (x - c.Box.X) / c.Box.W * c.XMax
	lo, hi := 0, len(iters)-1
	for lo < hi {
		mid := (lo + hi) / 2
		if iters[mid] < t {
			lo = mid + 1
		} else {
			hi = mid
		}
	}
	if lo > 0 && t-iters[lo-1] < iters[lo]-t {
		lo--
	}
	return lo
}

// Ticks returns "nice" tick values covering [lo, hi], about n of them.
func Ticks(lo, hi float64, n int) []float64 {
	if !(hi > lo) || n < 1 {
		return []float64{lo}
	}
	step := math.Pow(10, math.Floor(math.Log10((hi-lo)/float64(n))))
	for _, m := range []float64{1, 2, 5, 10} {
		if (hi-lo)/(step*m) <= float64(n) {
			step *= m
			break
		}
	}
	var out []float64
	for v := math.Ceil(lo/step) * step; v <= hi+1e-9*step; v += step {
		out = append(out, math.Round(v/step)*step)
	}
	return out
}

// Scatter maps 2-D points (row-major n×2) into a box with equal scales on
// both axes, so that distances in the picture are the metric's.
type Scatter struct {
	Box          Box
	CX, CY, Unit float64 // data centre and pixels per data unit
}

// NewScatter fits the points xy into b with a margin of pad pixels.
func NewScatter(b Box, xy []float64, pad float64) Scatter {
	minX, maxX, minY, maxY := math.Inf(1), math.Inf(-1), math.Inf(1), math.Inf(-1)
	for i := 0; i+1 < len(xy); i += 2 {
		minX, maxX = math.Min(minX, xy[i]), math.Max(maxX, xy[i])
		minY, maxY = math.Min(minY, xy[i+1]), math.Max(maxY, xy[i+1])
	}
	s := Scatter{Box: b, Unit: 1}
	if len(xy) < 2 || math.IsInf(minX, 0) || math.IsInf(maxX, 0) || math.IsInf(minY, 0) || math.IsInf(maxY, 0) {
		return s
	}
	// Halves first: max − min overflows to +Inf for points near ±1.8e308,
	// and the picture must still fit the box.
	s.CX, s.CY = minX/2+maxX/2, minY/2+maxY/2
	span := 2 * math.Max((maxX/2-minX/2)/(b.W-2*pad), (maxY/2-minY/2)/(b.H-2*pad))
	if span > 0 && !math.IsInf(span, 0) {
		s.Unit = 1 / span
	}
	return s
}

// At returns the pixel position of data point (x, y); y grows upwards.
// The differences are scaled by halves, as the span was (NewScatter).
func (s Scatter) At(x, y float64) (px, py float64) {
	return s.Box.X + s.Box.W/2 + 2*(x/2-s.CX/2)*s.Unit, s.Box.Y + s.Box.H/2 - 2*(y/2-s.CY/2)*s.Unit
}

// Marker shapes.
const (
	Circle   = iota // training rows
	Square          // test rows
	Triangle        // an outline pointing up
	Diamond         // a square on its corner
	Plus            // two strokes
)

// Markers returns SVG path data drawing a marker at each listed point: one
// path for many points, since DOM calls from Go are slow. A Square is the
// outline of a square of half-side r. A Circle is a segment of length 0 at
// the point, which the path's stroke draws as a disc of diameter its width
// when its stroke-linecap is round (DotWidth(r) for radius r); r plays no
// part in its data: two arcs each made four times the path data, which the
// browser then had to set and lay out (BenchmarkMarkers measures the
// writing).
func (s Scatter) Markers(xy []float64, rows []int, shape int, r float64) string {
	ds := AppendTenths(nil, 2*r)
	b := make([]byte, 0, len(rows)*(16+3*len(ds)))
	for _, i := range rows {
		x, y := s.At(xy[2*i], xy[2*i+1])
		b = append(b, 'M')
		switch shape {
		case Square:
			// M x−r y−r h 2r v 2r h −2r z
			b = AppendTenths(b, x-r)
			b = append(b, ' ')
			b = AppendTenths(b, y-r)
			b = append(append(b, 'h'), ds...)
			b = append(append(b, 'v'), ds...)
			b = append(append(b, "h-"...), ds...)
			b = append(b, 'z')
		case Triangle, Diamond, Plus:
			b = appendShape(b, shape, x, y, r)
		default:
			// M x y h 0
			b = AppendTenths(b, x)
			b = append(b, ' ')
			b = AppendTenths(b, y)
			b = append(b, "h0"...)
		}
	}
	return string(b)
}

// appendShape appends, after an 'M' already written, the outline of a
// triangle (apex up), a diamond or a plus of half-size r centred at (x, y).
func appendShape(b []byte, shape int, x, y, r float64) []byte {
	var pts [][2]float64
	switch shape {
	case Triangle:
		pts = [][2]float64{{x, y - r}, {x + r, y + 0.8*r}, {x - r, y + 0.8*r}}
	case Diamond:
		pts = [][2]float64{{x, y - r}, {x + r, y}, {x, y + r}, {x - r, y}}
	case Plus:
		// M x−r y h 2r M x y−r v 2r
		b = AppendTenths(b, x-r)
		b = append(b, ' ')
		b = AppendTenths(b, y)
		b = append(append(b, 'h'), AppendTenths(nil, 2*r)...)
		b = append(b, 'M')
		b = AppendTenths(b, x)
		b = append(b, ' ')
		b = AppendTenths(b, y-r)
		return append(append(b, 'v'), AppendTenths(nil, 2*r)...)
	}
	for k, p := range pts {
		if k > 0 {
			b = append(b, 'L')
		}
		b = AppendTenths(b, p[0])
		b = append(b, ' ')
		b = AppendTenths(b, p[1])
	}
	return append(b, 'z')
}

// DotWidth is the stroke width, as CSS, that draws Markers' circles with
// radius r: the diameter.
func DotWidth(r float64) string { return string(AppendTenths(nil, 2*r)) }

// AppendTenths appends v with one decimal to dst, as
// strconv.AppendFloat(dst, v, 'f', 1, 64) does, except where v·10 is within
// rounding of a tie (x.x5), which this rounds away from zero, and for −0,
// written 0.0. It is the coordinate format of the SVG paths: the generic
// formatter was most of the Go time of a 5,000-point scatter's markers.
func AppendTenths(dst []byte, v float64) []byte {
	n := math.Round(v * 10)
	if !(math.Abs(n) < 1e15) { // also NaN and ±Inf
		return strconv.AppendFloat(dst, v, 'f', 1, 64)
	}
	i := int64(n)
	if v < 0 {
		dst = append(dst, '-')
		i = -i
	}
	dst = strconv.AppendInt(dst, i/10, 10)
	return append(dst, '.', byte('0'+i%10))
}

// Nearest returns the row whose point is nearest to pixel (px, py) and its
// distance in pixels; -1 if there are no points.
func (s Scatter) Nearest(xy []float64, px, py float64) (int, float64) {
	best, bd := -1, math.Inf(1)
	for i := 0; i+1 < len(xy); i += 2 {
		x, y := s.At(xy[i], xy[i+1])
		if d := math.Hypot(x-px, y-py); d < bd {
			best, bd = i/2, d
		}
	}
	return best, bd
}

// Palette is Okabe and Ito's colour-blind-safe palette (black last).
var Palette = []string{"#E69F00", "#56B4E9", "#009E73", "#F0E442", "#0072B2", "#D55E00", "#CC79A7", "#000000"}

// ClassColour is the colour of class c; classes past the palette reuse it.
func ClassColour(c int) string { return Palette[c%len(Palette)] }

// Diverging maps v in [-1, 1] to a blue–white–red colour (ColorBrewer's
// RdBu ends, readable with the common colour-vision deficiencies) as RGB.
func Diverging(v float64) (r, g, b uint8) {
	if math.IsNaN(v) {
		return 200, 200, 200
	}
	v = math.Max(-1, math.Min(1, v))
	end := [3]float64{33, 102, 172} // blue for negative
	if v > 0 {
		end = [3]float64{178, 24, 43} // red for positive
	}
	t := math.Abs(v)
	mix := func(e float64) uint8 { return uint8(math.Round(255 + (e-255)*t)) }
	return mix(end[0]), mix(end[1]), mix(end[2])
}

// ClassPaths are one class's markers in a projection: SVG path data for its
// training rows (Circle) and for its held-out rows (Square).
type ClassPaths struct {
	Class       int
	Train, Test string
}

// ProjectionMarkers lays out a projection's rows (xy, n×2) in a box as
// the page draws them: one pair of paths a class (labels are class
// indices, test the held-out rows), training rows as discs of radius 3
// (their stroke width is DotWidth(3)), held-out rows as squares of
// half-side 3.5.
func ProjectionMarkers(b Box, xy, labels []float64, test []int, classes, n int) []ClassPaths {
	sc := NewScatter(b, xy, 10)
	held := make([]bool, n)
	for _, i := range test {
		held[i] = true
	}
	out := make([]ClassPaths, classes)
	for c := range out {
		var trainRows, testRows []int
		for i := 0; i < n; i++ {
			if int(labels[i]) != c {
				continue
			}
			if held[i] {
				testRows = append(testRows, i)
			} else {
				trainRows = append(trainRows, i)
			}
		}
		out[c] = ClassPaths{Class: c, Train: sc.Markers(xy, trainRows, Circle, 3), Test: sc.Markers(xy, testRows, Square, 3.5)}
	}
	return out
}
