package check

import (
	"slices"

	"github.com/wfc-lang/wfc/ast"
	"github.com/wfc-lang/wfc/diag"
)

// Checking a program file by file, for the driver's incremental checks
// (the root package's Session): what checking each file reported and what
// it read of the other files (Options.PerFile, Result.Files), and checking
// only some files against the rest (Options.Only), keeping an earlier
// model's objects for the others (Options.Reuse). It is to a whole check
// what compiling one Go package against its imports' export data is to
// compiling a program: the other files' declarations are seen exactly as a
// whole check sees them, and what is reported is what a whole check
// reports while it checks those files.

// Uses is what checking one file read of the rest of the program: the
// driver checks the file again when, and only when, one of them changed.
// A name is read when the checker looks it up among the program's global
// declarations (enums, entities, workflows), whether it is declared or not
// — a file's own declarations' names included, since a duplicate elsewhere
// changes what they mean.
type Uses struct {
	// Names are the global names looked up, sorted, each once.
	Names []string
	// AllNames: the set of declared names itself (a "did you mean" among
	// the types or the entities).
	AllNames bool
	// Principals: which entity is the program's first `[Principal]`
	// (WF207 and its related location).
	Principals bool
	// Workflows: the program's workflows (a test that names none runs the
	// only one; one that names an unknown one is given the closest).
	Workflows bool
	// Tests: the names of the tests declared before the file's (WF505).
	Tests bool
}

// FileResult is what checking one file gave (Options.PerFile).
type FileResult struct {
	File *ast.File
	// Diags are what checking the file's declarations reported, in
	// whichever file (a workflow's WF114 is in its tracked enum's file).
	Diags []diag.Diagnostic
	// Uses are what that read of the other files.
	Uses Uses
	// Info holds the names of the file (with Options.Info): with PerFile,
	// each file's are here and Program.Info is empty.
	Info Info
	// Consumers are the policy consumers of the file's workflows, in
	// source order.
	Consumers []*Consumer
}

// fileRec is what the checker records about one file while it checks.
type fileRec struct {
	file  *ast.File
	keep  bool // it is checked: what it reads and reports is returned
	names map[string]struct{}
	uses  Uses // its flags; Names at the end
	info  Info
	words []WordUse
}

// perFile reports whether the checker records file by file.
func (c *checker) perFile() bool { return c.opt.PerFile || c.opt.Only != nil }

// checks reports whether f's declarations are checked (Options.Only).
func (c *checker) checks(f *ast.File) bool { return c.opt.Only == nil || c.opt.Only[f] }

// enter makes f the file being checked: what is reported and read from now
// on is f's, and, file by file, the names recorded go to f's Info.
func (c *checker) enter(f *ast.File) {
	c.file = f
	if !c.perFile() {
		return
	}
	if c.cur == nil || c.cur.file != f {
		if c.cur != nil {
			c.cur.words = c.words
		}
		r := c.recs[f]
		if r == nil {
			r = &fileRec{file: f, keep: c.checks(f)}
			if r.keep {
				r.names = map[string]struct{}{}
			}
			if c.opt.Info && r.keep {
				r.info = Info{Defs: map[*ast.Ident]Object{}, Uses: map[ast.Node]Object{}}
			}
			c.recs[f] = r
		}
		c.cur = r
		c.words = r.words
	}
	if c.model != nil {
		c.model.p.Info = c.cur.info
	}
}

// global returns the declaration that uses of name resolve to (the first
// declared; nil when none is), recording that the current file read it.
func (c *checker) global(name string) ast.Decl {
	c.read(name)
	return c.decls[name]
}

// dup reports whether name is declared more than once (WF101), recording
// that the current file read it.
func (c *checker) dup(name string) bool {
	c.read(name)
	return c.duplicated[name]
}

func (c *checker) read(name string) {
	if c.cur != nil && c.cur.keep {
		c.cur.names[name] = struct{}{}
	}
}

// readFlag records that the current file read something of the whole
// program (a Uses flag).
func (c *checker) readFlag(set func(u *Uses)) {
	if c.cur != nil {
		set(&c.cur.uses)
	}
}

// fileResults splits what the checker reported by the file it checked, and
// keeps only the files checked (Options.Only).
func (c *checker) fileResults() {
	if c.cur != nil {
		c.cur.words = c.words
	}
	if !c.perFile() {
		return
	}
	byFile := map[*ast.File]*FileResult{}
	for _, f := range c.prog.Files {
		r := c.recs[f]
		if r == nil || !c.checks(f) {
			continue
		}
		fr := &FileResult{File: f, Uses: r.uses, Info: r.info}
		fr.Uses.Names = make([]string, 0, len(r.names))
		for n := range r.names {
			fr.Uses.Names = append(fr.Uses.Names, n)
		}
		slices.Sort(fr.Uses.Names)
		fr.Info.Words = r.words
		byFile[f] = fr
		c.res.Files = append(c.res.Files, fr)
	}
	var kept []diag.Diagnostic
	for i, d := range c.diags.Items {
		if r := c.from[i]; r == nil {
			continue
		} else if fr := byFile[r.file]; fr != nil {
			fr.Diags = append(fr.Diags, d)
			kept = append(kept, d)
		}
	}
	c.diags.Items = kept
	var cons []*Consumer
	for _, k := range c.res.Consumers {
		if fr := byFile[k.Src]; fr != nil {
			fr.Consumers = append(fr.Consumers, k)
			cons = append(cons, k)
		}
	}
	c.res.Consumers = cons
	c.model.p.Info = Info{}
}

// reused are an earlier model's objects, by the file that declares them
// (Options.Reuse).
type reused struct {
	enums     []*Enum
	entities  []*Entity
	workflows []*Workflow
	tests     []*Test
}

// reuse groups Options.Reuse's objects by file; the files checked keep
// none.
func (c *checker) reuse() map[*ast.File]*reused {
	p := c.opt.Reuse
	if p == nil {
		return nil
	}
	m := map[*ast.File]*reused{}
	of := func(f *ast.File) *reused {
		if c.checks(f) {
			return nil
		}
		r := m[f]
		if r == nil {
			r = &reused{}
			m[f] = r
		}
		return r
	}
	for _, e := range p.Enums {
		if r := of(e.Decl.File); r != nil {
			r.enums = append(r.enums, e)
		}
	}
	for _, e := range p.Entities {
		if r := of(e.Decl.File); r != nil {
			r.entities = append(r.entities, e)
		}
	}
	for _, w := range p.Workflows {
		if r := of(w.Decl.File); r != nil {
			r.workflows = append(r.workflows, w)
		}
	}
	for _, t := range p.Tests {
		if r := of(t.Decl.File); r != nil {
			r.tests = append(r.tests, t)
		}
	}
	return m
}

// reusable reports whether the earlier model holds f's objects: it does
// when f is the same tree that model was built from. An overwhelmed file
// has none to hold.
func (c *checker) reusable(f *ast.File) bool {
	if c.reused == nil || c.checks(f) {
		return false
	}
	if _, ok := c.reused[f]; ok {
		return true
	}
	if declares(f) {
		return false // a tree the earlier model was not built from
	}
	c.reused[f] = &reused{}
	return true
}

// declares reports whether f declares anything that has a model object.
func declares(f *ast.File) bool {
	if f.Overwhelmed {
		return false
	}
	return len(f.Decls) > 0
}

// needWorkflows reports whether a file checked has tests: they resolve
// against the models of the workflows they run, so every workflow must be
// built, checked or not.
func (c *checker) needWorkflows() bool {
	for _, f := range c.prog.Files {
		if !c.checks(f) || f.Overwhelmed {
			continue
		}
		for _, d := range f.Decls {
			if _, ok := d.(*ast.Test); ok {
				return true
			}
		}
	}
	return false
}

// within runs fn with f as the file being checked, then returns to the one
// that was: the builder makes another file's objects there when a checked
// file first needs them, so what that reads and records is f's, as in a
// whole check.
func (c *checker) within(f *ast.File, fn func()) {
	file, cur := c.file, c.cur
	c.enter(f)
	fn()
	if cur != nil {
		c.enter(cur.file)
	}
	c.file = file
}
