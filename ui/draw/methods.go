package draw

import (
	"math"
	"strconv"

	"github.com/rml-lab/rml/spec"
)

// Style is how a learner is drawn wherever it appears (the Compare
// columns and curves, the sweeps, the stage's error curve): one colour,
// one marker and, for the lines, one dash pattern, so that a learner is
// recognised at a glance in every view and no two learners share a look.
type Style struct {
	Colour string // from Okabe and Ito's palette
	Marker int    // Circle, Square, Triangle, Diamond or Plus
	Dash   string // SVG stroke-dasharray; "" for a solid line
}

// The learners' styles. The robust method's three solvers share its blue
// in two shades and a dash: they solve the same problem. Okabe and Ito's
// eight colours run out (their yellow is too faint on white for a line),
// so logistic and t-STE take two of Paul Tol's muted colours, which are
// chosen to stay apart under the common colour-vision deficiencies too.
var styles = map[string]Style{
	spec.Fast:     {"#0072B2", Circle, ""},
	spec.Nesterov: {"#56B4E9", Circle, "6 3"},
	spec.Gradient: {"#56B4E9", Circle, "2 2"},
	spec.BestCase: {"#D55E00", Diamond, ""},
	spec.LMNN:     {"#009E73", Square, ""},
	spec.LMNNSG:   {"#009E73", Square, "6 3"},
	spec.Xing:     {"#CC79A7", Triangle, ""},
	spec.Euclid:   {"#000000", Plus, "5 4"},
	spec.Hinge:    {"#E69F00", Circle, "2 2"},
	spec.Logistic: {"#882255", Square, "6 3"},
	spec.TSTE:     {"#999933", Triangle, "2 2"},
}

// MethodStyle is method's style (spec.Methods' names); an unknown name
// is drawn grey.
func MethodStyle(method string) Style {
	if s, ok := styles[method]; ok {
		return s
	}
	return Style{Colour: "#767676", Marker: Circle}
}

// ErrorInterval writes a test error's 95 % interval (Wilson's, over the
// test held-out rows) as the page and its first screen show it: "95 % CI
// 0.7–20.2 %, 1 of 24 rows"; "" without test rows or an error.
func ErrorInterval(err float64, test int) string {
	if test <= 0 || math.IsNaN(err) {
		return ""
	}
	k := spec.Misclassified(err, test)
	lo, hi := spec.Wilson(k, test)
	return "95 % CI " + strconv.FormatFloat(100*lo, 'f', 1, 64) + "–" + strconv.FormatFloat(100*hi, 'f', 1, 64) + " %, " + strconv.Itoa(k) + " of " + strconv.Itoa(test) + " rows"
}

// NearestLambda is the index of the value of spec.LambdaGrid nearest to v
// on a log scale: the λ slider's stop.
func NearestLambda(v float64) int {
	best := 0
	for i, g := range spec.LambdaGrid {
		if math.Abs(math.Log(g/v)) < math.Abs(math.Log(spec.LambdaGrid[best]/v)) {
			best = i
		}
	}
	return best
}
