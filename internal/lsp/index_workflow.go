package lsp

import (
	"sort"

	"github.com/wfc-lang/wfc/ast"
	"github.com/wfc-lang/wfc/diag"
)

func (ix *index) workflow(file string, w *ast.Workflow) {
	wn := w.Name.Name
	ix.add(occurrence{sym: symbol{kWorkflow, wn}, file: file, rng: w.Name.Range, def: true, decl: w})
	events := map[string]*ast.Event{}
	for _, e := range w.Events {
		if e.Name == nil {
			continue
		}
		if _, dup := events[e.Name.Name]; !dup {
			events[e.Name.Name] = e
		}
		ix.add(occurrence{sym: symbol{kEvent, wn + "." + e.Name.Name}, file: file, rng: e.Name.Range, def: true, decl: e})
		ix.params(file, e.Params)
	}
	states := map[string]bool{}
	for _, s := range w.States {
		if s.Name != nil {
			states[s.Name.Name] = true
			ix.add(occurrence{sym: symbol{kState, wn + "." + s.Name.Name}, file: file, rng: s.Name.Range, def: true, decl: s})
		}
	}
	stateRef := func(id *ast.Ident) {
		if id != nil && states[id.Name] {
			ix.add(occurrence{sym: symbol{kState, wn + "." + id.Name}, file: file, rng: id.Range})
		}
	}
	for _, set := range w.Settings {
		ix.setting(file, wn, set, stateRef)
	}
	for _, s := range w.States {
		ix.state(file, wn, s, events, stateRef)
	}
}

// setting records `Tracks = Entity.Field` and `Initial = State`.
func (ix *index) setting(file, wn string, set *ast.Setting, stateRef func(*ast.Ident)) {
	if set.Name == nil || set.Value == nil {
		return
	}
	switch set.Name.Name {
	case "Initial":
		if n, ok := ast.Unparen(set.Value).(*ast.Name); ok {
			stateRef(&ast.Ident{Range: n.Range, Name: n.Name})
		}
	case "Tracks":
		sel, ok := ast.Unparen(set.Value).(*ast.Selector)
		if !ok {
			return
		}
		n, ok := sel.X.(*ast.Name)
		if !ok {
			return
		}
		if _, ok := ix.decls[n.Name].(*ast.Entity); ok {
			ix.add(occurrence{sym: symbol{kEntity, n.Name}, file: file, rng: n.Range})
			ix.add(occurrence{sym: symbol{kField, n.Name + "." + sel.Sel.Name}, file: file, rng: sel.Sel.Range})
		}
	}
}

func (ix *index) state(file, wn string, s *ast.State, events map[string]*ast.Event, stateRef func(*ast.Ident)) {
	if s.Name == nil {
		return
	}
	slots := map[string]*ast.Subscribe{}
	for _, sub := range s.Subscribes {
		if sub.Event == nil {
			continue
		}
		if _, ok := events[sub.Event.Name]; ok {
			ix.add(occurrence{sym: symbol{kEvent, wn + "." + sub.Event.Name}, file: file, rng: sub.Event.Range})
		}
		ix.params(file, sub.Params)
		if sub.Alias != nil {
			ix.add(occurrence{sym: symbol{kAlias, wn + "." + s.Name.Name + "." + sub.Alias.Name}, file: file, rng: sub.Alias.Range, def: true, decl: sub})
		}
		if _, dup := slots[sub.Slot().Name]; !dup {
			slots[sub.Slot().Name] = sub
		}
		for _, m := range sub.Milestones {
			for _, o := range m.Outcomes {
				ix.block(file, wn, o.Body, nil, stateRef)
			}
		}
	}
	for _, h := range s.Handlers {
		if h.Name == nil {
			continue
		}
		sub := slots[h.Name.Name]
		var ev *ast.Event
		switch {
		case sub != nil && sub.Alias != nil:
			ix.add(occurrence{sym: symbol{kAlias, wn + "." + s.Name.Name + "." + h.Name.Name}, file: file, rng: h.Name.Range})
			ev = events[sub.Event.Name]
		case events[h.Name.Name] != nil:
			ev = events[h.Name.Name]
			ix.add(occurrence{sym: symbol{kEvent, wn + "." + h.Name.Name}, file: file, rng: h.Name.Range})
		}
		ix.params(file, h.Params)
		enum := ix.enumParam(h.Params)
		if enum == nil && ev != nil {
			enum = ix.enumParam(ev.Params)
		}
		ix.block(file, wn, h.Body, enum, stateRef)
	}
}

// block records gotos, case labels and durable step names.
func (ix *index) block(file, wn string, b *ast.Block, enum *ast.Enum, stateRef func(*ast.Ident)) {
	if b == nil {
		return
	}
	for _, st := range b.Stmts {
		switch st := st.(type) {
		case *ast.Goto:
			stateRef(st.Target)
		case *ast.Default:
			ix.block(file, wn, st.Body, nil, stateRef)
		case *ast.Case:
			if enum != nil && enum.Name != nil && st.Label != nil {
				for _, m := range enum.Members {
					if m.Name == st.Label.Name {
						ix.add(occurrence{sym: symbol{kMember, enum.Name.Name + "." + m.Name}, file: file, rng: st.Label.Range})
					}
				}
			}
			ix.block(file, wn, st.Body, nil, stateRef)
		case *ast.CallStmt:
			ix.step(file, wn, st)
			ix.block(file, wn, st.Body, nil, stateRef)
		}
	}
}

// step records a durable step's name: the string's contents, quotes excluded.
func (ix *index) step(file, wn string, st *ast.CallStmt) {
	if st.Body == nil || st.Call == nil || len(st.Call.Args) == 0 {
		return
	}
	if name, _ := ast.DottedName(st.Call.Fun); name != "Workflow.Once" {
		return
	}
	lit, ok := ast.Unparen(st.Call.Args[0].Value).(*ast.StringLit)
	if !ok || lit.Bad || lit.Range.End.Offset-lit.Range.Start.Offset < 2 {
		return
	}
	r := lit.Range
	r.Start.Offset++
	r.Start.Column++
	r.End.Offset--
	r.End.Column--
	ix.add(occurrence{sym: symbol{kStep, wn + "." + lit.Value}, file: file, rng: r, def: true, decl: st})
}

// at returns the occurrence whose name contains offset off of file (its
// end included, so a cursor just after a name finds it).
func (ix *index) at(file string, off int) *occurrence {
	i := sort.Search(len(ix.occ), func(i int) bool {
		o := ix.occ[i]
		return o.file > file || (o.file == file && int(o.rng.End.Offset) >= off)
	})
	for ; i < len(ix.occ) && ix.occ[i].file == file; i++ {
		o := &ix.occ[i]
		if int(o.rng.Start.Offset) > off {
			break
		}
		if int(o.rng.Start.Offset) <= off && off <= int(o.rng.End.Offset) {
			return o
		}
	}
	return nil
}

// all returns every occurrence of sym, declarations first.
func (ix *index) all(sym symbol) []*occurrence {
	var defs, refs []*occurrence
	for _, i := range ix.byName[sym] {
		if o := &ix.occ[i]; o.def {
			defs = append(defs, o)
		} else {
			refs = append(refs, o)
		}
	}
	return append(defs, refs...)
}

// containing is the innermost range of rs containing off, for hovers.
func contains(r diag.Range, off int) bool {
	return int(r.Start.Offset) <= off && off <= int(r.End.Offset)
}
