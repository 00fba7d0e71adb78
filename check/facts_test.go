package check

import (
	"fmt"
	"slices"
	"testing"

	"github.com/wfc-lang/wfc/ast"
	"github.com/wfc-lang/wfc/parser"
)

// TestFactsOneWorkflowAtATime: with the rules of today (none reads across
// workflows) a rule sees the facts of its own workflow alone, the others'
// dropped (a program of many workflows does not hold them all); with a
// rule of program scope, every workflow's facts are there when the rules
// run, and the rules still run once per workflow.
func TestFactsOneWorkflowAtATime(t *testing.T) {
	src := `workflow A { Initial = S; event Go(); state S { subscribe Go(); on Go { goto T; } } terminal T { } }
workflow B { Initial = S; event Go(); state S { subscribe Go(); on Go { goto T; } } terminal T { } }
workflow C { Initial = S; event Go(); state S { subscribe Go(); on Go { goto T; } } terminal T { } }
`
	prog, syntax := parser.Parse([]parser.Source{{Name: "f.wf", Src: src}}, parser.Options{Workers: 1})
	if len(syntax) > 0 {
		t.Fatal(syntax)
	}
	for _, scope := range []ruleScope{scopeWorkflow, scopeProgram} {
		var seen []string
		probe := &rule{name: "probe", scope: scope, workflow: func(c *checker, w *walk, wf *ast.Workflow) {
			if w.wf == nil || w.wf.w != wf || w.wf.model == nil {
				t.Errorf("scope %d: %s has no facts or model", scope, wf.Name.Name)
			}
			seen = append(seen, fmt.Sprintf("%s:%d:%d", wf.Name.Name, len(c.wfFacts), len(c.stFacts)))
		}}
		rs := append(append([]*rule{}, rules...), probe)
		res := checkRules(prog, Options{}, newRuleSet(rs))
		want := []string{"A:1:2", "B:1:2", "C:1:2"}
		if scope == scopeProgram {
			want = []string{"A:3:6", "B:3:6", "C:3:6"}
		}
		if !slices.Equal(seen, want) {
			t.Errorf("scope %d: the rule saw %v, want %v", scope, seen, want)
		}
		if len(res.Program.Workflows) != 3 || len(res.Diags) != 0 {
			t.Errorf("scope %d: %d workflows, diagnostics %v", scope, len(res.Program.Workflows), res.Diags)
		}
	}
}
