//go:build js && wasm

package ui

// The widgets every panel uses, and the memo component panels render
// through: one file, so a change to how a number, a slider or a panel looks
// is made once.

import (
	"math"
	"reflect"
	"strconv"
	"strings"
	"syscall/js"

	"github.com/hexops/vecty"
	"github.com/hexops/vecty/elem"
	"github.com/hexops/vecty/event"
	"github.com/hexops/vecty/prop"

	"github.com/rml-lab/rml/spec"
	"github.com/rml-lab/rml/ui/store"
)

// Memo renders Props through Draw and skips rendering while Props is
// unchanged (reflect.DeepEqual, which is immediate for the same pointers
// and slices). Draw sees only Props, and the dispatcher it closes over, so
// what a panel shows cannot go stale: everything it shows is in Props.
type Memo[P any] struct {
	vecty.Core
	Props P                   `vecty:"prop"`
	Draw  func(P) *vecty.HTML `vecty:"prop"`
	// Same, if set, compares props instead of reflect.DeepEqual (which
	// walks a dataset's rows when two pointers differ).
	Same func(a, b P) bool
	// Name, if set, marks each render for a trace (markRender): the
	// panels the glue redraws on their own have one.
	Name     string
	rendered bool // it has been rendered: vecty.Rerender may be called on it
}

func (m *Memo[P]) same(a, b P) bool {
	if m.Same != nil {
		return m.Same(a, b)
	}
	return reflect.DeepEqual(a, b)
}

func (m *Memo[P]) SkipRender(prev vecty.Component) bool {
	q, ok := prev.(*Memo[P])
	return ok && m.same(q.Props, m.Props)
}

func (m *Memo[P]) Render() vecty.ComponentOrHTML {
	m.rendered = true
	if m.Name != "" {
		markRender(m.Name)
	}
	return m.Draw(m.Props)
}

// performance is the page's Performance object.
var performance = js.Global().Get("performance")

// markRender marks, as the performance mark "rml-render:"+name, that a
// panel the glue redraws on its own starts to render. Vecty renders those
// panels one after another in an animation frame, each reconciled before
// the next starts, so in a trace the time from one mark to the next is a
// panel's render: e2e TestVisitLongTasks names the panels a long task drew.
func markRender(name string) { performance.Call("mark", "rml-render:"+name) }

func (m *Memo[P]) wasRendered() bool { return m.rendered }

// setProps gives m the props p and reports whether they differ from its
// last ones.
func (m *Memo[P]) setProps(p P) bool {
	if m.same(p, m.Props) {
		return false
	}
	m.Props = p
	return true
}

// sameSlice reports whether a and b are the same slice: the same length
// and, unless empty, the same first element in memory.
func sameSlice[T any](a, b []T) bool {
	return len(a) == len(b) && (len(a) == 0 || &a[0] == &b[0])
}

const svgNS = "http://www.w3.org/2000/svg"

// svg makes an SVG element; Vecty needs the namespace on every one.
func svg(tag string, m ...vecty.MarkupOrChild) *vecty.HTML {
	return vecty.Tag(tag, append([]vecty.MarkupOrChild{vecty.Markup(vecty.Namespace(svgNS))}, m...)...)
}

func f1(v float64) string { return strconv.FormatFloat(v, 'f', 1, 64) }

// plain writes a number so that a program can read it back (the test hooks).
func plain(v float64) string {
	if math.IsNaN(v) || math.IsInf(v, 0) {
		return "—"
	}
	return strconv.FormatFloat(v, 'g', 6, 64)
}

// localPoint maps the pointer of a mouse event on an element drawn at
// viewW units wide (an SVG's viewBox, a canvas's width) to those units; ok
// is false while the element has no width.
func localPoint(e *vecty.Event, viewW float64) (x, y float64, ok bool) {
	r := e.Get("currentTarget").Call("getBoundingClientRect")
	w := r.Get("width").Float()
	if w <= 0 {
		return 0, 0, false
	}
	s := viewW / w
	return (e.Get("clientX").Float() - r.Get("left").Float()) * s, (e.Get("clientY").Float() - r.Get("top").Float()) * s, true
}

func stat(label, testid, value string) *vecty.HTML {
	return elem.Div(vecty.Markup(vecty.Class("stat")),
		elem.Span(vecty.Markup(vecty.Class("k")), vecty.Text(label)),
		elem.Span(vecty.Markup(vecty.Class("v"), vecty.Data("testid", testid)), vecty.Text(value)))
}

var itoa = strconv.Itoa

// panel is a titled section.
func panel(title, class string, children ...vecty.MarkupOrChild) *vecty.HTML {
	return elem.Section(append([]vecty.MarkupOrChild{vecty.Markup(vecty.Class("panel", class)), elem.Heading2(vecty.Text(title))}, children...)...)
}

// number reads a typed number in r; on failure it dispatches a message that
// names the field and what was expected, and returns ok = false.
func number(d func(store.Action), field, text string, r spec.Range) (float64, bool) {
	v, err := strconv.ParseFloat(strings.TrimSpace(text), 64)
	if err != nil || math.IsNaN(v) || math.IsInf(v, 0) || !r.OK(v) {
		d(store.Invalid{Message: field + ": " + strconv.Quote(text) + " is not usable; expected " + r.Want + "."})
		return 0, false
	}
	return v, true
}

func intInput(testid string, v int, set func(int), d func(store.Action), field string) *vecty.HTML {
	return elem.Input(vecty.Markup(prop.Type(prop.TypeNumber), vecty.Data("testid", testid), prop.Value(strconv.Itoa(v)),
		vecty.Attribute("min", 1), vecty.Attribute("max", spec.PageMaxK), vecty.Attribute("step", 1),
		event.Change(func(e *vecty.Event) {
			if x, ok := number(d, field, e.Target.Get("value").String(), spec.PageKRange); ok {
				set(int(x))
			}
		})))
}

// slider is a labelled range input in steps of 0.01 with its value beside it.
func slider(label, testid string, lo, hi, v float64, set func(float64)) *vecty.HTML {
	value := strconv.FormatFloat(v, 'f', -1, 64)
	return elem.Label(vecty.Text(label),
		&rangeInput{Value: value, Markup: []vecty.Applyer{prop.Type(prop.TypeRange), vecty.Data("testid", testid),
			vecty.Attribute("min", lo), vecty.Attribute("max", hi), vecty.Attribute("step", 0.01),
			prop.Value(value),
			event.Input(func(e *vecty.Event) {
				if x, err := strconv.ParseFloat(e.Target.Get("value").String(), 64); err == nil {
					set(x)
				}
			})}},
		elem.Output(vecty.Text(" "+strconv.FormatFloat(v, 'f', 2, 64))),
	)
}

// rangeInput is a range input that sets its value again once it is in the
// page: Vecty sets a new element's properties before its attributes, so
// its value was first fitted to the default range and step (0 to 100 in
// steps of 1: η 0.9 became 1) before its min and step existed, and stayed
// so until something redrew the input.
type rangeInput struct {
	vecty.Core
	Value  string          `vecty:"prop"`
	Markup []vecty.Applyer `vecty:"prop"`
	input  *vecty.HTML
}

func (r *rangeInput) Render() vecty.ComponentOrHTML {
	r.input = elem.Input(vecty.Markup(r.Markup...))
	return r.input
}

// Mount implements vecty.Mounter.
func (r *rangeInput) Mount() { r.input.Node().Set("value", r.Value) }

// later runs f in a task of its own, after the current one (and the
// render it schedules) has ended: setTimeout(f, 0).
func later(f func()) { after(0, f) }

// after runs f in a task of its own once ms milliseconds have passed.
func after(ms float64, f func()) {
	var fn js.Func
	fn = js.FuncOf(func(js.Value, []js.Value) any {
		fn.Release()
		f()
		return nil
	})
	js.Global().Call("setTimeout", fn, ms)
}
