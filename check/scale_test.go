package check_test

import (
	"fmt"
	"strings"
	"testing"
	"time"

	"github.com/wfc-lang/wfc/ast"
	"github.com/wfc-lang/wfc/check"
	"github.com/wfc-lang/wfc/parser"
)

// unknownGotos is a workflow of n states, each with a `goto` to a name that
// no state has but that is as long as theirs (all names are as long, so
// the work per name is the same at every size): every goto is WF103 and asks
// for a suggestion among all n states.
func unknownGotos(n int) *ast.Program {
	var b strings.Builder
	b.WriteString("workflow W {\n  Initial = S00000;\n  event Go();\n")
	for i := range n {
		fmt.Fprintf(&b, "  state S%05d { subscribe Go(); on Go { goto T%05d; } }\n", i, i)
	}
	b.WriteString("}\n")
	prog, _ := parser.Parse([]parser.Source{{Name: "w.wf", Src: b.String()}}, parser.Options{Workers: 1})
	return prog
}

// cost is the least time of a few runs of check.Check, and its allocations.
func cost(prog *ast.Program) (time.Duration, float64) {
	best := time.Duration(1 << 62)
	for range 3 {
		start := time.Now()
		check.Check(prog)
		best = min(best, time.Since(start))
	}
	return best, testing.AllocsPerRun(1, func() { check.Check(prog) })
}

// TestSuggestionsScale: "did you mean" must not make the checker quadratic
// (10,000 unknown gotos once took 43 s). Checking 4N unknown gotos among 4N
// states may cost about 4 times N's, and must not cost 16 times: the test
// fails past 6 times in allocations, or in time on three tries in a row (the
// machine may be busy; a quadratic checker is 16 times slower every time).
func TestSuggestionsScale(t *testing.T) {
	if testing.Short() {
		t.Skip("measures two programs of thousands of states")
	}
	const n = 1500
	small, large := unknownGotos(n), unknownGotos(4*n)
	if got := len(check.Check(small).Diags); got != n {
		t.Fatalf("want %d WF103, got %d diagnostics", n, got)
	}
	var ratios []float64
	for range 3 {
		ts, as := cost(small)
		tl, al := cost(large)
		t.Logf("N=%d: %v, %.0f allocs; 4N: %v, %.0f allocs", n, ts, as, tl, al)
		if r := al / as; r > 6 {
			t.Fatalf("allocations grow %.1f× for 4× the input", r)
		}
		r := float64(tl) / float64(ts)
		if r <= 6 {
			return
		}
		ratios = append(ratios, r)
	}
	t.Errorf("time grows %.1f× for 4× the input, three times in a row", ratios)
}
