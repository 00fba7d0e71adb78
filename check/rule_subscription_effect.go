package check

import (
	"github.com/wfc-lang/wfc/ast"
	"github.com/wfc-lang/wfc/diag"
)

// ruleWF203 is WF203 (subscription without effect), a check of the workflow it is in.
var ruleWF203 = rule{name: "subscription without effect", codes: []diag.ID{diag.WF203}, scope: scopeWorkflow, state: subscriptionWithoutEffect}

// subscriptionWithoutEffect: WF203, a subscription of a declared event with
// neither a handler nor a milestone. A handler whose WF105 names the
// subscription as meant counts as its handler.
func subscriptionWithoutEffect(c *checker, w *walk, s *ast.State) {
	if s.Bad || w.normalState() != s {
		return
	}
	handled := map[string]bool{}
	for _, h := range s.Handlers {
		handled[h.Name.Name] = true
	}
	if f := c.stFacts[s]; f != nil {
		for slot := range f.meantSlots {
			handled[slot] = true // a misspelled handler (WF105) answers it
		}
	}
	for _, sub := range s.Subscribes {
		_, known := w.wf.events.get(sub.Event.Name)
		if !known || sub.Bad || len(sub.Milestones) > 0 || handled[sub.Slot().Name] {
			continue
		}
		c.report(sub.Event.Range, diag.WF203, "subscription to `%s` has no handler and no milestone: nothing happens when it arrives; add `on %s { … }`", sub.Event.Name, sub.Slot().Name)
	}
}
