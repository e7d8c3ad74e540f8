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
}

func lessonPanel(p LessonProps, d func(store.Action)) *vecty.HTML {
	opts := []vecty.MarkupOrChild{vecty.Markup(vecty.Data("testid", "preset"), vecty.Attribute("aria-label", "lesson"),
		event.Change(func(e *vecty.Event) { d(store.ApplyPreset{Key: e.Target.Get("value").String()}) })),
		elem.Option(vecty.Markup(prop.Value(""), vecty.Property("selected", p.Params.Preset == "")), vecty.Text("Choose a lesson…"))}
	for _, pr := range store.Presets {
		opts = append(opts, elem.Option(vecty.Markup(prop.Value(pr.Key), vecty.Property("selected", pr.Key == p.Params.Preset)), vecty.Text(pr.Title)))
	}
	var text vecty.MarkupOrChild
	if pr, ok := store.PresetNamed(p.Params.Preset); ok {
		changed := ""
		if q := p.Params; q != withPreset(pr) {
			changed = " (You have changed the settings since: the numbers above are the lesson's, not necessarily yours.)"
		}
		text = elem.Paragraph(vecty.Markup(vecty.Data("testid", "preset-text"), vecty.Class("lesson-text")), vecty.Text(pr.Text+changed))
	}
	return panel("Lessons", "lesson",
		elem.Label(vecty.Text("Lesson "), elem.Select(opts...)),
		text,
		elem.Paragraph(vecty.Markup(vecty.Class("hint")), vecty.Text("Each lesson is a link (#preset=…): its settings, its seed and what to look for.")),
	)
}

func withPreset(pr store.Preset) store.Params {
	p := pr.Params
	p.Preset = pr.Key
	return p
}

// Guide is the students' guide, copied once from index.html's template.
type Guide struct{ vecty.Core }

func (g *Guide) SkipRender(vecty.Component) bool { return true }

func (g *Guide) Render() vecty.ComponentOrHTML {
	html := ""
	if t := js.Global().Get("document").Call("getElementById", "guide-src"); !t.IsNull() {
		html = t.Get("innerHTML").String()
	}
	return elem.Details(vecty.Markup(vecty.Class("panel", "guide"), vecty.Data("testid", "guide"), vecty.Property("open", true)),
		elem.Summary(vecty.Text("What am I looking at?")),
		elem.Div(vecty.Markup(vecty.UnsafeHTML(html))))
}
