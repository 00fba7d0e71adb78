package check

import (
	"fmt"

	"github.com/wfc-lang/wfc/ast"
	"github.com/wfc-lang/wfc/diag"
)

// ruleWF202 is WF202 (statements after goto), a check of the workflow it is in.
var ruleWF202 = rule{name: "statements after goto", codes: []diag.ID{diag.WF202}, scope: scopeWorkflow, block: statementsAfterGoto}

// statementsAfterGoto: WF202, the statements of a block after its first
// `goto`, with the fix that removes them. Terminal states' handlers are
// WF116 already.
func statementsAfterGoto(c *checker, w *walk, b *ast.Block) {
	if w.state == nil || w.state.Kind != ast.Normal {
		return
	}
	for i, st := range b.Stmts {
		g, isGoto := st.(*ast.Goto)
		if !isGoto || g.Target == nil {
			continue
		}
		if i+1 == len(b.Stmts) {
			return
		}
		next, last := b.Stmts[i+1], b.Stmts[len(b.Stmts)-1]
		d := c.report(next.Rng(), diag.WF202, "this statement never runs: it comes after `goto %s;`, which leaves the state; remove it or move it before the `goto`", g.Target.Name)
		// Two fixes, for a person to choose: which one is right depends on
		// what the statements were meant to do, so neither is applied by
		// --fix.
		count := stmtCount(len(b.Stmts) - i - 1)
		d.Fixes = append(d.Fixes, diag.Fix{Title: fmt.Sprintf("move the `goto %s;` after the %s", g.Target.Name, count),
			Edits: []diag.Edit{{File: c.file.Name, Range: diag.Range{Start: g.Range.Start, End: last.Rng().End},
				NewText: c.file.Text(diag.Range{Start: next.Rng().Start, End: last.Rng().End}) +
					c.file.Text(diag.Range{Start: g.Range.End, End: next.Rng().Start}) + c.file.Text(g.Range)}}})
		d.Fixes = append(d.Fixes, diag.Fix{Title: fmt.Sprintf("remove the %s after `goto %s;`", count, g.Target.Name),
			Edits: []diag.Edit{{File: c.file.Name, Range: diag.Range{Start: g.Range.End, End: last.Rng().End}, NewText: ""}}})
		return
	}
}
