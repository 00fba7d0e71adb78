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
		c.report(m.Kind.Range, diag.WF117, "unknown milestone `%s`: a subscription's milestones are `Assigned { … }` (the slot must be taken) and `Finished { … }` (the event must arrive)%s", kind, c.didYouMean(m.Kind.Range, kind, keys(milestoneKinds)))
		for _, o := range m.Outcomes {
			c.block(&blockCtx{sc: sc, where: fmt.Sprintf("outcome `%s`", o.Name.Name)}, o.Body)
		}
		return
	}
	cons := &Consumer{
		File: c.file.Name, Src: c.file, Pos: m.Kind.Range.Start, Workflow: sc.wc.w.Name.Name, State: sc.st.Name.Name,
		Slot: sub.Slot().Name, Kind: kind, Attempts: 1, Budget: BudgetNone, Valid: true,
	}
	settings := c.newScope("setting")
	var within, retries, backoff *ast.Setting
	var retriesN int64 = -1
	double := false // WF301: Retries and .MaxAttempts(…) both set
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
			c.report(s.Name.Range, diag.WF107, "unknown milestone setting `%s`: a milestone takes `Within`, `Retries` and `Backoff`%s", s.Name.Name, c.didYouMean(s.Name.Range, s.Name.Name, milestoneSettings))
		}
	}
	if m.Bad {
		cons.Valid = false // what failed to parse may hold any setting
	}
	window, windowOK := c.window(m, within)
	if retries != nil {
		v := retries.Value
		cons.RetriesValue = v
		switch n, ok := numLit(v); {
		case v == nil || ast.HasBad(v):
			cons.Valid = false
		case !ok || !n.isInt:
			c.report(v.Rng(), diag.WF107, "`Retries` takes an int, how many further windows follow the first, not %s%s", kindOfExpr(v), c.wholeNumberHint(v, n, ok))
			cons.Valid = false
		case n.rat.Num().Int64() < 0:
			c.report(v.Rng(), diag.WF307, "`Retries = %s`: retries count the windows after the first, so the least is 0", n.rat.Num().String())
			cons.Valid = false
		default:
			retriesN = n.rat.Num().Int64()
			cons.Attempts, cons.Budget = retriesN+1, BudgetRetries
		}
	}
	if backoff != nil {
		cons.BackoffSetting = backoff
		p := c.policy(backoff.Value, backoffSetting)
		cons.Policy = p
		if p == nil || !p.Valid {
			cons.Valid = false
		}
		if p != nil && p.Max != nil {
			if retries != nil {
				if retriesN >= 0 {
					c.doubleBudget(retries, retriesN, p)
				}
				cons.Valid, double = false, true
			} else if p.MaxAttempts > 0 {
				cons.Attempts, cons.Budget = p.MaxAttempts, BudgetMaxAttempts
			}
		}
	}
	// WF308 once, and not beside WF301 (the two budgets are one mistake).
	if cons.Attempts == 1 && cons.Budget != BudgetNone && !double {
		if cons.Budget == BudgetRetries {
			c.report(retries.Value.Rng(), diag.WF308, "`Retries = 0`: one window and no retries, so nothing is ever retried; write `Retries = 1` or more to retry, or drop the setting")
		} else {
			c.oneAttempt(cons.Policy)
		}
	}
	outcomes := c.newScope("outcome")
	for _, o := range m.Outcomes {
		n := o.Name.Name
		switch {
		case n == "Exhausted" || n == final:
			outcomes.declare(o.Name)
		case n == "Unassigned" || n == "Unfinished":
			other := "Finished"
			if n == "Unassigned" {
				other = "Assigned"
			}
			c.report(o.Name.Range, diag.WF117, "`%s` belongs to `%s`, not `%s`: under `%s` write `%s { … }`", n, other, kind, kind, final)
		default:
			c.report(o.Name.Range, diag.WF117, "unknown outcome `%s` in milestone `%s`: its outcomes are `Exhausted { … }` and `%s { … }`%s", n, kind, final, c.didYouMean(o.Name.Range, n, []string{"Exhausted", final}))
		}
		c.block(&blockCtx{sc: sc, where: fmt.Sprintf("outcome `%s`", n)}, o.Body)
	}
	// The lints read only the policy and the budget: a bad window does not
	// make them unknowable.
	cons.Lintable = cons.Valid
	cons.Valid = cons.Valid && windowOK
	cons.Window = window
	c.res.Consumers = append(c.res.Consumers, cons)
}

// window checks a milestone's `Within`; ok is false when it is missing or
// not a valid window.
func (c *checker) window(m *ast.Milestone, within *ast.Setting) (_ Ticks, ok bool) {
	if within == nil {
		if !m.Bad { // else `Within` may be in the part that failed to parse
			c.report(m.Kind.Range, diag.WF108, "milestone `%s` has no `Within`: add `Within = TimeSpan.FromMinutes(5);`, the length of one window", m.Kind.Name)
		}
		return 0, false
	}
	v := within.Value
	if v == nil || ast.HasBad(v) {
		return 0, false
	}
	if !isTimeSpanExpr(v) {
		c.report(v.Rng(), diag.WF107, "`Within` takes a TimeSpan, not %s: %s", kindOfExpr(v), c.timeSpanHint(v))
		return 0, false
	}
	t, ok := c.timeSpan(v)
	if ok && t < 0 {
		c.report(v.Rng(), diag.WF305, "`Within` is negative (%s): a window cannot be negative; write a positive TimeSpan", FormatTicks(t))
		return 0, false
	}
	return t, ok
}

// doubleBudget reports WF301: `Retries` and `.MaxAttempts(…)` together.
func (c *checker) doubleBudget(retries *ast.Setting, n int64, p *Policy) {
	msg := fmt.Sprintf("this milestone sets `Retries = %d` and its `Backoff` policy also caps the attempts with `.MaxAttempts(…)` — they are two budgets for one thing. Keep ONE: drop `.MaxAttempts(…)` and leave `Retries = %d`, or drop `Retries` and write `.MaxAttempts(%d)` on the policy. ⚠ They count differently — `Retries` is how many FURTHER windows follow the first, `MaxAttempts` is how many windows there are in TOTAL.", n, n, n+1)
	d := c.report(p.Max.Range, diag.WF301, "%s", msg)
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

// wholeNumberHint ends WF107's message for a `Retries` that is not an int:
// a decimal is told it is not whole; anything else is shown what a count
// looks like, as an example rather than as the answer.
func (c *checker) wholeNumberHint(v ast.Expr, n num, isNum bool) string {
	if isNum && !n.bad && !n.isInt {
		return fmt.Sprintf(": `%s` is not a whole number; write the count of further windows as an int", ast.Compact(c.file.Text(v.Rng())))
	}
	return "; write the count of further windows as an int, for example `Retries = 2;` for three windows in all"
}
