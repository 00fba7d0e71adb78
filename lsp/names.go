package lsp

import (
	"sort"

	"github.com/wfc-lang/wfc/ast"
	"github.com/wfc-lang/wfc/check"
	"github.com/wfc-lang/wfc/diag"
)

// Names, for navigation, rename, hovers and symbols, are read from the
// checker's model as the driver returns it (wfc.Result: each file's
// check.Info and the model's objects): what a name means is the checker's
// answer, so the editor and `wfc check` cannot disagree. Nothing here
// resolves a name or keeps an index of its own: a position is found by
// walking one file's tree down to the name under it, and the mentions of
// an object by reading the files' Info.

// symKind is what a name names.
type symKind int

const (
	kEnum symKind = iota
	kMember
	kEntity
	kField
	kWorkflow
	kState
	kEvent
	kAlias
	kStep
)

// symbol identifies one declared thing: the checker's object (so two
// declarations of one name are two symbols), its kind and its qualified
// name (`Order.Status` for a field, `JobFlow.Running` for a state), which
// symbols and hovers show.
type symbol struct {
	obj  check.Object
	kind symKind
	name string
}

// occurrence is one mention of a symbol: its declaration or a reference.
type occurrence struct {
	sym  symbol
	file string
	rng  diag.Range // the name itself (for a step: the string's contents)
	def  bool
	decl any // the declaring node, on the declaration
}

// info is the names of file in the snapshot (nil when there are none).
func (sn *snapshot) info(file string) *check.Info {
	if sn.res == nil {
		return nil
	}
	return sn.res.Info(file)
}

// model is the snapshot's model, or nil.
func (sn *snapshot) model() *check.Program {
	if sn.res == nil || sn.res.Checked == nil {
		return nil
	}
	return sn.res.Checked.Program
}

// fileOf is the tree of file in the snapshot, or nil.
func (sn *snapshot) fileOf(name string) *ast.File {
	if sn.res == nil || sn.res.Program == nil {
		return nil
	}
	for _, f := range sn.res.Program.Files {
		if f.Name == name {
			return f
		}
	}
	return nil
}

// at returns the occurrence whose name contains offset off of file (its
// end included, so a cursor just after a name finds it).
func (sn *snapshot) at(file string, off int) *occurrence {
	f, in := sn.fileOf(file), sn.info(file)
	if f == nil || in == nil {
		return nil
	}
	var found *occurrence
	var wf *ast.Workflow // the workflow the walk is in, for its steps
	ast.Inspect(f, func(n ast.Node) bool {
		if n == nil || found != nil {
			return false
		}
		if _, isFile := n.(*ast.File); !isFile && (int(n.Pos().Offset) > off || off > int(n.End().Offset)) {
			return false
		}
		switch n := n.(type) {
		case *ast.Workflow:
			wf = n
		case *ast.Ident:
			_, def := in.Defs[n]
			found = occurrenceOf(file, n, in.ObjectOf(n), n.Range, def)
		case *ast.Name:
			found = occurrenceOf(file, n, in.Uses[n], n.Range, false)
		case *ast.StringLit:
			// A test's `Fail("charge")` names a step by its string.
			if s, ok := in.Uses[n].(*check.Step); ok {
				found = stepUse(file, n, s)
			}
		case *ast.CallStmt:
			if s := sn.stepOf(in, wf, n); s != nil {
				if o := stepDef(file, s); o != nil && contains(o.rng, off) {
					found = o
				}
			}
		}
		return found == nil
	})
	return found
}

// occurrenceOf is the occurrence of o at r, if o is something the editor
// navigates. A handler's name uses its subscription: the alias when the
// subscription has one, else the subscribed event.
func occurrenceOf(file string, n ast.Node, o check.Object, r diag.Range, def bool) *occurrence {
	if sub, ok := o.(*check.Subscription); ok && sub.Decl.Alias == nil {
		if sub.Event == nil {
			return nil
		}
		o, def = sub.Event, false
	}
	sym, ok := symbolOf(o)
	if !ok {
		return nil
	}
	oc := &occurrence{sym: sym, file: file, rng: r, def: def}
	if def {
		oc.decl = declOf(o)
	}
	return oc
}

// stepOf is the model's step of a durable step's call in workflow wf.
func (sn *snapshot) stepOf(in *check.Info, wf *ast.Workflow, call *ast.CallStmt) *check.Step {
	if wf == nil || wf.Name == nil || call.Body == nil {
		return nil
	}
	w, _ := in.Defs[wf.Name].(*check.Workflow)
	if w == nil {
		return nil
	}
	for _, s := range w.Steps {
		if s.Decl == call {
			return s
		}
	}
	return nil
}

// stepDef is a durable step's declaration: its name, the string's
// contents, quotes excluded.
func stepDef(file string, s *check.Step) *occurrence {
	call := s.Decl.Call
	if call == nil || len(call.Args) == 0 || s.State == nil {
		return nil
	}
	lit, ok := ast.Unparen(call.Args[0].Value).(*ast.StringLit)
	if !ok {
		return nil
	}
	r, ok := innerRange(lit)
	if !ok {
		return nil
	}
	w := s.State.Workflow.Decl.Name.Name
	return &occurrence{sym: symbol{obj: s, kind: kStep, name: w + "." + lit.Value}, file: file, rng: r, def: true, decl: s.Decl}
}

// stepUse is a string that names a durable step (in a test).
func stepUse(file string, lit *ast.StringLit, s *check.Step) *occurrence {
	r, ok := innerRange(lit)
	if !ok || s.State == nil || s.Consumer == nil {
		return nil
	}
	w := s.State.Workflow.Decl.Name.Name
	return &occurrence{sym: symbol{obj: s, kind: kStep, name: w + "." + s.Key}, file: file, rng: r}
}

// innerRange is a string literal's contents, its quotes excluded: what a
// step's rename replaces.
func innerRange(lit *ast.StringLit) (diag.Range, bool) {
	if lit.Bad || lit.Range.End.Offset-lit.Range.Start.Offset < 2 {
		return diag.Range{}, false
	}
	r := lit.Range
	r.Start.Offset++
	r.Start.Column++
	r.End.Offset--
	r.End.Column--
	return r, true
}

// symbolOf is the symbol of an object the editor navigates (parameters are
// not among them).
func symbolOf(o check.Object) (symbol, bool) {
	switch o := o.(type) {
	case *check.Enum:
		return symbol{o, kEnum, o.Decl.Name.Name}, true
	case *check.EnumMember:
		return symbol{o, kMember, o.Enum.Decl.Name.Name + "." + o.Ident.Name}, true
	case *check.Entity:
		return symbol{o, kEntity, o.Decl.Name.Name}, true
	case *check.Field:
		return symbol{o, kField, o.Entity.Decl.Name.Name + "." + o.Decl.Name.Name}, true
	case *check.Workflow:
		return symbol{o, kWorkflow, o.Decl.Name.Name}, true
	case *check.State:
		return symbol{o, kState, o.Workflow.Decl.Name.Name + "." + o.Decl.Name.Name}, true
	case *check.Event:
		return symbol{o, kEvent, o.Workflow.Decl.Name.Name + "." + o.Decl.Name.Name}, true
	case *check.Subscription:
		if o.Decl.Alias == nil {
			return symbol{}, false
		}
		return symbol{o, kAlias, o.State.Workflow.Decl.Name.Name + "." + o.State.Decl.Name.Name + "." + o.Decl.Alias.Name}, true
	}
	return symbol{}, false
}

// declOf is the node that declares an object, for hovers.
func declOf(o check.Object) any {
	switch o := o.(type) {
	case *check.Enum:
		return o.Decl
	case *check.EnumMember:
		return o.Enum.Decl
	case *check.Entity:
		return o.Decl
	case *check.Field:
		return o.Decl
	case *check.Workflow:
		return o.Decl
	case *check.State:
		return o.Decl
	case *check.Event:
		return o.Decl
	case *check.Subscription:
		return o.Decl
	}
	return nil
}

// occurrences calls f with every mention of every navigable object in the
// workspace: each file's definitions and uses (Info), and its durable
// steps (the model's, with the strings of tests that name them).
func (sn *snapshot) occurrences(f func(o *occurrence)) {
	if sn.res == nil || sn.res.Program == nil {
		return
	}
	for _, file := range sn.res.Program.Files {
		in := sn.info(file.Name)
		if in == nil {
			continue
		}
		for id, o := range in.Defs {
			if oc := occurrenceOf(file.Name, id, o, id.Range, true); oc != nil {
				f(oc)
			}
		}
		for n, o := range in.Uses {
			switch n := n.(type) {
			case *ast.Ident:
				if _, def := in.Defs[n]; !def {
					if oc := occurrenceOf(file.Name, n, o, n.Range, false); oc != nil {
						f(oc)
					}
				}
			case *ast.Name:
				if oc := occurrenceOf(file.Name, n, o, n.Range, false); oc != nil {
					f(oc)
				}
			case *ast.StringLit:
				if s, ok := o.(*check.Step); ok {
					if oc := stepUse(file.Name, n, s); oc != nil {
						f(oc)
					}
				}
			}
		}
	}
	if m := sn.model(); m != nil {
		for _, w := range m.Workflows {
			for _, s := range w.Steps {
				if oc := stepDef(w.Decl.File.Name, s); oc != nil {
					f(oc)
				}
			}
		}
	}
}

// all returns every occurrence of sym, declarations first, each group in
// the workspace's file order and by position.
func (sn *snapshot) all(sym symbol) []*occurrence {
	var out []*occurrence
	sn.occurrences(func(o *occurrence) {
		if o.sym.obj == sym.obj {
			out = append(out, o)
		}
	})
	sn.sortOccurrences(out)
	return out
}

// sortOccurrences orders occurrences: declarations first, then by file
// (the workspace's order) and position.
func (sn *snapshot) sortOccurrences(os []*occurrence) {
	rank := map[string]int{}
	if sn.res != nil && sn.res.Program != nil {
		for i, f := range sn.res.Program.Files {
			rank[f.Name] = i
		}
	}
	sort.SliceStable(os, func(i, j int) bool {
		a, b := os[i], os[j]
		if a.def != b.def {
			return a.def
		}
		if a.file != b.file {
			return rank[a.file] < rank[b.file]
		}
		return a.rng.Start.Offset < b.rng.Start.Offset
	})
}

// linked are the symbols a rename of sym must rename too: with `Tracks`, a
// state and the member of the tracked enum it stores are one name, so
// renaming either renames the other (and the member's states in every
// workflow that tracks the enum), or the program breaks (WF113, WF114).
func (sn *snapshot) linked(sym symbol) []symbol {
	var members []*check.EnumMember
	switch o := sym.obj.(type) {
	case *check.State:
		if o.Member == nil {
			return nil
		}
		members = append(members, o.Member)
	case *check.EnumMember:
		members = append(members, o)
	default:
		return nil
	}
	m := sn.model()
	var out []symbol
	seen := map[any]bool{sym.obj: true}
	add := func(o check.Object) {
		if s, ok := symbolOf(o); ok && !seen[o] {
			seen[o] = true
			out = append(out, s)
		}
	}
	for _, mem := range members {
		add(mem)
		if m == nil {
			continue
		}
		for _, w := range m.Workflows {
			for _, s := range w.States {
				if s.Member == mem {
					add(s)
				}
			}
		}
	}
	return out
}

// wordAt returns the vocabulary word at off in file, or nil.
func (sn *snapshot) wordAt(file string, off int) *check.WordUse {
	in := sn.info(file)
	if in == nil {
		return nil
	}
	for i := range in.Words {
		w := &in.Words[i]
		if r := w.Ident.Range; int(r.Start.Offset) <= off && off <= int(r.End.Offset) {
			return w
		}
	}
	return nil
}

// contains reports whether off lies in r, its end included, for hovers.
func contains(r diag.Range, off int) bool {
	return int(r.Start.Offset) <= off && off <= int(r.End.Offset)
}
