package check

import (
	"fmt"
	"slices"
	"strings"

	"github.com/wfc-lang/wfc/ast"
	"github.com/wfc-lang/wfc/check/vocab"
	"github.com/wfc-lang/wfc/diag"
)

// stCtx is the per-state state of the walk.
type stCtx struct {
	wc      *wfCtx
	st      *ast.State
	targets []*ast.Ident // every goto target in the state, resolved or not
	opaque  bool         // something in the state failed to parse
	// meantSlots are the subscriptions a WF105 names as meant: a misspelled
	// handler answers them, so WF203 does not also report them.
	meantSlots map[string]bool
	// meantSubs is, for a handler a WF105 says is meant for a subscription
	// (misspelled, or naming the event of an aliased one), that
	// subscription: the handler's cases match its event's enum.
	meantSubs map[*ast.Handler]*ast.Subscribe
}

// meant records that handler h (reported by WF105) answers sub.
func (sc *stCtx) meant(h *ast.Handler, sub *ast.Subscribe) {
	if sc.meantSlots == nil {
		sc.meantSlots, sc.meantSubs = map[string]bool{}, map[*ast.Handler]*ast.Subscribe{}
	}
	sc.meantSlots[sub.Slot().Name] = true
	if h != nil {
		sc.meantSubs[h] = sub
	}
}

// state checks a state: its settings, its subscriptions (with their
// milestones) and its handlers; it records the state's goto targets.
func (c *checker) state(wc *wfCtx, s *ast.State) {
	sc := &stCtx{wc: wc, st: s, opaque: s.Bad}
	if c.stFacts[s] == nil {
		c.stFacts[s] = sc
	}
	c.stateSettings(s)
	if s.Kind != ast.Normal {
		wc.stateTargets(s, nil) // what it waits for is WF116 (terminalWaits)
		c.terminalRefs(wc, s)
		return
	}
	slots, explains := c.subscriptions(sc)
	c.handlers(sc, slots, explains)
	wc.stateTargets(s, sc.targets)
}

// stateSettings: a state takes only `Message`, on a `terminal error` state.
func (c *checker) stateSettings(s *ast.State) {
	settings := c.newScope("setting")
	for _, set := range s.Settings {
		if !settings.declare(set.Name) {
			continue
		}
		if set.Name.Name != "Message" {
			c.report(set.Name.Range, diag.WF107, "unknown state setting `%s`: a state takes no settings, except `Message = \"…\";` on a `terminal error` state", set.Name.Name)
			continue
		}
		if s.Kind != ast.TerminalError {
			c.report(set.Name.Range, diag.WF107, "`Message` belongs on a `terminal error` state; `%s` is not one: write `terminal error %s { Message = \"…\"; }` or drop the setting", s.Name.Name, s.Name.Name)
			continue
		}
		if set.Value != nil && !ast.HasBad(set.Value) && kindOfExpr(set.Value) != kString {
			c.report(set.Value.Rng(), diag.WF107, "`Message` takes a string: write `Message = \"…\";`")
		}
	}
}

// subscriptions checks a state's subscriptions and their milestones. It
// returns the state's slots (alias, else event) and the handler names an
// undeclared event's subscription may be meant for: its own name and the
// declared event it is close to.
func (c *checker) subscriptions(sc *stCtx) (slots map[string]*ast.Subscribe, explains []string) {
	wc, s := sc.wc, sc.st
	slots = map[string]*ast.Subscribe{}
	slotScope := c.newScope("subscription")
	for _, sub := range s.Subscribes {
		ev, known := wc.events.get(sub.Event.Name)
		if !known {
			explains = append(explains, c.undeclaredEvent(wc, s, sub)...)
		} else {
			wc.resolved(sub, ref{event: ev})
		}
		if known && sub.Params != nil {
			c.paramsMatch(sub.Params, ev, "this subscription")
		}
		if sub.Alias != nil {
			wc.aliases.declare(sub.Alias)
		}
		slot := sub.Slot()
		if slotScope.declare(slot) {
			slots[slot.Name] = sub
		}
		kinds := c.newScope("milestone")
		for _, m := range sub.Milestones {
			kinds.declare(m.Kind)
			c.milestone(sc, sub, m)
		}
		if sub.Bad {
			sc.opaque = true
		}
	}
	return slots, explains
}

// undeclaredEvent reports WF104 for `subscribe X` of an undeclared X (unless
// a declaration may be in what failed to parse), with the rename to the
// event it is close to; it returns the handler names it explains.
func (c *checker) undeclaredEvent(wc *wfCtx, s *ast.State, sub *ast.Subscribe) []string {
	h := c.suggest(sub.Event.Range, sub.Event.Name, wc.eventNames())
	if !wc.eventsUncertain {
		msg := h.String()
		if h.best == "" {
			msg = fmt.Sprintf("; declare it with `event %s(…);`", sub.Event.Name)
		}
		d := c.report(sub.Event.Range, diag.WF104, "`subscribe %s`: workflow `%s` declares no event `%s`%s", sub.Event.Name, wc.w.Name.Name, sub.Event.Name, msg)
		if h.best != "" {
			d.Fixes = append(d.Fixes, c.renameSubscribed(s, sub, h.best))
		}
	}
	if h.best == "" {
		return []string{sub.Event.Name}
	}
	return []string{sub.Event.Name, h.best}
}

// handlers checks a state's handlers: each answers a subscription of the
// state (WF105, unless an undeclared event's subscription explains it), with
// matching parameters, and its body.
func (c *checker) handlers(sc *stCtx, slots map[string]*ast.Subscribe, explains []string) {
	wc, s := sc.wc, sc.st
	var explainSet, slotSet *nameSet // prepared at the first unknown handler
	var aliases *aliasIndex
	handlerScope := c.newScope("handler for")
	for _, h := range s.Handlers {
		handlerScope.declare(h.Name)
		if h.Bad {
			sc.opaque = true
		}
		sub, ok := slots[h.Name.Name]
		if !ok {
			if explainSet == nil {
				explainSet, slotSet = newNameSet(explains), newNameSet(keys(slots))
				aliases = newAliasIndex(s, slots)
			}
			if s.Bad || slices.Contains(explainSet.Names(), h.Name.Name) || explainSet.Closest(h.Name.Name) != "" {
				c.orphanBody(sc, h)
				continue
			}
			if sub = c.aliasedHandler(sc, h, aliases, slotSet); sub == nil {
				meant := c.unsubscribedHandler(s, h, slotSet)
				if meant == "" {
					c.orphanBody(sc, h)
					continue
				}
				sub = slots[meant]
			}
			sc.meant(h, sub)
		}
		ev := wc.refOf(sub).event
		if h.Params != nil && ev != nil {
			c.paramsMatch(h.Params, ev, fmt.Sprintf("handler `on %s`", h.Name.Name))
		}
		c.handlerBody(sc, h, sub, ev)
	}
}

// renameSubscribed is the fix for `subscribe X` of an undeclared X close to
// event name: it renames the subscription and, when the subscription has no
// alias, the handlers that answer it, so no `on X` is left unsubscribed.
func (c *checker) renameSubscribed(s *ast.State, sub *ast.Subscribe, name string) diag.Fix {
	edits := []diag.Edit{{File: c.file.Name, Range: sub.Event.Range, NewText: name}}
	if sub.Alias == nil {
		for _, h := range s.Handlers {
			if h.Name.Name == sub.Event.Name {
				edits = append(edits, diag.Edit{File: c.file.Name, Range: h.Name.Range, NewText: name})
			}
		}
	}
	sortEdits(edits)
	return diag.Fix{Title: fmt.Sprintf("replace `%s` with `%s`", sub.Event.Name, name), Edits: edits}
}

// aliasIndex is, for a state, its aliased subscriptions that no handler
// answers yet, by event name: `on X` for such an event X means the alias.
// It is prepared once per state, at its first unanswered handler.
type aliasIndex struct {
	byEvent map[string][]*ast.Subscribe
	events  *nameSet
}

func newAliasIndex(s *ast.State, slots map[string]*ast.Subscribe) *aliasIndex {
	handled := make(map[string]bool, len(s.Handlers))
	for _, h := range s.Handlers {
		handled[h.Name.Name] = true
	}
	ix := &aliasIndex{byEvent: map[string][]*ast.Subscribe{}}
	for _, sub := range s.Subscribes {
		if sub.Alias != nil && slots[sub.Alias.Name] == sub && !handled[sub.Alias.Name] {
			ix.byEvent[sub.Event.Name] = append(ix.byEvent[sub.Event.Name], sub)
		}
	}
	ix.events = newNameSet(keys(ix.byEvent))
	return ix
}

// aliasedHandler reports WF105 for `on X` where X is (or, when no slot of
// the state is close to X, is close to) the event of an aliased
// subscription no handler answers (`subscribe X() as Y; on X`): the handler
// is meant to be `on Y`, the one answer, with its fix. It returns that
// subscription, or nil when there is none or several (which is meant is
// then unknowable).
func (c *checker) aliasedHandler(sc *stCtx, h *ast.Handler, ix *aliasIndex, slots *nameSet) *ast.Subscribe {
	event := h.Name.Name
	if len(ix.byEvent[event]) == 0 && slots.Closest(event) == "" {
		event = ix.events.Closest(event)
	}
	subs := ix.byEvent[event]
	if len(subs) != 1 {
		return nil
	}
	meant := subs[0]
	alias := meant.Alias.Name
	d := c.report(h.Name.Range, diag.WF105, "`on %s`: state `%s` subscribes `%s` with the alias `%s`, so its handler is `on %s`", h.Name.Name, sc.st.Name.Name, event, alias, alias)
	c.related(d, meant.Alias.Range, "the alias")
	d.Fixes = append(d.Fixes, diag.Fix{Title: fmt.Sprintf("replace `%s` with `%s`", h.Name.Name, alias),
		Edits: []diag.Edit{{File: c.file.Name, Range: h.Name.Range, NewText: alias}}})
	return meant
}

// unsubscribedHandler reports WF105 for `on X` when no subscription of the
// state is named X.
// It returns the subscription it suggests, if any.
func (c *checker) unsubscribedHandler(s *ast.State, h *ast.Handler, slots *nameSet) (meant string) {
	names := slots.Names()
	hn := c.suggest(h.Name.Range, h.Name.Name, slots)
	msg := hn.String()
	switch {
	case hn.best != "":
	case len(names) > 0:
		msg = "; this state subscribes " + quoteList(names)
	default:
		msg = fmt.Sprintf("; subscribe it first: `subscribe %s(…);`", h.Name.Name)
	}
	attach(c.report(h.Name.Range, diag.WF105, "`on %s`: state `%s` has no subscription named `%s`%s", h.Name.Name, s.Name.Name, h.Name.Name, msg), hn)
	return hn.best
}

// stateTargets records the goto targets of a state for reachability.
func (wc *wfCtx) stateTargets(s *ast.State, targets []*ast.Ident) {
	if len(targets) > 0 {
		wc.edges = append(wc.edges, stateEdges{s, targets})
	}
}

// stateEdges are a state's goto targets.
type stateEdges struct {
	state   *ast.State
	targets []*ast.Ident
}

// blockCtx says what a block may contain.
type blockCtx struct {
	sc        *stCtx
	enum      *ast.Enum // the enum of the handler's parameter, if any
	enumParam string    // that parameter's name
	// params are the handler's parameters in scope (handlerParams), which
	// a call's arguments may name; nil outside a handler.
	params  *ast.Params
	inStep  bool
	handler bool   // the body of `on X`, where `default` may stand
	where   string // for messages: "handler `on X`", "outcome `Exhausted`", …
	// typeUnknown: a parameter's type is unknown or declared twice (WF102,
	// WF101 say so), so whether cases fit cannot be known.
	typeUnknown bool
	hasDefault  bool // the block being checked has a `default`
}

// hasDefault reports whether block b has a `default`.
func hasDefault(b *ast.Block) bool {
	return slices.ContainsFunc(b.Stmts, func(st ast.Stmt) bool { _, ok := st.(*ast.Default); return ok })
}

// capitalDefault reports whether a case label that is no member of its
// enum is `default` with the wrong case (`Default { … }`) in a handler's
// block without a `default`: then the user wrote a default, and WF109 says
// so alone (WF206 counts it as the default).
func capitalDefault(label string, inHandler, blockHasDefault bool) bool {
	return inHandler && !blockHasDefault && label != "default" && strings.EqualFold(label, "default")
}

// handlerBody checks the body of handler h, which answers subscription sub
// (of event ev, nil when undeclared), and records what h resolved to.
func (c *checker) handlerBody(sc *stCtx, h *ast.Handler, sub *ast.Subscribe, ev *ast.Event) {
	bc := &blockCtx{sc: sc, handler: true, where: fmt.Sprintf("handler `on %s`", h.Name.Name), params: handlerParams(h, ev)}
	var p *ast.Param
	bc.enum, p, bc.typeUnknown = c.paramEnum(h, ev)
	if p != nil {
		bc.enumParam = p.Name.Name
	}
	sc.wc.resolved(h, ref{sub: sub, enum: bc.enum, param: p})
	if h.Body != nil {
		c.block(bc, h.Body)
	}
}

// orphanBody checks the body of a handler that answers no subscription of
// its state (WF105 or WF104 says why). Without parameters of its own, the
// enum its cases match is unknowable, so its case labels are not checked.
func (c *checker) orphanBody(sc *stCtx, h *ast.Handler) {
	bc := &blockCtx{sc: sc, handler: true, where: fmt.Sprintf("handler `on %s`", h.Name.Name), params: h.Params}
	var p *ast.Param
	bc.enum, p, bc.typeUnknown = c.paramEnum(h, nil)
	if p != nil {
		bc.enumParam = p.Name.Name
	}
	sc.wc.resolved(h, ref{enum: bc.enum, param: p})
	bc.typeUnknown = bc.typeUnknown || h.Params == nil
	if h.Body != nil {
		c.block(bc, h.Body)
	}
}

// paramEnum finds the enum a handler's cases match: the type of its first
// enum parameter (written on the handler, else on the event), and that
// parameter. unknown is true when a parameter before it has a type unknown
// or declared twice.
func (c *checker) paramEnum(h *ast.Handler, ev *ast.Event) (e *ast.Enum, param *ast.Param, unknown bool) {
	params := handlerParams(h, ev)
	if params == nil {
		return nil, nil, false
	}
	for _, p := range params.List {
		if !c.typeKnown(p.Type) {
			return nil, nil, true // it may be the enum meant
		}
		if en := c.enumOf(p.Type); en != nil {
			return en, p, false
		}
	}
	return nil, nil, false
}

// handlerEnum is the enum handler h's cases match and the name of its
// parameter of that type, as the resolver found them (handlerBody).
func (c *checker) handlerEnum(wc *wfCtx, h *ast.Handler) (*ast.Enum, string) {
	r := wc.refOf(h)
	if r.enum == nil || r.param == nil || r.param.Name == nil {
		return nil, ""
	}
	return r.enum, r.param.Name.Name
}

func orList(xs []string) string { return joinList(xs, "or") }

func caseList(xs []string) string {
	var out []string
	for i, x := range xs {
		if i == listedNames {
			out = append(out, "…")
			break
		}
		out = append(out, "`"+x+" { … }`")
	}
	return strings.Join(out, ", ")
}

// block checks the statements of a block.
func (c *checker) block(bc *blockCtx, b *ast.Block) {
	if b == nil {
		return
	}
	if b.Bad {
		bc.sc.opaque = true
	}
	var firstDefault *ast.Default
	caseScope := c.newScope("case")
	outer := bc.hasDefault
	bc.hasDefault = hasDefault(b)
	defer func() { bc.hasDefault = outer }() // nested blocks share bc
	for _, st := range b.Stmts {
		switch st := st.(type) {
		case *ast.Goto:
			if st.Target == nil {
				continue
			}
			bc.sc.targets = append(bc.sc.targets, st.Target)
			if to := c.resolveState(bc.sc.wc, st.Target); to != nil {
				bc.sc.wc.resolved(st, ref{state: to})
			}
			if bc.inStep {
				c.report(st.Range, diag.WF118, "`goto` inside a durable step: a step's body runs external calls only; move `goto %s;` after the step", st.Target.Name)
			}
		case *ast.Default:
			kw := keywordRange(st.Range, "default")
			switch {
			case !bc.handler:
				c.report(kw, diag.WF109, "`default` in %s: cases and `default` belong in a handler whose parameter is an enum", bc.where)
			case firstDefault != nil:
				d := c.report(kw, diag.WF109, "a second `default` in %s: only one can catch the rest; merge them", bc.where)
				c.related(d, keywordRange(firstDefault.Range, "default"), "first `default` here")
			default:
				firstDefault = st
			}
			c.block(bc, st.Body)
		case *ast.Case:
			c.caseLabel(bc, st, &caseScope)
			c.block(bc, st.Body)
		case *ast.CallStmt:
			c.callStmt(bc, st)
		}
	}
}

func stmtCount(n int) string {
	if n == 1 {
		return "statement"
	}
	return fmt.Sprintf("%d statements", n)
}

// keywordRange is the range of the keyword that starts r.
func keywordRange(r diag.Range, kw string) diag.Range {
	end := r.Start
	end.Offset += int32(len(kw))
	end.Column += int32(len(kw))
	return diag.Range{Start: r.Start, End: end}
}

// caseLabel checks a case label (WF109) and records the member it names.
// A label close to a member is told so; the rule casesMissingMembers
// counts it as that member.
func (c *checker) caseLabel(bc *blockCtx, cs *ast.Case, sc *scope) {
	label := cs.Label
	if bc.typeUnknown {
		return
	}
	if bc.enum == nil {
		c.report(label.Range, diag.WF109, "case `%s` in %s, which has no enum parameter to match: cases go in a handler such as `on Done(Decision d) { %s { … } }`", label.Name, bc.where, label.Name)
		return
	}
	m := c.model.enumOf(bc.enum).member(label.Name)
	if m != nil {
		bc.sc.wc.resolved(cs, ref{member: m})
	}
	if !sc.declare(label) {
		return
	}
	if bc.enum.Bad || m != nil {
		return
	}
	set := c.memberSet(bc.enum)
	if capitalDefault(label.Name, bc.handler, bc.hasDefault) {
		d := c.report(label.Range, diag.WF109, "case `%s` is not a member of `%s`, the type of `%s`; did you mean `default`? (keywords are lower-case)", label.Name, bc.enum.Name.Name, bc.enumParam)
		d.Fixes = append(d.Fixes, diag.Fix{Title: fmt.Sprintf("replace `%s` with `default`", label.Name),
			Edits: []diag.Edit{{File: c.file.Name, Range: label.Range, NewText: "default"}}})
		return
	}
	h := c.suggest(label.Range, label.Name, set)
	msg := h.String()
	if h.best == "" {
		msg = "; its members are " + quoteList(set.Names())
	}
	attach(c.report(label.Range, diag.WF109, "case `%s` is not a member of `%s`, the type of `%s`%s", label.Name, bc.enum.Name.Name, bc.enumParam, msg), h)
}

// callStmt checks a call statement; a call with a body is a durable step.
func (c *checker) callStmt(bc *blockCtx, st *ast.CallStmt) {
	name, _ := ast.DottedName(st.Call.Fun)
	if st.Body == nil {
		c.callArgs(bc.sc.wc, st.Call, bc.params)
		if name == "Workflow.Once" {
			c.report(st.Call.Range, diag.WF118, "`Workflow.Once` is a durable step and needs a body: write `Workflow.Once(\"name\") { … }`")
		}
		return
	}
	if name != "Workflow.Once" {
		shown := name
		if shown == "" {
			shown = ast.Compact(c.file.Text(st.Call.Fun.Rng()))
		}
		c.report(st.Call.Fun.Rng(), diag.WF118, "unknown step `%s`: the only durable step is `Workflow.Once(\"name\", retry: policy) { … }`", shown)
		c.block(&blockCtx{sc: bc.sc, inStep: true, where: "a step", params: bc.params}, st.Body)
		if st.Catch != nil {
			for _, cc := range st.Catch.Cases {
				c.block(bc, cc.Body)
			}
		}
		return
	}
	if bc.inStep {
		c.report(st.Call.Range, diag.WF118, "a durable step inside a durable step: steps do not nest; move this `Workflow.Once` out of the enclosing step")
	}
	cons := &Consumer{
		Src: c.file, Pos: st.Call.Range.Start,
		Kind: KindStep, Attempts: 1, Budget: BudgetNone, Valid: true,
	}
	var nameArg *ast.Arg
	named := map[string]*ast.Arg{}
	for i, a := range st.Call.Args {
		switch {
		case i == 0 && a.Label == nil:
			nameArg = a
		case a.Label != nil && vocab.StepArgNamed(a.Label.Name) != nil && named[a.Label.Name] == nil:
			named[a.Label.Name] = a
			c.word(a.Label, vocab.KindStepArg)
		case a.Label != nil && vocab.StepArgNamed(a.Label.Name) != nil:
			d := c.report(a.Label.Range, diag.WF101, "duplicate argument `%s:`", a.Label.Name)
			c.related(d, named[a.Label.Name].Label.Range, "first given here")
		case a.Label != nil:
			c.report(a.Label.Range, diag.WF118, "unknown argument `%s:`: `Workflow.Once` takes a name, %s%s", a.Label.Name, stepArgList(), c.didYouMean(a.Label.Range, a.Label.Name, vocab.StepArgNames()))
		default:
			c.report(a.Range, diag.WF118, "unexpected argument: `Workflow.Once` takes the step's name first, then %s", stepArgList())
		}
	}
	retry := named["retry"]
	cons.step.timeout, _ = c.stepBound(named["timeout"])
	cons.step.deadline, cons.step.hasDeadline = c.stepBound(named["deadline"])
	if nameArg == nil {
		c.report(st.Call.Range, diag.WF118, "`Workflow.Once` needs the step's name first, a non-empty string: `Workflow.Once(\"send-invoice\", …)`")
		cons.Valid = false
	} else if !ast.HasBad(nameArg.Value) {
		lit, ok := ast.Unparen(nameArg.Value).(*ast.StringLit)
		switch {
		case !ok:
			c.report(nameArg.Range, diag.WF118, "a step's name is its durable identity, so it is a string literal: write `Workflow.Once(\"send-invoice\", …)`")
			cons.Valid = false
		case strings.TrimSpace(lit.Value) == "":
			c.report(nameArg.Range, diag.WF118, "a step's name is its durable identity (its idempotency key) and cannot be empty: write a name such as `\"send-invoice\"`")
			cons.Valid = false
		default:
			cons.stepName = lit.Value
			bc.sc.wc.steps.declare(&ast.Ident{Range: lit.Range, Name: lit.Value})
		}
	}
	if retry != nil {
		p := c.policy(retry.Value, retryArg)
		cons.Policy = p
		switch {
		case p == nil:
			cons.Valid = false
		case p.Max == nil && cons.step.hasDeadline && p.Valid && (p.Interval == 0 || p.HasCap() && p.Cap == 0):
			// Zero waits: every attempt starts at once, and the deadline
			// never comes between them.
			r := p.Expr.Rng()
			d := c.report(r, diag.WF302, "this step's `retry:` policy has no `.MaxAttempts(…)`, and its waits are zero, so its `deadline:` bounds nothing: every attempt would start at once, for ever; append `.MaxAttempts(n)`, the attempts in total")
			d.Fixes = append(d.Fixes, diag.Fix{Title: "append `.MaxAttempts(3)` (3 attempts: the first try and 2 retries)",
				Edits: []diag.Edit{{File: c.file.Name, Range: diag.Range{Start: r.End, End: r.End}, NewText: ".MaxAttempts(3)"}}})
			cons.Valid = false
		case p.Max == nil && cons.step.hasDeadline:
			// Bounded by its deadline alone: as many attempts as start
			// before it (docs/language.md, "Durable steps").
			cons.Attempts, cons.Budget = 1, BudgetDeadline
			cons.Valid = cons.Valid && p.Valid
		case p.Max == nil:
			if !p.unknownMember { // an unknown member may be the budget (`.Retries(2)`)
				c.stepUnbounded(p)
			}
			cons.Valid = false
		default:
			cons.Attempts, cons.Budget = p.MaxAttempts, BudgetMaxAttempts
			if p.MaxAttempts == 1 {
				c.oneAttempt(p)
			}
			cons.Valid = cons.Valid && p.Valid
		}
	}
	cons.Lintable = cons.Policy != nil && cons.Policy.Valid && (cons.Policy.Max != nil || cons.Budget == BudgetDeadline)
	c.res.Consumers = append(c.res.Consumers, cons)
	c.consumerAt[st] = cons
	c.block(&blockCtx{sc: bc.sc, inStep: true, where: "a step", params: bc.params}, st.Body)
	c.catchCases(bc, st, cons)
}

// stepArgList names the labelled arguments of a step: "`retry:`,
// `timeout:` and `deadline:`".
func stepArgList() string {
	var xs []string
	for _, a := range vocab.StepArgs {
		xs = append(xs, a.Name+":")
	}
	return joinList(xs, "and")
}

// stepBound evaluates a step's `timeout:` or `deadline:`, a positive
// TimeSpan (WF319 otherwise); ok is false when it is absent or bad.
func (c *checker) stepBound(a *ast.Arg) (Ticks, bool) {
	if a == nil || ast.HasBad(a.Value) {
		return 0, false
	}
	what := a.Label.Name
	if !isTimeSpanExpr(a.Value) {
		c.report(a.Value.Rng(), diag.WF319, "`%s:` takes a TimeSpan, not %s: %s", what, kindOfExpr(a.Value), c.timeSpanHint(a.Value))
		return 0, false
	}
	t, ok := c.timeSpan(a.Value)
	if !ok {
		return 0, false
	}
	if t <= 0 {
		sense := "no attempt could ever run"
		if what == "deadline" {
			sense = "the step would give up before its first attempt ended"
		}
		c.report(a.Value.Rng(), diag.WF319, "`%s:` is %s: %s; write a positive TimeSpan, such as `TimeSpan.FromSeconds(30)`", what, FormatTicks(t), sense)
		return 0, false
	}
	return t, true
}

// stepUnbounded reports WF302 with its fix.
func (c *checker) stepUnbounded(p *Policy) {
	r := p.Expr.Rng()
	text := c.file.Text(r)
	n := Count(3)
	d := c.report(r, diag.WF302, "this step's `retry:` policy has no `.MaxAttempts(…)`: nothing else bounds a step without a `deadline:`, so it would retry for ever; append `.MaxAttempts(n)`, the attempts in total (%s is %s)", n.MaxAttempts(), n.Attempts("the first try"))
	fix := diag.Fix{Title: fmt.Sprintf("append %s (%s)", n.MaxAttempts(), n.Attempts("the first try"))}
	if p.Bare {
		fix.Edits = []diag.Edit{{File: c.file.Name, Range: r, NewText: "Backoff.Fixed(" + text + ")" + n.Member()}}
	} else {
		fix.Edits = []diag.Edit{{File: c.file.Name, Range: diag.Range{Start: r.End, End: r.End}, NewText: n.Member()}}
	}
	d.Fixes = append(d.Fixes, fix)
}
