package format

import (
	"strings"
	"unicode/utf8"

	"github.com/wfc-lang/wfc/lexer"
)

// class is what the printer needs to know of an item.
type class uint8

const (
	cWord    class = iota // identifier, keyword or literal
	cPunct                // punctuation
	cLine                 // `// …` comment
	cBlock                // `/* … */` comment
	cKeyword              // reserved word (a word too)
)

// item is a token or a comment, in source order.
type item struct {
	off, end uint32
	line     uint32 // source line of a token (0 for comments)
	match    int32  // index of the matching brace, -1 if none
	width    int32  // columns it takes on one line
	cls      class
	kind     lexer.Kind
	nl       uint8 // newlines in the source before it, at most 2
}

func (it *item) comment() bool { return it.cls == cLine || it.cls == cBlock }

// printer builds the output. Its decisions depend only on the items' texts,
// on whether each brace pair was on one source line, and on where comments
// had newlines around them — all things its own output preserves, which is
// what makes formatting idempotent.
type printer struct {
	src  string
	it   []item
	out  []byte
	ents []entry // stack of the entries of the bodies being printed
	crlf bool    // the source's line ends are CRLF
}

// items merges tokens and comments into p.it and matches braces.
func (p *printer) items(start int, lx *lexer.Result) {
	toks := lx.Tokens
	if n := len(toks); n > 0 && toks[n-1].Kind == lexer.EOF {
		toks = toks[:n-1]
	}
	cs := lx.Comments
	p.it = make([]item, 0, len(toks)+len(cs))
	prev := start
	var stack []int32
	for ti, ci := 0, 0; ti < len(toks) || ci < len(cs); {
		var it item
		if ci < len(cs) && (ti >= len(toks) || cs[ci].Off < toks[ti].Off) {
			c := cs[ci]
			ci++
			it = item{off: c.Off, end: c.End, cls: cBlock, match: -1}
			if p.src[c.Off+1] == '/' {
				it.cls = cLine
				it.end = uint32(len(strings.TrimRight(p.src[:c.End], " \t\r")))
			}
			it.width = int32(utf8.RuneCountInString(p.src[it.off:it.end]))
		} else {
			t := toks[ti]
			ti++
			it = item{off: t.Off, end: t.End, line: t.Line, kind: t.Kind, match: -1, width: int32(t.End - t.Off)}
			switch t.Kind {
			case lexer.Punct:
				it.cls = cPunct
			case lexer.Keyword:
				it.cls = cKeyword
			case lexer.String:
				it.width = int32(utf8.RuneCountInString(p.src[t.Off:t.End]))
			}
		}
		it.nl = uint8(min(2, strings.Count(p.src[prev:it.off], "\n")))
		prev = int(it.end)
		i := int32(len(p.it))
		if it.cls == cPunct && it.end-it.off == 1 {
			switch p.src[it.off] {
			case '{':
				stack = append(stack, i)
			case '}':
				if n := len(stack); n > 0 {
					it.match = stack[n-1]
					p.it[stack[n-1]].match = i
					stack = stack[:n-1]
				}
			}
		}
		p.it = append(p.it, it)
	}
}

func (p *printer) text(i int) string { return p.src[p.it[i].off:p.it[i].end] }

// punct reports whether item i is the one-byte punctuation c.
func (p *printer) punct(i int, c byte) bool {
	it := &p.it[i]
	return it.cls == cPunct && it.end-it.off == 1 && p.src[it.off] == c
}

// spaced reports whether two adjacent items on one line have a space
// between them.
func (p *printer) spaced(a, b int) bool {
	A, B := &p.it[a], &p.it[b]
	if A.comment() || B.comment() {
		return true
	}
	if B.cls == cPunct && B.end-B.off == 1 {
		switch p.src[B.off] {
		case ';', ',', ')', ']', '.', '?', ':':
			return p.glues(a, b)
		case '(':
			if A.kind == lexer.Ident || p.punct(a, ')') {
				return p.glues(a, b)
			}
		}
	}
	if A.cls == cPunct && A.end-A.off == 1 {
		switch p.src[A.off] {
		case '(', '[', '.', '!', '-':
			return p.glues(a, b)
		}
	}
	return true
}

// glues reports whether writing a and b with nothing between them would
// lex differently (`!` `=` becoming `!=`, `1` `.` `5` becoming `1.5`).
func (p *printer) glues(a, b int) bool {
	A, B := &p.it[a], &p.it[b]
	if A.kind == lexer.Int || A.kind == lexer.Decimal {
		return B.cls == cPunct && p.src[B.off] == '.'
	}
	if A.cls == cPunct && A.end-A.off == 1 && B.cls == cPunct {
		switch p.src[A.off] {
		case '!', '=', '<', '>':
			return p.src[B.off] == '='
		}
	}
	return false
}

// flatWidth is the width of items s..e written on one line; it stops
// counting past limit.
func (p *printer) flatWidth(s, e, limit int) int {
	w := 0
	for i := s; i <= e && w <= limit; i++ {
		if i > s && p.spaced(i-1, i) {
			w++
		}
		w += int(p.it[i].width)
	}
	return w
}

// write writes item i. In a CRLF file, a block comment's line ends are
// written as LF, like all others, and all become CRLF at the end.
func (p *printer) write(i int) {
	t := p.text(i)
	if p.crlf && p.it[i].cls == cBlock {
		t = strings.ReplaceAll(t, "\r\n", "\n")
	}
	p.out = append(p.out, t...)
}

// newline starts a new line indented by n columns, after a blank line if
// blank is set. At the very start of the output it writes nothing.
func (p *printer) newline(n int, blank bool) {
	if len(p.out) == 0 || len(p.out) == 3 && string(p.out) == "\uFEFF" {
		return
	}
	if blank {
		p.out = append(p.out, '\n')
	}
	p.out = append(p.out, '\n')
	for range n {
		p.out = append(p.out, ' ')
	}
}
