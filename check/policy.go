package check

import (
	"fmt"
	"math"
	"math/big"
	"slices"
	"strings"

	"github.com/wfc-lang/wfc/ast"
	"github.com/wfc-lang/wfc/check/vocab"
	"github.com/wfc-lang/wfc/diag"
)

// Shape is how a policy's waits grow.
type Shape int

const (
	ShapeNone        Shape = iota // no policy: windows/attempts follow at once
	ShapeFixed                    // i, i, i, …
	ShapeLinear                   // i, 2i, 3i, …
	ShapeExponential              // i, 2i, 4i, …
	ShapeEvery                    // a cadence: an attempt every i, from start to start
)

func (s Shape) String() string {
	return [...]string{"none", "fixed", "linear", "exponential", "every"}[s]
}

// factories are the vocabulary's Backoff factories and their shapes.
var factories = func() map[string]Shape {
	shapes := map[vocab.Shape]Shape{vocab.Fixed: ShapeFixed, vocab.Linear: ShapeLinear, vocab.Exponential: ShapeExponential, vocab.Every: ShapeEvery}
	m := map[string]Shape{}
	for _, f := range vocab.Factories {
		m[f.Name] = shapes[f.Shape]
	}
	return m
}()

// Member is one fluent member of a policy: `.MaxAttempts(3)`.
type Member struct {
	Name *ast.Ident
	Call *ast.Call
	// Range runs from the member's name to its `)`, the dot excluded (docs/language.md, Diagnostics).
	Range diag.Range
	// Cut is what deleting the member removes: from the end of what precedes
	// it (so the dot and any line break go too) to its `)`.
	Cut diag.Range
	Arg ast.Expr // the single argument, nil if the count is wrong
}

// Policy is a resolved Backoff policy (docs/language.md, Backoff policies).
type Policy struct {
	Expr    ast.Expr   // the whole policy expression
	Bare    bool       // a bare TimeSpan, meaning Fixed
	Factory *ast.Ident // Fixed|Linear|Exponential; nil when Bare
	Shape   Shape

	Interval     Ticks
	IntervalExpr ast.Expr

	MaxAttempts int64 // 0 when absent
	Max         *Member
	Cap         Ticks
	CapM        *Member // nil when absent
	Jitter      *big.Rat
	JitterM     *Member // nil when absent

	// NonRetryable and RetryOn are the error kinds of `.NonRetryable(…)`
	// and `.RetryOn(…)` (a step's policy only), in source order, with
	// their members; at most one of the two is given.
	NonRetryable  []*EnumMember
	NonRetryableM *Member
	RetryOn       []*EnumMember
	RetryOnM      *Member

	// Valid is false when some part did not evaluate (already reported):
	// lowering and the schedule lints skip such a policy.
	Valid bool
	// unknownMember: a member is not one of the policy's (WF304); it may
	// have been meant as the budget, so no WF302 follows.
	unknownMember bool
	// use is where the policy is written (a milestone's or a step's).
	use policyUse
}

// HasCap reports whether the policy has `.Cap(…)`.
func (p *Policy) HasCap() bool { return p.CapM != nil }

// Terminal reports whether a failure of kind (nil: of no kind) ends the
// step's attempts by the policy's kinds: a kind `.NonRetryable(…)` lists,
// or, with `.RetryOn(…)`, any failure of a kind it does not list (or of
// none). A policy with neither retries every failure; so does no policy
// (p nil), whose step has one attempt anyway.
func (p *Policy) Terminal(kind *EnumMember) bool {
	switch {
	case p == nil:
		return false
	case p.RetryOnM != nil:
		return kind == nil || !slices.Contains(p.RetryOn, kind)
	}
	return kind != nil && slices.Contains(p.NonRetryable, kind)
}

// policyUse is where a policy is written.
type policyUse int

const (
	backoffSetting policyUse = iota // a milestone's `Backoff = …;`
	retryArg                        // a durable step's `retry: …`
)

// policy resolves a policy expression.
func (c *checker) policy(e ast.Expr, use policyUse) *Policy {
	if e == nil {
		return nil
	}
	// A literal the lexer already reported (WF002, WF004, WF005) makes its
	// own argument unknown, not the whole chain: the other members are
	// still checked (each skips an argument that holds one), so an
	// out-of-range `.MaxAttempts(…)` does not hide a bad interval.
	if ast.HasBad(e) && !isPolicyExpr(e) {
		return nil
	}
	p := &Policy{Expr: e, Valid: !ast.HasBad(e), use: use}
	if isTimeSpanExpr(e) {
		t, ok := c.timeSpan(e)
		p.Bare, p.Shape, p.Interval, p.IntervalExpr, p.Valid = true, ShapeFixed, t, e, ok
		if ok {
			c.intervalRange(p)
		}
		return p
	}
	if !isPolicyExpr(e) {
		k := kindOfExpr(e)
		hint := "write `Backoff.Exponential(TimeSpan.FromSeconds(2)).MaxAttempts(3)` or a bare TimeSpan"
		switch {
		case k == kInt && use == retryArg:
			// On a step, a number is more likely the attempts than seconds:
			// a bare TimeSpan there would still need `.MaxAttempts(…)`.
			hint = fmt.Sprintf("if %s is the number of attempts, write `Backoff.Fixed(TimeSpan.FromSeconds(…)).MaxAttempts(%s)` with the wait you want", c.file.Text(e.Rng()), c.file.Text(e.Rng()))
		case k == kDecimal && use == retryArg:
			// A step's policy needs its budget too (WF302).
			hint = fmt.Sprintf("write `Backoff.Fixed(TimeSpan.%s(%s)).MaxAttempts(3)`", secondsUnit, ast.Compact(c.file.Text(e.Rng())))
		case use == retryArg:
			hint = "write `Backoff.Exponential(TimeSpan.FromSeconds(2)).MaxAttempts(3)`"
		case k == kInt || k == kDecimal:
			hint = c.timeSpanHint(e) + " (a bare TimeSpan is a fixed policy)"
		}
		if use == retryArg {
			c.wf304(badCall{what: misuseNotPolicy, rng: e.Rng(), arg: e, hint: hint})
		} else {
			c.report(e.Rng(), diag.WF107, "%s", notPolicyMessage("`Backoff`", k, hint))
		}
		return nil
	}
	// Unwind the member chain from the outside in.
	var members []*Member
	x := ast.Unparen(e)
	for {
		call, isCall := x.(*ast.Call)
		if !isCall {
			// `Backoff.Exponential` without arguments, or `….Cap` without (…).
			if sel, ok := x.(*ast.Selector); ok {
				switch n, ok := sel.X.(*ast.Name); {
				case ok && n.Name == "Backoff":
					c.wf304(badCall{what: misuseBare, rng: sel.Range, nameRng: sel.Sel.Range, kind: vocab.KindFactory, name: sel.Sel.Name})
				case isRetriesMember(sel.Sel.Name):
					c.wf304(badCall{what: misuseRetries, rng: sel.Sel.Range, kind: vocab.KindMember, name: sel.Sel.Name})
				default:
					c.wf304(badCall{what: misuseBare, rng: sel.Sel.Range, kind: vocab.KindMember, name: sel.Sel.Name})
				}
			} else {
				c.wf304(badCall{what: misuseNotPolicy, rng: x.Rng(), step: use == retryArg})
			}
			return nil
		}
		sel, ok := call.Fun.(*ast.Selector)
		if !ok {
			c.wf304(badCall{what: misuseNotPolicy, rng: call.Range, step: use == retryArg})
			return nil
		}
		if n, ok := sel.X.(*ast.Name); ok && n.Name == "Backoff" {
			p.Factory = sel.Sel
			c.factory(p, call)
			break
		}
		m := &Member{Name: sel.Sel, Call: call,
			Range: diag.Range{Start: sel.Sel.Range.Start, End: call.Range.End},
			Cut:   diag.Range{Start: sel.X.Rng().End, End: call.Range.End}}
		if len(call.Args) == 1 && call.Args[0].Label == nil {
			m.Arg = call.Args[0].Value
		}
		members = append(members, m)
		x = ast.Unparen(sel.X)
	}
	if p.Factory == nil {
		return nil
	}
	// Members in source order.
	for i, j := 0, len(members)-1; i < j; i, j = i+1, j-1 {
		members[i], members[j] = members[j], members[i]
	}
	for _, m := range members {
		c.member(p, m)
	}
	return p
}

func (c *checker) factory(p *Policy, call *ast.Call) {
	name := p.Factory.Name
	shape, ok := factories[name]
	if !ok {
		c.wf304(badCall{what: misuseUnknown, rng: p.Factory.Range, kind: vocab.KindFactory, name: name})
		p.Valid = false
		// Every factory takes one TimeSpan, so a TimeSpan written here is
		// checked on its own: `Backoff.Exponentail(TimeSpan.FromSecond(1))`
		// has two mistakes, and fixing the name must not uncover the other.
		if len(call.Args) == 1 && call.Args[0].Label == nil {
			if arg := call.Args[0].Value; !ast.HasBad(arg) && isTimeSpanExpr(arg) {
				c.timeSpan(arg)
			}
		}
		return
	}
	p.Shape = shape
	c.word(p.Factory, vocab.KindFactory)
	if len(call.Args) != 1 || call.Args[0].Label != nil {
		c.wf304(badCall{what: misuseArity, rng: call.Range, kind: vocab.KindFactory, name: name})
		p.Valid = false
		return
	}
	arg := call.Args[0].Value
	if ast.HasBad(arg) {
		p.Valid = false
		return
	}
	if !isTimeSpanExpr(arg) {
		c.wf304(badCall{what: misuseArgType, rng: arg.Rng(), kind: vocab.KindFactory, name: name, arg: arg, hint: c.timeSpanHint(arg)})
		p.Valid = false
		return
	}
	t, ok := c.timeSpan(arg)
	if !ok {
		p.Valid = false
		return
	}
	p.Interval, p.IntervalExpr = t, arg
	c.intervalRange(p)
}

// intervalRange reports a negative (WF305) or zero (WF306) interval.
func (c *checker) intervalRange(p *Policy) {
	switch {
	case p.Interval < 0:
		c.report(p.IntervalExpr.Rng(), diag.WF305, "the interval is negative (%s): a wait cannot be negative; write a positive TimeSpan", FormatTicks(p.Interval))
		p.Valid = false
	case p.Interval == 0:
		c.report(p.IntervalExpr.Rng(), diag.WF306, "the interval is zero: every retry happens immediately, with no backoff; write a positive TimeSpan if the dependency needs time to recover")
	}
}

// memberSigs are the vocabulary's policy members and their argument types.
var memberSigs = func() map[string]string {
	m := map[string]string{}
	for _, mb := range vocab.Members {
		m[mb.Name] = mb.Arg.String()
	}
	return m
}()

// isRetriesMember: `.Retries` and `.MaxRetries` are the budget counted in
// retries, a milestone's way, written as a member.
func isRetriesMember(name string) bool { return name == "Retries" || name == "MaxRetries" }

// retriesMember reports `.Retries(n)`, a milestone setting written as a
// policy member, with the fix that writes the same budget as
// `.MaxAttempts(n+1)`: retries count the attempts after the first.
func (c *checker) retriesMember(m *Member) {
	n := m.Name.Name
	d := c.wf304(badCall{what: misuseRetries, rng: m.Range, kind: vocab.KindMember, name: n, arg: m.Arg})
	if n, ok := numLit(m.Arg); ok && !n.bad && n.isInt && n.i >= 0 && n.i < math.MaxInt32 {
		total := CountOfRetries(n.i)
		d.Fixes = append(d.Fixes, diag.Fix{
			Title: fmt.Sprintf("write %s (%s)", total.MaxAttempts(), total.Attempts("the first try")),
			Edits: []diag.Edit{{File: c.file.Name, Range: m.Range, NewText: total.Member()[1:]}},
		})
	}
}

func (c *checker) member(p *Policy, m *Member) {
	name := m.Name.Name
	_, ok := memberSigs[name]
	if !ok {
		p.Valid, p.unknownMember = false, true
		if isRetriesMember(name) {
			c.retriesMember(m)
			return
		}
		c.wf304(badCall{what: misuseUnknown, rng: m.Name.Range, kind: vocab.KindMember, name: name})
		return
	}
	c.word(m.Name, vocab.KindMember)
	if name == "NonRetryable" || name == "RetryOn" {
		c.kindsMember(p, m)
		return
	}
	if p.Shape == ShapeEvery && name != "MaxAttempts" {
		c.report(m.Range, diag.WF304, "`Backoff.Every` is a cadence, an attempt every interval from start to start: it takes no `.%s(…)`; for a capped or jittered wait after each attempt use `Backoff.Fixed`, `Linear` or `Exponential`", name)
		p.Valid = false
		return
	}
	var prev *Member
	switch name {
	case "MaxAttempts":
		prev = p.Max
	case "Cap":
		prev = p.CapM
	case "Jitter":
		prev = p.JitterM
	}
	if prev != nil {
		c.givenTwice(prev, m, name)
		p.Valid = false
		return
	}
	switch name {
	case "MaxAttempts":
		p.Max = m
	case "Cap":
		p.CapM = m
	case "Jitter":
		p.JitterM = m
	}
	if m.Arg == nil {
		c.wf304(badCall{what: misuseArity, rng: m.Range, kind: vocab.KindMember, name: name})
		p.Valid = false
		return
	}
	if ast.HasBad(m.Arg) {
		p.Valid = false
		return
	}
	switch name {
	case "MaxAttempts":
		n, ok := numLit(m.Arg)
		if !ok || !n.isInt {
			c.wf304(badCall{what: misuseArgType, rng: m.Arg.Rng(), kind: vocab.KindMember, name: name, arg: m.Arg})
			p.Valid = false
			return
		}
		v := n.i
		switch {
		case v < 1:
			c.report(m.Arg.Rng(), diag.WF307, "`MaxAttempts(%d)`: attempts count the first try, so the least is 1; write %s for no retries or more for retries", v, Count(1).MaxAttempts())
			p.Valid = false
			return
		}
		p.MaxAttempts = v
	case "Cap":
		if !isTimeSpanExpr(m.Arg) {
			c.wf304(badCall{what: misuseArgType, rng: m.Arg.Rng(), kind: vocab.KindMember, name: name, arg: m.Arg, hint: c.timeSpanHint(m.Arg)})
			p.Valid = false
			return
		}
		t, ok := c.timeSpan(m.Arg)
		if !ok {
			p.Valid = false
			return
		}
		if t < 0 {
			c.report(m.Arg.Rng(), diag.WF305, "the cap is negative (%s): a wait cannot be negative; write a positive TimeSpan", FormatTicks(t))
			p.Valid = false
			return
		}
		p.Cap = t
	case "Jitter":
		n, ok := numLit(m.Arg)
		if !ok {
			c.wf304(badCall{what: misuseArgType, rng: m.Arg.Rng(), kind: vocab.KindMember, name: name, arg: m.Arg})
			p.Valid = false
			return
		}
		if n.r().Sign() < 0 || n.r().Cmp(big.NewRat(1, 1)) > 0 {
			c.report(m.Arg.Rng(), diag.WF309, "`Jitter(%s)` is outside [0, 1]: jitter is a fraction of each wait, such as `0.2` for ±20%%", ast.Compact(c.file.Text(m.Arg.Rng())))
			p.Valid = false
			return
		}
		p.Jitter = n.r()
	}
}

// oneAttempt reports WF308 for `.MaxAttempts(1)`. Its consumer reports it,
// once it knows no other budget (WF301) is the real problem.
func (c *checker) oneAttempt(p *Policy) {
	c.report(p.Max.Arg.Rng(), diag.WF308, "`MaxAttempts(1)`: the first try and no retries, so nothing is ever retried; write %s or more to retry", Count(2).MaxAttempts())
}

// givenTwice reports member m, which repeats prev (WF303). When both say
// the same, deleting the second changes nothing, so that fix is
// machine-applicable. When they differ, which one was meant is the
// author's choice: both deletions are offered, neither applied by --fix.
func (c *checker) givenTwice(prev, m *Member, name string) {
	first, second := ast.Compact(c.file.Text(prev.Range)), ast.Compact(c.file.Text(m.Range))
	if strings.Join(strings.Fields(first), "") == strings.Join(strings.Fields(second), "") {
		d := c.report(m.Range, diag.WF303, "`.%s` is given twice; the policy keeps one of each member: delete this one", name)
		c.related(d, prev.Range, "first given here")
		d.Fixes = append(d.Fixes, diag.Fix{Title: fmt.Sprintf("delete the second `%s`", second), MachineApplicable: true,
			Edits: []diag.Edit{{File: c.file.Name, Range: m.Cut, NewText: ""}}})
		return
	}
	d := c.report(m.Range, diag.WF303, "`.%s` is given twice, with different values; the policy keeps one of each member: delete the one you do not mean", name)
	c.related(d, prev.Range, "first given here")
	d.Fixes = append(d.Fixes,
		diag.Fix{Title: fmt.Sprintf("keep `%s`: delete `%s`", first, second), Edits: []diag.Edit{{File: c.file.Name, Range: m.Cut, NewText: ""}}},
		diag.Fix{Title: fmt.Sprintf("keep `%s`: delete `%s`", second, first), Edits: []diag.Edit{{File: c.file.Name, Range: prev.Cut, NewText: ""}}})
}
