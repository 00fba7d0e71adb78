package parser

import (
	"fmt"
	"sort"
	"strings"

	"github.com/alecthomas/participle/v2"

	"github.com/wfc-lang/wfc/diag"
	"github.com/wfc-lang/wfc/lexer"
)

// Messages for the two mistakes whose place is not where participle stops:
// a missing `;` (reported right after the token that needs it) and a bracket
// left open (reported with the opening bracket as related location).
//
// syntax and reportable decide whether an error has a cause of its own.

// syntax reports a WF001, unless reportable says it is a consequence.
func (cp *chunkParser) syntax(r diag.Range, msg string) {
	if cp.reportable(r) {
		cp.diags.Add(cp.file.Name, r, diag.WF001, msg)
	}
}

// reportable reports whether a syntax error at r has a cause of its own: not
// when an unterminated string or comment at or before it in the same
// declaration swallowed text (its WF002 is the root cause), nor right after
// bytes the lexer dropped (WF003). Both lookups are binary searches, so a
// file of many errors and many unterminated strings stays linear.
func (cp *chunkParser) reportable(r diag.Range) bool {
	at := int(r.Start.Offset)
	if k := sort.SearchInts(cp.unterminated, cp.start); k < len(cp.unterminated) && cp.unterminated[k] <= at {
		return false
	}
	// A token right after a literal reported as malformed (`1e-400` lexes
	// as `1e` then `-400`): the WF004 there is the root cause.
	if i := cp.indexAt(at); i > 0 && cp.toks[i-1].Bad && int(cp.toks[i-1].End) == at {
		return false
	}
	if len(cp.gaps) > 0 {
		i := cp.indexAt(at)
		prevEnd := 0
		if i > 0 {
			prevEnd = int(cp.toks[i-1].End)
		}
		k := sort.SearchInts(cp.gaps, prevEnd)
		if k < len(cp.gaps) && cp.gaps[k] <= at {
			return false
		}
	}
	return true
}

// reportParse turns a participle error into a WF001 in the language's words.
func (cp *chunkParser) reportParse(err error, s span, what prod) {
	off, expect := participleFailure(err)
	i := s.hi
	if off >= 0 {
		if k := cp.indexAt(off); k < s.hi && int(cp.toks[k].Off) == off {
			i = k
		}
	}
	if i == s.hi {
		cp.blamed = i + 1
	}
	var want, after string
	if ee, ok := err.(*expectError); ok {
		want, after = ee.want, ee.after
	} else {
		want, after = cp.expectation(i, s, expect, what)
	}
	if cp.reportUnclosed(i, s, want) {
		return
	}
	if strings.HasPrefix(want, "`;`") && i > s.lo {
		if cp.kind(i-1) == lexer.Punct {
			after = cp.closedConstruct(i - 1)
		}
		cp.missingSemicolon(i, "expected "+want+" after "+after)
		return
	}
	if what == prodSubscription && i > s.lo && cp.isPunct(i-1, ")") && cp.startsAnew(i) {
		// `subscribe Close()` and the next item on the next line: the
		// parameters may be followed by `as`, `{` or `;`, and of these only
		// the `;` is ever left out before something new.
		cp.missingSemicolon(i, "expected `;` after "+cp.closedConstruct(i-1))
		return
	}
	text := "expected " + want
	if after != "" {
		text += " after " + after
	}
	if what == prodEnum && want == enumSeparator && cp.kind(i) == lexer.Ident {
		// `{ Queued Running }`: a name after a member name can only be
		// the next member, so the `,` between them is what is missing.
		cp.missingComma(i, text+", found "+cp.describe(i))
		return
	}
	cp.syntax(cp.errRange(i), text+", found "+cp.describe(i))
}

// strayed reports whether piece s of a ctx body, which failed to parse,
// starts at a token that the error of the piece before it already named
// as unexpected, and is not a keyword that starts an item of ctx: `subscribe
// Go() x` is one mistake, reported at `x`, not again as a setting `x`
// without `=`; `on Go() goto B;` is one, at `goto`, which starts no state
// item.
func (cp *chunkParser) strayed(s span, ctx context) bool {
	return cp.blamed == s.lo+1 && (cp.kind(s.lo) != lexer.Keyword || !grammar[ctx].starts(cp.word(s.lo)))
}

// participleFailure returns where participle's err stopped (a byte offset,
// -1 when it says none) and what it expected there, as grammar text
// (`"}"`, `<ident>`, or a production), "" when it says nothing.
//
// Participle (v2.1.4) offers no typed access to the expectation: its
// documented contract is the participle.Error interface, Message and
// Position, with no promise of a concrete type (alecthomas/participle#184);
// UnexpectedTokenError's exported Expect field, added for this purpose in
// #84, is left empty since v2 keeps the expectation in an unexported node
// (nodes.go: expectNode) that only Message prints, as "unexpected token
// "x" (expected …)". So the position is read through the interface and
// the expectation from that one suffix, here and nowhere else;
// TestParticipleFailure pins the format, so an upgrade that changes it
// fails there rather than in a message. The text is a hint only: every
// production's own expectation is written in the grammar table
// (productions.go) and messages.go prefers it.
func participleFailure(err error) (off int, expect string) {
	off = -1
	msg := err.Error()
	if pe, ok := err.(participle.Error); ok {
		off = pe.Position().Offset
		msg = pe.Message()
	}
	if k := strings.LastIndex(msg, "(expected "); k >= 0 && strings.HasSuffix(msg, ")") {
		expect = msg[k+len("(expected ") : len(msg)-1]
	}
	return off, expect
}

// missingComma reports msg at token i, with a machine-applicable fix that
// inserts the `,` missing right after token i-1.
func (cp *chunkParser) missingComma(i int, msg string) {
	r := cp.errRange(i)
	if !cp.reportable(r) {
		return
	}
	at := cp.endOf(i - 1)
	d := cp.diags.Add(cp.file.Name, r, diag.WF001, msg)
	d.Fixes = []diag.Fix{{Title: "insert `,`", MachineApplicable: true,
		Edits: []diag.Edit{{File: cp.file.Name, Range: diag.Range{Start: at, End: at}, NewText: ","}}}}
}

// closedConstruct names what ends at the punctuation token end, for "after
// …": a call or parameter list as `Name(…)` (`Name()` when empty), with its
// dotted prefix; any other token as itself.
func (cp *chunkParser) closedConstruct(end int) string {
	if !cp.isPunct(end, ")") {
		return "`" + cp.text(end) + "`"
	}
	p := cp.matchingBack(end)
	if p < 0 {
		return "`)`"
	}
	q := p
	for q > 0 && cp.toks[q-1].Kind == lexer.Ident {
		q-- // a name; then a `.` before it continues the dotted name
		if q < 2 || !cp.isPunct(q-1, ".") || cp.toks[q-2].Kind != lexer.Ident {
			break
		}
		q--
	}
	args := "(…)"
	if p == end-1 {
		args = "()"
	}
	return "`" + diag.Shorten(cp.src[cp.toks[q].Off:cp.toks[p].Off]) + args + "`"
}

// errRange is the range of token i, or an empty range where the file ends.
func (cp *chunkParser) errRange(i int) diag.Range {
	if cp.toks[i].Kind == lexer.EOF {
		p := cp.startOf(i)
		return diag.Range{Start: p, End: p}
	}
	return cp.tokRange(i)
}

// missingSemicolon reports a `;` missing before token i, right after token
// i-1, with a fix that inserts it. The fix is machine-applicable when token
// i plainly starts something new: it is on a later line, or it is `}` or a
// keyword.
func (cp *chunkParser) missingSemicolon(i int, msg string) {
	at := cp.endOf(i - 1)
	r := diag.Range{Start: at, End: at}
	if !cp.reportable(r) {
		return
	}
	d := cp.diags.Add(cp.file.Name, r, diag.WF001, msg+", found "+cp.describe(i))
	if !cp.startsAnew(i) {
		return
	}
	d.Fixes = []diag.Fix{{Title: "insert `;`", MachineApplicable: true,
		Edits: []diag.Edit{{File: cp.file.Name, Range: r, NewText: ";"}}}}
}

// startsAnew reports whether token i plainly starts something new after
// token i-1: it is on a later line, or it is `}`, a keyword or the end.
func (cp *chunkParser) startsAnew(i int) bool {
	return cp.toks[i].Kind == lexer.EOF || cp.toks[i].Line > cp.toks[i-1].Line ||
		cp.isPunct(i, "}") || cp.kind(i) == lexer.Keyword
}

// reportUnclosed reports the innermost bracket still open at token i when
// the piece s ended inside it (or, for a parenthesis, reached a token that
// cannot stand inside one): the message names what is open, and the
// opening bracket is the related location.
func (cp *chunkParser) reportUnclosed(i int, s span, want string) bool {
	open, ok := cp.openAt(s.lo, i)
	if !ok {
		return false
	}
	switch open.c {
	case '{':
		if i < s.hi {
			return false
		}
	case '(':
		if want != "`,` or `)`" || i < s.hi && !cp.isPunct(i, ";") && !cp.isPunct(i, "{") && !cp.isPunct(i, "}") {
			return false
		}
	default:
		return false
	}
	if open.c == '{' {
		cp.unclosedBrace(s.lo, i, open, "")
		return true
	}
	owner := cp.owner(open)
	cp.unclosed(open, "expected `)` to close "+owner+", found "+cp.describe(i), cp.errRange(i), owner)
	return true
}

// unclosedBrace reports a `{` left unclosed where tokens [lo, i) end with
// braces open. It blames the `{` whose indentation shows it lost its `}`
// (lostBrace), at the line where its block ends; failing that, open (the
// innermost still open at i), at token i. what names open ("" to derive it).
func (cp *chunkParser) unclosedBrace(lo, i int, open openBracket, what string) {
	at := i
	lost, ok := cp.lostBrace(lo, i)
	if ok {
		open, at, what = lost.open, lost.at, ""
	}
	if what == "" {
		what = cp.owner(open)
	}
	found := cp.describe(at)
	if ok && at == lost.closer {
		found = "the `}` of " + cp.owner(lost.outer) + " (by its indentation)"
	}
	cp.unclosed(open, "expected `}` to close "+what+", found "+found, cp.errRange(at), what)
}

// unclosed reports msg at r with the opening bracket as related location.
func (cp *chunkParser) unclosed(open openBracket, msg string, r diag.Range, owner string) {
	if !cp.reportable(r) {
		return
	}
	d := cp.diags.Add(cp.file.Name, r, diag.WF001, msg)
	label := "this `" + string(open.c) + "` is never closed"
	if open.c == '{' {
		label = "this `{` of " + owner + " is never closed"
	}
	d.Related = []diag.Related{{File: cp.file.Name, Range: cp.tokRange(open.tok), Message: label}}
}

// owner names what the bracket at open belongs to, from the tokens before
// it: "entity `Job`", "state `Draft`", "the parameters of event `Go`".
func (cp *chunkParser) owner(open openBracket) string {
	i := open.tok
	if open.c == '[' {
		return "the attribute list"
	}
	if open.c == '(' {
		return cp.parenOwner(i)
	}
	if i > 0 && cp.isPunct(i-1, ")") {
		if p := cp.matchingBack(i - 1); p > 0 {
			return cp.headOwner(p-1, "the durable step")
		}
	}
	if i > 0 && cp.kind(i-1) == lexer.Keyword {
		return "`" + cp.word(i-1) + "`"
	}
	if i > 0 && cp.kind(i-1) == lexer.Ident {
		return cp.headOwner(i-1, "`"+cp.text(i-1)+"`")
	}
	return "this block"
}

// headOwner names the piece whose name is token n: `state X`, `on X`…;
// other when no keyword precedes it.
func (cp *chunkParser) headOwner(n int, other string) string {
	if n < 1 || cp.kind(n) != lexer.Ident {
		return other
	}
	kw := cp.keywordAt(n - 1)
	if n >= 2 && cp.text(n-1) == "error" && cp.is(n-2, "terminal") {
		kw = "terminal"
	}
	if o := keywords[kw].owner; o != "" {
		return fmt.Sprintf(o, cp.text(n))
	}
	return other
}

// parenOwner names what the `(` at i opens.
func (cp *chunkParser) parenOwner(i int) string {
	h := cp.headOwner(i-1, "")
	switch {
	case h != "":
		return "the parameters of " + h
	case i > 0 && cp.kind(i-1) == lexer.Ident:
		return "the arguments of `" + cp.text(i-1) + "`"
	}
	return "the parenthesis"
}

// matchingBack returns the index of the `(` matching the `)` at close, or
// -1 when a brace comes first.
func (fp *fileParser) matchingBack(close int) int {
	depth := 0
	for i := close; i >= 0; i-- {
		switch fp.bracketAt(i) {
		case ')':
			depth++
		case '(':
			depth--
			if depth == 0 {
				return i
			}
		case '{', '}':
			return -1
		}
	}
	return -1
}
