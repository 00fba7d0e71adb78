package check

import (
	"fmt"
	"strings"

	"github.com/wfc-lang/wfc/ast"
	"github.com/wfc-lang/wfc/diag"
)

// ruleWF201 is WF201 (unreachable state), a check of the workflow it is in.
var ruleWF201 = rule{name: "unreachable state", codes: []diag.ID{diag.WF201}, scope: scopeWorkflow, workflow: unreachableStates}

// unreachableStates: WF201, states no chain of goto reaches from Initial.
// Quiet when a goto is unknown (WF103: it may be the edge) or something
// failed to parse (an edge may be there).
//
// One root cause, one diagnostic: a state that only unreachable states
// lead to is unreachable because they are. Each unreachable state that no
// other unreachable state leads to (the head of a chain) is reported,
// naming the states down its chain, which are not reported themselves; a
// cycle of unreachable states that nothing enters is reported at its
// first state in the source.
func unreachableStates(c *checker, w *walk, _ *ast.Workflow) {
	if w.wf == nil || w.wf.model == nil || !w.wf.model.ReachKnown {
		return
	}
	wf := w.wf.model
	entered := map[*State]bool{} // unreachable states another unreachable state leads to
	for _, s := range wf.States {
		if s.Reach != Unreachable {
			continue
		}
		for _, g := range s.Transitions {
			if g.To != nil && g.To != s && g.To.Reach == Unreachable {
				entered[g.To] = true
			}
		}
	}
	covered := map[*State]bool{}
	var heads []*State
	for _, s := range wf.States {
		if s.Reach == Unreachable && !entered[s] {
			heads = append(heads, s)
		}
	}
	report := func(s *State) {
		down := downstream(s, covered)
		name, initial := s.Decl.Name.Name, wf.Initial.Decl.Name.Name
		msg := fmt.Sprintf("state `%s` is unreachable: no chain of `goto` leads to it from `%s`, the initial state", name, initial)
		if len(down) > 0 {
			msg += fmt.Sprintf(", nor to %s after it", stateList(down))
		}
		d := c.reportIn(c.file.Name, s.Decl.Name.Range, diag.WF201, msg+fmt.Sprintf("; add `goto %s;` where a run should move to it, or remove it", name))
		for _, t := range down {
			d.Related = append(d.Related, diag.Related{File: c.file.Name, Range: t.Decl.Name.Range,
				Message: "`" + t.Decl.Name.Name + "` is unreachable because `" + name + "` is"})
		}
	}
	for _, s := range heads {
		report(s)
	}
	for _, s := range wf.States { // cycles that nothing enters
		if s.Reach == Unreachable && !covered[s] {
			report(s)
		}
	}
}

// downstream marks s and every unreachable state its gotos lead to (not
// yet covered) as covered, and returns those others in the order found.
func downstream(s *State, covered map[*State]bool) []*State {
	covered[s] = true
	var out []*State
	queue := []*State{s}
	for len(queue) > 0 {
		t := queue[0]
		queue = queue[1:]
		for _, g := range t.Transitions {
			if u := g.To; u != nil && u.Reach == Unreachable && !covered[u] {
				covered[u] = true
				out = append(out, u)
				queue = append(queue, u)
			}
		}
	}
	return out
}

// stateList names states: "`B`", "`B` and `C`", "`B`, `C` and `D`".
func stateList(ss []*State) string {
	q := make([]string, len(ss))
	for i, s := range ss {
		q[i] = "`" + s.Decl.Name.Name + "`"
	}
	if len(q) == 1 {
		return q[0]
	}
	return strings.Join(q[:len(q)-1], ", ") + " and " + q[len(q)-1]
}
