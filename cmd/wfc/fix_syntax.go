package main

import (
	"slices"

	"github.com/wfc-lang/wfc/diag"
	"github.com/wfc-lang/wfc/parser"
)

// syntaxFixes are the machine-applicable fixes of a file's syntax errors
// (an inserted `;`, a keyword's case). --fix applies them only when the file
// re-parses with fewer syntax errors than before, so a guess that makes
// things worse is never written; the file's other fixes wait for the next
// round, when its tree is what the user meant.
type syntaxFixes struct {
	errors int // syntax diagnostics of the file
	edits  []diag.Edit
	codes  []diag.ID
}

func (s *syntaxFixes) add(d diag.Diagnostic) {
	s.errors++
	for _, f := range d.Fixes {
		if f.MachineApplicable && len(f.Edits) > 0 && !slices.ContainsFunc(f.Edits, func(e diag.Edit) bool { return e.File != d.File }) {
			s.edits = append(s.edits, f.Edits...)
			s.codes = append(s.codes, d.Code)
			return
		}
	}
}

// plan applies the fixes to src and keeps them if the result has fewer
// syntax errors.
func (s *syntaxFixes) plan(name, src string) (fixPlan, bool) {
	if len(s.edits) == 0 {
		return fixPlan{}, false
	}
	out, err := diag.ApplyEdits(src, s.edits)
	if err != nil {
		return fixPlan{}, false
	}
	_, ds := parser.Parse([]parser.Source{{Name: name, Src: out}}, parser.Options{Workers: 1})
	after := 0
	for _, d := range ds {
		if isSyntax(d.Code) {
			after++
		}
	}
	if after >= s.errors {
		return fixPlan{}, false
	}
	codes := slices.Clone(s.codes)
	slices.Sort(codes)
	return fixPlan{file: name, old: src, new: out, codes: codes}, true
}
