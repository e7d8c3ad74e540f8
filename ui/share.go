//go:build js && wasm

package ui

import (
	"syscall/js"

	"github.com/hexops/vecty"
	"github.com/hexops/vecty/elem"
	"github.com/hexops/vecty/event"

	"github.com/rml-lab/rml/ui/store"
)

// Embed code's frame: as wide as the course page's column allows (up to
// the stage's two-column width), and tall enough for the stage until the
// widget posts its real height (boot.js), which the snippet's script sets.
const (
	embedMaxWidth = 960
	embedHeight   = 760
)

// embedHide is what an embed hides unless the page hides something
// itself: a course page shows the lesson and its data, so the upload and
// the solver's own settings (method, tolerance) are left out; the rest
// stays one click away in the fold.
const embedHide = "upload,method,tol"

// embedScript sizes every widget frame of the page (class rml-widget)
// from the height its page posts; pasted twice, it does the same twice.
const embedScript = `<script>addEventListener("message",function(e){if(!e.data||e.data.type!=="rml-height")return;` +
	`document.querySelectorAll("iframe.rml-widget").forEach(function(f){if(f.contentWindow===e.source)f.style.height=e.data.height+"px"})});</script>`

// linkFor is the page's address with settings p shown as view v.
func linkFor(p store.Params, v store.View) string {
	loc := js.Global().Get("location")
	p.View = v
	return loc.Get("origin").String() + loc.Get("pathname").String() + "#" + store.EncodeURL(p)
}

// embedCode is the snippet for settings p: an <iframe> with embed=1 and
// p's hide list (embedHide if p hides nothing), which trains at once as
// every link does, and the few lines of script that size it.
func embedCode(p store.Params) string {
	hide := p.View.Hide
	if hide == "" {
		hide = embedHide
	}
	src := linkFor(p, store.View{Embed: true, Hide: hide})
	return `<iframe class="rml-widget" src="` + htmlAttr(src) + `" title="Robust metric learning" style="width:100%;max-width:` + itoa(embedMaxWidth) +
		`px;height:` + itoa(embedHeight) + `px;border:0" loading="lazy"></iframe>` + "\n" + embedScript
}

// htmlAttr escapes s for a double-quoted attribute.
func htmlAttr(s string) string {
	var b []byte
	for i := 0; i < len(s); i++ {
		switch c := s[i]; c {
		case '&':
			b = append(b, "&amp;"...)
		case '"':
			b = append(b, "&quot;"...)
		case '<':
			b = append(b, "&lt;"...)
		default:
			b = append(b, c)
		}
	}
	return string(b)
}

// share makes the link or the embed code for the current settings, puts it
// on the clipboard if the browser allows, and shows it either way.
func (g *glue) share(kind string) {
	text := linkFor(g.state.Params, store.View{}) // the full page
	if kind == "embed" {
		text = embedCode(g.state.Params)
	}
	sh := store.Share{Kind: kind, Text: text, File: g.state.Params.Dataset == ""}
	clip := js.Global().Get("navigator").Get("clipboard")
	if clip.Truthy() {
		var ok, fail js.Func
		done := func(copied bool) {
			ok.Release()
			fail.Release()
			sh.Copied = copied
			g.Dispatch(sh)
		}
		ok = js.FuncOf(func(js.Value, []js.Value) any { done(true); return nil })
		fail = js.FuncOf(func(js.Value, []js.Value) any { done(false); return nil })
		clip.Call("writeText", text).Call("then", ok, fail)
		return
	}
	g.Dispatch(sh)
}

// shareRow is the Copy link and Copy embed code buttons and what they gave.
// full is the full page's link, offered in an embed ("" elsewhere).
func shareRow(sh *store.Shared, full string, share func(kind string)) *vecty.HTML {
	var out vecty.MarkupOrChild
	if sh != nil {
		how := "Copied to the clipboard."
		if !sh.Copied {
			how = "The browser did not allow the clipboard: copy it from the box."
		}
		if sh.File {
			how += " A link carries the settings, not an uploaded file: it opens on the default dataset."
		}
		out = elem.Div(vecty.Markup(vecty.Class("shared")),
			elem.TextArea(vecty.Markup(vecty.Data("testid", map[string]string{"link": "share-text", "embed": "embed-code"}[sh.Kind]), vecty.Attribute("readonly", true), vecty.Attribute("rows", 3),
				vecty.Attribute("aria-label", map[string]string{"link": "the link", "embed": "the embed code"}[sh.Kind]),
				vecty.Property("value", sh.Text)), vecty.Text(sh.Text)),
			elem.Span(vecty.Markup(vecty.Class("hint"), vecty.Data("testid", "share-status")), vecty.Text(how)))
	}
	return elem.Div(vecty.Markup(vecty.Class("share")),
		elem.Button(vecty.Markup(vecty.Data("testid", "copy-link"), vecty.Attribute("title", "a link to this page with every setting and the seed"),
			event.Click(func(*vecty.Event) { share("link") })), vecty.Text("Copy link")),
		elem.Button(vecty.Markup(vecty.Data("testid", "copy-embed"), vecty.Attribute("title", "an <iframe> for a course page: compact, trains on open"),
			event.Click(func(*vecty.Event) { share("embed") })), vecty.Text("Copy embed code")),
		vecty.If(full != "", elem.Anchor(vecty.Markup(vecty.Attribute("href", full), vecty.Attribute("target", "_blank"), vecty.Attribute("rel", "noopener")),
			vecty.Text("Open the full page"))),
		out,
	)
}
