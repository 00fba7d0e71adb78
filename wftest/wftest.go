// Package wftest runs the tests written in the language (docs/language.md,
// "Tests"): it turns a checked test into a scenario of the reference
// interpreter (interp), runs it on the virtual clock, and checks the
// test's expectations against the transcript. With a Coverage it also
// counts what the runs exercised (coverage.go). `wfc test` is its command
// line; a Go program can call Run directly.
//
// It reads only the model: a test is the checker's resolved check.Test,
// whose actions hold their Event, argument Members and Slot, and whose
// expectations hold the State, Step and Calls they are about. The run
// tells it, entry by entry, the model object each entry is about
// (interp.Subject), and the judge compares those objects with the
// expectation's, never the transcript's names, which are only for the
// messages; coverage is keyed by the model's states, milestones, steps and
// statements.
//
// A test is only run when its program checked without errors: a test that
// cannot mean anything is a diagnostic (WF501–WF505), never a failed run.
package wftest

import (
	"fmt"
	"slices"
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
	// The run's entries come with the model objects they are about, which
	// the expectations and coverage compare.
	var about []interp.Subject
	iopt := interp.Options{Schedules: opt.Schedules, MaxEntries: opt.MaxEntries,
		OnEntry: func(_ int, e *interp.Entry, s interp.Subject) {
			about = append(about, s)
			if opt.Cover != nil {
				opt.Cover.entry(e, s)
			}
		}}
	if opt.Cover != nil {
		iopt.OnStmt = opt.Cover.stmt
	}
	tr, err := interp.RunWith(res, t.Workflow, Scenario(t), iopt)
	if err != nil {
		r.Err = err
		return r
	}
	r.Transcript = tr
	run := &run{t: t, tr: tr, es: tr.Entries, about: about}
	for _, x := range t.Expects {
		if f, ok := run.expect(x); !ok {
			r.Failures = append(r.Failures, f)
		}
	}
	return r
}

// run is a finished run as the judge reads it: the transcript's entries
// and, entry by entry, the model object each is about (interp.Subject).
type run struct {
	t     *check.Test
	tr    *interp.Transcript
	es    []interp.Entry
	about []interp.Subject
}

// state, step and call are the state, step and call entry i is about (nil
// when it is about none).
func (r *run) state(i int) *check.State { s, _ := r.about[i].(*check.State); return s }
func (r *run) step(i int) *check.Step   { s, _ := r.about[i].(*check.Step); return s }
func (r *run) call(i int) *check.Call   { c, _ := r.about[i].(*check.Call); return c }

// end is the index of the entry that ended the run (Transcript.End), or -1.
func (r *run) end() int {
	for i := len(r.es) - 1; i >= 0; i-- {
		switch r.es[i].Kind {
		case interp.KEnd, interp.KWaiting, interp.KStopped:
			return i
		}
	}
	return -1
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

// expect checks one expectation against the run: the states, steps and
// calls it names are compared with the objects the entries are about; the
// names are only for the messages.
func (r *run) expect(x *check.Expect) (Failure, bool) {
	t, es := r.t, r.es
	f := Failure{Expect: x, File: t.Decl.File.Name, Range: x.Decl.Range, Entry: len(es) - 1}
	at := func() string {
		if x.HasAt {
			return " at " + timespan.Format(x.At)
		}
		return ""
	}
	switch x.Kind {
	case check.ExpectState:
		want := x.State.Decl.Name.Name
		var got *check.State
		k := -1
		for i, e := range es {
			if x.HasAt && e.At > x.At {
				break
			}
			if e.Kind == interp.KEnter {
				got, k = r.state(i), i
			}
		}
		if got == x.State {
			return f, true
		}
		if x.HasAt {
			f.Entry = lastAtOrBefore(es, x.At)
		} else if k >= 0 {
			f.Entry = k
		}
		if k < 0 {
			f.Message = fmt.Sprintf("expected state %s%s; the run had not started%s", want, at(), startHint(t))
		} else {
			f.Message = fmt.Sprintf("expected state %s%s; the run was in %s", want, at(), es[k].State)
		}
	case check.ExpectEnd:
		want := x.State.Decl.Name.Name
		k := r.end()
		if k >= 0 && es[k].Kind == interp.KEnd && r.state(k) == x.State && (!x.HasAt || es[k].At == x.At) {
			return f, true
		}
		var end interp.Entry
		if k >= 0 {
			end = es[k]
		}
		switch {
		case k < 0 && !entered(es):
			f.Message = fmt.Sprintf("expected the run to end in %s%s; the run never started%s", want, at(), startHint(t))
		case k < 0:
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
			if e.Kind == interp.KGiveUp && r.step(i) == x.Step {
				if !x.HasAt || e.At == x.At {
					return f, true
				}
				f.Entry = i
				f.Message = fmt.Sprintf("expected step %q to give up%s; it gave up at %s", x.Step.Key, at(), timespan.Format(e.At))
				return f, false
			}
		}
		f.Message = fmt.Sprintf("expected step %q to give up%s; it did not", x.Step.Key, at())
	case check.ExpectAttempts:
		var got []interp.Ticks
		first := -1
		for i, e := range es {
			if e.Kind == interp.KAttempt && r.step(i) == x.Step {
				got = append(got, e.At)
				if first < 0 {
					first = i
				}
			}
		}
		if slices.Equal(got, x.Attempts) {
			return f, true
		}
		if first >= 0 {
			f.Entry = first
		}
		f.Message = fmt.Sprintf("expected step %q's attempts at %s; they were at %s", x.Step.Key, ticksList(x.Attempts), ticksList(got))
	case check.ExpectCall:
		args := argTexts(x.Args)
		want := x.Call + "(" + strings.Join(args, ", ") + ")"
		var near []string
		for i, e := range es {
			if e.Kind != interp.KCall || !slices.Contains(x.Calls, r.call(i)) {
				continue
			}
			if slices.Equal(e.Args, args) && (!x.HasAt || e.At == x.At) {
				return f, true
			}
			near = append(near, e.Name+"("+strings.Join(e.Args, ", ")+") at "+timespan.Format(e.At))
			f.Entry = i
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

// argTexts are an expected call's arguments as the transcript writes a
// call's (interp.ExprText, the label included): the values compared.
func argTexts(args []check.Arg) []string {
	s := make([]string, len(args))
	for i, a := range args {
		s[i] = interp.ExprText(a.Value)
		if a.Label != "" {
			s[i] = a.Label + ": " + s[i]
		}
	}
	return s
}

// Around returns the transcript's lines within n entries of entry k (all of
// them when k < 0 or the transcript is short), each prefixed, with the
// line of entry k marked, for showing a failure in its context. Each line
// is escaped (diag.Escape): its names and arguments came from the program.
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
		b.WriteString("    " + mark + diag.Escape(tr.Entries[i].String()) + "\n")
	}
	if hi < len(tr.Entries) {
		fmt.Fprintf(&b, "      … %d later entries\n", len(tr.Entries)-hi)
	}
	return b.String()
}
