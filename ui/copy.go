//go:build js && wasm

package ui

import "github.com/hexops/vecty"

// Vecty (v0.6.0) keeps, beside each component, a copy of the component as
// it last rendered, to hand to SkipRender; it makes the copy by the
// component's Copy method (vecty.Copier) or, without one, by a shallow copy
// of the whole struct. A shallow copy takes the embedded vecty.Core with
// it, and that Core holds the copy made at the render before, with that
// render's elements: every render a component ever made stayed reachable.
// After one 5,000 × 50 run the page held 37 MB live (a heap profile in
// Chromium: 11 MB of them the chart's curves, one per progress redraw),
// and each garbage collection marked all of it: 54 ms of main thread in
// one task. Every component of the page copies itself here without its
// Core, which is all the chain hangs on; SkipRender reads only the props.
// TestComponentsCopy checks that no component is left out, and e2e's
// TestRendersNotKept that redraws leave the live heap as it was.

func (a *App) Copy() vecty.Component         { c := *a; c.Core = vecty.Core{}; return &c }
func (c *Chart) Copy() vecty.Component       { d := *c; d.Core = vecty.Core{}; return &d }
func (p *DataPanel) Copy() vecty.Component   { c := *p; c.Core = vecty.Core{}; return &c }
func (p *Projections) Copy() vecty.Component { c := *p; c.Core = vecty.Core{}; return &c }
func (v *projView) Copy() vecty.Component    { c := *v; c.Core = vecty.Core{}; return &c }
func (h *Heatmap) Copy() vecty.Component     { c := *h; c.Core = vecty.Core{}; return &c }
func (m *Memo[P]) Copy() vecty.Component     { c := *m; c.Core = vecty.Core{}; return &c }
func (r *rangeInput) Copy() vecty.Component  { c := *r; c.Core = vecty.Core{}; return &c }
func (g *Guide) Copy() vecty.Component       { return &Guide{} }
func (v *miniView) Copy() vecty.Component    { c := *v; c.Core = vecty.Core{}; return &c }
