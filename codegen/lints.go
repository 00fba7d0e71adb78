package codegen

import (
	"fmt"
	"math/big"

	"github.com/wfc-lang/wfc/ast"
	"github.com/wfc-lang/wfc/check"
	"github.com/wfc-lang/wfc/check/timespan"
	"github.com/wfc-lang/wfc/diag"
)

// Lints reports WF310–WF316 and WF318 for every valid consumer of a checked program.
// They are read off the lowered table, so their numbers are the table's.
// Callers that also need the tables lower once and call LintSchedules.
func Lints(res *check.Result) []diag.Diagnostic {
	return LintSchedules(append(Lower(res, Options{}), LowerLintOnly(res)...))
}

// LowerLintOnly lowers the consumers whose schedule is not valid but whose
// policy and budget are (a negative `Within`, say), so the lints still run
// on them; their tables are for the lints only, never shown.
func LowerLintOnly(res *check.Result) []*Schedule {
	var out []*Schedule
	for _, c := range res.Consumers {
		if c.Lintable && !c.Valid {
			out = append(out, lowerOne(c, Options{}))
		}
	}
	return out
}

// LintSchedules reports WF310–WF316 and WF318 for lowered tables. The lints do not
// depend on the lowering options (attempt duration, draws), only on the
// policy, so tables lowered for display serve as well.
func LintSchedules(ss []*Schedule) []diag.Diagnostic {
	var l diag.List
	for _, s := range ss {
		lint(&l, s)
	}
	return l.Items
}

// add reports a lint of code id with the catalogue's severity.
func add(l *diag.List, file string, r diag.Range, id diag.ID, msg string) *diag.Diagnostic {
	l.Items = append(l.Items, diag.New(file, r, id, msg))
	return &l.Items[len(l.Items)-1]
}

func attempt(retry int64) string {
	return fmt.Sprintf("attempt %d (retry %d)", retry+1, retry)
}

func pct(f *big.Rat) string {
	if f == nil {
		return "0%"
	}
	x, _ := new(big.Rat).Mul(f, big.NewRat(100, 1)).Float64()
	return fmt.Sprintf("%g%%", x)
}

func lint(l *diag.List, s *Schedule) {
	c := s.Consumer
	p := c.Policy
	file := c.FileName()
	if p == nil {
		return
	}
	lintDeadline(l, s)
	// WF315: a Backoff on a milestone with one window never applies.
	if !c.IsStep() && c.Budget == check.BudgetNone && c.BackoffSetting != nil {
		add(l, file, c.BackoffSetting.Range, diag.WF315, "this `Backoff` never applies: the milestone has one window (no `Retries`, no `.MaxAttempts(…)`), so no window follows it to wait for; add `Retries = 2` (three windows) or remove the `Backoff`")
	}
	// WF310: members that can never have an effect.
	if p.JitterM != nil && p.Jitter != nil && p.Jitter.Sign() == 0 {
		d := add(l, file, p.JitterM.Range, diag.WF310, "`.Jitter(0)` has no effect: without jitter every wait is exact, which is the default; delete it")
		d.Fixes = append(d.Fixes, deleteMember(file, p.JitterM))
	}
	if p.JitterM != nil && p.Jitter != nil && p.Jitter.Cmp(big.NewRat(1, 1)) == 0 {
		add(l, file, p.JitterM.Arg.Rng(), diag.WF316, "`Jitter(1)`: a wait can shrink to zero, an immediate retry against a dependency that just failed; write at most `.Jitter(0.5)` to keep at least half of each wait")
	}
	if p.CapM != nil {
		first := s.firstWaits()
		switch {
		case p.Shape == check.ShapeFixed && s.Cap >= first.most:
			d := add(l, file, p.CapM.Range, diag.WF310, fmt.Sprintf("`%s` has no effect: a fixed policy of %s (jitter ±%s) never waits more than %s; delete it",
				memberText(c, p.CapM), timespan.Format(s.Interval), pct(s.Jitter), timespan.Format(first.most)))
			d.Fixes = append(d.Fixes, deleteMember(file, p.CapM))
		case s.Cap < first.least:
			add(l, file, p.CapM.Range, diag.WF311, fmt.Sprintf("`%s` is below the least first wait (%s): every wait is exactly %s, whatever the shape and jitter; raise the cap, or write `Backoff.Fixed(…)` of %s",
				memberText(c, p.CapM), timespan.Format(first.least), timespan.Format(s.Cap), timespan.Format(s.Cap)))
		case s.facts.lockstepFrom > 0:
			add(l, file, p.CapM.Range, diag.WF313, s.lockstepMessage())
		}
	}
	// WF314 replaces WF312 for the same policy.
	if s.facts.overflowAt > 0 {
		add(l, file, p.Expr.Rng(), diag.WF314, fmt.Sprintf("a wait in budget exceeds TimeSpan's range: %s would wait more than 10675199d2h48m5.4775807s; add `.Cap(…)` or lower the attempts (%s)",
			attempt(s.facts.overflowAt), check.AttemptsBothWays(s.Attempts)))
	} else if grows(p.Shape) && !p.HasCap() && s.facts.overHourAt > 0 {
		add(l, file, p.Expr.Rng(), diag.WF312, fmt.Sprintf("%s without a cap waits more than an hour within its budget: %s waits %s; %s (%s)",
			growthName(s), attempt(s.facts.overHourAt), timespan.Format(s.facts.overHourWait), overHourRemedy(s.Interval), check.AttemptsBothWays(s.Attempts)))
	} else if total := s.waitsTotal(); total > GiveUpLimit && s.Budget != check.BudgetNone {
		// WF318: the give-up time is months away. WF312 and WF314 name the
		// same root cause (too many attempts for the growth), so it is
		// reported only without them.
		add(l, file, p.Expr.Rng(), diag.WF318, fmt.Sprintf("this policy's waits add up to %s within its budget (%s), so the run gives up more than %s after it starts; lower the attempts or the waits",
			timespan.Format(total), check.AttemptsBothWays(s.Attempts), timespan.Format(GiveUpLimit)))
	}
}

// lintDeadline reports WF320 (a deadline shorter than the first wait) and
// WF321 (a deadline that leaves `.MaxAttempts(…)` out of reach), read off
// the table's deadline cut with attempts taking no time.
func lintDeadline(l *diag.List, s *Schedule) {
	c := s.Consumer
	if !c.IsStep() || c.Step == nil || !s.HasDeadline || c.Policy == nil || c.Policy.Shape == check.ShapeNone {
		return
	}
	var arg *ast.Arg
	for _, a := range c.Step.Decl.Call.Args {
		if a.Label != nil && a.Label.Name == "deadline" {
			arg = a
		}
	}
	if arg == nil {
		return
	}
	file := c.FileName()
	first := s.firstWaits().least
	if s.HasCap {
		first = min(first, s.Cap)
	}
	if s.Shape == check.ShapeEvery {
		first = s.Interval
	}
	if first > s.Deadline && (c.Budget == check.BudgetDeadline || c.Attempts > 1) {
		add(l, file, arg.Value.Rng(), diag.WF320, fmt.Sprintf("this step's `deadline:` (%s) is shorter than its first wait (%s): no retry ever starts before it, so the step gives up after its first attempt; lengthen the deadline to at least %s, or drop `retry:`",
			timespan.Format(s.Deadline), timespan.Format(first), timespan.Format(first)))
		return
	}
	if s.DeadlineCut == 0 || c.Policy.Max == nil {
		return
	}
	when := ""
	if last := s.Rows[len(s.Rows)-1]; !s.Truncated && last.To == s.Attempts {
		start := satAdd(last.Starts, satMul(satAdd(s.Duration, last.Wait), last.To-last.From))
		when = fmt.Sprintf(": attempt %d would start at %s, after it", s.DeadlineCut, timespan.Format(satAdd(satAdd(start, s.Duration), s.NominalWait(s.DeadlineCut))))
	}
	d := add(l, file, arg.Value.Rng(), diag.WF321, fmt.Sprintf("this step's `deadline:` (%s) lets %d of its %d attempts start (attempts taking no time)%s; lower `.MaxAttempts(…)` to %d, or lengthen the deadline",
		timespan.Format(s.Deadline), s.Attempts, c.Attempts, when, s.Attempts))
	d.Fixes = append(d.Fixes, diag.Fix{Title: fmt.Sprintf("write `.MaxAttempts(%d)`", s.Attempts),
		Edits: []diag.Edit{{File: file, Range: c.Policy.Max.Arg.Rng(), NewText: fmt.Sprint(s.Attempts)}}})
}

type bounds struct{ least, most Ticks }

// firstWaits is the least and most first wait, before the cap.
func (s *Schedule) firstWaits() bounds {
	if s.Jitter == nil {
		return bounds{s.Interval, s.Interval}
	}
	if w, ok := s.intWaits(); ok {
		i := uint64(s.Interval)
		return bounds{w.sat(w.scale(i, w.lom)), w.sat(w.scale(i, w.him))}
	}
	i := ratTicks(s.Interval)
	lo := new(big.Rat).Mul(i, new(big.Rat).Sub(big.NewRat(1, 1), s.Jitter))
	hi := new(big.Rat).Mul(i, new(big.Rat).Add(big.NewRat(1, 1), s.Jitter))
	return bounds{sat(lo), sat(hi)}
}

func memberText(c *check.Consumer, m *check.Member) string {
	if c.Src == nil {
		return "." + m.Name.Name + "(…)"
	}
	return ast.Compact(c.Src.Text(m.Range))
}

func deleteMember(file string, m *check.Member) diag.Fix {
	return diag.Fix{Title: "delete `." + m.Name.Name + "(…)`", MachineApplicable: true,
		Edits: []diag.Edit{{File: file, Range: m.Cut, NewText: ""}}}
}

// overHourRemedy says what to write for WF312. An hour is the natural cap
// (no wait then exceeds what the warning is about), unless the interval
// itself is an hour or more: a cap there would flatten the policy into
// Fixed, so only fewer attempts or a Fixed policy help.
func overHourRemedy(interval Ticks) string {
	if interval < timespan.TicksPerHour {
		return "add `.Cap(TimeSpan.FromHours(1))` or lower the attempts"
	}
	return fmt.Sprintf("lower the attempts, or write `Backoff.Fixed(…)` of %s", timespan.Format(interval))
}
