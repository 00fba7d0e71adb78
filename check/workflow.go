package check

import (
	"fmt"
	"strings"

	"github.com/wfc-lang/wfc/ast"
	"github.com/wfc-lang/wfc/check/vocab"
	"github.com/wfc-lang/wfc/diag"
)

// Consumer is one user of a policy: a milestone or a durable step. Package
// codegen lowers each into a row of the schedule table.
type Consumer struct {
	Src  *ast.File    // the file, for quoting source in messages
	Pos  diag.Pos     // the milestone kind or the step call
	Kind ConsumerKind // the milestone's kind, or KindStep

	Policy   *Policy // nil when there is none
	Attempts int64   // total attempts (windows), at least 1
	Budget   Budget  // what bounds the attempts
	Window   Ticks   // milestone window (Within); 0 for steps

	// Where the lints that come from the lowered table point.
	BackoffSetting *ast.Setting // the milestone's `Backoff = …;`, if any
	RetriesValue   ast.Expr

	// Milestone or Step is the model's object this consumer belongs to:
	// its state, workflow, slot and name are read from there (State,
	// Workflow, Slot, StepName), never kept as strings.
	Milestone *Milestone
	Step      *Step

	// Valid is false when errors make the schedule meaningless.
	Valid bool
	// Lintable: the policy and the budget are known, so the policy lints
	// can run even when the schedule is not Valid (a bad window).
	Lintable bool

	// stepName is the step's name until the model's Step holds it, and
	// step its other arguments.
	stepName string
	step     stepArgs
}

// stepArgs are a step's `timeout:` and `deadline:`, resolved, until the
// model's Step holds them.
type stepArgs struct {
	timeout, deadline Ticks
	hasDeadline       bool
}

// State is the state the consumer is written in (nil only before the
// model is built).
func (c *Consumer) State() *State {
	switch {
	case c.Milestone != nil && c.Milestone.Subscription != nil:
		return c.Milestone.Subscription.State
	case c.Step != nil:
		return c.Step.State
	}
	return nil
}

// Workflow is the workflow the consumer is written in.
func (c *Consumer) Workflow() *Workflow {
	if s := c.State(); s != nil {
		return s.Workflow
	}
	return nil
}

// Slot is a milestone's subscription slot (its alias, else its event);
// "" for a step.
func (c *Consumer) Slot() string {
	if c.Milestone != nil && c.Milestone.Subscription != nil {
		return c.Milestone.Subscription.Slot()
	}
	return ""
}

// StepName is a step's name, unquoted; "" for a milestone.
func (c *Consumer) StepName() string {
	if c.Step != nil {
		return c.Step.Key
	}
	return c.stepName
}

// WorkflowName and StateName are the names, as written, of the
// consumer's workflow and state, for rendering ("" before the model).
func (c *Consumer) WorkflowName() string {
	if w := c.Workflow(); w != nil && w.Decl.Name != nil {
		return w.Decl.Name.Name
	}
	return ""
}

func (c *Consumer) StateName() string {
	if s := c.State(); s != nil && s.Decl.Name != nil {
		return s.Decl.Name.Name
	}
	return ""
}

// FileName is the name of the consumer's file.
func (c *Consumer) FileName() string { return c.Src.Name }

// IsStep reports whether the consumer is a durable step (else a milestone).
func (c *Consumer) IsStep() bool { return c.Kind == KindStep }

// ConsumerKind says what a consumer is: a milestone of a kind, or a step.
type ConsumerKind uint8

const (
	KindAssigned ConsumerKind = iota + 1 // an `Assigned { … }` milestone
	KindFinished                         // a `Finished { … }` milestone
	KindStep                             // a `Workflow.Once` durable step
)

var consumerKindNames = [...]string{KindAssigned: "Assigned", KindFinished: "Finished", KindStep: "Workflow.Once"}

// String is the kind as written in source: `Finished`, `Workflow.Once`.
func (k ConsumerKind) String() string {
	if int(k) < len(consumerKindNames) && k != 0 {
		return consumerKindNames[k]
	}
	return fmt.Sprintf("ConsumerKind(%d)", int(k))
}

// Budget says what bounds a consumer's attempts.
type Budget uint8

// The budgets.
const (
	BudgetNone        Budget = iota // one window or attempt
	BudgetRetries                   // a milestone's `Retries = n`
	BudgetMaxAttempts               // the policy's `.MaxAttempts(n)`
	BudgetDeadline                  // a step's `deadline:` alone: the attempts that start before it
)

var budgetNames = [...]string{BudgetNone: "none", BudgetRetries: "Retries", BudgetMaxAttempts: "MaxAttempts", BudgetDeadline: "deadline"}

// String is what the schedule table prints: "none", "Retries",
// "MaxAttempts".
func (b Budget) String() string {
	if int(b) < len(budgetNames) {
		return budgetNames[b]
	}
	return fmt.Sprintf("Budget(%d)", int(b))
}

// wfCtx is the per-workflow state.
type wfCtx struct {
	w      *ast.Workflow
	model  *Workflow // what the builder made of it, for the rules
	states byName[*ast.State]
	events byName[*ast.Event]
	// tracked is the enum of `Tracks`, if it resolved, and trackedEntity
	// and trackedField what it names.
	tracked       *ast.Enum
	trackedEntity *ast.Entity
	trackedField  *ast.Field
	tracks        *ast.Setting // the `Tracks` setting, for related locations
	// refs are what each reference of the workflow resolved to (refs.go),
	// in the checker's table.
	refs    *refTable
	steps   scope
	aliases scope
	// edges are each checked state's goto targets, in source order.
	edges   []stateEdges
	initial *ast.Ident // the name `Initial` gives, if it is one
	// initialState is the state `Initial` names, if it resolved, and
	// initialSetting the setting that names it.
	initialState   *ast.State
	initialSetting *ast.Setting
	// meantMembers are the tracked members a WF113 names as meant: WF114
	// does not also report them missing.
	meantMembers map[string]bool
	// stateSet and eventSet are the declared names, prepared for
	// suggestions when first needed (most workflows never need them; some
	// have thousands of names).
	stateSet, eventSet *nameSet
	// eventsUncertain: an event declaration may be in what failed to parse,
	// so an unknown event is not reported.
	eventsUncertain bool
	// statesUncertain: a state may be declared in what failed to parse.
	statesUncertain bool
}

func (c *checker) workflow(w *ast.Workflow) {
	wc := &wfCtx{w: w, states: newByName[*ast.State](len(w.States)), events: newByName[*ast.Event](len(w.Events)), refs: &c.refs}
	if c.wfFacts[w] == nil {
		c.wfFacts[w] = wc
	}
	wc.steps = c.newScope("step name")
	wc.aliases = c.newScope("alias")
	stateScope := c.newScope("state")
	for _, s := range w.States {
		if stateScope.declare(s.Name) {
			wc.states.put(s.Name.Name, s)
		}
	}
	eventScope := c.newScope("event")
	for _, e := range w.Events {
		if eventScope.declare(e.Name) {
			wc.events.put(e.Name.Name, e)
		}
		if e.Params != nil {
			c.params(e.Params)
		}
	}
	wc.eventsUncertain = eventsUncertain(w)
	wc.statesUncertain = statesUncertain(w)
	// Workflow settings.
	settings := c.newScope("setting")
	var initial *ast.Setting
	initialMeant := false // a setting misspelled for `Initial`
	for _, s := range w.Settings {
		if !settings.declare(s.Name) {
			continue
		}
		switch s.Name.Name {
		case "Tracks":
			wc.tracked, wc.trackedEntity, wc.trackedField = c.tracks(s)
			wc.tracks = s
		case "Autostart":
			if s.Value != nil && !ast.HasBad(s.Value) && kindOfExpr(s.Value) != kBool {
				c.report(s.Value.Rng(), diag.WF107, "`Autostart` takes a bool: write `Autostart = true;` or `Autostart = false;`")
			}
		case "Initial":
			initial = s
		default:
			h := c.didYouMean(s.Name.Range, s.Name.Name, vocab.Names(vocab.WorkflowSettings))
			c.report(s.Name.Range, diag.WF107, "unknown workflow setting `%s`: a workflow takes `Tracks`, `Autostart` and `Initial`%s", s.Name.Name, h)
			initialMeant = initialMeant || h.best == "Initial"
		}
	}
	var initialState *ast.State
	if initial == nil && initialMeant {
		// Misspelled: WF107 says so, and no WF108 follows.
	} else if initial == nil {
		c.report(w.Name.Range, diag.WF108, "workflow `%s` has no `Initial` setting: add `Initial = StateName;` naming the state a run starts in", w.Name.Name)
	} else if initial.Value != nil && !ast.HasBad(initial.Value) {
		n, ok := ast.Unparen(initial.Value).(*ast.Name)
		if !ok {
			c.report(initial.Value.Rng(), diag.WF107, "`Initial` takes a state name: write `Initial = %s;`", firstStateName(w))
		} else if st := c.resolveState(wc, wc.initialRef(n)); st != nil {
			initialState, wc.initialSetting = st, initial // WF115 is the rule initialTerminal's
		}
	}
	for _, s := range w.States {
		c.state(wc, s)
	}
	wc.initialState = initialState
	c.trackedMembers(wc)
}

// eventsUncertain reports whether an event may have been declared in what
// failed to parse: a bad event (its text may run into the next one), a body
// that does not close, or a bad member that no bad state explains. A syntax
// error inside a state does not hide the workflow's events.
func eventsUncertain(w *ast.Workflow) bool {
	if !w.Bad {
		return false
	}
	for _, e := range w.Events {
		if e.Bad {
			return true
		}
	}
	// Otherwise what may hide an event is what may hide a state.
	return statesUncertain(w)
}

// statesUncertain reports whether a state may have been declared in what
// failed to parse. A bad state still declares its name; a body that does not
// close, or a bad member that no bad state explains, may hide one.
func statesUncertain(w *ast.Workflow) bool {
	if !w.Bad {
		return false
	}
	src := w.File.Src
	if end := int(w.Range.End.Offset); end == 0 || end > len(src) || src[end-1] != '}' {
		return true
	}
	for _, s := range w.States {
		if s.Bad {
			return false
		}
	}
	return true
}

func firstStateName(w *ast.Workflow) string {
	for _, s := range w.States {
		if s.Kind == ast.Normal {
			return s.Name.Name
		}
	}
	return "StateName"
}

// tracks checks `Tracks = Entity.Field;` and returns the tracked enum, with
// the entity and the field, when all resolved.
func (c *checker) tracks(s *ast.Setting) (*ast.Enum, *ast.Entity, *ast.Field) {
	if s.Value == nil || ast.HasBad(s.Value) {
		return nil, nil, nil
	}
	sel, ok := ast.Unparen(s.Value).(*ast.Selector)
	var ent *ast.Entity
	if ok {
		if n, isName := sel.X.(*ast.Name); isName {
			d := c.decls[n.Name]
			switch d.(type) {
			case nil:
				// Unknown: WF102 at this reference, like every other one.
				c.report(n.Range, diag.WF102, "unknown entity `%s`%s", n.Name, c.suggest(n.Range, n.Name, c.entitySet()))
				return nil, nil, nil
			case *ast.Entity:
				if c.duplicated[n.Name] {
					return nil, nil, nil // which one is meant is unknowable (WF101)
				}
				ent = d.(*ast.Entity)
			default:
				c.report(s.Value.Rng(), diag.WF112, "`Tracks` names `%s`, which is %s, not an entity%s", n.Name, kindOf(d), c.suggest(n.Range, n.Name, c.entitySet()))
				return nil, nil, nil
			}
		}
	}
	if ent == nil {
		c.report(s.Value.Rng(), diag.WF112, "`Tracks` takes `Entity.Field`, an enum-typed field of an entity, as in `Tracks = Job.Stage;`")
		return nil, nil, nil
	}
	if ent.Bad {
		return nil, nil, nil
	}
	var names []string
	for _, f := range ent.Fields {
		names = append(names, f.Name.Name)
		if f.Name.Name != sel.Sel.Name {
			continue
		}
		if !c.typeKnown(f.Type) {
			return nil, nil, nil // WF102 or WF101 on the field's type says why
		}
		e := c.enumOf(f.Type)
		if e == nil {
			c.report(s.Value.Rng(), diag.WF112, "`Tracks` needs an enum-typed field; `%s.%s` is of type `%s`", ent.Name.Name, f.Name.Name, c.typeName(f.Type))
			return nil, nil, nil
		}
		if e.Bad {
			return nil, nil, nil
		}
		return e, ent, f
	}
	c.report(s.Value.Rng(), diag.WF112, "entity `%s` has no field `%s`%s", ent.Name.Name, sel.Sel.Name, c.didYouMean(sel.Sel.Range, sel.Sel.Name, names))
	return nil, nil, nil
}

// stateNames is stateSet, prepared on first use.
func (wc *wfCtx) stateNames() *nameSet {
	if wc.stateSet == nil {
		wc.stateSet = newNameSet(wc.states.keys())
	}
	return wc.stateSet
}

// eventNames is eventSet, prepared on first use.
func (wc *wfCtx) eventNames() *nameSet {
	if wc.eventSet == nil {
		wc.eventSet = newNameSet(wc.events.keys())
	}
	return wc.eventSet
}

// initialRef records the name `Initial` gives as a reference to a state.
func (wc *wfCtx) initialRef(n *ast.Name) *ast.Ident {
	wc.initial = &ast.Ident{Range: n.Range, Name: n.Name}
	return wc.initial
}

// stateRefs are the references to state name in the workflow: `Initial`
// and every `goto`.
func (wc *wfCtx) stateRefs(name string) []*ast.Ident {
	var out []*ast.Ident
	if wc.initial != nil && wc.initial.Name == name {
		out = append(out, wc.initial)
	}
	for _, e := range wc.edges {
		for _, t := range e.targets {
			if t.Name == name {
				out = append(out, t)
			}
		}
	}
	return out
}

// entitySet are the declared entities, for suggestions (prepared once).
func (c *checker) entitySet() *nameSet {
	if c.entities == nil {
		var names []string
		for k, d := range c.decls {
			if _, ok := d.(*ast.Entity); ok {
				names = append(names, k)
			}
		}
		c.entities = newNameSet(names)
	}
	return c.entities
}

// resolveState looks a state up, reporting WF103 with a suggestion.
func (c *checker) resolveState(wc *wfCtx, id *ast.Ident) *ast.State {
	if st, ok := wc.states.get(id.Name); ok {
		return st
	}
	c.report(id.Range, diag.WF103, "unknown state `%s` in workflow `%s`%s", id.Name, wc.w.Name.Name, c.suggest(id.Range, id.Name, wc.stateNames()))
	return nil
}

// params checks parameter types and names.
func (c *checker) params(ps *ast.Params) {
	sc := c.newScope("parameter")
	for _, p := range ps.List {
		c.typeRef(p.Type)
		sc.declare(p.Name)
	}
}

// paramsMatch reports WF106 when ps does not match the event's declaration.
func (c *checker) paramsMatch(ps *ast.Params, ev *ast.Event, what string) {
	if ps == nil || ev == nil || ev.Bad || ev.Params == nil {
		return
	}
	// An unknown type is the root cause: say that (WF102), not a mismatch.
	unknown := false
	for _, p := range ps.List {
		if p.Type != nil && p.Type.Name != nil && !builtinTypes[p.Type.Name.Name] && c.decls[p.Type.Name.Name] == nil {
			c.typeRef(p.Type)
			unknown = true
		}
	}
	for _, p := range ev.Params.List {
		if !c.typeKnown(p.Type) {
			unknown = true // WF102 or WF101 on the event's declaration
		}
	}
	if unknown {
		return
	}
	want := make([]string, len(ev.Params.List))
	for i, p := range ev.Params.List {
		want[i] = c.typeName(p.Type)
	}
	got := make([]string, len(ps.List))
	for i, p := range ps.List {
		got[i] = c.typeName(p.Type)
	}
	if strings.Join(want, ",") == strings.Join(got, ",") {
		return
	}
	decl := "(" + strings.Join(paramTexts(ev.Params), ", ") + ")"
	var d *diag.Diagnostic
	if len(want) != len(got) {
		d = c.report(ps.Range, diag.WF106, "%s has %d parameter%s but event `%s` declares %d: write `%s`", what, len(got), plural(len(got)), ev.Name.Name, len(want), decl)
	} else {
		d = c.report(ps.Range, diag.WF106, "%s's parameter types (%s) do not match event `%s` (%s): write `%s`", what, strings.Join(got, ", "), ev.Name.Name, strings.Join(want, ", "), decl)
	}
	c.related(d, ev.Params.Range, "event `"+ev.Name.Name+"` declared here")
}

func paramTexts(ps *ast.Params) []string {
	var out []string
	for _, p := range ps.List {
		t := "?"
		if p.Type != nil && p.Type.Name != nil {
			t = p.Type.Name.Name
			if p.Type.Optional {
				t += "?"
			}
		}
		out = append(out, t+" "+p.Name.Name)
	}
	return out
}

func plural(n int) string {
	if n == 1 {
		return ""
	}
	return "s"
}

// trackedMembers: with `Tracks`, every state is a member of the tracked
// enum (WF113; the rule trackedMemberWithoutState checks the converse). A
// state whose name is close to a member without a state is that member
// misspelled: WF113 says so and offers to rename the state with its
// references, and records the member as meant.
func (c *checker) trackedMembers(wc *wfCtx) {
	e := wc.tracked
	if e == nil {
		return
	}
	members := map[string]bool{}
	var stateless []string // members without a state: what a misspelling meant
	for _, m := range e.Members {
		members[m.Name] = true
		if _, ok := wc.states.get(m.Name); !ok {
			stateless = append(stateless, m.Name)
		}
	}
	meant := map[string]bool{}
	var statelessSet *nameSet
	tracked := c.model.enums[e]
	for _, s := range wc.w.States {
		if members[s.Name.Name] {
			wc.resolved(s, ref{member: tracked.member(s.Name.Name)})
			continue
		}
		if statelessSet == nil {
			statelessSet = newNameSet(stateless)
		}
		best := statelessSet.Closest(s.Name.Name)
		hint := "; add it to the enum or rename the state"
		if best != "" && !meant[best] {
			meant[best] = true
			hint = fmt.Sprintf("; did you mean `%s`?", best)
		} else {
			best = ""
		}
		d := c.report(s.Name.Range, diag.WF113, "state `%s` is not a member of `%s`, the enum workflow `%s` tracks%s", s.Name.Name, e.Name.Name, wc.w.Name.Name, hint)
		d.Related = append(d.Related, diagRelated(e.File.Name, e.Name.Range, "enum `"+e.Name.Name+"` declared here"))
		if best != "" && wc.states.lookup(s.Name.Name) == s {
			d.Fixes = append(d.Fixes, c.renameState(wc, s, best))
		}
	}
	wc.meantMembers = meant
}

// renameState is the fix that renames state s to name: the declaration and
// every reference to it, so the rename leaves no unknown state behind.
func (c *checker) renameState(wc *wfCtx, s *ast.State, name string) diag.Fix {
	edits := []diag.Edit{{File: c.file.Name, Range: s.Name.Range, NewText: name}}
	for _, ref := range wc.stateRefs(s.Name.Name) {
		edits = append(edits, diag.Edit{File: c.file.Name, Range: ref.Range, NewText: name})
	}
	sortEdits(edits)
	return diag.Fix{Title: fmt.Sprintf("rename state `%s` to `%s` (%d place%s)", s.Name.Name, name, len(edits), plural(len(edits))), Edits: edits}
}
