package interp_test

import (
	"fmt"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/wfc-lang/wfc/ast"
	"github.com/wfc-lang/wfc/check"
	"github.com/wfc-lang/wfc/interp"
)

// TestOnStmt: OnStmt hears of every statement that runs, in the order it
// runs — a call, a case whose member is the argument, default when no case
// of its block matches, a step, a catch's case when the step gives up (and
// what follows it), a goto — and of no statement that does not run.
func TestOnStmt(t *testing.T) {
	res, wf := compile(t, "stmts.wf", `enum Answer { Yes, No, Maybe }
workflow W {
  Autostart = true;
  Initial = A;
  event Decide(Answer a);
  state A {
    subscribe Decide(Answer a);
    on Decide(Answer a) {
      Log.Write(a);
      Yes { Workflow.Once("s", retry: Backoff.Fixed(TimeSpan.FromSeconds(10)).MaxAttempts(2)) { Api.Do(); } catch { Exhausted { Log.Write("used up"); } } }
      No { Log.Write("no"); }
      default { Log.Write("other"); goto B; }
    }
  }
  state B { subscribe Decide(Answer a); on Decide(Answer a) { goto A; } }
}
`)
	ev := wf.EventNamed("Decide")
	send := func(min int, member string) interp.Action {
		return interp.Action{At: interp.Ticks(min) * 600_000_000, Kind: interp.ActSend, Event: ev, Args: interp.EventArgs(ev, []string{member})}
	}
	sc := interp.Scenario{
		Actions: []interp.Action{send(1, "Yes"), send(2, "No"), send(3, "Maybe"), send(4, "Yes")},
		Steps:   map[*check.Step]*interp.Script{wf.Steps[0]: {Fails: []interp.Failure{{Always: true}}}},
	}
	var told []string
	tr, err := interp.RunWith(res, wf, sc, interp.Options{OnStmt: func(st check.Stmt) {
		switch st := st.(type) {
		case *check.Call:
			told = append(told, "call "+st.Fun)
		case *check.Case:
			told = append(told, "case "+st.Member.Ident.Name)
		case *check.Default:
			told = append(told, "default")
		case *check.Step:
			told = append(told, "step "+st.Key)
		case *check.CatchCase:
			told = append(told, "catch "+st.Cause.String())
		case *check.Goto:
			told = append(told, "goto "+st.To.Decl.Name.Name)
		default:
			told = append(told, fmt.Sprintf("%T", st))
		}
	}})
	if err != nil {
		t.Fatal(err)
	}
	want := []string{
		// 1m Yes: the step gives up at its second attempt, its catch runs.
		"call Log.Write", "case Yes", "step s", "catch Exhausted", "call Log.Write",
		// 2m No.
		"call Log.Write", "case No", "call Log.Write",
		// 3m Maybe: no case matches.
		"call Log.Write", "default", "call Log.Write", "goto B",
		// 4m in B.
		"goto A",
	}
	if d := cmp.Diff(want, told); d != "" {
		t.Errorf("statements told (-want +got):\n%s\n%s", d, tr)
	}
}

// TestCallArguments: a call's arguments are written in their canonical
// source form — literals, names, selectors, labels, nested calls with
// their own labels — and a handler parameter is the event's argument.
func TestCallArguments(t *testing.T) {
	res, wf := compile(t, "args.wf", `workflow W { Autostart = true; Initial = A; event Go(int n);
  state A { subscribe Go(int n); on Go(int n) { Log.Write(F.G(x: 1, "s\n"), -2, true, 1.5, label: "v", n, who: n, H.I(), Order); } } }`)
	ev := wf.EventNamed("Go")
	tr, err := interp.Run(res, wf, interp.Scenario{Actions: []interp.Action{{Kind: interp.ActSend, Event: ev, Args: interp.EventArgs(ev, []string{"7"})}}})
	if err != nil {
		t.Fatal(err)
	}
	want := []string{`F.G(x: 1, "s\n")`, `-2`, `true`, `1.5`, `label: "v"`, `7`, `who: 7`, `H.I()`, `Order`}
	for _, e := range tr.Entries {
		if e.Kind == interp.KCall {
			if d := cmp.Diff(want, e.Args); d != "" {
				t.Errorf("arguments (-want +got):\n%s", d)
			}
			return
		}
	}
	t.Fatalf("no call:\n%s", tr)
}

// TestExprText: the canonical form of the expressions the grammar has no
// syntax for yet, as a model built by hand holds them.
func TestExprText(t *testing.T) {
	name := func(s string) ast.Expr { return &ast.Name{Name: s} }
	for _, tc := range []struct {
		e    ast.Expr
		want string
	}{
		{&ast.Binary{Op: "+", X: &ast.IntLit{Text: "1"}, Y: name("n")}, "1 + n"},
		{&ast.Paren{X: &ast.Binary{Op: "*", X: name("a"), Y: &ast.DecimalLit{Text: "2.5"}}}, "(a * 2.5)"},
		{&ast.Unary{Op: "!", X: &ast.BoolLit{Value: false}}, "!false"},
		{&ast.Selector{X: name("A")}, "A."},
		{&ast.Call{Fun: &ast.Selector{X: name("A"), Sel: &ast.Ident{Name: "B"}}, Args: []*ast.Arg{
			{Value: &ast.StringLit{Value: `q"`}}, {Label: &ast.Ident{Name: "k"}, Value: name("v")}}}, `A.B("q\"", k: v)`},
		{nil, ""},
	} {
		if got := interp.ExprText(tc.e); got != tc.want {
			t.Errorf("ExprText = %q, want %q", got, tc.want)
		}
	}
}

// peeking is a clock that asks the machine for its transcript at every
// turn of the drive loop, as the playground's simulator reads a run that
// is still going, and checks that the transcript holds every entry
// recorded so far and still begins with what it read before.
type peeking struct {
	*scripted
	t    *testing.T
	m    *interp.Machine
	n    int    // entries read before
	last string // the last of them
}

func (p *peeking) Next(due interp.Ticks, has, ended bool) (interp.Happening, interp.Action, error) {
	tr := p.m.Transcript()
	if len(tr.Entries) != p.m.Entries() {
		p.t.Fatalf("the transcript holds %d entries of %d", len(tr.Entries), p.m.Entries())
	}
	if p.n > 0 && tr.Entries[p.n-1].String() != p.last {
		p.t.Fatalf("entry %d was %q, now %q", p.n-1, p.last, tr.Entries[p.n-1])
	}
	if p.n = len(tr.Entries); p.n > 0 {
		p.last = tr.Entries[p.n-1].String()
	}
	return p.scripted.Next(due, has, ended)
}

// TestTranscriptWhileRunning: the transcript read while the run goes —
// across the chunks its entries are kept in — holds the entries so far,
// and at the end the same ones as a run read once.
func TestTranscriptWhileRunning(t *testing.T) {
	res, wf := compile(t, "many.wf", `workflow W { Autostart = true; Initial = A; event Go(int n);
  state A { subscribe Go(int n); on Go(int n) { Log.Write(n); } } }`)
	ev := wf.EventNamed("Go")
	var acts []interp.Action
	for i := range 5000 { // two entries each: past two chunks of 4096
		acts = append(acts, interp.Action{At: interp.Ticks(i), Kind: interp.ActSend, Event: ev, Args: interp.EventArgs(ev, []string{fmt.Sprint(i)})})
	}
	want, err := interp.Run(res, wf, interp.Scenario{Actions: acts})
	if err != nil {
		t.Fatal(err)
	}
	p := &peeking{scripted: &scripted{acts: acts}, t: t}
	p.m = interp.NewMachine(res, wf, nil, p, p.scripted)
	if err := p.m.Drive(); err != nil {
		t.Fatal(err)
	}
	if d := cmp.Diff(want.Entries, p.m.Transcript().Entries); d != "" {
		t.Errorf("read while running, then at the end (-once +while):\n%s", d)
	}
	if len(want.Entries) < 2*4096 {
		t.Errorf("only %d entries", len(want.Entries))
	}
}

// TestLateStart: an Autostart run's start is due at time 0; on an engine
// whose clock is past it when the run begins, the start and the entry
// into the initial state say so (held, due at 0s).
func TestLateStart(t *testing.T) {
	res, wf := compile(t, "drive.wf", driveProgram)
	eng := &scripted{now: 2 * 10_000_000}
	m := interp.NewMachine(res, wf, nil, eng, eng)
	if err := m.Drive(); err != nil {
		t.Fatal(err)
	}
	es := m.Transcript().Entries
	if len(es) < 2 || es[0].Kind != interp.KStart || es[0].At != 2*10_000_000 || !es[0].Held || es[0].Due != 0 {
		t.Fatalf("transcript:\n%s", m.Transcript())
	}
	if got := es[0].String(); got != "2s         start     W (due at 0s)" {
		t.Errorf("the start: %q", got)
	}
}

// counting is an engine that counts how often the machine asks it the
// time once the run has stopped, and fails the test past a bound.
type counting struct {
	*scripted
	t       *testing.T
	stopped bool
	after   int
}

func (c *counting) Now() interp.Ticks {
	if c.stopped {
		if c.after++; c.after > 1000 {
			c.t.Fatalf("the machine asked the time %d times after the run stopped", c.after)
		}
	}
	return c.scripted.Now()
}

// TestStoppedRunDoesNoMore: a run stopped at a limit while a step still
// has attempts in its budget (two billion of them, retried at once) does
// no more work: it does not go on counting the step's attempts.
func TestStoppedRunDoesNoMore(t *testing.T) {
	res, wf := compile(t, "stop.wf", `workflow W { Autostart = true; Initial = A; event X();
  state A { subscribe X(); on X { Workflow.Once("s", retry: Backoff.Fixed(TimeSpan.Zero).MaxAttempts(2000000000)) { Api.Do(); } } } }`)
	for limit := 6; limit <= 12; limit++ { // the stop falls on each kind of entry in turn
		eng := &counting{scripted: &scripted{
			acts:  []interp.Action{{Kind: interp.ActSend, Event: wf.Events[0]}},
			steps: map[*check.Step]*interp.Script{wf.Steps[0]: {Fails: []interp.Failure{{Always: true}}}},
		}, t: t}
		m := interp.NewMachine(res, wf, nil, eng, eng)
		m.MaxEntries = limit
		m.OnEntry = func(_ int, e *interp.Entry, _ interp.Subject) {
			if e.Kind == interp.KStopped {
				eng.stopped = true
			}
		}
		if err := m.Drive(); err != nil {
			t.Fatal(err)
		}
		if !eng.stopped || m.Entries() != limit {
			t.Fatalf("limit %d: stopped %v after %d entries\n%s", limit, eng.stopped, m.Entries(), m.Transcript())
		}
	}
}

// TestAsManyActionsAsAllowed: a scenario of MaxActions actions runs (one
// more is refused: TestLimits).
func TestAsManyActionsAsAllowed(t *testing.T) {
	if testing.Short() {
		t.Skip("a scenario of a million actions")
	}
	res, wf := compile(t, "limits.wf", `workflow W { Initial = A; event X(); state A { subscribe X(); } }`)
	acts := make([]interp.Action, interp.MaxActions)
	for i := range acts {
		acts[i] = interp.Action{Kind: interp.ActSend, Event: wf.Events[0]}
	}
	tr, err := interp.RunWith(res, wf, interp.Scenario{Actions: acts}, interp.Options{MaxEntries: 3})
	if err != nil {
		t.Fatalf("a scenario of MaxActions actions: %v", err)
	}
	if len(tr.Entries) != 3 || tr.Entries[0].Reason != interp.NotStarted || tr.Entries[2].Kind != interp.KStopped {
		t.Errorf("transcript:\n%s", tr)
	}
}

// TestRunAllocatesInChunks: a run's entries, their argument texts and the
// calls' arguments are cut from chunks, so a run of 40,000 entries makes a
// few hundred allocations at most, not one or more an entry (allocations
// counted, not time), whether it keeps its transcript or not.
func TestRunAllocatesInChunks(t *testing.T) {
	res, wf := compile(t, "many.wf", `workflow W { Autostart = true; Initial = A; event Go(int n);
  state A { subscribe Go(int n); on Go(int n) { Log.Write(n, "x"); } } }`)
	ev := wf.EventNamed("Go")
	acts := make([]interp.Action, 20_000)
	for i := range acts {
		acts[i] = interp.Action{At: interp.Ticks(i), Kind: interp.ActSend, Event: ev, Args: interp.EventArgs(ev, []string{fmt.Sprint(i)})}
	}
	sc := interp.Scenario{Actions: acts}
	for _, discard := range []bool{false, true} {
		entries := 0
		opt := interp.Options{Discard: discard, OnEntry: func(int, *interp.Entry, interp.Subject) { entries++ }}
		allocs := testing.AllocsPerRun(2, func() {
			entries = 0
			if _, err := interp.RunWith(res, wf, sc, opt); err != nil {
				t.Fatal(err)
			}
		})
		if entries < 40_000 || allocs > float64(entries)/100 {
			t.Errorf("discard %v: %.0f allocations for %d entries", discard, allocs, entries)
		}
	}
}

// TestAttemptPastMax: an attempt that would end past TimeSpan.MaxValue
// stops the run when it starts, on the virtual executor, which knows an
// attempt's duration then; nothing is shortened. (An engine whose
// attempts run on their own cannot report an end past the clock's range:
// testdata/runs has no such program, since TestDriveOnAnotherEngine runs
// each of them on one.)
func TestAttemptPastMax(t *testing.T) {
	res, wf := compile(t, "max.wf", `workflow W { Autostart = true; Initial = A; event Pay();
  state A { subscribe Pay(); on Pay { Workflow.Once("charge") { Payments.Charge(); } } } }`)
	day := interp.Ticks(864_000_000_000)
	sc := interp.Scenario{
		Actions: []interp.Action{{At: day, Kind: interp.ActSend, Event: wf.Events[0]}},
		Steps:   map[*check.Step]*interp.Script{wf.Steps[0]: {Took: 10_675_199 * day}},
	}
	tr, err := interp.Run(res, wf, sc)
	if err != nil {
		t.Fatal(err)
	}
	want := `0s         start     W
0s         enter     A
1d         accept    Pay()
1d         attempt   "charge" 1 of 1
1d         call      Payments.Charge()
1d         stopped   attempt 1 of step "charge" would end after TimeSpan.MaxValue
`
	if got := tr.String(); got != want {
		t.Errorf("transcript:\n%s\nwant:\n%s", got, want)
	}
	// A day less ends at TimeSpan.MaxValue's last day, and is done.
	sc.Steps[wf.Steps[0]].Took = 10_675_198 * day
	if tr, _ := interp.Run(res, wf, sc); tr.Entries[len(tr.Entries)-2].Kind != interp.KDone {
		t.Errorf("an attempt that ends in range:\n%s", tr)
	}
}
