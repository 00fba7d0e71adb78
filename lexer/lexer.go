// Package lexer turns workflow-language source into tokens (docs/language.md, Lexical structure).
//
// It is hand-written so that it is fast, allocation-light and tolerant: a
// bad byte, an unterminated string or a malformed number becomes a diagnostic
// (WF002–WF005) and lexing goes on, so one file reports all its problems.
// White space is dropped and comments are recorded apart; every token knows its byte offsets
// and its line and column (columns count Unicode code points).
package lexer

import (
	"fmt"
	"math"
	"math/big"
	"strconv"
	"strings"
	"sync/atomic"
	"unicode"
	"unicode/utf8"

	"github.com/wfc-lang/wfc/diag"
)

// Kind is a token's class.
type Kind uint8

const (
	EOF     Kind = iota
	Ident        // words: names, and reserved words until the parser marks them
	Keyword      // reserved words, as the parser marks them (parser.Lex): which words are reserved is the grammar's
	Int          // 42
	Decimal      // 0.2
	String       // "…"
	Punct        // { } ( ) [ ] ; , . = : ? ! - && || == != < <= > >=
)

var kindNames = [...]string{"EOF", "Ident", "Keyword", "Int", "Decimal", "String", "Punct"}

func (k Kind) String() string { return kindNames[k] }

// Token is one token. Positions are byte offsets into the source; Line and
// Col (1-based, code points) are those of Off. Tokens never span lines, except
// strings in malformed input, which are cut at the end of the line.
type Token struct {
	Off, End  uint32
	Line, Col uint32
	Kind      Kind
	// Bad marks a literal already reported as malformed (WF004/WF005/WF002):
	// later stages accept it without further complaint.
	Bad bool
}

// MaxFileSize is the largest source the lexer accepts: positions are 32-bit.
const MaxFileSize = math.MaxInt32 - 1

// Result is the output of Lex.
type Result struct {
	Tokens []Token // ends with an EOF token at the end of the source
	Diags  []diag.Diagnostic
	// Unterminated holds the offsets where an unterminated string or block
	// comment starts: it swallowed text, so the parser does not report
	// syntax errors that follow it in the same declaration (one root cause,
	// one diagnostic).
	Unterminated []int
	// Gaps holds the offsets of bytes dropped as WF003: a syntax error right
	// after a gap is its consequence, and the parser stays quiet about it.
	Gaps []int
	// Ignores are the `// wfc:ignore CODE reason` comments.
	Ignores []diag.Ignore
	// Comments are every comment's byte range, in order, so that a
	// formatter can keep them in place.
	Comments []Comment
	// Respelt maps the offset of a name written with letters that only
	// look like Latin ones (a Cyrillic `о` in `Dоne`) to the name it is
	// read as (`Done`): reported once, it then names what the author meant,
	// so nothing else is reported about it. Nil in most files.
	Respelt map[uint32]string
}

// Comment is the byte range of a comment: `//` up to (not including) the end
// of its line, or `/*` through `*/` (to the end of the source if unterminated).
type Comment struct{ Off, End uint32 }

// Lex tokenizes src, the text of file. It never fails: problems are
// diagnostics and the bad bytes are skipped.
func Lex(file string, src string) Result {
	l := lx{file: file, src: src, line: 1, col: 1}
	if at, ok := binary(src); ok {
		// One clear diagnostic instead of millions: a binary file has no tokens.
		l.i = at
		p := l.posAt(at)
		l.diags = append(l.diags, diag.New(file, diag.Range{Start: p, End: diag.MakePos(int(p.Line), int(p.Column)+1, at+1)},
			diag.WF003, "this is a binary file, not UTF-8 text: wfc checks workflow source (.wf) only"))
		end := l.posAt(len(src))
		l.toks = []Token{{Off: uint32(len(src)), End: uint32(len(src)), Line: uint32(end.Line), Col: uint32(end.Column), Kind: EOF}}
		return Result{Tokens: l.toks, Diags: l.diags}
	}
	// A rough guess: one token per 4.6 bytes keeps re-allocation rare.
	// Typical source has one per five (the generated corpus 4.97–5.01):
	// exactly one per five made half such files grow their slice once,
	// copying it and leaving the first as garbage.
	l.toks = make([]Token, 0, len(src)/5+len(src)/64+16)
	// A UTF-8 byte order mark (Windows editors write one) is not text:
	// skip it without counting a column, as editors show it.
	if strings.HasPrefix(src, "\uFEFF") {
		l.i = 3
	}
	l.run()
	l.summarize()
	return Result{Tokens: l.toks, Diags: l.diags, Unterminated: l.unterminated, Gaps: l.gaps, Ignores: l.ignores, Comments: l.comments, Respelt: l.respelt}
}

// MaxPerCode is how many diagnostics of each lexical code (WF002–WF005) one
// file reports one by one; the rest are counted in one last diagnostic, so a
// hostile file of a million bad escapes costs no more to report than 200.
const MaxPerCode = 200

// MaxFractionDigits is how many digits a decimal literal may have after its
// point: .NET's decimal holds 28. The lowering of jitter relies on it.
const MaxFractionDigits = 28

// lexCodes are the codes the lexer reports, in the order of their summaries.
var lexCodes = [...]diag.ID{diag.WF002, diag.WF003, diag.WF004, diag.WF005}

// unreportedWhat says what a summary counts, per code of lexCodes.
var unreportedWhat = [...]string{
	"unterminated strings or block comments",
	"runs of bad bytes (characters that cannot start a token, NUL or invalid UTF-8)",
	"malformed or out-of-range numbers",
	"bad string escapes",
}

// binary reports whether src looks like a binary file, and where its first
// bad byte is: NUL, control or invalid UTF-8 bytes make up more than a tenth of
// its first 8000 bytes, and there are at least 16 of them (a text file with
// a few stray bad bytes is not binary).
func binary(src string) (int, bool) {
	sample := src[:min(len(src), 8000)]
	lookedAgain.Add(int64(len(sample)))
	bad, first := 0, -1
	for i := 0; i < len(sample); {
		c := sample[i]
		r, size := rune(c), 1
		if c >= utf8.RuneSelf {
			r, size = utf8.DecodeRuneInString(sample[i:])
			if r == utf8.RuneError && size == 1 && len(sample)-i < utf8.UTFMax && len(sample) < len(src) {
				break // a code point cut by the sample's end
			}
		}
		if r == utf8.RuneError && size == 1 || r < 0x20 && r != '\t' && r != '\n' && r != '\r' && r != '\f' {
			bad++
			if first < 0 {
				first = i
			}
		}
		i += size
	}
	return first, bad >= 16 && bad*10 > len(sample)
}

// posAt computes the position of byte offset at by scanning from the start
// (used once per file, for binary files only).
func (l *lx) posAt(at int) diag.Pos {
	lookedAgain.Add(int64(at))
	line, col := 1, 1
	for i := 0; i < at; {
		if n := lineBreak(l.src, i); n > 0 {
			line, col = line+1, 1
			i += n
			continue
		}
		_, size := utf8.DecodeRuneInString(l.src[i:])
		i += size
		col++
	}
	return diag.MakePos(line, col, at)
}

// lookedAgain counts the bytes the lexer reads besides its one pass: the
// sample that tells a binary file, the scan from the start for a position,
// the look ahead for a single-quoted string's end. Each is bounded (by the
// sample, by once per file, by the line), so it grows no faster than the
// input: TestLexLinear reads it (a count, unlike a time, does not depend
// on the machine).
var lookedAgain atomic.Int64

type lx struct {
	file  string
	src   string
	i     int // current byte offset
	line  int
	col   int // column of src[i]
	toks  []Token
	diags []diag.Diagnostic

	unterminated []int
	gaps         []int
	ignores      []diag.Ignore
	comments     []Comment
	lastTokLine  int // line of the last token, to tell trailing comments
	// foreignNames are the names with non-ASCII letters reported so far,
	// with the index in diags of their report (-1 when over the limit).
	foreignNames map[string]int
	respelt      map[uint32]string

	reported        [len(lexCodes)]int        // diagnostics per code of lexCodes
	firstUnreported [len(lexCodes)]diag.Range // where the first one not reported is
}

func (l *lx) pos() diag.Pos { return diag.MakePos(l.line, l.col, l.i) }

func (l *lx) errAt(start diag.Pos, code diag.ID, msg string) {
	l.report(code, diag.Range{Start: start, End: l.pos()}, msg)
}

// report adds a diagnostic of a code of lexCodes, up to MaxPerCode of them;
// past that it only counts, for summarize.
// It returns the diagnostic added (to attach fixes), or nil.
func (l *lx) report(code diag.ID, r diag.Range, msg string) *diag.Diagnostic {
	k := codeIndex(code)
	l.reported[k]++
	if l.reported[k] > MaxPerCode {
		if l.reported[k] == MaxPerCode+1 {
			l.firstUnreported[k] = r
		}
		return nil
	}
	l.diags = append(l.diags, diag.New(l.file, r, code, msg))
	return &l.diags[len(l.diags)-1]
}

func codeIndex(code diag.ID) int {
	for i, c := range lexCodes {
		if c == code {
			return i
		}
	}
	panic("lexer: not a lexical code: " + string(code))
}

// summarize adds, per code, one diagnostic that counts those not reported.
func (l *lx) summarize() {
	for k, n := range l.reported {
		if n <= MaxPerCode {
			continue
		}
		l.diags = append(l.diags, diag.New(l.file, l.firstUnreported[k], lexCodes[k],
			fmt.Sprintf("%d more %s follow and are not reported one by one", n-MaxPerCode, unreportedWhat[k])))
	}
}

// lineBreak returns the length of the line break at src[i] (LF, CR LF or a
// lone CR, as editors and LSP count lines), or 0.
func lineBreak(src string, i int) int {
	switch src[i] {
	case '\n':
		return 1
	case '\r':
		if i+1 < len(src) && src[i+1] == '\n' {
			return 2
		}
		return 1
	}
	return 0
}

// isLineEnd reports whether src[i] ends a line's text (LF or CR).
func isLineEnd(c byte) bool { return c == '\n' || c == '\r' }

// comment records a `// wfc:ignore CODE… reason` line comment.
func (l *lx) comment(start diag.Pos) {
	text := l.src[start.Offset:l.i]
	body := strings.TrimSpace(strings.TrimPrefix(text, "//"))
	if !strings.HasPrefix(body, "wfc:ignore") {
		return
	}
	ig := diag.Ignore{
		File:     l.file,
		Range:    diag.Range{Start: start, End: l.pos()},
		Trailing: len(l.toks) > 0 && l.lastTokLine == int(start.Line),
	}
	if ig.Trailing {
		s := int(start.Offset)
		for s > 0 && (l.src[s-1] == ' ' || l.src[s-1] == '\t') {
			s--
		}
		ig.Cut = diag.Range{Start: diag.MakePos(int(start.Line), int(start.Column)-(int(start.Offset)-s), s), End: ig.Range.End}
	} else {
		ig.Cut = diag.Range{Start: diag.MakePos(int(start.Line), 1, int(start.Offset)-int(start.Column)+1), End: ig.Range.End}
		if l.i < len(l.src) {
			if n := lineBreak(l.src, l.i); n > 0 {
				ig.Cut.End = diag.MakePos(int(start.Line)+1, 1, l.i+n)
			}
		}
	}
	for _, f := range strings.FieldsFunc(strings.TrimPrefix(body, "wfc:ignore"), func(r rune) bool { return r == ' ' || r == ',' || r == '\t' }) {
		if len(f) != 5 || !strings.HasPrefix(f, "WF") || strings.Trim(f[2:], "0123456789") != "" {
			break // the reason starts here
		}
		ig.Codes = append(ig.Codes, diag.ID(f))
	}
	l.ignores = append(l.ignores, ig)
}

func (l *lx) emit(start diag.Pos, k Kind, bad bool) {
	l.lastTokLine = int(start.Line)
	l.toks = append(l.toks, Token{Off: uint32(start.Offset), End: uint32(l.i), Line: uint32(start.Line), Col: uint32(start.Column), Kind: k, Bad: bad})
}

// advanceASCII moves over n bytes known to be ASCII and not newlines.
func (l *lx) advanceASCII(n int) { l.i += n; l.col += n }

// advanceRune moves over one code point (an invalid byte counts as one) or
// one line break.
func (l *lx) advanceRune() {
	c := l.src[l.i]
	if n := lineBreak(l.src, l.i); n > 0 {
		l.i += n
		l.line++
		l.col = 1
		return
	}
	if c < utf8.RuneSelf {
		l.i++
		l.col++
		return
	}
	_, size := utf8.DecodeRuneInString(l.src[l.i:])
	l.i += size
	l.col++
}

func isIdentStart(c byte) bool {
	return c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c == '_'
}

func isIdentPart(c byte) bool { return isIdentStart(c) || c >= '0' && c <= '9' }

func isDigit(c byte) bool { return c >= '0' && c <= '9' }

func (l *lx) run() {
	src := l.src
	for l.i < len(src) {
		c := src[l.i]
		switch {
		case c == ' ' || c == '\t':
			l.advanceASCII(1)
		case c == '\n' || c == '\r':
			l.advanceRune()
		case isIdentStart(c):
			start := l.pos()
			j := l.i + 1
			for j < len(src) && isIdentPart(src[j]) {
				j++
			}
			l.advanceASCII(j - l.i)
			if l.i < len(src) && src[l.i] >= utf8.RuneSelf && l.foreignIdent(start) {
				continue
			}
			l.emit(start, Ident, false)
		case isDigit(c):
			l.number()
		case c == '"':
			l.str()
		case c == '#' || c == '-' && isDashComment(src, l.i):
			l.foreignComment()
		case c == '\'':
			l.singleQuoted()
		case c == '`' || c >= utf8.RuneSelf && l.foreignQuoted():
			// foreignQuoted lexed a non-ASCII quote already (it is false,
			// and lexes nothing, for any other character); a backtick is
			// lexed here.
			if c == '`' && !l.foreignQuoted() {
				l.badChar()
			}
		case c >= utf8.RuneSelf && isForeignLetter(src[l.i:]):
			l.foreignIdent(l.pos())
		case c == '/' && l.i+1 < len(src) && src[l.i+1] == '/':
			start := l.pos()
			for l.i < len(src) && !isLineEnd(src[l.i]) {
				l.commentRune()
			}
			l.comments = append(l.comments, Comment{Off: uint32(start.Offset), End: uint32(l.i)})
			l.comment(start)
		case c == '/' && l.i+1 < len(src) && src[l.i+1] == '*':
			start := l.pos()
			l.advanceASCII(2)
			closed := false
			for l.i < len(src) {
				if src[l.i] == '*' && l.i+1 < len(src) && src[l.i+1] == '/' {
					l.advanceASCII(2)
					closed = true
					break
				}
				l.commentRune()
			}
			l.comments = append(l.comments, Comment{Off: uint32(start.Offset), End: uint32(l.i)})
			if !closed {
				l.unterminated = append(l.unterminated, int(start.Offset))
				end := start
				end.Offset += 2
				end.Column += 2
				l.report(diag.WF002, diag.Range{Start: start, End: end},
					"unterminated block comment: add `*/` to close the `/*` opened here (block comments do not nest)")
			}
		default:
			if n := punctLen(src, l.i); n > 0 {
				start := l.pos()
				l.advanceASCII(n)
				l.emit(start, Punct, false)
				continue
			}
			l.badChar()
		}
	}
	l.emit(l.pos(), EOF, false)
}

// punctLen returns the length of the punctuation token at src[i], or 0.
func punctLen(src string, i int) int {
	c := src[i]
	var next byte
	if i+1 < len(src) {
		next = src[i+1]
	}
	switch c {
	case '{', '}', '(', ')', '[', ']', ';', ',', '.', ':', '?', '-':
		return 1
	case '=', '!', '<', '>':
		if next == '=' {
			return 2
		}
		return 1
	case '&':
		if next == '&' {
			return 2
		}
	case '|':
		if next == '|' {
			return 2
		}
	}
	return 0
}

// commentRune moves over one code point of a comment. A NUL or a byte that
// is not UTF-8 is WF003 there as everywhere else: a comment is text too.
func (l *lx) commentRune() {
	c := l.src[l.i]
	if c != 0 && c < utf8.RuneSelf {
		l.advanceRune()
		return
	}
	if c != 0 {
		if r, size := utf8.DecodeRuneInString(l.src[l.i:]); r != utf8.RuneError || size != 1 {
			l.advanceRune()
			return
		}
	}
	st := l.pos()
	l.advanceRune()
	if c == 0 {
		l.errAt(st, diag.WF003, "unexpected NUL byte inside a comment")
	} else {
		l.errAt(st, diag.WF003, fmt.Sprintf("invalid UTF-8 byte 0x%02X inside a comment", c))
	}
}

// badChar reports a run of bytes that cannot start a token (WF003) and skips it.
func (l *lx) badChar() {
	start := l.pos()
	l.gaps = append(l.gaps, int(start.Offset))
	var what string
	c := l.src[l.i]
	r, size := utf8.DecodeRuneInString(l.src[l.i:])
	switch {
	case c == 0:
		what = "NUL byte"
	case r == utf8.RuneError && size == 1:
		what = fmt.Sprintf("invalid UTF-8 byte 0x%02X", c)
	case c == '&':
		what = "`&` (for a logical and write `&&`)"
	case c == '|':
		what = "`|` (for a logical or write `||`)"
	case r < 0x20 || r == 0x7f:
		what = fmt.Sprintf("control character U+%04X", r)
	default:
		what = fmt.Sprintf("character `%c` (U+%04X)", r, r)
	}
	l.advanceRune()
	// Group a run of the same kind of bad input into one diagnostic, so a
	// binary file yields a few diagnostics, not one per byte.
	for l.i < len(l.src) {
		c := l.src[l.i]
		if c == ' ' || c == '\t' || isLineEnd(c) || c == '"' || c == '/' || isIdentStart(c) || isDigit(c) || punctLen(l.src, l.i) > 0 {
			break
		}
		l.advanceRune()
	}
	msg := "unexpected " + what + ": it cannot start a token"
	if l.i-int(start.Offset) > size {
		msg = "unexpected " + what + " and what follows it: these bytes cannot start a token"
	}
	l.errAt(start, diag.WF003, msg)
}

// maxDecimal is the magnitude limit of a .NET decimal (2^96-1).
var maxDecimal = func() *big.Rat {
	n := new(big.Int).Lsh(big.NewInt(1), 96)
	n.Sub(n, big.NewInt(1))
	return new(big.Rat).SetInt(n)
}()

func (l *lx) number() {
	src := l.src
	start := l.pos()
	j := l.i
	for j < len(src) && isDigit(src[j]) {
		j++
	}
	k := Int
	if j+1 < len(src) && src[j] == '.' && isDigit(src[j+1]) {
		k = Decimal
		j++
		for j < len(src) && isDigit(src[j]) {
			j++
		}
	}
	// A number glued to letters (`12ab`, `1.5s`) or a second fraction (`1.2.3`) is malformed.
	bad := ""
	e := j
	for e < len(src) && (isIdentPart(src[e]) || (src[e] == '.' && e+1 < len(src) && isDigit(src[e+1]))) {
		e++
	}
	if e > j {
		text := src[l.i:e]
		bad = fmt.Sprintf("malformed number `%s`", abbreviate(text))
		if isIdentStart(src[j]) {
			bad += gluedNumberHint(src[l.i:j], src[j:e])
		}
		j = e
	}
	l.advanceASCII(j - l.i)
	text := src[start.Offset:l.i]
	if bad == "" && k == Int {
		if _, err := strconv.ParseInt(text, 10, 32); err != nil {
			bad = fmt.Sprintf("integer `%s` is out of range: an int is 32-bit, from -2147483648 to 2147483647", abbreviate(text))
		}
	}
	if bad == "" && k == Decimal {
		bad = checkDecimal(text)
	}
	if bad != "" {
		l.errAt(start, diag.WF004, bad)
	}
	l.emit(start, k, bad != "")
}

// checkDecimal returns what is wrong with a well-formed decimal literal, or
// "". Its cost is bounded by the digits a decimal can hold, not by the
// literal's length.
func checkDecimal(text string) string {
	point := strings.IndexByte(text, '.')
	if n := len(text) - point - 1; n > MaxFractionDigits {
		return fmt.Sprintf("decimal `%s` has %d digits after the point: a decimal holds at most %d", abbreviate(text), n, MaxFractionDigits)
	}
	whole := strings.TrimLeft(text[:point], "0")
	if len(whole) < 29 {
		return ""
	}
	if r, ok := new(big.Rat).SetString(text); len(whole) > 29 || !ok || r.Cmp(maxDecimal) > 0 {
		return fmt.Sprintf("decimal `%s` is out of range: a decimal holds at most 79228162514264337593543950335", abbreviate(text))
	}
	return ""
}

func abbreviate(s string) string {
	if len(s) > 40 {
		return s[:20] + "…" + s[len(s)-10:]
	}
	return s
}

func isHex(c byte) bool {
	return isDigit(c) || c >= 'a' && c <= 'f' || c >= 'A' && c <= 'F'
}

// str lexes a string literal. It stops at the closing quote or, unterminated,
// at the end of the line (WF002), so the next line still lexes normally.
func (l *lx) str() {
	src := l.src
	start := l.pos()
	l.advanceASCII(1)
	bad := false
	for {
		if l.i >= len(src) || isLineEnd(src[l.i]) {
			l.unterminated = append(l.unterminated, int(start.Offset))
			end := start
			end.Offset++
			end.Column++
			l.report(diag.WF002, diag.Range{Start: start, End: end},
				"unterminated string: add a closing `\"` before the end of the line")
			// Strings do not span lines: the line break (CR, LF or CR LF)
			// is not part of it.
			l.emit(start, String, true)
			return
		}
		c := src[l.i]
		switch {
		case c == '"':
			l.advanceASCII(1)
			l.emit(start, String, bad)
			return
		case c == '\\':
			escStart := l.pos()
			l.advanceASCII(1)
			if l.i >= len(src) || isLineEnd(src[l.i]) {
				continue // reported as unterminated
			}
			switch src[l.i] {
			case '"', '\\', 'n', 'r', 't', '0':
				l.advanceASCII(1)
			case 'u':
				l.advanceASCII(1)
				n := 0
				for n < 4 && l.i < len(src) && isHex(src[l.i]) {
					l.advanceASCII(1)
					n++
				}
				if n < 4 {
					l.errAt(escStart, diag.WF005, "bad escape `"+src[escStart.Offset:l.i]+"`: `\\u` takes exactly four hex digits, as in `\\u00e9`")
					bad = true
				}
			default:
				l.advanceRune()
				l.errAt(escStart, diag.WF005, "bad escape `"+strings.ToValidUTF8(src[escStart.Offset:l.i], "\uFFFD")+"`: the escapes are `\\\"` `\\\\` `\\n` `\\r` `\\t` `\\0` `\\uXXXX`; for a backslash write `\\\\`")
				bad = true
			}
		case c == 0:
			st := l.pos()
			l.advanceASCII(1)
			l.errAt(st, diag.WF003, "unexpected NUL byte inside a string: write `\\0`")
			bad = true
		case c >= utf8.RuneSelf:
			r, size := utf8.DecodeRuneInString(src[l.i:])
			if r == utf8.RuneError && size == 1 {
				st := l.pos()
				l.advanceRune()
				l.errAt(st, diag.WF003, fmt.Sprintf("invalid UTF-8 byte 0x%02X inside a string", c))
				bad = true
				continue
			}
			l.advanceRune()
		default:
			l.advanceRune()
		}
	}
}

// Quote writes s as a string literal of the language, the inverse of
// Unquote: `"` and `\` escaped, a line break, tab or NUL by its escape
// (`\n`, `\r`, `\t`, `\0`), another control character or one that is
// not printable as `\uXXXX`; every other character as itself. A fix that
// writes a string (a step's name) writes it so.
func Quote(s string) string {
	var b strings.Builder
	b.Grow(len(s) + 2)
	b.WriteByte('"')
	for _, r := range s {
		switch r {
		case '"':
			b.WriteString(`\"`)
		case '\\':
			b.WriteString(`\\`)
		case '\n':
			b.WriteString(`\n`)
		case '\r':
			b.WriteString(`\r`)
		case '\t':
			b.WriteString(`\t`)
		case 0:
			b.WriteString(`\0`)
		default:
			if r <= 0xFFFF && (r == utf8.RuneError || !unicode.IsPrint(r)) {
				fmt.Fprintf(&b, `\u%04x`, r)
				continue
			}
			b.WriteRune(r)
		}
	}
	b.WriteByte('"')
	return b.String()
}

// Unquote returns the value of a string literal's text (quotes included).
// Bad escapes are kept as written; they have been reported already.
func Unquote(text string) string {
	if text != "" && text[0] >= utf8.RuneSelf || strings.HasPrefix(text, "`") {
		// “…”, ‘…’, «…», `…` (reported, WF003): read as the text between them.
		_, a := utf8.DecodeRuneInString(text)
		_, b := utf8.DecodeLastRuneInString(text)
		if a+b <= len(text) {
			return text[a : len(text)-b]
		}
		return ""
	}
	if len(text) >= 2 && text[0] == '\'' && text[len(text)-1] == '\'' {
		text = requote(text[1 : len(text)-1]) // reported (WF003); read as written with `"`
		text = `"` + text + `"`
	}
	if len(text) >= 2 && text[len(text)-1] == '"' {
		text = text[1 : len(text)-1]
	} else if len(text) >= 1 {
		text = text[1:]
	}
	if !strings.Contains(text, `\`) {
		return text
	}
	var b strings.Builder
	for i := 0; i < len(text); i++ {
		c := text[i]
		if c != '\\' || i+1 >= len(text) {
			b.WriteByte(c)
			continue
		}
		i++
		switch text[i] {
		case 'n':
			b.WriteByte('\n')
		case 'r':
			b.WriteByte('\r')
		case 't':
			b.WriteByte('\t')
		case '0':
			b.WriteByte(0)
		case '"', '\\':
			b.WriteByte(text[i])
		case 'u':
			if i+4 < len(text)+0 && i+5 <= len(text) {
				if v, err := strconv.ParseUint(text[i+1:i+5], 16, 32); err == nil {
					b.WriteRune(rune(v))
					i += 4
					continue
				}
			}
			b.WriteString(`\u`)
		default:
			b.WriteByte('\\')
			b.WriteByte(text[i])
		}
	}
	return b.String()
}
