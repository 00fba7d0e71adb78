// Package vocab is the language's fixed vocabulary, in one table: the
// settings each context takes with their types, the milestone kinds and
// their outcomes, the Backoff factories and members with their signatures,
// the TimeSpan units, the attributes and the security operations
// (docs/language.md), each with the one-line meaning that users read.
//
// Everything that names the vocabulary reads it from here: the checker to
// say what is unknown and to suggest what is close; the language server's
// completion to offer names and its hover to explain them; `wfc explain` to
// explain a word; and the editor grammar's tests, which are generated from
// it (Words). A word added here is known to all of them.
//
// Everything here is read-only after initialisation.
package vocab

import (
	"fmt"
	"math/big"
	"slices"
	"strings"

	"github.com/wfc-lang/wfc/check/timespan"
)

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
	Kinds       // one or more error kinds: members of enums of the program
)

var typeNames = [...]string{Bool: "bool", Int: "int", Decimal: "decimal", String: "string", TimeSpan: "TimeSpan",
	Policy: "policy", StateName: "state name", EntityField: "Entity.Field", Kinds: "kind, …"}

func (t Type) String() string { return nameIn(typeNames[:], int(t)) }

// nameIn is names[i], or "unknown" for 0 or past the table.
func nameIn(names []string, i int) string {
	if i > 0 && i < len(names) {
		return names[i]
	}
	return "unknown"
}

// Setting is a `Name = value;` a context takes.
type Setting struct {
	Name string
	Type Type
	Doc  string
}

// The settings of each context, in the order docs/language.md gives them.
var (
	WorkflowSettings = []Setting{
		{"Tracks", EntityField, "an enum-typed field that mirrors the run's state: every state must then be a member of that enum"},
		{"Autostart", Bool, "whether the runtime starts a run by itself (otherwise something starts it)"},
		{"Initial", StateName, "the state a run starts in; required, and not a terminal state"},
	}
	MilestoneSettings = []Setting{
		{"Within", TimeSpan, "required: the length of one window"},
		{"Retries", Int, "how many further windows follow the first (default 0); or budget with `.MaxAttempts(n)` on the policy, never both"},
		{"Backoff", Policy, "the wait between one window passing and the next one opening; a bare TimeSpan means `Backoff.Fixed` of it"},
	}
	// TerminalErrorSettings are a `terminal error` state's; other states
	// take none.
	TerminalErrorSettings = []Setting{
		{"Message", String, "the message the run ends with (default: \"ended in state X\")"},
	}
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
	Kind     string
	Final    string
	Doc      string // what the kind waits for
	FinalDoc string // when Final runs
}

// Exhausted is the outcome every milestone has: the policy's attempts are
// used up.
const Exhausted = "Exhausted"

// ExhaustedDoc says when Exhausted runs.
const ExhaustedDoc = "runs when the milestone's last window passes unmet, before the kind's own outcome"

// Milestones are the milestone kinds.
var Milestones = []Milestone{
	{"Assigned", "Unassigned", "a deadline for the subscription's slot to be taken",
		"runs after `Exhausted` when the last window passed and the slot was never taken; its `goto` says where the run goes next"},
	{"Finished", "Unfinished", "a deadline for the subscribed event to arrive",
		"runs after `Exhausted` when the last window passed and the event never arrived; its `goto` says where the run goes next"},
}

// MilestoneOf returns the milestone kind named kind.
func MilestoneOf(kind string) (Milestone, bool) {
	for _, m := range Milestones {
		if m.Kind == kind {
			return m, true
		}
	}
	return Milestone{}, false
}

// MilestoneOfFinal returns the milestone kind whose final outcome is name
// (`Unfinished` → `Finished`).
func MilestoneOfFinal(name string) (Milestone, bool) {
	for _, m := range Milestones {
		if m.Final == name {
			return m, true
		}
	}
	return Milestone{}, false
}

// AllOutcomes lists every outcome of every kind, Exhausted first.
func AllOutcomes() []string {
	out := []string{Exhausted}
	for _, m := range Milestones {
		out = append(out, m.Final)
	}
	return out
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
	Every
)

// Factory is a `Backoff.Name(interval)` factory.
type Factory struct {
	Name  string
	Shape Shape
	Arg   Type // its one argument, the interval
	Doc   string
}

// Factories are Backoff's factories.
var Factories = []Factory{
	{"Fixed", Fixed, TimeSpan, "waits the interval before every retry: i, i, i …"},
	{"Linear", Linear, TimeSpan, "waits the interval times the retry's number: i, 2i, 3i …"},
	{"Exponential", Exponential, TimeSpan, "doubles the wait on every retry: i, 2i, 4i, 8i …"},
	{"Every", Every, TimeSpan, "a cadence: an attempt starts every i, measured from the start of the one before (the wait is what is left of i after it), where the others are spacings, measured from its end; takes `.MaxAttempts` only"},
}

// Member is a policy member `.Name(arg)`.
type Member struct {
	Name string
	Arg  Type
	Doc  string
	// ArgNoun says what the argument is, after "one" or "expects": "int
	// (how many attempts in total)"; Example is an argument as written.
	ArgNoun, Example string
}

// Members are a policy's members.
var Members = []Member{
	{"MaxAttempts", Int, "the attempts in total, the first one included: `.MaxAttempts(3)` is the first try and 2 retries",
		"int (how many attempts in total)", "3"},
	{"Cap", TimeSpan, "no single wait is longer than this (applied after jitter)", "TimeSpan", "TimeSpan.FromMinutes(5)"},
	{"Jitter", Decimal, "each wait w becomes uniform in [w·(1-f), w·(1+f)), then capped; f is in [0, 1]",
		"decimal fraction such as `0.2` (±20%)", "0.2"},
	{"NonRetryable", Kinds, "a step's failure of one of these error kinds is terminal: no further attempt, the step gives up (`Terminal`); Temporal's NonRetryableErrorTypes",
		"error kind, such as `ChargeError.Declined`", "ChargeError.Declined"},
	{"RetryOn", Kinds, "only a step's failures of these error kinds are retried; any other failure (of another kind, or of none) is terminal",
		"error kind, such as `ChargeError.RateLimited`", "ChargeError.RateLimited"},
}

// Reason is why a durable step gave up, as a case of its `catch` names it.
type Reason struct {
	Name string
	Doc  string
	// Step is the arguments of the example's step after its name: a
	// policy (and a deadline) under which a case of the reason can run.
	Step string
}

// Reasons are the catch's reasons, in the order of check.Cause.
var Reasons = []Reason{
	{"Exhausted", "its attempts are used up (its budget, `.MaxAttempts(…)`)",
		"retry: Backoff.Fixed(TimeSpan.FromSeconds(5)).MaxAttempts(3)"},
	{"Deadline", "its `deadline:` passed: no retry could start before it, or an attempt was running when it passed",
		"retry: Backoff.Fixed(TimeSpan.FromSeconds(5)), deadline: TimeSpan.FromMinutes(1)"},
	{"Terminal", "an attempt failed terminally: of a kind `.NonRetryable(…)` lists (or `.RetryOn(…)` does not); a case of that kind wins over `Terminal`",
		"retry: Backoff.Fixed(TimeSpan.FromSeconds(5))\n    .MaxAttempts(3)\n    .NonRetryable(ChargeError.Declined)"},
	{"Cancelled", "its state was left while it ran or waited; its handler ends there, so a catch never runs for it (transcript and coverage only: a `Cancelled` case is WF208)",
		"retry: Backoff.Fixed(TimeSpan.FromSeconds(5)).MaxAttempts(3)"},
}

// TestStatement is a statement of a test (docs/language.md, "Tests"):
// an action (`Send`) or an expectation (`Expect.State`).
type TestStatement struct {
	// Name is the token that names it (`Send`, `State`); Qualified how it
	// is written (`Send`, `Expect.State`).
	Name, Qualified string
	Signature       string
	Doc             string
	Example         string
}

// TestStatements are a test's statements, actions first.
var TestStatements = []TestStatement{
	{"Send", "Send", "Send(Event(args), at: TimeSpan)", "sends an event, one argument per parameter, at a time since the run started (0 without `at:`)", "Send(Go(), at: TimeSpan.FromMinutes(1))"},
	{"Take", "Take", "Take(Slot, at: TimeSpan)", "takes a slot: a subscription's alias, else its event's name", "Take(Go, at: TimeSpan.FromMinutes(1))"},
	{"Start", "Start", "Start(at: TimeSpan)", "starts a run whose workflow does not start by itself", "Start(at: TimeSpan.Zero)"},
	{"Fail", "Fail", "Fail(\"step\", times: int, kind: Kind, retryAfter: TimeSpan)", "makes a durable step's attempts fail, counted over the whole run: `times:` of them (every one after without), of an error kind, with the server's Retry-After; several describe the attempts in order", "Fail(\"s\", times: 2)"},
	{"Takes", "Takes", "Takes(\"step\", TimeSpan, attempt: int)", "says how long a durable step's attempts take (or attempt `n`, counted over the run)", "Takes(\"s\", TimeSpan.FromSeconds(4))"},
	{"Draws", "Draws", "Draws(u, …)", "gives the uniform draws in [0, 1) that jittered waits use, in order, from the first again when they run out, as `wfc schedule --draws` does", "Draws(0.0, 0.75)"},
	{"State", "Expect.State", "Expect.State(State, at: TimeSpan)", "expects the run in a state at a time (without `at:`, where it is when it cannot move again)", "Expect.State(Open, at: TimeSpan.Zero)"},
	{"End", "Expect.End", "Expect.End(TerminalState, at: TimeSpan)", "expects the run to end in a terminal state (at a time)", "Expect.End(Done)"},
	{"GaveUp", "Expect.GaveUp", "Expect.GaveUp(\"step\", at: TimeSpan)", "expects a durable step to give up (at a time)", "Expect.GaveUp(\"s\")"},
	{"Attempts", "Expect.Attempts", "Expect.Attempts(\"step\", TimeSpan, …)", "expects a durable step's attempts to start at exactly these times", "Expect.Attempts(\"s\", TimeSpan.Zero)"},
	{"Call", "Expect.Call", "Expect.Call(X.Y(args), at: TimeSpan)", "expects the run to make a call with these arguments (at a time)", "Expect.Call(X.Y())"},
	{"Stopped", "Expect.Stopped", "Expect.Stopped(at: TimeSpan)", "expects the run to be stopped at a limit (past TimeSpan's range, or too many entries) (at a time)", "Expect.Stopped()"},
}

// TestStatementNamed is the statement written qualified q, or nil.
func TestStatementNamed(q string) *TestStatement {
	for i := range TestStatements {
		if TestStatements[i].Qualified == q {
			return &TestStatements[i]
		}
	}
	return nil
}

// CatchName is `catch`, the contextual word after a durable step's block.
const CatchName = "catch"

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

// Units are TimeSpan's units, smallest first; `TimeSpan.Zero` and
// `TimeSpan.MaxValue` are its constants (Constants).
var Units = []Unit{
	{"FromMilliseconds", timespan.TicksPerMillisecond},
	{"FromSeconds", timespan.TicksPerSecond},
	{"FromMinutes", timespan.TicksPerMinute},
	{"FromHours", timespan.TicksPerHour},
	{"FromDays", timespan.TicksPerDay},
}

// ZeroName is `TimeSpan.Zero`, and MaxValueName `TimeSpan.MaxValue`, the
// largest duration (.NET's TimeSpan.MaxValue): TimeSpan's two constants.
const (
	ZeroName     = "Zero"
	MaxValueName = "MaxValue"
)

// Constants are TimeSpan's constants with their values.
var Constants = []struct {
	Name  string
	Ticks timespan.Ticks
	Doc   string
}{
	{ZeroName, 0, "the duration 0"},
	{MaxValueName, timespan.MaxTicks, "the largest duration, 10675199d2h48m5.4775807s (.NET's TimeSpan.MaxValue): a wait or window of it never ends before the run would pass TimeSpan's range"},
}

// ConstantNamed is the value of TimeSpan's constant name, if it is one.
func ConstantNamed(name string) (timespan.Ticks, bool) {
	for _, c := range Constants {
		if c.Name == name {
			return c.Ticks, true
		}
	}
	return 0, false
}

// TimeSpanMembers lists the units' names and the constants'.
func TimeSpanMembers() []string {
	out := make([]string, 0, len(Units)+len(Constants))
	for _, u := range Units {
		out = append(out, u.Name)
	}
	for _, c := range Constants {
		out = append(out, c.Name)
	}
	return out
}

// StepArg is a labelled argument of a durable step, `Workflow.Once("name",
// label: value)`.
type StepArg struct {
	Name    string
	Arg     Type
	Doc     string
	Example string
}

// StepArgs are a durable step's labelled arguments.
var StepArgs = []StepArg{
	{"retry", Policy, "the policy between failed attempts; with `.MaxAttempts(n)` (attempts in total) unless a `deadline:` bounds the step",
		"Backoff.Exponential(TimeSpan.FromSeconds(2)).MaxAttempts(5)"},
	{"timeout", TimeSpan, "each attempt's limit: an attempt running longer fails at that moment, as a timeout (retryable); Temporal's StartToCloseTimeout",
		"TimeSpan.FromSeconds(30)"},
	{"deadline", TimeSpan, "the step's total time from its first attempt's start: no attempt starts after it, one running when it passes is stopped, and the step gives up (`Deadline`); Temporal's ScheduleToCloseTimeout",
		"TimeSpan.FromMinutes(10)"},
}

// StepArgNamed is the step argument named name, or nil.
func StepArgNamed(name string) *StepArg {
	for i := range StepArgs {
		if StepArgs[i].Name == name {
			return &StepArgs[i]
		}
	}
	return nil
}

// StepArgNames lists the step arguments' names.
func StepArgNames() []string {
	out := make([]string, len(StepArgs))
	for i, a := range StepArgs {
		out[i] = a.Name
	}
	return out
}

// SpanSource writes a duration as source, in the largest unit that holds
// it whole: `TimeSpan.FromHours(5)`, `TimeSpan.FromSeconds(90)`, and
// `TimeSpan.FromMilliseconds(0.5)` below a millisecond; `TimeSpan.Zero`
// for 0. Messages that suggest a duration write it so.
func SpanSource(t timespan.Ticks) string {
	if t == 0 {
		return "TimeSpan." + ZeroName
	}
	for k := len(Units) - 1; k >= 0; k-- {
		if u := Units[k]; t%u.Ticks == 0 {
			return fmt.Sprintf("TimeSpan.%s(%d)", u.Name, t/u.Ticks)
		}
	}
	ms := Units[0]
	return fmt.Sprintf("TimeSpan.%s(%s)", ms.Name, strings.TrimRight(strings.TrimRight(
		new(big.Rat).SetFrac64(int64(t), int64(ms.Ticks)).FloatString(4), "0"), "."))
}

// Attr is an attribute: its name and its one argument's type (0: none).
type Attr struct {
	Name string
	Arg  Type
	Doc  string
}

// The attributes of entities and of fields. MaxLength and MinLength apply
// to string fields only.
var (
	EntityAttrs = []Attr{{"Principal", 0, "the entity the runtime's security context identifies; at most one per program"}}
	FieldAttrs  = []Attr{
		{"Required", 0, "the field must have a value"},
		{"MaxLength", Int, "a string field's greatest length, a positive int"},
		{"MinLength", Int, "a string field's least length, a positive int"},
	}
)

// SecurityOps are the operations security rules allow or deny.
var SecurityOps = []string{"read", "create", "update", "delete"}

// WordKind says what a vocabulary word is.
type WordKind uint8

const (
	KindSetting WordKind = iota + 1
	KindMilestone
	KindOutcome
	KindFactory
	KindMember
	KindUnit
	KindAttr
	KindSecurityOp
	KindStepArg
	KindReason
	KindCatch
	KindTest
)

var wordKindNames = [...]string{KindSetting: "setting", KindMilestone: "milestone", KindOutcome: "milestone outcome",
	KindFactory: "Backoff factory", KindMember: "policy member", KindUnit: "TimeSpan unit", KindAttr: "attribute",
	KindSecurityOp: "security operation", KindStepArg: "step argument", KindReason: "catch reason", KindCatch: "catch block", KindTest: "test statement"}

func (k WordKind) String() string {
	if n, ok := syntaxKindNames[k]; ok {
		return n
	}
	return nameIn(wordKindNames[:], int(k))
}

// Word is one entry of the vocabulary as hover and `wfc explain` show it.
type Word struct {
	Kind WordKind
	// Name is the word as a token: `Within`, `Linear`, `MaxAttempts`,
	// `FromSeconds`, `Required`, `read`.
	Name string
	// Qualified is how it is written in full and looked up:
	// `Backoff.Linear`, `.MaxAttempts`, `TimeSpan.FromSeconds`, `Within`.
	Qualified string
	// Signature is how it is written, with its types:
	// `Backoff.Linear(TimeSpan interval)`, `Within = TimeSpan;`.
	Signature string
	// Context is where it may be written: "a milestone", "a policy".
	Context string
	Doc     string
	// Example is the word written in full: `Backoff.Linear(TimeSpan.FromSeconds(2))`,
	// `.MaxAttempts(3)`, `TimeSpan.FromSeconds(5)`, `Within = TimeSpan.FromMinutes(5);`.
	Example string
	// ArgNoun is what a callable word's one argument is ("TimeSpan (the
	// interval)"; "" for words that take none), and ArgExample such an
	// argument as written (`TimeSpan.FromSeconds(2)`, `3`, `5`).
	ArgNoun, ArgExample string
}

// settingExamples are a value of each setting's type, for examples.
var settingExamples = map[Type]string{Bool: "true", Int: "2", String: "\"…\"", TimeSpan: "TimeSpan.FromMinutes(5)",
	Policy: "Backoff.Exponential(TimeSpan.FromSeconds(2))", StateName: "Open", EntityField: "Order.Status"}

// Words is the whole vocabulary, one Word per entry, in table order (a
// copy: the table is read-only).
func Words() []Word { return slices.Clone(words) }

// words is the vocabulary flattened once; Named, OfKind and Lookup read it.
var words = buildWords()

func buildWords() []Word {
	var out []Word
	settings := func(ss []Setting, ctx string) {
		for _, s := range ss {
			out = append(out, Word{Kind: KindSetting, Name: s.Name, Qualified: s.Name, Signature: s.Name + " = " + s.Type.String() + ";",
				Context: ctx, Doc: s.Doc, Example: s.Name + " = " + settingExamples[s.Type] + ";"})
		}
	}
	settings(WorkflowSettings, "a workflow")
	settings(MilestoneSettings, "a milestone (`Assigned { … }`, `Finished { … }`)")
	settings(TerminalErrorSettings, "a `terminal error` state")
	for _, m := range Milestones {
		out = append(out, Word{Kind: KindMilestone, Name: m.Kind, Qualified: m.Kind, Signature: m.Kind + " { Within = …; }",
			Context: "a subscription", Doc: m.Doc, Example: m.Kind + " { Within = TimeSpan.FromMinutes(5); " + m.Final + " { goto Late; } }"})
	}
	out = append(out, Word{Kind: KindOutcome, Name: Exhausted, Qualified: Exhausted, Signature: Exhausted + " { … }",
		Context: "a milestone", Doc: ExhaustedDoc, Example: Exhausted + " { Mail.Send(\"late\"); }"})
	for _, m := range Milestones {
		out = append(out, Word{Kind: KindOutcome, Name: m.Final, Qualified: m.Final, Signature: m.Final + " { … }",
			Context: article(m.Kind) + " `" + m.Kind + "` milestone", Doc: m.FinalDoc, Example: m.Final + " { goto Late; }"})
	}
	for _, f := range Factories {
		q := "Backoff." + f.Name
		out = append(out, Word{Kind: KindFactory, Name: f.Name, Qualified: q, Signature: q + "(" + f.Arg.String() + " interval)",
			Context: "a `Backoff =` setting or a step's `retry:`", Doc: f.Doc, Example: q + "(TimeSpan.FromSeconds(2))",
			ArgNoun: f.Arg.String() + " (the interval)", ArgExample: "TimeSpan.FromSeconds(2)"})
	}
	for _, m := range Members {
		out = append(out, Word{Kind: KindMember, Name: m.Name, Qualified: "." + m.Name, Signature: "." + m.Name + "(" + m.Arg.String() + ")",
			Context: "a Backoff policy", Doc: m.Doc, Example: "." + m.Name + "(" + m.Example + ")", ArgNoun: m.ArgNoun, ArgExample: m.Example})
	}
	for _, u := range Units {
		unit := strings.ToLower(strings.TrimPrefix(u.Name, "From"))
		q := "TimeSpan." + u.Name
		out = append(out, Word{Kind: KindUnit, Name: u.Name, Qualified: q, Signature: q + "(int or decimal)", Context: "a duration",
			Doc:     "a duration of n " + unit + ", exact to the 100 ns tick (rounded to the nearest, halves away from zero)",
			Example: q + "(5)", ArgNoun: "number (an int or a decimal)", ArgExample: "5"})
	}
	for _, c := range Constants {
		out = append(out, Word{Kind: KindUnit, Name: c.Name, Qualified: "TimeSpan." + c.Name, Signature: "TimeSpan." + c.Name,
			Context: "a duration", Doc: c.Doc, Example: "TimeSpan." + c.Name})
	}
	attrs := func(as []Attr, ctx, target string) {
		for _, a := range as {
			sig, ex := "["+a.Name+"]", "["+a.Name+"]"
			if a.Arg != 0 {
				sig, ex = "["+a.Name+"("+a.Arg.String()+")]", "["+a.Name+"(80)]"
			}
			out = append(out, Word{Kind: KindAttr, Name: a.Name, Qualified: a.Name, Signature: sig, Context: ctx, Doc: a.Doc,
				Example: ex + " " + target})
		}
	}
	attrs(EntityAttrs, "an entity", "entity User { string Name; }")
	attrs(FieldAttrs, "a field", "string Title;")
	for _, a := range StepArgs {
		out = append(out, Word{Kind: KindStepArg, Name: a.Name, Qualified: a.Name + ":", Signature: a.Name + ": " + a.Arg.String(),
			Context: "a durable step (`Workflow.Once(\"name\", …)`)", Doc: a.Doc,
			Example: "Workflow.Once(\"charge\", " + a.Name + ": " + a.Example + ") { Payments.Charge(); }",
			ArgNoun: a.Arg.String(), ArgExample: a.Example})
	}
	out = append(out, Word{Kind: KindCatch, Name: CatchName, Qualified: CatchName, Signature: "} catch { Reason { … } Kind { … } default { … } }",
		Context: "a durable step, right after its block", Doc: "what runs when the step gives up: the case of its reason (`Exhausted`, `Deadline`, `Terminal`) or, for a terminal failure, of its error kind; `default` takes the rest; a case may `goto`, and one that does not goes on after the step",
		Example: "Workflow.Once(\"charge\", retry: Backoff.Fixed(TimeSpan.FromSeconds(5)).MaxAttempts(3)) {\n  Payments.Charge();\n} catch {\n  default { Mail.Send(\"failed\"); }\n}"})
	for _, r := range Reasons {
		out = append(out, Word{Kind: KindReason, Name: r.Name, Qualified: "catch." + r.Name, Signature: r.Name + " { … }",
			Context: "a step's `catch { … }`", Doc: "the step gave up: " + r.Doc,
			Example: "Workflow.Once(\"charge\", " + r.Step + ") {\n  Payments.Charge();\n} catch {\n  " + r.Name + " { Mail.Send(\"failed\"); }\n}"})
	}
	for _, t := range TestStatements {
		out = append(out, Word{Kind: KindTest, Name: t.Name, Qualified: t.Qualified, Signature: t.Signature + ";",
			Context: "a test (`test \"name\" { … }`)", Doc: t.Doc, Example: t.Example + ";"})
	}
	for _, op := range SecurityOps {
		out = append(out, Word{Kind: KindSecurityOp, Name: op, Qualified: op, Signature: "allow " + op + ";",
			Context: "a security rule (`allow`, `deny`)", Example: "allow " + op + " when IsAuthenticated;",
			Doc: "the " + op + " operation on the entity, allowed or denied by the rule, optionally `when` a condition holds"})
	}
	return out
}

// Named returns the word of kind k named name (as a token), if any.
func Named(k WordKind, name string) (Word, bool) {
	for _, w := range words {
		if w.Kind == k && w.Name == name {
			return w, true
		}
	}
	return Word{}, false
}

// OfKind returns the words of kind k, in table order.
func OfKind(k WordKind) []Word {
	var out []Word
	for _, w := range words {
		if w.Kind == k {
			out = append(out, w)
		}
	}
	return out
}

// Sentence is the word's Doc as a sentence: capitalised, with a full stop.
func (w Word) Sentence() string {
	s := Capitalise(w.Doc)
	if s != "" && !strings.HasSuffix(s, ".") && !strings.HasSuffix(s, "…") {
		s += "."
	}
	return s
}

// Capitalise upper-cases the first letter of s (ASCII).
func Capitalise(s string) string {
	if s == "" || s[0] < 'a' || s[0] > 'z' {
		return s
	}
	return string(s[0]-'a'+'A') + s[1:]
}

func article(word string) string {
	if word != "" && strings.ContainsRune("AEIOUaeiou", rune(word[0])) {
		return "an"
	}
	return "a"
}

// LookupAll finds the words written s, of the vocabulary or of the syntax
// (All), qualified or by their name (`Exhausted` is a milestone's outcome
// and a catch's reason), in table order.
func LookupAll(s string) []Word {
	var found []Word
	for _, w := range All() {
		if w.Qualified == s || w.Name == s {
			found = append(found, w)
		}
	}
	return found
}

// Lookup finds a word, of the vocabulary or of the syntax (All), by how
// it is written: qualified (`Backoff.Linear`, `TimeSpan.FromSeconds`,
// `.MaxAttempts`, `Workflow.Once`, `retry:`, `Expect.End`) or, where that is
// unambiguous, bare (`Linear`, `MaxAttempts`, `Within`, `retry`, `goto`).
// Case matters, as in source.
func Lookup(s string) (Word, bool) {
	var found []Word
	for _, w := range All() {
		if w.Qualified == s {
			return w, true
		}
		if w.Name == s {
			found = append(found, w)
		}
	}
	if len(found) == 1 {
		return found[0], true
	}
	return Word{}, false
}
