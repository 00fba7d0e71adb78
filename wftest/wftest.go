// Package wftest runs the tests written in the language (docs/language.md,
// "Tests"): it turns a checked test into a scenario of the reference
// interpreter (interp), runs it on the virtual clock, and checks the
// test's expectations against the transcript. With a Coverage it also
// counts what the runs exercised (coverage.go). `wfc test` is its command
// line; a Go program can call Run directly.
//
// A test is only run when its program checked without errors: a test that
// cannot mean anything is a diagnostic (WF501–WF505), never a failed run.
package wftest

import (
	"fmt"
	"sort"
	"strings"
	"time"

	"github.com/wfc-lang/wfc/check"
	"github.com/wfc-lang/wfc/check/timespan"
	"github.com/wfc-lang/wfc/codegen"
	"github.com/wfc-lang/wfc/diag"
	"github.com/wfc-lang/wfc/interp"
)

// Options tune Run.
type Options struct {
	// Schedules are the program's lowered schedules (codegen.Lower with
	// zero Options), shared by the runs of one program; nil lowers them.
	Schedules []*codegen.Schedule
	// Cover, if set, records what the run exercised.
	Cover *Coverage
	// MaxEntries, if positive, bounds each run's transcript below
	// interp.MaxEntries (a fuzz target keeps its runs short).
	MaxEntries int
}

// Result is one test's outcome.
type Result struct {
	Test       *check.Test
	Transcript *interp.Transcript // nil when the run could not start (Err)
	// Failures are the expectations that did not hold, in source order.
	Failures []Failure
	// Err is why the run did not happen (a scenario beyond the limits).
	Err     error
	Elapsed time.Duration
}

// Passed reports whether the run happened and every expectation held.
func (r *Result) Passed() bool { return r.Err == nil && len(r.Failures) == 0 }

// Failure is an expectation that did not hold.
type Failure struct {
	Expect *check.Expect
	File   string
	Range  diag.Range
	// Message says what was expected and what the run did.
	Message string
	// Entry is the index of the transcript entry the failure is about (the
	// transcript is shown around it), or -1.
	Entry int
}

// Scenario turns a test into the interpreter's scenario: its actions sorted
// by time, stably (actions at the same time keep their statement order),
// and its failing steps.
func Scenario(t *check.Test) interp.Scenario {
	acts := make([]*check.TestAction, len(t.Actions))
	copy(acts, t.Actions)
	sort.SliceStable(acts, func(i, j int) bool { return acts[i].At < acts[j].At })
	var sc interp.Scenario
	for _, a := range acts {
		ia := interp.Action{At: a.At, Slot: a.Slot, Event: a.Event}
		switch a.Kind {
		case check.TestStart:
			ia.Kind = interp.ActStart
		case check.TestSend:
			ia.Kind = interp.ActSend
			for _, v := range a.Args {
				ia.Args = append(ia.Args, Value(v))
			}
		case check.TestTake:
			ia.Kind = interp.ActTake
		}
		sc.Actions = append(sc.Actions, ia)
	}
	for _, f := range t.Failures {
		for _, s := range f.Steps {
			if sc.Failures == nil {
				sc.Failures = map[*check.Step]interp.Failure{}
			}
			sc.Failures[s] = interp.Failure{Times: f.Times, Always: f.Always}
		}
	}
	return sc
}

// Value is a test argument as the interpreter holds it: an enum member by
// its name, anything else in its source form.
func Value(a check.TestArg) interp.Value {
	if a.Member != nil {
		return interp.Value{Text: a.Member.Ident.Name, Member: a.Member}
	}
	return interp.Value{Text: interp.ExprText(a.Value)}
}

// Run runs test t of the checked program res and checks its expectations.
// res must have no errors and t must have resolved (t.Workflow set).
func Run(res *check.Result, t *check.Test, opt Options) *Result {
	start := time.Now()
	r := &Result{Test: t}
	defer func() { r.Elapsed = time.Since(start) }()
	if t.Workflow == nil {
		r.Err = fmt.Errorf("test %q names no workflow", t.Name)
		return r
	}
	iopt := interp.Options{Schedules: opt.Schedules, MaxEntries: opt.MaxEntries}
	if opt.Cover != nil {
		iopt.OnStmt = opt.Cover.stmt
	}
	tr, err := interp.RunWith(res, t.Workflow, Scenario(t), iopt)
	if err != nil {
		r.Err = err
		return r
	}
	r.Transcript = tr
	if opt.Cover != nil {
		opt.Cover.transcript(t.Workflow, tr)
	}
	for _, x := range t.Expects {
		if f, ok := expect(t, x, tr); !ok {
			r.Failures = append(r.Failures, f)
		}
	}
	return r
}

// entered reports whether the run entered a state: whether it started.
func entered(es []interp.Entry) bool {
	for _, e := range es {
		if e.Kind == interp.KEnter {
			return true
		}
	}
	return false
}

// startHint says why a run may not have started: its workflow does not
// start by itself and the test never starts it.
func startHint(t *check.Test) string {
	if t.Workflow == nil || t.Workflow.Autostart {
		return ""
	}
	for _, a := range t.Actions {
		if a.Kind == check.TestStart {
			return ""
		}
	}
	return fmt.Sprintf(" (workflow %s has no `Autostart = true;`: the test starts it with `Start();`)", t.Workflow.Decl.Name.Name)
}

// expect checks one expectation against the transcript.
func expect(t *check.Test, x *check.Expect, tr *interp.Transcript) (Failure, bool) {
	f := Failure{Expect: x, File: t.Decl.File.Name, Range: x.Decl.Range, Entry: len(tr.Entries) - 1}
	es := tr.Entries
	at := func() string {
		if x.HasAt {
			return " at " + timespan.Format(x.At)
		}
		return ""
	}
	switch x.Kind {
	case check.ExpectState:
		want := x.State.Decl.Name.Name
		got, k := "", -1
		for i, e := range es {
			if x.HasAt && e.At > x.At {
				break
			}
			if e.Kind == interp.KEnter {
				got, k = e.State, i
			}
		}
		if got == want {
			return f, true
		}
		if x.HasAt {
			f.Entry = lastAtOrBefore(es, x.At)
		} else if k >= 0 {
			f.Entry = k
		}
		if got == "" {
			f.Message = fmt.Sprintf("expected state %s%s; the run had not started%s", want, at(), startHint(t))
		} else {
			f.Message = fmt.Sprintf("expected state %s%s; the run was in %s", want, at(), got)
		}
	case check.ExpectEnd:
		want := x.State.Decl.Name.Name
		end, ok := tr.End()
		if ok && end.Kind == interp.KEnd && end.State == want && (!x.HasAt || end.At == x.At) {
			return f, true
		}
		switch {
		case !ok && !entered(es):
			f.Message = fmt.Sprintf("expected the run to end in %s%s; the run never started%s", want, at(), startHint(t))
		case !ok:
			f.Message = fmt.Sprintf("expected the run to end in %s%s; the transcript has no end", want, at())
		case end.Kind == interp.KWaiting:
			f.Message = fmt.Sprintf("expected the run to end in %s%s; it was still waiting in %s at %s", want, at(), end.State, timespan.Format(end.At))
		case end.Kind == interp.KStopped:
			f.Message = fmt.Sprintf("expected the run to end in %s%s; it was stopped: %s", want, at(), end.Message)
		default:
			f.Message = fmt.Sprintf("expected the run to end in %s%s; it ended in %s at %s", want, at(), end.State, timespan.Format(end.At))
			if end.Error && end.State != "" && !strings.Contains(end.Message, end.State) {
				f.Message += " (" + end.Message + ")"
			}
		}
	case check.ExpectGaveUp:
		for i, e := range es {
			if e.Kind == interp.KGiveUp && e.Name == x.Step {
				if !x.HasAt || e.At == x.At {
					return f, true
				}
				f.Entry = i
				f.Message = fmt.Sprintf("expected step %q to give up%s; it gave up at %s", x.Step, at(), timespan.Format(e.At))
				return f, false
			}
		}
		f.Message = fmt.Sprintf("expected step %q to give up%s; it did not", x.Step, at())
	case check.ExpectAttempts:
		var got []interp.Ticks
		first := -1
		for i, e := range es {
			if e.Kind == interp.KAttempt && e.Name == x.Step {
				got = append(got, e.At)
				if first < 0 {
					first = i
				}
			}
		}
		if equalTicks(got, x.Attempts) {
			return f, true
		}
		if first >= 0 {
			f.Entry = first
		}
		f.Message = fmt.Sprintf("expected step %q's attempts at %s; they were at %s", x.Step, ticksList(x.Attempts), ticksList(got))
	case check.ExpectCall:
		want := callText(x.Call, x.Args)
		var near []string
		for i, e := range es {
			if e.Kind != interp.KCall {
				continue
			}
			got := callText2(e)
			if got == want && (!x.HasAt || e.At == x.At) {
				return f, true
			}
			if e.Name == x.Call {
				near = append(near, got+" at "+timespan.Format(e.At))
				f.Entry = i
			}
		}
		if len(near) == 0 {
			f.Message = fmt.Sprintf("expected the call %s%s; the run made no call to %s", want, at(), x.Call)
		} else {
			f.Message = fmt.Sprintf("expected the call %s%s; the run called %s", want, at(), strings.Join(near, ", "))
		}
	}
	return f, false
}

// lastAtOrBefore is the index of the last entry at or before t, or -1.
func lastAtOrBefore(es []interp.Entry, t interp.Ticks) int {
	k := -1
	for i, e := range es {
		if e.At > t {
			break
		}
		k = i
	}
	return k
}

func equalTicks(a, b []interp.Ticks) bool {
	if len(a) != len(b) {
		return false
	}
	for i := range a {
		if a[i] != b[i] {
			return false
		}
	}
	return true
}

func ticksList(ts []interp.Ticks) string {
	if len(ts) == 0 {
		return "(none)"
	}
	s := make([]string, len(ts))
	for i, t := range ts {
		s[i] = timespan.Format(t)
	}
	return strings.Join(s, ", ")
}

// callText is an expected call as the transcript writes calls.
func callText(fun string, args []check.Arg) string {
	s := make([]string, len(args))
	for i, a := range args {
		s[i] = interp.ExprText(a.Value)
		if a.Label != "" {
			s[i] = a.Label + ": " + s[i]
		}
	}
	return fun + "(" + strings.Join(s, ", ") + ")"
}

func callText2(e interp.Entry) string { return e.Name + "(" + strings.Join(e.Args, ", ") + ")" }

// Around returns the transcript's lines within n entries of entry k (all of
// them when k < 0 or the transcript is short), each prefixed, with the
// line of entry k marked, for showing a failure in its context.
func Around(tr *interp.Transcript, k, n int) string {
	if tr == nil {
		return ""
	}
	lo, hi := 0, len(tr.Entries)
	if k >= 0 {
		lo, hi = max(0, k-n), min(len(tr.Entries), k+n+1)
	}
	var b strings.Builder
	if lo > 0 {
		fmt.Fprintf(&b, "      … %d earlier entries\n", lo)
	}
	for i := lo; i < hi; i++ {
		mark := "  "
		if i == k {
			mark = "> "
		}
		b.WriteString("    " + mark + tr.Entries[i].String() + "\n")
	}
	if hi < len(tr.Entries) {
		fmt.Fprintf(&b, "      … %d later entries\n", len(tr.Entries)-hi)
	}
	return b.String()
}
