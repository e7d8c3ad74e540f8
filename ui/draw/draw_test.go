package draw

import (
	"fmt"
	"math"
	"math/rand/v2"
	"slices"
	"strconv"
	"strings"
	"testing"

	"github.com/rml-lab/rml/spec"
)

func TestNum(t *testing.T) {
	for _, c := range []struct {
		v    float64
		want string
	}{
		{math.NaN(), "—"}, {math.Inf(1), "—"}, {math.Inf(-1), "—"}, {0, "0"},
		{1.5e-7, "1.50e-07"}, {0.12345, "0.1235"}, {42, "42"}, {-3.25, "-3.25"}, {2.5e6, "2.50e+06"},
	} {
		if got := Num(c.v); got != c.want {
			t.Errorf("Num(%v) = %q, want %q", c.v, got, c.want)
		}
	}
	if Percent(math.NaN()) != "—" || Percent(0.0476) != "4.8%" {
		t.Error(Percent(0.0476))
	}
}

func trace(n int, seed uint64) (iters, gaps []float64) {
	rng := rand.New(rand.NewPCG(seed, 1))
	g := 10.0
	for i := 1; i <= n; i++ {
		iters = append(iters, float64(i))
		g *= math.Exp(-0.01 * rng.Float64() * 3)
		gaps = append(gaps, g*(1+0.5*rng.Float64()))
	}
	return
}

func TestCurvePath(t *testing.T) {
	box := Box{40, 10, 500, 200}
	for _, n := range []int{1, 7, 500, 100000} {
		iters, gaps := trace(n, uint64(n))
		c, ok := NewCurve(box, iters, gaps)
		if !ok {
			t.Fatal("no curve")
		}
		d := c.Path(iters, gaps)
		// AppendPath into a used buffer writes the same data.
		if got := string(c.AppendPath([]byte("left over from an earlier draw"), iters, gaps)); got != d {
			t.Errorf("n=%d: AppendPath into a used buffer differs from Path", n)
		}
		cmds := strings.Count(d, "L") + strings.Count(d, "M")
		// At most four points per pixel column, and never more than the data.
		if cmds > 4*(int(box.W)+1) || (n <= 7 && cmds != 4*n) {
			t.Errorf("n=%d: %d path commands", n, cmds)
		}
		// Every drawn point lies in the box; the extremes of y are drawn.
		minY, maxY := math.Inf(1), math.Inf(-1)
		for _, seg := range strings.FieldsFunc(d, func(r rune) bool { return r == 'M' || r == 'L' }) {
			var x, y float64
			f := strings.Fields(seg)
			x, y = parse(t, f[0]), parse(t, f[1])
			if x < box.X-0.05 || x > box.X+box.W+0.05 || y < box.Y-0.05 || y > box.Y+box.H+0.05 {
				t.Fatalf("n=%d: point (%v,%v) outside %+v", n, x, y, box)
			}
			minY, maxY = math.Min(minY, y), math.Max(maxY, y)
		}
		lo, hi := math.Inf(1), math.Inf(-1)
		for _, g := range gaps {
			lo, hi = math.Min(lo, g), math.Max(hi, g)
		}
		if math.Abs(minY-c.Y(hi)) > 0.051 || math.Abs(maxY-c.Y(lo)) > 0.051 {
			t.Errorf("n=%d: y range [%v,%v], want [%v,%v]", n, minY, maxY, c.Y(hi), c.Y(lo))
		}
	}
}

func parse(t *testing.T, s string) float64 {
	var v float64
	_, err := fmt.Sscan(s, &v)
	if err != nil {
		t.Fatalf("%q: %v", s, err)
	}
	return v
}

// Traces laid end to end (the Compare panel's overlay: a long RML run,
// then a best case of a few outer steps) all fit the box: the scale runs to
// the largest iteration, not the last trace's last one.
func TestCurveOverlaySpansEveryTrace(t *testing.T) {
	box := Box{60, 10, 400, 160}
	long, longG := trace(900, 3)
	short, shortG := trace(4, 4)
	c, ok := NewCurve(box, append(slices.Clone(long), short...), append(slices.Clone(longG), shortG...))
	if !ok {
		t.Fatal("no curve")
	}
	if want := long[len(long)-1]; c.XMax != want {
		t.Errorf("XMax = %v, want the long trace's last iteration %v", c.XMax, want)
	}
	for _, tr := range [][2][]float64{{long, longG}, {short, shortG}} {
		for _, seg := range strings.FieldsFunc(c.Path(tr[0], tr[1]), func(r rune) bool { return r == 'M' || r == 'L' }) {
			var x, y float64
			if _, err := fmt.Sscan(seg, &x, &y); err != nil {
				t.Fatal(err)
			}
			if x < box.X-0.05 || x > box.X+box.W+0.05 {
				t.Fatalf("a point at x = %v, outside the box [%v, %v]", x, box.X, box.X+box.W)
			}
		}
	}
}

func TestCurveNearest(t *testing.T) {
	iters, gaps := trace(1000, 3)
	_ = gaps
	c, _ := NewCurve(Box{0, 0, 300, 100}, iters, gaps)
	for x := -5.0; x <= 305; x += 0.7 {
		got := c.Nearest(iters, x)
		tt := x / 300 * c.XMax
		best := 0
		for i := range iters {
			if math.Abs(iters[i]-tt) < math.Abs(iters[best]-tt) {
				best = i
			}
		}
		if math.Abs(iters[got]-tt) != math.Abs(iters[best]-tt) {
			t.Fatalf("x=%v: nearest %d, brute force %d", x, got, best)
		}
	}
	if c.Nearest(nil, 3) != -1 {
		t.Error("empty trace")
	}
}

func TestTicks(t *testing.T) {
	for _, c := range []struct {
		lo, hi float64
		n      int
		want   string
	}{
		{0, 4381, 5, "[0 1000 2000 3000 4000]"},
		{0, 1, 4, "[0 0.5 1]"},
		{-9, 1, 5, "[-8 -6 -4 -2 0]"},
	} {
		if got := fmt.Sprint(Ticks(c.lo, c.hi, c.n)); got != c.want {
			t.Errorf("Ticks(%v,%v,%d) = %s, want %s", c.lo, c.hi, c.n, got, c.want)
		}
	}
}

func TestScatter(t *testing.T) {
	rng := rand.New(rand.NewPCG(9, 9))
	xy := make([]float64, 2*150)
	for i := range xy {
		xy[i] = 5 * rng.NormFloat64()
		if i%2 == 1 {
			xy[i] *= 0.2 // a flat cloud: equal scales leave vertical room
		}
	}
	box := Box{0, 0, 400, 300}
	s := NewScatter(box, xy, 10)
	rows := make([]int, 150)
	for i := range rows {
		rows[i] = i
		x, y := s.At(xy[2*i], xy[2*i+1])
		if x < 10-1e-9 || x > 390+1e-9 || y < 0 || y > 300 {
			t.Fatalf("point %d at (%v,%v)", i, x, y)
		}
	}
	// Equal scales: a data distance is the same in pixels either way.
	x0, y0 := s.At(0, 0)
	x1, _ := s.At(1, 0)
	_, y1 := s.At(0, 1)
	if math.Abs((x1-x0)-(y0-y1)) > 1e-12 {
		t.Errorf("scales differ: %v, %v", x1-x0, y0-y1)
	}
	if got := strings.Count(s.Markers(xy, rows, Circle, 3), "M"); got != 150 {
		t.Errorf("%d circles", got)
	}
	if got := strings.Count(s.Markers(xy, rows[:20], Square, 3), "M"); got != 20 {
		t.Errorf("%d squares", got)
	}
	// The path data are what the formatter of the standard library writes
	// (no coordinate here is near a tie of AppendTenths).
	f := func(v float64) string { return strconv.FormatFloat(v, 'f', 1, 64) }
	var circles, squares strings.Builder
	for _, i := range rows {
		x, y := s.At(xy[2*i], xy[2*i+1])
		circles.WriteString("M" + f(x) + " " + f(y) + "h0")
		squares.WriteString("M" + f(x-3.5) + " " + f(y-3.5) + "h7.0v7.0h-7.0z")
	}
	if got := s.Markers(xy, rows, Circle, 3); got != circles.String() {
		t.Errorf("circles:\n%.200s\nwant\n%.200s", got, circles.String())
	}
	if got := s.Markers(xy, rows, Square, 3.5); got != squares.String() {
		t.Errorf("squares:\n%.200s\nwant\n%.200s", got, squares.String())
	}
	px, py := s.At(xy[2*17], xy[2*17+1])
	if i, d := s.Nearest(xy, px+0.1, py); i != 17 && d > 0.1 {
		t.Errorf("nearest %d at %v", i, d)
	}
}

func TestDiverging(t *testing.T) {
	for _, c := range []struct {
		v       float64
		r, g, b uint8
	}{{0, 255, 255, 255}, {1, 178, 24, 43}, {-1, 33, 102, 172}, {7, 178, 24, 43}} {
		if r, g, b := Diverging(c.v); r != c.r || g != c.g || b != c.b {
			t.Errorf("Diverging(%v) = %d,%d,%d", c.v, r, g, b)
		}
	}
}

// AppendTenths writes what strconv does with 'f' and one decimal, but for
// ties of v·10 (rounded away from zero) and −0 (0.0), on chosen values and
// on a million seeded ones of every scale a path meets.
func TestAppendTenths(t *testing.T) {
	for _, c := range []struct {
		v    float64
		want string
	}{
		{0, "0.0"}, {0.04, "0.0"}, {-0.04, "-0.0"}, {0.05000001, "0.1"}, {-12.34, "-12.3"},
		{199.96, "200.0"}, {1.25, "1.3"}, {-1.25, "-1.3"}, {math.Copysign(0, -1), "0.0"},
		{1e20, "100000000000000000000.0"}, {math.NaN(), "NaN"}, {math.Inf(-1), "-Inf"},
	} {
		if got := string(AppendTenths([]byte("x"), c.v)); got != "x"+c.want {
			t.Errorf("AppendTenths(%v) = %q, want %q", c.v, got[1:], c.want)
		}
	}
	rng := rand.New(rand.NewPCG(3, 4))
	for k := 0; k < 1_000_000; k++ {
		v := (rng.Float64()*2 - 1) * math.Pow(10, float64(rng.IntN(9)-3))
		if _, frac := math.Modf(math.Abs(v * 10)); math.Abs(frac-0.5) < 1e-6 {
			continue // a tie, rounded differently by design
		}
		if got, want := string(AppendTenths(nil, v)), strconv.FormatFloat(v, 'f', 1, 64); got != want {
			t.Fatalf("AppendTenths(%v) = %q, strconv %q", v, got, want)
		}
	}
}

// BenchmarkMarkers times a scatter's marker path, the projection's largest
// string, for 500 and 5,000 points (the 5,000 × 50 upload).
func BenchmarkMarkers(b *testing.B) {
	for _, n := range []int{500, 5000} {
		rng := rand.New(rand.NewPCG(1, uint64(n)))
		xy := make([]float64, 2*n)
		for i := range xy {
			xy[i] = rng.NormFloat64()
		}
		rows := make([]int, n)
		for i := range rows {
			rows[i] = i
		}
		s := NewScatter(Box{0, 0, 400, 300}, xy, 10)
		b.Run(fmt.Sprintf("n%d", n), func(b *testing.B) {
			for b.Loop() {
				s.Markers(xy, rows, Circle, 3)
			}
		})
	}
}

// Every learner has a look of its own: no two share colour, marker and
// dash at once, and each shape's path data draws what it says.
func TestMethodStyles(t *testing.T) {
	seen := map[Style]string{}
	for m, st := range styles {
		if o, ok := seen[st]; ok {
			t.Errorf("%s and %s are drawn alike: %+v", m, o, st)
		}
		seen[st] = m
	}
	sc := Scatter{Box: Box{W: 100, H: 100}, Unit: 1}
	for _, c := range []struct {
		shape int
		want  string
	}{
		{Triangle, "M50.0 47.0L53.0 52.4L47.0 52.4z"},
		{Diamond, "M50.0 47.0L53.0 50.0L50.0 53.0L47.0 50.0z"},
		{Plus, "M47.0 50.0h6.0M50.0 47.0v6.0"},
	} {
		if got := sc.Markers([]float64{0, 0}, []int{0}, c.shape, 3); got != c.want {
			t.Errorf("shape %d: %q, want %q", c.shape, got, c.want)
		}
	}
	if MethodStyle("no such method").Colour == MethodStyle("fast").Colour {
		t.Error("an unknown method looks like RML")
	}
}

// The λ slider's stop nearest to a value on a log scale, and a test
// error's interval as the page writes it.
func TestNearestLambdaAndInterval(t *testing.T) {
	g := spec.LambdaGrid
	for _, c := range []struct {
		v    float64
		want float64
	}{{16, 16}, {20, 16}, {1e-9, g[0]}, {1e9, g[len(g)-1]}} {
		if got := g[NearestLambda(c.v)]; got != c.want {
			t.Errorf("NearestLambda(%g) is the stop %g, want %g", c.v, got, c.want)
		}
	}
	if s := ErrorInterval(1.0/36, 36); s != "95 % CI 0.5–14.2 %, 1 of 36 rows" {
		t.Errorf("ErrorInterval(1/36, 36) = %q", s)
	}
	if ErrorInterval(0.5, 0) != "" || ErrorInterval(math.NaN(), 10) != "" {
		t.Error("an interval without test rows or an error")
	}
}
