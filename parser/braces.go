package parser

import (
	"strconv"
	"unicode/utf8"

	"github.com/wfc-lang/wfc/diag"
	"github.com/wfc-lang/wfc/lexer"
)

// Braces the user's indentation contradicts are repaired before anything
// else reads the tokens, each reported once:
//
//   - a missing `{`: a declaration or member head (`state Review`) whose next
//     line is indented deeper, and whose block ends, by indentation, at a
//     `}`. A `{` is inserted after the head (a zero-width token), so the
//     body parses as written;
//   - an extra `}`: a `}` that does not begin its line, ends a line indented
//     deeper than the `{` it closes by count, and is followed by lines still
//     indented inside that block up to a `}` level with the `{`'s line
//     (`… } }` closing a state early). The `}` is dropped.
//
// A lost `}` is found by indentation the other way round (lostBrace in
// brackets.go), when reporting a block left open.

// repairBraces finds missing `{` and extra `}` (see above), reports them
// and rewrites fp.toks accordingly.
func (fp *fileParser) repairBraces() {
	insertAfter := fp.missingOpenBraces()
	drop := fp.extraCloseBraces(insertAfter)
	if len(insertAfter) == 0 && len(drop) == 0 {
		return
	}
	toks := make([]lexer.Token, 0, len(fp.toks)+len(insertAfter))
	for i, t := range fp.toks {
		if drop[i] {
			continue
		}
		toks = append(toks, t)
		if insertAfter[i] {
			toks = append(toks, virtualBrace(fp.src, t))
		}
	}
	fp.toks = toks
}

// virtualBrace is the zero-width `{` inserted after token t.
func virtualBrace(src string, t lexer.Token) lexer.Token {
	col := t.Col + uint32(utf8.RuneCountInString(src[t.Off:t.End]))
	return lexer.Token{Off: t.End, End: t.End, Line: t.Line, Col: col, Kind: lexer.Punct}
}

// isVirtualBrace reports whether t is a `{` inserted by repairBraces.
func isVirtualBrace(t lexer.Token) bool { return t.Kind == lexer.Punct && t.Off == t.End }

// missingOpenBraces returns the heads (by their last token) after which a
// `{` is missing, having reported each.
func (fp *fileParser) missingOpenBraces() map[int]bool {
	var out map[int]bool
	n := len(fp.toks) - 1
	for i := 0; i < n; i++ {
		t := fp.toks[i]
		if t.Kind != lexer.Keyword || !keywords[fp.text(i)].head || !fp.beginsLine(i) {
			continue
		}
		h := fp.headEnd(i)
		if h < 0 || h+1 >= n || fp.isPunct(h+1, "{") || !fp.beginsLine(h+1) || fp.toks[h+1].Col <= t.Col {
			continue
		}
		end := fp.blockEnd(h, t.Col, n)
		if end >= n || !fp.isPunct(end, "}") || fp.toks[end].Col != t.Col {
			continue // no `}` where the body ends: not this mistake
		}
		if out == nil {
			out = map[int]bool{}
		}
		out[h] = true
		head := fp.src[t.Off:fp.toks[h].End]
		at := fp.endOf(h)
		r := diag.Range{Start: at, End: at}
		d := fp.diags.Add(fp.file.Name, r, diag.WF001, "expected `{` after `"+diag.Shorten(head)+"`: its body is indented below it, up to the `}` on line "+strconv.Itoa(int(fp.toks[end].Line)))
		d.Fixes = []diag.Fix{{Title: "insert `{`", MachineApplicable: true,
			Edits: []diag.Edit{{File: fp.file.Name, Range: r, NewText: " {"}}}}
	}
	return out
}

// headEnd returns the last token of the head that the reserved word at i
// starts (its name; for `terminal error`, the name after `error`; for `on`,
// the `)` of its parameters if any), or -1 when no name follows.
func (fp *fileParser) headEnd(i int) int {
	h := i + 1
	if !fp.isIdent(h) {
		return -1
	}
	switch fp.text(i) {
	case "terminal":
		if fp.text(h) == "error" && fp.isIdent(h+1) {
			h++
		}
	case "on":
		if fp.isPunct(h+1, "(") {
			if c := fp.matching(h+1, min(len(fp.toks)-1, h+1+4*MaxNesting)); c > 0 {
				return c
			}
			return -1
		}
	}
	return h
}

// beginsLine reports whether token i is the first on its line.
func (fp *fileParser) beginsLine(i int) bool { return i == 0 || fp.toks[i].Line != fp.toks[i-1].Line }

// extraCloseBraces returns the `}` tokens to drop, having reported each.
// insertAfter are the heads that get a `{` (they open a block too).
func (fp *fileParser) extraCloseBraces(insertAfter map[int]bool) map[int]bool {
	var out map[int]bool
	type open struct {
		tok    int
		indent uint32
	}
	var stack []open
	budget := len(fp.toks) // tokens the confirming scans may look at, in all
	n := len(fp.toks) - 1
	indent := uint32(1)
	for i := 0; i < n; i++ {
		if fp.beginsLine(i) {
			indent = fp.toks[i].Col
		}
		switch fp.bracketAt(i) {
		case '{':
			stack = append(stack, open{i, indent})
		case '}':
			if len(stack) == 0 {
				continue
			}
			o := stack[len(stack)-1]
			// Indentation speaks only for the last `{` of a line: when an
			// outer block opened on the same line, a `}` level with that
			// line may close either, so it proves nothing.
			sharesLine := len(stack) > 1 && fp.toks[stack[len(stack)-2].tok].Line == fp.toks[o.tok].Line
			if budget > 0 && !sharesLine && !fp.beginsLine(i) && indent > o.indent && fp.beginsLine(i+1) && fp.toks[i+1].Col > o.indent &&
				!fp.isPunct(i+1, "}") {
				end := fp.blockEnd(i, o.indent, n)
				budget -= end - i
				if end < n && fp.isPunct(end, "}") && fp.toks[end].Col == o.indent {
					if out == nil {
						out = map[int]bool{}
					}
					out[i] = true
					fp.reportExtraBrace(i, o.tok, end)
					continue
				}
			}
			stack = stack[:len(stack)-1]
		}
		if insertAfter[i] {
			stack = append(stack, open{i, indent})
		}
	}
	return out
}

// reportExtraBrace reports the `}` at i, which would close the block opened
// at open though its indentation goes on to the `}` at end.
func (fp *fileParser) reportExtraBrace(i, open, end int) {
	cp := &chunkParser{fileParser: fp}
	owner := cp.owner(openBracket{c: '{', tok: open})
	r := fp.tokRange(i)
	from := r.Start
	if i > 0 && fp.toks[i-1].Line == fp.toks[i].Line {
		from = fp.endOf(i - 1) // delete the space before it too
	}
	d := fp.diags.Add(fp.file.Name, r, diag.WF001, "unexpected `}`: it would close "+owner+
		", which by its indentation goes on to the `}` on line "+strconv.Itoa(int(fp.toks[end].Line))+"; remove this `}`")
	d.Fixes = []diag.Fix{{Title: "remove this `}`",
		Edits: []diag.Edit{{File: fp.file.Name, Range: diag.Range{Start: from, End: r.End}, NewText: ""}}}}
	d.Related = []diag.Related{{File: fp.file.Name, Range: fp.tokRange(open), Message: "the `{` of " + owner}}
}
