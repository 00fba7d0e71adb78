package check

import (
	"slices"

	"github.com/wfc-lang/wfc/ast"
	"github.com/wfc-lang/wfc/diag"
)

// ruleWF206 is WF206 (cases missing members), a check of the workflow it is in.
var ruleWF206 = rule{name: "cases missing members", codes: []diag.ID{diag.WF206}, scope: scopeWorkflow, handler: casesMissingMembers}

// casesMissingMembers: WF206, a handler that matches its enum parameter with
// cases but misses members and has no `default`. A case label misspelled
// for a member (WF109 names it) counts as that member, and one that is
// `default` with a capital (WF109 says so) counts as the `default`.
func casesMissingMembers(c *checker, w *walk, h *ast.Handler) {
	if h.Body == nil || h.Body.Bad || w.normalState() == nil {
		return
	}
	e, param := c.handlerEnum(w.wf, h)
	if e == nil || e.Bad {
		return
	}
	labels := map[string]bool{}
	for _, st := range h.Body.Stmts {
		switch st := st.(type) {
		case *ast.Default:
			return
		case *ast.Case:
			labels[st.Label.Name] = true
			// The enum's sorted member names answer in O(log n): an enum of
			// 160,000 members with a case each stays linear.
			if _, found := slices.BinarySearch(c.memberSet(e).Names(), st.Label.Name); !found {
				if capitalDefault(st.Label.Name, true, false) {
					return // the user wrote a `default`
				}
				if meant := c.memberSet(e).Closest(st.Label.Name); meant != "" {
					labels[meant] = true
				}
			}
		}
	}
	if len(labels) == 0 {
		return
	}
	var missing []string
	for _, m := range e.Members {
		if !labels[m.Name] {
			missing = append(missing, m.Name)
		}
	}
	if len(missing) > 0 {
		c.report(h.Name.Range, diag.WF206, "`on %s` has no case for %s of `%s` and no `default`: a run stays put when `%s` is %s; add %s or `default { … }`",
			h.Name.Name, quoteList(missing), e.Name.Name, param, orList(missing), caseList(missing))
	}
}
