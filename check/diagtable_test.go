package check_test

import (
	"fmt"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/wfc-lang/wfc/check"
	"github.com/wfc-lang/wfc/diag"
	"github.com/wfc-lang/wfc/parser"
)

// checked parses and checks src; syntax errors are allowed only when the
// case says so (recovery is part of what some cases pin).
func checked(t *testing.T, src string, syntaxOK bool) *check.Result {
	t.Helper()
	prog, syntax := parser.Parse([]parser.Source{{Name: "t.wf", Src: src}}, parser.Options{Workers: 1})
	if len(syntax) > 0 && !syntaxOK {
		t.Fatalf("syntax error: %s", syntax[0].Message)
	}
	return check.Check(prog)
}

// renderDiag shows a diagnostic as a user sees it: where it starts, its
// code, the source it underlines, its message, its related notes and its
// fixes with their edits (each edit as the source it replaces and the text
// it writes), and whether --fix may apply each.
func renderDiag(src string, d diag.Diagnostic) string {
	text := func(r diag.Range) string {
		return strings.ReplaceAll(src[r.Start.Offset:r.End.Offset], "\n", `\n`)
	}
	var b strings.Builder
	fmt.Fprintf(&b, "%d:%d %s «%s» %s", d.Range.Start.Line, d.Range.Start.Column, d.Code, text(d.Range), d.Message)
	for _, r := range d.Related {
		fmt.Fprintf(&b, " | related %d:%d «%s» %s", r.Range.Start.Line, r.Range.Start.Column, text(r.Range), r.Message)
	}
	for _, f := range d.Fixes {
		fmt.Fprintf(&b, " | fix %s:", f.Title)
		for _, e := range f.Edits {
			fmt.Fprintf(&b, " %d:%d «%s»→«%s»", e.Range.Start.Line, e.Range.Start.Column, text(e.Range), e.NewText)
		}
		if f.MachineApplicable {
			b.WriteString(" [machine-applicable]")
		}
	}
	return b.String()
}

// diagCase is a program and the diagnostics the checker must give for it,
// each "line:col WFnnn" followed by fragments (separated by " && ") that
// its rendering (renderDiag) must contain; a fragment "!x" must not be in it. The checker must give exactly
// as many diagnostics as the case lists.
type diagCase struct {
	name     string
	src      string
	syntaxOK bool
	want     []string
	// consumers, when set, are the policy consumers (renderConsumer).
	consumers []string
}

// renderConsumer shows what lowering takes from a consumer.
func renderConsumer(c *check.Consumer) string {
	return fmt.Sprintf("%s/%s%s %v attempts=%d budget=%v window=%d valid=%v lintable=%v",
		c.StateName(), c.Slot(), c.StepName(), c.Kind, c.Attempts, c.Budget, c.Window, c.Valid, c.Lintable)
}

func runDiagCases(t *testing.T, cases []diagCase) {
	t.Helper()
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			res := checked(t, tc.src, tc.syntaxOK)
			var got []string
			for _, d := range res.Diags {
				got = append(got, renderDiag(tc.src, d))
			}
			used := make([]bool, len(got))
		next:
			for _, w := range tc.want {
				f := strings.SplitN(w, " ", 3)
				prefix := strings.Join(f[:min(2, len(f))], " ") + " "
				var frags []string
				if len(f) == 3 {
					frags = strings.Split(f[2], " && ")
				}
				for i, g := range got {
					if used[i] || !strings.HasPrefix(g, prefix) {
						continue
					}
					ok := true
					for _, fr := range frags {
						if no, ok2 := strings.CutPrefix(fr, "!"); ok2 {
							ok = ok && !strings.Contains(g, no)
						} else {
							ok = ok && strings.Contains(g, fr)
						}
					}
					if ok {
						used[i] = true
						continue next
					}
				}
				t.Errorf("no diagnostic %q", w)
			}
			for i, g := range got {
				if !used[i] {
					t.Errorf("unexpected diagnostic %s", g)
				}
			}
			if tc.consumers != nil {
				var cons []string
				for _, c := range res.Consumers {
					cons = append(cons, renderConsumer(c))
				}
				if diff := cmp.Diff(tc.consumers, cons); diff != "" {
					t.Errorf("consumers -want +got:\n%s", diff)
				}
			}
		})
	}
}
