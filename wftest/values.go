package wftest

import (
	"math/big"
	"strings"

	"github.com/wfc-lang/wfc/check"
	"github.com/wfc-lang/wfc/interp"
)

// An expected call (`Expect.Call(X.Y(args))`) holds when the run makes a
// call the expectation may match (check.Expect.Calls) with the same
// arguments, compared one by one, by their type rather than their text
// (docs/language.md, "Tests"):
//
//   - an enum member by the member: the expectation's argument resolved
//     in the model (check.Arg.Member, written `Ok` or `Decision.Ok`), the
//     run's by the interpreter (interp.Value.Member: an event's argument,
//     or `Decision.Ok` written in the workflow's call); a member never
//     equals a string or a name;
//   - a number by its exact value (big.Rat, never a float): `49.9`,
//     `49.90` and `49.900` are one value, and so are `50` and `50.0`;
//   - a string exactly (its value, however it was escaped);
//   - a label by its name, which must be the same;
//   - anything else (a name the compiler does not resolve, a TimeSpan) as
//     written, in the canonical form the transcript prints.

// wantArg is an expected call's argument, read once.
type wantArg struct {
	label  string
	member *check.EnumMember
	text   string   // canonical source form, without the label
	num    *big.Rat // its value, when it is a number
}

// wantArgs reads an expected call's arguments.
func wantArgs(x *check.Expect) []wantArg {
	out := make([]wantArg, len(x.Args))
	for i, a := range x.Args {
		w := wantArg{label: a.Label, member: a.Member, text: interp.ExprText(a.Value)}
		if w.member == nil {
			w.num, _ = number(w.text)
		}
		out[i] = w
	}
	return out
}

// sameArgs reports whether the run's call inv passed the arguments want.
func sameArgs(want []wantArg, inv *interp.Invocation) bool {
	if len(want) != len(inv.Args) || len(inv.Call.Args) != len(inv.Args) {
		return false
	}
	for k, w := range want {
		if !sameArg(w, inv.Call.Args[k].Label, inv.Args[k]) {
			return false
		}
	}
	return true
}

// sameArg compares one argument, the run's passed as v under label.
func sameArg(w wantArg, label string, v interp.Value) bool {
	if w.label != label {
		return false
	}
	if w.member != nil || v.Member != nil {
		return w.member == v.Member
	}
	got := v.Text
	if label != "" {
		got = strings.TrimPrefix(got, label+": ") // the interpreter writes the label into the text
	}
	if got == w.text {
		return true
	}
	if w.num == nil {
		return false
	}
	n, ok := number(got)
	return ok && n.Cmp(w.num) == 0
}

// number reads a number's canonical source form (interp.ExprText of an
// int or decimal literal, perhaps negated or in parentheses) as its exact
// value; ok is false for anything else.
func number(s string) (*big.Rat, bool) {
	neg := false
	for {
		switch {
		case strings.HasPrefix(s, "-"):
			neg, s = !neg, s[1:]
			continue
		case len(s) >= 2 && s[0] == '(' && s[len(s)-1] == ')':
			s = s[1 : len(s)-1]
			continue
		}
		break
	}
	digits, dots := 0, 0
	for i := 0; i < len(s); i++ {
		switch c := s[i]; {
		case c >= '0' && c <= '9':
			digits++
		case c == '.':
			dots++
		default:
			return nil, false
		}
	}
	if digits == 0 || dots > 1 {
		return nil, false
	}
	r, ok := new(big.Rat).SetString(s)
	if !ok {
		return nil, false
	}
	if neg {
		r.Neg(r)
	}
	return r, true
}
