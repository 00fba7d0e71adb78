package check

import (
	"fmt"
	"slices"

	"github.com/wfc-lang/wfc/ast"
	"github.com/wfc-lang/wfc/diag"
)

// The checker runs in two passes. The first (check.go, decls.go,
// workflow.go, state.go, milestone.go, policy.go) resolves names and values:
// it reports what is wrong with them (errors about names and values, and
// the warnings about one value, such as WF306 or WF308) and records what it
// found (wfFacts, stFacts, consumers). The second is the list below: the
// checks of a program's shape (WF114–WF116, WF201–WF207), each one unit,
// named for what it checks, reading the tree and the recorded facts, and all
// run in one traversal of the tree (runRules).
//
// To add a check of the shape of a program, add its code to the
// catalogue (diag/codes.go), a rule here, and a golden case under
// testdata/cases (docs/contributing.md).

// rule is one check of the second pass.
type rule struct {
	name  string
	codes []diag.ID
	// visit is called for every node the traversal reaches (runRules),
	// with the enclosing workflow and state in w.
	visit func(c *checker, w *walk, n ast.Node)
}

// rules are the checks of the second pass, in code order.
var rules = []rule{
	{"tracked member without a state", []diag.ID{diag.WF114}, trackedMemberWithoutState},
	{"initial state is terminal", []diag.ID{diag.WF115}, initialTerminal},
	{"terminal state waits", []diag.ID{diag.WF116}, terminalWaits},
	{"unreachable state", []diag.ID{diag.WF201}, unreachableStates},
	{"statements after goto", []diag.ID{diag.WF202}, statementsAfterGoto},
	{"subscription without effect", []diag.ID{diag.WF203}, subscriptionWithoutEffect},
	{"state without way out", []diag.ID{diag.WF204}, stateWithoutWayOut},
	{"milestone without final outcome", []diag.ID{diag.WF205}, milestoneWithoutFinal},
	{"cases missing members", []diag.ID{diag.WF206}, casesMissingMembers},
	{"second principal", []diag.ID{diag.WF207}, secondPrincipal},
}

// walk is where the traversal is: the enclosing workflow and state.
type walk struct {
	c     *checker
	wf    *wfCtx     // nil outside a workflow
	state *ast.State // nil outside a state
}

// runRules runs every rule over every checked file in one traversal, in
// source order. The traversal visits the nodes the rules look at
// (declarations, states, subscriptions, milestones, outcomes, handlers,
// blocks and statements) and not the names, settings, types and
// expressions below them. It is written out rather than ast.Inspect, which
// allocates every node's children: the rules run on every check of every
// file, and must not make `wfc check` slower.
func (c *checker) runRules() {
	for _, f := range c.prog.Files {
		if f.Overwhelmed {
			continue
		}
		c.file = f
		w := &walk{c: c}
		for _, d := range f.Decls {
			if wf, ok := d.(*ast.Workflow); ok {
				w.workflow(wf)
			} else {
				w.visit(d)
			}
		}
	}
}

// visit runs every rule on n.
func (w *walk) visit(n ast.Node) {
	for _, r := range rules {
		r.visit(w.c, w, n)
	}
}

func (w *walk) workflow(wf *ast.Workflow) {
	w.wf = w.c.wfFacts[wf]
	w.visit(wf)
	for _, s := range wf.States {
		w.state = s
		w.visit(s)
		for _, sub := range s.Subscribes {
			w.visit(sub)
			for _, m := range sub.Milestones {
				w.visit(m)
				for _, o := range m.Outcomes {
					w.visit(o)
					w.block(o.Body)
				}
			}
		}
		for _, h := range s.Handlers {
			w.visit(h)
			w.block(h.Body)
		}
	}
	w.wf, w.state = nil, nil
}

func (w *walk) block(b *ast.Block) {
	if b == nil {
		return
	}
	w.visit(b)
	for _, st := range b.Stmts {
		w.visit(st)
		switch st := st.(type) {
		case *ast.Case:
			w.block(st.Body)
		case *ast.Default:
			w.block(st.Body)
		case *ast.CallStmt:
			w.block(st.Body)
		}
	}
}

// normalState is the state being walked when it is a non-terminal one the
// first pass checked (a repeated name's second declaration is not).
func (w *walk) normalState() *ast.State {
	if w.wf == nil || w.state == nil || w.state.Kind != ast.Normal || w.wf.states[w.state.Name.Name] != w.state {
		return nil
	}
	return w.state
}

// trackedMemberWithoutState: WF114, a member of the tracked enum that no
// state of the workflow is named after. Quiet when a state may be in what
// failed to parse, and for the members a WF113 names as meant.
func trackedMemberWithoutState(c *checker, w *walk, n ast.Node) {
	wf, ok := n.(*ast.Workflow)
	if !ok || w.wf == nil || w.wf.tracked == nil || w.wf.statesUncertain {
		return
	}
	e := w.wf.tracked
	for _, m := range e.Members {
		if _, ok := w.wf.states[m.Name]; ok || w.wf.meantMembers[m.Name] {
			continue
		}
		d := c.reportIn(e.File.Name, m.Range, diag.WF114, fmt.Sprintf("member `%s` of tracked enum `%s` has no state in workflow `%s`: a run can never be in it; add `state %s { … }` or remove the member", m.Name, e.Name.Name, wf.Name.Name, m.Name))
		d.Related = append(d.Related, diagRelated(c.file.Name, w.wf.tracks.Range, "tracked by workflow `"+wf.Name.Name+"` here"))
	}
}

// initialTerminal: WF115, `Initial` naming a terminal state.
func initialTerminal(c *checker, w *walk, n ast.Node) {
	if _, ok := n.(*ast.Workflow); !ok || w.wf == nil {
		return
	}
	st := w.wf.initialState
	if st == nil || st.Kind == ast.Normal {
		return
	}
	d := c.report(w.wf.initialSetting.Value.Rng(), diag.WF115, "`Initial` names terminal state `%s`: a run would end before it starts; name a non-terminal state", st.Name.Name)
	c.related(d, st.Name.Range, "declared terminal here")
}

// terminalWaits: WF116, a terminal state that subscribes or handles: a run
// there has ended.
func terminalWaits(c *checker, w *walk, n ast.Node) {
	s, ok := n.(*ast.State)
	if !ok || s.Kind == ast.Normal {
		return
	}
	for _, sub := range s.Subscribes {
		c.report(sub.Range, diag.WF116, "terminal state `%s` subscribes to `%s`: a run that reaches a terminal state has ended and waits for nothing; move the subscription to a non-terminal state", s.Name.Name, sub.Event.Name)
	}
	for _, h := range s.Handlers {
		c.report(h.Range, diag.WF116, "terminal state `%s` handles `%s`: a run that reaches a terminal state has ended; move the handler to a non-terminal state", s.Name.Name, h.Name.Name)
	}
}

// unreachableStates: WF201, states no chain of goto reaches from Initial.
// Quiet when a goto is unknown (WF103: it may be the edge) or something
// failed to parse (an edge may be there).
func unreachableStates(c *checker, w *walk, n ast.Node) {
	if _, ok := n.(*ast.Workflow); !ok || w.wf == nil || w.wf.model == nil || !w.wf.model.ReachKnown {
		return
	}
	wf := w.wf.model
	initial := wf.Initial.Decl.Name.Name
	for _, s := range wf.States {
		if s.Reach == Unreachable {
			name := s.Decl.Name.Name
			c.report(s.Decl.Name.Range, diag.WF201, "state `%s` is unreachable: no chain of `goto` leads to it from `%s`, the initial state; add `goto %s;` where a run should move to it, or remove it", name, initial, name)
		}
	}
}

// statementsAfterGoto: WF202, the statements of a block after its first
// `goto`, with the fix that removes them. Terminal states' handlers are
// WF116 already.
func statementsAfterGoto(c *checker, w *walk, n ast.Node) {
	b, ok := n.(*ast.Block)
	if !ok || w.state == nil || w.state.Kind != ast.Normal {
		return
	}
	for i, st := range b.Stmts {
		g, isGoto := st.(*ast.Goto)
		if !isGoto || g.Target == nil {
			continue
		}
		if i+1 == len(b.Stmts) {
			return
		}
		next, last := b.Stmts[i+1], b.Stmts[len(b.Stmts)-1]
		d := c.report(next.Rng(), diag.WF202, "this statement never runs: it comes after `goto %s;`, which leaves the state; remove it or move it before the `goto`", g.Target.Name)
		// Two fixes, for a person to choose: which one is right depends on
		// what the statements were meant to do, so neither is applied by
		// --fix.
		count := stmtCount(len(b.Stmts) - i - 1)
		d.Fixes = append(d.Fixes, diag.Fix{Title: fmt.Sprintf("move the `goto %s;` after the %s", g.Target.Name, count),
			Edits: []diag.Edit{{File: c.file.Name, Range: diag.Range{Start: g.Range.Start, End: last.Rng().End},
				NewText: c.file.Text(diag.Range{Start: next.Rng().Start, End: last.Rng().End}) +
					c.file.Text(diag.Range{Start: g.Range.End, End: next.Rng().Start}) + c.file.Text(g.Range)}}})
		d.Fixes = append(d.Fixes, diag.Fix{Title: fmt.Sprintf("remove the %s after `goto %s;`", count, g.Target.Name),
			Edits: []diag.Edit{{File: c.file.Name, Range: diag.Range{Start: g.Range.End, End: last.Rng().End}, NewText: ""}}})
		return
	}
}

// subscriptionWithoutEffect: WF203, a subscription of a declared event with
// neither a handler nor a milestone. A handler whose WF105 names the
// subscription as meant counts as its handler.
func subscriptionWithoutEffect(c *checker, w *walk, n ast.Node) {
	s, ok := n.(*ast.State)
	if !ok || s.Bad || w.normalState() != s {
		return
	}
	handled := map[string]bool{}
	for _, h := range s.Handlers {
		handled[h.Name.Name] = true
	}
	if f := c.stFacts[s]; f != nil {
		for slot := range f.meantSlots {
			handled[slot] = true // a misspelled handler (WF105) answers it
		}
	}
	for _, sub := range s.Subscribes {
		_, known := w.wf.events[sub.Event.Name]
		if !known || sub.Bad || len(sub.Milestones) > 0 || handled[sub.Slot().Name] {
			continue
		}
		c.report(sub.Event.Range, diag.WF203, "subscription to `%s` has no handler and no milestone: nothing happens when it arrives; add `on %s { … }`", sub.Event.Name, sub.Slot().Name)
	}
}

// stateWithoutWayOut: WF204, a non-terminal state no `goto` leaves. Quiet
// when part of it failed to parse (a goto may be there).
func stateWithoutWayOut(c *checker, w *walk, n ast.Node) {
	s, ok := n.(*ast.State)
	if !ok || w.normalState() != s {
		return
	}
	if f := c.stFacts[s]; f == nil || len(f.targets) > 0 || f.opaque {
		return
	}
	c.report(s.Name.Range, diag.WF204, "state `%s` has no way out: no handler or outcome in it says `goto`, so a run that enters it stays for ever; add a `goto` or make it `terminal`", s.Name.Name)
}

// milestoneWithoutFinal: WF205, a milestone after which the run stays put:
// no final outcome (`Unfinished`, `Unassigned`), and no `Exhausted` that
// moves the run. An outcome misspelled for the final one, or written under
// the wrong kind, shows the intent (WF117 says so), and counts as it.
func milestoneWithoutFinal(c *checker, w *walk, n ast.Node) {
	m, ok := n.(*ast.Milestone)
	if !ok || m.Bad || w.normalState() == nil {
		return
	}
	final, known := milestoneKinds[m.Kind.Name]
	if !known {
		return // WF117
	}
	for _, o := range m.Outcomes {
		switch name := o.Name.Name; {
		case name == final, name == "Unassigned", name == "Unfinished":
			return
		case name == "Exhausted":
			if o.Body == nil || o.Body.Bad || hasGoto(o.Body) {
				return // runs after the last window and moves the run
			}
		case meantOutcome(name, final) == final:
			return // a misspelling of it (WF117)
		}
	}
	c.report(m.Kind.Range, diag.WF205, "milestone `%s` has no `%s { … }`: after the last window passes the run stays in state `%s`; add `%s { goto … }`", m.Kind.Name, final, w.state.Name.Name, final)
}

// hasGoto reports whether a block says `goto` anywhere.
func hasGoto(b *ast.Block) bool {
	found := false
	ast.Inspect(b, func(n ast.Node) bool {
		if _, ok := n.(*ast.Goto); ok {
			found = true
		}
		_, isExpr := n.(ast.Expr)
		return !found && !isExpr
	})
	return found
}

// casesMissingMembers: WF206, a handler that matches its enum parameter with
// cases but misses members and has no `default`. A case label misspelled
// for a member (WF109 names it) counts as that member, and one that is
// `default` with a capital (WF109 says so) counts as the `default`.
func casesMissingMembers(c *checker, w *walk, n ast.Node) {
	h, ok := n.(*ast.Handler)
	if !ok || h.Body == nil || h.Body.Bad || w.normalState() == nil {
		return
	}
	e, param := c.handlerEnum(w.wf, w.state, h)
	if e == nil || e.Bad {
		return
	}
	labels := map[string]bool{}
	for _, st := range h.Body.Stmts {
		switch st := st.(type) {
		case *ast.Default:
			return
		case *ast.Case:
			labels[st.Label.Name] = true
			// The enum's sorted member names answer in O(log n): an enum of
			// 160,000 members with a case each stays linear.
			if _, found := slices.BinarySearch(c.memberSet(e).names, st.Label.Name); !found {
				if capitalDefault(st.Label.Name, true, false) {
					return // the user wrote a `default`
				}
				if meant := c.memberSet(e).closest(st.Label.Name); meant != "" {
					labels[meant] = true
				}
			}
		}
	}
	if len(labels) == 0 {
		return
	}
	var missing []string
	for _, m := range e.Members {
		if !labels[m.Name] {
			missing = append(missing, m.Name)
		}
	}
	if len(missing) > 0 {
		c.report(h.Name.Range, diag.WF206, "`on %s` has no case for %s of `%s` and no `default`: a run stays put when `%s` is %s; add %s or `default { … }`",
			h.Name.Name, quoteList(missing), e.Name.Name, param, orList(missing), caseList(missing))
	}
}

// secondPrincipal: WF207, a `[Principal]` entity after the first one. A
// second declaration of a name (WF101) is not a second principal: the
// duplicate is the one mistake.
func secondPrincipal(c *checker, w *walk, n ast.Node) {
	e, ok := n.(*ast.Entity)
	if !ok {
		return
	}
	if e.Name != nil {
		if first, declared := c.decls[e.Name.Name]; declared && first != ast.Decl(e) {
			return
		}
	}
	for _, a := range e.Attrs {
		if a.Name == nil || a.Name.Name != "Principal" || a.HasArgs {
			continue // not a principal, or WF110
		}
		if c.principal == nil {
			c.principal, c.principalFile = a, c.file.Name
			return
		}
		d := c.report(a.Range, diag.WF207, "more than one `[Principal]` entity: the runtime's principal must be one entity; keep `[Principal]` on one of them")
		d.Related = append(d.Related, diagRelated(c.principalFile, c.principal.Range, "first `[Principal]` here"))
		return
	}
}
