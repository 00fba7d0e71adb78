package wftest_test

import (
	"context"
	"strings"
	"testing"

	"github.com/wfc-lang/wfc"
	"github.com/wfc-lang/wfc/diag"
	"github.com/wfc-lang/wfc/interp"
	"github.com/wfc-lang/wfc/parser"
	"github.com/wfc-lang/wfc/wftest"
)

const seqProgram = `workflow W {
  Autostart = true;
  Initial = A;
  event E(string s);
  state A { subscribe E(string s) as Slot; on Slot(string s) { Log.Write(s); } }
}
`

// TestScenarioOrder: actions are sorted by time, and actions at one time
// keep the order they are written in (a stable sort), whatever their kind.
func TestScenarioOrder(t *testing.T) {
	src := seqProgram + `test "order" {
  Send(E("c"), at: TimeSpan.FromSeconds(2));
  Send(E("a"), at: TimeSpan.FromSeconds(1));
  Take(Slot, at: TimeSpan.FromSeconds(2));
  Send(E("b"), at: TimeSpan.FromSeconds(1));
  Send(E("d"), at: TimeSpan.FromSeconds(2));
}
`
	r := wfc.Run(context.Background(), []parser.Source{{Name: "o.wf", Src: src}}, wfc.Options{})
	if errs, _ := diag.Counts(r.Diagnostics); errs != 0 {
		t.Fatal(r.Diagnostics)
	}
	sc := wftest.Scenario(r.Checked.Program.Tests[0])
	var got []string
	for _, a := range sc.Actions {
		switch a.Kind {
		case interp.ActSend:
			got = append(got, a.Args[0].Text)
		case interp.ActTake:
			got = append(got, "take "+a.Slot.Name)
		}
	}
	want := `"a" "b" "c" take Slot "d"`
	if strings.Join(got, " ") != want {
		t.Errorf("actions in order %v, want %s", got, want)
	}
	for i := 1; i < len(sc.Actions); i++ {
		if sc.Actions[i].At < sc.Actions[i-1].At {
			t.Errorf("action %d before action %d", i, i-1)
		}
	}
}

// TestExpectations: each kind of expectation passes on what the run did
// and fails, with a message, on anything else.
func TestExpectations(t *testing.T) {
	tests := []struct {
		expect string
		pass   bool
		msg    string
	}{
		{`Expect.State(A, at: TimeSpan.FromSeconds(1));`, true, ""},
		{`Expect.State(A);`, true, ""},
		{`Expect.Call(Log.Write("x"), at: TimeSpan.FromSeconds(1));`, true, ""},
		{`Expect.Call(Log.Write("x"));`, true, ""},
		{`Expect.Call(Log.Write("x"), at: TimeSpan.FromSeconds(2));`, false, `expected the call Log.Write("x") at 2s; the run called Log.Write("x") at 1s`},
		{`Expect.Call(Log.Write("y"));`, false, `expected the call Log.Write("y"); the run called Log.Write("x") at 1s`},
	}
	for _, tt := range tests {
		src := seqProgram + "test \"t\" {\n  Send(E(\"x\"), at: TimeSpan.FromSeconds(1));\n  " + tt.expect + "\n}\n"
		r := wfc.Run(context.Background(), []parser.Source{{Name: "e.wf", Src: src}}, wfc.Options{})
		if errs, _ := diag.Counts(r.Diagnostics); errs != 0 {
			t.Fatalf("%s: %v", tt.expect, r.Diagnostics)
		}
		res := wftest.Run(r.Checked, r.Checked.Program.Tests[0], wftest.Options{})
		if res.Passed() != tt.pass {
			t.Errorf("%s: passed %v, want %v (%v)", tt.expect, res.Passed(), tt.pass, res.Failures)
			continue
		}
		if !tt.pass && res.Failures[0].Message != tt.msg {
			t.Errorf("%s: message %q, want %q", tt.expect, res.Failures[0].Message, tt.msg)
		}
	}
}

// FuzzTests feeds arbitrary source, with a program and tests, through the
// whole path of `wfc test`: parse, check, and (when clean) run every test
// with coverage. Nothing may panic, hang or run away: a run is bounded by
// the interpreter's limits.
func FuzzTests(f *testing.F) {
	f.Add(seqProgram + `test "t" { Send(E("x"), at: TimeSpan.FromSeconds(1)); Expect.State(A); }`)
	f.Add(seqProgram + `test "t" { Take(Slot); Take(Slot); Expect.End(A, at: -TimeSpan.Zero); }`)
	f.Add(`workflow W { Initial = A; event Go(); state A { subscribe Go() { Finished { Within = TimeSpan.FromDays(10675199); Retries = 3; Unfinished { goto A; } } } on Go { Workflow.Once("s", retry: Backoff.Fixed(TimeSpan.FromDays(9000000)).MaxAttempts(5)) { X.Y(); } goto A; } } }
test "t" { Start(); Fail("s"); Send(Go(), at: TimeSpan.FromDays(10675198)); Expect.GaveUp("s"); }`)
	f.Add(`test "x" { } test "x" { Workflow = ; } test`)
	f.Add(`enum test { A } workflow test { Initial = test; state test { } } test "test" { Workflow = test; Expect.State(test); }`)
	f.Fuzz(func(t *testing.T, src string) {
		if len(src) > 4096 {
			return
		}
		r := wfc.Run(context.Background(), []parser.Source{{Name: "f_test.wf", Src: src}}, wfc.Options{Workers: 1})
		if errs, _ := diag.Counts(r.Diagnostics); errs != 0 {
			return
		}
		cov := wftest.NewCoverage(r.Checked, r.Schedules)
		for _, tc := range r.Checked.Program.Tests {
			// A bounded transcript keeps every input fast: a run that loops
			// to interp.MaxEntries takes long enough to outlast -fuzztime.
			res := wftest.Run(r.Checked, tc, wftest.Options{Schedules: r.Schedules, Cover: cov, MaxEntries: 10_000})
			if res.Err == nil && res.Transcript == nil {
				t.Fatalf("test %q: no transcript and no error", tc.Name)
			}
		}
		_ = cov.Text()
	})
}
