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
	View                     store.View // which controls are hidden
}

func dataProps(s *store.State) DataProps {
	return DataProps{Ready: s.Ready, Loading: s.Loading, Builtins: s.Builtins, Dataset: s.Params.Dataset, Label: s.Params.Label,
		FileName: s.FileName, Data: s.Data, Failed: s.Failed, Columns: s.Columns, Preview: s.Preview, Header: s.Header, View: s.Params.View}
}

// DataPanel is panel 1: the dataset, the file, the label column, a preview.
// Open reads the files of a file input or a drop (the glue does that).
type DataPanel struct {
	vecty.Core
	Props    DataProps            `vecty:"prop"`
	Dispatch func(store.Action)   `vecty:"prop"`
	Open     func(files js.Value) `vecty:"prop"`
	dragging bool
}

// SkipRender skips the panel while nothing it shows changed.
func (p *DataPanel) SkipRender(prev vecty.Component) bool {
	q, ok := prev.(*DataPanel)
	return ok && reflect.DeepEqual(q.Props, p.Props) && q.dragging == p.dragging
}

func (p *DataPanel) Render() vecty.ComponentOrHTML {
	s, d := p.Props, p.Dispatch
	var opts []vecty.MarkupOrChild
	opts = append(opts, vecty.Markup(vecty.Data("testid", "dataset-select"), vecty.Attribute("aria-label", "dataset"),
		prop.Disabled(!s.Ready),
		event.Change(func(e *vecty.Event) {
			if v := e.Target.Get("value").String(); v != "" {
				d(store.SelectBuiltin{Name: v})
			}
		})))
	for _, b := range s.Builtins {
		opts = append(opts, elem.Option(vecty.Markup(prop.Value(b), vecty.Property("selected", b == s.Dataset)), vecty.Text(b)))
	}
	if s.Dataset == "" {
		opts = append(opts, elem.Option(vecty.Markup(prop.Value(""), vecty.Property("selected", true)), vecty.Text("Your file: "+s.FileName)))
	}
	if !s.Ready {
		opts = append(opts, elem.Option(vecty.Text("starting the solver…")))
	}
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
		elem.Small(vecty.Text(" or drop one here. Numeric features, one label column; a header row, commas, semicolons or tabs are detected. A saved run (.json) opens again.")),
	)

	var failed vecty.MarkupOrChild
	if f := s.Failed; f != nil {
		kept := "No dataset is loaded."
		if s.Data != nil {
			kept = s.Data.Name + " stays loaded."
		}
		failed = elem.Paragraph(vecty.Markup(vecty.Class("failed"), vecty.Data("testid", "failed-file")),
			vecty.Text(f.FileName+" could not be read (see the message above); "+kept+" Choose its label column, or fix the file and upload it again. Its first rows:"))
	}
	return panel("1 · Data", "data",
		vecty.If(!s.View.Hides("dataset"), elem.Label(vecty.Text("Dataset "), elem.Select(opts...))),
		vecty.If(!s.View.Hides("upload"), drop),
		labelChoice(s, d),
		summary(s),
		failed,
		preview(s),
	)
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
	note := "the last column unless you choose another"
	if builtin {
		note = "fixed for the built-in datasets"
	}
	return elem.Label(vecty.Text("Label column "), elem.Select(opts...), elem.Small(vecty.Text(" "+note)))
}

func summary(s DataProps) *vecty.HTML {
	if s.Loading {
		return elem.Paragraph(vecty.Markup(vecty.Class("summary")), vecty.Text("Loading…"))
	}
	ds := s.Data
	if ds == nil {
		return elem.Paragraph(vecty.Markup(vecty.Class("summary")))
	}
	var counts []string
	for i, c := range ds.Classes {
		counts = append(counts, c+" "+strconv.Itoa(ds.ClassCounts[i]))
	}
	return elem.Paragraph(vecty.Markup(vecty.Class("summary")),
		vecty.Text(ds.Name+": "+itoa(ds.Rows)+" rows, "+itoa(len(ds.Features))+" features, label “"+ds.LabelName+"” with "+itoa(len(ds.Classes))+
			" classes ("+strings.Join(counts, ", ")+"); "+itoa(ds.Train)+" rows train, "+itoa(ds.Test)+" are held out for the test error."))
}

// preview shows the first rows as read: all of it text, never markup.
func preview(s DataProps) vecty.MarkupOrChild {
	if len(s.Preview) == 0 {
		return nil
	}
	const maxCols = 12
	var rows []vecty.MarkupOrChild
	for i, r := range s.Preview {
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
