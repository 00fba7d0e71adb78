package check

import (
	"github.com/wfc-lang/wfc/ast"
	"github.com/wfc-lang/wfc/diag"
)

// ruleWF115 is WF115 (initial state is terminal), a check of the workflow it is in.
var ruleWF115 = rule{name: "initial state is terminal", codes: []diag.ID{diag.WF115}, scope: scopeWorkflow, workflow: initialTerminal}

// initialTerminal: WF115, `Initial` naming a terminal state.
func initialTerminal(c *checker, w *walk, _ *ast.Workflow) {
	if w.wf == nil {
		return
	}
	st := w.wf.initialState
	if st == nil || st.Kind == ast.Normal {
		return
	}
	d := c.report(w.wf.initialSetting.Value.Rng(), diag.WF115, "`Initial` names terminal state `%s`: a run would end before it starts; name a non-terminal state", st.Name.Name)
	c.related(d, st.Name.Range, "declared terminal here")
}
