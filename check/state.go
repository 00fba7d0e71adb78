package check

import (
	"fmt"
	"strings"

	"github.com/wfc-lang/wfc/ast"
	"github.com/wfc-lang/wfc/diag"
)

// stCtx is the per-state state of the walk.
type stCtx struct {
	wc      *wfCtx
	st      *ast.State
	targets []*ast.Ident // every goto target in the state, resolved or not
	opaque  bool         // something in the state failed to parse
}

func (c *checker) state(wc *wfCtx, s *ast.State) {
	sc := &stCtx{wc: wc, st: s, opaque: s.Bad}
	settings := c.newScope("setting")
	for _, set := range s.Settings {
		if !settings.declare(set.Name) {
			continue
		}
		if set.Name.Name != "Message" {
			c.errorf(set.Name.Range, "WF107", "unknown state setting `%s`: a state takes no settings, except `Message = \"…\";` on a `terminal error` state", set.Name.Name)
			continue
		}
		if s.Kind != ast.TerminalError {
			c.errorf(set.Name.Range, "WF107", "`Message` belongs on a `terminal error` state; `%s` is not one: write `terminal error %s { Message = \"…\"; }` or drop the setting", s.Name.Name, s.Name.Name)
			continue
		}
		if set.Value != nil && !ast.HasBad(set.Value) && kindOfExpr(set.Value) != kString {
			c.errorf(set.Value.Rng(), "WF107", "`Message` takes a string: write `Message = \"…\";`")
		}
	}
	if s.Kind != ast.Normal {
		for _, sub := range s.Subscribes {
			c.errorf(sub.Range, "WF116", "terminal state `%s` subscribes to `%s`: a run that reaches a terminal state has ended and waits for nothing; move the subscription to a non-terminal state", s.Name.Name, sub.Event.Name)
		}
		for _, h := range s.Handlers {
			c.errorf(h.Range, "WF116", "terminal state `%s` handles `%s`: a run that reaches a terminal state has ended; move the handler to a non-terminal state", s.Name.Name, h.Name.Name)
		}
		wc.stateTargets(s, nil)
		return
	}
	// Subscriptions: slots of this state.
	slots := map[string]*ast.Subscribe{}
	slotScope := c.newScope("subscription")
	unknownEvent := false // a WF104 here may be what a handler meant
	for _, sub := range s.Subscribes {
		ev, known := wc.events[sub.Event.Name]
		if !known {
			unknownEvent = true
		}
		if !known && !wc.w.Bad {
			c.errorf(sub.Event.Range, "WF104", "`subscribe %s`: workflow `%s` declares no event `%s`%s", sub.Event.Name, wc.w.Name.Name, sub.Event.Name, c.suggestEvent(sub.Event, wc))
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
	handled := map[string]bool{}
	handlerScope := c.newScope("handler for")
	for _, h := range s.Handlers {
		handlerScope.declare(h.Name)
		handled[h.Name.Name] = true
		if h.Bad {
			sc.opaque = true
		}
		sub, ok := slots[h.Name.Name]
		if !ok {
			if !s.Bad && !unknownEvent {
				var names []string
				for k := range slots {
					names = append(names, k)
				}
				hint := c.didYouMean(h.Name.Range, h.Name.Name, names)
				if hint == "" && len(names) > 0 {
					hint = "; this state subscribes " + quoteList(keys(slots))
				} else if hint == "" {
					hint = fmt.Sprintf("; subscribe it first: `subscribe %s(…);`", h.Name.Name)
				}
				c.errorf(h.Name.Range, "WF105", "`on %s`: state `%s` has no subscription named `%s`%s", h.Name.Name, s.Name.Name, h.Name.Name, hint)
			}
			c.handlerBody(sc, h, nil)
			continue
		}
		ev := wc.events[sub.Event.Name]
		if h.Params != nil && ev != nil {
			c.paramsMatch(h.Params, ev, fmt.Sprintf("handler `on %s`", h.Name.Name))
		}
		c.handlerBody(sc, h, ev)
	}
	for _, sub := range s.Subscribes {
		_, known := wc.events[sub.Event.Name]
		if !known || sub.Bad || s.Bad || len(sub.Milestones) > 0 || handled[sub.Slot().Name] {
			continue
		}
		c.warnf(sub.Event.Range, "WF203", "subscription to `%s` has no handler and no milestone: nothing happens when it arrives; add `on %s { … }`", sub.Event.Name, sub.Slot().Name)
	}
	if len(sc.targets) == 0 && !sc.opaque && wc.states[s.Name.Name] == s {
		c.warnf(s.Name.Range, "WF204", "state `%s` has no way out: no handler or outcome in it says `goto`, so a run that enters it stays for ever; add a `goto` or make it `terminal`", s.Name.Name)
	}
	wc.stateTargets(s, sc.targets)
}

func (c *checker) suggestEvent(id *ast.Ident, wc *wfCtx) string {
	if h := c.didYouMean(id.Range, id.Name, keys(wc.events)); h != "" {
		return h
	}
	return fmt.Sprintf("; declare it with `event %s(…);`", id.Name)
}

// stateTargets records the goto targets of a state for reachability.
func (wc *wfCtx) stateTargets(s *ast.State, targets []*ast.Ident) {
	if wc.edges == nil {
		wc.edges = map[*ast.State][]*ast.Ident{}
	}
	wc.edges[s] = targets
}

// blockCtx says what a block may contain.
type blockCtx struct {
	sc        *stCtx
	enum      *ast.Enum // the enum of the handler's parameter, if any
	enumParam string    // that parameter's name
	inStep    bool
	where     string // "handler `on X`", "outcome `Exhausted`", …
}

func (c *checker) handlerBody(sc *stCtx, h *ast.Handler, ev *ast.Event) {
	if h.Body == nil {
		return
	}
	bc := &blockCtx{sc: sc, where: fmt.Sprintf("handler `on %s`", h.Name.Name)}
	params := h.Params
	if params == nil && ev != nil {
		params = ev.Params
	}
	if params != nil {
		for _, p := range params.List {
			if e := c.enumOf(p.Type); e != nil {
				bc.enum, bc.enumParam = e, p.Name.Name
				break
			}
		}
	}
	cases := c.block(bc, h.Body)
	if bc.enum != nil && !bc.enum.Bad && len(cases.labels) > 0 && !cases.hasDefault && !h.Body.Bad {
		var missing []string
		for _, m := range bc.enum.Members {
			if !cases.labels[m.Name] {
				missing = append(missing, m.Name)
			}
		}
		if len(missing) > 0 {
			c.warnf(h.Name.Range, "WF206", "`on %s` has no case for %s of `%s` and no `default`: a run stays put when `%s` is %s; add %s or `default { … }`",
				h.Name.Name, quoteList(missing), bc.enum.Name.Name, bc.enumParam, orList(missing), caseList(missing))
		}
	}
}

func orList(xs []string) string {
	q := quoteList(xs)
	if i := strings.LastIndex(q, " and "); i >= 0 {
		q = q[:i] + " or " + q[i+5:]
	}
	return q
}

func caseList(xs []string) string {
	var out []string
	for _, x := range xs {
		out = append(out, "`"+x+" { … }`")
	}
	return strings.Join(out, ", ")
}

// caseInfo is what a block's cases covered.
type caseInfo struct {
	labels     map[string]bool
	hasDefault bool
}

// block checks statements; it returns the case labels at this level.
func (c *checker) block(bc *blockCtx, b *ast.Block) caseInfo {
	info := caseInfo{labels: map[string]bool{}}
	if b == nil {
		return info
	}
	if b.Bad {
		bc.sc.opaque = true
	}
	var firstDefault *ast.Default
	caseScope := c.newScope("case")
	var afterGoto *ast.Goto
	reported := false
	for i, st := range b.Stmts {
		if afterGoto != nil && !reported {
			reported = true
			last := b.Stmts[len(b.Stmts)-1]
			d := c.warnf(st.Rng(), "WF202", "this statement never runs: it comes after `goto %s;`, which leaves the state; remove it or move it before the `goto`", afterGoto.Target.Name)
			d.Fixes = append(d.Fixes, diag.Fix{Title: fmt.Sprintf("remove the %s after `goto %s;`", stmtCount(len(b.Stmts)-i), afterGoto.Target.Name), MachineApplicable: true,
				Edits: []diag.Edit{{File: c.file.Name, Range: diag.Range{Start: afterGoto.Range.End, End: last.Rng().End}, NewText: ""}}})
		}
		switch st := st.(type) {
		case *ast.Goto:
			if st.Target == nil {
				continue
			}
			bc.sc.targets = append(bc.sc.targets, st.Target)
			c.resolveState(bc.sc.wc, st.Target)
			if bc.inStep {
				c.errorf(st.Range, "WF118", "`goto` inside a durable step: a step's body runs external calls only; move `goto %s;` after the step", st.Target.Name)
			}
			if afterGoto == nil {
				afterGoto = st
			}
		case *ast.Default:
			kw := keywordRange(st.Range, "default")
			switch {
			case bc.enum == nil && bc.enumParam == "" && !strings.HasPrefix(bc.where, "handler"):
				c.errorf(kw, "WF109", "`default` in %s: cases and `default` belong in a handler whose parameter is an enum", bc.where)
			case firstDefault != nil:
				d := c.errorf(kw, "WF109", "a second `default` in %s: only one can catch the rest; merge them", bc.where)
				c.related(d, keywordRange(firstDefault.Range, "default"), "first `default` here")
			default:
				firstDefault = st
				info.hasDefault = true
			}
			c.block(bc, st.Body)
		case *ast.Case:
			c.caseLabel(bc, st.Label, caseScope)
			info.labels[st.Label.Name] = true
			c.block(bc, st.Body)
		case *ast.CallStmt:
			c.callStmt(bc, st)
		}
	}
	return info
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

func (c *checker) caseLabel(bc *blockCtx, label *ast.Ident, sc *scope) {
	if bc.enum == nil {
		c.errorf(label.Range, "WF109", "case `%s` in %s, which has no enum parameter to match: cases go in a handler such as `on Done(Decision d) { %s { … } }`", label.Name, bc.where, label.Name)
		return
	}
	if !sc.declare(label) {
		return
	}
	if bc.enum.Bad {
		return
	}
	for _, m := range bc.enum.Members {
		if m.Name == label.Name {
			return
		}
	}
	var names []string
	for _, m := range bc.enum.Members {
		names = append(names, m.Name)
	}
	hint := c.didYouMean(label.Range, label.Name, names)
	if hint == "" {
		hint = "; its members are " + quoteList(names)
	}
	c.errorf(label.Range, "WF109", "case `%s` is not a member of `%s`, the type of `%s`%s", label.Name, bc.enum.Name.Name, bc.enumParam, hint)
}

// callStmt checks a call statement; a call with a body is a durable step.
func (c *checker) callStmt(bc *blockCtx, st *ast.CallStmt) {
	name, _ := ast.DottedName(st.Call.Fun)
	if st.Body == nil {
		if name == "Workflow.Once" {
			c.errorf(st.Call.Range, "WF118", "`Workflow.Once` is a durable step and needs a body: write `Workflow.Once(\"name\") { … }`")
		}
		return
	}
	if name != "Workflow.Once" {
		shown := name
		if shown == "" {
			shown = ast.Compact(c.file.Text(st.Call.Fun.Rng()))
		}
		c.errorf(st.Call.Fun.Rng(), "WF118", "unknown step `%s`: the only durable step is `Workflow.Once(\"name\", retry: policy) { … }`", shown)
		c.block(&blockCtx{sc: bc.sc, inStep: true, where: "a step"}, st.Body)
		return
	}
	if bc.inStep {
		c.errorf(st.Call.Range, "WF118", "a durable step inside a durable step: steps do not nest; move this `Workflow.Once` out of the enclosing step")
	}
	cons := &Consumer{
		File: c.file.Name, Src: c.file, Pos: st.Call.Range.Start, Workflow: bc.sc.wc.w.Name.Name, State: bc.sc.st.Name.Name,
		Step: true, Kind: "Workflow.Once", Attempts: 1, Budget: "none", Valid: true,
	}
	var nameArg *ast.Arg
	var retry *ast.Arg
	for i, a := range st.Call.Args {
		switch {
		case i == 0 && a.Label == nil:
			nameArg = a
		case a.Label != nil && a.Label.Name == "retry" && retry == nil:
			retry = a
		case a.Label != nil && a.Label.Name == "retry":
			d := c.errorf(a.Label.Range, "WF101", "duplicate argument `retry:`")
			c.related(d, retry.Label.Range, "first given here")
		case a.Label != nil:
			c.errorf(a.Label.Range, "WF118", "unknown argument `%s:`: `Workflow.Once` takes a name and `retry:`%s", a.Label.Name, c.didYouMean(a.Label.Range, a.Label.Name, []string{"retry"}))
		default:
			c.errorf(a.Range, "WF118", "unexpected argument: `Workflow.Once` takes the step's name first, then `retry: policy`")
		}
	}
	if nameArg == nil {
		c.errorf(st.Call.Range, "WF118", "`Workflow.Once` needs the step's name first, a non-empty string: `Workflow.Once(\"send-invoice\", …)`")
		cons.Valid = false
	} else if !ast.HasBad(nameArg.Value) {
		lit, ok := ast.Unparen(nameArg.Value).(*ast.StringLit)
		switch {
		case !ok:
			c.errorf(nameArg.Range, "WF118", "a step's name is its durable identity, so it is a string literal: write `Workflow.Once(\"send-invoice\", …)`")
			cons.Valid = false
		case strings.TrimSpace(lit.Value) == "":
			c.errorf(nameArg.Range, "WF118", "a step's name is its durable identity (its idempotency key) and cannot be empty: write a name such as `\"send-invoice\"`")
			cons.Valid = false
		default:
			cons.Name = lit.Value
			bc.sc.wc.steps.declare(&ast.Ident{Range: lit.Range, Name: lit.Value})
		}
	}
	if retry != nil {
		p := c.policy(retry.Value, "`retry:`", "WF304")
		cons.Policy = p
		switch {
		case p == nil:
			cons.Valid = false
		case p.Max == nil:
			c.stepUnbounded(p)
			cons.Valid = false
		default:
			cons.Attempts, cons.Budget = p.MaxAttempts, "MaxAttempts"
			cons.Valid = cons.Valid && p.Valid
		}
	}
	c.res.Consumers = append(c.res.Consumers, cons)
	c.block(&blockCtx{sc: bc.sc, inStep: true, where: "a step"}, st.Body)
}

// stepUnbounded reports WF302 with its fix.
func (c *checker) stepUnbounded(p *Policy) {
	r := p.Expr.Rng()
	text := c.file.Text(r)
	d := c.errorf(r, "WF302", "this step's `retry:` policy has no `.MaxAttempts(…)`: nothing else bounds a step, so it would retry for ever; append `.MaxAttempts(n)`, the attempts in total (`.MaxAttempts(3)`: the first try and 2 retries)")
	fix := diag.Fix{Title: "append `.MaxAttempts(3)` (3 attempts: the first try and 2 retries)"}
	if p.Bare {
		fix.Edits = []diag.Edit{{File: c.file.Name, Range: r, NewText: "Backoff.Fixed(" + text + ").MaxAttempts(3)"}}
	} else {
		fix.Edits = []diag.Edit{{File: c.file.Name, Range: diag.Range{Start: r.End, End: r.End}, NewText: ".MaxAttempts(3)"}}
	}
	d.Fixes = append(d.Fixes, fix)
}
