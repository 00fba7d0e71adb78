// Package vocab is the language's fixed vocabulary, in one table: the
// settings each context takes with their types, the milestone kinds and
// their outcomes, the Backoff factories and members with their signatures,
// the TimeSpan units, the attributes and the security operations
// (docs/language.md). The checker reads it to say what is unknown and to
// suggest what is close; the language server's completion reads it to
// offer names. A word added here is known to both.
//
// Everything here is read-only after initialisation.
package vocab

import "github.com/wfc-lang/wfc/check/timespan"

// Type is the type of a setting's value or an argument.
type Type uint8

const (
	Bool Type = iota + 1
	Int
	Decimal
	String
	TimeSpan
	Policy      // a Backoff policy, or a bare TimeSpan meaning Fixed
	StateName   // a state of the workflow
	EntityField // `Entity.Field`
)

var typeNames = [...]string{Bool: "bool", Int: "int", Decimal: "decimal", String: "string", TimeSpan: "TimeSpan",
	Policy: "policy", StateName: "state name", EntityField: "Entity.Field"}

func (t Type) String() string {
	if t != 0 && int(t) < len(typeNames) {
		return typeNames[t]
	}
	return "unknown"
}

// Setting is a `Name = value;` a context takes.
type Setting struct {
	Name string
	Type Type
}

// The settings of each context, in the order docs/language.md gives them.
var (
	WorkflowSettings  = []Setting{{"Tracks", EntityField}, {"Autostart", Bool}, {"Initial", StateName}}
	MilestoneSettings = []Setting{{"Within", TimeSpan}, {"Retries", Int}, {"Backoff", Policy}}
	// TerminalErrorSettings are a `terminal error` state's; other states
	// take none.
	TerminalErrorSettings = []Setting{{"Message", String}}
)

// Names lists the names of settings, in order.
func Names(ss []Setting) []string {
	out := make([]string, len(ss))
	for i, s := range ss {
		out[i] = s.Name
	}
	return out
}

// Milestone is a milestone kind and its outcomes: Exhausted, and the one
// that ends its last window (Final).
type Milestone struct {
	Kind  string
	Final string
}

// Exhausted is the outcome every milestone has: the policy's attempts are
// used up.
const Exhausted = "Exhausted"

// Milestones are the milestone kinds.
var Milestones = []Milestone{{"Assigned", "Unassigned"}, {"Finished", "Unfinished"}}

// MilestoneOf returns the milestone kind named kind.
func MilestoneOf(kind string) (Milestone, bool) {
	for _, m := range Milestones {
		if m.Kind == kind {
			return m, true
		}
	}
	return Milestone{}, false
}

// Outcomes are a milestone kind's outcomes, Exhausted first.
func (m Milestone) Outcomes() []string { return []string{Exhausted, m.Final} }

// MilestoneKinds lists the kinds' names.
func MilestoneKinds() []string {
	out := make([]string, len(Milestones))
	for i, m := range Milestones {
		out[i] = m.Kind
	}
	return out
}

// Shape is how a Backoff policy's waits grow.
type Shape int

const (
	Fixed Shape = iota
	Linear
	Exponential
)

// Factory is a `Backoff.Name(interval)` factory.
type Factory struct {
	Name  string
	Shape Shape
	Arg   Type // its one argument, the interval
}

// Factories are Backoff's factories.
var Factories = []Factory{{"Fixed", Fixed, TimeSpan}, {"Linear", Linear, TimeSpan}, {"Exponential", Exponential, TimeSpan}}

// Member is a policy member `.Name(arg)`.
type Member struct {
	Name string
	Arg  Type
}

// Members are a policy's members.
var Members = []Member{{"MaxAttempts", Int}, {"Cap", TimeSpan}, {"Jitter", Decimal}}

// FactoryNames and MemberNames list the names, in order.
func FactoryNames() []string {
	out := make([]string, len(Factories))
	for i, f := range Factories {
		out[i] = f.Name
	}
	return out
}

func MemberNames() []string {
	out := make([]string, len(Members))
	for i, m := range Members {
		out[i] = m.Name
	}
	return out
}

// Unit is a `TimeSpan.FromX(n)` unit.
type Unit struct {
	Name  string
	Ticks timespan.Ticks
}

// Units are TimeSpan's units, smallest first; `TimeSpan.Zero` (ZeroName)
// is the one TimeSpan constant.
var Units = []Unit{
	{"FromMilliseconds", timespan.TicksPerMillisecond},
	{"FromSeconds", timespan.TicksPerSecond},
	{"FromMinutes", timespan.TicksPerMinute},
	{"FromHours", timespan.TicksPerHour},
	{"FromDays", timespan.TicksPerDay},
}

// ZeroName is `TimeSpan.Zero`.
const ZeroName = "Zero"

// TimeSpanMembers lists the units' names and Zero.
func TimeSpanMembers() []string {
	out := make([]string, 0, len(Units)+1)
	for _, u := range Units {
		out = append(out, u.Name)
	}
	return append(out, ZeroName)
}

// Attr is an attribute: its name and its one argument's type (0: none).
type Attr struct {
	Name string
	Arg  Type
}

// The attributes of entities and of fields. MaxLength and MinLength apply
// to string fields only.
var (
	EntityAttrs = []Attr{{"Principal", 0}}
	FieldAttrs  = []Attr{{"Required", 0}, {"MaxLength", Int}, {"MinLength", Int}}
)

// SecurityOps are the operations security rules allow or deny.
var SecurityOps = []string{"read", "create", "update", "delete"}
