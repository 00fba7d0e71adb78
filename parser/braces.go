package parser

import (
	"sort"
	"strconv"
	"strings"
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

// repairBraces finds missing `{`, extra `}` and missing `}` (see above),
// reports them and rewrites fp.toks accordingly.
func (fp *fileParser) repairBraces() {
	insertAfter, colons := fp.missingOpenBraces()
	drop := fp.extraCloseBraces(insertAfter)
	for c := range colons {
		if drop == nil {
			drop = map[int]bool{}
		}
		drop[c] = true // Python's `:`, read as the `{` inserted after it
	}
	var pyOpen map[int]int // the inserted `{` of a Python block -> its report
	if len(insertAfter) > 0 || len(drop) > 0 {
		toks := make([]lexer.Token, 0, len(fp.toks)+len(insertAfter))
		for i, t := range fp.toks {
			if !drop[i] {
				toks = append(toks, t)
			}
			if insertAfter[i] {
				if d, ok := colons[i]; ok {
					if pyOpen == nil {
						pyOpen = map[int]int{}
					}
					pyOpen[len(toks)] = d
				}
				toks = append(toks, virtualBrace(fp.src, t))
			}
		}
		fp.toks = toks
	}
	closeBefore := fp.missingCloseBraces(pyOpen)
	if len(closeBefore) == 0 {
		return
	}
	toks := make([]lexer.Token, 0, len(fp.toks)+len(closeBefore))
	fp.inserted = map[int]string{}
	for i, t := range fp.toks {
		for range closeBefore[i] {
			fp.inserted[len(toks)] = "}"
			toks = append(toks, virtualBrace(fp.src, toks[len(toks)-1]))
		}
		toks = append(toks, t)
	}
	fp.toks = toks
}

// virtualBrace is a zero-width brace inserted after token t: a `{`, or a
// `}` or a `;` where fp.inserted says so.
func virtualBrace(src string, t lexer.Token) lexer.Token {
	col := t.Col + uint32(utf8.RuneCountInString(src[t.Off:t.End]))
	return lexer.Token{Off: t.End, End: t.End, Line: t.Line, Col: col, Kind: lexer.Punct}
}

// isVirtualBrace reports whether t is a brace inserted by repairBraces.
func isVirtualBrace(t lexer.Token) bool { return t.Kind == lexer.Punct && t.Off == t.End }

// virtualText is the text of the token inserted at i.
func (fp *fileParser) virtualText(i int) string {
	if s, ok := fp.inserted[i]; ok {
		return s
	}
	return "{"
}

// missingCloseBraces finds blocks whose `}` is missing, by indentation,
// the other way round from missingOpenBraces: a `{` is still open when a
// line starts at or left of the `{`'s line (other than with the `}` level
// with it), and the `}` that closes it by count begins a line left of it,
// level with an outer block that is open (`Assigned {` whose `}` was left
// out, before a sibling `Finished {`), or there is none. Its `}` is
// missing at the end of the block's last line. Each is reported there, with a fix that inserts the
// `}` on a line of its own, and read as if it were there, so what follows
// parses as written. It returns, per token, how many `}` go before it.
// Without such indentation (one-line code, sloppy indentation) nothing is
// guessed, and a block left open is reported where it ends (lostBrace).
//
// The `{` of a Python block (pyOpen: the inserted `{` of a head written
// `state A:`, with its report) is not reported again: the `}` is one more
// edit of that report's fix.
func (fp *fileParser) missingCloseBraces(pyOpen map[int]int) map[int]int {
	var closer []int32 // by count, made when first needed: most files need none
	var stack []openBlock
	var out map[int]int
	n := len(fp.toks) - 1
	indent := uint32(1)
	// level counts the open blocks by the indentation of their line, so
	// asking whether an outer block stands at a column costs O(1) however
	// deep the nesting (TestHostileInputsAreLinear).
	level := map[uint32]int{}
	push := func(o openBlock) { stack = append(stack, o); level[o.indent]++ }
	pop := func() { level[stack[len(stack)-1].indent]--; stack = stack[:len(stack)-1] }
	levelWith := func(top openBlock, col uint32) bool { // an open block below top stands on a line indented by col
		k := level[col]
		if top.indent == col {
			k--
		}
		return k > 0
	}
	// parens counts the brackets open since the last `;`, `{` or `}`: a
	// line that begins inside them goes on the statement of the line that
	// opened them (`Workflow.Once(…,` then `timeout: …) {`), which gives a
	// block its indentation and is never the end of one.
	parens := 0
	for i := 0; i < n; i++ {
		if fp.beginsLine(i) && parens == 0 {
			indent = fp.toks[i].Col
			for len(stack) > 0 {
				o := stack[len(stack)-1]
				if o.indent < indent {
					break
				}
				if fp.bracketAt(i) == '}' && (indent == o.indent || !levelWith(o, indent)) {
					break // its own `}`, or sloppy indentation
				}
				// Confirmed when the `}` that closes it by count begins a
				// line left of it, level with an outer block, or is none.
				if closer == nil {
					closer = fp.braceClosers()
				}
				if c := int(closer[o.tok]); c >= 0 && (!fp.beginsLine(c) || fp.toks[c].Col >= o.indent || !levelWith(o, fp.toks[c].Col)) {
					break
				}
				if fp.swallowed(o.tok, i) {
					break
				}
				if out == nil {
					out = map[int]int{}
				}
				out[i]++
				if d, ok := pyOpen[o.tok]; ok {
					f := &fp.diags.Items[d].Fixes[0]
					f.Edits = append(f.Edits, fp.closeEdit(o.tok, i))
				} else {
					fp.reportMissingClose(o.tok, i)
				}
				pop()
			}
		}
		switch fp.bracketAt(i) {
		case '{':
			parens = 0
			push(openBlock{i, indent})
		case '}':
			parens = 0
			if len(stack) > 0 {
				pop()
			}
		case '(', '[':
			parens++
		case ')', ']':
			parens = max(parens-1, 0)
		default:
			if t := fp.toks[i]; t.Kind == lexer.Punct && fp.src[t.Off:t.End] == ";" {
				parens = 0
			}
		}
	}
	return out
}

// braceClosers is, for each `{`, the index of the `}` that closes it by
// count (-1 for none; other tokens are -1 too): one pass, so confirming a
// missing `}` costs nothing more.
func (fp *fileParser) braceClosers() []int32 {
	out := make([]int32, len(fp.toks))
	var open []int
	for i := range out {
		out[i] = -1
		switch fp.bracketAt(i) {
		case '{':
			open = append(open, i)
		case '}':
			if len(open) > 0 {
				out[open[len(open)-1]] = int32(i)
				open = open[:len(open)-1]
			}
		}
	}
	return out
}

// swallowed reports whether an unterminated string or comment starts
// between tokens lo and hi: it ate text, so the lines after it say nothing
// about the braces (the lexer's error is the one root cause).
func (fp *fileParser) swallowed(lo, hi int) bool {
	k := sort.SearchInts(fp.unterminated, int(fp.toks[lo].Off))
	return k < len(fp.unterminated) && fp.unterminated[k] <= int(fp.toks[hi].Off)
}

// openBlock is a `{` still open, with the indentation of its line.
type openBlock struct {
	tok    int
	indent uint32
}

// reportMissingClose reports the `}` of the `{` at open missing before the
// line that token next begins, at the end of the block's last token, with
// the fix that inserts it on a line of its own after the block's last
// line (and any comment that ends it), indented as the `{`'s line.
func (fp *fileParser) reportMissingClose(open, next int) {
	cp := &chunkParser{fileParser: fp}
	owner := cp.owner(openBracket{c: '{', tok: open})
	end := fp.endOf(next - 1)
	at := diag.Range{Start: end, End: end}
	d := fp.diags.Add(fp.file.Name, at, diag.WF001, "expected `}` to close "+owner+": its block ends here, by its indentation, before "+
		fp.describe(next)+" on line "+strconv.Itoa(int(fp.toks[next].Line)))
	d.Related = []diag.Related{{File: fp.file.Name, Range: fp.tokRange(open), Message: "this `{` of " + owner + " is never closed"}}
	d.Fixes = []diag.Fix{{Title: "insert `}`", MachineApplicable: true, Edits: []diag.Edit{fp.closeEdit(open, next)}}}
}

// closeEdit inserts the `}` of the `{` at open on a line of its own after
// the block's last line (and any comment that ends it), before the line
// of token next, indented as the `{`'s line.
func (fp *fileParser) closeEdit(open, next int) diag.Edit {
	last := next - 1
	p := int(fp.toks[last].End)
	for p < len(fp.src) && fp.src[p] != '\n' && fp.src[p] != '\r' {
		p++ // after a trailing comment
	}
	end := fp.endOf(last)
	pos := diag.MakePos(int(end.Line), int(end.Column)+utf8.RuneCountInString(fp.src[fp.toks[last].End:p]), p)
	eol := "\n"
	if strings.HasPrefix(fp.src[p:], "\r\n") {
		eol = "\r\n"
	}
	lineStart := int(fp.toks[open].Off)
	for lineStart > 0 && fp.src[lineStart-1] != '\n' && fp.src[lineStart-1] != '\r' {
		lineStart--
	}
	lead := fp.src[lineStart:]
	lead = lead[:len(lead)-len(strings.TrimLeft(lead, " \t"))]
	return diag.Edit{File: fp.file.Name, Range: diag.Range{Start: pos, End: pos}, NewText: eol + lead + "}"}
}

// missingOpenBraces returns the heads (by their last token) after which a
// `{` is missing, having reported each; and the `:` of heads written as
// Python's blocks (`state A:` over lines indented deeper), with the index
// of their report, which the `{` is inserted after (and the `:` dropped).
func (fp *fileParser) missingOpenBraces() (map[int]bool, map[int]int) {
	var out map[int]bool
	var colons map[int]int
	n := len(fp.toks) - 1
	budget := len(fp.toks) // tokens the scans of unindented handler bodies may look at, in all
	for i := 0; i < n; i++ {
		t := fp.toks[i]
		if t.Kind != lexer.Keyword || !keywords[fp.text(i)].head || !fp.beginsLine(i) {
			continue
		}
		h := fp.headEnd(i)
		if h < 0 || h+1 >= n || fp.isPunct(h+1, "{") {
			continue
		}
		if fp.isPunct(h+1, ":") && h+2 < n && fp.beginsLine(h+2) && fp.toks[h+2].Col > t.Col {
			if out == nil {
				out, colons = map[int]bool{}, map[int]int{}
			}
			out[h+1] = true
			if colons == nil {
				colons = map[int]int{}
			}
			colons[h+1] = len(fp.diags.Items)
			head := fp.src[t.Off:fp.toks[h].End]
			r := fp.tokRange(h + 1)
			from := r.Start
			if fp.toks[h].End == fp.toks[h+1].Off {
				from = fp.endOf(h)
			}
			d := fp.diags.Add(fp.file.Name, r, diag.WF001, "`"+diag.Shorten(head)+":` is Python's block: a body is written in braces, `"+diag.Shorten(head)+" { … }`")
			d.Fixes = []diag.Fix{{Title: "write the block in braces", MachineApplicable: true,
				Edits: []diag.Edit{{File: fp.file.Name, Range: diag.Range{Start: from, End: r.End}, NewText: " {"}}}}
			continue
		}
		var end int
		if !fp.beginsLine(h + 1) {
			// `on Go goto B; }`: the line's last `}` closes what only the
			// handler can have opened.
			if end = fp.sameLineBody(i, h); end < 0 {
				continue
			}
		} else if fp.toks[h+1].Col < t.Col {
			continue
		} else if fp.toks[h+1].Col == t.Col {
			// A handler whose statements were written level with it.
			if end = fp.unindentedBody(i, h, &budget); end < 0 {
				continue
			}
		} else if end = fp.blockEnd(h, t.Col, n); end >= n || !fp.isPunct(end, "}") || fp.toks[end].Col != t.Col {
			continue // no `}` where the body ends: not this mistake
		}
		if out == nil {
			out = map[int]bool{}
		}
		out[h] = true
		head := fp.src[t.Off:fp.toks[h].End]
		at := fp.endOf(h)
		r := diag.Range{Start: at, End: at}
		how := "its body is indented below it"
		if !fp.beginsLine(h+1) || fp.toks[h+1].Col == t.Col {
			how = "its statements follow it"
		}
		upTo := "up to the `}` on line " + strconv.Itoa(int(fp.toks[end].Line))
		if fp.toks[end].Line == t.Line {
			upTo = "up to the `}` that ends its line"
		}
		d := fp.diags.Add(fp.file.Name, r, diag.WF001, "expected `{` after `"+diag.Shorten(head)+"`: "+how+", "+upTo)
		d.Fixes = []diag.Fix{{Title: "insert `{`", MachineApplicable: true,
			Edits: []diag.Edit{{File: fp.file.Name, Range: r, NewText: " {"}}}}
	}
	return out, colons
}

// unindentedBody returns the `}` that ends the body of the handler head
// at i (ending at h) written without its `{` and with its statements level
// with it, or -1: the lines after the head start statements (not another
// state item) at its column, up to a `}` at its column that closes nothing
// they open — a `}` that by count would close the state, though the
// state's line is indented left of it.
func (fp *fileParser) unindentedBody(i, h int, budget *int) int {
	if fp.text(i) != "on" {
		return -1
	}
	col := fp.toks[i].Col
	if first := h + 1; fp.kind(first) == lexer.Keyword && fp.text(first) != "goto" && fp.text(first) != "default" ||
		fp.isIdent(first) && fp.isPunct(first+1, "=") || fp.isPunct(first, "}") {
		return -1 // another item, or an empty body
	}
	n := len(fp.toks) - 1
	depth, end := 0, -1
	for k := h + 1; k < n && end < 0; k++ {
		if *budget--; *budget < 0 {
			return -1
		}
		if fp.beginsLine(k) && fp.toks[k].Col < col {
			return -1
		}
		switch fp.bracketAt(k) {
		case '{':
			depth++
		case '}':
			if depth == 0 {
				if !fp.beginsLine(k) || fp.toks[k].Col != col {
					return -1
				}
				end = k
			}
			depth--
		}
	}
	if end < 0 {
		return -1
	}
	// The `{` the body's `}` would close by count: the state's, on a line
	// indented left of the handler.
	depth = 0
	for k := i - 1; k >= 0; k-- {
		if *budget--; *budget < 0 {
			return -1
		}
		switch fp.bracketAt(k) {
		case '}':
			depth++
		case '{':
			if depth == 0 {
				if fp.indentOf(k) < col {
					return end
				}
				return -1
			}
			depth--
		}
	}
	return -1
}

// sameLineBody returns the `}` that ends the line of the handler head at
// i (ending at h) when the statements after the head, on its line, close
// one brace more than they open there — the handler's, whose `{` is
// missing — or -1.
func (fp *fileParser) sameLineBody(i, h int) int {
	if fp.text(i) != "on" {
		return -1
	}
	n := len(fp.toks) - 1
	depth := 0
	for k := h + 1; k < n && !fp.beginsLine(k); k++ {
		switch fp.bracketAt(k) {
		case '{':
			depth++
		case '}':
			if depth--; depth < 0 {
				if k+1 < n && !fp.beginsLine(k+1) {
					return -1 // more follows on the line: not a handler's end
				}
				return k
			}
		}
	}
	return -1
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
