package lsp

import (
	"sort"

	"github.com/wfc-lang/wfc/ast"
	"github.com/wfc-lang/wfc/check"
	"github.com/wfc-lang/wfc/diag"
)

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
	obj  any // a check.Object, or a *check.Step
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

// index is the model's Info laid out for position lookups: every name of
// every file that defines or uses something, in file and offset order. It
// resolves nothing itself; what a name means is the checker's answer
// (check.Program.Info), so the editor and `wfc check` cannot disagree.
type index struct {
	prog   *check.Program
	occ    []occurrence // sorted by file, then offset
	byName map[symbol][]int
	// words are the vocabulary words the checker recognised
	// (check.Builtin), sorted by file, then offset: hover explains them.
	words []wordOcc
}

// wordOcc is one vocabulary word of the source.
type wordOcc struct {
	file string
	rng  diag.Range
	b    *check.Builtin
}

func (ix *index) add(o occurrence) { ix.occ = append(ix.occ, o) }

// buildIndex lays out the model of prog (model may be nil: the names then
// resolve to nothing).
func buildIndex(prog *ast.Program, model *check.Program) *index {
	ix := &index{prog: model, byName: map[symbol][]int{}}
	if prog == nil || model == nil {
		return ix
	}
	steps := map[*ast.CallStmt]*check.Step{}
	for _, w := range model.Workflows {
		for _, s := range w.Steps {
			steps[s.Decl] = s
		}
	}
	for _, u := range model.Info.Words {
		ix.words = append(ix.words, wordOcc{u.File, u.Ident.Range, u.Builtin})
	}
	for _, f := range prog.Files {
		ast.Inspect(f, func(n ast.Node) bool {
			switch n := n.(type) {
			case *ast.Ident:
				ix.ident(f.Name, n)
			case *ast.Name:
				if o := model.Info.Uses[n]; o != nil {
					ix.use(f.Name, n.Range, o)
				}
			case *ast.CallStmt:
				if s := steps[n]; s != nil {
					ix.step(f.Name, s)
				}
			case *ast.StringLit:
				// A test's `Fail("charge")` names a step by its string.
				if s, ok := model.Info.Uses[n].(*check.Step); ok {
					ix.stepUse(f.Name, n, s)
				}
			}
			return true
		})
	}
	sort.SliceStable(ix.occ, func(i, j int) bool {
		a, b := ix.occ[i], ix.occ[j]
		if a.file != b.file {
			return a.file < b.file
		}
		return a.rng.Start.Offset < b.rng.Start.Offset
	})
	for i, o := range ix.occ {
		ix.byName[o.sym] = append(ix.byName[o.sym], i)
	}
	sort.SliceStable(ix.words, func(i, j int) bool {
		a, b := ix.words[i], ix.words[j]
		if a.file != b.file {
			return a.file < b.file
		}
		return a.rng.Start.Offset < b.rng.Start.Offset
	})
	return ix
}

// ident records an identifier that declares or uses an object.
func (ix *index) ident(file string, id *ast.Ident) {
	if o, ok := ix.prog.Info.Defs[id]; ok {
		if sym, ok := symbolOf(o); ok {
			ix.add(occurrence{sym: sym, file: file, rng: id.Range, def: true, decl: declOf(o)})
		}
		return
	}
	if o := ix.prog.Info.Uses[id]; o != nil {
		ix.use(file, id.Range, o)
	}
}

// use records a reference. A handler's name uses its subscription: the
// alias when the subscription has one, else the subscribed event.
func (ix *index) use(file string, r diag.Range, o check.Object) {
	if sub, ok := o.(*check.Subscription); ok && sub.Decl.Alias == nil {
		if sub.Event == nil {
			return
		}
		o = sub.Event
	}
	if sym, ok := symbolOf(o); ok {
		ix.add(occurrence{sym: sym, file: file, rng: r})
	}
}

// step records a durable step's name: the string's contents, quotes excluded.
func (ix *index) step(file string, s *check.Step) {
	call := s.Decl.Call
	if call == nil || len(call.Args) == 0 {
		return
	}
	lit, ok := ast.Unparen(call.Args[0].Value).(*ast.StringLit)
	if !ok || s.State == nil {
		return
	}
	if r, ok := innerRange(lit); ok {
		w := s.State.Workflow.Decl.Name.Name
		ix.add(occurrence{sym: symbol{obj: s, kind: kStep, name: w + "." + lit.Value}, file: file, rng: r, def: true, decl: s.Decl})
	}
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

// stepUse records a string that names a durable step (in a test).
func (ix *index) stepUse(file string, lit *ast.StringLit, s *check.Step) {
	r, ok := innerRange(lit)
	if !ok || s.State == nil || s.Consumer == nil {
		return
	}
	w := s.State.Workflow.Decl.Name.Name
	ix.add(occurrence{sym: symbol{obj: s, kind: kStep, name: w + "." + s.Key}, file: file, rng: r})
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

// linked are the symbols a rename of sym must rename too: with `Tracks`, a
// state and the member of the tracked enum it stores are one name, so
// renaming either renames the other (and the member's states in every
// workflow that tracks the enum), or the program breaks (WF113, WF114).
func (ix *index) linked(sym symbol) []symbol {
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
	var out []symbol
	seen := map[any]bool{sym.obj: true}
	add := func(o check.Object) {
		if s, ok := symbolOf(o); ok && !seen[o] {
			seen[o] = true
			out = append(out, s)
		}
	}
	for _, m := range members {
		add(m)
		for _, w := range ix.prog.Workflows {
			for _, s := range w.States {
				if s.Member == m {
					add(s)
				}
			}
		}
	}
	return out
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

// wordAt returns the vocabulary word at off in file, or nil.
func (ix *index) wordAt(file string, off int) *wordOcc {
	i := sort.Search(len(ix.words), func(i int) bool {
		w := ix.words[i]
		return w.file > file || (w.file == file && int(w.rng.End.Offset) >= off)
	})
	if i < len(ix.words) && ix.words[i].file == file && int(ix.words[i].rng.Start.Offset) <= off {
		return &ix.words[i]
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

// contains reports whether off lies in r, its end included, for hovers.
func contains(r diag.Range, off int) bool {
	return int(r.Start.Offset) <= off && off <= int(r.End.Offset)
}
