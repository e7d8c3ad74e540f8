//go:build js && wasm

package ui

import (
	"math"
	"slices"
	"strconv"
	"strings"
	"syscall/js"

	"github.com/hexops/vecty"
	"github.com/hexops/vecty/elem"
	"github.com/hexops/vecty/event"
	"github.com/hexops/vecty/prop"

	"github.com/rml-lab/rml/spec"
	"github.com/rml-lab/rml/ui/ask"
	"github.com/rml-lab/rml/ui/draw"
	"github.com/rml-lab/rml/ui/store"
)

// The Ask-me panel: a question at a time (the anchor between its two
// candidates; a click, a tap or ← / → / ↓ answers), what the answers have
// taught, the person's own error rate and η from it, the simulated
// respondent, and the answers' files of a class.

// AskProps is what the Ask-me panel shows.
type AskProps struct {
	On      bool   // the mode is on (Items nil: a dataset's rows are on their way)
	Set     string // colours, shapes or data
	Items   *ask.Items
	Q       ask.Question
	Active  bool
	SimRate float64
	View    store.AskView
	Eta     float64
	Ready   bool      // the items are loaded: answers count
	Name    string    // who answers
	Weights []float64 // the simulated respondent's weights (nil for colours)
}

// refName names the simulated respondent's metric: the items' own, or the
// weighting chosen.
func (p AskProps) refName() string {
	if p.Weights != nil && !slices.Equal(p.Weights, p.Items.Weights) {
		return "the weighting you chose for the simulated respondent"
	}
	return p.Items.RefName
}

func askProps(s *store.State) AskProps {
	k := s.Ask
	if k == nil {
		return AskProps{}
	}
	if k.Items == nil {
		return AskProps{On: true, Set: k.Set}
	}
	return AskProps{On: true, Set: k.Set, Items: k.Items, Q: k.Question, Active: k.Asker.Active, SimRate: k.SimRate, View: s.AskSummary(), Eta: s.Params.Eta, Ready: s.AskReady(), Name: k.Name, Weights: k.SimWeights}
}

// askPanel draws the panel; empty outside the mode (the stage keeps its
// place for it: Vecty matches children by place).
func askPanel(p AskProps, d func(store.Action), save func(), open func(js.Value)) *vecty.HTML {
	if !p.On {
		return elem.Div(vecty.Markup(vecty.Class("ask-slot")))
	}
	if p.Items == nil {
		return elem.Section(vecty.Markup(vecty.Class("panel", "ask"), vecty.Data("testid", "ask-panel"), vecty.Data("ready", "false")),
			elem.Heading2(vecty.Text("Ask me")), elem.Paragraph(vecty.Markup(vecty.Attribute("role", "status")), vecty.Text("Reading the rows of the data…")))
	}
	it, q := p.Items, p.Q
	key := func(e *vecty.Event) {
		var c ask.Choice
		switch e.Get("key").String() {
		case "ArrowLeft":
			c = ask.Left
		case "ArrowRight":
			c = ask.Right
		case "ArrowDown", " ":
			c = ask.Skip
		default:
			return
		}
		e.Call("preventDefault")
		d(store.AskAnswer{Choice: c})
	}
	what := "Question " + itoa(p.View.Answered+1)
	switch q.Kind {
	case ask.HeldOut:
		what += " (kept aside: it measures the metric, it does not train it)"
	case ask.Repeat:
		what += " (asked before: it measures how often you change your mind)"
	}
	return elem.Section(vecty.Markup(vecty.Class("panel", "ask"), vecty.Data("testid", "ask-panel"), vecty.Attribute("aria-label", "Ask me"), vecty.Data("ready", strconv.FormatBool(p.Ready))),
		elem.Div(vecty.Markup(vecty.Class("row")),
			elem.Heading2(vecty.Text("Ask me: which "+askNoun[p.Set]+" is more like the one in the middle?")),
			askSets(p.Set, it.Seed, d),
			elem.Button(vecty.Markup(vecty.Class("mini"), vecty.Data("testid", "ask-close"), event.Click(func(*vecty.Event) { d(store.AskClose{}) })), vecty.Text("Leave Ask me"))),
		elem.Div(vecty.Markup(vecty.Class("ask-q"), vecty.Data("testid", "ask-question"), vecty.Attribute("tabindex", 0), vecty.Attribute("role", "group"),
			vecty.Data("n", itoa(p.View.Answered+1)), vecty.Data("items", itoa(q.Anchor)+","+itoa(q.Left)+","+itoa(q.Right)),
			vecty.Attribute("aria-label", what+": which is more like "+it.Names[q.Anchor]+": "+it.Names[q.Left]+" (left arrow) or "+it.Names[q.Right]+" (right arrow)? Down arrow: can't tell."),
			event.KeyDown(key)),
			askItem(it, q.Left, "ask-left", "← ", !p.Ready, func() { d(store.AskAnswer{Choice: ask.Left}) }),
			elem.Div(vecty.Markup(vecty.Class("ask-anchor"), vecty.Data("testid", "ask-anchor")),
				picture(it, q.Anchor, 88), elem.Span(vecty.Text(it.Names[q.Anchor]))),
			askItem(it, q.Right, "ask-right", "→ ", !p.Ready, func() { d(store.AskAnswer{Choice: ask.Right}) }),
		),
		elem.Div(vecty.Markup(vecty.Class("row")),
			elem.Button(vecty.Markup(vecty.Data("testid", "ask-skip"), prop.Disabled(!p.Ready), event.Click(func(*vecty.Event) { d(store.AskAnswer{Choice: ask.Skip}) })), vecty.Text("↓ Can't tell")),
			elem.Span(vecty.Markup(vecty.Class("hint"), vecty.Attribute("aria-live", "polite")), vecty.Text(what+"."))),
		askTaught(p, d),
		askTools(p, d, save, open),
	)
}

// askItem is a candidate: its picture and name, one button (disabled
// until the items are loaded: an answer then would count for nothing).
func askItem(it *ask.Items, i int, testid, arrow string, disabled bool, click func()) *vecty.HTML {
	return elem.Button(vecty.Markup(vecty.Class("ask-item"), vecty.Data("testid", testid), prop.Disabled(disabled), event.Click(func(*vecty.Event) { click() })),
		picture(it, i, 64), elem.Span(vecty.Text(arrow+it.Names[i])))
}

// picture is item i, size px square: a colour's swatch or a shape's
// glyph. What it draws comes from the page's own items, never from a
// file; its words are beside it.
func picture(it *ask.Items, i int, size float64) *vecty.HTML {
	if it.Star {
		return svg("svg", vecty.Markup(vecty.Class("ask-glyph"), vecty.Attribute("width", size), vecty.Attribute("height", size),
			vecty.Attribute("viewBox", "0 0 "+f1(size)+" "+f1(size)), vecty.Attribute("aria-hidden", "true")),
			svg("polygon", vecty.Markup(vecty.Attribute("points", it.StarPoints(i, size/2)), vecty.Attribute("fill", "#cfe3f3"),
				vecty.Attribute("stroke", "#1d3b53"), vecty.Attribute("stroke-width", 1.5))))
	}
	if it.Glyphs == nil {
		return elem.Span(vecty.Markup(vecty.Class("ask-swatch"), vecty.Style("width", f1(size)+"px"), vecty.Style("height", f1(size)+"px"),
			vecty.Style("background", it.CSS[i]), vecty.Attribute("aria-hidden", "true")))
	}
	g := it.Glyphs[i]
	r := size / 2
	return svg("svg", vecty.Markup(vecty.Class("ask-glyph"), vecty.Attribute("width", size), vecty.Attribute("height", size),
		vecty.Attribute("viewBox", "0 0 "+f1(size)+" "+f1(size)), vecty.Attribute("aria-hidden", "true")),
		svg("polygon", vecty.Markup(vecty.Attribute("points", g.Points(r)), vecty.Attribute("fill", it.CSS[i]),
			vecty.Attribute("stroke", "#000"), vecty.Attribute("stroke-width", g.Stroke))))
}

// askNoun names one item of each set.
var askNoun = map[string]string{"colours": "colour", "shapes": "shape", "data": "row"}

// askSets chooses the items asked about, with the answers kept for them.
func askSets(set string, seed uint64, d func(store.Action)) *vecty.HTML {
	opts := []vecty.MarkupOrChild{vecty.Markup(vecty.Data("testid", "ask-set"), vecty.Attribute("aria-label", "items"),
		event.Change(func(e *vecty.Event) {
			to := e.Target.Get("value").String()
			d(store.AskOpen{Set: to, Saved: keptAnswers(to, seed)})
		}))}
	for _, s := range store.AskSets {
		if s == "data" && set != "data" {
			continue // a dataset's rows: from the stage's button, on the data loaded
		}
		opts = append(opts, elem.Option(vecty.Markup(prop.Value(s), vecty.Property("selected", s == set)), vecty.Text(askNoun[s]+"s")))
	}
	return elem.Label(vecty.Text("Items "), elem.Select(opts...))
}

// askTaught says what the answers have taught: the held-out agreement of
// the learned metric, Euclid and CIEDE2000; what the metric weighs; the
// error rate and η from it.
func askTaught(p AskProps, d func(store.Action)) *vecty.HTML {
	v := p.View
	agree := "Every fifth question is kept aside: once you have answered some, this says how often the learned metric answers them as you did."
	if v.HeldOut > 0 {
		agree = "On the " + itoa(v.HeldOut) + " questions kept aside, the learned metric answers as you did " + pctOr(v.Learned, "— (none learned yet)") +
			"; Euclid's distance " + draw.Percent(v.Euclid) + "; " + p.refName() + ", " + draw.Percent(v.Reference) + "."
	}
	weighs := "The metric sees each colour's red, green and blue (sRGB), and its lightness and chroma (CIELAB)."
	switch {
	case p.Items.Glyphs != nil:
		weighs = "The metric sees each shape's size, rotation, number of corners, outline and lightness; no shape has a hue."
	case p.Items.Star:
		weighs = "The metric sees each row's standardized features (" + strings.Join(p.Items.Features, ", ") + "), drawn as a star, one spoke a feature clockwise from the top; the labels are hidden from the questions."
	}
	if v.Weighs != "" {
		weighs += " Learned from your " + itoa(v.Trained) + " training answers, it judges " + v.Weighs + " (its diagonal). Its strongest direction, " + v.Direction +
			": items that differ along it look most different to it."
	}
	rate := "Every tenth question comes back later with its candidates swapped; from those the page estimates how often you err, and the share η of answers to trust."
	var use vecty.ComponentOrHTML
	if r := v.Rate; r.Pairs > 0 {
		rate = "You answered " + itoa(r.Disagree) + " of the " + itoa(r.Pairs) + " questions asked twice differently: your error rate is about " +
			draw.Percent(r.Est) + " (95 % interval " + draw.Percent(r.Lo) + " to " + draw.Percent(r.Hi) + "), if your mistakes come at random."
		if eta := math.Round(100*(1-r.Est)) / 100; spec.PageEtaRange.OK(eta) && eta != p.Eta {
			use = elem.Button(vecty.Markup(vecty.Class("mini"), vecty.Data("testid", "ask-use-eta"), event.Click(func(*vecty.Event) { d(store.SetEta{Value: eta}) })),
				vecty.Text("Use η = "+strconv.FormatFloat(eta, 'f', 2, 64)))
		}
	}
	return elem.Div(
		elem.Paragraph(vecty.Markup(vecty.Data("testid", "ask-agreement"), vecty.Attribute("aria-live", "polite"),
			vecty.Data("learned", fmtShare(v.Learned)), vecty.Data("euclid", fmtShare(v.Euclid)), vecty.Data("trained", itoa(v.Trained))), vecty.Text(agree)),
		elem.Paragraph(vecty.Markup(vecty.Data("testid", "ask-weighs")), vecty.Text(weighs)),
		elem.Paragraph(vecty.Markup(vecty.Data("testid", "ask-error-rate")), vecty.Text(rate+" "), use),
	)
}

// askWeights lets the simulated respondent's weight of each feature be
// chosen: a lecturer shows that the metric learns what the answers weigh.
// Nothing for colours, whose respondent judges by CIEDE2000.
func askWeights(p AskProps, d func(store.Action)) vecty.MarkupOrChild {
	if p.Weights == nil {
		return nil
	}
	kids := []vecty.MarkupOrChild{elem.Summary(vecty.Text("The simulated respondent's weights"))}
	for k, f := range p.Items.Features {
		k := k
		kids = append(kids, elem.Label(vecty.Text(f+" "),
			elem.Input(vecty.Markup(prop.Type(prop.TypeNumber), vecty.Data("testid", "ask-weight-"+itoa(k)), vecty.Class("short"),
				vecty.Attribute("min", 0), vecty.Attribute("max", store.MaxSimWeight), vecty.Attribute("step", 0.5),
				prop.Value(strconv.FormatFloat(p.Weights[k], 'g', 3, 64)),
				event.Change(func(e *vecty.Event) {
					if v, ok := number(d, "the weight of "+f, e.Target.Get("value").String(), simWeightRange); ok {
						d(store.AskWeight{Feature: k, Weight: v})
					}
				}))), vecty.Text(" ")))
	}
	return elem.Details(append(kids, elem.Paragraph(vecty.Markup(vecty.Class("hint")),
		vecty.Text("It finds two items the nearer the less they differ in the features it weighs most, on the features as the metric sees them.")))...)
}

// simWeightRange is a simulated respondent's weight's range.
var simWeightRange = spec.Range{Name: "a weight", OK: func(v float64) bool { return v >= 0 && v <= store.MaxSimWeight }, Want: "a number from 0 to 10"}

// simRateRange is the simulated respondent's error rate's range.
var simRateRange = spec.Range{Name: "the simulated error rate", OK: func(v float64) bool { return v >= 0 && v <= 0.5 }, Want: "a share from 0 to 0.5"}

// fmtShare writes a share for a data attribute ("" for NaN).
func fmtShare(v float64) string {
	if math.IsNaN(v) {
		return ""
	}
	return strconv.FormatFloat(v, 'g', -1, 64)
}

func pctOr(v float64, none string) string {
	if math.IsNaN(v) {
		return none
	}
	return draw.Percent(v)
}

// askTools are the question strategy, the simulated respondent, and the
// answers' files.
func askTools(p AskProps, d func(store.Action), save func(), open func(js.Value)) *vecty.HTML {
	class := []vecty.MarkupOrChild{}
	for _, c := range p.View.Class {
		who := c.Name
		if c.Who != "" {
			who += " (" + c.Who + ")"
		}
		line := who + ": " + itoa(c.Answers) + " answers; error rate " + pctOr(c.Rate.Est, "— (no question asked twice)") +
			"; the learned metric answers " + pctOr(c.Learned, "—") + " of them alike, Euclid " + draw.Percent(c.Euclid) + "."
		class = append(class, elem.ListItem(vecty.Text(line)))
	}
	return elem.Div(
		elem.Div(vecty.Markup(vecty.Class("row")),
			elem.Label(elem.Input(vecty.Markup(prop.Type(prop.TypeCheckbox), vecty.Data("testid", "ask-active"), prop.Checked(p.Active),
				event.Change(func(e *vecty.Event) { d(store.AskActive{On: e.Target.Get("checked").Bool()}) }))),
				vecty.Text(" Active questions: where the learned metric is least sure")),
		),
		elem.Div(vecty.Markup(vecty.Class("row")),
			elem.Button(vecty.Markup(vecty.Data("testid", "ask-simulate"), prop.Disabled(!p.Ready), event.Click(func(*vecty.Event) { d(store.AskSimulate{N: 20}) })), vecty.Text("Simulate 20 answers")),
			elem.Label(vecty.Text("by "+p.refName()+", wrong "),
				elem.Input(vecty.Markup(prop.Type(prop.TypeNumber), vecty.Data("testid", "ask-sim-rate"), vecty.Class("short"), vecty.Attribute("min", 0), vecty.Attribute("max", 0.5), vecty.Attribute("step", 0.05),
					prop.Value(strconv.FormatFloat(p.SimRate, 'g', -1, 64)),
					event.Change(func(e *vecty.Event) {
						if v, ok := number(d, "the simulated error rate", e.Target.Get("value").String(), simRateRange); ok {
							d(store.AskSimRate{Rate: v})
						}
					}))),
				vecty.Text(" of the time")),
		),
		elem.Div(vecty.Markup(vecty.Class("row")),
			elem.Label(vecty.Text("Your name, for the file (optional) "), elem.Input(vecty.Markup(prop.Type(prop.TypeText), vecty.Data("testid", "ask-name"), vecty.Class("short"),
				vecty.Attribute("maxlength", 40), prop.Value(p.Name), event.Change(func(e *vecty.Event) { d(store.AskName{Name: e.Target.Get("value").String()}) })))),
			elem.Button(vecty.Markup(vecty.Data("testid", "ask-save"), prop.Disabled(p.View.Answered == 0), event.Click(func(*vecty.Event) { save() })), vecty.Text("Save my answers")),
			elem.Label(vecty.Text("A class's answers: "), elem.Input(vecty.Markup(prop.Type(prop.TypeFile), vecty.Data("testid", "ask-files"), vecty.Attribute("multiple", true), vecty.Attribute("accept", ".csv,text/csv"),
				event.Change(func(e *vecty.Event) { open(e.Target.Get("files")); e.Target.Set("value", "") })))),
			elem.Button(vecty.Markup(vecty.Class("mini"), vecty.Data("testid", "ask-forget"), event.Click(func(*vecty.Event) {
				// Forgetting cannot be undone: the browser asks first.
				if js.Global().Call("confirm", "Forget your "+itoa(p.View.Answered)+" answers to these "+p.Set+"? This cannot be undone.").Bool() {
					d(store.AskForget{})
				}
			})), vecty.Text("Forget my answers")),
		),
		askWeights(p, d),
		vecty.If(len(class) > 0, elem.UnorderedList(append([]vecty.MarkupOrChild{vecty.Markup(vecty.Data("testid", "ask-class"))}, class...)...)),
		elem.Paragraph(vecty.Markup(vecty.Class("hint")), vecty.Text("Your answers stay in this browser; nothing leaves the page. A saved file is the page's triplet file, with its colours' seed in its header: a class's files dropped here together are learned from as one, with each file's own error rate.")),
	)
}
