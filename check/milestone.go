package check

import (
	"fmt"
	"math"
	"slices"

	"github.com/wfc-lang/wfc/ast"
	"github.com/wfc-lang/wfc/check/vocab"
	"github.com/wfc-lang/wfc/diag"
)

// milestoneKinds maps each milestone kind of the vocabulary to its final
// outcome.
var milestoneKinds = func() map[string]string {
	m := map[string]string{}
	for _, k := range vocab.Milestones {
		m[k.Kind] = k.Final
	}
	return m
}()

var milestoneSettings = vocab.Names(vocab.MilestoneSettings)

// consumerKindOf is the consumer kind of each milestone kind.
var consumerKindOf = map[string]ConsumerKind{Assigned.String(): KindAssigned, Finished.String(): KindFinished}

// milestone checks `Assigned { … }` / `Finished { … }` and records its
// consumer (the policy, its budget and its window) for lowering.
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
		Src: c.file, Pos: m.Kind.Range.Start,
		Kind: consumerKindOf[kind], Attempts: 1, Budget: BudgetNone, Valid: !m.Bad, // what failed to parse may hold any setting
	}
	set := c.milestoneSettings(m)
	window, windowOK := c.window(m, set.within, slices.Contains(set.meant, "Within"))
	c.budget(cons, set)
	c.outcomes(sc, m, final)
	// The lints read only the policy and the budget: a bad window does not
	// make them unknowable.
	cons.Lintable = cons.Valid
	cons.Valid = cons.Valid && windowOK
	cons.Window = window
	c.res.Consumers = append(c.res.Consumers, cons)
	c.consumerAt[m] = cons
}

// settingsOf are a milestone's settings, each the first of its name.
type settingsOf struct {
	within, retries, backoff *ast.Setting
	// attempts is `MaxAttempts = n`, a policy's member written as a
	// milestone setting: the budget counted in attempts (attemptsSetting).
	attempts *ast.Setting
	// meant are the settings a WF107 names as meant (`Withn` for `Within`):
	// they are not also reported missing.
	meant []string
}

// milestoneSettings collects a milestone's settings: a repeated one is
// WF101, an unknown one WF107.
func (c *checker) milestoneSettings(m *ast.Milestone) settingsOf {
	var set settingsOf
	names := c.newScope("setting")
	for _, s := range m.Settings {
		if !names.declare(s.Name) {
			continue
		}
		switch s.Name.Name {
		case "Within":
			set.within = s
		case "Retries":
			set.retries = s
		case "Backoff":
			set.backoff = s
		case "MaxAttempts":
			set.attempts = s // the budget counted the other way: budget reports it
		default:
			h := c.didYouMean(s.Name.Range, s.Name.Name, milestoneSettings)
			c.report(s.Name.Range, diag.WF107, "unknown milestone setting `%s`: a milestone takes `Within`, `Retries` and `Backoff`%s", s.Name.Name, h)
			set.meant = append(set.meant, h.best)
		}
	}
	return set
}

// budget checks `Retries` and `Backoff` and sets the consumer's policy and
// budget: one of `Retries` or `.MaxAttempts(…)` (both: WF301), one window
// otherwise. WF308 is reported once, and not beside WF301.
func (c *checker) budget(cons *Consumer, set settingsOf) {
	retriesN := int64(-1)
	if set.retries != nil {
		retriesN = c.retries(cons, set.retries.Value)
	}
	fromAttempts := set.attempts != nil && c.attemptsSetting(cons, set.attempts, set.retries != nil)
	double := false // WF301: Retries and .MaxAttempts(…) both set
	if set.backoff != nil {
		cons.BackoffSetting = set.backoff
		p := c.policy(set.backoff.Value, backoffSetting)
		cons.Policy = p
		if p == nil || !p.Valid {
			cons.Valid = false
		}
		if p != nil && p.Max != nil {
			if set.retries != nil {
				if retriesN >= 0 {
					c.doubleBudget(set.retries, retriesN, p)
				}
				cons.Valid, double = false, true
			} else if fromAttempts {
				cons.Valid, double = false, true // two budgets; the WF107 is the mistake
			} else if p.MaxAttempts > 0 {
				cons.Attempts, cons.Budget = p.MaxAttempts, BudgetMaxAttempts
			}
		}
	}
	if cons.Attempts == 1 && cons.Budget != BudgetNone && !double && !fromAttempts {
		if cons.Budget == BudgetRetries {
			c.report(set.retries.Value.Rng(), diag.WF308, "`Retries = 0`: one window and no retries, so nothing is ever retried; write %s or more to retry, or drop the setting", Count(2).RetriesSetting())
		} else {
			c.oneAttempt(cons.Policy)
		}
	}
}

// attemptsSetting reports `MaxAttempts = n;` in a milestone (WF107): a
// milestone counts its budget in retries, so it is `Retries = n-1`, which
// the fix writes. When n is a count and no `Retries` is set, the budget is
// read as meant (true), so nothing else is reported about it (WF315: a
// `Backoff` with one window; WF308: `MaxAttempts = 1`).
func (c *checker) attemptsSetting(cons *Consumer, s *ast.Setting, hasRetries bool) bool {
	const head = "a milestone has no `MaxAttempts` setting: it counts its budget in `Retries`, the windows after the first"
	n, ok := numLit(s.Value)
	if hasRetries || !ok || n.bad || !n.isInt || n.i <= 0 || n.i > math.MaxInt32 {
		c.report(s.Name.Range, diag.WF107, "%s; write `Retries = n` for n+1 windows in all, or `.MaxAttempts(n)` on its `Backoff` policy", head)
		cons.Valid = false
		return false
	}
	b := Count(n.i)
	d := c.report(s.Name.Range, diag.WF107, "%s: `MaxAttempts = %d` (%s) is %s", head, int64(b), b.Windows(), b.RetriesSetting())
	d.Fixes = []diag.Fix{{Title: "write " + b.RetriesSetting(), MachineApplicable: true, Edits: []diag.Edit{
		{File: c.file.Name, Range: s.Name.Range, NewText: "Retries"},
		{File: c.file.Name, Range: s.Value.Rng(), NewText: fmt.Sprint(b.Retries())},
	}}}
	cons.Attempts, cons.Budget = int64(b), BudgetRetries
	cons.Valid = false // the program has an error: no table; the lints still run
	return true
}

// retries checks `Retries = n;` and returns n, or -1 when it is not a
// valid count (then the consumer is not valid).
func (c *checker) retries(cons *Consumer, v ast.Expr) int64 {
	cons.RetriesValue = v
	switch n, ok := numLit(v); {
	case v == nil || ast.HasBad(v):
	case !ok || !n.isInt:
		c.report(v.Rng(), diag.WF107, "`Retries` takes an int, how many further windows follow the first, not %s%s", kindOfExpr(v), c.wholeNumberHint(v, n, ok))
	case n.i < 0:
		c.report(v.Rng(), diag.WF307, "`Retries = %d`: retries count the windows after the first, so the least is 0", n.i)
	default:
		r := n.i
		cons.Attempts, cons.Budget = r+1, BudgetRetries
		return r
	}
	cons.Valid = false
	return -1
}

// outcomes checks a milestone's outcomes (WF117 for one that does not
// belong) and their blocks.
func (c *checker) outcomes(sc *stCtx, m *ast.Milestone, final string) {
	kind := m.Kind.Name
	names := c.newScope("outcome")
	for _, o := range m.Outcomes {
		n := o.Name.Name
		switch {
		case n == vocab.Exhausted || n == final:
			names.declare(o.Name)
		case isFinal(n):
			other, _ := vocab.MilestoneOfFinal(n)
			d := c.report(o.Name.Range, diag.WF117, "`%s` belongs to `%s`, not `%s`: under `%s` write `%s { … }`", n, other.Kind, kind, kind, final)
			d.Fixes = append(d.Fixes, *c.replaceHint(o.Name.Range, n, final).fix)
		default:
			h := c.didYouMean(o.Name.Range, n, []string{vocab.Exhausted, final})
			if meantOutcome(n, final) == final && h.best != final {
				// A misspelling of the other milestone's outcome
				// (`Unfinised` under `Assigned`) means this one's.
				h = c.replaceHint(o.Name.Range, n, final)
			}
			c.report(o.Name.Range, diag.WF117, "unknown outcome `%s` in milestone `%s`: its outcomes are `Exhausted { … }` and `%s { … }`%s", n, kind, final, h)
		}
		c.block(&blockCtx{sc: sc, where: fmt.Sprintf("outcome `%s`", n)}, o.Body)
	}
}

// window checks a milestone's `Within`; ok is false when it is missing or
// not a valid window.
func (c *checker) window(m *ast.Milestone, within *ast.Setting, misspelled bool) (_ Ticks, ok bool) {
	if within == nil {
		// Not reported when `Within` may be in the part that failed to
		// parse, or is misspelled (WF107 says so).
		if !m.Bad && !misspelled {
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
	b := CountOfRetries(n)
	msg := fmt.Sprintf("this milestone sets %s and its `Backoff` policy also caps the attempts with `.MaxAttempts(…)` — they are two budgets for one thing. Keep ONE: drop `.MaxAttempts(…)` and leave %s, or drop `Retries` and write %s on the policy. ⚠ They count differently — `Retries` is how many FURTHER windows follow the first, `MaxAttempts` is how many windows there are in TOTAL.", b.RetriesSetting(), b.RetriesSetting(), b.MaxAttempts())
	d := c.report(p.Max.Range, diag.WF301, "%s", msg)
	c.related(d, retries.Range, "`Retries` set here")
	d.Fixes = append(d.Fixes,
		diag.Fix{Title: "drop `.MaxAttempts(…)`", Edits: []diag.Edit{{File: c.file.Name, Range: p.Max.Cut, NewText: ""}}},
	)
	edits := []diag.Edit{
		{File: c.file.Name, Range: c.lineDeletion(retries.Range), NewText: ""},
	}
	if p.Max.Arg != nil {
		edits = append(edits, diag.Edit{File: c.file.Name, Range: p.Max.Arg.Rng(), NewText: fmt.Sprint(int64(b))})
	}
	sortEdits(edits)
	d.Fixes = append(d.Fixes, diag.Fix{Title: fmt.Sprintf("drop `Retries` and write %s", b.MaxAttempts()), Edits: edits})
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
	return fmt.Sprintf("; write the count of further windows as an int, for example %s for %s", Count(3).RetriesSetting(), Count(3).Windows())
}

// meantOutcome is the outcome a misspelled outcome name means in a
// milestone whose final outcome is final: Exhausted, or final when the
// name is close to either final outcome (`Unfinised` under `Assigned`
// means `Unassigned`), or "" when it is close to none.
func meantOutcome(name, final string) string {
	switch best := closest(name, vocab.AllOutcomes()); {
	case best == vocab.Exhausted:
		return vocab.Exhausted
	case isFinal(best):
		return final
	}
	return ""
}

// isFinal reports whether name is some milestone kind's final outcome
// (`Unassigned`, `Unfinished`).
func isFinal(name string) bool {
	_, ok := vocab.MilestoneOfFinal(name)
	return ok
}
