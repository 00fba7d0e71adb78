package lsp

import (
	"sort"

	"github.com/wfc-lang/wfc/ast"
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

// symbol identifies one declared thing: its kind and its qualified name
// (`Order.Status` for a field, `JobFlow.Running` for a state).
type symbol struct {
	kind symKind
	name string
}

// occurrence is one mention of a symbol: its declaration or a reference.
type occurrence struct {
	sym   symbol
	file  string
	rng   diag.Range // the name itself (for a step: the string's contents)
	def   bool
	decl  any // the declaring node, on the declaration
	scope string
}

// index maps every name in the program to what it names. It is built from
// the syntax tree with the checker's scoping rules: types and enums are
// global, states, events and aliases belong to their workflow, a handler
// names its state's subscription slot, and a case label a member of its
// handler's enum parameter.
type index struct {
	occ    []occurrence // sorted by file, then offset
	byName map[symbol][]int
	decls  map[string]ast.Decl
}

func (ix *index) add(o occurrence) { ix.occ = append(ix.occ, o) }

func buildIndex(prog *ast.Program) *index {
	ix := &index{byName: map[symbol][]int{}, decls: map[string]ast.Decl{}}
	if prog == nil {
		return ix
	}
	for _, f := range prog.Files {
		for _, d := range f.Decls {
			if n := d.DeclName(); n != nil {
				if _, dup := ix.decls[n.Name]; !dup {
					ix.decls[n.Name] = d
				}
			}
		}
	}
	for _, f := range prog.Files {
		for _, d := range f.Decls {
			ix.decl(f.Name, d)
		}
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
	return ix
}

func (ix *index) decl(file string, d ast.Decl) {
	switch d := d.(type) {
	case *ast.Enum:
		if d.Name == nil {
			return
		}
		ix.add(occurrence{sym: symbol{kEnum, d.Name.Name}, file: file, rng: d.Name.Range, def: true, decl: d})
		for _, m := range d.Members {
			ix.add(occurrence{sym: symbol{kMember, d.Name.Name + "." + m.Name}, file: file, rng: m.Range, def: true, decl: d})
		}
	case *ast.Entity:
		if d.Name == nil {
			return
		}
		ix.add(occurrence{sym: symbol{kEntity, d.Name.Name}, file: file, rng: d.Name.Range, def: true, decl: d})
		for _, fl := range d.Fields {
			if fl.Name != nil {
				ix.add(occurrence{sym: symbol{kField, d.Name.Name + "." + fl.Name.Name}, file: file, rng: fl.Name.Range, def: true, decl: fl})
			}
			ix.typeRef(file, fl.Type)
		}
		for _, sec := range d.Security {
			for _, r := range sec.Rules {
				ix.fieldNames(file, d, r.When)
			}
		}
	case *ast.Workflow:
		if d.Name != nil {
			ix.workflow(file, d)
		}
	case *ast.Test:
		ix.test(file, d)
	}
}

// test records the names a test uses (docs/language.md, "Tests"): its
// workflow, the events it sends, the states it expects and the steps it
// names, so that definition, references and rename reach into tests. The
// workflow is its `Workflow = …;`, else the program's only one.
func (ix *index) test(file string, t *ast.Test) {
	wn := ""
	for _, s := range t.Settings {
		if n, ok := s.Value.(*ast.Name); ok && s.Name != nil && s.Name.Name == "Workflow" {
			if _, ok := ix.decls[n.Name].(*ast.Workflow); ok {
				wn = n.Name
				ix.add(occurrence{sym: symbol{kWorkflow, wn}, file: file, rng: n.Range})
			}
		}
	}
	if wn == "" {
		for name, d := range ix.decls {
			if _, ok := d.(*ast.Workflow); ok {
				if wn != "" {
					return // several workflows and none named
				}
				wn = name
			}
		}
		if wn == "" {
			return
		}
	}
	for _, st := range t.Stmts {
		fun, _ := ast.DottedName(st.Call.Fun)
		if len(st.Call.Args) == 0 || st.Call.Args[0].Label != nil {
			continue
		}
		arg := ast.Unparen(st.Call.Args[0].Value)
		switch fun {
		case "Send":
			if c, ok := arg.(*ast.Call); ok {
				arg = c.Fun
			}
			if n, ok := arg.(*ast.Name); ok {
				ix.add(occurrence{sym: symbol{kEvent, wn + "." + n.Name}, file: file, rng: n.Range})
			}
		case "Expect.State", "Expect.End":
			if n, ok := arg.(*ast.Name); ok {
				ix.add(occurrence{sym: symbol{kState, wn + "." + n.Name}, file: file, rng: n.Range})
			}
		case "Fail", "Expect.GaveUp", "Expect.Attempts":
			if lit, ok := arg.(*ast.StringLit); ok && !lit.Bad && lit.Range.End.Offset-lit.Range.Start.Offset >= 2 {
				r := lit.Range
				r.Start.Offset++
				r.Start.Column++
				r.End.Offset--
				r.End.Column--
				ix.add(occurrence{sym: symbol{kStep, wn + "." + lit.Value}, file: file, rng: r})
			}
		}
	}
}

// fieldNames records names in a security rule that are the entity's fields.
func (ix *index) fieldNames(file string, e *ast.Entity, x ast.Expr) {
	switch x := x.(type) {
	case *ast.Name:
		for _, f := range e.Fields {
			if f.Name != nil && f.Name.Name == x.Name {
				ix.add(occurrence{sym: symbol{kField, e.Name.Name + "." + x.Name}, file: file, rng: x.Range})
			}
		}
	case *ast.Binary:
		ix.fieldNames(file, e, x.X)
		ix.fieldNames(file, e, x.Y)
	case *ast.Unary:
		ix.fieldNames(file, e, x.X)
	case *ast.Paren:
		ix.fieldNames(file, e, x.X)
	case *ast.Selector:
		ix.fieldNames(file, e, x.X)
	case *ast.Call:
		for _, a := range x.Args {
			ix.fieldNames(file, e, a.Value)
		}
	}
}

func (ix *index) typeRef(file string, t *ast.TypeRef) {
	if t == nil || t.Name == nil {
		return
	}
	switch ix.decls[t.Name.Name].(type) {
	case *ast.Enum:
		ix.add(occurrence{sym: symbol{kEnum, t.Name.Name}, file: file, rng: t.Name.Range})
	case *ast.Entity:
		ix.add(occurrence{sym: symbol{kEntity, t.Name.Name}, file: file, rng: t.Name.Range})
	}
}

func (ix *index) params(file string, ps *ast.Params) {
	if ps == nil {
		return
	}
	for _, p := range ps.List {
		ix.typeRef(file, p.Type)
	}
}

// enumParam is the enum type of the first enum-typed parameter.
func (ix *index) enumParam(ps *ast.Params) *ast.Enum {
	if ps == nil {
		return nil
	}
	for _, p := range ps.List {
		if p.Type != nil && p.Type.Name != nil {
			if e, ok := ix.decls[p.Type.Name.Name].(*ast.Enum); ok {
				return e
			}
		}
	}
	return nil
}
