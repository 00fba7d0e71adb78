package check_test

import (
	"strings"
	"testing"

	"github.com/wfc-lang/wfc/ast"
	"github.com/wfc-lang/wfc/check"
	"github.com/wfc-lang/wfc/diag"
	"github.com/wfc-lang/wfc/parser"
)

// A test resolves into the model with typed references: its workflow, each
// action's event, arguments (an enum member by pointer) and time, each
// failure's steps, each expectation's state, step, times and call.
func TestTestsInModel(t *testing.T) {
	src := modelSrc + `
test "approve" {
  Workflow = Flow;
  Take(Decided, at: TimeSpan.FromMinutes(2));
  Send(Decide(Decision.Approve), at: TimeSpan.FromMinutes(1));
  Fail("notify", times: 2);
  Expect.State(Review, at: TimeSpan.FromSeconds(30));
  Expect.Attempts("notify", TimeSpan.FromMinutes(1), TimeSpan.FromSeconds(61));
  Expect.Call(Mail.Send("ok", to: 1));
}
`
	prog, ds := parser.Parse([]parser.Source{{Name: "m.wf", Src: src}}, parser.Options{})
	if len(ds) != 0 {
		t.Fatal(ds)
	}
	res := check.CheckWith(prog, check.Options{Info: true})
	for _, d := range res.Diags {
		if d.Code != diag.WF201 { // modelSrc's Lost is unreachable on purpose
			t.Errorf("%v", d)
		}
	}
	p := res.Program
	if len(p.Tests) != 1 {
		t.Fatalf("%d tests", len(p.Tests))
	}
	tt, w := p.Tests[0], p.Workflows[0]
	if tt.Name != "approve" || tt.Workflow != w {
		t.Fatalf("name %q, workflow %v", tt.Name, tt.Workflow)
	}
	if len(tt.Actions) != 2 {
		t.Fatalf("%d actions", len(tt.Actions))
	}
	take, send := tt.Actions[0], tt.Actions[1]
	if take.Kind != check.TestTake || take.Slot.Name != "Decided" || len(take.Slot.Subscriptions) != 1 || take.Slot.In(w.Initial) != w.Initial.Subscriptions[0] || take.At != 2*60*10_000_000 {
		t.Errorf("take: %+v", take)
	}
	if send.Kind != check.TestSend || send.Event != w.Events[0] || send.At != 60*10_000_000 ||
		len(send.Args) != 1 || send.Args[0].Member != p.Enums[0].Members[0] {
		t.Errorf("send: %+v", send)
	}
	if f := tt.Failures; len(f) != 1 || f[0].Times != 2 || f[0].Always || len(f[0].Steps) != 1 || f[0].Steps[0] != w.Steps[0] {
		t.Errorf("failures: %+v", f)
	}
	if len(tt.Expects) != 3 {
		t.Fatalf("%d expectations", len(tt.Expects))
	}
	st, at, call := tt.Expects[0], tt.Expects[1], tt.Expects[2]
	if st.Kind != check.ExpectState || st.State != w.StateNamed("Review") || !st.HasAt || st.At != 30*10_000_000 {
		t.Errorf("state: %+v", st)
	}
	if at.Kind != check.ExpectAttempts || at.Step != w.Steps[0] || len(at.Attempts) != 2 || at.Attempts[1] != 61*10_000_000 {
		t.Errorf("attempts: %+v", at)
	}
	mailSend := w.Steps[0].Body.Stmts[0]
	if call.Kind != check.ExpectCall || call.Call != "Mail.Send" || len(call.Args) != 2 || call.Args[1].Label != "to" || call.HasAt ||
		len(call.Calls) != 1 || call.Calls[0] != mailSend {
		t.Errorf("call: %+v", call)
	}
	if o := p.Info.Uses[send.Decl.Call.Args[0].Value.(*ast.Call).Fun]; o != w.Events[0] {
		t.Errorf("the event's name uses %v", o)
	}
}

// A misspelt step's name in a test (WF501) comes with a fix that writes
// the step's name as a whole string literal, quotes and escapes included,
// in every statement that names a step; like every "did you mean", a
// person applies it.
func TestStepNameFix(t *testing.T) {
	src := `workflow Flow {
  Initial = A;
  event Go();
  state A { subscribe Go(); on Go { Workflow.Once("notify") { Mail.Send(); } Workflow.Once("tab\tname") { Mail.Send(); } goto End; } }
  terminal End { }
}
test "t" {
  Fail("notfiy");
  Takes("notfiy", TimeSpan.Zero);
  Fail("tab\tnmae");
  Expect.GaveUp("notfiy");
  Expect.Attempts("notfiy", TimeSpan.Zero);
}
`
	prog, ds := parser.Parse([]parser.Source{{Name: "t.wf", Src: src}}, parser.Options{})
	if len(ds) != 0 {
		t.Fatal(ds)
	}
	res := check.Check(prog)
	want := []string{`"notify"`, `"notify"`, `"tab\tname"`, `"notify"`, `"notify"`}
	var got []string
	for _, d := range res.Diags {
		if d.Code != diag.WF501 {
			t.Errorf("unexpected %v", d)
			continue
		}
		if len(d.Fixes) != 1 || len(d.Fixes[0].Edits) != 1 {
			t.Errorf("%d:%d: %s: fixes %+v, want one", d.Range.Start.Line, d.Range.Start.Column, d.Message, d.Fixes)
			continue
		}
		f, e := d.Fixes[0], d.Fixes[0].Edits[0]
		if f.MachineApplicable || e.Range != d.Range || src[e.Range.Start.Offset] != '"' || src[e.Range.End.Offset-1] != '"' {
			t.Errorf("%s: fix %+v: want one a person applies, replacing the whole literal", d.Message, f)
		}
		got = append(got, e.NewText)
	}
	if strings.Join(got, " ") != strings.Join(want, " ") {
		t.Errorf("fixes write %v, want %v", got, want)
	}
}

// A string where an enum member belongs (WF502) is told the member to
// write: a fix that needs no decision when the text names one member,
// bare, qualified or but for case; fixes for a person to choose when it
// matches several but for case, or is only near one; none otherwise.
func TestStringForMemberFix(t *testing.T) {
	src := `enum Decision { Ok, No }
enum Answer { Yes, YES }
workflow Flow {
  Initial = A;
  event Done(Decision d);
  event Vote(Answer a);
  state A { subscribe Done(Decision d); on Done(Decision d) { goto End; } subscribe Vote(Answer a); on Vote { goto End; } }
  terminal End { }
}
test "t" {
  Send(Done("Ok"));
  Send(Done("Decision.No"));
  Send(Done("ok"));
  Send(Vote("yes"));
  Send(Done("Okk"));
  Send(Done("maybe"));
}
`
	prog, ds := parser.Parse([]parser.Source{{Name: "t.wf", Src: src}}, parser.Options{})
	if len(ds) != 0 {
		t.Fatal(ds)
	}
	want := []string{"Ok!", "No!", "Ok!", "Yes YES", "Ok", ""}
	var got []string
	for _, d := range check.Check(prog).Diags {
		if d.Code != diag.WF502 {
			t.Errorf("unexpected %v", d)
			continue
		}
		var fs []string
		for _, f := range d.Fixes {
			if len(f.Edits) != 1 || f.Edits[0].Range != d.Range {
				t.Errorf("%s: fix %+v does not replace the string", d.Message, f)
			}
			mark := ""
			if f.MachineApplicable {
				mark = "!"
			}
			fs = append(fs, f.Edits[0].NewText+mark)
		}
		got = append(got, strings.Join(fs, " "))
	}
	if strings.Join(got, "|") != strings.Join(want, "|") {
		t.Errorf("fixes %q, want %q", got, want)
	}
}

// An enum member in a call resolves into the model by pointer: written
// `Enum.Member` in a workflow's call (outside a handler too), and in an
// expected call written qualified or bare, a bare name by the enum the
// matching calls take at its place; a name no such enum has stays a name.
func TestCallMembersInModel(t *testing.T) {
	src := `enum Decision { Ok, No }
enum Other { Ok }
workflow Flow {
  Initial = A;
  Autostart = true;
  event Done(Decision d);
  state A {
    subscribe Done(Decision d) { Finished { Within = TimeSpan.FromHours(1); Unfinished { Audit.Log(Decision.No, Decision); } } }
    on Done(Decision d) { Mail.Send(d, Other.Ok); goto End; }
  }
  terminal End { }
}
test "t" {
  Expect.Call(Mail.Send(Ok, Ok));
  Expect.Call(Mail.Send(Decision.No, Other.Ok));
  Expect.Call(Audit.Log(No, Decision));
}
`
	prog, ds := parser.Parse([]parser.Source{{Name: "t.wf", Src: src}}, parser.Options{})
	if len(ds) != 0 {
		t.Fatal(ds)
	}
	res := check.CheckWith(prog, check.Options{Info: true})
	for _, d := range res.Diags {
		t.Errorf("%v", d)
	}
	p := res.Program
	dec, other := p.Enums[0], p.Enums[1]
	w := p.Workflows[0]
	var calls []*check.Call
	for _, sub := range w.States[0].Subscriptions {
		calls = append(calls, sub.Milestones[0].Outcomes[0].Body.Stmts[0].(*check.Call))
		calls = append(calls, sub.Handler.Body.Stmts[0].(*check.Call))
	}
	audit, send := calls[0], calls[1]
	if audit.Args[0].Member != dec.Members[1] || audit.Args[1].Member != nil {
		t.Errorf("Audit.Log's members: %v, %v", audit.Args[0].Member, audit.Args[1].Member)
	}
	if send.Args[0].Member != nil || send.Args[0].Param == nil || send.Args[1].Member != other.Members[0] {
		t.Errorf("Mail.Send's arguments: %+v", send.Args)
	}
	if o := p.Info.Uses[audit.Args[0].Value.(*ast.Selector).Sel]; o != dec.Members[1] {
		t.Errorf("Decision.No in the call uses %v", o)
	}
	want := [][]*check.EnumMember{{dec.Members[0], other.Members[0]}, {dec.Members[1], other.Members[0]}, {dec.Members[1], nil}}
	xs := p.Tests[0].Expects
	if len(xs) != len(want) {
		t.Fatalf("%d expectations", len(xs))
	}
	for i, x := range xs {
		for k, a := range x.Args {
			if a.Member != want[i][k] {
				t.Errorf("expectation %d, argument %d: member %v, want %v", i+1, k+1, a.Member, want[i][k])
			}
		}
	}
}
