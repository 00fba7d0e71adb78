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

// keyword starts a declaration at `enum` and `workflow` whatever the depth,
// and at `entity` unless attribute lists precede it.
func (t *topSplit) keyword(i int) {
	switch t.fp.word(i) {
	case "enum", "workflow":
		t.cut(i)
	case "entity":
		if !t.attrsOnly {
			t.cut(i)
		}
		t.attrsOnly = false
	}
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
// body. After a `)` that closes everything, a name or a reserved word (but
// `as`) starts the next member: only `;`, `{` or `as` may follow a call or a
// parameter list, so the `;` is missing. It returns the members and the index of the `}` that
// closes the body (hi if there is none).
func (fp *fileParser) splitBody(lo, hi int, starts func(string) bool) ([]span, int) {
	var out []span
	start := lo
	var open brackets
	for i := lo; i < hi; i++ {
		if k := fp.kind(i); i > start && (k == lexer.Keyword && starts != nil && starts(fp.word(i)) ||
			open.depth() == 0 && (k == lexer.Ident || k == lexer.Keyword && fp.word(i) != "as") && fp.is(i-1, ")")) {
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
			if open.depth() == 0 {
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

// splitStatements splits a block body [lo, hi), whose brackets balance,
// into statements (see splitBody).
func (cp *chunkParser) splitStatements(lo, hi int) []span { return cp.splitMembers(lo, hi, nil) }

// splitMembers is splitStatements where the reserved words starts says
// always begin a new piece (`security` in an entity).
func (cp *chunkParser) splitMembers(lo, hi int, starts func(string) bool) []span {
	out, _ := cp.splitBody(lo, hi, starts)
	return out
}

func workflowMemberStart(s string) bool { return s == "event" || s == "state" || s == "terminal" }

func stateItemStart(s string) bool { return s == "subscribe" || s == "on" }
