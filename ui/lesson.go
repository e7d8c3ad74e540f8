//go:build js && wasm

package ui

import (
	"syscall/js"

	"github.com/hexops/vecty"
	"github.com/hexops/vecty/elem"
	"github.com/hexops/vecty/event"
	"github.com/hexops/vecty/prop"

	"github.com/rml-lab/rml/ui/store"
)

// The lessons (store.Presets) as a menu with what to look for, and the
// guide for students. The guide's text and MathML live in index.html (a
// <template>), so they cost the wasm binary nothing and show without it.

// LessonProps is what the lesson panel shows.
type LessonProps struct {
	Params store.Params
	Asking bool // the Ask-me mode is on
	Data   bool // a dataset is loaded: Ask me can ask about its rows
}

// lessonHead is the stage's head: the lesson menu, what to look for, and
// the way into the guide.
func lessonHead(p LessonProps, d func(store.Action)) *vecty.HTML {
	opts := []vecty.MarkupOrChild{vecty.Markup(vecty.Data("testid", "preset"), vecty.Attribute("aria-label", "lesson"),
		event.Change(func(e *vecty.Event) { d(store.ApplyPreset{Key: e.Target.Get("value").String()}) })),
		elem.Option(vecty.Markup(prop.Value(""), vecty.Property("selected", p.Params.Preset == "")), vecty.Text("Choose a lesson…"))}
	for _, pr := range store.Presets {
		opts = append(opts, elem.Option(vecty.Markup(prop.Value(pr.Key), vecty.Property("selected", pr.Key == p.Params.Preset)), vecty.Text(pr.Title)))
	}
	var text vecty.ComponentOrHTML
	if pr, ok := store.PresetNamed(p.Params.Preset); ok && !p.Params.View.Hides("lesson") && !p.Asking {
		changed := ""
		if q := p.Params; q != withPreset(pr) {
			changed = " (You have changed the settings since: the numbers above are the lesson's, not necessarily yours.)"
		}
		text = elem.Paragraph(vecty.Markup(vecty.Data("testid", "preset-text"), vecty.Class("lesson-text")), vecty.Text(pr.Text+changed))
	}
	return elem.Div(vecty.Markup(vecty.Class("stage-head")),
		elem.Div(vecty.Markup(vecty.Class("row")),
			vecty.If(!p.Params.View.Hides("lesson"), elem.Label(vecty.Text("Lesson "), elem.Select(opts...))),
			vecty.If(!p.Params.View.Hides("lesson") && !p.Asking, elem.Button(vecty.Markup(vecty.Data("testid", "ask"),
				vecty.Attribute("title", "Answer which of two colours is more like a third, and watch a metric learn from your answers"),
				event.Click(func(*vecty.Event) { d(store.AskOpen{Set: "colours", Saved: keptAnswers("colours", p.Params.Seed)}) })), vecty.Text("Ask me"))),
			vecty.If(!p.Params.View.Hides("lesson") && !p.Asking && p.Data, elem.Button(vecty.Markup(vecty.Class("link"), vecty.Data("testid", "ask-data"),
				event.Click(func(*vecty.Event) { d(store.AskOpen{Set: "data"}) })), vecty.Text("Ask me about these rows"))),
			vecty.If(!p.Params.View.Hides("guide"), elem.Button(vecty.Markup(vecty.Class("link"), vecty.Data("testid", "open-guide"),
				vecty.Attribute("aria-controls", "guide"),
				event.Click(func(*vecty.Event) { openGuide() })), vecty.Text("What am I looking at?")))),
		text,
	)
}

// openGuide opens the guide below the stage and brings it into view. The
// guide renders once and keeps its open state in the page (Guide), so
// this sets it there.
func openGuide() {
	g := js.Global().Get("document").Call("getElementById", "guide")
	if g.IsNull() {
		return
	}
	g.Set("open", true)
	g.Call("scrollIntoView", map[string]any{"behavior": "smooth", "block": "start"})
	if s := g.Call("querySelector", "summary"); !s.IsNull() {
		s.Call("focus", map[string]any{"preventScroll": true})
	}
}

func withPreset(pr store.Preset) store.Params {
	p := pr.Params
	p.Preset = pr.Key
	return p
}

// Guide is the students' guide, copied once from index.html's template.
// It starts closed: the stage's "What am I looking at?" opens it.
type Guide struct{ vecty.Core }

func (g *Guide) SkipRender(vecty.Component) bool { return true }

func (g *Guide) Render() vecty.ComponentOrHTML {
	html := ""
	if t := js.Global().Get("document").Call("getElementById", "guide-src"); !t.IsNull() {
		html = t.Get("innerHTML").String()
	}
	return elem.Details(vecty.Markup(vecty.Class("panel", "guide"), vecty.Data("testid", "guide"), prop.ID("guide")),
		elem.Summary(vecty.Text("What am I looking at?")),
		elem.Div(vecty.Markup(vecty.UnsafeHTML(html))))
}
