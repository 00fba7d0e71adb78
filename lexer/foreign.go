package lexer

import (
	"strings"
	"unicode"
	"unicode/utf8"

	"github.com/wfc-lang/wfc/diag"
)

// Other languages' syntax, as people carry it over: `#` and `--` comments,
// single-quoted strings and letters outside ASCII in names. Each is one
// WF003 that names the language's own form, and lexing goes on as if the
// user had written that form, so nothing after it cascades: a comment's
// words are skipped, a string is one (Bad) string token, a name is one
// (Bad) name token.

// isDashComment reports whether src[i:] starts a `--` comment: `--`
// followed by white space or the end of the line. `--x` stays two minus
// signs (`- -x`, odd but valid).
func isDashComment(src string, i int) bool {
	if i+1 >= len(src) || src[i+1] != '-' {
		return false
	}
	if i+2 == len(src) {
		return true
	}
	c := src[i+2]
	return c == ' ' || c == '\t' || isLineEnd(c)
}

// foreignComment reports a `#` or `--` comment once and skips it to the end
// of its line, with a fix that writes `//` instead.
func (l *lx) foreignComment() {
	start := l.pos()
	marker := "#"
	if l.src[l.i] == '-' {
		marker = "--"
	}
	markerEnd := diag.MakePos(int(start.Line), int(start.Column)+len(marker), int(start.Offset)+len(marker))
	for l.i < len(l.src) && !isLineEnd(l.src[l.i]) {
		l.commentRune()
	}
	r := diag.Range{Start: start, End: markerEnd}
	d := l.report(diag.WF003, r, "`"+marker+"` does not start a comment: comments are `//` (to the end of the line) or `/* … */`")
	if d != nil {
		d.Fixes = []diag.Fix{{Title: "write `//` for `" + marker + "`", MachineApplicable: true,
			Edits: []diag.Edit{{File: l.file, Range: r, NewText: "//"}}}}
	}
}

// singleQuoted lexes `'text'` as a string, reported once with a fix that
// writes it with `"`. A `'` with no closing `'` on its line is a bad
// character, as before.
func (l *lx) singleQuoted() {
	src := l.src
	j := l.i + 1
	for j < len(src) && src[j] != '\'' && !isLineEnd(src[j]) {
		if src[j] == '\\' && j+1 < len(src) && !isLineEnd(src[j+1]) {
			j++
		}
		j++
	}
	if j >= len(src) || src[j] != '\'' {
		l.badChar()
		return
	}
	start := l.pos()
	body := src[l.i+1 : j]
	for l.i <= j {
		l.advanceRune()
	}
	r := diag.Range{Start: start, End: l.pos()}
	d := l.report(diag.WF003, r, "strings are written with `\"`, not `'`")
	if d != nil {
		d.Fixes = []diag.Fix{{Title: "write the string with `\"`", MachineApplicable: true,
			Edits: []diag.Edit{{File: l.file, Range: r, NewText: `"` + requote(body) + `"`}}}}
	}
	l.emit(start, String, true)
}

// requote turns the text between single quotes into the text between double
// quotes: `\'` needs no escape, a bare `"` does.
func requote(body string) string {
	if !strings.ContainsAny(body, `"\`) {
		return body
	}
	var b strings.Builder
	for i := 0; i < len(body); i++ {
		switch c := body[i]; {
		case c == '\\' && i+1 < len(body) && body[i+1] == '\'':
			b.WriteByte('\'')
			i++
		case c == '\\' && i+1 < len(body):
			b.WriteByte(c)
			b.WriteByte(body[i+1])
			i++
		case c == '"':
			b.WriteString(`\"`)
		default:
			b.WriteByte(c)
		}
	}
	return b.String()
}

// isForeignLetter reports whether s starts with a letter outside ASCII.
func isForeignLetter(s string) bool {
	r, size := utf8.DecodeRuneInString(s)
	return !(r == utf8.RuneError && size == 1) && unicode.IsLetter(r)
}

// foreignIdent continues the name started at start (l.i is past its ASCII
// part) over letters and digits of any script. It reports and returns true
// when the name holds a letter outside ASCII: one WF003 per name and file,
// at its first use (renaming it is one change), and the
// name is one token, so it still declares and is used as written.
func (l *lx) foreignIdent(start diag.Pos) bool {
	src := l.src
	var first rune
	for l.i < len(src) {
		c := src[l.i]
		if c < utf8.RuneSelf {
			if !isIdentPart(c) {
				break
			}
			l.advanceASCII(1)
			continue
		}
		r, size := utf8.DecodeRuneInString(src[l.i:])
		if r == utf8.RuneError && size == 1 || !unicode.IsLetter(r) && !unicode.IsDigit(r) {
			break
		}
		if first == 0 {
			first = r
		}
		l.advanceRune()
	}
	if first == 0 {
		return false // the caller emits the ASCII name
	}
	name := src[start.Offset:l.i]
	l.emit(start, Ident, false)
	if l.foreignNames[name] {
		return true // reported at its first use: one root cause
	}
	if l.foreignNames == nil {
		l.foreignNames = map[string]bool{}
	}
	l.foreignNames[name] = true
	l.report(diag.WF003, diag.Range{Start: start, End: l.pos()},
		"identifier `"+diag.Shorten(name)+"` contains `"+string(first)+"`: identifiers are ASCII letters, digits and `_`")
	return true
}
