package play

// The simulator: a run stepped by hand. The page keeps the scenario — the
// actions sent so far, each at the clock's time when it was sent, the
// steps' failures and the clock — and every step sends all of it: the run
// is replayed from the start, which is fast (a program's run takes
// microseconds) and deterministic, so the simulator needs no state of its
// own on the server or in the worker.
//
// The scenario is written as a test (`test "…" { Send(…, at: …); … }`)
// and checked with the program, so the simulator's arguments mean what a
// test's mean, its mistakes are the checker's diagnostics, and "save as
// test" is that same text with an expectation of where the run is. The
// run itself is interp.RunMachine's, over at the clock: deadlines after it
// have not fallen due yet. This file is the simulator's one use of the
// runtime, so it follows the runtime's changes in one place.

import (
	"context"
	"fmt"
	"strconv"
	"strings"

	"github.com/wfc-lang/wfc/check"
	"github.com/wfc-lang/wfc/check/timespan"
	"github.com/wfc-lang/wfc/codegen"
	"github.com/wfc-lang/wfc/interp"
	"github.com/wfc-lang/wfc/lexer"
	"github.com/wfc-lang/wfc/wftest"
)

// simFile is the name of the scenario's file, checked with the program.
const simFile = "simulator_test.wf"

// SimTestName is the name of the test the scenario is written as.
const SimTestName = "simulated run"

// ActKind is what a simulator action does.
type ActKind uint8

// The simulator's actions.
const (
	ActStart ActKind = iota + 1 // start a run whose workflow is not Autostart
	ActSend                     // send an event with arguments
	ActTake                     // take a slot
)

var actNames = [...]string{ActStart: "start", ActSend: "send", ActTake: "take"}

func (k ActKind) String() string {
	if int(k) < len(actNames) && k != 0 {
		return actNames[k]
	}
	return fmt.Sprintf("ActKind(%d)", int(k))
}

// MarshalText writes the action's name.
func (k ActKind) MarshalText() ([]byte, error) { return []byte(k.String()), nil }

// UnmarshalText reads an action's name.
func (k *ActKind) UnmarshalText(b []byte) error {
	for i, n := range actNames {
		if n != "" && n == string(b) {
			*k = ActKind(i)
			return nil
		}
	}
	return fmt.Errorf("unknown simulator action %q", b)
}

// SimRequest is the scenario so far.
type SimRequest struct {
	// Workflow is the workflow to run ("" when the program has one).
	Workflow string      `json:"workflow,omitempty"`
	Actions  []SimAction `json:"actions"`
	// Failures say how the steps' attempts fail.
	Failures []SimFailure `json:"failures,omitempty"`
	// Now is the clock, in ticks: every deadline up to it has fallen due.
	Now int64 `json:"now"`
	// Name is the test's name for "save as test" ("" for SimTestName).
	Name string `json:"name,omitempty"`
}

// SimAction is one action, at the clock's time when it was sent.
type SimAction struct {
	Kind ActKind `json:"kind"`
	At   int64   `json:"at"`
	// Event and Args, for send: the event's name and each argument in
	// source form (`Ok`, `"hi"`, `42`).
	Event string   `json:"event,omitempty"`
	Args  []string `json:"args,omitempty"`
	// Slot, for take.
	Slot string `json:"slot,omitempty"`
}

// SimFailure fails the first Times attempts of the step Step, or every
// attempt (Always).
type SimFailure struct {
	Step   string `json:"step"`
	Times  int64  `json:"times,omitempty"`
	Always bool   `json:"always,omitempty"`
}

// SimState is where the run is, and what can be done next.
type SimState struct {
	Workflow string `json:"workflow"`
	Now      int64  `json:"now"`
	NowText  string `json:"now_text"`
	State    string `json:"state"`
	Started  bool   `json:"started"`
	Ended    bool   `json:"ended"`
	// CanStart: the workflow is not Autostart and the run has not started.
	CanStart bool `json:"can_start"`
	// Next is the next deadline after the clock (HasNext), and NextText it
	// as a duration.
	Next     int64  `json:"next"`
	HasNext  bool   `json:"has_next"`
	NextText string `json:"next_text,omitempty"`
	// Events are the workflow's events, Subscribed marking those the
	// current state accepts; Slots the slots it has; Steps every step.
	Events []SimEvent `json:"events"`
	Slots  []string   `json:"slots"`
	Steps  []string   `json:"steps"`
	// Workflows are the program's workflows, for choosing one.
	Workflows []string `json:"workflows"`
	// Lines and Transcript are the run so far; SVG its run timeline and
	// Graph the state graph with the current state highlighted.
	Lines      []string `json:"lines"`
	Transcript string   `json:"transcript"`
	SVG        string   `json:"svg"`
	Graph      string   `json:"graph"`
	// Test is the scenario and where the run is, as a test (save as test).
	Test string `json:"test"`
}

// SimEvent is an event the scenario can send.
type SimEvent struct {
	Name       string     `json:"name"`
	Params     []SimParam `json:"params"`
	Subscribed bool       `json:"subscribed"`
}

// SimParam is an event's parameter: its type and, for an enum, its members.
type SimParam struct {
	Name    string   `json:"name"`
	Type    string   `json:"type"`
	Members []string `json:"members,omitempty"`
}

// simulate replays the scenario up to its clock.
func simulate(ctx context.Context, req Request) *Response {
	sr := req.Sim
	if sr == nil {
		return &Response{Error: "sim: no scenario"}
	}
	if len(sr.Actions) > maxSimSteps {
		return &Response{Error: fmt.Sprintf("sim: %d actions; the simulator takes at most %d", len(sr.Actions), maxSimSteps)}
	}
	if sr.Now < 0 || sr.Now > timespan.MaxTicks {
		return &Response{Error: "sim: the clock lies outside TimeSpan's range"}
	}
	for _, f := range req.Files {
		if f.Name == simFile {
			return &Response{Error: fmt.Sprintf("sim: a file may not be named %s (the simulator's own)", simFile)}
		}
	}
	// Which workflow: checked alone first, for its name and events.
	base := run(ctx, req.Files, false)
	if base.Err != nil {
		return &Response{Error: base.Err.Error()}
	}
	if resp := withDiags(&Response{}, base.Diagnostics, req.Files); resp.Errors > 0 {
		resp.Error = "the program has errors: fix them to run it"
		return resp
	}
	wfs := base.Checked.Program.Workflows
	var names []string
	var wf *check.Workflow
	for _, w := range wfs {
		if w.Decl.Name == nil {
			continue
		}
		names = append(names, w.Decl.Name.Name)
		if w.Decl.Name.Name == sr.Workflow || sr.Workflow == "" && wf == nil {
			wf = w
		}
	}
	if wf == nil {
		return &Response{Error: fmt.Sprintf("sim: no workflow named %q", sr.Workflow)}
	}
	scenario, err := scenarioText(sr, wf.Decl.Name.Name, sr.Now)
	if err != nil {
		return &Response{Error: "sim: " + err.Error()}
	}
	files := append(append([]File(nil), req.Files...), File{Name: simFile, Text: scenario + "}\n"})
	r := run(ctx, files, true)
	if r.Err != nil {
		return &Response{Error: r.Err.Error()}
	}
	resp := withDiags(&Response{}, r.Diagnostics, files)
	if resp.Errors > 0 {
		resp.Error = "the scenario has errors"
		return resp
	}
	var t *check.Test
	for _, x := range r.Checked.Program.Tests {
		if x.Decl.File.Name == simFile {
			t = x
		}
	}
	if t == nil || t.Workflow == nil {
		return &Response{Error: "sim: the scenario did not check"}
	}
	st, tr, err := stepTo(ctx, r.Checked, t, r.Schedules, sr.Now)
	if err != nil {
		return &Response{Error: "sim: " + err.Error()}
	}
	st.Workflows = names
	st.Test = saveText(scenario, st, tr)
	for _, g := range drawGraphs(r, st.Workflow, st.State) {
		if g.Name == st.Workflow {
			st.Graph = g.SVG
		}
	}
	resp = &Response{Sim: st}
	return resp
}

// scenarioText writes the scenario as the start of a test, without its
// expectations and closing brace.
func scenarioText(sr *SimRequest, wf string, now int64) (string, error) {
	var b strings.Builder
	name := sr.Name
	if name == "" {
		name = SimTestName
	}
	fmt.Fprintf(&b, "test %s {\n  Workflow = %s;\n", strconv.Quote(name), wf)
	last := int64(0)
	for i, a := range sr.Actions {
		if a.At < last || a.At > now {
			return "", fmt.Errorf("action %d is at %s, out of order (actions are sent in time order, up to the clock)", i+1, timespan.Format(a.At))
		}
		last = a.At
		at := ""
		if a.At > 0 {
			at = ", at: " + timeSpanExpr(a.At)
		}
		switch a.Kind {
		case ActStart:
			if a.At > 0 {
				at = "at: " + timeSpanExpr(a.At)
			}
			fmt.Fprintf(&b, "  Start(%s);\n", at)
		case ActSend:
			if !isName(a.Event) {
				return "", fmt.Errorf("%q is not an event name", a.Event)
			}
			for _, x := range a.Args {
				if err := argOK(x); err != nil {
					return "", err
				}
			}
			fmt.Fprintf(&b, "  Send(%s(%s)%s);\n", a.Event, strings.Join(a.Args, ", "), at)
		case ActTake:
			if !isName(a.Slot) {
				return "", fmt.Errorf("%q is not a slot name", a.Slot)
			}
			fmt.Fprintf(&b, "  Take(%s%s);\n", a.Slot, at)
		default:
			return "", fmt.Errorf("action %d has no kind", i+1)
		}
	}
	for _, f := range sr.Failures {
		if f.Step == "" || strings.ContainsAny(f.Step, "\"\\\n\r") {
			return "", fmt.Errorf("%q is not a step name", f.Step)
		}
		switch {
		case f.Always:
			fmt.Fprintf(&b, "  Fail(%s);\n", strconv.Quote(f.Step))
		case f.Times > 0:
			fmt.Fprintf(&b, "  Fail(%s, times: %d);\n", strconv.Quote(f.Step), f.Times)
		}
	}
	return b.String(), nil
}

// isName reports whether s is a name (an identifier).
func isName(s string) bool {
	toks := lexer.Lex("", s).Tokens
	return len(toks) == 2 && toks[0].Kind == lexer.Ident && int(toks[0].End) == len(s)
}

// argOK accepts an argument in source form: a literal, a name, a dotted
// name or a TimeSpan call — no `,`, `;` or braces that would end the
// statement it is written into.
func argOK(s string) error {
	lx := lexer.Lex("", s)
	if len(lx.Diags) > 0 || len(lx.Tokens) < 2 {
		return fmt.Errorf("%q is not an argument: write a value such as Ok, \"text\", 42 or TimeSpan.FromMinutes(5)", s)
	}
	depth := 0
	for _, t := range lx.Tokens[:len(lx.Tokens)-1] {
		if t.Kind != lexer.Punct {
			continue
		}
		switch s[t.Off:t.End] {
		case ".", "-":
		case "(":
			depth++
		case ")":
			depth--
			if depth < 0 {
				return fmt.Errorf("%q has an unmatched )", s)
			}
		default:
			return fmt.Errorf("%q is not one argument: %q cannot stand in it", s, s[t.Off:t.End])
		}
	}
	if depth != 0 {
		return fmt.Errorf("%q has an unmatched (", s)
	}
	return nil
}

// timeSpanExpr writes ticks as a TimeSpan expression: the largest unit
// that holds it exactly.
func timeSpanExpr(t int64) string {
	if t == 0 {
		return "TimeSpan.Zero"
	}
	units := []struct {
		name string
		per  int64
	}{{"FromDays", timespan.TicksPerDay}, {"FromHours", timespan.TicksPerHour}, {"FromMinutes", timespan.TicksPerMinute},
		{"FromSeconds", timespan.TicksPerSecond}, {"FromMilliseconds", timespan.TicksPerMillisecond}}
	for _, u := range units {
		if t%u.per == 0 {
			return fmt.Sprintf("TimeSpan.%s(%d)", u.name, t/u.per)
		}
	}
	// Below a millisecond: a decimal number of milliseconds, exact.
	ms := strconv.FormatInt(t/timespan.TicksPerMillisecond, 10) + "." + fmt.Sprintf("%04d", t%timespan.TicksPerMillisecond)
	return "TimeSpan.FromMilliseconds(" + strings.TrimRight(ms, "0") + ")"
}

// stepTo runs test t's scenario on the interpreter up to now: as a test
// runs it (interp.RunMachine, actions before the deadlines of their
// instant, deadlines in turn), but over at the clock (Options.Until)
// instead of running every deadline out. An error of the run (a scenario
// past the runtime's limits, or stopped with ctx) is the state's Error.
func stepTo(ctx context.Context, res *check.Result, t *check.Test, scheds []*codegen.Schedule, now int64) (*SimState, *interp.Transcript, error) {
	wf := t.Workflow
	m, err := interp.RunMachine(res, wf, wftest.Scenario(t), interp.Options{Schedules: scheds, Until: now, HasUntil: true, Done: ctx.Done()})
	if err != nil {
		return nil, nil, err
	}
	clk := struct{ now int64 }{now}
	st := &SimState{Workflow: wf.Decl.Name.Name, Now: clk.now, NowText: timespan.Format(clk.now), Started: m.Started(), Ended: m.Ended(),
		CanStart: !wf.Autostart && !m.Started(), Events: []SimEvent{}, Slots: []string{}, Steps: []string{}, Lines: []string{}}
	if s := m.State(); s != nil {
		st.State = s.Decl.Name.Name
	}
	if d, ok := m.NextDeadline(); ok && !m.Ended() {
		st.Next, st.HasNext, st.NextText = d, true, timespan.Format(d)
	}
	subscribed := map[*check.Event]bool{}
	if s := m.State(); s != nil && !m.Ended() {
		for _, sub := range s.Subscriptions {
			if sub.Event != nil {
				subscribed[sub.Event] = true
			}
			for _, ms := range sub.Milestones {
				if ms.Kind == check.Assigned {
					st.Slots = append(st.Slots, sub.Slot())
					break
				}
			}
		}
	}
	for _, ev := range wf.Events {
		if ev.Decl.Name == nil {
			continue
		}
		se := SimEvent{Name: ev.Decl.Name.Name, Params: []SimParam{}, Subscribed: subscribed[ev]}
		for _, p := range ev.Params {
			sp := SimParam{}
			if p.Decl.Name != nil {
				sp.Name = p.Decl.Name.Name
			}
			if p.Decl.Type != nil && p.Decl.Type.Name != nil {
				sp.Type = p.Decl.Type.Name.Name
			}
			if p.Type.Enum != nil {
				for _, mb := range p.Type.Enum.Members {
					sp.Members = append(sp.Members, mb.Ident.Name)
				}
			}
			se.Params = append(se.Params, sp)
		}
		st.Events = append(st.Events, se)
	}
	for _, s := range wf.Steps {
		if s.Key != "" {
			st.Steps = append(st.Steps, s.Key)
		}
	}
	tr := m.Transcript()
	for _, e := range tr.Entries {
		st.Lines = append(st.Lines, e.String())
	}
	if js, err := tr.JSON(); err == nil {
		st.Transcript = string(js)
		st.SVG = runPicture(js, wf)
	}
	return st, tr, nil
}

// saveText is the scenario as a test that passes: the actions and
// failures, and where the run is — a step given up, the run ended in its
// state, or the state it is in at the clock.
func saveText(scenario string, st *SimState, tr *interp.Transcript) string {
	var exp string
	var end, gaveUp *interp.Entry
	for i := range tr.Entries {
		switch e := &tr.Entries[i]; e.Kind {
		case interp.KGiveUp:
			gaveUp = e
		case interp.KEnd:
			end = e
		}
	}
	switch {
	case gaveUp != nil:
		exp = fmt.Sprintf("  Expect.GaveUp(%s, at: %s);\n", strconv.Quote(gaveUp.Name), timeSpanExpr(gaveUp.At))
	case end != nil && st.State != "":
		exp = fmt.Sprintf("  Expect.End(%s, at: %s);\n", st.State, timeSpanExpr(end.At))
	case st.Started && st.State != "":
		exp = fmt.Sprintf("  Expect.State(%s, at: %s);\n", st.State, timeSpanExpr(st.Now))
	}
	return scenario + exp + "}\n"
}
