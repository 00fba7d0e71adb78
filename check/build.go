package check

import (
	"slices"

	"github.com/wfc-lang/wfc/ast"
	"github.com/wfc-lang/wfc/check/vocab"
)

// builder makes the model (model.go) from the tree and what the resolver
// pass found (wfFacts with the references it resolved, refs.go, and the
// consumers): it looks no name up again and reports nothing, so a name
// means in the model what it meant to the checks. It runs between the
// resolver pass and the rules, which read it. The program's enums and
// entities are built first (buildTypes), before any workflow is resolved,
// so the resolver records a case's member as the model's.
type builder struct {
	c        *checker
	p        *Program
	enums    map[*ast.Enum]*Enum
	entities map[*ast.Entity]*Entity
}

// buildTypes starts the model with the program's enums and entities; the
// workflows are added one by one (builder.workflow), each after the first
// pass over it.
func (c *checker) buildTypes() *builder {
	var nEnum, nEntity int // the objects made or kept here
	for _, f := range c.prog.Files {
		if !c.checks(f) && c.opt.Reuse == nil {
			continue
		}
		for _, d := range f.Decls {
			switch d.(type) {
			case *ast.Enum:
				nEnum++
			case *ast.Entity:
				nEntity++
			}
		}
	}
	b := &builder{c: c, p: &Program{Enums: make([]*Enum, 0, nEnum), Entities: make([]*Entity, 0, nEntity)},
		enums: make(map[*ast.Enum]*Enum, nEnum), entities: make(map[*ast.Entity]*Entity, nEntity)}
	c.model = b
	if c.opt.Info && !c.perFile() {
		b.p.Info = Info{Defs: map[*ast.Ident]Object{}, Uses: map[ast.Node]Object{}}
	}
	var fresh []*Entity // entities whose fields are built here
	for _, f := range c.prog.Files {
		if f.Overwhelmed {
			continue
		}
		if c.reusable(f) {
			// An earlier model's objects (Options.Reuse), as they are.
			r := c.reused[f]
			for _, e := range r.enums {
				b.enums[e.Decl] = e
			}
			for _, e := range r.entities {
				b.entities[e.Decl] = e
			}
			b.p.Enums = append(b.p.Enums, r.enums...)
			b.p.Entities = append(b.p.Entities, r.entities...)
			continue
		}
		if !c.checks(f) {
			// Checked alone, without an earlier model (Options.Only): the
			// other files' objects are made when first needed (enumOf,
			// entityOf), most never are.
			continue
		}
		c.enter(f)
		for _, d := range f.Decls {
			switch d := d.(type) {
			case *ast.Enum:
				b.p.Enums = append(b.p.Enums, b.newEnum(d))
			case *ast.Entity:
				e := &Entity{Decl: d}
				b.entities[d] = e
				b.p.Entities = append(b.p.Entities, e)
				fresh = append(fresh, e)
				b.def(d.Name, e)
			}
		}
	}
	// Fields after every type is known.
	for _, e := range fresh {
		c.enter(e.Decl.File)
		b.fields(e)
	}
	return b
}

// fields builds an entity's fields and records the words and names of its
// attributes and security rules.
func (b *builder) fields(e *Entity) {
	c := b.c
	fields := make([]Field, len(e.Decl.Fields))
	for i, f := range e.Decl.Fields {
		fields[i] = Field{Entity: e, Decl: f, Type: b.typeOf(f.Type)}
		e.Fields = append(e.Fields, &fields[i])
		b.def(f.Name, &fields[i])
	}
	for _, sec := range e.Decl.Security {
		for _, r := range sec.Rules {
			b.securityNames(e, r.When)
			for _, op := range r.Ops {
				c.word(op, vocab.KindSecurityOp)
			}
		}
	}
	b.attrs(e.Decl.Attrs, vocab.EntityAttrs)
	for _, f := range e.Decl.Fields {
		b.attrs(f.Attrs, vocab.FieldAttrs)
	}
}

// enumOf is the object of enum d: made on first use when its file is not
// built (a check of some files alone); nil for an overwhelmed file's.
func (b *builder) enumOf(d *ast.Enum) *Enum {
	if d == nil {
		return nil
	}
	if e, ok := b.enums[d]; ok {
		return e
	}
	if d.File == nil || d.File.Overwhelmed {
		return nil
	}
	var e *Enum
	b.c.within(d.File, func() { e = b.newEnum(d) })
	return e
}

// entityOf is enumOf for an entity.
func (b *builder) entityOf(d *ast.Entity) *Entity {
	if d == nil {
		return nil
	}
	if e, ok := b.entities[d]; ok {
		return e
	}
	if d.File == nil || d.File.Overwhelmed {
		return nil
	}
	e := &Entity{Decl: d}
	b.entities[d] = e // before its fields, which may name it
	b.c.within(d.File, func() {
		b.def(d.Name, e)
		b.fields(e)
	})
	return e
}

// securityNames records the names of a security rule's condition that are
// fields of its entity as uses of those fields (`allow update when Owner
// == CurrentUser` reads the field Owner). Other names are facts of the
// runtime's security context, which the compiler does not resolve.
func (b *builder) securityNames(e *Entity, x ast.Expr) {
	switch x := x.(type) {
	case *ast.Name:
		for _, f := range e.Fields {
			if f.Decl.Name != nil && f.Decl.Name.Name == x.Name {
				b.use(x, f)
				return
			}
		}
	case *ast.Binary:
		b.securityNames(e, x.X)
		b.securityNames(e, x.Y)
	case *ast.Unary:
		b.securityNames(e, x.X)
	case *ast.Paren:
		b.securityNames(e, x.X)
	case *ast.Selector:
		b.securityNames(e, x.X)
	case *ast.Call:
		for _, a := range x.Args {
			b.securityNames(e, a.Value)
		}
	}
}

// attrs records the attributes of a list that the context takes as
// vocabulary words (`[Principal]` on a field is not one: WF1xx says so).
func (b *builder) attrs(attrs []*ast.Attr, takes []vocab.Attr) {
	for _, a := range attrs {
		if a.Name != nil && slices.ContainsFunc(takes, func(t vocab.Attr) bool { return t.Name == a.Name.Name }) {
			b.c.word(a.Name, vocab.KindAttr)
		}
	}
}

func (b *builder) def(id *ast.Ident, o Object) { b.p.Info.def(id, o) }

func (b *builder) use(id ast.Node, o Object) { b.p.Info.use(id, o) }

// newEnum makes enum d's object.
func (b *builder) newEnum(d *ast.Enum) *Enum {
	e := &Enum{Decl: d}
	b.enums[d] = e
	b.def(d.Name, e)
	members := make([]EnumMember, len(d.Members))
	e.Members = make([]*EnumMember, len(d.Members))
	for i, m := range d.Members {
		members[i] = EnumMember{Enum: e, Ident: m, Index: i}
		e.Members[i] = &members[i]
		b.def(m, &members[i])
	}
	if len(e.Members) > smallEnum {
		e.byName = make(map[string]*EnumMember, len(e.Members))
		for _, m := range slices.Backward(e.Members) {
			e.byName[m.Ident.Name] = m // the first of duplicates wins
		}
	}
	return e
}

// smallEnum is the most members an enum looks up by a scan; a larger one
// gets a map, so a handler with a case for each of 160,000 members stays
// linear.
const smallEnum = 16

// member returns the first member of e named name (nil on a nil e).
func (e *Enum) member(name string) *EnumMember {
	if e == nil {
		return nil
	}
	if e.byName != nil {
		return e.byName[name]
	}
	for _, m := range e.Members {
		if m.Ident.Name == name {
			return m
		}
	}
	return nil
}

// typeOf resolves a type reference as the checker does (typeKnown,
// enumOf): an ambiguous name resolves to nothing.
func (b *builder) typeOf(t *ast.TypeRef) Type {
	if t == nil || t.Name == nil {
		return Type{}
	}
	ty := Type{Optional: t.Optional, Basic: basicNames[t.Name.Name]}
	if ty.Basic != NotBasic || b.c.dup(t.Name.Name) {
		return ty
	}
	switch d := b.c.global(t.Name.Name).(type) {
	case *ast.Enum:
		ty.Enum = b.enumOf(d)
		b.use(t.Name, ty.Enum)
	case *ast.Entity:
		ty.Entity = b.entityOf(d)
		b.use(t.Name, ty.Entity)
	}
	return ty
}

// wfBuilder builds one workflow.
type wfBuilder struct {
	*builder
	wc *wfCtx
	w  *Workflow
	// states and events find the model object made of a declaration.
	states declIndex[*ast.State]
	events declIndex[*ast.Event]
	// gotos are every goto of the workflow, resolved or not.
	gotos []*Goto
	steps []*Step
}

// declIndex finds a declaration's position among decls, by pointer: a
// scan for a few, an index past linearStates (made on first use). The
// model's objects are made in their declarations' order, so the position
// is the object's.
type declIndex[D comparable] struct {
	decls []D
	at    map[D]int
}

func (x *declIndex[D]) of(d D) (int, bool) {
	if len(x.decls) <= linearStates {
		for i, e := range x.decls {
			if e == d {
				return i, true
			}
		}
		return 0, false
	}
	if x.at == nil {
		x.at = make(map[D]int, len(x.decls))
		for i, e := range x.decls {
			x.at[e] = i
		}
	}
	i, ok := x.at[d]
	return i, ok
}

// state is the model's state of declaration d, or nil.
func (wb *wfBuilder) state(d *ast.State) *State {
	if i, ok := wb.states.of(d); ok && d != nil {
		return wb.w.States[i]
	}
	return nil
}

// event is the model's event of declaration d, or nil.
func (wb *wfBuilder) event(d *ast.Event) *Event {
	if i, ok := wb.events.of(d); ok && d != nil {
		return wb.w.Events[i]
	}
	return nil
}

func (b *builder) workflow(d *ast.Workflow) {
	w := &Workflow{Decl: d}
	b.p.Workflows = append(b.p.Workflows, w)
	b.def(d.Name, w)
	wc := b.c.wfFacts[d]
	if wc == nil || wc.w != d {
		wc = nil // a second workflow of the same tree (cannot happen today)
	}
	wb := &wfBuilder{builder: b, wc: wc, w: w,
		states: declIndex[*ast.State]{decls: d.States}, events: declIndex[*ast.Event]{decls: d.Events}}
	if wc != nil {
		wc.model = w
	}
	events := make([]Event, len(d.Events))
	for i, e := range d.Events {
		events[i] = Event{Decl: e, Workflow: w, Params: wb.params(e.Params)}
		w.Events = append(w.Events, &events[i])
		b.def(e.Name, &events[i])
	}
	states := make([]State, len(d.States))
	for i, s := range d.States {
		states[i] = State{Decl: s, Workflow: w, Kind: s.Kind}
		w.States = append(w.States, &states[i])
		b.def(s.Name, &states[i])
		if wc != nil && wc.states.lookup(s.Name.Name) == s {
			states[i].named = true
		}
	}
	w.indexStates()
	wb.settings(d)
	for i := range states {
		wb.buildState(&states[i])
	}
	w.Steps = wb.steps
	wb.reach()
}

// settings builds `Initial`, `Tracks` and `Autostart` from what the
// resolver found.
func (wb *wfBuilder) settings(d *ast.Workflow) {
	w, wc := wb.w, wb.wc
	if wc != nil && wc.initialState != nil {
		w.Initial = wb.state(wc.initialState)
		if wc.initialSetting != nil {
			if n, ok := ast.Unparen(wc.initialSetting.Value).(*ast.Name); ok {
				wb.use(n, w.Initial)
			}
		}
	}
	for _, s := range d.Settings {
		wb.c.setting(s.Name, vocab.WorkflowSettings)
		if s.Name == nil || s.Value == nil {
			continue
		}
		switch s.Name.Name {
		case "Autostart":
			if v, ok := ast.Unparen(s.Value).(*ast.BoolLit); ok {
				w.Autostart = v.Value
			}
		case "Tracks":
			if wc == nil || wc.tracked == nil || wc.tracks != s {
				continue
			}
			w.TrackedEnum = wb.enumOf(wc.tracked)
			e := wb.entityOf(wc.trackedEntity)
			sel, _ := ast.Unparen(s.Value).(*ast.Selector)
			if e == nil || sel == nil {
				continue
			}
			wb.use(sel.X, e)
			for _, f := range e.Fields {
				if f.Decl == wc.trackedField {
					w.Tracked = f
					wb.use(sel.Sel, f)
					break
				}
			}
		}
	}
}

func (wb *wfBuilder) params(ps *ast.Params) []*Param {
	if ps == nil {
		return nil
	}
	params := make([]Param, len(ps.List))
	out := make([]*Param, len(ps.List))
	for i, p := range ps.List {
		params[i] = Param{Decl: p, Type: wb.typeOf(p.Type), Index: i}
		out[i] = &params[i]
		wb.def(p.Name, &params[i])
	}
	return out
}

func (wb *wfBuilder) buildState(s *State) {
	d := s.Decl
	if wb.w.TrackedEnum != nil {
		s.Member = wb.wc.refOf(d).member // the member named like the state (WF113)
	}
	for _, set := range d.Settings {
		if d.Kind == ast.TerminalError {
			wb.c.setting(set.Name, vocab.TerminalErrorSettings)
		}
		if set.Name != nil && set.Name.Name == "Message" && d.Kind == ast.TerminalError {
			if lit, ok := ast.Unparen(set.Value).(*ast.StringLit); ok {
				s.Message = lit.Value
			}
		}
	}
	if d.Kind == ast.TerminalError && s.Message == "" && d.Name != nil {
		s.Message = "ended in state " + d.Name.Name // docs/language.md, Decisions
	}
	subs := make([]Subscription, len(d.Subscribes))
	bySub := declIndex[*ast.Subscribe]{decls: d.Subscribes}
	for i, sd := range d.Subscribes {
		sub := &subs[i]
		*sub = Subscription{Decl: sd, State: s, Event: wb.event(wb.wc.refOf(sd).event)}
		s.Subscriptions = append(s.Subscriptions, sub)
		wb.use(sd.Event, sub.Event)
		if sd.Params != nil {
			wb.params(sd.Params) // their types' uses; they must be the event's
		}
		if sd.Alias != nil {
			wb.def(sd.Alias, sub)
		}
		for _, md := range sd.Milestones {
			sub.Milestones = append(sub.Milestones, wb.milestone(s, sub, md))
		}
	}
	handlers := make([]Handler, len(d.Handlers))
	for i, hd := range d.Handlers {
		h := &handlers[i]
		r := wb.wc.refOf(hd)
		*h = Handler{Decl: hd, State: s, Params: wb.params(hd.Params)}
		if j, ok := bySub.of(r.sub); ok && r.sub != nil {
			h.Subscription = s.Subscriptions[j]
			if f := wb.c.stFacts[d]; f == nil || f.meantSubs[hd] == nil {
				wb.use(hd.Name, h.Subscription) // not when WF105 says it is meant
			}
			if h.Subscription.Handler == nil {
				h.Subscription.Handler = h
			}
		}
		if d.Kind == ast.Normal && r.enum != nil {
			h.Enum, h.EnumParam = wb.enumOf(r.enum), h.param(r.param)
		}
		s.Handlers = append(s.Handlers, h)
		h.Body = wb.block(s, h, hd.Body)
	}
}

// param is the model's parameter of declaration d in h's scope: one of
// its own, else one of its event's; nil when it is neither.
func (h *Handler) param(d *ast.Param) *Param {
	params := h.Params
	if h.Decl.Params == nil && h.Subscription != nil && h.Subscription.Event != nil {
		params = h.Subscription.Event.Params
	}
	for _, p := range params {
		if p.Decl == d {
			return p
		}
	}
	return nil
}

// milestoneKindOf and outcomeKindOf read a kind's name as written into its
// typed constant (the names are the kinds' String, which
// TestKindsMatchVocabulary holds to the vocabulary).
var (
	milestoneKindOf = kindsByName[MilestoneKind](milestoneKindNames[:])
	outcomeKindOf   = kindsByName[OutcomeKind](outcomeKindNames[:])
)

// kindsByName maps each name of a kind's name table (indexed by the kind,
// 0 unused) to its kind.
func kindsByName[K ~uint8](names []string) map[string]K {
	m := map[string]K{}
	for k, n := range names {
		if k > 0 {
			m[n] = K(k)
		}
	}
	return m
}

func (wb *wfBuilder) milestone(s *State, sub *Subscription, d *ast.Milestone) *Milestone {
	m := &Milestone{Decl: d, Subscription: sub, Kind: milestoneKindOf[d.Kind.Name], Consumer: wb.c.consumerAt[d]}
	if m.Kind != 0 {
		wb.c.word(d.Kind, vocab.KindMilestone)
	}
	for _, set := range d.Settings {
		wb.c.setting(set.Name, vocab.MilestoneSettings)
	}
	if m.Consumer != nil {
		m.Consumer.Milestone = m
	}
	outcomes := make([]Outcome, len(d.Outcomes))
	for i, od := range d.Outcomes {
		k := outcomeKindOf[od.Name.Name]
		if k != Exhausted && (m.Kind == Assigned) != (k == Unassigned) {
			k = 0 // not this milestone's (WF117)
		}
		outcomes[i] = Outcome{Decl: od, Kind: k, Body: wb.block(s, nil, od.Body)}
		if k != 0 {
			wb.c.word(od.Name, vocab.KindOutcome)
		}
		m.Outcomes = append(m.Outcomes, &outcomes[i])
	}
	return m
}

// block builds a block's statements; h is the handler whose body it is
// in (nil in an outcome block), whose parameters a call's arguments name.
func (wb *wfBuilder) block(s *State, h *Handler, d *ast.Block) *Block {
	if d == nil {
		return nil
	}
	b := &Block{Decl: d, Stmts: make([]Stmt, 0, len(d.Stmts))}
	for _, st := range d.Stmts {
		switch st := st.(type) {
		case *ast.Goto:
			if st.Target == nil {
				continue
			}
			g := &Goto{Decl: st, From: s, To: wb.state(wb.wc.refOf(st).state)}
			wb.use(st.Target, g.To)
			s.Transitions = append(s.Transitions, g)
			wb.gotos = append(wb.gotos, g)
			b.Stmts = append(b.Stmts, g)
		case *ast.Case:
			c := &Case{Decl: st, Member: wb.wc.refOf(st).member}
			if c.Member != nil {
				wb.use(st.Label, c.Member)
			}
			c.Body = wb.block(s, h, st.Body)
			b.Stmts = append(b.Stmts, c)
		case *ast.Default:
			b.Stmts = append(b.Stmts, &Default{Decl: st, Body: wb.block(s, h, st.Body)})
		case *ast.CallStmt:
			if st.Body != nil {
				step := &Step{Decl: st, State: s, Consumer: wb.c.consumerAt[st]}
				if cons := step.Consumer; cons != nil {
					cons.Step = step
					step.Key = cons.stepName
					step.Timeout, step.Deadline, step.HasDeadline = cons.step.timeout, cons.step.deadline, cons.step.hasDeadline
				}
				wb.steps = append(wb.steps, step)
				step.Body = wb.block(s, h, st.Body)
				step.Catch = wb.catch(s, h, st.Catch)
				b.Stmts = append(b.Stmts, step)
				continue
			}
			name, _ := ast.DottedName(st.Call.Fun)
			call := &Call{Decl: st, Fun: name, Args: make([]Arg, len(st.Call.Args))}
			for i, a := range st.Call.Args {
				call.Args[i].Value = a.Value
				if a.Label != nil {
					call.Args[i].Label = a.Label.Name
				}
				if n, ok := a.Value.(*ast.Name); ok && h != nil {
					if p := h.param(wb.wc.refOf(n).param); p != nil {
						call.Args[i].Param = p
						wb.use(n, p)
					}
				}
				if x, ok := a.Value.(*ast.Selector); ok {
					if m := wb.wc.refOf(x).member; m != nil {
						call.Args[i].Member = m
						wb.use(x.Sel, m)
						wb.use(x.X, m.Enum) // the qualifier names the enum
					}
				}
			}
			b.Stmts = append(b.Stmts, call)
		}
	}
	return b
}

// catch builds a step's catch: each case's reason or kind as the
// resolver found it, and its block (a block of the handler).
func (wb *wfBuilder) catch(s *State, h *Handler, d *ast.Catch) *Catch {
	if d == nil {
		return nil
	}
	ct := &Catch{Decl: d}
	for _, cd := range d.Cases {
		r := wb.wc.refOf(cd)
		cc := &CatchCase{Decl: cd, Cause: r.cause, Kind: r.member, Default: cd.Default, Body: wb.block(s, h, cd.Body)}
		if !cc.Default && cc.Cause == 0 && cc.Kind == nil {
			continue // did not resolve (WF119)
		}
		ct.Cases = append(ct.Cases, cc)
	}
	return ct
}

// reach works out which states a run can be in, when that is knowable:
// the workflow parsed, its initial state resolved and is not terminal, and
// every goto resolved. A duplicate state (WF101) stays ReachUnknown.
func (wb *wfBuilder) reach() {
	w := wb.w
	if w.Decl.Bad || w.Initial == nil || w.Initial.Kind != ast.Normal {
		return
	}
	for _, g := range wb.gotos {
		if g.To == nil && g.From.Kind == ast.Normal {
			return // a terminal state's gotos are WF116's, and go nowhere
		}
	}
	w.ReachKnown = true
	w.Initial.Reach = Reachable
	queue := []*State{w.Initial}
	for len(queue) > 0 {
		s := queue[0]
		queue = queue[1:]
		if s.Kind != ast.Normal {
			continue
		}
		for _, g := range s.Transitions {
			if g.To.Reach != Reachable {
				g.To.Reach = Reachable
				queue = append(queue, g.To)
			}
		}
	}
	for _, s := range w.States {
		if s.Reach != Reachable && s.named {
			s.Reach = Unreachable
		}
	}
}
