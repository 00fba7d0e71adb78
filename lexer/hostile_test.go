package lexer

import (
	"github.com/wfc-lang/wfc/diag"

	"fmt"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/wfc-lang/wfc/internal/scaling"
)

// TestLineBreaks: a lone CR ends a line as LF and CR LF do, as editors and
// LSP count lines; a string or line comment stops at it.
func TestLineBreaks(t *testing.T) {
	tests := []struct {
		name string
		src  string
		want []string
	}{
		{"lone CR", "a\rb", []string{"Ident:a@1:1", "Ident:b@2:1", "EOF:@2:2"}},
		{"CR CR LF", "a\r\r\nb", []string{"Ident:a@1:1", "Ident:b@3:1", "EOF:@3:2"}},
		{"line comment ends at CR", "a // x\rb", []string{"Ident:a@1:1", "Ident:b@2:1", "EOF:@2:2"}},
		{"block comment across CR", "/* x\r y */ b", []string{"Ident:b@2:7", "EOF:@2:8"}},
		{"mixed", "a\nb\r\nc\rd", []string{"Ident:a@1:1", "Ident:b@2:1", "Ident:c@3:1", "Ident:d@4:1", "EOF:@4:2"}},
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
	// A string stops at a lone CR: unterminated, and the next line lexes.
	res := Lex("f.wf", "\"abc\rx")
	if diff := cmp.Diff([]string{"String:\"abc@1:1", "Ident:x@2:1", "EOF:@2:2"}, render("\"abc\rx", res.Tokens)); diff != "" {
		t.Errorf("tokens (-want +got):\n%s", diff)
	}
	if len(res.Diags) != 1 || res.Diags[0].Code != "WF002" {
		t.Errorf("want one WF002, got %v", res.Diags)
	}
}

// TestIgnoreCutAfterCR: a whole-line wfc:ignore comment is cut with its
// line break, whichever it is.
func TestIgnoreCutAfterCR(t *testing.T) {
	for _, nl := range []string{"\n", "\r\n", "\r"} {
		src := "// wfc:ignore WF101 because" + nl + "x"
		res := Lex("f.wf", src)
		if len(res.Ignores) != 1 {
			t.Fatalf("%q: want one ignore, got %v", nl, res.Ignores)
		}
		if got, want := int(res.Ignores[0].Cut.End.Offset), len(src)-1; got != want {
			t.Errorf("%q: cut ends at %d, want %d (after the line break)", nl, got, want)
		}
	}
}

// TestBadBytesInComments: NUL and invalid UTF-8 inside comments are WF003,
// as in strings and between tokens; other text in comments is fine.
func TestBadBytesInComments(t *testing.T) {
	tests := []struct {
		name       string
		src        string
		start, end int
		msg        string
	}{
		{"NUL in line comment", "a // x\x00y\nb", 6, 7, "NUL byte inside a comment"},
		{"invalid UTF-8 in line comment", "a // x\xffy\nb", 6, 7, "invalid UTF-8 byte 0xFF inside a comment"},
		{"NUL in block comment", "/* \x00 */ b", 3, 4, "NUL byte inside a comment"},
		{"invalid UTF-8 in block comment", "/* é\xc3 */ b", 5, 6, "invalid UTF-8 byte 0xC3 inside a comment"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			res := Lex("f.wf", tt.src)
			if len(res.Diags) != 1 {
				t.Fatalf("want 1 diagnostic, got %v", res.Diags)
			}
			d := res.Diags[0]
			if d.Code != "WF003" || int(d.Range.Start.Offset) != tt.start || int(d.Range.End.Offset) != tt.end || !strings.Contains(d.Message, tt.msg) {
				t.Errorf("got %s [%d,%d) %q; want WF003 [%d,%d) containing %q", d.Code, d.Range.Start.Offset, d.Range.End.Offset, d.Message, tt.start, tt.end, tt.msg)
			}
			if last := res.Tokens[len(res.Tokens)-2]; tt.src[last.Off:last.End] != "b" {
				t.Errorf("the token after the comment is %q, want b", tt.src[last.Off:last.End])
			}
		})
	}
	if res := Lex("f.wf", "// é \x1b[31m ok\n"); len(res.Diags) != 0 {
		t.Errorf("valid UTF-8 in a comment: got %v", res.Diags)
	}
}

// TestDecimalDigits: more fractional digits than a .NET decimal holds is
// WF004; 28 are fine. The message abbreviates a long literal.
func TestDecimalDigits(t *testing.T) {
	ok := "0." + strings.Repeat("9", MaxFractionDigits)
	if res := Lex("f.wf", ok); len(res.Diags) != 0 {
		t.Errorf("%s: got %v", ok, res.Diags)
	}
	long := "0." + strings.Repeat("9", MaxFractionDigits+1)
	res := Lex("f.wf", long)
	if len(res.Diags) != 1 || res.Diags[0].Code != "WF004" || !strings.Contains(res.Diags[0].Message, "29 digits after the point: a decimal holds at most 28") {
		t.Fatalf("%s: got %v", long, res.Diags)
	}
	if !res.Tokens[0].Bad {
		t.Errorf("the literal is not marked Bad")
	}
	huge := "1." + strings.Repeat("5", 100000)
	res = Lex("f.wf", huge)
	if len(res.Diags) != 1 || len(res.Diags[0].Message) > 200 {
		t.Errorf("a 100,000-digit decimal: got %d diagnostics, message of %d bytes", len(res.Diags), len(res.Diags[0].Message))
	}
	// Leading zeros do not count towards the magnitude.
	if res := Lex("f.wf", strings.Repeat("0", 100)+"1.5"); len(res.Diags) != 0 {
		t.Errorf("leading zeros: got %v", res.Diags)
	}
	if res := Lex("f.wf", "79228162514264337593543950336.0"); len(res.Diags) != 1 {
		t.Errorf("2^96: got %v", res.Diags)
	}
	if res := Lex("f.wf", "79228162514264337593543950335.0"); len(res.Diags) != 0 {
		t.Errorf("2^96-1: got %v", res.Diags)
	}
}

// hostile are inputs that repeat one lexical error n times.
var hostile = []struct {
	code   diag.ID
	repeat string
}{
	{"WF002", "\"x\n"},
	{"WF002", "a /*"}, // one unterminated comment swallows the rest: a single WF002
	{"WF003", "@ "},
	{"WF003", "# x\n"},
	// Bad bytes among enough text that the file is not taken as binary.
	{"WF003", "\"\x00 and text\" "},
	{"WF003", "\"\xff and text\" "},
	{"WF003", "// \x00 and text\n"},
	{"WF004", "5s "},
	{"WF004", "0." + strings.Repeat("1", 40) + " "},
	{"WF005", "\"\\q\" "},
	{"WF005", "\"\\u1\" "},
}

// TestCapsPerCode: each lexical code reports at most MaxPerCode diagnostics
// one by one and counts the rest in one more.
func TestCapsPerCode(t *testing.T) {
	for _, h := range hostile {
		t.Run(fmt.Sprintf("%s %q", h.code, h.repeat), func(t *testing.T) {
			n := 3 * MaxPerCode
			res := Lex("f.wf", strings.Repeat(h.repeat, n))
			count := 0
			var last string
			for _, d := range res.Diags {
				if d.Code != h.code {
					t.Fatalf("unexpected %s: %s", d.Code, d.Message)
				}
				count++
				last = d.Message
			}
			if strings.HasSuffix(h.repeat, "/*") {
				if count != 1 {
					t.Errorf("got %d diagnostics, want 1", count)
				}
				return
			}
			if count != MaxPerCode+1 {
				t.Errorf("got %d diagnostics, want %d", count, MaxPerCode+1)
			}
			if want := fmt.Sprintf("%d more ", n-MaxPerCode); !strings.HasPrefix(last, want) {
				t.Errorf("last message %q, want it to start %q", last, want)
			}
		})
	}
}

// TestLexLinear: lexing each hostile input grows linearly with its size.
// Counted, not timed: the bytes the lexer reads besides its one pass, and
// the allocations.
func TestLexLinear(t *testing.T) {
	again := scaling.Count("bytes read again", &lookedAgain)
	for _, h := range hostile {
		scaling.Linear(t, fmt.Sprintf("%s %q", h.code, h.repeat), func(n int) {
			Lex("f.wf", strings.Repeat(h.repeat, n))
		}, 500, again)
	}
	scaling.Linear(t, "long decimals", func(n int) {
		Lex("f.wf", strings.Repeat("1."+strings.Repeat("5", 1000)+" ", n))
	}, 50, again)
	// Single quotes that never close, one a line: each looks ahead to the
	// end of its line, not of the file.
	scaling.Linear(t, "unclosed single quotes", func(n int) {
		Lex("f.wf", strings.Repeat("'never closed\n", n))
	}, 500, again)
}

// BenchmarkHostile lexes each hostile input at 100,000 repetitions.
func BenchmarkHostile(b *testing.B) {
	for _, h := range hostile {
		src := strings.Repeat(h.repeat, 100000)
		b.Run(fmt.Sprintf("%s/%q", h.code, h.repeat), func(b *testing.B) {
			b.SetBytes(int64(len(src)))
			b.ReportAllocs()
			for b.Loop() {
				Lex("f.wf", src)
			}
		})
	}
}
