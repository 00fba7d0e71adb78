package check

import (
	"github.com/wfc-lang/wfc/ast"
	"github.com/wfc-lang/wfc/check/vocab"
	"github.com/wfc-lang/wfc/diag"
)

// ruleWF205 is WF205 (milestone without final outcome), a check of the workflow it is in.
var ruleWF205 = rule{name: "milestone without final outcome", codes: []diag.ID{diag.WF205}, scope: scopeWorkflow, milestone: milestoneWithoutFinal}

// milestoneWithoutFinal: WF205, a milestone after which the run stays put:
// no final outcome (`Unfinished`, `Unassigned`), and no `Exhausted` that
// moves the run. An outcome misspelled for the final one, or written under
// the wrong kind, shows the intent (WF117 says so), and counts as it.
func milestoneWithoutFinal(c *checker, w *walk, m *ast.Milestone) {
	if m.Bad || w.normalState() == nil {
		return
	}
	final, known := milestoneKinds[m.Kind.Name]
	if !known {
		return // WF117
	}
	for _, o := range m.Outcomes {
		switch name := o.Name.Name; {
		case name == final, isFinal(name):
			return
		case name == vocab.Exhausted:
			if o.Body == nil || o.Body.Bad || hasGoto(o.Body) {
				return // runs after the last window and moves the run
			}
		case meantOutcome(name, final) == final:
			return // a misspelling of it (WF117)
		}
	}
	c.report(m.Kind.Range, diag.WF205, "milestone `%s` has no `%s { … }`: after the last window passes the run stays in state `%s`; add `%s { goto … }`", m.Kind.Name, final, w.state.Name.Name, final)
}

// hasGoto reports whether a block says `goto` anywhere.
func hasGoto(b *ast.Block) bool {
	found := false
	ast.Inspect(b, func(n ast.Node) bool {
		if _, ok := n.(*ast.Goto); ok {
			found = true
		}
		_, isExpr := n.(ast.Expr)
		return !found && !isExpr
	})
	return found
}
