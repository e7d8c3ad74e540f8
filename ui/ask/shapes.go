package ask

import (
	"math"
	"math/rand/v2"
	"slices"
	"strconv"
)

// Shapes for people who cannot rely on colour: grey polygons that vary in
// size, rotation, number of corners, outline and lightness, and in nothing
// else (no hue).

// Glyph is how a shape is drawn.
type Glyph struct {
	Corners   int     // 3 to 8
	Size      float64 // the circumradius, as a share of the largest (0.35 to 1)
	Rotation  float64 // degrees, 0 to 60
	Stroke    float64 // the outline's width in px, 0.5 to 4
	Lightness float64 // the fill's grey, 0.15 (dark) to 0.85 (light)
}

// ShapeFeatures are the features the metric sees of a shape: its glyph's
// five numbers, each over its range.
var ShapeFeatures = []string{"size", "rotation", "corners", "outline", "lightness"}

// shapeWeights is the simulated respondent's hidden weighting of the
// shapes' features (over their ranges): corners and lightness count most,
// size some, the outline little, the rotation hardly.
var shapeWeights = []float64{1, 0.05, 2, 0.3, 2}

var polygonNames = []string{"triangle", "square", "pentagon", "hexagon", "heptagon", "octagon"}

// Shapes draws n shapes, seeded.
func Shapes(seed uint64, n int) *Items {
	if n < 3 {
		panic("ask: fewer than 3 shapes")
	}
	rng := rand.New(rand.NewPCG(seed, 0x736861706573)) // "shapes"
	it := &Items{Set: "shapes", Seed: seed, Features: ShapeFeatures, Families: polygonNames,
		RefName: "the simulated respondent's hidden weighting (corners and lightness most, rotation hardly)"}
	for range n {
		g := Glyph{Corners: 3 + rng.IntN(6), Size: 0.35 + 0.65*rng.Float64(), Rotation: math.Round(60 * rng.Float64()),
			Stroke: math.Round(2*(0.5+3.5*rng.Float64())) / 2, Lightness: math.Round(100*(0.15+0.7*rng.Float64())) / 100}
		it.Glyphs = append(it.Glyphs, g)
		it.X = append(it.X, []float64{(g.Size - 0.35) / 0.65, g.Rotation / 60, float64(g.Corners-3) / 5, (g.Stroke - 0.5) / 3.5, (g.Lightness - 0.15) / 0.7})
		it.Family = append(it.Family, g.Corners-3)
		it.Names = append(it.Names, g.describe())
		it.CSS = append(it.CSS, grey(g.Lightness))
	}
	it.Weights = slices.Clone(shapeWeights)
	it.ref = it.weighted(it.Weights)
	return it
}

// describe says a shape in words: "large light pentagon, turned 20°, thick
// outline".
func (g Glyph) describe() string {
	size := "small"
	switch {
	case g.Size > 0.75:
		size = "large"
	case g.Size > 0.55:
		size = "medium"
	}
	light := "mid-grey"
	switch {
	case g.Lightness < 0.38:
		light = "dark"
	case g.Lightness > 0.62:
		light = "light"
	}
	outline := "thin"
	switch {
	case g.Stroke >= 3:
		outline = "thick"
	case g.Stroke >= 1.5:
		outline = "medium"
	}
	return size + " " + light + " " + polygonNames[g.Corners-3] + ", turned " + strconv.Itoa(int(g.Rotation)) + "°, " + outline + " outline"
}

// grey is a lightness in [0, 1] as a CSS colour.
func grey(l float64) string {
	v := hex2(int(math.Round(255 * l)))
	return "#" + v + v + v
}

// Points are the glyph's corners in a box of side 2r centred at (r, r),
// as an SVG polygon's points attribute.
func (g Glyph) Points(r float64) string {
	var s []byte
	for k := range g.Corners {
		a := (g.Rotation - 90 + 360*float64(k)/float64(g.Corners)) * math.Pi / 180
		rad := r * g.Size * 0.92
		if k > 0 {
			s = append(s, ' ')
		}
		s = strconv.AppendFloat(s, r+rad*math.Cos(a), 'f', 1, 64)
		s = append(s, ',')
		s = strconv.AppendFloat(s, r+rad*math.Sin(a), 'f', 1, 64)
	}
	return string(s)
}

// Open returns the items of set drawn with seed, DefaultItems of them;
// ok is false for a set there is not.
func Open(set string, seed uint64) (it *Items, ok bool) {
	switch set {
	case "colours":
		return Colours(seed, DefaultItems), true
	case "shapes":
		return Shapes(seed, DefaultItems), true
	}
	return nil, false
}

// Sets are the item sets Open knows.
var Sets = []string{"colours", "shapes"}
