package check_test

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/wfc-lang/wfc/ast"
	"github.com/wfc-lang/wfc/check"
	"github.com/wfc-lang/wfc/parser"
)

const modelSrc = `enum Decision { Approve, Reject }
enum Stage { Review, Approved, Rejected, Lost }
entity Job { Stage Stage; }
workflow Flow {
  Tracks = Job.Stage;
  Initial = (Review);
  Autostart = true;
  event Decide(Decision d);
  event Ping();
  state Review {
    subscribe Decide(Decision d) as Decided {
      Finished {
        Within = TimeSpan.FromHours(1);
        Retries = 2;
        Exhausted { goto Rejected; }
      }
    }
    on Decided(Decision d) {
      Approve { Workflow.Once("notify", retry: Backoff.Fixed(TimeSpan.FromSeconds(1)).MaxAttempts(3)) { Mail.Send("ok", to: 1); } goto Approved; }
      default { Audit.Log(d, Order, "d"); goto Rejected; }
    }
  }
  terminal Approved { }
  terminal error Rejected { Message = "no"; }
  terminal Lost { }
}
`

// TestModel: the model of a program holds what a run needs, every
// reference a pointer, and Info maps names to the objects.
func TestModel(t *testing.T) {
	prog, syntax := parser.Parse([]parser.Source{{Name: "m.wf", Src: modelSrc}}, parser.Options{Workers: 1})
	if len(syntax) > 0 {
		t.Fatal(syntax[0].Message)
	}
	res := check.CheckWith(prog, check.Options{Info: true})
	p := res.Program
	if len(p.Workflows) != 1 || len(p.Enums) != 2 || len(p.Entities) != 1 {
		t.Fatalf("%d workflows, %d enums, %d entities", len(p.Workflows), len(p.Enums), len(p.Entities))
	}
	w := p.Workflows[0]
	review := w.StateNamed("Review")
	if w.Initial == nil || w.Initial != review {
		t.Fatalf("Initial = (Review) resolves to %v", w.Initial)
	}
	if w.Tracked == nil || w.Tracked.Decl.Name.Name != "Stage" || w.TrackedEnum != p.Enums[1] || !w.Autostart {
		t.Errorf("tracked %v enum %v autostart %v", w.Tracked, w.TrackedEnum, w.Autostart)
	}
	if review.Member == nil || review.Member.Ident.Name != "Review" {
		t.Errorf("Review's tracked member: %v", review.Member)
	}
	if !w.ReachKnown || review.Reach != check.Reachable || w.StateNamed("Lost").Reach != check.Unreachable || w.StateNamed("Rejected").Reach != check.Reachable {
		t.Errorf("reach: known %v, Review %v, Lost %v", w.ReachKnown, review.Reach, w.StateNamed("Lost").Reach)
	}
	if got := w.StateNamed("Rejected"); got.Kind != ast.TerminalError || got.Message != "no" {
		t.Errorf("Rejected: %v %q", got.Kind, got.Message)
	}
	sub := review.Subscriptions[0]
	if sub.Event != w.Events[0] || sub.Slot() != "Decided" || sub.Handler != review.Handlers[0] {
		t.Errorf("subscription: event %v slot %q handler %v", sub.Event, sub.Slot(), sub.Handler)
	}
	m := sub.Milestones[0]
	if m.Kind != check.Finished || m.Consumer == nil || m.Consumer.Milestone != m || m.Consumer.Kind != check.KindFinished ||
		m.Consumer.Budget != check.BudgetRetries || m.Consumer.Attempts != 3 {
		t.Errorf("milestone: %+v", m)
	}
	if len(m.Outcomes) != 1 || m.Outcomes[0].Kind != check.Exhausted {
		t.Errorf("outcomes: %+v", m.Outcomes)
	}
	h := review.Handlers[0]
	if h.Subscription != sub || h.Enum != p.Enums[0] || len(h.Params) != 1 || h.EnumParam != h.Params[0] || h.EnumParam.Index != 0 {
		t.Errorf("handler: %+v", h)
	}
	cs, ok := h.Body.Stmts[0].(*check.Case)
	if !ok || cs.Member != p.Enums[0].Members[0] {
		t.Fatalf("first statement: %#v", h.Body.Stmts[0])
	}
	step, ok := cs.Body.Stmts[0].(*check.Step)
	if !ok || step.Consumer == nil || step.Consumer.Step != step || step.Key != "notify" || step.Consumer.StepName() != "notify" || step.Consumer.Workflow() != w || step.Consumer.State() != step.State || step.Consumer.Budget != check.BudgetMaxAttempts || len(w.Steps) != 1 {
		t.Fatalf("step: %#v", cs.Body.Stmts[0])
	}
	call, ok := step.Body.Stmts[0].(*check.Call)
	if !ok || call.Fun != "Mail.Send" || len(call.Args) != 2 || call.Args[1].Label != "to" {
		t.Errorf("call: %#v", step.Body.Stmts[0])
	}
	if g, ok := cs.Body.Stmts[1].(*check.Goto); !ok || g.To != w.StateNamed("Approved") || g.From != review {
		t.Errorf("goto: %#v", cs.Body.Stmts[1])
	}
	def, ok := h.Body.Stmts[1].(*check.Default)
	if !ok {
		t.Fatalf("default: %#v", h.Body.Stmts[1])
	}
	// A call's argument that names a parameter holds it; other names and
	// literals hold none.
	if log, ok := def.Body.Stmts[0].(*check.Call); !ok || log.Args[0].Param != h.Params[0] || log.Args[1].Param != nil || log.Args[2].Param != nil {
		t.Errorf("Audit.Log's arguments: %#v", def.Body.Stmts[0])
	} else if p.Info.ObjectOf(log.Args[0].Value) != h.Params[0] {
		t.Errorf("Info: argument d is %v", p.Info.ObjectOf(log.Args[0].Value))
	}
	if len(review.Transitions) != 3 {
		t.Errorf("Review has %d transitions, want 3", len(review.Transitions))
	}
	// Info: the goto's target is a use of the state Approved, whose name
	// defines it; the handler's name uses the subscription.
	g := cs.Body.Stmts[1].(*check.Goto)
	if p.Info.Uses[g.Decl.Target] != w.StateNamed("Approved") || p.Info.Defs[w.StateNamed("Approved").Decl.Name] != w.StateNamed("Approved") {
		t.Errorf("Info: goto target %v", p.Info.Uses[g.Decl.Target])
	}
	if p.Info.ObjectOf(h.Decl.Name) != sub {
		t.Errorf("Info: handler name %v", p.Info.ObjectOf(h.Decl.Name))
	}
	if p.Info.ObjectOf(cs.Decl.Label) != cs.Member {
		t.Errorf("Info: case label %v", p.Info.ObjectOf(cs.Decl.Label))
	}
}

// TestModelEventParams: a handler written without parameters has its
// event's in scope: its enum parameter and its calls' arguments are the
// event's parameters, by position.
func TestModelEventParams(t *testing.T) {
	src := `enum D { Yes, No }
workflow W { Initial = A; event Go(string why, D d);
  state A { subscribe Go; on Go { Log(why, d); Yes { goto B; } No { } } }
  terminal B { } }
`
	prog, _ := parser.Parse([]parser.Source{{Name: "e.wf", Src: src}}, parser.Options{Workers: 1})
	res := check.Check(prog)
	if len(res.Diags) > 0 {
		t.Fatal(res.Diags)
	}
	w := res.Program.Workflows[0]
	go_ := w.Events[0]
	h := w.States[0].Handlers[0]
	if h.Params != nil || h.EnumParam != go_.Params[1] || h.EnumParam.Index != 1 || h.Enum != res.Program.Enums[0] {
		t.Errorf("handler: params %v, enum parameter %v", h.Params, h.EnumParam)
	}
	log := h.Body.Stmts[0].(*check.Call)
	if log.Args[0].Param != go_.Params[0] || log.Args[1].Param != go_.Params[1] {
		t.Errorf("arguments: %+v", log.Args)
	}
	if yes := h.Body.Stmts[1].(*check.Case); yes.Member != res.Program.Enums[0].Members[0] {
		t.Errorf("case Yes: %v", yes.Member)
	}
}

// TestModelLookups: the model's lookups of names from outside the program
// (a signal's slot or argument, a run's workflow).
func TestModelLookups(t *testing.T) {
	src := `enum D { Yes, No }
workflow W { Initial = A; event Go(D d); event Stop();
  state A { subscribe Go as Work; subscribe Stop(); on Stop { goto B; } }
  state B { subscribe Stop(); subscribe Go; on Stop { goto C; } }
  terminal C { } }
`
	prog, _ := parser.Parse([]parser.Source{{Name: "l.wf", Src: src}}, parser.Options{Workers: 1})
	res := check.Check(prog)
	if len(res.Diags) > 0 {
		t.Fatal(res.Diags)
	}
	p := res.Program
	w := p.Workflows[0]
	if p.WorkflowNamed("W") != w || p.WorkflowNamed("V") != nil {
		t.Errorf("WorkflowNamed")
	}
	if w.EventNamed("Stop") != w.Events[1] || w.EventNamed("Work") != nil {
		t.Errorf("EventNamed")
	}
	if e := p.Enums[0]; e.MemberNamed("No") != e.Members[1] || e.MemberNamed("Maybe") != nil {
		t.Errorf("MemberNamed")
	}
	a, b := w.States[0], w.States[1]
	stop := w.SlotNamed("Stop")
	if len(stop.Subscriptions) != 2 || stop.In(a) != a.Subscriptions[1] || stop.In(b) != b.Subscriptions[0] || stop.In(w.States[2]) != nil {
		t.Errorf("slot Stop: %+v", stop.Subscriptions)
	}
	if work, goSlot := w.SlotNamed("Work"), w.SlotNamed("Go"); work.In(a) != a.Subscriptions[0] || work.In(b) != nil || goSlot.In(a) != nil || goSlot.In(b) != b.Subscriptions[1] {
		t.Errorf("slots Work and Go")
	}
	if none := w.SlotNamed("Nobody"); none.Name != "Nobody" || len(none.Subscriptions) != 0 {
		t.Errorf("slot Nobody: %+v", none)
	}
}

// TestModelDuplicates: two workflows of the same name are two objects; a
// duplicate state is its own object, and uses resolve to the first.
func TestModelDuplicates(t *testing.T) {
	src := `workflow W { Initial = A; event Go(); state A { subscribe Go(); on Go { goto A; } } state A { } }
workflow W { Initial = A; event Go(); state A { subscribe Go(); on Go { goto A; } } }
`
	prog, _ := parser.Parse([]parser.Source{{Name: "d.wf", Src: src}}, parser.Options{Workers: 1})
	p := check.CheckWith(prog, check.Options{Info: true}).Program
	if len(p.Workflows) != 2 || p.Workflows[0] == p.Workflows[1] {
		t.Fatalf("%d workflows", len(p.Workflows))
	}
	w0, w1 := p.Workflows[0], p.Workflows[1]
	if p.Info.Defs[w0.Decl.Name] != w0 || p.Info.Defs[w1.Decl.Name] != w1 {
		t.Errorf("each declaration defines its own workflow")
	}
	if len(w0.States) != 2 || w0.StateNamed("A") != w0.States[0] || w0.States[1].Reach != check.ReachUnknown {
		t.Errorf("duplicate state: %+v", w0.States)
	}
	if w1.Initial != w1.States[0] || w1.States[0].Transitions[0].To != w1.States[0] {
		t.Errorf("the second workflow resolves within itself")
	}
}

// TestConsumersLinked: in every golden case, good or bad, each policy
// consumer belongs to one object of the model — its milestone or its step —
// and reads its state, workflow, slot and name from there (the consumer
// keeps no strings of its own).
func TestConsumersLinked(t *testing.T) {
	files, err := filepath.Glob(filepath.Join("..", "testdata", "cases", "*.wf"))
	if err != nil || len(files) < 50 {
		t.Fatalf("cases: %d files, %v", len(files), err)
	}
	n := 0
	for _, name := range files {
		src, err := os.ReadFile(name)
		if err != nil {
			t.Fatal(err)
		}
		prog, _ := parser.Parse([]parser.Source{{Name: name, Src: string(src)}}, parser.Options{})
		for _, c := range check.Check(prog).Consumers {
			n++
			linked := (c.Milestone != nil) != (c.Step != nil)
			if !linked || c.State() == nil || c.Workflow() == nil || c.WorkflowName() == "" || c.FileName() != name ||
				c.IsStep() != (c.Step != nil) || (c.Slot() == "") != c.IsStep() {
				t.Errorf("%s:%v: consumer not linked to one model object (milestone %v, step %v)", name, c.Pos, c.Milestone != nil, c.Step != nil)
			}
			if c.Step != nil && c.Step.Consumer != c || c.Milestone != nil && c.Milestone.Consumer != c {
				t.Errorf("%s:%v: the model object does not point back at its consumer", name, c.Pos)
			}
		}
	}
	if n < 100 {
		t.Errorf("only %d consumers in the cases", n)
	}
}

// TestStateNamed: a name resolves to the first state declared with it, in
// a small workflow (searched in place) and in a large one (indexed).
func TestStateNamed(t *testing.T) {
	for _, n := range []int{3, 12} {
		var b strings.Builder
		b.WriteString("workflow W {\n  Initial = S0;\n  event Go();\n")
		for i := 0; i < n; i++ {
			fmt.Fprintf(&b, "  state S%d { subscribe Go(); on Go { goto S%d; } }\n", i, (i+1)%n)
		}
		b.WriteString("  state S1 { }\n}\n") // a duplicate (WF101)
		prog, _ := parser.Parse([]parser.Source{{Name: "w.wf", Src: b.String()}}, parser.Options{})
		w := check.Check(prog).Program.Workflows[0]
		if got := w.StateNamed("S1"); got != w.States[1] {
			t.Errorf("%d states: S1 resolves to %v, want the first declared", n, got)
		}
		if w.StateNamed("S0") != w.Initial || w.Initial != w.States[0] || w.StateNamed("Nope") != nil {
			t.Errorf("%d states: Initial %v", n, w.Initial)
		}
		if g := w.States[n-1].Transitions[0]; g.To != w.States[0] {
			t.Errorf("%d states: the last goto leads to %v", n, g.To)
		}
	}
}

// TestTerminalStateLinks: a terminal state waits for nothing (WF116 says
// so once), yet the model still links what it declares, for the editor:
// each handler to the subscription it names, that subscription back to
// it, and its gotos to their states; a handler that names no subscription
// of the state is linked to none.
func TestTerminalStateLinks(t *testing.T) {
	src := `workflow W {
  Initial = A;
  event Go();
  event Ping();
  state A { subscribe Go(); on Go { goto Done; } }
  terminal Done {
    subscribe Go();
    on Go { goto A; }
    on Ping { goto A; }
  }
}
`
	prog, syntax := parser.Parse([]parser.Source{{Name: "t.wf", Src: src}}, parser.Options{Workers: 1})
	if len(syntax) > 0 {
		t.Fatal(syntax[0].Message)
	}
	w := check.CheckWith(prog, check.Options{Info: true}).Program.Workflows[0]
	a, done := w.StateNamed("A"), w.StateNamed("Done")
	if done == nil || len(done.Subscriptions) != 1 || len(done.Handlers) != 2 {
		t.Fatalf("Done: %+v", done)
	}
	sub, onGo, onPing := done.Subscriptions[0], done.Handlers[0], done.Handlers[1]
	if onGo.Subscription != sub || sub.Handler != onGo {
		t.Errorf("on Go in a terminal state: subscription %v, and the subscription's handler %v", onGo.Subscription, sub.Handler)
	}
	if sub.Event == nil || sub.Event.Name().Name != "Go" {
		t.Errorf("the terminal state's subscription resolves to event %v", sub.Event)
	}
	if onPing.Subscription != nil {
		t.Errorf("on Ping names no subscription of Done, yet is linked to %v", onPing.Subscription)
	}
	if len(done.Transitions) != 2 || done.Transitions[0].To != a || done.Transitions[1].To != a {
		t.Errorf("the terminal state's gotos: %+v", done.Transitions)
	}
}
