// Package interp is the reference interpreter of the workflow language: it
// runs one workflow of a checked program against a scenario on a virtual
// clock and writes a transcript of everything the run did, with its time in
// ticks. The rules it follows are docs/language.md's "Running a workflow".
//
// The interpreter is two parts. A Machine holds a run's state and decides
// what happens when an event arrives, a slot is taken or a deadline falls
// due; it never reads a clock or sleeps, and asks its Env for the time, for
// external calls and for a durable step's attempts. Run drives a Machine on
// a virtual clock from a Scenario. integration/temporal drives the same
// Machine inside a Temporal workflow, where the Env is Temporal's timers and
// activities, so that the two runs' transcripts can be compared entry by
// entry: a difference is a difference in timing or delivery, the engine's
// part, which is what that proof is about.
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
	// Slot, for ActTake: the slot's name (a subscription's alias, else its
	// event's name), looked up in the state the run is in when it arrives.
	Slot string
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
