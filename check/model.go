package check

import (
	"fmt"

	"github.com/wfc-lang/wfc/ast"
)

// The model: what a checked program means, built once by Check and read by
// every tool after it (the rules, the lowering, the graph, the export, and
// an interpreter), the way go/types is for Go tools. Every object points
// back at its declaration in the tree (Decl), and every reference between
// objects is a pointer, never a name to look up again.
//
// What a run needs is here: a workflow's Initial state, its States with
// their Subscriptions (the Event waited for, the Milestones with their
// Window, Attempts, Budget, Policy and Outcome blocks) and Handlers (the
// Subscription handled, the EnumParam whose value picks a Case), and the
// blocks' statements in order: Call (with its Args, each naming the handler
// Param it passes on, if any), Step (a durable step, with its policy and
// body), Goto (with its target State), Case and Default. Running a block
// runs its statements in order; a Case runs its body when the handler's
// enum argument is its Member, and a Default when no Case of the same block
// matched; a Goto ends the handler and moves the run to its target. A
// handler's arguments are the event's, by position: a Param's Index.
//
// Names from outside the program (a Temporal signal's slot or argument, a
// run's workflow) are looked up once, at the boundary, with the model's own
// lookups (Program.WorkflowNamed, Workflow.EventNamed, Workflow.SlotNamed,
// Enum.MemberNamed); past them a run holds pointers only.
//
// An object whose declaration had errors is still built as far as it
// resolved: a reference that did not resolve is nil. A program with errors
// is not meant to be run.

// Program is the resolved program, in source order across files.
type Program struct {
	Enums     []*Enum
	Entities  []*Entity
	Workflows []*Workflow
	// Tests are the program's test declarations (test.go), resolved.
	Tests []*Test
	// Info maps identifiers to the objects they define or use.
	Info Info
}

// Info maps every name of the tree that names something to its object:
// Defs the identifiers that declare one (an enum's name, a state's name, an
// alias…), Uses the identifiers and name expressions (*ast.Ident,
// *ast.Name) that refer to one (a `goto` target, `Initial`'s value, a type,
// a subscribed event, a handler's name, a case label, `Tracks`' entity and
// field, and a name in an entity's security condition that is one of its
// fields). A name that did not resolve is in neither. Info is recorded only
// when CheckWith's Options.Info asks (Check leaves it empty). Words lists each word
// of the language's vocabulary written in its place (a *Builtin: `Within`,
// `.MaxAttempts`, `FromSeconds`…), in the order the checker met them: a list,
// not a map entry each, since a program has about as many words as names
// and only the editor's hover looks them up. A duplicate
// declaration (WF101) defines its own object; uses resolve to the first.
type Info struct {
	Defs  map[*ast.Ident]Object
	Uses  map[ast.Node]Object
	Words []WordUse
}

// def records that id declares o, when Info is recorded (its maps exist).
func (in *Info) def(id *ast.Ident, o Object) {
	if in.Defs != nil && id != nil {
		in.Defs[id] = o
	}
}

// use records that n refers to o, when Info is recorded.
func (in *Info) use(n ast.Node, o Object) {
	if in.Uses != nil && n != nil && o != nil {
		in.Uses[n] = o
	}
}

// ObjectOf returns the object n defines or uses, or nil.
func (in *Info) ObjectOf(n ast.Node) Object {
	if id, ok := n.(*ast.Ident); ok {
		if o, ok := in.Defs[id]; ok {
			return o
		}
	}
	return in.Uses[n]
}

// Object is a named thing of the program: *Enum, *EnumMember, *Entity,
// *Field, *Workflow, *State, *Event, *Param, *Subscription (by its alias),
// *Step; or *Builtin, a word of the language (builtin.go, Info.Words).
type Object interface {
	// Name is the identifier that declares the object (for a Step, nil).
	Name() *ast.Ident
	object()
}

// Enum is an `enum` declaration.
type Enum struct {
	Decl    *ast.Enum
	Members []*EnumMember // in source order, duplicates included
	byName  map[string]*EnumMember
}

// EnumMember is one member of an enum.
type EnumMember struct {
	Enum  *Enum
	Ident *ast.Ident
	Index int // its position in Enum.Members
}

// Entity is an `entity` declaration.
type Entity struct {
	Decl   *ast.Entity
	Fields []*Field
}

// Field is one field of an entity.
type Field struct {
	Entity *Entity
	Decl   *ast.Field
	Type   Type
}

// Basic is a built-in type.
type Basic uint8

// The built-in types; NotBasic is a declared type (an enum or an entity).
const (
	NotBasic Basic = iota
	String
	Int
	Bool
	Decimal
	DateTime
	TimeSpanType
)

var basicNames = map[string]Basic{"string": String, "int": Int, "bool": Bool, "decimal": Decimal, "DateTime": DateTime, "TimeSpan": TimeSpanType}

// Type is a resolved type reference: a built-in, an enum or an entity. All
// three are zero when the name did not resolve (WF102) or is ambiguous
// (WF101).
type Type struct {
	Basic    Basic
	Enum     *Enum
	Entity   *Entity
	Optional bool // written with `?`
}

// Workflow is a `workflow` declaration.
type Workflow struct {
	Decl *ast.Workflow
	// Initial is the state a run starts in; nil if `Initial` is missing or
	// did not resolve.
	Initial *State
	// Tracked is the field `Tracks` names, and TrackedEnum its enum; nil
	// without `Tracks` or when it did not resolve.
	Tracked     *Field
	TrackedEnum *Enum
	Autostart   bool
	States      []*State // in source order, duplicates included
	Events      []*Event
	Steps       []*Step // every durable step, in source order
	// ReachKnown says whether every State's Reach is known: the initial
	// state resolved and is not terminal, every goto resolved, and nothing
	// failed to parse.
	ReachKnown bool
	// states indexes the named states by name, in a workflow of more than
	// linearStates states; smaller ones are searched in place (a map per
	// workflow was a tenth of the memory of 100,000 one-line workflows).
	states map[string]*State
}

// linearStates is the most states a workflow searches without an index.
const linearStates = 8

// indexStates makes the index of a large workflow's states.
func (w *Workflow) indexStates() {
	if len(w.States) <= linearStates {
		return
	}
	w.states = make(map[string]*State, len(w.States))
	for _, s := range w.States {
		if s.named {
			w.states[s.Decl.Name.Name] = s
		}
	}
}

// StateNamed returns the state that uses of name resolve to (the first
// declared), or nil.
func (w *Workflow) StateNamed(name string) *State {
	if w.states != nil {
		return w.states[name]
	}
	for _, s := range w.States {
		if s.named && s.Decl.Name.Name == name {
			return s
		}
	}
	return nil
}

// Reach says whether a run can be in a state.
type Reach uint8

const (
	ReachUnknown Reach = iota // errors make it unknowable
	Reachable                 // some chain of goto leads to it from Initial
	Unreachable               // none does (WF201)
)

// State is a `state`, `terminal` or `terminal error` declaration.
//
// The small fields come last, together: a workflow holds its states in one
// block, and the padding of three separate bytes was a sixth of it.
type State struct {
	Decl          *ast.State
	Workflow      *Workflow
	Subscriptions []*Subscription
	Handlers      []*Handler
	// Transitions are the state's gotos, in source order, in handlers,
	// cases, defaults and outcomes alike.
	Transitions []*Goto
	// Member is the tracked enum's member the state stores, with `Tracks`.
	Member *EnumMember
	// Message is a terminal error state's `Message`, unquoted; without one,
	// "ended in state X".
	Message string
	Kind    ast.StateKind
	Reach   Reach
	// named: uses of its name resolve to it (it is the first declared).
	named bool
}

// Event is an `event` declaration.
type Event struct {
	Decl     *ast.Event
	Workflow *Workflow
	Params   []*Param
}

// Param is one parameter of an event or a handler.
type Param struct {
	Decl *ast.Param
	Type Type
	// Index is its position in its list: a handler's arguments are the
	// event's, by position.
	Index int
}

// Subscription is `subscribe Event(…) [as Alias] …` in a state.
type Subscription struct {
	Decl  *ast.Subscribe
	State *State
	// Event is nil when the event is not declared (WF104).
	Event      *Event
	Milestones []*Milestone
	// Handler is the handler that answers it, if any.
	Handler *Handler
}

// Slot is what handlers name: the alias, else the event's name.
func (s *Subscription) Slot() string { return s.Decl.Slot().Name }

// Slot is a slot as a test's `Take` or a Temporal signal names it: a
// subscription's alias, else its event's name, which may be the slot of a
// subscription in several states. Taking it takes the subscription of the
// state the run is in (In).
type Slot struct {
	Name string
	// Subscriptions are the workflow's subscriptions of that slot, in
	// source order, at most one per state (the first); none when no state
	// has it.
	Subscriptions []*Subscription
}

// In is the slot's subscription in state s, or nil.
func (sl *Slot) In(s *State) *Subscription {
	for _, sub := range sl.Subscriptions {
		if sub.State == s {
			return sub
		}
	}
	return nil
}

// SlotNamed is the slot of w named name (a Slot without subscriptions
// when no state has it): the one place a slot's name is looked up, for
// a test's `Take` and a Temporal signal. Each call makes a new Slot.
func (w *Workflow) SlotNamed(name string) *Slot {
	sl := &Slot{Name: name}
	for _, s := range w.States {
		for _, sub := range s.Subscriptions {
			if sub.Slot() == name {
				sl.Subscriptions = append(sl.Subscriptions, sub)
				break
			}
		}
	}
	return sl
}

// EventNamed is w's event named name (the first declared), or nil.
func (w *Workflow) EventNamed(name string) *Event {
	for _, e := range w.Events {
		if e.Decl.Name != nil && e.Decl.Name.Name == name {
			return e
		}
	}
	return nil
}

// WorkflowNamed is p's workflow named name (the first declared), or nil.
func (p *Program) WorkflowNamed(name string) *Workflow {
	for _, w := range p.Workflows {
		if w.Decl.Name != nil && w.Decl.Name.Name == name {
			return w
		}
	}
	return nil
}

// MemberNamed is e's member named name (the first declared), or nil.
func (e *Enum) MemberNamed(name string) *EnumMember { return e.member(name) }

// MilestoneKind is `Assigned` or `Finished`.
type MilestoneKind uint8

const (
	Assigned MilestoneKind = iota + 1 // the slot must be taken
	Finished                          // the event must arrive
)

var milestoneKindNames = [...]string{Assigned: "Assigned", Finished: "Finished"}

// String is the kind as written: "Assigned", "Finished" ("" when unknown).
func (k MilestoneKind) String() string {
	if int(k) < len(milestoneKindNames) {
		return milestoneKindNames[k]
	}
	return ""
}

// MarshalText writes the kind as written, for JSON (transcripts).
func (k MilestoneKind) MarshalText() ([]byte, error) { return []byte(k.String()), nil }

// UnmarshalText reads a kind as written.
func (k *MilestoneKind) UnmarshalText(b []byte) error {
	if kind, ok := milestoneKindOf[string(b)]; ok {
		*k = kind
		return nil
	}
	return fmt.Errorf("unknown milestone kind %q", b)
}

// OutcomeKind is what ends a milestone.
type OutcomeKind uint8

const (
	Exhausted  OutcomeKind = iota + 1 // the policy's attempts are used up
	Unassigned                        // Assigned's last window passed
	Unfinished                        // Finished's last window passed
)

var outcomeKindNames = [...]string{Exhausted: "Exhausted", Unassigned: "Unassigned", Unfinished: "Unfinished"}

// String is the outcome as written ("" when unknown).
func (k OutcomeKind) String() string {
	if int(k) < len(outcomeKindNames) {
		return outcomeKindNames[k]
	}
	return ""
}

// MarshalText writes the outcome as written, for JSON (transcripts).
func (k OutcomeKind) MarshalText() ([]byte, error) { return []byte(k.String()), nil }

// UnmarshalText reads an outcome as written.
func (k *OutcomeKind) UnmarshalText(b []byte) error {
	if kind, ok := outcomeKindOf[string(b)]; ok {
		*k = kind
		return nil
	}
	return fmt.Errorf("unknown outcome %q", b)
}

// Milestone is `Assigned { … }` or `Finished { … }` under a subscription.
type Milestone struct {
	Decl         *ast.Milestone
	Subscription *Subscription
	Kind         MilestoneKind // 0 when unknown (WF117)
	Outcomes     []*Outcome
	// Consumer is the milestone's policy consumer: its Window, Attempts,
	// Budget and Policy, which codegen lowers into a schedule table. Nil
	// when the kind is unknown.
	Consumer *Consumer
}

// Outcome is an outcome block of a milestone.
type Outcome struct {
	Decl *ast.Outcome
	Kind OutcomeKind // 0 when unknown or not the milestone's (WF117)
	Body *Block
}

// Handler is `on Slot[(params)] { … }`.
type Handler struct {
	Decl  *ast.Handler
	State *State
	// Subscription is the one it answers (the one WF105 says is meant,
	// when it names none); nil when none is known.
	Subscription *Subscription
	// Params are its own parameters, nil when it is written without
	// them: then the event's are in scope.
	Params []*Param
	// Enum is the type of its first enum parameter, which its cases
	// match, and EnumParam that parameter (its own, or the event's); nil
	// without one.
	Enum      *Enum
	EnumParam *Param
	Body      *Block
}

// Block is `{ statements }`.
type Block struct {
	Decl  *ast.Block
	Stmts []Stmt
}

// Stmt is a statement of a block: *Goto, *Call, *Step, *Case or *Default
// (and *CatchCase, which a step's Catch holds).
type Stmt interface{ stmt() }

// Goto is `goto S;`.
type Goto struct {
	Decl *ast.Goto
	From *State
	To   *State // nil when the target is not a state (WF103)
}

// Call is a call statement `X.Y(args);`, an external effect.
type Call struct {
	Decl *ast.CallStmt
	Fun  string // the dotted name, "" when it is not one
	Args []Arg
}

// Arg is one argument of a call: its label (empty when unlabelled) and its
// value, an expression of the tree.
type Arg struct {
	Label string
	Value ast.Expr
	// Param is the handler parameter the value names, when it is one (a
	// call in a handler's body): at run time the event's argument.
	Param *Param
	// Member is the enum member the value names: in a workflow's call, an
	// argument written `Enum.Member`; in a test's expected call
	// (Expect.Call), the member the argument resolves to, written
	// qualified or bare (a bare name by the enums the calls it may match
	// take there). Nil for anything else.
	Member *EnumMember
}

// Step is a durable step `Workflow.Once("name", retry: p) { … }`.
type Step struct {
	Decl  *ast.CallStmt
	State *State
	// Key is the step's name, unquoted: its durable identity (the
	// idempotency key); "" when it is not a non-empty string literal (WF118).
	Key string
	// Consumer is its policy consumer (Attempts, Budget, Policy).
	Consumer *Consumer
	Body     *Block
	// Timeout is each attempt's limit (`timeout:`), 0 when there is none:
	// an attempt that runs longer fails at that moment, retryably.
	Timeout Ticks
	// Deadline is the step's total time (`deadline:`), from its first
	// attempt's start, when HasDeadline: no attempt starts after it, and
	// one running when it passes is stopped; the step then gives up.
	Deadline    Ticks
	HasDeadline bool
	// Catch is the step's `catch { … }`, nil without one.
	Catch *Catch
}

// Cause is why a durable step gave up: the reasons a catch's cases name.
type Cause uint8

// The causes.
const (
	CauseExhausted Cause = iota + 1 // its attempts are used up
	CauseDeadline                   // its deadline passed
	CauseTerminal                   // an attempt failed terminally (a non-retryable kind)
	CauseCancelled                  // its state was left while it ran or waited (its catch does not run)
)

var causeNames = [...]string{CauseExhausted: "Exhausted", CauseDeadline: "Deadline", CauseTerminal: "Terminal", CauseCancelled: "Cancelled"}

// Causes lists the causes in order, as a catch's labels spell them.
var Causes = []Cause{CauseExhausted, CauseDeadline, CauseTerminal, CauseCancelled}

// String is the cause as a catch's case label spells it ("" when unknown).
func (c Cause) String() string {
	if int(c) < len(causeNames) {
		return causeNames[c]
	}
	return ""
}

// CauseNamed is the cause a catch's label names, or 0.
func CauseNamed(name string) Cause {
	for _, c := range Causes {
		if c.String() == name {
			return c
		}
	}
	return 0
}

// MarshalText writes the cause as spelt, for JSON (transcripts).
func (c Cause) MarshalText() ([]byte, error) { return []byte(c.String()), nil }

// UnmarshalText reads a cause as spelt.
func (c *Cause) UnmarshalText(b []byte) error {
	if k := CauseNamed(string(b)); k != 0 {
		*c = k
		return nil
	}
	return fmt.Errorf("unknown cause %q", b)
}

// Catch is a step's `catch { … }`: the blocks that run when it gives up.
type Catch struct {
	Decl *ast.Catch
	// Cases are its cases in source order, `default` included (Default).
	Cases []*CatchCase
}

// CatchCase is one case of a catch: a reason (Cause), an error kind
// (Kind), or `default` (Default).
type CatchCase struct {
	Decl    *ast.CatchCase
	Cause   Cause       // a reason's case; 0 otherwise
	Kind    *EnumMember // a kind's case; nil otherwise
	Default bool
	Body    *Block
}

// For is the case that takes a give-up of cause why (and, for a terminal
// failure, of kind): a case of the kind wins over `Terminal`, a reason's
// case over `default`; nil when no case takes it. A cancelled step's
// catch never runs, so nothing takes CauseCancelled but a case that names
// it, which the checker reports (it never runs either).
func (c *Catch) For(why Cause, kind *EnumMember) *CatchCase {
	if c == nil || why == CauseCancelled {
		return nil
	}
	var byCause, def *CatchCase
	for _, cc := range c.Cases {
		switch {
		case kind != nil && cc.Kind == kind && why == CauseTerminal:
			return cc
		case cc.Cause == why && byCause == nil:
			byCause = cc
		case cc.Default && def == nil:
			def = cc
		}
	}
	if byCause != nil {
		return byCause
	}
	return def
}

// Case is `Member { … }` in a handler.
type Case struct {
	Decl   *ast.Case
	Member *EnumMember // nil when the label is not a member (WF109)
	Body   *Block
}

// Default is `default { … }` in a handler.
type Default struct {
	Decl *ast.Default
	Body *Block
}

func (*Goto) stmt()    {}
func (*Call) stmt()    {}
func (*Step) stmt()    {}
func (*Case) stmt()    {}
func (*Default) stmt() {}

// A catch's case is told to an interpreter's observer as a statement
// when its body runs (coverage counts it), though no block holds it.
func (*CatchCase) stmt() {}

func (o *Enum) Name() *ast.Ident         { return o.Decl.Name }
func (o *EnumMember) Name() *ast.Ident   { return o.Ident }
func (o *Entity) Name() *ast.Ident       { return o.Decl.Name }
func (o *Field) Name() *ast.Ident        { return o.Decl.Name }
func (o *Workflow) Name() *ast.Ident     { return o.Decl.Name }
func (o *State) Name() *ast.Ident        { return o.Decl.Name }
func (o *Event) Name() *ast.Ident        { return o.Decl.Name }
func (o *Param) Name() *ast.Ident        { return o.Decl.Name }
func (o *Subscription) Name() *ast.Ident { return o.Decl.Slot() }
func (o *Step) Name() *ast.Ident         { return nil }

func (*Enum) object()         {}
func (*EnumMember) object()   {}
func (*Entity) object()       {}
func (*Field) object()        {}
func (*Workflow) object()     {}
func (*State) object()        {}
func (*Event) object()        {}
func (*Param) object()        {}
func (*Subscription) object() {}
func (*Step) object()         {}
