package check

import (
	"github.com/wfc-lang/wfc/ast"
	"github.com/wfc-lang/wfc/diag"
)

// ruleWF116 is WF116 (terminal state waits), a check of the workflow it is in.
var ruleWF116 = rule{name: "terminal state waits", codes: []diag.ID{diag.WF116}, scope: scopeWorkflow, state: terminalWaits}

// terminalWaits: WF116, a terminal state that subscribes or handles: a run
// there has ended.
func terminalWaits(c *checker, w *walk, s *ast.State) {
	if s.Kind == ast.Normal {
		return
	}
	for _, sub := range s.Subscribes {
		c.report(sub.Range, diag.WF116, "terminal state `%s` subscribes to `%s`: a run that reaches a terminal state has ended and waits for nothing; move the subscription to a non-terminal state", s.Name.Name, sub.Event.Name)
	}
	for _, h := range s.Handlers {
		c.report(h.Range, diag.WF116, "terminal state `%s` handles `%s`: a run that reaches a terminal state has ended; move the handler to a non-terminal state", s.Name.Name, h.Name.Name)
	}
}
