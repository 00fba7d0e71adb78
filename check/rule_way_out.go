package check

import (
	"github.com/wfc-lang/wfc/ast"
	"github.com/wfc-lang/wfc/diag"
)

// ruleWF204 is WF204 (state without way out), a check of the workflow it is in.
var ruleWF204 = rule{name: "state without way out", codes: []diag.ID{diag.WF204}, scope: scopeWorkflow, state: stateWithoutWayOut}

// stateWithoutWayOut: WF204, a non-terminal state no `goto` leaves. Quiet
// when part of it failed to parse (a goto may be there).
func stateWithoutWayOut(c *checker, w *walk, s *ast.State) {
	if w.normalState() != s {
		return
	}
	if f := c.stFacts[s]; f == nil || len(f.targets) > 0 || f.opaque {
		return
	}
	c.report(s.Name.Range, diag.WF204, "state `%s` has no way out: no handler or outcome in it says `goto`, so a run that enters it stays for ever; add a `goto` or make it `terminal`", s.Name.Name)
}
