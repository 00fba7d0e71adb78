package lsp

import (
	"fmt"
	"sort"

	"github.com/wfc-lang/wfc"
	"github.com/wfc-lang/wfc/ast"
	"github.com/wfc-lang/wfc/check"
	"github.com/wfc-lang/wfc/codegen"
	"github.com/wfc-lang/wfc/diag"
)

// declEdit says that one file changed, in one declaration only (the
// re-parse of reparseDecl): the program's other trees are unchanged, and
// the edited file's declarations after it moved by delta bytes and dLine
// lines.
type declEdit struct {
	file         string
	k            int
	oldF, newF   *ast.File
	oldEnd       int32 // where declaration k ended before the edit
	delta, dLine int32
}

// recheck re-checks after a declEdit only the workflows the edit can
// affect: the edited one and those after it in its file (their positions
// moved), together with every enum and entity (what workflows refer to).
// The checker's and the lints' diagnostics of those workflows are taken out
// of the previous result (they are exactly what checking them alone gave
// before the edit) and those of the new versions put in.
//
// It declines (ok == false, the caller checks everything) unless the
// checker's rules allow it (partialSafe: check.PartialRecheckSafe, read
// from the rules' declared scopes), the edited declaration is a workflow
// that kept its name, no global name is declared twice, and every
// diagnostic it takes out is in the previous result.
func recheck(prev *result, e *declEdit, prog *ast.Program, partialSafe bool) (sem []diag.Diagnostic, cons []*check.Consumer, scheds []*codegen.Schedule, part checkedPart, ok bool) {
	if !partialSafe || prev == nil || prev.checked == nil || e.k >= len(e.oldF.Decls) || len(e.oldF.Decls) != len(e.newF.Decls) {
		return nil, nil, nil, part, false
	}
	ow, ok1 := e.oldF.Decls[e.k].(*ast.Workflow)
	nw, ok2 := e.newF.Decls[e.k].(*ast.Workflow)
	if !ok1 || !ok2 || ow.Name == nil || nw.Name == nil || ow.Name.Name != nw.Name.Name {
		return nil, nil, nil, part, false
	}
	if !namesUnique(prog) {
		return nil, nil, nil, part, false
	}
	names := map[string]bool{}
	for _, d := range e.oldF.Decls[e.k:] {
		if w, ok := d.(*ast.Workflow); ok {
			names[w.Name.Name] = true
		}
	}
	// Typing goes on in one workflow: the part checked after the last
	// keystroke is this one's "before".
	oldSem := prev.part.sem
	if prev.part.file != e.oldF || prev.part.k != e.k {
		oldSem, _, _ = checkPart(prog, e, e.oldF, names)
	}
	newSem, newCons, newScheds := checkPart(prog, e, e.newF, names)
	part = checkedPart{file: e.newF, k: e.k, sem: newSem}
	rest, ok := subtract(prev.sem, oldSem)
	if !ok {
		return nil, nil, nil, part, false
	}
	for i := range rest {
		if !shiftDiag(&rest[i], e) {
			return nil, nil, nil, part, false
		}
	}
	sem = append(rest, newSem...)
	for _, c := range prev.checked.Consumers {
		if !names[c.WorkflowName()] {
			cons = append(cons, rehomeConsumer(c, e))
		}
	}
	for _, s := range prev.schedules {
		if !names[s.Consumer.WorkflowName()] {
			s2 := *s
			s2.Consumer = rehomeConsumer(s.Consumer, e)
			scheds = append(scheds, &s2)
		}
	}
	cons = append(cons, newCons...)
	scheds = append(scheds, newScheds...)
	sortConsumers(prog, cons, scheds)
	return sem, cons, scheds, part, true
}

// namesUnique reports whether every global name is declared once, in a
// program whose files are all checked (none overwhelmed by syntax errors).
func namesUnique(prog *ast.Program) bool {
	seen := map[string]bool{}
	for _, f := range prog.Files {
		if f.Overwhelmed {
			return false
		}
		for _, d := range f.Decls {
			if _, ok := d.(*ast.Test); ok {
				continue // a test declares no global name
			}
			n := d.DeclName()
			if n == nil || seen[n.Name] {
				return false
			}
			seen[n.Name] = true
		}
	}
	return true
}

// sortConsumers puts consumers and schedules in source order, as the
// checker returns them.
func sortConsumers(prog *ast.Program, cons []*check.Consumer, scheds []*codegen.Schedule) {
	order := map[string]int{}
	for i, f := range prog.Files {
		order[f.Name] = i
	}
	sort.SliceStable(cons, func(i, j int) bool { return consLess(order, cons[i], cons[j]) })
	sort.SliceStable(scheds, func(i, j int) bool { return consLess(order, scheds[i].Consumer, scheds[j].Consumer) })
}

// checkedPart remembers the diagnostics of the last part recheck checked:
// the workflows from declaration k on of file.
type checkedPart struct {
	file *ast.File
	k    int
	sem  []diag.Diagnostic
}

func consLess(order map[string]int, a, b *check.Consumer) bool {
	if a.FileName() != b.FileName() {
		return order[a.FileName()] < order[b.FileName()]
	}
	return a.Pos.Offset < b.Pos.Offset
}

// checkPart checks every enum and entity of prog with the workflows named
// in names from the edited file as it is in f (before or after the edit),
// and returns the checker's and the lints' diagnostics with the consumers
// of those workflows and their schedules.
func checkPart(prog *ast.Program, e *declEdit, f *ast.File, names map[string]bool) ([]diag.Diagnostic, []*check.Consumer, []*codegen.Schedule) {
	part := &ast.Program{}
	workflows := 0
	for _, pf := range prog.Files {
		for _, d := range pf.Decls {
			if _, ok := d.(*ast.Workflow); ok {
				workflows++
			}
		}
	}
	for _, pf := range prog.Files {
		src := pf
		if pf.Name == e.file {
			src = f
		}
		cp := *src
		cp.Decls = nil
		for _, d := range src.Decls {
			switch d := d.(type) {
			case *ast.Workflow:
				if src == f && names[d.Name.Name] {
					cp.Decls = append(cp.Decls, d)
				}
			case *ast.Test:
				// A test of a workflow left out would not resolve here;
				// its diagnostics cannot change, and stay as they were. A
				// test without `Workflow` runs the only workflow (then the
				// edited one), or is WF504 whatever the edit.
				if w := testWorkflow(d); w != "" && names[w] || w == "" && workflows == 1 {
					cp.Decls = append(cp.Decls, d)
				}
			default:
				cp.Decls = append(cp.Decls, d)
			}
		}
		part.Files = append(part.Files, &cp)
	}
	res := check.Check(part)
	scheds, lints := wfc.Lower(res, lowering())
	sem := append(append([]diag.Diagnostic{}, res.Diags...), lints...)
	return sem, res.Consumers, scheds
}

// testWorkflow is the workflow a test names in `Workflow = Name;`, or ""
// (a test without one runs the program's only workflow, which may be any).
func testWorkflow(t *ast.Test) string {
	for _, s := range t.Settings {
		if n, ok := s.Value.(*ast.Name); ok && s.Name != nil && s.Name.Name == "Workflow" {
			return n.Name
		}
	}
	return ""
}

// diagKey identifies a diagnostic for subtraction.
func diagKey(d diag.Diagnostic) string {
	return fmt.Sprintf("%s\x00%d\x00%s\x00%s\x00%v\x00%v\x00%v", d.File, d.Severity, d.Code, d.Message, d.Range, d.Related, d.Fixes)
}

// subtract removes each of take from from (as multisets); ok is false if
// something to take is not there.
func subtract(from, take []diag.Diagnostic) ([]diag.Diagnostic, bool) {
	count := map[string]int{}
	for _, d := range take {
		count[diagKey(d)]++
	}
	var out []diag.Diagnostic
	for _, d := range from {
		k := diagKey(d)
		if count[k] > 0 {
			count[k]--
			continue
		}
		out = append(out, d)
	}
	for _, n := range count {
		if n != 0 {
			return nil, false
		}
	}
	return out, true
}

// shiftDiag moves a kept diagnostic of the edited file that lies after the
// edited declaration; one inside it means the partition failed.
func shiftDiag(d *diag.Diagnostic, e *declEdit) bool {
	ok := true
	move := func(file string, r *diag.Range) {
		if file != e.file {
			return
		}
		if r.Start.Offset >= e.oldEnd {
			r.Start.Offset += e.delta
			r.Start.Line += e.dLine
			r.End.Offset += e.delta
			r.End.Line += e.dLine
		} else if r.End.Offset > declStart(e) {
			ok = false
		}
	}
	move(d.File, &d.Range)
	if len(d.Related) > 0 {
		d.Related = append([]diag.Related(nil), d.Related...)
		for i := range d.Related {
			move(d.Related[i].File, &d.Related[i].Range)
		}
	}
	if len(d.Fixes) > 0 {
		fixes := make([]diag.Fix, len(d.Fixes))
		for i, f := range d.Fixes {
			f.Edits = append([]diag.Edit(nil), f.Edits...)
			for j := range f.Edits {
				move(f.Edits[j].File, &f.Edits[j].Range)
			}
			fixes[i] = f
		}
		d.Fixes = fixes
	}
	return ok
}

func declStart(e *declEdit) int32 { return e.oldF.Decls[e.k].DeclRange().Start.Offset }

// rehomeConsumer points a kept consumer of the edited file at its new
// version (it lies before the edit: its positions stand).
func rehomeConsumer(c *check.Consumer, e *declEdit) *check.Consumer {
	if c.FileName() != e.file {
		return c
	}
	c2 := *c
	c2.Src = e.newF
	return &c2
}
