package check_test

import (
	"fmt"
	"strings"
	"testing"

	"github.com/wfc-lang/wfc/ast"
	"github.com/wfc-lang/wfc/check"
	"github.com/wfc-lang/wfc/internal/scaling"
	"github.com/wfc-lang/wfc/internal/suggest"
	"github.com/wfc-lang/wfc/parser"
)

// unknownGotos is a workflow of n states, each with a `goto` to a name that
// no state has and none is close to, but as long as theirs (`T` and five
// letters, the states `S` and five digits): every goto is WF103 and asks
// for a suggestion among all n states, and each search spends its whole
// budget, so the work per name is the same at every size past the budget.
func unknownGotos(n int) *ast.Program {
	var b strings.Builder
	b.WriteString("workflow W {\n  Initial = S00000;\n  event Go();\n")
	for i := range n {
		fmt.Fprintf(&b, "  state S%05d { subscribe Go(); on Go { goto T%s; } }\n", i, letters(i))
	}
	b.WriteString("}\n")
	prog, _ := parser.Parse([]parser.Source{{Name: "w.wf", Src: b.String()}}, parser.Options{Workers: 1})
	return prog
}

// letters writes i in five base-26 letters.
func letters(i int) string {
	var b [5]byte
	for k := len(b) - 1; k >= 0; k-- {
		b[k] = byte('a' + i%26)
		i /= 26
	}
	return string(b[:])
}

// TestSuggestionsScale: "did you mean" must not make the checker quadratic
// (10,000 unknown gotos once took 43 s). Checking 4N unknown gotos among 4N
// states may cost about 4 times N's, and must not cost 16 times: counted,
// not timed, as the candidates the suggestions compare and the allocations.
func TestSuggestionsScale(t *testing.T) {
	if testing.Short() {
		t.Skip("measures two programs of thousands of states")
	}
	const n = 1500
	if got := len(check.Check(unknownGotos(n)).Diags); got != n {
		t.Fatalf("want %d WF103, got %d diagnostics", n, got)
	}
	progs := map[int]*ast.Program{n: unknownGotos(n), scaling.Factor * n: unknownGotos(scaling.Factor * n)}
	scaling.Linear(t, "unknown gotos", func(k int) { check.Check(progs[k]) }, n,
		scaling.Count("names compared", &suggest.Compared))
}

// casesOfEnum is a handler with a case for each of an enum's n members.
func casesOfEnum(n int) *ast.Program {
	var b strings.Builder
	b.WriteString("enum E {")
	for i := range n {
		fmt.Fprintf(&b, " M%06d,", i)
	}
	b.WriteString(" }\nworkflow W {\n  Initial = A;\n  event Go(E e);\n  state A { subscribe Go(E e); on Go(E e) {\n")
	for i := range n {
		fmt.Fprintf(&b, "    M%06d { }\n", i)
	}
	b.WriteString("  } }\n}\n")
	prog, _ := parser.Parse([]parser.Source{{Name: "w.wf", Src: b.String()}}, parser.Options{Workers: 1})
	return prog
}

// TestCasesScale: matching cases to members (WF206) is n log n, not
// quadratic; an enum of 160,000 members with a case each once took 42 s
// (each case compared with every member). Each case asks the enum's
// sorted member set (O(log n)): counted, the names compared grow 10× from
// n to 8n, and the allocations 8×; timed (WFC_TIMING), the CPU time is
// held to NLogN's bound (17× to 26× measured, 64× if quadratic).
func TestCasesScale(t *testing.T) {
	if testing.Short() {
		t.Skip("measures two programs of thousands of cases")
	}
	const n = 1000
	progs := map[int]*ast.Program{n: casesOfEnum(n), scaling.Factor * n: casesOfEnum(scaling.Factor * n)}
	scaling.NLogN(t, "cases × members", func(k int) { check.Check(progs[k]) }, n,
		scaling.Count("names compared", &suggest.Compared))
}
