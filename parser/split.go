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
	var out []span
	n := len(fp.toks) - 1 // the last token is EOF
	lo := 0
	var open brackets
	attrsOnly := false // the chunk so far is attribute lists (`[A] [B]`)
	for i := 0; i < n; i++ {
		if fp.kind(i) == lexer.Keyword {
			switch fp.word(i) {
			case "enum", "workflow":
				if i > lo {
					out = append(out, span{lo, i})
				}
				lo, attrsOnly = i, false
				open.reset()
			case "entity":
				if i > lo && !attrsOnly {
					out = append(out, span{lo, i})
					lo = i
					open.reset()
				}
				attrsOnly = false
			}
			continue
		}
		if fp.toks[i].Kind != lexer.Punct {
			continue
		}
		c := fp.bracketAt(i)
		switch {
		case c == '[':
			if open.depth() == 0 && i == lo {
				attrsOnly = true
			}
			open.push(c, i)
		case c == '(' || c == '{':
			open.push(c, i)
		case c == ')' || c == ']':
			open.close(c)
		case c == '}':
			if ok, _ := open.close(c); !ok {
				// A `}` that closes nothing ends the declaration in progress
				// (`enum E A, B }` lacks its `{`: one error, not two); alone,
				// it is a chunk of its own, reported as unexpected.
				out = append(out, span{lo, i + 1})
				lo, attrsOnly = i+1, false
				open.reset()
				continue
			}
			if open.depth() == 0 && !attrsOnly {
				out = append(out, span{lo, i + 1})
				lo = i + 1
			}
		case fp.isPunct(i, ";"):
			if open.depth() == 0 && !attrsOnly {
				out = append(out, span{lo, i + 1})
				lo = i + 1
			}
		}
	}
	if lo < n {
		out = append(out, span{lo, n})
	}
	return out
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
