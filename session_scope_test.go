package wfc

import (
	"context"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
)

// TestSessionAsksRuleScopes: a session checks again only the edited file
// when the checker's rules allow checking files apart, and the whole
// program when a rule reads across workflows (check.PartialRecheckSafe
// false, as it would be with a program-wide rule added: check's
// TestPartialRecheckScope) — with the same diagnostics either way.
func TestSessionAsksRuleScopes(t *testing.T) {
	flow := func(name string) string {
		return "workflow " + name + " { Initial = A; event Go(); state A { subscribe Go(); on Go { goto Dne; } } terminal Done { } }\n"
	}
	for _, safe := range []bool{true, false} {
		for _, opt := range []Options{{Info: true}, {DiagnosticsOnly: true}} {
			files := []Source{{Name: "a.wf", Src: flow("One")}, {Name: "b.wf", Src: flow("Two")}, {Name: "c.wf", Src: flow("Three")}}
			s := NewSession(opt)
			s.partialSafe = func() bool { return safe }
			s.Run(context.Background(), files)
			files[1].Src = strings.Replace(files[1].Src, "goto Dne;", "goto  Dne;", 1)
			r := s.Run(context.Background(), files)
			want := []string{"b.wf"}
			if !safe {
				want = []string{"a.wf", "b.wf", "c.wf"}
			}
			if d := cmp.Diff(want, r.Rechecked); d != "" {
				t.Errorf("safe=%v, model %v: checked again (-want +got):\n%s", safe, !opt.DiagnosticsOnly, d)
			}
			if d := cmp.Diff(Run(context.Background(), files, Options{}).Diagnostics, r.Diagnostics); d != "" {
				t.Errorf("safe=%v: diagnostics differ from a whole check (-whole +session):\n%s", safe, d)
			}
		}
	}
}
