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
	// Discard keeps no transcript (Result.Transcript has no entries):
	// for a caller that prints none but the entries around a failure,
	// which Failure.Context holds. A run's memory then does not grow with
	// its entries.
	Discard bool
	// Done, if set, stops the run when it is closed (a caller's
	// context.Done()): Result.Err is then interp.ErrStopped.
	Done <-chan struct{}
}

// Result is one test's outcome.
type Result struct {
	Test       *check.Test
	Transcript *interp.Transcript // nil when the run could not start (Err); no entries with Options.Discard
	// Entries is how many entries the run wrote.
	Entries int
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
	// Context is the transcript around Entry, a line per entry, Entry's
	// marked `>` (what Around prints), kept as the run went.
	Context string
}

// Scenario turns a test into the interpreter's scenario: its actions sorted
// by time, stably (actions at the same time keep their statement order),
// its steps' scripts (their Fail statements, in order, and how long their
// attempts take) and its draws.
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
	script := func(s *check.Step) *interp.Script {
		if sc.Steps == nil {
			sc.Steps = map[*check.Step]*interp.Script{}
		}
		if sc.Steps[s] == nil {
			sc.Steps[s] = &interp.Script{}
		}
		return sc.Steps[s]
	}
	// Several Fail statements of one step describe its attempts in order.
	for _, f := range t.Failures {
		for _, s := range f.Steps {
			scr := script(s)
			scr.Fails = append(scr.Fails, interp.Failure{Times: f.Times, Always: f.Always, Kind: f.Kind,
				RetryAfter: f.RetryAfter, HasRetryAfter: f.HasRetryAfter})
		}
	}
	// Takes: every attempt, or one (the later statement wins).
	for _, tk := range t.Takes {
		for _, s := range tk.Steps {
			scr := script(s)
			if tk.Attempt == 0 {
				scr.Took = tk.Took
				continue
			}
			if scr.Takes == nil {
				scr.Takes = map[int64]interp.Ticks{}
			}
			scr.Takes[tk.Attempt] = tk.Took
		}
	}
	sc.Draws = t.Draws
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
	// the expectations (judge.go) and coverage compare as the run goes.
	j := newJudge(t)
	iopt := interp.Options{Schedules: opt.Schedules, MaxEntries: opt.MaxEntries, Discard: opt.Discard, Done: opt.Done,
		Until: j.horizon(), HasUntil: true, Settled: j.settled,
		OnEntry: func(i int, e *interp.Entry, s interp.Subject) {
			j.entry(i, e, s)
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
	r.Transcript, r.Entries = tr, j.n
	r.Failures = j.finish(t)
	return r
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
// call's (interp.ExprText, the label included), for its messages; the
// values are compared by type (values.go).
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
