package lexer

import (
	"github.com/wfc-lang/wfc/diag"

	"fmt"
	"strings"
	"testing"
	"unicode/utf8"

	"github.com/google/go-cmp/cmp"
)

// tok renders a token as kind:text@line:col for compact expectations.
func render(src string, toks []Token) []string {
	var out []string
	for _, t := range toks {
		out = append(out, fmt.Sprintf("%s:%s@%d:%d", t.Kind, src[t.Off:t.End], t.Line, t.Col))
	}
	return out
}

func TestTokens(t *testing.T) {
	tests := []struct {
		name string
		src  string
		want []string
	}{
		{"keywords and idents", "enum Size { Small }", []string{
			"Ident:enum@1:1", "Ident:Size@1:6", "Punct:{@1:11", "Ident:Small@1:13", "Punct:}@1:19", "EOF:@1:20"}},
		{"error is an ident", "terminal error X", []string{
			"Ident:terminal@1:1", "Ident:error@1:10", "Ident:X@1:16", "EOF:@1:17"}},
		{"numbers", "42 0.2 1.5", []string{"Int:42@1:1", "Decimal:0.2@1:4", "Decimal:1.5@1:8", "EOF:@1:11"}},
		{"int then member", "1.x", []string{"Int:1@1:1", "Punct:.@1:2", "Ident:x@1:3", "EOF:@1:4"}},
		{"two-char punctuation", "a==b!=c<=d>=e&&f||g", []string{
			"Ident:a@1:1", "Punct:==@1:2", "Ident:b@1:4", "Punct:!=@1:5", "Ident:c@1:7", "Punct:<=@1:8",
			"Ident:d@1:10", "Punct:>=@1:11", "Ident:e@1:13", "Punct:&&@1:14", "Ident:f@1:16", "Punct:||@1:17",
			"Ident:g@1:19", "EOF:@1:20"}},
		{"comments elided", "a // x\n/* y\n z */ b", []string{"Ident:a@1:1", "Ident:b@3:7", "EOF:@3:8"}},
		{"columns count code points", "\"héllo\" x", []string{"String:\"héllo\"@1:1", "Ident:x@1:9", "EOF:@1:10"}},
		{"columns after emoji", "// 😀😀\n\"😀\" y", []string{"String:\"😀\"@2:1", "Ident:y@2:5", "EOF:@2:6"}},
		{"CRLF", "a\r\nb", []string{"Ident:a@1:1", "Ident:b@2:1", "EOF:@2:2"}},
		{"empty", "", []string{"EOF:@1:1"}},
		{"byte order mark", "\uFEFFenum", []string{"Ident:enum@1:1", "EOF:@1:5"}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			res := Lex("f.wf", tt.src)
			if len(res.Diags) != 0 {
				t.Errorf("unexpected diagnostics: %v", res.Diags)
			}
			if diff := cmp.Diff(tt.want, render(tt.src, res.Tokens)); diff != "" {
				t.Errorf("tokens (-want +got):\n%s", diff)
			}
		})
	}
}

func TestLexicalErrors(t *testing.T) {
	tests := []struct {
		name       string
		src        string
		code       diag.ID
		start, end int // byte offsets of the diagnostic's range
		msg        string
		tokens     []string // what is still lexed
	}{
		{"unterminated string", "x \"abc\ny", "WF002", 2, 3, "unterminated string", []string{"Ident:x@1:1", "String:\"abc@1:3", "Ident:y@2:1", "EOF:@2:2"}},
		{"unterminated comment", "x /* abc", "WF002", 2, 4, "unterminated block comment", []string{"Ident:x@1:1", "EOF:@1:9"}},
		{"bad char", "a @ b", "WF003", 2, 3, "character `@`", []string{"Ident:a@1:1", "Ident:b@1:5", "EOF:@1:6"}},
		// Other languages' syntax: one diagnostic each, and lexing goes on
		// as if the language's own form had been written.
		{"hash comment", "a # workflow state\nb", "WF003", 2, 3, "comments are `//`", []string{"Ident:a@1:1", "Ident:b@2:1", "EOF:@2:2"}},
		{"dash comment", "a -- on goto\nb", "WF003", 2, 4, "comments are `//`", []string{"Ident:a@1:1", "Ident:b@2:1", "EOF:@2:2"}},
		{"dash dash value", "a --b", "", 0, 0, "", []string{"Ident:a@1:1", "Punct:-@1:3", "Punct:-@1:4", "Ident:b@1:5", "EOF:@1:6"}},
		{"single quotes", "f('it\\'s')", "WF003", 2, 9, "strings are written with `\"`", nil},
		{"lone single quote", "a ' b", "WF003", 2, 3, "character `'`", []string{"Ident:a@1:1", "Ident:b@1:5", "EOF:@1:6"}},
		{"non-ASCII identifier", "Stüfe_2ä x", "WF003", 0, 10, "identifiers are ASCII letters, digits and `_`", []string{"Ident:Stüfe_2ä@1:1", "Ident:x@1:10", "EOF:@1:11"}},
		{"single ampersand", "a & b", "WF003", 2, 3, "write `&&`", []string{"Ident:a@1:1", "Ident:b@1:5", "EOF:@1:6"}},
		{"invalid utf8 run", "a \xff\xfe b", "WF003", 2, 4, "invalid UTF-8 byte 0xFF", []string{"Ident:a@1:1", "Ident:b@1:6", "EOF:@1:7"}},
		{"NUL", "a\x00b", "WF003", 1, 2, "NUL byte", []string{"Ident:a@1:1", "Ident:b@1:3", "EOF:@1:4"}},
		{"non-ASCII letter", "é", "WF003", 0, 2, "identifiers are ASCII", []string{"Ident:é@1:1", "EOF:@1:2"}},
		{"non-ASCII symbol", "€", "WF003", 0, 3, "character `€`", []string{"EOF:@1:2"}},
		{"int out of range", "2147483648", "WF004", 0, 10, "out of range", []string{"Int:2147483648@1:1", "EOF:@1:11"}},
		{"number into letters", "5s", "WF004", 0, 2, "TimeSpan.FromSeconds(5)", []string{"Int:5s@1:1", "EOF:@1:3"}},
		{"two fractions", "1.2.3", "WF004", 0, 5, "malformed number", []string{"Decimal:1.2.3@1:1", "EOF:@1:6"}},
		{"huge decimal", "1" + strings.Repeat("0", 40) + ".5", "WF004", 0, 43, "decimal", nil},
		{"bad escape", `"a\qb"`, "WF005", 2, 4, "bad escape `\\q`", []string{`String:"a\qb"@1:1`, "EOF:@1:7"}},
		{"short unicode escape", `"\u12"`, "WF005", 1, 5, "four hex digits", nil},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			res := Lex("f.wf", tt.src)
			if tt.code == "" {
				if len(res.Diags) != 0 {
					t.Fatalf("want no diagnostic, got %v", res.Diags)
				}
				if diff := cmp.Diff(tt.tokens, render(tt.src, res.Tokens)); diff != "" {
					t.Errorf("tokens (-want +got):\n%s", diff)
				}
				return
			}
			if len(res.Diags) != 1 {
				t.Fatalf("want 1 diagnostic, got %v", res.Diags)
			}
			d := res.Diags[0]
			if d.Code != tt.code || int(d.Range.Start.Offset) != tt.start || int(d.Range.End.Offset) != tt.end || !strings.Contains(d.Message, tt.msg) {
				t.Errorf("got %s [%d,%d) %q; want %s [%d,%d) containing %q", d.Code, d.Range.Start.Offset, d.Range.End.Offset, d.Message, tt.code, tt.start, tt.end, tt.msg)
			}
			if tt.tokens != nil {
				if diff := cmp.Diff(tt.tokens, render(tt.src, res.Tokens)); diff != "" {
					t.Errorf("tokens (-want +got):\n%s", diff)
				}
			}
			last := res.Tokens[len(res.Tokens)-1]
			if last.Kind != EOF || int(last.Off) != len(tt.src) {
				t.Errorf("last token %+v is not EOF at %d", last, len(tt.src))
			}
		})
	}
}

func TestUnquote(t *testing.T) {
	tests := map[string]string{
		`"plain"`:           "plain",
		`"a\"b"`:            `a"b`,
		`"tab\tnl\n"`:       "tab\tnl\n",
		`"\u00e9\\"`:        `é\`,
		`"unterminated`:     "unterminated",
		`"bad \q escape"`:   `bad \q escape`,
		`"nul\0"`:           "nul\x00",
		`"short \u12 esc"`:  `short \u12 esc`,
		`""`:                "",
		`"carriage\rret"`:   "carriage\rret",
		`"trailing back\\"`: `trailing back\`,
	}
	for in, want := range tests {
		if got := Unquote(in); got != want {
			t.Errorf("Unquote(%s) = %q, want %q", in, got, want)
		}
	}
}

// TestQuote: Quote writes a literal the lexer reads back as the same
// string, with no error, and plain text as itself.
func TestQuote(t *testing.T) {
	tests := map[string]string{
		"notify":      `"notify"`,
		`a"b\c`:       `"a\"b\\c"`,
		"tab\tnl\n\r": `"tab\tnl\n\r"`,
		"nul\x00":     `"nul\0"`,
		"bell\a":      `"bell\u0007"`,
		"bidi\u202e":  `"bidi\u202e"`,
		"é 😀":         `"é 😀"`,
		"":            `""`,
	}
	for in, want := range tests {
		got := Quote(in)
		if got != want {
			t.Errorf("Quote(%q) = %s, want %s", in, got, want)
		}
		if back := Unquote(got); back != in {
			t.Errorf("Unquote(Quote(%q)) = %q", in, back)
		}
		res := Lex("q.wf", got)
		if len(res.Diags) != 0 || len(res.Tokens) != 2 || res.Tokens[0].Kind != String {
			t.Errorf("Quote(%q) = %s lexes as %v, %v", in, got, res.Tokens, res.Diags)
		}
	}
}

// FuzzLex: the lexer never panics, tokens are in order inside the source,
// line/column agree with offsets, and every diagnostic lies in the file.
func FuzzLex(f *testing.F) {
	for _, s := range []string{"enum A { B }", "\"abc", "/* x", "\xff\x00", "1.2.3 5s 99999999999", `"\q\u1"`, "a\rb\r\n\"c\rd // \x00\r/* \xff\r */ 0.12345678901234567890123456789"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, src string) {
		res := Lex("f.wf", src)
		line, col, pos := 1, 1, 0
		if strings.HasPrefix(src, "\uFEFF") && len(res.Tokens) > 1 {
			pos = 3 // a byte order mark takes no column
		}
		advance := func(to int) {
			for pos < to {
				r, size := utf8.DecodeRuneInString(src[pos:])
				switch {
				case r == '\n', r == '\r' && !strings.HasPrefix(src[pos+1:], "\n"):
					line, col = line+1, 1 // LF, or a lone CR
				case r == '\r':
					// CR LF: the LF breaks the line
				default:
					col++
				}
				pos += size
			}
		}
		prevEnd := 0
		for _, tk := range res.Tokens {
			if int(tk.Off) < prevEnd || tk.End < tk.Off || int(tk.End) > len(src) {
				t.Fatalf("token %+v out of order or outside the source", tk)
			}
			advance(int(tk.Off))
			if pos != int(tk.Off) || int(tk.Line) != line || int(tk.Col) != col {
				t.Fatalf("token at %d says %d:%d, want %d:%d", tk.Off, tk.Line, tk.Col, line, col)
			}
			prevEnd = int(tk.End)
		}
		for _, d := range res.Diags {
			if d.Range.Start.Offset < 0 || int(d.Range.End.Offset) > len(src) || d.Range.Start.Offset > d.Range.End.Offset {
				t.Fatalf("diagnostic %+v outside the source", d)
			}
		}
	})
}

// TestForeignSyntaxFixes: the fix of each other-language form writes the
// language's own, and lexing the fixed text reports nothing.
func TestForeignSyntaxFixes(t *testing.T) {
	for src, want := range map[string]string{
		`f('it\'s "x"')`: `f("it's \"x\"")`,
		"a # note\nb":    "a // note\nb",
		"a -- note\nb":   "a // note\nb",
	} {
		res := Lex("f.wf", src)
		if len(res.Diags) != 1 || len(res.Diags[0].Fixes) != 1 {
			t.Fatalf("%q: want one diagnostic with one fix, got %v", src, res.Diags)
		}
		e := res.Diags[0].Fixes[0].Edits[0]
		got := src[:e.Range.Start.Offset] + e.NewText + src[e.Range.End.Offset:]
		if got != want {
			t.Errorf("%q fixed = %q, want %q", src, got, want)
		}
		if ds := Lex("f.wf", got).Diags; len(ds) != 0 {
			t.Errorf("%q: the fixed text still reports %v", got, ds)
		}
	}
}

// TestWordsAreNames: the lexer reads every word, reserved or not, as a
// name: which words are reserved is the grammar's (parser.Lex marks them).
func TestWordsAreNames(t *testing.T) {
	for _, w := range []string{"enum", "state", "goto", "true", "Enum", "states", "_goto"} {
		toks := Lex("k.wf", w).Tokens
		if len(toks) != 2 || toks[0].Kind != Ident {
			t.Errorf("%q lexes as %v, want one Ident", w, toks)
		}
	}
}

// TestForeignQuotesAndLookalikes: a string in another language's or a word
// processor's quotes is one string token, which counts as its value (Bad
// only for a template with `${…}`, which has none), and one WF003 whose
// fix writes it with `"`; a name with look-alike letters is one name, read
// as its Latin spelling.
func TestForeignQuotesAndLookalikes(t *testing.T) {
	for _, c := range []struct{ src, fix string }{
		{"“a \"b\" c”", `"a \"b\" c"`},
		{"‘x’", `"x"`},
		{"„x“", `"x"`},
		{"«x»", `"x"`},
		{"`x\\y`", `"x\\y"`},
		{"`a ${b}`", ""},
	} {
		res := Lex("q.wf", c.src)
		if len(res.Tokens) != 2 || res.Tokens[0].Kind != String || res.Tokens[0].Bad != (c.fix == "") || len(res.Diags) != 1 {
			t.Errorf("%q: tokens %v, diagnostics %v", c.src, res.Tokens, res.Diags)
			continue
		}
		var got string
		if fs := res.Diags[0].Fixes; len(fs) == 1 {
			got = fs[0].Edits[0].NewText
		}
		if got != c.fix {
			t.Errorf("%q: fix %q, want %q", c.src, got, c.fix)
		}
	}
	if res := Lex("q.wf", "“open"); len(res.Diags) != 1 || res.Diags[0].Code != "WF003" || len(res.Diags[0].Fixes) != 0 {
		t.Errorf("an unclosed “ is one bad character: %v", res.Diags)
	}
	res := Lex("l.wf", "Dоne Dоne Größe")
	if res.Respelt[0] != "Done" || res.Respelt[uint32(len("Dоne "))] != "Done" || len(res.Respelt) != 2 {
		t.Errorf("respelt %v", res.Respelt)
	}
	if len(res.Diags) != 2 || len(res.Diags[0].Fixes) != 1 || len(res.Diags[0].Fixes[0].Edits) != 2 || len(res.Diags[1].Fixes) != 0 {
		t.Errorf("want one report per name, the look-alike's fix writing both uses: %+v", res.Diags)
	}
}
