package parser

import "github.com/wfc-lang/wfc/lexer"

// Chunk boundaries. A chunk ends after a `;` or a `}` that brings the
// bracket depth (counted from the chunk's start) back to zero, and a new one
// starts before a word that can only begin a chunk of that level (the
// reserved words `enum entity workflow` at the top, `event state terminal`
// in a workflow, `subscribe on` in a state), whatever the depth: a missing
// `}` then costs one diagnostic, not the rest of the file.

// splitTop splits the whole file into top-level declarations.
func (fp *fileParser) splitTop() []span {
	t := topSplit{fp: fp}
	n := len(fp.toks) - 1 // the last token is EOF
	for i := 0; i < n; i++ {
		if fp.kind(i) == lexer.Keyword {
			t.keyword(i)
		} else if fp.startsTest(i) {
			if t.open.depth() == 0 || fp.toks[i].Line != fp.toks[i-1].Line && fp.toks[i].Col <= fp.indentOf(t.lo) {
				t.cut(i)
			}
		} else if fp.toks[i].Kind == lexer.Punct {
			t.punct(i)
		}
	}
	if t.lo < n {
		t.out = append(t.out, span{t.lo, n})
	}
	return t.out
}

// topSplit is the state of splitTop.
type topSplit struct {
	fp        *fileParser
	out       []span
	lo        int // where the declaration in progress starts
	open      brackets
	attrsOnly bool // the declaration so far is attribute lists (`[A] [B]`)
}

// cut ends the declaration in progress before token at.
func (t *topSplit) cut(at int) {
	if at > t.lo {
		t.out = append(t.out, span{t.lo, at})
	}
	t.lo = at
	t.attrsOnly = false
	t.open.reset()
}

// keyword starts a declaration at a declaration's reserved word (the
// grammar table's top row) whatever the depth, but at `entity` only where
// no attribute lists precede it.
func (t *topSplit) keyword(i int) {
	switch it := grammar[ctxTop].item(t.fp.word(i)); {
	case it == nil || it.contextual:
	case it.prod == prodEntity:
		// Attribute lists come before `entity`: it ends none of them.
		if !t.attrsOnly && (t.open.depth() == 0 || t.fp.startsInside(i, t.lo)) {
			t.cut(i)
		}
		t.attrsOnly = false
	default:
		if t.open.depth() == 0 || t.fp.startsInside(i, t.lo) {
			t.cut(i)
		}
	}
}

// startsTest reports whether token i is the contextual keyword `test`: the
// name `test` followed by a string, which nothing else in the language
// writes (docs/language.md, "Tests"). Where the declaration before it lost
// its `}`, it starts the next declaration when it begins its line no deeper
// than that declaration, as `workflow` does.
func (fp *fileParser) startsTest(i int) bool {
	return fp.prodAt(ctxTop, i) == prodTest
}

// startsInside reports whether the declaration keyword at i, inside
// brackets opened by the declaration that starts at lo, still starts the
// next declaration (the one before lost its `}`): it begins its line, no
// deeper than the declaration's first line, and a name follows it. A
// keyword standing inside the block, by its place or its indentation,
// starts nothing: it is a mistake inside the declaration, reported there.
func (fp *fileParser) startsInside(i, lo int) bool {
	return fp.beginsMember(i) && fp.toks[i].Col <= fp.indentOf(lo)
}

// beginsMember reports whether the member keyword at i, inside brackets
// its member opened, starts the next member all the same (a `}` is
// missing): it begins its line and a name follows it, as its production
// needs. Members nest one level in their container, so their indentation
// says less than a declaration's: one-line workflows are common.
func (fp *fileParser) beginsMember(i int) bool {
	return i > 0 && fp.toks[i].Line != fp.toks[i-1].Line && fp.isIdent(i+1)
}

// punct ends a declaration after a `;` or `}` that brings the depth to zero.
func (t *topSplit) punct(i int) {
	c := t.fp.bracketAt(i)
	switch {
	case c == '[':
		if t.open.depth() == 0 && i == t.lo {
			t.attrsOnly = true
		}
		t.open.push(c, i)
	case c == '(' || c == '{':
		t.open.push(c, i)
	case c == ')' || c == ']':
		t.open.close(c)
	case c == '}':
		if ok, _ := t.open.close(c); !ok {
			// A `}` that closes nothing ends the declaration in progress
			// (`enum E A, B }` lacks its `{`: one error, not two); alone,
			// it is a chunk of its own, reported as unexpected.
			t.cut(i + 1)
		} else if t.open.depth() == 0 && !t.attrsOnly {
			t.cut(i + 1)
		}
	case t.fp.isPunct(i, ";"):
		if t.open.depth() == 0 && !t.attrsOnly {
			t.cut(i + 1)
		}
	}
}

// splitBody splits tokens [lo, hi) of a body into members. starts says which
// reserved words always begin a member. A member ends after a `;` or a `}`
// that closes all it opened; a `}` that closes nothing it opened closes the
// body. A member also ends before a token that can only start the next one
// (startsMember): then its `;` is missing. It returns the members and the
// index of the `}` that closes the body (hi if there is none).
func (cp *chunkParser) splitBody(lo, hi int, starts func(string) bool) ([]span, int) {
	fp := cp.fileParser
	var out []span
	start := lo
	open := cp.brackets()
	for i := lo; i < hi; i++ {
		if i > start && fp.startsMember(i, open, starts) {
			out = append(out, span{start, i})
			start = i
			open.reset()
		}
		if fp.toks[i].Kind != lexer.Punct {
			continue
		}
		switch c := fp.bracketAt(i); {
		case isOpener(c):
			open.push(c, i)
		case c == ')' || c == ']':
			open.close(c)
		case c == '}':
			if ok, _ := open.close(c); !ok {
				// No `{` open in this member: the `}` closes the body.
				if i > start {
					out = append(out, span{start, i})
				}
				return out, i
			}
			if open.depth() == 0 && !fp.catchNext(i) {
				out = append(out, span{start, i + 1})
				start = i + 1
			}
		case fp.isPunct(i, ";"):
			if open.depth() == 0 {
				out = append(out, span{start, i + 1})
				start = i + 1
			}
		}
	}
	if start < hi {
		out = append(out, span{start, hi})
	}
	return out, hi
}

// startsMember reports whether token i, inside a member, begins the next
// one instead: a reserved word of starts, at the member's level or, inside
// brackets it opened, where beginsMember says a `}` is missing; or, where the member opened nothing still unclosed, a name or a
// reserved word after a `)` (but `as`), or a name that starts its line
// followed by `=` — a setting, since no value or statement continues that
// way — so a missing `;` costs one diagnostic and loses nothing after it.
func (fp *fileParser) startsMember(i int, open *brackets, starts func(string) bool) bool {
	k := fp.kind(i)
	if k == lexer.Keyword && starts != nil && starts(fp.word(i)) {
		return open.depth() == 0 || fp.beginsMember(i)
	}
	if open.depth() != 0 {
		return false
	}
	if (k == lexer.Ident || k == lexer.Keyword && fp.word(i) != "as") && fp.is(i-1, ")") {
		return true
	}
	return k == lexer.Ident && fp.toks[i].Line > fp.toks[i-1].Line && fp.is(i+1, "=")
}

// splitStatements splits a block body [lo, hi), whose brackets balance,
// into statements (see splitBody).
func (cp *chunkParser) splitStatements(lo, hi int) []span { return cp.splitMembers(lo, hi, nil) }

// splitMembers is splitStatements where the reserved words starts says
// always begin a new piece (`security` in an entity).
func (cp *chunkParser) splitMembers(lo, hi int, starts func(string) bool) []span {
	out, _ := cp.splitBody(lo, hi, starts)
	return out
}

// workflowMemberStart and stateItemStart are the split points of a
// workflow's and a state's body: the reserved words that start one of
// their items in the grammar table.
func workflowMemberStart(s string) bool { return grammar[ctxWorkflow].starts(s) }

func stateItemStart(s string) bool { return grammar[ctxState].starts(s) }

// catchNext reports whether the `}` at i is followed by `catch {`: a
// durable step's block and its catch are one piece.
func (fp *fileParser) catchNext(i int) bool {
	return i+2 < len(fp.toks) && fp.kind(i+1) == lexer.Ident && fp.text(i+1) == "catch" && fp.is(i+2, "{")
}
