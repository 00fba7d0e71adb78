package format

import (
	"strings"
	"unicode/utf8"

	"github.com/wfc-lang/wfc/diag"
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
	line     uint32 // source line where it starts
	endLine  uint32 // source line where it ends (a block comment may span lines)
	match    int32  // index of the matching brace, -1 if none
	width    int32  // columns it takes on one line
	cls      class
	kind     lexer.Kind
	nl       uint8 // newlines in the source before it, at most 2
	pin      pin   // how an ignore comment ties it to the item before it
}

// pin says how a `wfc:ignore` comment ties an item to the one before it. An
// ignore silences diagnostics by line (its own line, or the next), so the
// line it covers must come out as one line, with the same items: items on it
// stay together (pinJoin), and it stays apart from the lines around it
// (pinBreak).
type pin uint8

const (
	pinNone  pin = iota
	pinJoin      // on the same covered line as the item before: no newline between
	pinBreak     // a covered line starts or ends between them: keep the newline
	pinBlank     // the covered line between them is blank: keep it blank
)

func (it *item) comment() bool { return it.cls == cLine || it.cls == cBlock }

// printer builds the output. Its decisions depend only on the items' texts,
// on whether each brace pair was on one source line, and on where comments
// had newlines around them — all things its own output preserves, which is
// what makes formatting idempotent.
type printer struct {
	src   string
	it    []item
	out   []byte
	ents  []entry // stack of the entries of the bodies being printed
	eol   string  // the line end written: the source's first, LF or CRLF
	bad   bool    // a comment or string holds a control character or invalid UTF-8
	start int     // where the text starts: after a byte order mark
	// at, when tracking, holds where each item was written in out.
	at [][2]int
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
	line := uint32(1)
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
			it.width = p.width(p.src[it.off:it.end])
		} else {
			t := toks[ti]
			ti++
			it = item{off: t.Off, end: t.End, kind: t.Kind, match: -1, width: int32(t.End - t.Off)}
			switch t.Kind {
			case lexer.Punct:
				it.cls = cPunct
			case lexer.Keyword:
				it.cls = cKeyword
			case lexer.String:
				it.width = p.width(p.src[t.Off:t.End])
			}
		}
		gap := lineBreaks(p.src[prev:it.off])
		it.nl = uint8(min(2, gap))
		line += uint32(gap)
		it.line, it.endLine = line, line
		if it.cls == cBlock {
			line += uint32(lineBreaks(p.src[it.off:it.end]))
			it.endLine = line
		}
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

// width counts the code points of a comment or string; it notes in p.bad
// a control character or invalid UTF-8, which the lexer lets pass there.
func (p *printer) width(s string) int32 {
	n := int32(0)
	for i := 0; i < len(s); {
		c := s[i]
		if c < utf8.RuneSelf {
			if c < 0x20 && c != '\t' && c != '\n' && c != '\r' && c != '\f' || c == 0x7f {
				p.bad = true
			}
			i++
		} else {
			r, size := utf8.DecodeRuneInString(s[i:])
			if r == utf8.RuneError && size == 1 {
				p.bad = true
			}
			i += size
		}
		n++
	}
	return n
}

// lineBreaks counts the line breaks in s as the lexer does: LF, CR LF, and
// a lone CR.
func lineBreaks(s string) int {
	n := strings.Count(s, "\n")
	if strings.IndexByte(s, '\r') < 0 {
		return n
	}
	for i := 0; i < len(s); i++ {
		if s[i] == '\r' && (i+1 == len(s) || s[i+1] != '\n') {
			n++
		}
	}
	return n
}

// pinIgnored ties the items of each line a `wfc:ignore` comment covers
// (see pin), so that formatting never changes what an ignore silences.
func (p *printer) pinIgnored(igs []diag.Ignore) {
	if len(igs) == 0 {
		return
	}
	covered := map[uint32]bool{}
	for _, ig := range igs {
		l := uint32(ig.Range.Start.Line)
		if !ig.Trailing {
			l++
		}
		covered[l] = true
	}
	for i := 1; i < len(p.it); i++ {
		a, b := &p.it[i-1], &p.it[i]
		switch {
		case b.nl == 0 && covered[b.line]:
			b.pin = pinJoin
		case b.nl >= 2 && covered[a.endLine+1]:
			b.pin = pinBlank
		case b.nl > 0 && (covered[b.line] || covered[a.endLine]):
			b.pin = pinBreak
		}
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
		// Brackets hug comments as they hug tokens: `Go(/* none */)`.
		open := A.cls == cPunct && A.end-A.off == 1 && (p.src[A.off] == '(' || p.src[A.off] == '[')
		shut := B.cls == cPunct && B.end-B.off == 1 && (p.src[B.off] == ')' || p.src[B.off] == ']')
		return !open && !shut
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
// lex differently (`!` `=` becoming `!=`, `1` `.` `5` becoming `1.5`,
// `-` `-` becoming a `--` comment).
func (p *printer) glues(a, b int) bool {
	A, B := &p.it[a], &p.it[b]
	if A.kind == lexer.Int || A.kind == lexer.Decimal {
		return B.cls == cPunct && p.src[B.off] == '.'
	}
	if A.cls == cPunct && A.end-A.off == 1 && B.cls == cPunct {
		switch p.src[A.off] {
		case '!', '=', '<', '>':
			return p.src[B.off] == '='
		case '-':
			// `- -` written `--` before a space or a line end is a
			// `--` comment (WF003), and the rest of the line goes with it.
			return p.src[B.off] == '-'
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

// write writes item i; comments are written as they are, line ends inside
// a block comment included.
func (p *printer) write(i int) {
	t := p.text(i)
	if p.at != nil {
		p.at[i] = [2]int{len(p.out), len(p.out) + len(t)}
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
		p.out = append(p.out, p.eol...)
	}
	p.out = append(p.out, p.eol...)
	for range n {
		p.out = append(p.out, ' ')
	}
}
