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

// callProgram makes calls whose arguments are an event's decimal and enum
// arguments, and literals written in the workflow: an enum member, a
// decimal, a string, a labelled argument.
const callProgram = `enum Decision { Ok, No }
enum Other { Ok, Maybe }
workflow W {
  Autostart = true;
  Initial = A;
  event Pay(decimal amount, Decision d);
  state A {
    subscribe Pay(decimal amount, Decision d);
    on Pay(decimal amount, Decision d) { Pay.Charge(amount); Mail.Send(d); Audit.Log(Decision.No, 49.90, "x", to: amount); Tally.Add(7); Note.Put(Order); }
  }
}
`

// TestExpectCallValues: Expect.Call compares each argument by its type,
// not by its text: numbers by their exact value (an int and a decimal
// alike), an enum member by the member it resolves to (written bare or
// qualified, in the test or in the workflow), a string exactly, a label
// by its name; anything else as written.
func TestExpectCallValues(t *testing.T) {
	tests := []struct {
		send, expect string
		pass         bool
		msg          string
	}{
		{`Pay(49.90, Ok)`, `Expect.Call(Pay.Charge(49.9));`, true, ""},
		{`Pay(49.90, Ok)`, `Expect.Call(Pay.Charge(49.90));`, true, ""},
		{`Pay(49.90, Ok)`, `Expect.Call(Pay.Charge(49.900), at: TimeSpan.FromSeconds(1));`, true, ""},
		{`Pay(49.9, Ok)`, `Expect.Call(Pay.Charge(49.90));`, true, ""},
		{`Pay(50, Ok)`, `Expect.Call(Pay.Charge(50.0));`, true, ""},
		{`Pay(50.00, Ok)`, `Expect.Call(Pay.Charge(50));`, true, ""},
		{`Pay(-1.50, Ok)`, `Expect.Call(Pay.Charge(-1.5));`, true, ""},
		{`Pay(0.1, Ok)`, `Expect.Call(Pay.Charge(0.10000000000000001));`, false, `expected the call Pay.Charge(0.10000000000000001); the run called Pay.Charge(0.1) at 1s`},
		{`Pay(49.90, Ok)`, `Expect.Call(Pay.Charge(49.91));`, false, `expected the call Pay.Charge(49.91); the run called Pay.Charge(49.90) at 1s`},
		{`Pay(49.90, Ok)`, `Expect.Call(Pay.Charge("49.90"));`, false, `expected the call Pay.Charge("49.90"); the run called Pay.Charge(49.90) at 1s`},
		{`Pay(49.90, Ok)`, `Expect.Call(Pay.Charge(-49.90));`, false, `expected the call Pay.Charge(-49.90); the run called Pay.Charge(49.90) at 1s`},
		{`Pay(1, Ok)`, `Expect.Call(Mail.Send(Ok));`, true, ""},
		{`Pay(1, Ok)`, `Expect.Call(Mail.Send(Decision.Ok));`, true, ""},
		{`Pay(1, Decision.Ok)`, `Expect.Call(Mail.Send(Ok));`, true, ""},
		{`Pay(1, Decision.Ok)`, `Expect.Call(Mail.Send(Decision.Ok));`, true, ""},
		{`Pay(1, Ok)`, `Expect.Call(Mail.Send(No));`, false, `expected the call Mail.Send(No); the run called Mail.Send(Ok) at 1s`},
		{`Pay(1, Ok)`, `Expect.Call(Mail.Send(Other.Ok));`, false, `expected the call Mail.Send(Other.Ok); the run called Mail.Send(Ok) at 1s`},
		{`Pay(1, Ok)`, `Expect.Call(Mail.Send("Ok"));`, false, `expected the call Mail.Send("Ok"); the run called Mail.Send(Ok) at 1s`},
		{`Pay(49.90, Ok)`, `Expect.Call(Audit.Log(No, 49.9, "x", to: 49.9));`, true, ""},
		{`Pay(49.90, Ok)`, `Expect.Call(Audit.Log(Decision.No, 49.90, "x", to: 49.90));`, true, ""},
		{`Pay(49.90, Ok)`, `Expect.Call(Audit.Log(Ok, 49.9, "x", to: 49.9));`, false, `expected the call Audit.Log(Ok, 49.9, "x", to: 49.9); the run called Audit.Log(Decision.No, 49.90, "x", to: 49.90) at 1s`},
		{`Pay(49.90, Ok)`, `Expect.Call(Audit.Log(No, 49.9, "X", to: 49.9));`, false, `expected the call Audit.Log(No, 49.9, "X", to: 49.9); the run called Audit.Log(Decision.No, 49.90, "x", to: 49.90) at 1s`},
		{`Pay(49.90, Ok)`, `Expect.Call(Audit.Log(No, 49.9, "x", from: 49.9));`, false, `expected the call Audit.Log(No, 49.9, "x", from: 49.9); the run called Audit.Log(Decision.No, 49.90, "x", to: 49.90) at 1s`},
		{`Pay(49.90, Ok)`, `Expect.Call(Audit.Log(No, 49.9, "x", 49.9));`, false, `expected the call Audit.Log(No, 49.9, "x", 49.9); the run called Audit.Log(Decision.No, 49.90, "x", to: 49.90) at 1s`},
		{`Pay(1, Ok)`, `Expect.Call(Tally.Add(7.0));`, true, ""},
		{`Pay(1, Ok)`, `Expect.Call(Tally.Add(7.5));`, false, `expected the call Tally.Add(7.5); the run called Tally.Add(7) at 1s`},
		{`Pay(1, Ok)`, `Expect.Call(Note.Put(Order));`, true, ""},
		{`Pay(1, Ok)`, `Expect.Call(Note.Put(Orders));`, false, `expected the call Note.Put(Orders); the run called Note.Put(Order) at 1s`},
	}
	for _, tt := range tests {
		src := callProgram + "test \"t\" {\n  Send(" + tt.send + ", at: TimeSpan.FromSeconds(1));\n  " + tt.expect + "\n}\n"
		r := wfc.Run(context.Background(), []parser.Source{{Name: "c.wf", Src: src}}, wfc.Options{})
		if errs, _ := diag.Counts(r.Diagnostics); errs != 0 {
			t.Errorf("%s: %v", tt.expect, r.Diagnostics)
			continue
		}
		res := wftest.Run(r.Checked, r.Checked.Program.Tests[0], wftest.Options{})
		if res.Passed() != tt.pass {
			t.Errorf("send %s, %s: passed %v, want %v (%v)", tt.send, tt.expect, res.Passed(), tt.pass, res.Failures)
			continue
		}
		if !tt.pass && res.Failures[0].Message != tt.msg {
			t.Errorf("send %s, %s: message %q, want %q", tt.send, tt.expect, res.Failures[0].Message, tt.msg)
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
