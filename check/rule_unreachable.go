package check

import (
	"github.com/wfc-lang/wfc/ast"
	"github.com/wfc-lang/wfc/diag"
)

// ruleWF201 is WF201 (unreachable state), a check of the workflow it is in.
var ruleWF201 = rule{name: "unreachable state", codes: []diag.ID{diag.WF201}, scope: scopeWorkflow, workflow: unreachableStates}

// unreachableStates: WF201, states no chain of goto reaches from Initial.
// Quiet when a goto is unknown (WF103: it may be the edge) or something
// failed to parse (an edge may be there).
func unreachableStates(c *checker, w *walk, _ *ast.Workflow) {
	if w.wf == nil || w.wf.model == nil || !w.wf.model.ReachKnown {
		return
	}
	wf := w.wf.model
	initial := wf.Initial.Decl.Name.Name
	for _, s := range wf.States {
		if s.Reach == Unreachable {
			name := s.Decl.Name.Name
			c.report(s.Decl.Name.Range, diag.WF201, "state `%s` is unreachable: no chain of `goto` leads to it from `%s`, the initial state; add `goto %s;` where a run should move to it, or remove it", name, initial, name)
		}
	}
}
