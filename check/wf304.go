package check

import (
	"fmt"
	"strconv"
	"strings"

	"github.com/wfc-lang/wfc/ast"
	"github.com/wfc-lang/wfc/check/vocab"
	"github.com/wfc-lang/wfc/diag"
)

// WF304 is one code for every way a word of the vocabulary that takes an
// argument — a Backoff factory, a policy member, a TimeSpan unit — is
// written wrong. It is built here and nowhere else, from the vocabulary
// table, so that its messages name the same words, signatures and examples
// as completion, hover and `wfc explain`, and a word added to the table is
// named by every message without another edit.

// misuse is what is wrong with a vocabulary call.
type misuse uint8

const (
	misuseUnknown   misuse = iota + 1 // the name is no word of its namespace: `Backoff.Exponental`, `.Limit`, `TimeSpan.FromSecs`
	misuseBare                        // written without its parentheses: `Backoff.Linear`, `.Cap`, `TimeSpan.FromSeconds`
	misuseArity                       // not exactly one unlabelled argument
	misuseArgType                     // its argument is of the wrong kind
	misuseRange                       // a duration beyond TimeSpan's range
	misuseNotPolicy                   // not a Backoff policy at all
	misuseRetries                     // `.Retries(n)` or `.MaxRetries(n)`: the budget counted the other way
	misuseCalled                      // a word that takes no argument called with some: `TimeSpan.Zero()`
)

// badCall is one WF304: what is wrong, where, and with which word.
type badCall struct {
	what misuse
	rng  diag.Range
	// kind is the namespace (factory, member, unit); name the word as
	// written, and nameRng where, when rng is wider (`Backoff.Fixd`: a
	// did-you-mean replaces the name alone); arg the argument, for
	// misuseArgType.
	kind    vocab.WordKind
	name    string
	nameRng diag.Range
	arg     ast.Expr
	// step: the policy is a step's `retry:`, which needs its budget.
	step bool
	// hint overrides the "write …" of misuseArgType, where the argument
	// itself says what was meant (`Cap(60)` → `TimeSpan.FromSeconds(60)`).
	hint string
}

// notPolicyText is the message of an expression that is no policy at all.
const (
	notPolicyText     = "this is not a Backoff policy: write `Backoff.Exponential(TimeSpan.FromSeconds(2))`"
	notPolicyStepText = "this is not a Backoff policy: write `Backoff.Exponential(TimeSpan.FromSeconds(2)).MaxAttempts(3)`"
)

// nameRange is where the word's name is written.
func (b badCall) nameRange() diag.Range {
	if b.nameRng != (diag.Range{}) {
		return b.nameRng
	}
	return b.rng
}

// notPolicyMessage is the message of a value that is no policy where one
// is expected (where: "`retry:`" for WF304, "`Backoff`" for WF107).
func notPolicyMessage(where string, k vkind, write string) string {
	return fmt.Sprintf("%s takes a Backoff policy, not %s: %s", where, k, write)
}

// wf304 reports b. A did-you-mean rides on an unknown name.
func (c *checker) wf304(b badCall) *diag.Diagnostic {
	msg, h := c.wf304Message(b)
	return c.report(b.rng, diag.WF304, "%s%s", msg, h)
}

// wf304Message is b's message and, for an unknown name, the did-you-mean
// that ends it and carries its fix.
func (c *checker) wf304Message(b badCall) (string, hint) {
	if b.what == misuseNotPolicy {
		if b.arg != nil {
			return notPolicyMessage("`retry:`", kindOfExpr(b.arg), b.hint), hint{}
		}
		if b.step {
			return notPolicyStepText, hint{}
		}
		return notPolicyText, hint{}
	}
	if b.what == misuseRetries {
		if n, ok := numLit(b.arg); ok && !n.bad && n.isInt && n.i >= 0 {
			r := n.i
			return fmt.Sprintf("a policy has no `.%s(…)`: its budget is `.MaxAttempts(n)`, the attempts in total, first try included, so `.%s(%d)` is %s", b.name, b.name, r, CountOfRetries(r).MaxAttempts()), hint{}
		}
		return fmt.Sprintf("a policy has no `.%s(…)`: its budget is `.MaxAttempts(n)`, the attempts in total, first try included, so `.%s(n)` is `.MaxAttempts(n+1)`", b.name, b.name), hint{}
	}
	if b.what == misuseCalled {
		name := ast.Compact(c.file.Text(b.nameRange()))
		fix := &diag.Fix{Title: fmt.Sprintf("write `%s`", name), MachineApplicable: true,
			Edits: []diag.Edit{{File: c.file.Name, Range: diag.Range{Start: b.nameRange().End, End: b.rng.End}, NewText: ""}}}
		return fmt.Sprintf("`%s` takes no arguments: write `%s`", name, name), hint{fix: fix}
	}
	if b.what == misuseRange {
		return fmt.Sprintf("`%s` is beyond TimeSpan's range (at most 10675199d2h48m5.4775807s)", ast.Compact(c.file.Text(b.rng))), hint{}
	}
	w, known := vocab.Named(b.kind, b.name)
	if b.what == misuseUnknown || !known {
		msg, h := c.unknownWord(b)
		if b.what == misuseBare {
			// `Backoff.Fixd` without its parentheses: the closest name is
			// said, but replacing it alone would leave the call unwritten.
			h.fix = nil
		}
		return msg, h
	}
	switch b.what {
	case misuseBare:
		return fmt.Sprintf("`%s` needs its argument in parentheses: write `%s`", w.Qualified, w.Example), hint{}
	case misuseArity:
		return fmt.Sprintf("`%s` takes one %s, as in `%s`", w.Qualified, w.ArgNoun, w.Example), hint{}
	case misuseArgType:
		write, h := b.hint, hint{}
		if write == "" {
			if n, ok := quotedNumber(b.kind, b.name, b.arg); ok {
				// `.MaxAttempts("4")`: the number the author meant is
				// there, in quotes; never another one.
				write = fmt.Sprintf("write `%s`, the number without its quotes", n)
				h.fix = &diag.Fix{Title: fmt.Sprintf("write `%s`", n), MachineApplicable: true,
					Edits: []diag.Edit{{File: c.file.Name, Range: b.arg.Rng(), NewText: n}}}
			} else {
				// Only the argument is underlined: say what to write there.
				write = fmt.Sprintf("write `%s`", w.ArgExample)
			}
		}
		return fmt.Sprintf("`%s` expects %s %s, not %s: %s", w.Qualified, vocabArticle(w.ArgNoun), w.ArgNoun, kindOfExpr(b.arg), write), h
	}
	return fmt.Sprintf("`%s` is written wrong: write `%s`", w.Qualified, w.Example), hint{}
}

// unknownWord names the words of the namespace and the closest one.
func (c *checker) unknownWord(b badCall) (string, hint) {
	words := vocab.OfKind(b.kind)
	var names, shown []string
	for _, w := range words {
		names = append(names, w.Name)
	}
	switch b.kind {
	case vocab.KindFactory:
		for _, w := range words {
			shown = append(shown, w.Qualified)
		}
		return fmt.Sprintf("unknown policy `Backoff.%s`: write %s", b.name, orList(shown)), c.didYouMean(b.nameRange(), b.name, names)
	case vocab.KindMember:
		for _, w := range words {
			shown = append(shown, w.Signature)
		}
		return fmt.Sprintf("unknown policy member `.%s`: the members are %s", b.name, joinList(shown, "and")), c.didYouMean(b.nameRange(), b.name, names)
	}
	return fmt.Sprintf("unknown `TimeSpan.%s`: %s, `TimeSpan.%s` or `TimeSpan.%s`", b.name, writeDuration(), vocab.ZeroName, vocab.MaxValueName), c.didYouMean(b.nameRange(), b.name, names)
}

// writeDuration is how a message says to write a duration, from the
// vocabulary's units: "write `TimeSpan.FromSeconds(n)` (or FromMilliseconds,
// FromMinutes, FromHours, FromDays)".
func writeDuration() string { return writeDurationOf("n") }

// writeDurationOf is writeDuration with the number written: `FromSeconds(60)`.
func writeDurationOf(n string) string {
	var others []string
	for _, u := range vocab.Units {
		if u.Name != secondsUnit {
			others = append(others, u.Name)
		}
	}
	return fmt.Sprintf("write `TimeSpan.%s(%s)` (or %s)", secondsUnit, n, strings.Join(others, ", "))
}

// secondsUnit is the unit messages suggest first.
const secondsUnit = "FromSeconds"

// vocabArticle is "an" before a vowel sound ("an int"), else "a".
func vocabArticle(noun string) string {
	if noun != "" && strings.ContainsRune("aeiouAEIOU", rune(noun[0])) {
		return "an"
	}
	return "a"
}

// quotedNumber is the number a string argument holds where the word named
// takes a number (`.MaxAttempts("4")`, `.Jitter("0.2")`): the text to
// write instead, without its quotes.
func quotedNumber(kind vocab.WordKind, name string, arg ast.Expr) (string, bool) {
	lit, ok := ast.Unparen(arg).(*ast.StringLit)
	if !ok || kind != vocab.KindMember {
		return "", false
	}
	want := vocab.Type(0)
	for _, m := range vocab.Members {
		if m.Name == name {
			want = m.Arg
		}
	}
	v := strings.TrimSpace(lit.Value)
	switch want {
	case vocab.Int:
		if _, err := strconv.ParseInt(v, 10, 32); err == nil && !strings.HasPrefix(v, "+") {
			return v, true
		}
	case vocab.Decimal:
		if _, err := strconv.ParseFloat(v, 64); err == nil && strings.Trim(v, "0123456789.") == "" && strings.Count(v, ".") <= 1 && v != "." {
			return v, true
		}
	}
	return "", false
}
