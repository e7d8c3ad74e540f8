//go:build js && wasm

package ui

import (
	"strconv"
	"syscall/js"

	"github.com/rml-lab/rml/ui/store"
)

// The Ask-me mode's answers in the browser's localStorage, one entry per
// item set and seed (store.AskSaved), written whenever they change: they
// are small (a line an answer) and must survive a closed tab. A browser
// that refuses storage (private mode, full) keeps them for the tab only.

// storage is window.localStorage, or undefined where reading it throws.
func storage() (st js.Value) {
	defer func() {
		if recover() != nil {
			st = js.Undefined()
		}
	}()
	return js.Global().Get("localStorage")
}

// keptAnswers is the answers kept for set's items drawn with seed, "" if
// none (a dataset's rows are asked for by their own key: AskWantsKept).
func keptAnswers(set string, seed uint64) string {
	if set == "data" {
		return ""
	}
	return kept("rml-ask:" + set + ":" + strconv.FormatUint(seed, 10))
}

// kept is the text kept under key, "" if none.
func kept(key string) (text string) {
	defer func() { recover() }() // storage that throws keeps nothing
	st := storage()
	if st.Type() != js.TypeObject {
		return ""
	}
	v := st.Call("getItem", key)
	if v.Type() != js.TypeString {
		return ""
	}
	return v.String()
}

// keepAnswers writes the answers when they changed since last written.
func (g *glue) keepAnswers() {
	key, text := g.state.AskSaved()
	if key == "" || g.askKept[key] == text {
		return
	}
	if g.askKept == nil {
		g.askKept = map[string]string{}
	}
	g.askKept[key] = text
	defer func() { recover() }()
	if st := storage(); st.Type() == js.TypeObject {
		if text == "" {
			st.Call("removeItem", key)
		} else {
			st.Call("setItem", key, text)
		}
	}
}

// saveAnswers downloads the answers as the page's triplet file.
func (g *glue) saveAnswers() {
	if name, text := g.state.AskFileText(); name != "" {
		js.Global().Call("rmlDownload", name, "text/csv", text)
	}
}

// openAnswers reads every file offered, then hands them to the store
// together.
func (g *glue) openAnswers(files js.Value) {
	// The FileList is live (the input is cleared once it has handed its
	// files on): take the files out of it first.
	n := files.Length()
	list := make([]js.Value, n)
	for i := range list {
		list[i] = files.Index(i)
	}
	got := make([]store.NamedText, 0, n)
	var next func(i int)
	next = func(i int) {
		if i == n {
			if len(got) > 0 {
				g.Dispatch(store.AskFiles{Files: got})
			}
			return
		}
		g.readOne(list[i], func(name, text string) {
			got = append(got, store.NamedText{Name: name, Text: text})
			next(i + 1)
		}, func() { next(i + 1) }) // a file that cannot be read is named; the others are still read
	}
	next(0)
}
