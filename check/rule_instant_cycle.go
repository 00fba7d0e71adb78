package check

import (
	"strings"

	"github.com/wfc-lang/wfc/ast"
	"github.com/wfc-lang/wfc/diag"
)

// ruleWF209 is WF209 (deadlines that chain without time passing), a check
// of the workflow it is in.
var ruleWF209 = rule{name: "cycle at one instant", codes: []diag.ID{diag.WF209}, scope: scopeWorkflow, workflow: instantCycles}

// instantCycles: WF209, a cycle of states that a run goes round without
// time passing: each is left, the moment it is entered, by a milestone
// whose windows are zero-length with no wait between them, whose outcome
// moves the run to the next. At run time the run would be stopped after
// MaxAtInstant entries at one instant (docs/language.md, "Limits"); the
// checker names the cycle once, at its first state in source order.
func instantCycles(c *checker, w *walk, _ *ast.Workflow) {
	if w.wf == nil || w.wf.model == nil {
		return
	}
	wf := w.wf.model
	next := map[*State]*State{}
	for _, s := range wf.States {
		if t := instantExit(s); t != nil {
			next[s] = t
		}
	}
	const (
		unseen = iota
		onPath
		done
	)
	mark := map[*State]int{}
	for _, s := range wf.States {
		var path []*State
		for cur := s; cur != nil && mark[cur] == unseen; cur = next[cur] {
			mark[cur] = onPath
			path = append(path, cur)
			if t := next[cur]; t != nil && mark[t] == onPath {
				// The cycle is the path from t on.
				k := 0
				for path[k] != t {
					k++
				}
				reportCycle(c, path[k:])
			}
		}
		for _, p := range path {
			mark[p] = done
		}
	}
}

// reportCycle reports the cycle at its first state in source order.
func reportCycle(c *checker, cycle []*State) {
	first := 0
	for i, s := range cycle {
		if s.Decl.Range.Start.Offset < cycle[first].Decl.Range.Start.Offset {
			first = i
		}
	}
	var names []string
	for i := range len(cycle) + 1 {
		names = append(names, "`"+cycle[(first+i)%len(cycle)].Decl.Name.Name+"`")
	}
	s := cycle[first]
	c.report(s.Decl.Name.Range, diag.WF209, "a run that enters `%s` goes %s … for ever without time passing: each state is left, as it is entered, by a milestone whose windows are zero-length with no wait between them; the run would be stopped after 10000 entries at one instant; give one of the windows a length, such as `Within = TimeSpan.FromSeconds(1);`",
		s.Decl.Name.Name, strings.Join(names, " → "))
}

// instantExit is the state a run entering s moves to at the same
// instant: that of the first milestone (in source order) whose windows
// all pass at once and whose outcome blocks reach a `goto` before any
// step (a step may wait, so time may pass); nil when there is none.
func instantExit(s *State) *State {
	for _, sub := range s.Subscriptions {
		for _, m := range sub.Milestones {
			cons := m.Consumer
			if cons == nil || !cons.Valid || cons.Window != 0 || !zeroWaits(cons) {
				continue
			}
			final := Unfinished
			if m.Kind == Assigned {
				final = Unassigned
			}
			for _, kind := range []OutcomeKind{Exhausted, final} {
				for _, o := range m.Outcomes {
					if o.Kind != kind || o.Body == nil {
						continue
					}
					to, stop := leadingGoto(o.Body)
					if to != nil {
						return to
					}
					if stop {
						return nil
					}
				}
			}
		}
	}
	return nil
}

// zeroWaits reports whether every wait between a consumer's windows is
// zero: one window, no policy, or a policy whose waits are all zero.
func zeroWaits(c *Consumer) bool {
	p := c.Policy
	return c.Attempts <= 1 || p == nil || p.Interval == 0 || p.HasCap() && p.Cap == 0
}

// leadingGoto is the target of the `goto` a block reaches before any
// step; stop is true when a step comes first (it may wait).
func leadingGoto(b *Block) (to *State, stop bool) {
	for _, st := range b.Stmts {
		switch st := st.(type) {
		case *Goto:
			return st.To, st.To == nil
		case *Step:
			return nil, true
		}
	}
	return nil, false
}
