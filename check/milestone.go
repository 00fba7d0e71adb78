package check

import (
	"fmt"

	"github.com/wfc-lang/wfc/ast"
	"github.com/wfc-lang/wfc/diag"
)

var milestoneKinds = map[string]string{"Assigned": "Unassigned", "Finished": "Unfinished"}
var milestoneSettings = []string{"Within", "Retries", "Backoff"}

// milestone checks `Assigned { … }` / `Finished { … }` and records its consumer.
func (c *checker) milestone(sc *stCtx, sub *ast.Subscribe, m *ast.Milestone) {
	kind := m.Kind.Name
	final, ok := milestoneKinds[kind]
	if !ok {
		c.errorf(m.Kind.Range, "WF117", "unknown milestone `%s`: a subscription's milestones are `Assigned { … }` (the slot must be taken) and `Finished { … }` (the event must arrive)%s", kind, c.didYouMean(m.Kind.Range, kind, keys(milestoneKinds)))
		for _, o := range m.Outcomes {
			c.block(&blockCtx{sc: sc, where: fmt.Sprintf("outcome `%s`", o.Name.Name)}, o.Body)
		}
		return
	}
	cons := &Consumer{
		File: c.file.Name, Src: c.file, Pos: m.Kind.Range.Start, Workflow: sc.wc.w.Name.Name, State: sc.st.Name.Name,
		Slot: sub.Slot().Name, Kind: kind, Attempts: 1, Budget: "none", Valid: true,
	}
	settings := c.newScope("setting")
	var within, retries, backoff *ast.Setting
	var retriesN int64 = -1
	for _, s := range m.Settings {
		if !settings.declare(s.Name) {
			continue
		}
		switch s.Name.Name {
		case "Within":
			within = s
		case "Retries":
			retries = s
		case "Backoff":
			backoff = s
		default:
			c.errorf(s.Name.Range, "WF107", "unknown milestone setting `%s`: a milestone takes `Within`, `Retries` and `Backoff`%s", s.Name.Name, c.didYouMean(s.Name.Range, s.Name.Name, milestoneSettings))
		}
	}
	if m.Bad {
		cons.Valid = false // what failed to parse may hold any setting
	}
	if within == nil && m.Bad {
		// Not reported: `Within` may be in the part that failed to parse.
	} else if within == nil {
		c.errorf(m.Kind.Range, "WF108", "milestone `%s` has no `Within`: add `Within = TimeSpan.FromMinutes(5);`, the length of one window", kind)
		cons.Valid = false
	} else if v := within.Value; v != nil && !ast.HasBad(v) {
		if !isTimeSpanExpr(v) {
			c.errorf(v.Rng(), "WF107", "`Within` takes a TimeSpan, not %s: %s", kindOfExpr(v), c.timeSpanHint(v))
			cons.Valid = false
		} else if t, ok := c.timeSpan(v); !ok {
			cons.Valid = false
		} else if t < 0 {
			c.errorf(v.Rng(), "WF305", "`Within` is negative (%s): a window cannot be negative; write a positive TimeSpan", FormatTicks(t))
			cons.Valid = false
		} else {
			cons.Window = t
		}
	} else {
		cons.Valid = false
	}
	if retries != nil {
		v := retries.Value
		cons.RetriesValue = v
		switch n, ok := numLit(v); {
		case v == nil || ast.HasBad(v):
			cons.Valid = false
		case !ok || !n.isInt:
			c.errorf(v.Rng(), "WF107", "`Retries` takes an int, how many further windows follow the first: write `Retries = 2;`")
			cons.Valid = false
		case n.rat.Num().Int64() < 0:
			c.errorf(v.Rng(), "WF307", "`Retries = %s`: retries count the windows after the first, so the least is 0", n.rat.Num().String())
			cons.Valid = false
		default:
			retriesN = n.rat.Num().Int64()
			if retriesN == 0 {
				c.warnf(v.Rng(), "WF308", "`Retries = 0`: one window and no retries, so nothing is ever retried; write `Retries = 1` or more to retry, or drop the setting")
			}
			cons.Attempts, cons.Budget = retriesN+1, "Retries"
		}
	}
	if backoff != nil {
		cons.BackoffSetting = backoff
		p := c.policy(backoff.Value, "`Backoff`", "WF107")
		cons.Policy = p
		if p == nil || !p.Valid {
			cons.Valid = false
		}
		if p != nil && p.Max != nil {
			if retriesN >= 0 {
				c.doubleBudget(retries, retriesN, p)
				cons.Valid = false
			} else if retries == nil && p.MaxAttempts > 0 {
				cons.Attempts, cons.Budget = p.MaxAttempts, "MaxAttempts"
			}
		}
	}
	outcomes := c.newScope("outcome")
	hasFinal := false
	for _, o := range m.Outcomes {
		n := o.Name.Name
		switch {
		case n == "Exhausted" || n == final:
			if outcomes.declare(o.Name) && n == final {
				hasFinal = true
			}
		case n == "Unassigned" || n == "Unfinished":
			other := "Finished"
			if n == "Unassigned" {
				other = "Assigned"
			}
			c.errorf(o.Name.Range, "WF117", "`%s` belongs to `%s`, not `%s`: under `%s` write `%s { … }`", n, other, kind, kind, final)
			hasFinal = true // the intent is there; do not add WF205
		default:
			c.errorf(o.Name.Range, "WF117", "unknown outcome `%s` in milestone `%s`: its outcomes are `Exhausted { … }` and `%s { … }`%s", n, kind, final, c.didYouMean(o.Name.Range, n, []string{"Exhausted", final}))
		}
		c.block(&blockCtx{sc: sc, where: fmt.Sprintf("outcome `%s`", n)}, o.Body)
	}
	if !hasFinal && !m.Bad {
		c.warnf(m.Kind.Range, "WF205", "milestone `%s` has no `%s { … }`: after the last window passes the run stays in state `%s`; add `%s { goto … }`", kind, final, sc.st.Name.Name, final)
	}
	c.res.Consumers = append(c.res.Consumers, cons)
}

// doubleBudget reports WF301: `Retries` and `.MaxAttempts(…)` together.
func (c *checker) doubleBudget(retries *ast.Setting, n int64, p *Policy) {
	msg := fmt.Sprintf("this milestone sets `Retries = %d` and its `Backoff` policy also caps the attempts with `.MaxAttempts(…)` — they are two budgets for one thing. Keep ONE: drop `.MaxAttempts(…)` and leave `Retries = %d`, or drop `Retries` and write `.MaxAttempts(%d)` on the policy. ⚠ They count differently — `Retries` is how many FURTHER windows follow the first, `MaxAttempts` is how many windows there are in TOTAL.", n, n, n+1)
	d := c.errorf(p.Max.Range, "WF301", "%s", msg)
	c.related(d, retries.Range, "`Retries` set here")
	d.Fixes = append(d.Fixes,
		diag.Fix{Title: "drop `.MaxAttempts(…)`", Edits: []diag.Edit{{File: c.file.Name, Range: p.Max.Cut, NewText: ""}}},
	)
	edits := []diag.Edit{
		{File: c.file.Name, Range: c.lineDeletion(retries.Range), NewText: ""},
	}
	if p.Max.Arg != nil {
		edits = append(edits, diag.Edit{File: c.file.Name, Range: p.Max.Arg.Rng(), NewText: fmt.Sprint(n + 1)})
	}
	sortEdits(edits)
	d.Fixes = append(d.Fixes, diag.Fix{Title: fmt.Sprintf("drop `Retries` and write `.MaxAttempts(%d)`", n+1), Edits: edits})
}

// lineDeletion widens r to its whole line(s), newline included, when nothing
// but white space shares the line with it, so deleting it leaves no blank line.
func (c *checker) lineDeletion(r diag.Range) diag.Range {
	src := c.file.Src
	s := int(r.Start.Offset)
	for s > 0 && (src[s-1] == ' ' || src[s-1] == '\t') {
		s--
	}
	if s > 0 && src[s-1] != '\n' {
		return r
	}
	e := int(r.End.Offset)
	for e < len(src) && (src[e] == ' ' || src[e] == '\t' || src[e] == '\r') {
		e++
	}
	if e < len(src) && src[e] != '\n' {
		return r
	}
	out := diag.Range{Start: diag.Pos{Line: r.Start.Line, Column: 1, Offset: int32(s)}}
	if e < len(src) {
		out.End = diag.Pos{Line: r.End.Line + 1, Column: 1, Offset: int32(e + 1)}
	} else {
		out.End = diag.Pos{Line: r.End.Line, Column: r.End.Column + int32(e) - r.End.Offset, Offset: int32(e)}
	}
	return out
}

func sortEdits(es []diag.Edit) {
	for i := 1; i < len(es); i++ {
		for j := i; j > 0 && es[j].Range.Start.Offset < es[j-1].Range.Start.Offset; j-- {
			es[j], es[j-1] = es[j-1], es[j]
		}
	}
}

// reachability reports states no goto chain reaches from Initial (WF201).
func (c *checker) reachability(wc *wfCtx, initial *ast.State) {
	if initial == nil || initial.Kind != ast.Normal || wc.w.Bad {
		return
	}
	// An unresolved goto (WF103) may be the edge that reaches a state: stay
	// quiet rather than add a second diagnostic for the same typo.
	for _, ts := range wc.edges {
		for _, t := range ts {
			if _, ok := wc.states[t.Name]; !ok {
				return
			}
		}
	}
	seen := map[*ast.State]bool{initial: true}
	queue := []*ast.State{initial}
	for len(queue) > 0 {
		s := queue[0]
		queue = queue[1:]
		for _, t := range wc.edges[s] {
			if next, ok := wc.states[t.Name]; ok && !seen[next] {
				seen[next] = true
				queue = append(queue, next)
			}
		}
	}
	for _, s := range wc.w.States {
		if !seen[s] && wc.states[s.Name.Name] == s {
			c.warnf(s.Name.Range, "WF201", "state `%s` is unreachable: no chain of `goto` leads to it from `%s`, the initial state; add `goto %s;` where a run should move to it, or remove it", s.Name.Name, initial.Name.Name, s.Name.Name)
		}
	}
}
