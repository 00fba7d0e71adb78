// Package interp is the reference interpreter of the workflow language: it
// runs one workflow of a checked program against a scenario on a virtual
// clock and writes a transcript of everything the run did, with its time in
// ticks. The rules it follows are docs/language.md's "Running a workflow".
//
// # How it reads the model
//
// The interpreter reads only the checker's model (package check), never
// the syntax tree's names: a goto moves the run to Goto.To, an event is
// accepted by the current state's Subscription whose Event it is, a
// handler's case is chosen by comparing its Member with the argument of
// the handler's EnumParam, a call's argument that names a handler
// parameter (Arg.Param) is the event's argument at that Param's Index, a
// take takes the current state's subscription of its Slot (Slot.In), and a
// step's schedule is its Consumer's. Names that come from outside a
// program (a Temporal signal's arguments, say) are looked up once, by the
// model's lookups (EventArgs, Workflow.SlotNamed), before they reach a
// run. The transcript keeps names for printing; an observer that judges a
// run (wftest's expectations and coverage) gets each entry with the model
// object it is about (Machine.OnEntry, Subject) and compares those.
//
// # One drive loop
//
// A Machine holds a run's state and decides what happens when an action
// arrives or a deadline falls due. Machine.Drive is the one loop that
// feeds it, on every engine: it asks a Clock what happens next (an action
// arrives, the next deadline falls due, or nothing more will happen) and
// hands actions to the Machine in one place; an Executor performs the
// run's calls and its durable steps' attempts, one attempt per call
// (Executor.Attempt), and says how each went: its duration, success or
// failure, error kind and Retry-After. Everything else about a step is
// the Machine's: its record for the whole run, the waits between
// attempts and an attempt's timeout and deadline (timers of the drive
// loop, so a retrying step does not freeze the run), cancellation when
// the run leaves the state. An engine whose attempts run on their own
// (Temporal's activities) reports them through its Clock (Reported). Run drives a Machine with
// the virtual clock and executor (run.go); integration/temporal drives the
// same Machine, with the same loop, on Temporal's clock (workflow time,
// timers, signals) and activities, so that the two runs' transcripts can be
// compared entry by entry: a difference is a difference in timing or
// delivery, the engine's part, which is what that proof is about.
//
// # Handlers as fibers
//
// A handler runs as a fiber (fiber.go): it parks where it reaches a
// durable step that has to wait, and goes on when the step is done or has
// given up; meanwhile other handlers and deadlines run, one thing at a
// time. Steps keep their record for the whole run (step.go).
package interp

import (
	"github.com/wfc-lang/wfc/check"
	"github.com/wfc-lang/wfc/check/timespan"
)

// Ticks are 100 ns units from the start of the run.
type Ticks = timespan.Ticks

// Value is an evaluated argument: an event's argument from a scenario, or a
// call's argument.
type Value struct {
	// Text is the value in source form: `Ok`, `"hi"`, `42`, `1.5`, `true`,
	// or a name the compiler does not resolve (`Order`).
	Text string
	// Member is the enum member, for a value of an enum type (an event's
	// argument) or a call's argument written `Enum.Member`
	// (check.Arg.Member).
	Member *check.EnumMember
}

// EventArgs reads an event's arguments from their source form, as an
// engine receives them (a Temporal signal carries text): an argument of an
// enum parameter that names a member of its enum is that member, found by
// the model's lookup (Enum.MemberNamed); anything else stays text.
func EventArgs(ev *check.Event, texts []string) []Value {
	out := make([]Value, len(texts))
	for i, t := range texts {
		out[i].Text = t
		if i < len(ev.Params) && ev.Params[i].Type.Enum != nil {
			out[i].Member = ev.Params[i].Type.Enum.MemberNamed(t)
		}
	}
	return out
}

// ActionKind says what a scenario action does.
type ActionKind uint8

const (
	// ActStart starts a run whose workflow is not Autostart.
	ActStart ActionKind = iota + 1
	// ActSend sends an event with arguments.
	ActSend
	// ActTake takes a slot (an Assigned milestone's subscription).
	ActTake
	// ActReport is an attempt's report that an engine hands to the run
	// (Clock.Next's Reported); never part of a scenario.
	ActReport
)

// Action is one thing a scenario does at a time.
type Action struct {
	At   Ticks
	Kind ActionKind
	// Event and Args, for ActSend: the event and one value per parameter.
	Event *check.Event
	Args  []Value
	// Slot, for ActTake: the slot (a subscription's alias, else its
	// event's name, Workflow.SlotNamed), whose subscription in the state
	// the run is in when it arrives is taken.
	Slot *check.Slot
	// Report, for ActReport (and Clock.Next's Reported): how an attempt
	// the engine ran went.
	Report *Report
}

// Script says how a durable step's attempts go in a scenario (a test's
// `Fail` and `Takes` statements). Attempts are counted over the whole run,
// as the step's record counts them: attempt n is the n-th attempt the step
// ever makes, whatever handler or visit of its state makes it.
type Script struct {
	// Fails describe the attempts in order: the first covers its Times
	// attempts, the next the ones after them, and so on; one that is
	// Always covers every attempt after the ones before it. An attempt no
	// Failure covers succeeds.
	Fails []Failure
	// Took is how long every attempt takes, and Takes how long a given
	// one does (overriding Took): an attempt's end, success or failure, is
	// its start plus its duration.
	Took  Ticks
	Takes map[int64]Ticks
}

// Failure is a run of failing attempts of a Script.
type Failure struct {
	// Times is how many attempts fail; Always makes every later one fail.
	Times  int64
	Always bool
	// Kind is the failures' error kind, a member of an enum of the
	// program (nil: a failure of no kind).
	Kind *check.EnumMember
	// RetryAfter, when HasRetryAfter, is the delay the failure carries
	// (a server's Retry-After): it replaces the policy's wait before the
	// next attempt.
	RetryAfter    Ticks
	HasRetryAfter bool
}

// Attempt says how attempt n (from 1) of the script's step goes: its
// failure (nil when it succeeds) and how long it takes.
func (s *Script) Attempt(n int64) (*Failure, Ticks) {
	if s == nil {
		return nil, 0
	}
	took := s.Took
	if t, ok := s.Takes[n]; ok {
		took = t
	}
	k := n
	for i := range s.Fails {
		f := &s.Fails[i]
		if f.Always || k <= f.Times {
			return f, took
		}
		k -= f.Times
	}
	return nil, took
}

// Scenario is what happens to a run from outside: its actions in time
// order (actions at the same time keep their order), how its steps'
// attempts go, and the draws of jittered waits.
type Scenario struct {
	Actions []Action
	// Steps are the scripts of the steps whose attempts fail or take
	// time; a step without one succeeds at its first attempt, at once.
	Steps map[*check.Step]*Script
	// Draws, if set, are the uniform draws in [0, 1) that jittered waits
	// use, as `wfc schedule --draws` uses them: the wait before attempt
	// (or window) k uses draw k-2, from the first again when they run out.
	// Without draws every wait is nominal.
	Draws []float64
}

// Limits bound a run (docs/language.md, "Running a workflow").
const (
	// MaxActions is the most actions a scenario may hold.
	MaxActions = 1_000_000
	// MaxEntries is the most entries a transcript may hold; a run that
	// would write more stops.
	MaxEntries = 1_000_000
	// MaxAtInstant is the most entries a run writes at one instant without
	// the scenario acting: deadlines that chain without time passing (a
	// cycle of zero-length windows, a step retried without waiting) stop
	// there, long before MaxEntries.
	MaxAtInstant = 10_000
)
