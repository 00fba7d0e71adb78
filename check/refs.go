package check

import (
	"github.com/wfc-lang/wfc/ast"
	"github.com/wfc-lang/wfc/diag"
)

// What the resolver found each reference of a workflow to mean, recorded
// as it resolves, for the builder (build.go): the builder makes the model's
// pointers from these declarations and never looks a name up again, so a
// name means in the model exactly what it meant to the checks.
//
// A reference is keyed by its node: a *ast.Goto (its target state), a
// *ast.Subscribe (its event), a *ast.Handler (the subscription it answers,
// and the enum its cases match with the parameter of that type), a
// *ast.Case (its enum member), a *ast.State of a workflow with `Tracks`
// (the tracked enum's member named like it), a call argument's *ast.Name
// (the handler parameter it names) and a call argument's *ast.Selector
// (the enum member `Enum.Member` names). A reference that did not
// resolve is not recorded.
type ref struct {
	state  *ast.State     // a goto's target
	event  *ast.Event     // a subscription's event
	sub    *ast.Subscribe // the subscription a handler answers
	enum   *ast.Enum      // a handler's enum: the type of param
	param  *ast.Param     // a handler's enum parameter; the parameter an argument names
	member *EnumMember    // a case label's member; a state's tracked member; a catch case's kind; a call argument's member
	cause  Cause          // a catch case's reason
}

// refTable is the checker's one table of references, shared by its
// workflows (nodes are distinct across them): it holds the references of
// the workflows whose facts are kept, and is emptied when they are
// forgotten (checker.forget), so that a program of many small workflows
// reuses one table instead of making one each (a map per workflow was a
// fifth of what checking 100,000 lines allocated).
type refTable struct {
	m map[ast.Node]ref
}

// dropAll empties the table: a table that grew large (one big workflow)
// is let go rather than cleared, since clearing costs its capacity.
func (t *refTable) dropAll() {
	if len(t.m) > 256 {
		t.m = nil
		return
	}
	clear(t.m)
}

// resolved records that node n means r.
func (wc *wfCtx) resolved(n ast.Node, r ref) {
	t := wc.refs
	if t.m == nil {
		t.m = map[ast.Node]ref{}
	}
	t.m[n] = r
}

// refOf is what node n was resolved to (the zero ref when it did not
// resolve, or wc is nil: a workflow the resolver did not see).
func (wc *wfCtx) refOf(n ast.Node) ref {
	if wc == nil {
		return ref{}
	}
	return wc.refs.m[n]
}

// handlerParams are the parameters in scope in handler h's body: its own,
// when it declares them, else those of ev, the event it answers.
func handlerParams(h *ast.Handler, ev *ast.Event) *ast.Params {
	if h.Params == nil && ev != nil {
		return ev.Params
	}
	return h.Params
}

// callArgs resolves the arguments of a call: an argument that names one
// of the handler's parameters (params, nil outside a handler) is at run
// time the event's argument (docs/language.md, "Calls"); one written
// `Enum.Member`, a member of a declared enum, is that member. Any other
// name stays a name, which the compiler does not resolve.
func (c *checker) callArgs(wc *wfCtx, call *ast.Call, params *ast.Params) {
	for _, a := range call.Args {
		switch x := a.Value.(type) {
		case *ast.Name:
			if params == nil {
				continue
			}
			for _, p := range params.List {
				if p.Name != nil && p.Name.Name == x.Name {
					wc.resolved(x, ref{param: p})
					break
				}
			}
		case *ast.Selector:
			if m := c.qualifiedMember(x, params); m != nil {
				wc.resolved(x, ref{member: m})
			} else if e := c.enumNamedBy(x, params); e != nil && !e.Bad {
				set := c.memberSet(e)
				h := c.suggest(x.Sel.Range, x.Sel.Name, set)
				msg := h.String()
				if h.best == "" {
					msg = "; its members are " + quoteList(set.Names())
				}
				attach(c.report(x.Sel.Range, diag.WF120, "enum `%s` has no member `%s`%s", e.Name.Name, x.Sel.Name, msg), h)
			}
		}
	}
}

// enumNamedBy is the enum x's prefix names when x is written
// `Enum.Name` with the name of a declared enum (declared once) and not of
// one of params (a parameter's field); else nil.
func (c *checker) enumNamedBy(x *ast.Selector, params *ast.Params) *ast.Enum {
	n, ok := x.X.(*ast.Name)
	if !ok || x.Sel == nil || x.Sel.Name == "" {
		return nil
	}
	if params != nil {
		for _, p := range params.List {
			if p.Name != nil && p.Name.Name == n.Name {
				return nil
			}
		}
	}
	d, ok := c.global(n.Name).(*ast.Enum)
	if !ok || c.dup(n.Name) {
		return nil
	}
	return d
}

// qualifiedMember is the member `Enum.Member` names, when x is written so
// with the name of a declared enum (declared once) that has that member,
// and not the name of one of params; else nil.
func (c *checker) qualifiedMember(x *ast.Selector, params *ast.Params) *EnumMember {
	d := c.enumNamedBy(x, params)
	if d == nil {
		return nil
	}
	return c.model.enumOf(d).member(x.Sel.Name)
}

// terminalRefs resolves, without a word, the references in terminal state
// s, whose subscriptions and handlers the checks skip (a terminal state
// waits for nothing: WF116 says so once): its subscriptions' events, the
// subscription each handler names, and its gotos' targets (WF116 too). The
// model still links them, for the editor's definitions and references.
func (c *checker) terminalRefs(wc *wfCtx, s *ast.State) {
	first := map[string]*ast.Subscribe{}
	for _, sub := range s.Subscribes {
		if ev, ok := wc.events.get(sub.Event.Name); ok {
			wc.resolved(sub, ref{event: ev})
		}
		if slot := sub.Slot().Name; first[slot] == nil {
			first[slot] = sub
		}
		for _, m := range sub.Milestones {
			for _, o := range m.Outcomes {
				wc.terminalGotos(o.Body)
			}
		}
	}
	for _, h := range s.Handlers {
		if sub := first[h.Name.Name]; sub != nil {
			wc.resolved(h, ref{sub: sub})
		}
		wc.terminalGotos(h.Body)
	}
}

// terminalGotos resolves the gotos of a terminal state's block quietly.
func (wc *wfCtx) terminalGotos(b *ast.Block) {
	if b == nil {
		return
	}
	for _, st := range b.Stmts {
		switch st := st.(type) {
		case *ast.Goto:
			if st.Target == nil {
				continue
			}
			if to, ok := wc.states.get(st.Target.Name); ok {
				wc.resolved(st, ref{state: to})
			}
		case *ast.Case:
			wc.terminalGotos(st.Body)
		case *ast.Default:
			wc.terminalGotos(st.Body)
		case *ast.CallStmt:
			wc.terminalGotos(st.Body)
		}
	}
}
