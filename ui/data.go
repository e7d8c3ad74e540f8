//go:build js && wasm

package ui

import (
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
	"github.com/rml-lab/rml/wasm/protocol"
)

// DataProps is what the data panel shows.
type DataProps struct {
	Ready, Loading           bool
	Builtins                 []string
	Dataset, Label, FileName string            // the current source
	Data                     *protocol.Dataset // the loaded dataset, nil if none
	Failed                   *store.Failed     // a file that could not be read
	Columns                  []string          // of the last file read
	Preview                  [][]string
	Header                   bool
	Table                    protocol.Table // of Columns
	Read                     store.Read     // how the file is read (the failed file's, if one failed)
	View                     store.View     // which controls are hidden
	// The page's message, when it is about the file (store.MessageAt):
	// shown here, beside the file, not at the top of the page.
	MessageHere bool
	Message     string
	Notice      bool
}

func dataProps(s *store.State) DataProps {
	read := s.Read
	if s.Failed != nil {
		read = s.Failed.Read
	}
	return DataProps{Ready: s.Ready, Loading: s.Loading, Builtins: s.Builtins, Dataset: s.Params.Dataset, Label: s.Params.Label,
		FileName: s.FileName, Data: s.Data, Failed: s.Failed, Columns: s.Columns, Preview: s.Preview, Header: s.Header,
		Table: s.Table, Read: read, View: s.Params.View,
		MessageHere: s.MessageAt == store.AtData && s.Message != "", Message: s.Message, Notice: s.Notice}
}

// same reports whether p and o show the same: the dataset and a failed
// file as pointers (a new one is a new pointer; comparing two datasets'
// rows by reflection cost the main thread tens of milliseconds), the rest
// by value.
func (p DataProps) same(o DataProps) bool {
	if p.Data != o.Data || p.Failed != o.Failed {
		return false
	}
	p.Data, p.Failed, o.Data, o.Failed = nil, nil, nil, nil
	return reflect.DeepEqual(p, o)
}

// DataPanel is panel 1: the dataset, the file, the label column, a preview.
// Open reads the files of a file input or a drop (the glue does that).
type DataPanel struct {
	vecty.Core
	Props    DataProps            `vecty:"prop"`
	Dispatch func(store.Action)   `vecty:"prop"`
	Open     func(files js.Value) `vecty:"prop"`
	dragging bool
	// The column chooser's rows are rendered only while it is open: a file
	// of 200 columns would otherwise cost a long render on every load.
	columnsOpen bool
	rendered    bool // it has been rendered: vecty.Rerender may be called on it
	// The preview table, one instance that the glue redraws on its own
	// before the panel (glue.redraw): a new dataset otherwise redrew the
	// panel and its table in one task.
	preview *Memo[PreviewProps]
}

// PreviewProps is what the preview table shows: the first rows as read.
type PreviewProps struct {
	Rows   [][]string
	Header bool
}

func (p PreviewProps) same(o PreviewProps) bool {
	return p.Header == o.Header && sameSlice(p.Rows, o.Rows)
}

func previewProps(s DataProps) PreviewProps { return PreviewProps{Rows: s.Preview, Header: s.Header} }

// setProps gives the panel s and reports whether it differs from its last
// props.
func (p *DataPanel) setProps(s DataProps) bool {
	if s.same(p.Props) {
		return false
	}
	p.Props = s
	return true
}

// SkipRender skips the panel while nothing it shows changed.
func (p *DataPanel) SkipRender(prev vecty.Component) bool {
	q, ok := prev.(*DataPanel)
	return ok && q.Props.same(p.Props) && q.dragging == p.dragging && q.columnsOpen == p.columnsOpen
}

func (p *DataPanel) Render() vecty.ComponentOrHTML {
	p.rendered = true
	markRender("data")
	s, d := p.Props, p.Dispatch
	drop := elem.Div(vecty.Markup(vecty.Class("drop"), vecty.MarkupIf(p.dragging, vecty.Class("dragging")),
		event.DragOver(func(e *vecty.Event) {
			if !p.dragging {
				p.dragging = true
				vecty.Rerender(p)
			}
		}).PreventDefault(),
		event.DragLeave(func(e *vecty.Event) {
			p.dragging = false
			vecty.Rerender(p)
		}),
		event.Drop(func(e *vecty.Event) {
			p.dragging = false
			vecty.Rerender(p)
			p.Open(e.Get("dataTransfer").Get("files"))
		}).PreventDefault(),
	),
		elem.Label(vecty.Markup(vecty.Class("file")),
			vecty.Text("Upload a CSV "),
			elem.Input(vecty.Markup(prop.Type(prop.TypeFile), vecty.Data("testid", "csv-input"),
				vecty.Attribute("accept", ".csv,.tsv,.txt,.json,text/csv,text/tab-separated-values,application/json"),
				event.Change(func(e *vecty.Event) {
					p.Open(e.Target.Get("files"))
					e.Target.Set("value", "")
				}))),
		),
		elem.Small(vecty.Text(" or drop one here. One label column; text columns (ids, names) are left out unless you choose otherwise under Columns; a header row, commas, semicolons or tabs are detected. A saved run (.json) opens again.")),
	)

	var failed vecty.MarkupOrChild
	if f := s.Failed; f != nil {
		kept := "No dataset is loaded, so Train is off."
		if s.Data != nil {
			kept = s.Data.Name + " stays loaded, and Train trains it."
		}
		failed = elem.Paragraph(vecty.Markup(vecty.Class("failed"), vecty.Data("testid", "failed-file")),
			vecty.Text(f.FileName+" could not be read (the reason is just above); "+kept+" Choose its label column, its columns or what to do with missing values, or fix the file and upload it again. Its first rows:"))
	}
	return panel("1 · Data", "data",
		elem.Paragraph(vecty.Markup(vecty.Class("hint")), vecty.Text("The dataset is chosen on the stage above; your own file, its columns and its missing values here.")),
		vecty.If(!s.View.Hides("upload"), drop),
		messageLine(s.Message, s.Notice, s.MessageHere),
		labelChoice(s, d),
		missingChoice(s, d),
		p.columnChooser(s, d),
		summary(s),
		failed,
		p.preview,
	)
}

// holes counts the missing cells of the columns that are read (not
// excluded, not the label).
func holes(s DataProps) int {
	n := 0
	for j, h := range s.Table.Holes {
		if r := role(s, j); r == "feature" || r == "one-hot" {
			n += h
		}
	}
	return n
}

// missingChoice is what to do with missing values (NA, ?, NaN, empty):
// refuse the file, drop the rows, or fill them with the training mean.
// Shown when the file has some, or a choice was made.
func missingChoice(s DataProps, d func(store.Action)) vecty.MarkupOrChild {
	n := holes(s)
	if n == 0 && s.Read.Missing == "" {
		return nil
	}
	opts := []vecty.MarkupOrChild{vecty.Markup(vecty.Data("testid", "missing"),
		event.Change(func(e *vecty.Event) { d(store.SetMissing{Value: e.Target.Get("value").String()}) }))}
	for _, o := range []struct{ value, text string }{{"", "refuse the file"}, {"drop", "drop those rows"}, {"mean", "fill with the training mean"}} {
		opts = append(opts, elem.Option(vecty.Markup(prop.Value(o.value), vecty.Property("selected", o.value == s.Read.Missing)), vecty.Text(o.text)))
	}
	return elem.Label(vecty.Text("Missing values "), elem.Select(opts...),
		elem.Small(vecty.Markup(vecty.Data("testid", "missing-count")), vecty.Text(" "+plural(n, "missing cell", "missing cells")+" (NA, ?, NaN or empty) in the columns read")))
}

func plural(n int, one, many string) string {
	if n == 1 {
		return "1 " + one
	}
	return itoa(n) + " " + many
}

// columnKey names column j as the worker takes it: its header name, or
// its 0-based index in a file without a header.
func columnKey(s DataProps, j int) string {
	if s.Header {
		return s.Columns[j]
	}
	return strconv.Itoa(j)
}

// role is column j's role, as the worker read it (or, for a file that
// failed, as far as the reading could be granted).
func role(s DataProps, j int) string {
	if j < len(s.Table.Roles) && s.Table.Roles[j] != "" {
		return s.Table.Roles[j]
	}
	return "excluded" // the file's label column was not found: nothing was assigned
}

// columnChooser lists every column with its kind, distinct values and
// missing cells, and lets the user choose its role: a feature, left out,
// one-hot encoded (up to 12 values), or the rows' id (for a triplet file).
func (p *DataPanel) columnChooser(s DataProps, d func(store.Action)) vecty.MarkupOrChild {
	t := s.Table
	if len(t.Kinds) != len(s.Columns) || len(s.Columns) == 0 {
		return nil
	}
	count := map[string]int{}
	for j := range s.Columns {
		count[role(s, j)]++
	}
	summary := plural(count["feature"], "feature", "features")
	for _, r := range []struct{ role, text string }{{"one-hot", "one-hot"}, {"excluded", "left out"}, {"id", "id"}} {
		if count[r.role] > 0 {
			summary += ", " + itoa(count[r.role]) + " " + r.text
		}
	}
	var rows []vecty.MarkupOrChild
	if p.columnsOpen {
		rows = append(rows, elem.TableRow(elem.TableHeader(vecty.Text("Column")), elem.TableHeader(vecty.Text("Values")), elem.TableHeader(vecty.Text("Use as"))))
		for j, c := range s.Columns {
			rows = append(rows, p.columnRow(s, d, j, c))
		}
	}
	return elem.Details(vecty.Markup(vecty.Data("testid", "columns"), vecty.Class("columns"), vecty.Property("open", p.columnsOpen),
		&vecty.EventListener{Name: "toggle", Listener: func(e *vecty.Event) {
			if open := e.Target.Get("open").Bool(); open != p.columnsOpen {
				p.columnsOpen = open
				vecty.Rerender(p)
			}
		}}),
		elem.Summary(vecty.Text("Columns: "+summary)),
		vecty.If(p.columnsOpen, elem.Div(vecty.Markup(vecty.Class("preview")), elem.Table(rows...))),
	)
}

func (p *DataPanel) columnRow(s DataProps, d func(store.Action), j int, name string) *vecty.HTML {
	t := s.Table
	kind, levels := t.Kinds[j], t.Levels[j]
	what := kind
	switch {
	case kind == "empty":
		what = "empty"
	case levels > spec.MaxLevels:
		what += ", many values"
	default:
		what += ", " + plural(levels, "value", "values")
	}
	if t.Holes[j] > 0 {
		what += ", " + itoa(t.Holes[j]) + " missing"
	}
	current := role(s, j)
	var use vecty.MarkupOrChild = vecty.Text(current)
	if current != "label" {
		key := columnKey(s, j)
		opts := []vecty.MarkupOrChild{vecty.Markup(vecty.Data("testid", "role-"+strconv.Itoa(j)), vecty.Attribute("aria-label", "use of column "+name),
			event.Change(func(e *vecty.Event) { d(store.SetRole{Column: key, Role: e.Target.Get("value").String()}) }))}
		for _, r := range []struct {
			role, text string
			ok         bool
		}{
			{"feature", "feature", kind == "number"},
			{"excluded", "left out", true},
			{"one-hot", "one-hot (a 0/1 feature per value)", kind != "empty" && levels <= spec.MaxLevels},
			{"id", "row id (for a triplet file)", kind != "empty"},
		} {
			if r.ok || r.role == current {
				opts = append(opts, elem.Option(vecty.Markup(prop.Value(r.role), vecty.Property("selected", r.role == current)), vecty.Text(r.text)))
			}
		}
		use = elem.Select(opts...)
	}
	return elem.TableRow(elem.TableData(vecty.Text(name)), elem.TableData(vecty.Text(what)), elem.TableData(use))
}

func labelChoice(s DataProps, d func(store.Action)) *vecty.HTML {
	builtin := s.Dataset != "" && s.Failed == nil
	current := s.Label
	if s.Data != nil {
		current = s.Data.LabelName
	}
	if s.Failed != nil {
		current = s.Failed.Label // a name, an index, or "" (the last)
	}
	opts := []vecty.MarkupOrChild{vecty.Markup(vecty.Data("testid", "label-select"), prop.Disabled(builtin || len(s.Columns) == 0),
		event.Change(func(e *vecty.Event) { d(store.ChooseLabel{Column: e.Target.Get("value").String()}) }))}
	for j, c := range s.Columns {
		// Without a header the worker takes the label by index.
		value := c
		if !s.Header {
			value = strconv.Itoa(j)
		}
		selected := c == current || value == current || (current == "" && j == len(s.Columns)-1)
		opts = append(opts, elem.Option(vecty.Markup(prop.Value(value), vecty.Property("selected", selected)), vecty.Text(c)))
	}
	note := "the last column (or a first column of class names, when the last holds numbers) unless you choose another"
	if builtin {
		note = "fixed for the built-in datasets"
	}
	return elem.Label(vecty.Text("Label column "), elem.Select(opts...), elem.Small(vecty.Text(" "+note)))
}

func summary(s DataProps) *vecty.HTML {
	if s.Loading {
		return elem.Paragraph(vecty.Markup(vecty.Class("summary"), vecty.Data("testid", "summary")), vecty.Text("Loading…"))
	}
	ds := s.Data
	if ds == nil {
		return elem.Paragraph(vecty.Markup(vecty.Class("summary"), vecty.Data("testid", "summary")))
	}
	var counts []string
	for i, c := range ds.Classes {
		counts = append(counts, c+" "+strconv.Itoa(ds.ClassCounts[i]))
	}
	return elem.Paragraph(vecty.Markup(vecty.Class("summary"), vecty.Data("testid", "summary")),
		vecty.Text(ds.Name+": "+itoa(ds.Rows)+" rows, "+itoa(len(ds.Features))+" features, label “"+ds.LabelName+"” with "+itoa(len(ds.Classes))+
			" classes ("+strings.Join(counts, ", ")+"); "+itoa(ds.Train)+" rows train, "+itoa(ds.Test)+" are held out for the test error."))
}

// preview shows the first rows as read: all of it text, never markup.
func preview(s PreviewProps) *vecty.HTML {
	if len(s.Rows) == 0 {
		return elem.Div()
	}
	const maxCols = 12
	var rows []vecty.MarkupOrChild
	for i, r := range s.Rows {
		var cells []vecty.MarkupOrChild
		for j, c := range r {
			if j == maxCols {
				cells = append(cells, elem.TableData(vecty.Text("… "+itoa(len(r)-maxCols)+" more")))
				break
			}
			if i == 0 && s.Header {
				cells = append(cells, elem.TableHeader(vecty.Text(c)))
			} else {
				cells = append(cells, elem.TableData(vecty.Text(c)))
			}
		}
		rows = append(rows, elem.TableRow(cells...))
	}
	// Focusable, so that a keyboard can scroll a wide preview.
	return elem.Div(vecty.Markup(vecty.Class("preview"), vecty.Attribute("tabindex", 0), vecty.Attribute("role", "region"), vecty.Attribute("aria-label", "preview of the file")),
		elem.Table(append([]vecty.MarkupOrChild{vecty.Markup(vecty.Data("testid", "preview"))}, rows...)...))
}

func (p *DataPanel) wasRendered() bool { return p.rendered }
