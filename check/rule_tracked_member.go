package check

import (
	"fmt"

	"github.com/wfc-lang/wfc/ast"
	"github.com/wfc-lang/wfc/diag"
)

// ruleWF114 is WF114 (tracked member without a state), a check of the workflow it is in.
var ruleWF114 = rule{name: "tracked member without a state", codes: []diag.ID{diag.WF114}, scope: scopeWorkflow, workflow: trackedMemberWithoutState}

// trackedMemberWithoutState: WF114, a member of the tracked enum that no
// state of the workflow is named after. Quiet when a state may be in what
// failed to parse, and for the members a WF113 names as meant.
func trackedMemberWithoutState(c *checker, w *walk, wf *ast.Workflow) {
	if w.wf == nil || w.wf.tracked == nil || w.wf.statesUncertain {
		return
	}
	e := w.wf.tracked
	for _, m := range e.Members {
		if _, ok := w.wf.states.get(m.Name); ok || w.wf.meantMembers[m.Name] {
			continue
		}
		d := c.reportIn(e.File.Name, m.Range, diag.WF114, fmt.Sprintf("member `%s` of tracked enum `%s` has no state in workflow `%s`: a run can never be in it; add `state %s { … }` or remove the member", m.Name, e.Name.Name, wf.Name.Name, m.Name))
		d.Related = append(d.Related, diagRelated(c.file.Name, w.wf.tracks.Range, "tracked by workflow `"+wf.Name.Name+"` here"))
	}
}
