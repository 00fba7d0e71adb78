package wfctemporal

import (
	"flag"
	"fmt"
	"math/rand/v2"
	"sort"
	"strings"
	"testing"

	"github.com/wfc-lang/wfc/check"
	"github.com/wfc-lang/wfc/interp"
)

// The generated proof's size: programs, and scenarios of each. CI runs the
// default; -wfc.programs=N looks further (the seed of each case is its
// number, so a failure is reproduced with -run 'TestGenerated/N$').
var (
	genPrograms  = flag.Int("wfc.programs", 300, "generated programs in TestGenerated")
	genScenarios = flag.Int("wfc.scenarios", 2, "scenarios of each generated program")
	genRich      = flag.Int("wfc.rich", 150, "generated programs with rich steps in TestGeneratedRich")
)

// gen writes one random program as source text: states with
// subscriptions, milestones (Within, Retries or a Backoff with a budget),
// handlers with calls, durable steps, cases and gotos. Policies of steps
// are ones Temporal runs exactly (Fixed, Exponential with or without a
// cap, and Linear through NextRetryDelay; no jitter, no zero waits), so
// that any difference is a bug. Gotos in milestone outcomes go only
// forward (to a later state or a terminal), so a run without events ends.
type gen struct {
	r      *rand.Rand
	b      strings.Builder
	states int
	steps  int
	events []genEvent
	// rich adds what a step may say beyond its waits (genRichProgram):
	// error kinds, a cadence, jitter, a timeout, a deadline, a catch. It
	// draws more random numbers, so a plain program's text (and the
	// histories recorded from it) stays what it was.
	rich bool
}

type genEvent struct {
	name  string
	param string // "", "Color c", "int n" or "string s"
}

func genProgram(seed uint64) string {
	return (&gen{r: rand.New(rand.NewPCG(seed, 0x5eed))}).program()
}

// genRichProgram is genProgram with rich steps: `enum Fault` for their
// error kinds, policies with Every, NonRetryable, RetryOn and Jitter,
// `timeout:` and `deadline:`, and catch blocks.
func genRichProgram(seed uint64) string {
	return (&gen{r: rand.New(rand.NewPCG(seed, 0x51c4)), rich: true}).program()
}

func (g *gen) program() string {
	g.states = 2 + g.r.IntN(4)
	params := []string{"", "Color c", "int n", "string s"}
	for i := range 2 + g.r.IntN(3) {
		g.events = append(g.events, genEvent{name: fmt.Sprintf("E%d", i), param: params[g.r.IntN(len(params))]})
	}
	g.p("enum Color { Red, Green, Blue }\n")
	if g.rich {
		g.p("enum Fault { Busy, Declined, Gone }\n")
	}
	g.p("\nworkflow G {\n")
	g.p("  Autostart = %v;\n  Initial = S0;\n", g.r.IntN(4) != 0)
	for _, e := range g.events {
		g.p("  event %s(%s);\n", e.name, e.param)
	}
	for s := range g.states {
		g.state(s)
	}
	g.p("  terminal Done { }\n  terminal error Bad { Message = \"bad end\"; }\n}\n")
	return g.b.String()
}

func (g *gen) p(format string, args ...any) { fmt.Fprintf(&g.b, format, args...) }

func (g *gen) state(s int) {
	g.p("  state S%d {\n", s)
	perm := g.r.Perm(len(g.events))
	for k := range 1 + g.r.IntN(min(3, len(g.events))) {
		e := g.events[perm[k]]
		slot := e.name
		g.p("    subscribe %s(%s)", e.name, e.param)
		if g.r.IntN(3) == 0 {
			slot = fmt.Sprintf("Slot%d%d", s, k)
			g.p(" as %s", slot)
		}
		var ms []string
		if g.r.IntN(3) != 0 {
			ms = append(ms, "Finished")
		}
		if g.r.IntN(3) == 0 {
			ms = append(ms, "Assigned")
		}
		if len(ms) == 0 {
			g.p(";\n")
		} else {
			g.p(" {\n")
			for _, m := range ms {
				g.milestone(s, m)
			}
			g.p("    }\n")
		}
		if g.r.IntN(6) != 0 {
			g.handler(s, slot, e)
		}
	}
	g.p("  }\n")
}

// minutes is a TimeSpan of whole minutes (most scenario times are whole
// minutes too, so events often fall exactly on a window's end).
func minutes(n int) string { return fmt.Sprintf("TimeSpan.FromMinutes(%d)", n) }

func (g *gen) milestone(s int, kind string) {
	g.p("      %s { Within = %s;", kind, minutes(1+g.r.IntN(20)))
	switch g.r.IntN(5) {
	case 0: // one window
	case 1:
		g.p(" Retries = %d;", 1+g.r.IntN(3))
	case 2:
		g.p(" Retries = %d; Backoff = %s;", 1+g.r.IntN(3), minutes(g.r.IntN(10)))
	case 3:
		g.p(" Backoff = Backoff.Exponential(%s).MaxAttempts(%d)", minutes(1+g.r.IntN(5)), 2+g.r.IntN(3))
		if g.r.IntN(2) == 0 {
			g.p(".Cap(%s)", minutes(2+g.r.IntN(10)))
		}
		g.p(";")
	case 4:
		g.p(" Backoff = Backoff.Linear(%s).MaxAttempts(%d);", minutes(1+g.r.IntN(5)), 2+g.r.IntN(3))
	}
	if g.r.IntN(2) == 0 {
		g.p(" Exhausted { %s}", g.outcome(s, g.r.IntN(4) == 0))
	}
	give := "Unfinished"
	if kind == "Assigned" {
		give = "Unassigned"
	}
	if g.r.IntN(4) != 0 {
		g.p(" %s { %s}", give, g.outcome(s, g.r.IntN(4) != 0))
	}
	g.p(" }\n")
}

// outcome is an outcome block's body: maybe a call, maybe a forward goto.
func (g *gen) outcome(s int, move bool) string {
	var b strings.Builder
	if g.r.IntN(3) == 0 {
		fmt.Fprintf(&b, "Ops.Page(\"S%d\"); ", s)
	}
	if move {
		fmt.Fprintf(&b, "goto %s; ", g.target(s+1))
	}
	return b.String()
}

// target is a state numbered from or later, or a terminal.
func (g *gen) target(from int) string {
	n := g.states - from
	if n < 0 {
		n = 0
	}
	k := g.r.IntN(n + 2)
	switch {
	case k == n:
		return "Done"
	case k == n+1:
		return "Bad"
	}
	return fmt.Sprintf("S%d", from+k)
}

func (g *gen) handler(s int, slot string, e genEvent) {
	g.p("    on %s(%s) {", slot, e.param)
	if strings.HasPrefix(e.param, "Color") && g.r.IntN(3) != 0 {
		members := []string{"Red", "Green", "Blue"}
		for _, m := range members[:1+g.r.IntN(2)] {
			g.p(" %s { %s}", m, g.body(s, e))
		}
		if g.r.IntN(2) == 0 {
			g.p(" default { %s}", g.body(s, e))
		}
	} else {
		g.p(" %s", g.body(s, e))
	}
	g.p("}\n")
}

// body is a handler's statements: calls and steps, then maybe a goto
// anywhere.
func (g *gen) body(s int, e genEvent) string {
	var b strings.Builder
	arg := `"x"`
	if e.param != "" {
		arg = strings.Fields(e.param)[1]
	}
	for range g.r.IntN(3) {
		switch g.r.IntN(3) {
		case 0:
			fmt.Fprintf(&b, "Log.Note(%s, %d); ", arg, g.r.IntN(100))
		default:
			g.steps++
			if g.rich {
				b.WriteString(g.richStep(s, arg))
				break
			}
			fmt.Fprintf(&b, "Workflow.Once(\"st%d\"%s) { Pay.Charge(%s); } ", g.steps, g.retry(), arg)
		}
	}
	if g.r.IntN(4) != 0 {
		k := g.r.IntN(g.states + 2)
		switch {
		case k < g.states:
			fmt.Fprintf(&b, "goto S%d; ", k)
		case k == g.states:
			b.WriteString("goto Done; ")
		default:
			b.WriteString("goto Bad; ")
		}
	}
	return b.String()
}

// retry is a step's policy, one Temporal runs exactly.
func (g *gen) retry() string {
	secs := func() string { return fmt.Sprintf("TimeSpan.FromSeconds(%d)", 1+g.r.IntN(300)) }
	n := 2 + g.r.IntN(3)
	switch g.r.IntN(5) {
	case 0:
		return ""
	case 1:
		return fmt.Sprintf(", retry: Backoff.Fixed(%s).MaxAttempts(%d)", secs(), n)
	case 2:
		return fmt.Sprintf(", retry: Backoff.Exponential(%s).MaxAttempts(%d)", secs(), n)
	case 3:
		return fmt.Sprintf(", retry: Backoff.Exponential(%s).Cap(TimeSpan.FromMinutes(%d)).MaxAttempts(%d)", secs(), 1+g.r.IntN(3), n)
	}
	return fmt.Sprintf(", retry: Backoff.Linear(%s).MaxAttempts(%d)", secs(), n)
}

// richStep is a durable step of a rich program: a policy that may be a
// cadence, name error kinds or jitter, a timeout and a deadline, and a
// catch whose cases go on after the step or move forward.
func (g *gen) richStep(s int, arg string) string {
	secs := func(n int) string { return fmt.Sprintf("TimeSpan.FromSeconds(%d)", 1+g.r.IntN(n)) }
	var b strings.Builder
	fmt.Fprintf(&b, "Workflow.Once(\"st%d\"", g.steps)
	deadline := g.r.IntN(4) == 0
	if g.r.IntN(6) != 0 {
		shape := []string{"Fixed", "Exponential", "Linear", "Every"}[g.r.IntN(4)]
		fmt.Fprintf(&b, ", retry: Backoff.%s(%s)", shape, secs(120))
		if !deadline || g.r.IntN(2) == 0 {
			fmt.Fprintf(&b, ".MaxAttempts(%d)", 2+g.r.IntN(4))
		}
		switch g.r.IntN(4) {
		case 0:
			b.WriteString(".NonRetryable(Fault.Declined)")
		case 1:
			b.WriteString(".RetryOn(Fault.Busy)")
		}
		if shape != "Every" && g.r.IntN(4) == 0 {
			b.WriteString(".Jitter(0.5)") // a cadence has no jitter (WF304)
		}
	}
	if g.r.IntN(3) == 0 {
		fmt.Fprintf(&b, ", timeout: %s", secs(60))
	}
	if deadline {
		fmt.Fprintf(&b, ", deadline: TimeSpan.FromMinutes(%d)", 1+g.r.IntN(10))
	}
	fmt.Fprintf(&b, ") { Pay.Charge(%s); } ", arg)
	if g.r.IntN(2) == 0 {
		b.WriteString("catch {")
		labels := []string{"Exhausted", "Deadline", "Terminal", "Declined"}
		for _, k := range g.r.Perm(len(labels))[:1+g.r.IntN(2)] {
			fmt.Fprintf(&b, " %s { %s}", labels[k], g.outcome(s, g.r.IntN(2) == 0))
		}
		if g.r.IntN(2) == 0 {
			fmt.Fprintf(&b, " default { %s}", g.outcome(s, g.r.IntN(2) == 0))
		}
		b.WriteString(" } ")
	}
	return b.String()
}

// genScenario draws a scenario for wf: a start (if it is not Autostart),
// events with arguments, slots taken (and some that do not exist), mostly
// at whole minutes, and failures of its steps.
func genScenario(r *rand.Rand, wf *check.Workflow) interp.Scenario {
	var sc interp.Scenario
	var slots []string
	for _, s := range wf.States {
		for _, sub := range s.Subscriptions {
			slots = append(slots, sub.Slot())
		}
	}
	slots = append(slots, "Nobody")
	at := func() interp.Ticks {
		t := interp.Ticks(r.IntN(120)) * 600_000_000
		if r.IntN(5) == 0 {
			t += interp.Ticks(r.IntN(60)) * 10_000_000
		}
		return t
	}
	if !wf.Autostart && r.IntN(8) != 0 {
		sc.Actions = append(sc.Actions, interp.Action{At: interp.Ticks(r.IntN(3)) * 600_000_000, Kind: interp.ActStart})
	}
	for range r.IntN(10) {
		a := interp.Action{At: at()}
		switch r.IntN(8) {
		case 0:
			a.Kind = interp.ActStart
		case 1, 2:
			a.Kind, a.Slot = interp.ActTake, wf.SlotNamed(slots[r.IntN(len(slots))])
		default:
			ev := wf.Events[r.IntN(len(wf.Events))]
			a.Kind, a.Event = interp.ActSend, ev
			for _, p := range ev.Params {
				var v interp.Value
				switch {
				case p.Type.Enum != nil:
					m := p.Type.Enum.Members[r.IntN(len(p.Type.Enum.Members))]
					v = interp.Value{Text: m.Ident.Name, Member: m}
				case p.Type.Basic == check.Int:
					v.Text = fmt.Sprint(r.IntN(1000))
				case p.Type.Basic == check.Decimal:
					v.Text = fmt.Sprintf("%d.%02d", r.IntN(100), r.IntN(100))
				case p.Type.Basic == check.Bool:
					v.Text = fmt.Sprint(r.IntN(2) == 0)
				default:
					v.Text = fmt.Sprintf("%q", fmt.Sprintf("s%d", r.IntN(10)))
				}
				a.Args = append(a.Args, v)
			}
		}
		sc.Actions = append(sc.Actions, a)
	}
	sort.SliceStable(sc.Actions, func(i, j int) bool { return sc.Actions[i].At < sc.Actions[j].At })
	for _, st := range wf.Steps {
		switch r.IntN(4) {
		case 0:
			if sc.Steps == nil {
				sc.Steps = map[*check.Step]*interp.Script{}
			}
			sc.Steps[st] = &interp.Script{Fails: []interp.Failure{{Always: true}}}
		case 1:
			if sc.Steps == nil {
				sc.Steps = map[*check.Step]*interp.Script{}
			}
			sc.Steps[st] = &interp.Script{Fails: []interp.Failure{{Times: int64(1 + r.IntN(3))}}}
		}
	}
	return sc
}

// genRichScenario is genScenario for a rich program: failures carry error
// kinds and a server's Retry-After, attempts take time (some longer than
// a timeout), and some scenarios give the jitter's draws.
func genRichScenario(r *rand.Rand, wf *check.Workflow, fault *check.Enum) interp.Scenario {
	sc := genScenario(r, wf)
	for _, st := range wf.Steps {
		scr := sc.Steps[st]
		if scr == nil {
			if r.IntN(3) != 0 {
				continue
			}
			if sc.Steps == nil {
				sc.Steps = map[*check.Step]*interp.Script{}
			}
			scr = &interp.Script{}
			sc.Steps[st] = scr
		}
		for range r.IntN(3) {
			f := interp.Failure{Times: int64(1 + r.IntN(2))}
			if k := r.IntN(len(fault.Members) + 1); k < len(fault.Members) {
				f.Kind = fault.Members[k]
			}
			if r.IntN(3) == 0 {
				f.RetryAfter, f.HasRetryAfter = interp.Ticks(1+r.IntN(90))*10_000_000, true
			}
			scr.Fails = append([]interp.Failure{f}, scr.Fails...)
		}
		switch r.IntN(3) {
		case 0:
			scr.Took = interp.Ticks(r.IntN(90)) * 10_000_000
		case 1:
			scr.Takes = map[int64]interp.Ticks{int64(1 + r.IntN(3)): interp.Ticks(1+r.IntN(90)) * 10_000_000}
		}
	}
	// Events a few seconds after others fall while a step that one of them
	// started waits to retry: a goto then cancels the step.
	var sends, echoes []interp.Action
	for _, a := range sc.Actions {
		if a.Kind == interp.ActSend {
			sends = append(sends, a)
		}
	}
	for _, a := range sends {
		if r.IntN(3) != 0 {
			echo := sends[r.IntN(len(sends))]
			echo.At = a.At + interp.Ticks(1+r.IntN(100))*10_000_000
			echoes = append(echoes, echo)
		}
	}
	sc.Actions = append(sc.Actions, echoes...)
	sort.SliceStable(sc.Actions, func(i, j int) bool { return sc.Actions[i].At < sc.Actions[j].At })
	if r.IntN(2) == 0 {
		for range 1 + r.IntN(3) {
			sc.Draws = append(sc.Draws, float64(r.IntN(1000))/1000)
		}
	}
	return sc
}

// TestGenerated: generated programs and scenarios give the same
// transcripts in the reference interpreter and on Temporal.
func TestGenerated(t *testing.T) {
	entries := 0
	seen := map[string]int{}
	for i := range *genPrograms {
		t.Run(fmt.Sprint(i), func(t *testing.T) {
			src := genProgram(uint64(i))
			srcs := []Source{{Name: fmt.Sprintf("gen%d.wf", i), Text: src}}
			p, err := NewProgram(srcs)
			if err != nil {
				t.Fatalf("%v\n%s", err, src)
			}
			c, _ := compile(srcs)
			wf := c.res.Program.WorkflowNamed("G")
			r := rand.New(rand.NewPCG(uint64(i), 0x5cea))
			for range *genScenarios {
				sc := genScenario(r, wf)
				if !t.Run("", func(t *testing.T) { same(t, p, c, wf, sc) }) {
					t.Logf("program:\n%s", src)
					return
				}
				tr, _ := interp.RunWith(c.res, wf, sc, interp.Options{Schedules: c.scheds})
				entries += len(tr.Entries)
				for _, e := range tr.Entries {
					seen[e.Kind.String()]++
					switch {
					case e.Held:
						seen["held"]++
					case e.InWait:
						seen["met in a wait"]++
					case e.Kind == interp.KAttempt && e.N > 1:
						seen["retried attempt"]++
					case e.Kind == interp.KEnd && e.Error:
						seen["end error"]++
					}
				}
			}
		})
	}
	t.Logf("%d programs × %d scenarios, %d transcript entries compared; entries by kind: %v", *genPrograms, *genScenarios, entries, seen)
	// The generator must reach what the proof is about.
	// (Nothing is held since a retrying step stopped freezing the run: a
	// goto taken while a step waits cancels it instead.)
	for _, k := range []string{"cancel", "met in a wait", "retried attempt", "give-up", "exhausted", "take", "end error", "waiting"} {
		if seen[k] < 5 {
			t.Errorf("the generated scenarios reach %q only %d times", k, seen[k])
		}
	}
}

// TestGeneratedRich: generated programs whose steps have error kinds, a
// cadence, jitter, timeouts, deadlines and catch blocks, run on scenarios
// whose failures carry kinds and a Retry-After, whose attempts take time
// and which give the jitter's draws, give the same transcripts in the
// reference interpreter and on Temporal (the time-skipping environment;
// go test -run 'TestGeneratedRich/17$' reproduces case 17).
func TestGeneratedRich(t *testing.T) {
	entries := 0
	seen := map[string]int{}
	for i := range *genRich {
		t.Run(fmt.Sprint(i), func(t *testing.T) {
			src := genRichProgram(uint64(i))
			srcs := []Source{{Name: fmt.Sprintf("rich%d.wf", i), Text: src}}
			p, err := NewProgram(srcs)
			if err != nil {
				t.Fatalf("%v\n%s", err, src)
			}
			c, _ := compile(srcs)
			wf := c.res.Program.WorkflowNamed("G")
			var fault *check.Enum
			for _, e := range c.res.Program.Enums {
				if e.Decl.Name.Name == "Fault" {
					fault = e
				}
			}
			r := rand.New(rand.NewPCG(uint64(i), 0x51c5))
			for range *genScenarios {
				sc := genRichScenario(r, wf, fault)
				if !t.Run("", func(t *testing.T) { same(t, p, c, wf, sc) }) {
					t.Logf("program:\n%s", src)
					return
				}
				tr, _ := interp.RunWith(c.res, wf, sc, interp.Options{Schedules: c.scheds, MaxEntries: MaxEntries})
				entries += len(tr.Entries)
				for _, e := range tr.Entries {
					seen[e.Kind.String()]++
					switch {
					case e.ErrorKind != "":
						seen["error kind"]++
					case e.RetryAfter:
						seen["retry-after"]++
					}
					if e.Kind == interp.KGiveUp {
						seen["give-up: "+e.Cause.String()]++
					}
				}
			}
		})
	}
	t.Logf("%d rich programs × %d scenarios, %d transcript entries compared; entries by kind: %v", *genRich, *genScenarios, entries, seen)
	if *genRich < 150 {
		return
	}
	// The generator must reach what the proof is about.
	for _, k := range []string{"timeout", "error kind", "retry-after", "skip", "cancel", "give-up: Exhausted", "give-up: Deadline", "give-up: Terminal", "outcome"} {
		if seen[k] < 5 {
			t.Errorf("the rich scenarios reach %q only %d times", k, seen[k])
		}
	}
}

// serverSafe reports whether a scenario's run decides the same on a dev
// server as on the virtual clock at speedup, whatever the server's timing:
// no action falls less than 2 s of real time after a time at which the
// reference handled a deadline or started an attempt (the server fires
// timers up to about a second late, and a signal it records before a
// timer's TimerFired comes first), nor less than 0.5 s before one (the
// run's clock starts with its first workflow task, a little after or
// before the test's); and the run is over within 30 s of real time.
func serverSafe(tr *interp.Transcript, sc interp.Scenario, speedup int64) (bool, interp.Ticks) {
	after := interp.Ticks(2 * 10_000_000 * speedup)
	before := interp.Ticks(10_000_000 * speedup / 2)
	var last interp.Ticks
	for _, e := range tr.Entries {
		last = max(last, e.At)
		// What a timer brings: a window passing, a wait ending (the next
		// window opening), a retry.
		if !(e.Kind == interp.KPass || e.Kind == interp.KOpen && e.N > 1 || e.Kind == interp.KAttempt && e.N > 1) {
			continue
		}
		for _, a := range sc.Actions {
			if a.At >= e.At && a.At < e.At+after || a.At < e.At && a.At+before > e.At {
				return false, last
			}
		}
	}
	return last <= interp.Ticks(30*10_000_000*speedup), last
}
