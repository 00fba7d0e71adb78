package wfc

import (
	"crypto/sha256"
	"encoding/binary"
	"hash"
	"slices"
	"sort"
	"unsafe"

	"github.com/wfc-lang/wfc/ast"
	"github.com/wfc-lang/wfc/check"
	"github.com/wfc-lang/wfc/diag"
)

// A file's summary is what it declares for the others, the way Go's export
// data is what a package declares for its importers: each top-level
// declaration's kind, name and place, a hash of everything that can make
// its meaning differ (its text and where it starts), and what the checker
// reads of it without looking inside (an entity's attributes, for WF207;
// a test's name, for WF505). A file is checked again when the summaries of
// what it read changed (deps), and otherwise keeps what it yielded.

// declKind is what a top-level declaration declares.
type declKind uint8

const (
	kindEnum declKind = iota + 1
	kindEntity
	kindWorkflow
	kindTest
)

// summary is what a file declares for the others.
type summary struct {
	Overwhelmed bool
	Range       diag.Range // the file's
	Decls       []declSum  // in source order
}

// declSum is one top-level declaration.
type declSum struct {
	Kind    declKind
	Name    string // a test's name is its string's value
	HasName bool   // false when the name failed to parse
	NameAt  diag.Range
	Range   diag.Range
	Keyword diag.Range // a test's `test`
	Attrs   []attrSum  // an entity's
	// Hash covers the file's name, the declaration's start and its text
	// up to the next declaration (all the parser saw of it), and whether
	// it failed to parse: equal hashes, equal trees.
	Hash [sha256.Size]byte
}

// attrSum is an entity's attribute: `[Principal]`.
type attrSum struct {
	Name    string
	HasName bool
	At      diag.Range
	NameAt  diag.Range
	HasArgs bool
}

// summarize makes the summary of a parsed file, named as the cache names
// it (an absolute path).
func summarize(f *ast.File, name string) *summary {
	s := &summary{Overwhelmed: f.Overwhelmed, Range: f.Range, Decls: make([]declSum, 0, len(f.Decls))}
	h := sha256.New()
	for i, d := range f.Decls {
		lo, hi := int(d.Pos().Offset), len(f.Src)
		if i+1 < len(f.Decls) {
			hi = int(f.Decls[i+1].Pos().Offset)
		}
		lo, hi = max(0, min(lo, len(f.Src))), max(0, min(hi, len(f.Src)))
		if hi < lo {
			hi = lo
		}
		ds := declSum{Range: diag.Range{Start: d.Pos(), End: d.End()}}
		bad := false
		switch d := d.(type) {
		case *ast.Enum:
			ds.Kind, bad = kindEnum, d.Bad
		case *ast.Entity:
			ds.Kind, bad = kindEntity, d.Bad
			for _, a := range d.Attrs {
				as := attrSum{At: a.Range, HasArgs: a.HasArgs}
				if a.Name != nil {
					as.Name, as.HasName, as.NameAt = a.Name.Name, true, a.Name.Range
				}
				ds.Attrs = append(ds.Attrs, as)
			}
		case *ast.Workflow:
			ds.Kind, bad = kindWorkflow, d.Bad
		case *ast.Test:
			ds.Kind, bad, ds.Keyword = kindTest, d.Bad, d.Keyword
			if d.Name != nil {
				ds.Name, ds.HasName, ds.NameAt = d.Name.Value, true, d.Name.Range
			}
		}
		if n := d.DeclName(); n != nil {
			ds.Name, ds.HasName, ds.NameAt = n.Name, true, n.Range
		}
		h.Reset()
		hashString(h, name)
		hashInts(h, int64(ds.Kind), int64(ds.Range.Start.Offset), int64(ds.Range.Start.Line), int64(ds.Range.Start.Column), b2i(bad), b2i(f.Overwhelmed))
		hashString(h, f.Src[lo:hi])
		h.Sum(ds.Hash[:0])
		s.Decls = append(s.Decls, ds)
	}
	return s
}

func b2i(b bool) int64 {
	if b {
		return 1
	}
	return 0
}

func hashString(h hash.Hash, s string) {
	var n [8]byte
	binary.LittleEndian.PutUint64(n[:], uint64(len(s)))
	h.Write(n[:])
	h.Write(bytesOf(s))
}

// bytesOf is s's bytes, not copied: a hash reads them and keeps nothing
// (converting would copy every file's text once more per run).
func bytesOf(s string) []byte { return unsafe.Slice(unsafe.StringData(s), len(s)) }

func hashInts(h hash.Hash, xs ...int64) {
	var b [8]byte
	for _, x := range xs {
		binary.LittleEndian.PutUint64(b[:], uint64(x))
		h.Write(b[:])
	}
}

// stub is a file made from its summary, for a check that does not look
// inside it: its declarations with their names and places (and an
// entity's attributes), nothing below. The driver makes sure that a check
// never reads inside a stub: every file that a checked file reads (its
// Uses, and theirs in turn) is parsed.
func (s *summary) stub(name, src string, ignores []diag.Ignore) *ast.File {
	f := &ast.File{Name: name, Src: src, Range: s.Range, Overwhelmed: s.Overwhelmed, Ignores: ignores}
	// One allocation per kind of node, not one per node: a run over a
	// cache makes stubs of every file it does not check.
	var nEnum, nEntity, nWorkflow, nTest, nAttr int
	for _, d := range s.Decls {
		switch d.Kind {
		case kindEnum:
			nEnum++
		case kindEntity:
			nEntity++
			nAttr += len(d.Attrs)
		case kindWorkflow:
			nWorkflow++
		case kindTest:
			nTest++
		}
	}
	idents := make([]ast.Ident, 0, len(s.Decls)+nAttr)
	enums, entities, workflows, tests := make([]ast.Enum, nEnum), make([]ast.Entity, nEntity), make([]ast.Workflow, nWorkflow), make([]ast.Test, nTest)
	attrs := make([]ast.Attr, nAttr)
	ptrs := make([]*ast.Attr, nAttr)
	lits := make([]ast.StringLit, nTest)
	ident := func(has bool, n string, r diag.Range) *ast.Ident {
		if !has {
			return nil
		}
		idents = append(idents, ast.Ident{Name: n, Range: r})
		return &idents[len(idents)-1]
	}
	f.Decls = make([]ast.Decl, 0, len(s.Decls))
	for _, d := range s.Decls {
		switch d.Kind {
		case kindEnum:
			e := &enums[0]
			enums = enums[1:]
			*e = ast.Enum{Range: d.Range, File: f, Name: ident(d.HasName, d.Name, d.NameAt)}
			f.Decls = append(f.Decls, e)
		case kindEntity:
			e := &entities[0]
			entities = entities[1:]
			*e = ast.Entity{Range: d.Range, File: f, Name: ident(d.HasName, d.Name, d.NameAt)}
			if len(d.Attrs) > 0 {
				e.Attrs, ptrs = ptrs[:len(d.Attrs):len(d.Attrs)], ptrs[len(d.Attrs):]
				for i, a := range d.Attrs {
					attrs[0] = ast.Attr{Range: a.At, Name: ident(a.HasName, a.Name, a.NameAt), HasArgs: a.HasArgs}
					e.Attrs[i], attrs = &attrs[0], attrs[1:]
				}
			}
			f.Decls = append(f.Decls, e)
		case kindWorkflow:
			w := &workflows[0]
			workflows = workflows[1:]
			*w = ast.Workflow{Range: d.Range, File: f, Name: ident(d.HasName, d.Name, d.NameAt)}
			f.Decls = append(f.Decls, w)
		case kindTest:
			t := &tests[0]
			tests = tests[1:]
			*t = ast.Test{Range: d.Range, File: f, Keyword: d.Keyword}
			if d.HasName {
				lits[0] = ast.StringLit{Range: d.NameAt, Value: d.Name}
				t.Name, lits = &lits[0], lits[1:]
			}
			f.Decls = append(f.Decls, t)
		}
	}
	return f
}

// namespace is what the files of a run declare, for the values of what a
// file read (check.Uses): the value of a name is every declaration of it,
// in the program's order, by file, kind and hash; a flag's value is the
// part of the program it names. Files are the run's units, by index.
type namespace struct {
	units  []*unit // the run's, shared: a unit parsed meanwhile is seen
	byName map[string][]declRef
	values map[string][sha256.Size]byte
	flags  [4]*[sha256.Size]byte // AllNames, Principals, Workflows, Tests
	h      hash.Hash             // reused for the values
}

type declRef struct {
	u int // the unit's index
	d int // the declaration's index in its summary
}

func newNamespace(us []*unit) *namespace {
	n := 0
	for _, u := range us {
		n += len(u.summary().Decls)
	}
	ns := &namespace{units: us, byName: make(map[string][]declRef, n), values: map[string][sha256.Size]byte{}, h: sha256.New()}
	for i, u := range us {
		for j := range u.summary().Decls {
			d := &u.sum.Decls[j]
			if d.Kind != kindTest && d.HasName {
				ns.byName[d.Name] = append(ns.byName[d.Name], declRef{i, j})
			}
		}
	}
	return ns
}

func (ns *namespace) decl(r declRef) *declSum { return &ns.units[r.u].sum.Decls[r.d] }

func (ns *namespace) value(name string) [sha256.Size]byte {
	if v, ok := ns.values[name]; ok {
		return v
	}
	h := ns.h
	h.Reset()
	for _, r := range ns.byName[name] {
		ns.ref(h, r)
	}
	var v [sha256.Size]byte
	h.Sum(v[:0])
	ns.values[name] = v
	return v
}

func (ns *namespace) ref(h hash.Hash, r declRef) {
	d := ns.decl(r)
	hashString(h, ns.units[r.u].canon)
	hashInts(h, int64(d.Kind))
	h.Write(d.Hash[:])
}

// flag is the value of one of check.Uses' flags.
func (ns *namespace) flag(i int) [sha256.Size]byte {
	if v := ns.flags[i]; v != nil {
		return *v
	}
	h := sha256.New()
	switch i {
	case 0: // AllNames: each name with its first declaration's kind, and how often it is declared
		names := make([]string, 0, len(ns.byName))
		for n := range ns.byName {
			names = append(names, n)
		}
		sort.Strings(names)
		for _, n := range names {
			rs := ns.byName[n]
			hashString(h, n)
			hashInts(h, int64(ns.decl(rs[0]).Kind), int64(len(rs)))
		}
	case 1, 2, 3: // Principals, Workflows, Tests: those declarations, in order
		for k, u := range ns.units {
			for j := range u.sum.Decls {
				d := &u.sum.Decls[j]
				switch {
				case i == 1 && d.Kind == kindEntity && slices.ContainsFunc(d.Attrs, func(a attrSum) bool { return a.Name == "Principal" }),
					i == 2 && d.Kind == kindWorkflow, i == 3 && d.Kind == kindTest:
					ns.ref(h, declRef{k, j})
					if i == 3 {
						hashString(h, d.Name)
						hashInts(h, b2i(d.HasName), int64(d.NameAt.Start.Offset), int64(d.NameAt.End.Offset))
					}
				}
			}
		}
	}
	var v [sha256.Size]byte
	h.Sum(v[:0])
	ns.flags[i] = &v
	return v
}

// depSet is what a file depends on, as kept: the names declared then in
// the file alone (Own: they mean the same as long as the file's text is
// the same and no other file declares them, which costs a lookup to tell),
// and the rest (Ext) with their value then (Sum). A file whose deps are as
// they were would be checked the same.
type depSet struct {
	Own []string
	Ext check.Uses
	Sum [sha256.Size]byte
}

// split makes unit i's depSet of deps.
func (ns *namespace) split(i int, deps check.Uses) depSet {
	var ds depSet
	ds.Ext = deps
	ds.Ext.Names = nil
	for _, n := range deps.Names {
		if ns.onlyIn(n, i) {
			ds.Own = append(ds.Own, n)
		} else {
			ds.Ext.Names = append(ds.Ext.Names, n)
		}
	}
	ds.Sum = ns.depsSum(ds.Ext)
	return ds
}

// onlyIn reports whether name is declared, and only in unit i.
func (ns *namespace) onlyIn(name string, i int) bool {
	rs := ns.byName[name]
	for _, r := range rs {
		if r.u != i {
			return false
		}
	}
	return len(rs) > 0
}

// valid reports whether unit i's deps are as they were when it was
// checked.
func (ns *namespace) valid(i int, ds depSet) bool {
	for _, n := range ds.Own {
		if !ns.onlyIn(n, i) {
			return false
		}
	}
	return ns.depsSum(ds.Ext) == ds.Sum
}

// depsSum is the value of everything deps read.
func (ns *namespace) depsSum(deps check.Uses) [sha256.Size]byte {
	h := sha256.New()
	hashInts(h, int64(len(deps.Names)))
	for _, n := range deps.Names {
		hashString(h, n)
		v := ns.value(n)
		h.Write(v[:])
	}
	for i, on := range []bool{deps.AllNames, deps.Principals, deps.Workflows, deps.Tests} {
		hashInts(h, b2i(on))
		if on {
			v := ns.flag(i)
			h.Write(v[:])
		}
	}
	var v [sha256.Size]byte
	h.Sum(v[:0])
	return v
}

// reads are the units whose declarations uses read: those that declare
// the names, and with Workflows every unit with a workflow. The other
// flags read only summaries.
func (ns *namespace) reads(uses check.Uses) []int {
	var out []int
	for _, n := range uses.Names {
		last := -1
		for _, r := range ns.byName[n] {
			if r.u != last {
				out = append(out, r.u)
				last = r.u
			}
		}
	}
	if uses.Workflows {
		for i, u := range ns.units {
			if slices.ContainsFunc(u.sum.Decls, func(d declSum) bool { return d.Kind == kindWorkflow }) {
				out = append(out, i)
			}
		}
	}
	return out
}

// closure is the units start with the units they read, and those these
// read in turn, by what direct says each read; in the order found.
func (ns *namespace) closure(start []int, direct func(i int) check.Uses) []int {
	in := make(map[int]bool, len(start))
	out := make([]int, 0, len(start))
	for _, i := range start {
		if !in[i] {
			in[i] = true
			out = append(out, i)
		}
	}
	for k := 0; k < len(out); k++ {
		for _, j := range ns.reads(direct(out[k])) {
			if !in[j] {
				in[j] = true
				out = append(out, j)
			}
		}
	}
	return out
}

// deps are what unit i depends on: what it read, and what the units it
// read read in turn (a test reads its workflow's model, which points at
// the enums its events take), as one check.Uses.
func (ns *namespace) deps(i int) check.Uses {
	var out check.Uses
	names := map[string]bool{}
	for _, j := range ns.closure([]int{i}, func(k int) check.Uses { return ns.units[k].direct }) {
		d := ns.units[j].direct
		for _, n := range d.Names {
			names[n] = true
		}
		out.AllNames = out.AllNames || d.AllNames
		out.Principals = out.Principals || d.Principals
		out.Workflows = out.Workflows || d.Workflows
		out.Tests = out.Tests || d.Tests
	}
	out.Names = make([]string, 0, len(names))
	for n := range names {
		out.Names = append(out.Names, n)
	}
	sort.Strings(out.Names)
	return out
}
