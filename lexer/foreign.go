package lexer

import (
	"fmt"
	"strings"
	"unicode"
	"unicode/utf8"

	"github.com/wfc-lang/wfc/diag"
)

// Other languages' syntax, as people carry it over: `#` and `--` comments,
// single-quoted strings and letters outside ASCII in names. Each is one
// WF003 that names the language's own form, and lexing goes on as if the
// user had written that form, so nothing after it cascades: a comment's
// words are skipped, a string is one string token that counts as its value
// (a JavaScript template with `${…}` is Bad: it has none), a name is one
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
	lookedAgain.Add(int64(j - l.i))
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
	// Its value is plain (Unquote reads it), so it counts as that string
	// from here on: a step named 'charge' is the step "charge".
	l.emit(start, String, false)
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
// at its first use (renaming it is one change), and the name is one token.
// A name whose letters outside ASCII all look like Latin ones (`Dоne` with
// a Cyrillic `о`, pasted or typed on another keyboard) is read as the
// Latin name (Respelt), so it matches where it is written in Latin, and
// the report's fix writes it so at every use in the file; any other name
// still declares and is used as written.
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
	r := diag.Range{Start: start, End: l.pos()}
	latin, lookalike := latinLookalike(name)
	l.emit(start, Ident, false)
	if lookalike {
		if l.respelt == nil {
			l.respelt = map[uint32]string{}
		}
		l.respelt[uint32(start.Offset)] = latin
	}
	if k, seen := l.foreignNames[name]; seen {
		if lookalike && k >= 0 {
			// One change renames it everywhere: the fix of the first
			// report writes every use.
			f := &l.diags[k].Fixes[0]
			f.Edits = append(f.Edits, diag.Edit{File: l.file, Range: r, NewText: latin})
		}
		return true // reported at its first use: one root cause
	}
	if l.foreignNames == nil {
		l.foreignNames = map[string]int{}
	}
	msg := "identifier `" + diag.Shorten(name) + "` contains `" + string(first) + "`: identifiers are ASCII letters, digits and `_`"
	if lookalike {
		msg = "identifier `" + diag.Shorten(name) + "` contains " + lookalikeWords(name) + ": write `" + diag.Shorten(latin) + "`"
	}
	d := l.report(diag.WF003, r, msg)
	l.foreignNames[name] = -1
	if d != nil && lookalike {
		l.foreignNames[name] = len(l.diags) - 1
		d.Fixes = []diag.Fix{{Title: "write `" + latin + "`", MachineApplicable: true,
			Edits: []diag.Edit{{File: l.file, Range: r, NewText: latin}}}}
	}
	return true
}

// lookalikes are the Cyrillic and Greek letters that look like a Latin
// one, in the fonts editors use: a name written with them is the Latin
// name, typed on another keyboard or pasted.
var lookalikes = map[rune]byte{
	// Cyrillic
	'а': 'a', 'е': 'e', 'о': 'o', 'р': 'p', 'с': 'c', 'у': 'y', 'х': 'x', 'і': 'i', 'ј': 'j', 'ѕ': 's', 'ԁ': 'd', 'һ': 'h', 'ԛ': 'q', 'ԝ': 'w',
	'А': 'A', 'В': 'B', 'Е': 'E', 'К': 'K', 'М': 'M', 'Н': 'H', 'О': 'O', 'Р': 'P', 'С': 'C', 'Т': 'T', 'Х': 'X', 'У': 'Y', 'І': 'I', 'Ј': 'J', 'Ѕ': 'S',
	// Greek
	'ο': 'o', 'ν': 'v', 'Α': 'A', 'Β': 'B', 'Ε': 'E', 'Ζ': 'Z', 'Η': 'H', 'Ι': 'I', 'Κ': 'K', 'Μ': 'M', 'Ν': 'N', 'Ο': 'O', 'Ρ': 'P', 'Τ': 'T', 'Υ': 'Y', 'Χ': 'X',
}

// latinLookalike is name with each look-alike letter written in Latin,
// and whether every letter outside ASCII was one.
func latinLookalike(name string) (string, bool) {
	var b strings.Builder
	for _, r := range name {
		if r < utf8.RuneSelf {
			b.WriteRune(r)
			continue
		}
		c, ok := lookalikes[r]
		if !ok {
			return "", false
		}
		b.WriteByte(c)
	}
	return b.String(), true
}

// lookalikeWords names the look-alike letters of name: "`о` (Cyrillic,
// U+043E), which looks like the Latin `o`".
func lookalikeWords(name string) string {
	var parts []string
	seen := map[rune]bool{}
	for _, r := range name {
		if r < utf8.RuneSelf || seen[r] {
			continue
		}
		seen[r] = true
		script := "Greek"
		if unicode.Is(unicode.Cyrillic, r) {
			script = "Cyrillic"
		}
		parts = append(parts, fmt.Sprintf("`%c` (%s, U+%04X), which looks like the Latin `%c`", r, script, r, lookalikes[r]))
	}
	return strings.Join(parts, " and ")
}

// foreignQuoted lexes a string written with another language's or a word
// processor's quotes — “…”, ‘…’, „…“, «…», or JavaScript's `…` — closed
// on the same line, as one string, reported once with a fix that writes
// it with `"` (none for a template with `${…}`, whose meaning is not a
// string). It returns false, lexing nothing, when src[l.i:] opens none.
func (l *lx) foreignQuoted() bool {
	src := l.src
	open, size := utf8.DecodeRuneInString(src[l.i:])
	const typographic = " are typographic quotes, as a word processor writes them"
	var closers, what string
	switch open {
	case '“', '”':
		closers, what = "”“", "“…”"+typographic
	case '‘', '’':
		closers, what = "’‘", "‘…’"+typographic
	case '„':
		closers, what = "“”", "„…“"+typographic
	case '«':
		closers, what = "»", "«…» are guillemets"
	case '`':
		closers, what = "`", "a string in backticks is JavaScript's template string"
	default:
		return false
	}
	j := l.i + size
	for j < len(src) && !isLineEnd(src[j]) {
		r, n := utf8.DecodeRuneInString(src[j:])
		if strings.ContainsRune(closers, r) {
			break
		}
		j += n
	}
	if j >= len(src) || isLineEnd(src[j]) {
		return false
	}
	_, closeSize := utf8.DecodeRuneInString(src[j:])
	body := src[l.i+size : j]
	start := l.pos()
	for l.i < j+closeSize {
		l.advanceRune()
	}
	r := diag.Range{Start: start, End: l.pos()}
	d := l.report(diag.WF003, r, what+": strings are written with straight double quotes, `\"…\"`")
	if d != nil && !(open == '`' && strings.Contains(body, "${")) {
		d.Fixes = []diag.Fix{{Title: "write the string with `\"`", MachineApplicable: true,
			Edits: []diag.Edit{{File: l.file, Range: r, NewText: `"` + strings.ReplaceAll(strings.ReplaceAll(body, `\`, `\\`), `"`, `\"`) + `"`}}}}
	}
	// Its value is the text between the quotes, so it counts as that
	// string from here on; a template (`${…}`) has no value of its own.
	l.emit(start, String, open == '`' && strings.Contains(body, "${"))
	return true
}
