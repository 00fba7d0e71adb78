package diag

import (
	"bytes"
	"fmt"
	"io"
	"strings"
	"unicode"
	"unicode/utf16"
	"unicode/utf8"
)

// wfc checks files from pull requests, so every text that came from input
// (names, string literals, file names) is untrusted when it is printed. A
// raw LF could start a line `::warning::…` that the GitHub Actions runner
// reads as a workflow command (from standard output and standard error
// alike); an ESC could start an ANSI or OSC sequence on a terminal; a bidi
// override could make a line read differently from what it is. This file
// holds the one escaping every output goes through.

// The runner reads a line as a command when it holds `##[` anywhere (the
// legacy form), or when it starts with `::` after .NET's TrimStart, which
// strips every Unicode white space. It compares culture-sensitively (ICU),
// which skips ignorable code points, so `#` U+00AD `#[` counts as `##[`:
// every ignorable is made visible too, and `##[` itself is broken up.

// unsafeRune reports whether r must never reach an output raw: C0 controls
// (tab included), DEL, C1 controls, the Unicode bidi controls, the line and
// paragraph separators, and every other invisible code point an ICU
// comparison ignores (format characters such as U+00AD and U+200B,
// variation selectors, the other default ignorables).
func unsafeRune(r rune) bool {
	switch {
	case r < 0x20, r >= 0x7f && r <= 0x9f:
		return true
	case r < 0xa0:
		return false
	case r == 0x061c, r == 0x200e, r == 0x200f, // arabic letter mark, LRM, RLM
		r >= 0x202a && r <= 0x202e, // LRE, RLE, PDF, LRO, RLO
		r >= 0x2066 && r <= 0x2069, // LRI, RLI, FSI, PDI
		r == 0x2028, r == 0x2029:   // line and paragraph separators
		return true
	}
	return unicode.In(r, unicode.Cf, unicode.Variation_Selector, unicode.Other_Default_Ignorable_Code_Point)
}

// legacyCommand is what the runner looks for anywhere in a line.
const legacyCommand = "##["

// legacyEscaped replaces the `##` of legacyCommand in text: the second `#`
// shown as its escape.
const legacyEscaped = `#\x23`

// Escape returns s with every unsafe character made visible: `\n`, `\r`,
// `\t`, `\x1b` for the other C0 controls and DEL, `\u0085` for C1 controls,
// `\u202e` for bidi controls, separators and ignorables, and `\xff` for a
// byte that is not UTF-8; and `##[` as `#\x23[`. Anything else, backslashes
// included, is kept as it is (messages quote escapes like `\\` on purpose).
// Safe text is returned unchanged, without allocating.
func Escape(s string) string {
	i := firstUnsafe(s)
	if i < 0 {
		return s
	}
	var b strings.Builder
	b.Grow(len(s) + 8)
	b.WriteString(s[:i])
	for i < len(s) {
		r, size := utf8.DecodeRuneInString(s[i:])
		switch {
		case r == '#' && strings.HasPrefix(s[i:], legacyCommand):
			b.WriteString(legacyEscaped)
			size = 2
		case r == utf8.RuneError && size == 1:
			fmt.Fprintf(&b, `\x%02x`, s[i])
		case r == '\n':
			b.WriteString(`\n`)
		case r == '\r':
			b.WriteString(`\r`)
		case r == '\t':
			b.WriteString(`\t`)
		case r < 0x20 || r == 0x7f:
			fmt.Fprintf(&b, `\x%02x`, r)
		case unsafeRune(r) && r > 0xffff:
			fmt.Fprintf(&b, `\U%08x`, r)
		case unsafeRune(r):
			fmt.Fprintf(&b, `\u%04x`, r)
		default:
			b.WriteString(s[i : i+size])
		}
		i += size
	}
	return b.String()
}

// firstUnsafe returns the offset of the first byte of s that Escape would
// change, or -1.
func firstUnsafe(s string) int {
	for i := 0; i < len(s); {
		c := s[i]
		if c < utf8.RuneSelf {
			if c < 0x20 || c == 0x7f || c == '#' && strings.HasPrefix(s[i:], legacyCommand) {
				return i
			}
			i++
			continue
		}
		r, size := utf8.DecodeRuneInString(s[i:])
		if r == utf8.RuneError && size == 1 || unsafeRune(r) {
			return i
		}
		i += size
	}
	return -1
}

// EscapeLineStart escapes s like Escape and, because s starts a line of
// output, also keeps it from reading as a workflow command: a text that
// starts with `::` after white space (any Unicode white space, as .NET's
// TrimStart strips) gets a `./` in front, which for a relative file name
// names the same file.
func EscapeLineStart(s string) string {
	s = Escape(s)
	if strings.HasPrefix(strings.TrimLeftFunc(s, unicode.IsSpace), "::") {
		return "./" + s
	}
	return s
}

// SafeJSON wraps w for a json.Encoder so that no DEL, C1 or bidi control
// reaches the output raw (see jsonWriter). Every JSON wfc prints goes
// through it.
func SafeJSON(w io.Writer) io.Writer { return jsonWriter{w} }

// jsonWriter makes the JSON it is given safe to print: encoding/json
// escapes C0 controls and U+2028/U+2029 but writes DEL, C1 and bidi
// controls raw. Those can only occur inside JSON strings, where `\uXXXX`
// means the same, so the document decodes to the same value. json.Encoder
// writes each document in one call, so no character is split across calls.
type jsonWriter struct{ w io.Writer }

func (j jsonWriter) Write(p []byte) (int, error) {
	// Most documents need nothing escaped: they are written as they come,
	// without a copy (a SARIF document of a crafted file is megabytes).
	if !bytes.ContainsFunc(p, jsonUnsafe) && !bytes.Contains(p, []byte(legacyCommand)) {
		return j.w.Write(p)
	}
	s := string(p)
	var b strings.Builder
	b.Grow(len(s) + 16)
	for i := 0; i < len(s); {
		r, size := utf8.DecodeRuneInString(s[i:])
		switch {
		case r == '#' && strings.HasPrefix(s[i:], legacyCommand):
			// `##[` occurs only inside strings, where `\u0023` is `#`.
			b.WriteString(`#\u0023`)
			size = 2
		case jsonUnsafe(r) && r > 0xffff: // a surrogate pair, as JSON spells it
			r1, r2 := utf16.EncodeRune(r)
			fmt.Fprintf(&b, `\u%04x\u%04x`, r1, r2)
		case jsonUnsafe(r):
			fmt.Fprintf(&b, `\u%04x`, r)
		default:
			b.WriteString(s[i : i+size])
		}
		i += size
	}
	if _, err := io.WriteString(j.w, b.String()); err != nil {
		return 0, err
	}
	return len(p), nil
}

// jsonUnsafe: the unsafe characters encoding/json leaves raw. C0 controls
// are escaped by the encoder inside strings; outside them they are the
// document's own line breaks.
func jsonUnsafe(r rune) bool { return r >= 0x7f && r != utf8.RuneError && unsafeRune(r) }

// Shorten cuts a long piece of source (a token, a name) for a message, at
// a character boundary: 37 bytes at most, then "…". The lexer and the
// parser quote input through it, so a message stays one readable line.
func Shorten(s string) string {
	if len(s) <= 40 {
		return s
	}
	cut := 37
	for cut > 0 && !utf8.RuneStart(s[cut]) {
		cut--
	}
	return s[:cut] + "…"
}
