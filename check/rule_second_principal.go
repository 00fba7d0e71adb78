package check

import (
	"github.com/wfc-lang/wfc/ast"
	"github.com/wfc-lang/wfc/diag"
)

// ruleWF207 is WF207 (second principal), a check of the entities across
// the program (every partial re-check has them all).
var ruleWF207 = rule{name: "second principal", codes: []diag.ID{diag.WF207}, scope: scopeTypes, entity: secondPrincipal}

// secondPrincipal: WF207, a `[Principal]` entity after the first one. A
// second declaration of a name (WF101) is not a second principal: the
// duplicate is the one mistake.
func secondPrincipal(c *checker, w *walk, e *ast.Entity) {
	if e.Name != nil {
		if first := c.global(e.Name.Name); first != nil && first != ast.Decl(e) {
			return
		}
	}
	for _, a := range e.Attrs {
		if a.Name == nil || a.Name.Name != "Principal" || a.HasArgs {
			continue // not a principal, or WF110
		}
		c.readFlag(func(u *Uses) { u.Principals = true })
		if c.principal == nil {
			c.principal, c.principalFile = a, c.file.Name
			return
		}
		d := c.report(a.Range, diag.WF207, "more than one `[Principal]` entity: the runtime's principal must be one entity; keep `[Principal]` on one of them")
		d.Related = append(d.Related, diagRelated(c.principalFile, c.principal.Range, "first `[Principal]` here"))
		return
	}
}
