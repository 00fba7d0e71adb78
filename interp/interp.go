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
// run's calls and its durable steps' attempts. Run drives a Machine with
// the virtual clock and executor (run.go); integration/temporal drives the
// same Machine, with the same loop, on Temporal's clock (workflow time,
// timers, signals) and activities, so that the two runs' transcripts can be
// compared entry by entry: a difference is a difference in timing or
// delivery, the engine's part, which is what that proof is about.
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
	// Member is the enum member, for a value of an enum type.
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
}

// Failure says how a durable step's attempts fail.
type Failure struct {
	// Times is how many attempts fail before one succeeds; Always makes
	// every attempt fail.
	Times  int64
	Always bool
}

// Scenario is what happens to a run from outside: its actions in time
// order (actions at the same time keep their order), and how its steps
// fail. A step with no Failure succeeds at its first attempt.
type Scenario struct {
	Actions  []Action
	Failures map[*check.Step]Failure
}

// Limits bound a run (docs/language.md, "Running a workflow").
const (
	// MaxActions is the most actions a scenario may hold.
	MaxActions = 1_000_000
	// MaxEntries is the most entries a transcript may hold; a run that
	// would write more stops with ErrTooLong.
	MaxEntries = 1_000_000
)
