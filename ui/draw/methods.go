package draw

import "github.com/rml-lab/rml/spec"

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
// in two shades and a dash: they solve the same problem.
var styles = map[string]Style{
	spec.Fast:     {"#0072B2", Circle, ""},
	spec.Nesterov: {"#56B4E9", Circle, "6 3"},
	spec.Gradient: {"#56B4E9", Circle, "2 2"},
	spec.BestCase: {"#D55E00", Diamond, ""},
	spec.LMNN:     {"#009E73", Square, ""},
	spec.LMNNSG:   {"#009E73", Square, "6 3"},
	spec.Xing:     {"#CC79A7", Triangle, ""},
	spec.Euclid:   {"#000000", Plus, "5 4"},
}

// MethodStyle is method's style (spec.Methods' names); an unknown name
// is drawn grey.
func MethodStyle(method string) Style {
	if s, ok := styles[method]; ok {
		return s
	}
	return Style{Colour: "#767676", Marker: Circle}
}
