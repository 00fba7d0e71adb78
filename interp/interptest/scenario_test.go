package interptest_test

import (
	"context"
	"strings"
	"testing"

	"github.com/wfc-lang/wfc"
	"github.com/wfc-lang/wfc/interp"
	"github.com/wfc-lang/wfc/interp/interptest"
	"github.com/wfc-lang/wfc/parser"
)

const src = `enum Fault { Busy, Declined }
enum Color { Red, Blue }
workflow W {
  Initial = A;
  event Go(Color c);
  state A {
    subscribe Go(Color c) as Worker;
    on Worker(Color c) { Workflow.Once("charge", retry: Backoff.Fixed(TimeSpan.FromSeconds(10)).MaxAttempts(3)) { Pay.Charge(c); } goto B; }
  }
  terminal B { }
}
`

// TestScenario: each directive comes out as the Scenario field it names,
// bound to the program's objects.
func TestScenario(t *testing.T) {
	r := wfc.Run(context.Background(), []parser.Source{{Name: "w.wf", Src: src}}, wfc.Options{Workers: 1})
	if r.Checked == nil {
		t.Fatalf("the program does not check: %v", r.Diagnostics)
	}
	wf := r.Checked.Program.Workflows[0]
	sc, err := interptest.Scenario(r.Checked, wf, strings.Join([]string{
		"// at 0s start",
		"// at 1m send Go(Blue)",
		"// at 2m30s take Worker",
		"// fail charge 2 kind Fault.Declined retry-after 5s",
		"// fail charge always",
		"// takes charge 4s",
		"// takes charge 9s attempt 2",
		"// draws 0.25,0.5",
		"// a comment that is no directive",
	}, "\n"))
	if err != nil {
		t.Fatal(err)
	}
	const s, m = interp.Ticks(10_000_000), interp.Ticks(600_000_000)
	if len(sc.Actions) != 3 {
		t.Fatalf("%d actions, want 3: %+v", len(sc.Actions), sc.Actions)
	}
	if a := sc.Actions[0]; a.Kind != interp.ActStart || a.At != 0 {
		t.Errorf("first action %+v, want a start at 0", a)
	}
	if a := sc.Actions[1]; a.Kind != interp.ActSend || a.At != m || a.Event != wf.EventNamed("Go") || len(a.Args) != 1 || a.Args[0].Member == nil || a.Args[0].Member.Ident.Name != "Blue" {
		t.Errorf("second action %+v, want Go(Blue) at 1m, its argument the member", a)
	}
	if a := sc.Actions[2]; a.Kind != interp.ActTake || a.At != 2*m+30*s || a.Slot == nil || a.Slot.Name != "Worker" {
		t.Errorf("third action %+v, want a take of Worker at 2m30s", a)
	}
	if len(sc.Steps) != 1 {
		t.Fatalf("%d step scripts, want 1", len(sc.Steps))
	}
	for st, scr := range sc.Steps {
		if st.Key != "charge" {
			t.Errorf("a script for step %q", st.Key)
		}
		if len(scr.Fails) != 2 {
			t.Fatalf("%d failures, want 2: %+v", len(scr.Fails), scr.Fails)
		}
		f := scr.Fails[0]
		if f.Times != 2 || f.Always || f.Kind == nil || f.Kind.Ident.Name != "Declined" || f.Kind.Enum.Decl.Name.Name != "Fault" || !f.HasRetryAfter || f.RetryAfter != 5*s {
			t.Errorf("first failure %+v, want 2 times, Fault.Declined, retry after 5s", f)
		}
		if f := scr.Fails[1]; !f.Always || f.Kind != nil || f.HasRetryAfter {
			t.Errorf("second failure %+v, want always, of no kind", f)
		}
		if scr.Took != 4*s || len(scr.Takes) != 1 || scr.Takes[2] != 9*s {
			t.Errorf("took %v, takes %v; want 4s, and 9s for attempt 2", scr.Took, scr.Takes)
		}
	}
	if len(sc.Draws) != 2 || sc.Draws[0] != 0.25 || sc.Draws[1] != 0.5 {
		t.Errorf("draws %v, want [0.25 0.5]", sc.Draws)
	}
	for _, bad := range []string{"// fail nosuch 1", "// fail charge 1 kind Fault.Nope", "// at 1m send Nope()", "// at 1m dance", "// draws x"} {
		if _, err := interptest.Scenario(r.Checked, wf, bad); err == nil {
			t.Errorf("%q: no error", bad)
		}
	}
}
