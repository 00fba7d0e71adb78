package interp

import (
	"errors"
	"fmt"

	"github.com/wfc-lang/wfc/check"
	"github.com/wfc-lang/wfc/check/timespan"
	"github.com/wfc-lang/wfc/codegen"
	"github.com/wfc-lang/wfc/diag"
)

// ErrHasErrors is returned for a program with errors, which is never run.
var ErrHasErrors = errors.New("the program has errors and is not run")

// ErrStopped is returned for a run its caller stopped (Options.Done): it
// has no transcript, since where it stopped depends on when.
var ErrStopped = errors.New("the run was stopped")

// Run runs workflow wf of the checked program res against a scenario on a
// virtual clock and returns its transcript. It never sleeps and is a pure
// function of the program and the scenario. A run ends in a terminal state,
// when a step gives up, when the scenario is over and no deadline is left,
// or at a limit (a KStopped entry says which); it never runs forever,
// because every deadline moves the clock forward or spends a window.
func Run(res *check.Result, wf *check.Workflow, sc Scenario) (*Transcript, error) {
	return RunWith(res, wf, sc, Options{})
}

// Options tune a run.
type Options struct {
	// Schedules are the program's schedules, already lowered
	// (codegen.Lower with zero Options), for callers that run many
	// scenarios; nil lowers them.
	Schedules []*codegen.Schedule
	// OnStmt, if set, is told of every statement that runs (Machine.OnStmt).
	OnStmt func(check.Stmt)
	// OnEntry, if set, is told of every entry with the model object it is
	// about (Machine.OnEntry).
	OnEntry func(i int, e *Entry, about Subject)
	// MaxEntries, if positive, bounds the transcript below the package's
	// MaxEntries (Machine.MaxEntries).
	MaxEntries int
	// Discard keeps no entries in the transcript (Machine.Discard):
	// OnEntry still hears of each.
	Discard bool
	// Until, when HasUntil, is the last time the caller asks about: once
	// the run would move past it and Settled (nil: always) says nothing
	// more can change what the caller judges, the run is over there (its
	// last entry says where it waits at Until). A test's judge sets them
	// (docs/language.md, "Tests that end when they should").
	Until    Ticks
	HasUntil bool
	Settled  func() bool
	// Done, if set, stops the run when it is closed (a caller's
	// context.Done()): RunWith then returns ErrStopped (Machine.Done).
	Done <-chan struct{}
}

// RunWith is Run with options.
func RunWith(res *check.Result, wf *check.Workflow, sc Scenario, opt Options) (*Transcript, error) {
	m, err := RunMachine(res, wf, sc, opt)
	if err != nil {
		return nil, err
	}
	return m.Transcript(), nil
}

// RunMachine is RunWith returning the machine once its drive loop is
// over, for a caller that asks where the run is then: the playground's
// simulator runs a scenario up to its clock (Options.Until) and reads the
// state, whether the run started or ended, and its next deadline.
func RunMachine(res *check.Result, wf *check.Workflow, sc Scenario, opt Options) (*Machine, error) {
	scheds := opt.Schedules
	if hasErrors(res) {
		return nil, ErrHasErrors
	}
	if len(sc.Actions) > MaxActions {
		return nil, fmt.Errorf("the scenario has %d actions; at most %d are run", len(sc.Actions), MaxActions)
	}
	for i := 1; i < len(sc.Actions); i++ {
		if sc.Actions[i].At < sc.Actions[i-1].At {
			return nil, fmt.Errorf("the scenario's action %d (at %s) comes before the one before it (at %s): actions are in time order",
				i+1, timespan.Format(sc.Actions[i].At), timespan.Format(sc.Actions[i-1].At))
		}
	}
	clk := &virtual{acts: sc.Actions, steps: sc.Steps, until: opt.Until, hasUntil: opt.HasUntil, settled: opt.Settled}
	m := NewMachine(res, wf, scheds, clk, clk)
	m.OnStmt, m.OnEntry = opt.OnStmt, opt.OnEntry
	m.MaxEntries, m.Discard, m.Done = opt.MaxEntries, opt.Discard, opt.Done
	m.Draws = sc.Draws
	if err := m.Drive(); err != nil {
		return nil, err
	}
	return m, nil
}

func hasErrors(res *check.Result) bool {
	for _, d := range res.Diags {
		if d.Severity == diag.Error {
			return true
		}
	}
	return false
}

// virtual is the virtual clock and executor: the clock only moves
// forward, to the next thing that falls due (a scenario's action, or the
// machine's deadline: a window, a wait, a step's wait or an attempt's
// end), and a step's attempts go as the scenario's scripts say: failing,
// of a kind, with a Retry-After, taking time.
type virtual struct {
	now   Ticks
	acts  []Action // what has not arrived yet, in time order
	steps map[*check.Step]*Script
	// until, settled: the horizon of a caller's questions (Options).
	until    Ticks
	hasUntil bool
	settled  func() bool
}

func (v *virtual) Now() Ticks { return v.now }

// Next is the scenario's next action when it is due no later than the
// deadline, else the deadline; the clock jumps to it. Once the actions are
// done and no deadline is left, the run is over; so it is, at the
// horizon, when what comes next lies past it and the caller is settled.
func (v *virtual) Next(due Ticks, has, _ bool) (Happening, Action, error) {
	if v.hasUntil && (len(v.acts) > 0 || has) {
		next := due
		if len(v.acts) > 0 && (!has || v.acts[0].At < due) {
			next = v.acts[0].At
		}
		if next > v.until && (v.settled == nil || v.settled()) {
			v.advance(v.until)
			return Over, Action{}, nil
		}
	}
	if len(v.acts) > 0 && (!has || v.acts[0].At <= due) {
		a := v.acts[0]
		v.acts = v.acts[1:]
		v.advance(a.At)
		return Arrived, a, nil
	}
	if has {
		v.advance(due)
		return Due, Action{}, nil
	}
	return Over, Action{}, nil
}

// advance moves the clock to t unless it is already past it.
func (v *virtual) advance(t Ticks) {
	if t > v.now {
		v.now = t
	}
}

func (v *virtual) Call(Invocation) {}

// Attempt says at once how attempt a goes, as the step's script says.
func (v *virtual) Attempt(a *Attempt) (Report, bool) {
	f, took := v.steps[a.Step].Attempt(a.N)
	rep := Report{Attempt: a, Took: took, OK: f == nil}
	if f != nil {
		rep.Kind, rep.RetryAfter, rep.HasRetryAfter = f.Kind, f.RetryAfter, f.HasRetryAfter
	}
	return rep, true
}

func (v *virtual) Cancel(*Attempt) {}
