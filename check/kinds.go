package check

import (
	"fmt"
	"slices"
	"strings"

	"github.com/wfc-lang/wfc/ast"
	"github.com/wfc-lang/wfc/check/vocab"
	"github.com/wfc-lang/wfc/diag"
)

// Error kinds and catch (docs/language.md, "Durable steps"). A failure's
// kind is a member of an enum the program declares, written qualified
// (`ChargeError.Declined`) or, where one enum makes it unique, not
// (`Declined`). It is resolved here, once, to the model's *EnumMember:
// the policy's `.NonRetryable(…)` and `.RetryOn(…)`, a catch's case and a
// test's `Fail(…, kind: …)` all hold the member, never its name.

// kindOf resolves an error kind written as `Enum.Member` or `Member`. An
// unqualified name is looked up first in the enums of prefer (the enums a
// step's policy names), then in every enum of the program, where it must
// be unique. It reports code (naming the kind as what) and returns nil
// when it does not resolve.
func (c *checker) kindOf(e ast.Expr, prefer []*Enum, code diag.ID, what string) *EnumMember {
	switch x := ast.Unparen(e).(type) {
	case *ast.Selector:
		n, ok := x.X.(*ast.Name)
		if !ok || x.Sel == nil {
			break
		}
		d, isEnum := c.global(n.Name).(*ast.Enum)
		if !isEnum {
			c.report(n.Range, code, "unknown %s `%s`: `%s` is not an enum of the program; an error kind is a member of one, %s%s", what, ast.Compact(c.file.Text(x.Range)), n.Name, c.kindExample(), c.didYouMean(n.Range, n.Name, c.enumNames()))
			return nil
		}
		en := c.model.enumOf(d)
		if m := en.member(x.Sel.Name); m != nil {
			c.model.p.Info.use(x.Sel, m)
			c.model.p.Info.use(n, en) // the qualifier names the enum
			return m
		}
		c.report(x.Sel.Range, code, "unknown %s `%s`: enum `%s` has no member `%s`%s", what, ast.Compact(c.file.Text(x.Range)), n.Name, x.Sel.Name, c.didYouMean(x.Sel.Range, x.Sel.Name, memberNames(en)))
		return nil
	case *ast.Name:
		m, found := c.kindCandidates(x.Name, prefer)
		if m == nil && len(found) == 1 {
			m = found[0]
		}
		if m != nil {
			c.model.p.Info.use(x, m)
			return m
		}
		switch len(found) {
		case 0:
			var all []string
			for _, en := range c.programEnums() {
				all = append(all, memberNames(en)...)
			}
			c.report(x.Range, code, "unknown %s `%s`: no enum of the program has a member `%s`; an error kind is a member of an enum, %s%s", what, x.Name, x.Name, c.kindExample(), c.didYouMean(x.Range, x.Name, all))
		default:
			var qs []string
			for _, m := range found {
				qs = append(qs, m.Enum.Decl.Name.Name+"."+m.Ident.Name)
			}
			c.report(x.Range, code, "%s `%s` is ambiguous: %s each have it; write it qualified, %s", what, x.Name, enumList(found), orList(qs))
		}
		return nil
	}
	if lit, ok := ast.Unparen(e).(*ast.StringLit); ok && !lit.Bad {
		// A kind in quotes, as a string: one mistake, with the fix that
		// writes the name, when the text names one kind.
		if m := c.kindNamed(lit.Value, prefer); m != nil {
			d := c.report(e.Rng(), code, "an error kind is a name, not a string: write `%s`", lit.Value)
			d.Fixes = append(d.Fixes, diag.Fix{Title: fmt.Sprintf("write `%s`", lit.Value), MachineApplicable: true,
				Edits: []diag.Edit{{File: c.file.Name, Range: e.Rng(), NewText: lit.Value}}})
			return m // read as meant: nothing else follows from it
		}
	}
	if !ast.HasBad(e) {
		c.report(e.Rng(), code, "an error kind is a member of an enum, written `Enum.Member` or `Member`, %s; found `%s`", c.kindExample(), ast.Compact(c.file.Text(e.Rng())))
	}
	return nil
}

// kindNamed is the kind text names, written `Enum.Member` or `Member` (in
// prefer's enums first, then unique in the program), or nil; it reports
// nothing.
func (c *checker) kindNamed(text string, prefer []*Enum) *EnumMember {
	if en, mem, ok := strings.Cut(text, "."); ok {
		d, isEnum := c.global(en).(*ast.Enum)
		if !isEnum || c.dup(en) {
			return nil
		}
		return c.model.enumOf(d).member(mem)
	}
	if m, found := c.kindCandidates(text, prefer); m != nil {
		return m
	} else if len(found) == 1 {
		return found[0]
	}
	return nil
}

// kindCandidates is what an unqualified kind name may name: the member of
// the first of prefer's enums that has it, if any; else every member of
// the program's enums that has it (one is the kind; several, ambiguous).
func (c *checker) kindCandidates(name string, prefer []*Enum) (*EnumMember, []*EnumMember) {
	for _, en := range prefer {
		if m := en.member(name); m != nil {
			return m, nil
		}
	}
	var found []*EnumMember
	for _, en := range c.programEnums() {
		if m := en.member(name); m != nil {
			found = append(found, m)
		}
	}
	return nil, found
}

func memberNames(en *Enum) []string {
	out := make([]string, 0, len(en.Members))
	for _, m := range en.Members {
		out = append(out, m.Ident.Name)
	}
	return out
}

func enumList(ms []*EnumMember) string {
	var names []string
	for _, m := range ms {
		names = append(names, m.Enum.Decl.Name.Name)
	}
	return joinList(names, "and")
}

// enumNames are the program's enums' names, for suggestions.
func (c *checker) enumNames() []string {
	var out []string
	for _, en := range c.programEnums() {
		out = append(out, en.Decl.Name.Name)
	}
	return out
}

// kindsMember checks `.NonRetryable(K, …)` or `.RetryOn(K, …)` (WF322):
// on a step's policy only, one of the two, each kind resolved.
func (c *checker) kindsMember(p *Policy, m *Member) {
	name := m.Name.Name
	del := diag.Fix{Title: fmt.Sprintf("delete `.%s(…)`", name), MachineApplicable: true,
		Edits: []diag.Edit{{File: c.file.Name, Range: m.Cut, NewText: ""}}}
	if p.use == backoffSetting {
		d := c.report(m.Range, diag.WF322, "`.%s(…)` belongs on a durable step's `retry:` policy: a milestone's windows pass, they do not fail with an error kind; delete it", name)
		d.Fixes = append(d.Fixes, del)
		return
	}
	same, other, otherName := p.NonRetryableM, p.RetryOnM, "RetryOn"
	if name == "RetryOn" {
		same, other, otherName = p.RetryOnM, p.NonRetryableM, "NonRetryable"
	}
	if same != nil {
		c.givenTwice(same, m, name)
		p.Valid = false
		return
	}
	if other != nil {
		d := c.report(m.Range, diag.WF322, "a policy takes `.NonRetryable(…)` (the kinds never retried) or `.RetryOn(…)` (the only kinds retried), not both: keep one")
		c.related(d, other.Range, "`."+otherName+"(…)` given here")
		d.Fixes = append(d.Fixes, diag.Fix{Title: fmt.Sprintf("keep `.%s(…)`: delete this one", otherName), Edits: []diag.Edit{{File: c.file.Name, Range: m.Cut, NewText: ""}}},
			diag.Fix{Title: fmt.Sprintf("keep `.%s(…)`: delete `.%s(…)`", name, otherName), Edits: []diag.Edit{{File: c.file.Name, Range: other.Cut, NewText: ""}}})
		p.Valid = false
		return
	}
	var kinds []*EnumMember
	ok := true
	if len(m.Call.Args) == 0 {
		c.report(m.Range, diag.WF322, "`.%s(…)` names one or more error kinds, members of an enum of the program, such as `.%s(ChargeError.Declined)`", name, name)
		ok = false
	}
	for _, a := range m.Call.Args {
		if a.Label != nil {
			c.report(a.Label.Range, diag.WF322, "`.%s(…)` takes error kinds, not labelled arguments: remove `%s:`", name, a.Label.Name)
			ok = false
			continue
		}
		k := c.kindOf(a.Value, nil, diag.WF322, "error kind")
		switch {
		case k == nil:
			ok = false
		case slices.Contains(kinds, k):
			c.report(a.Range, diag.WF322, "`%s` is listed twice in `.%s(…)`: delete one", ast.Compact(c.file.Text(a.Range)), name)
			ok = false
		default:
			kinds = append(kinds, k)
		}
	}
	if name == "NonRetryable" {
		p.NonRetryableM, p.NonRetryable = m, kinds
	} else {
		p.RetryOnM, p.RetryOn = m, kinds
	}
	if !ok {
		p.Valid = false
	}
}

// reasonNames are the reasons a catch's case may name.
func reasonNames() []string {
	var out []string
	for _, c := range Causes {
		out = append(out, c.String())
	}
	return out
}

// programEnums are every enum of the program, in its order, for an
// unqualified error kind and its suggestions: a file checked alone
// (Options.PerFile) records that it read each of them, since a member
// added to any enum, in any file, can change what such a name means.
// kindExample shows an error kind the program could name: a member of its
// first enum that has one, or, in a program without enums, how to declare
// one.
func (c *checker) kindExample() string {
	for _, en := range c.programEnums() {
		if len(en.Members) > 0 {
			return "such as `" + en.Decl.Name.Name + "." + en.Members[0].Ident.Name + "`"
		}
	}
	return "such as `ChargeError.Declined` (the program declares no enum: write one, `enum ChargeError { Declined }`)"
}

func (c *checker) programEnums() []*Enum {
	if c.enumDecls == nil {
		c.enumDecls = []*ast.Enum{}
		for _, f := range c.prog.Files {
			if f.Overwhelmed {
				continue
			}
			for _, d := range f.Decls {
				if d, ok := d.(*ast.Enum); ok && d.Name != nil {
					c.enumDecls = append(c.enumDecls, d)
				}
			}
		}
	}
	out := make([]*Enum, 0, len(c.enumDecls))
	for _, d := range c.enumDecls {
		c.read(d.Name.Name)
		if en := c.model.enumOf(d); en != nil {
			out = append(out, en)
		}
	}
	return out
}

// isKindName reports whether some enum of the program has a member name.
func (c *checker) isKindName(name string) bool {
	for _, en := range c.programEnums() {
		if en.member(name) != nil {
			return true
		}
	}
	return false
}

// policyEnums are the enums whose members a step's policy names: where an
// unqualified kind in its catch is looked up first.
func policyEnums(p *Policy) []*Enum {
	if p == nil {
		return nil
	}
	var out []*Enum
	for _, k := range slices.Concat(p.NonRetryable, p.RetryOn) {
		if !slices.Contains(out, k.Enum) {
			out = append(out, k.Enum)
		}
	}
	return out
}

// catchCases checks a step's catch (WF119) and what its cases can ever
// take (WF208), and records each label's reason or kind for the builder.
// Its blocks are the handler's: bc is the block the step stands in.
func (c *checker) catchCases(bc *blockCtx, st *ast.CallStmt, cons *Consumer) {
	ct := st.Catch
	if ct == nil {
		return
	}
	c.word(&ast.Ident{Range: ct.Keyword, Name: vocab.CatchName}, vocab.KindCatch)
	if ct.Bad {
		bc.sc.opaque = true
	}
	var p *Policy
	if cons != nil {
		p = cons.Policy
	}
	prefer := policyEnums(p)
	var def *ast.CatchCase
	seenCause := map[Cause]*ast.CatchCase{}
	seenKind := map[*EnumMember]*ast.CatchCase{}
	for _, cc := range ct.Cases {
		if cc.Default {
			if def != nil {
				d := c.report(keywordRange(cc.Range, "default"), diag.WF119, "a second `default` in this catch: only one can take the rest; merge them")
				c.related(d, keywordRange(def.Range, "default"), "first `default` here")
			}
			def = cc
			c.block(bc, cc.Body)
			continue
		}
		r := ref{}
		if n, ok := cc.Label.(*ast.Name); ok {
			r.cause = CauseNamed(n.Name)
			if r.cause != 0 {
				c.word(&ast.Ident{Range: n.Range, Name: n.Name}, vocab.KindReason)
			}
		}
		if n, ok := cc.Label.(*ast.Name); ok && r.cause == 0 && !c.isKindName(n.Name) {
			// Not a kind of the program: a misspelt reason, if it is closer
			// to one than to a kind the policy names (`Decline` is
			// `Declined`, not `Deadline`; a misspelt kind is kindOf's).
			near := reasonNames()
			for _, en := range prefer {
				near = append(near, memberNames(en)...)
			}
			if h := c.didYouMean(n.Range, n.Name, near); h.best != "" && CauseNamed(h.best) != 0 {
				c.report(n.Range, diag.WF119, "unknown reason `%s`: a catch's reasons are %s%s", n.Name, joinList(reasonNames(), "and"), h)
				c.block(bc, cc.Body)
				continue
			}
		}
		if r.cause == 0 {
			r.member = c.kindOf(cc.Label, prefer, diag.WF119, "reason or error kind")
		}
		switch {
		case r.cause != 0 && seenCause[r.cause] != nil:
			d := c.report(cc.Label.Rng(), diag.WF119, "a second case `%s` in this catch: merge it with the first", r.cause)
			c.related(d, seenCause[r.cause].Label.Rng(), "first here")
		case r.member != nil && seenKind[r.member] != nil:
			d := c.report(cc.Label.Rng(), diag.WF119, "a second case for `%s.%s` in this catch: merge it with the first", r.member.Enum.Decl.Name.Name, r.member.Ident.Name)
			c.related(d, seenKind[r.member].Label.Rng(), "first here")
		case r.cause != 0:
			seenCause[r.cause] = cc
			c.neverRuns(cc, r.cause, nil, st, p)
		case r.member != nil:
			seenKind[r.member] = cc
			c.neverRuns(cc, 0, r.member, st, p)
		}
		if r.cause != 0 || r.member != nil {
			bc.sc.wc.resolved(cc, r)
		}
		c.block(bc, cc.Body)
	}
}

// neverRuns reports WF208 for a catch's case that nothing can take: the
// reason Cancelled (a cancelled step's handler ends), Deadline on a step
// without one, Terminal or a kind that the step's policy never makes
// terminal.
func (c *checker) neverRuns(cc *ast.CatchCase, cause Cause, kind *EnumMember, st *ast.CallStmt, p *Policy) {
	rng := cc.Label.Rng()
	remove := diag.Fix{Title: "remove the case", MachineApplicable: true,
		Edits: []diag.Edit{{File: c.file.Name, Range: cc.Range, NewText: ""}}}
	hasDeadline := false
	for _, a := range st.Call.Args {
		hasDeadline = hasDeadline || a.Label != nil && a.Label.Name == "deadline"
	}
	terminable := p != nil && (p.NonRetryableM != nil || p.RetryOnM != nil)
	if p != nil && !p.Valid && (cause == CauseTerminal || kind != nil) {
		return // what the policy makes terminal is not known: its error says why
	}
	switch {
	case cause == CauseCancelled:
		d := c.report(rng, diag.WF208, "a `Cancelled` case never runs: a step is cancelled when the run leaves its state, and the handler it stands in ends there; the transcript and coverage show a cancel")
		d.Fixes = append(d.Fixes, remove)
	case cause == CauseDeadline && !hasDeadline:
		c.report(rng, diag.WF208, "a `Deadline` case never runs: this step has no `deadline:`; add one, such as `deadline: TimeSpan.FromMinutes(10)`, or remove the case")
	case cause == CauseTerminal && !terminable:
		c.report(rng, diag.WF208, "a `Terminal` case never runs by this step's policy: it makes no failure terminal; add `.NonRetryable(Kind, …)` or `.RetryOn(Kind, …)` to its `retry:` policy, or remove the case")
	case kind != nil && (p == nil || !p.Terminal(kind)):
		q := kind.Enum.Decl.Name.Name + "." + kind.Ident.Name
		what := fmt.Sprintf("this step's policy retries it: add `.NonRetryable(%s)` to the policy", q)
		if p == nil {
			what = fmt.Sprintf("this step has no `retry:` policy, so its one failure gives up `Exhausted`: give it one with `.NonRetryable(%s)`", q)
		}
		d := c.report(rng, diag.WF208, "case `%s` runs for a terminal failure of that kind, and %s, or catch it as `Exhausted`", ast.Compact(c.file.Text(rng)), what)
		if p != nil && p.RetryOnM == nil && p.Valid {
			d.Fixes = append(d.Fixes, c.addNonRetryable(p, q))
		}
	}
}

// addNonRetryable is the fix that makes kind q terminal by p: it joins an
// existing `.NonRetryable(…)` or appends one.
func (c *checker) addNonRetryable(p *Policy, q string) diag.Fix {
	if m := p.NonRetryableM; m != nil {
		end := m.Call.Range.End
		end.Offset--
		end.Column--
		return diag.Fix{Title: fmt.Sprintf("add `%s` to `.NonRetryable(…)`", q),
			Edits: []diag.Edit{{File: c.file.Name, Range: diag.Range{Start: end, End: end}, NewText: ", " + q}}}
	}
	r := p.Expr.Rng()
	return diag.Fix{Title: fmt.Sprintf("append `.NonRetryable(%s)`", q),
		Edits: []diag.Edit{{File: c.file.Name, Range: diag.Range{Start: r.End, End: r.End}, NewText: ".NonRetryable(" + q + ")"}}}
}
