package ask

import (
	"math"
	"math/rand/v2"
	"strconv"
	"strings"
)

// Items is a set of things a person can judge, with the features the
// metric sees.
type Items struct {
	Set      string   // "colours"
	Seed     uint64   // the seed that drew them
	Features []string // the features' names, one column each
	X        [][]float64
	// Names say each item in words, for a screen reader and the answers'
	// file ("dark blue #1f3a93"); CSS is how the page paints it.
	Names, CSS []string
	// Family is each item's group (its basic colour name), the label of
	// the dataset the page loads, which only colours the views' points.
	Family   []int
	Families []string
	// Glyphs draw the shapes (nil for colours); Star, rows of a dataset
	// as stars of their features (StarPoints).
	Glyphs []Glyph
	Star   bool
	// RefName names the reference the learned metric is set beside, and
	// the simulated respondent's hidden metric.
	RefName string
	ref     func(i, j int) float64
	// Weights are the reference's weights of the features when it is a
	// weighting (shapes, rows; nil for colours): a simulated respondent
	// may be given others (Weighted).
	Weights []float64
}

// Len is the number of items.
func (it *Items) Len() int { return len(it.X) }

// DefaultItems is how many items (colours or shapes) the page asks
// about.
const DefaultItems = 120

// AskLambda is the λ the Ask-me mode starts with. A few dozen answers
// fit a metric of 5 features with room to spare: a strong regularizer
// generalizes best (BenchmarkAskActive: at 100 answers, agreement with
// CIEDE2000 rose from λ = 0.05 to λ = 4 and held to λ = 64).
const AskLambda = 16

// ColourFeatures are the features the metric sees of a colour: its sRGB
// components, and its lightness and chroma (CIELAB's L* and C*, over 100).
var ColourFeatures = []string{"red", "green", "blue", "lightness", "chroma"}

// basic are the prototypes of the basic colour names a colour is named
// after (the nearest by CIEDE2000).
var basic = []struct {
	name    string
	r, g, b float64
}{
	{"black", 0, 0, 0}, {"white", 1, 1, 1}, {"grey", 0.5, 0.5, 0.5},
	{"red", 0.8, 0.1, 0.1}, {"orange", 0.95, 0.5, 0.1}, {"yellow", 0.95, 0.9, 0.1},
	{"green", 0.2, 0.6, 0.2}, {"blue", 0.1, 0.3, 0.8}, {"purple", 0.5, 0.2, 0.6},
	{"pink", 0.95, 0.6, 0.75}, {"brown", 0.5, 0.27, 0.1},
}

// Colours draws n colours uniformly from the sRGB cube (8 bits a
// component), seeded.
func Colours(seed uint64, n int) *Items {
	if n < 3 {
		panic("ask: fewer than 3 colours")
	}
	rng := rand.New(rand.NewPCG(seed, 0x636f6c6f757273)) // "colours"
	it := &Items{Set: "colours", Seed: seed, Features: ColourFeatures, RefName: "CIEDE2000, the perceptual colour difference"}
	var labs [][3]float64
	it.ref = func(i, j int) float64 { return CIEDE2000(labs[i], labs[j]) }
	protos := make([][3]float64, len(basic))
	for i, b := range basic {
		protos[i] = Lab(b.r, b.g, b.b)
		it.Families = append(it.Families, b.name)
	}
	for range n {
		var c [3]int
		for k := range c {
			c[k] = rng.IntN(256)
		}
		r, g, b := float64(c[0])/255, float64(c[1])/255, float64(c[2])/255
		lab := Lab(r, g, b)
		fam, best := 0, math.Inf(1)
		for i, p := range protos {
			if d := CIEDE2000(lab, p); d < best {
				fam, best = i, d
			}
		}
		hex := "#" + hex2(c[0]) + hex2(c[1]) + hex2(c[2])
		name := basic[fam].name
		switch {
		case fam < 3: // black, white, grey: no shade
		case lab[0] < 35:
			name = "dark " + name
		case lab[0] > 75:
			name = "light " + name
		}
		it.X = append(it.X, []float64{r, g, b, lab[0] / 100, math.Hypot(lab[1], lab[2]) / 100})
		it.Names = append(it.Names, name+" "+hex)
		it.CSS = append(it.CSS, hex)
		it.Family = append(it.Family, fam)
		labs = append(labs, lab)
	}
	return it
}

func hex2(v int) string {
	s := strconv.FormatInt(int64(v), 16)
	if len(s) < 2 {
		s = "0" + s
	}
	return s
}

// Reference is the reference difference of items i and j: CIEDE2000 for
// colours, a fixed weighting of the features for shapes.
func (it *Items) Reference(i, j int) float64 { return it.ref(i, j) }

// Weighted is the distance Σ_k w_k (x_ik − x_jk)² on the items' features
// (read when called: a test may change them): a simulated respondent's
// chosen weighting.
func (it *Items) Weighted(w []float64) Dist {
	if len(w) != len(it.Features) {
		panic("ask: a weight for each feature")
	}
	return it.weighted(w)
}

func (it *Items) weighted(w []float64) func(i, j int) float64 {
	return func(i, j int) float64 {
		var s float64
		for k, wk := range w {
			v := it.X[i][k] - it.X[j][k]
			s += wk * v * v
		}
		return s
	}
}

// CSV is the items as the dataset the page loads: a header, the features
// and the family as the label (the last column).
func (it *Items) CSV() string {
	var b strings.Builder
	b.WriteString(strings.Join(it.Features, ",") + ",family\n")
	for i, row := range it.X {
		for _, v := range row {
			b.WriteString(strconv.FormatFloat(v, 'g', -1, 64))
			b.WriteByte(',')
		}
		b.WriteString(it.Families[it.Family[i]])
		b.WriteByte('\n')
	}
	return b.String()
}
