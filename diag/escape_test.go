package diag

import (
	"bytes"
	"encoding/json"
	"fmt"
	"strings"
	"testing"
	"unicode/utf8"

	"github.com/wfc-lang/wfc/internal/scaling"
)

func TestEscape(t *testing.T) {
	tests := map[string]string{
		"plain `x` \\n stays":      "plain `x` \\n stays",
		"a\nb\rc\td":               `a\nb\rc\td`,
		"\x1b[31mred\x07":          `\x1b[31mred\x07`,
		"nul\x00 del\x7f":          `nul\x00 del\x7f`,
		"c1 \u0085\u009b":          `c1 \u0085\u009b`,
		"bidi \u202eevil\u202c":    `bidi \u202eevil\u202c`,
		"iso \u2066x\u2069":        `iso \u2066x\u2069`,
		"marks \u200e\u200f":       `marks \u200e\u200f`,
		"sep \u2028\u2029":         `sep \u2028\u2029`,
		"bad \xff utf8":            `bad \xff utf8`,
		"héllo 😀":                  "héllo 😀",
		"cmd ##[error]x":           `cmd #\x23[error]x`,
		"###[x] #[ ## [":           `##\x23[x] #[ ## [`,
		"soft #\u00ad#[x":          `soft #\u00ad#[x`,
		"zw \u200b\u200d\ufeff":    `zw \u200b\u200d\ufeff`,
		"vs \ufe0f tag \U000e0041": `vs \ufe0f tag \U000e0041`,
		"nbsp \u00a0 kept":         "nbsp \u00a0 kept",
	}
	for in, want := range tests {
		if got := Escape(in); got != want {
			t.Errorf("Escape(%q) = %q, want %q", in, got, want)
		}
	}
	for in, want := range map[string]string{
		"::warning::x.wf":          "./::warning::x.wf",
		"  ::error::x.wf":          "./  ::error::x.wf",
		"##[error]x.wf":            `#\x23[error]x.wf`,
		"\u00a0\u3000::warning::x": "./\u00a0\u3000::warning::x",
		"\u2003::error::x":         "./\u2003::error::x",
		"a::b.wf":                  "a::b.wf",
		"\n::warning::x":           `\n::warning::x`,
		"dir/::warning::x":         "dir/::warning::x",
	} {
		if got := EscapeLineStart(in); got != want {
			t.Errorf("EscapeLineStart(%q) = %q, want %q", in, got, want)
		}
	}
}

// TestEscapeNoAlloc: safe text, the common case, costs no allocation.
func TestEscapeNoAlloc(t *testing.T) {
	s := "an ordinary message about `Name` in a.wf"
	if n := testing.AllocsPerRun(100, func() { _ = Escape(s) }); n != 0 {
		t.Errorf("Escape of safe text allocates %v times", n)
	}
}

// TestJSONWriter: DEL, C1 and bidi controls leave as \u escapes and the
// document decodes to the same text; the document's own line breaks stay.
func TestJSONWriter(t *testing.T) {
	in := "a\x7fb\u0085c\u202ed\u2066e\n\x1b ##[error]x \u00ad \U000e0041 ###[y"
	var b bytes.Buffer
	enc := json.NewEncoder(jsonWriter{&b})
	enc.SetIndent("", "  ")
	if err := enc.Encode(map[string]string{"m": in}); err != nil {
		t.Fatal(err)
	}
	out := b.String()
	if strings.ContainsFunc(out, func(r rune) bool { return unsafeRune(r) && r != '\n' }) {
		t.Errorf("raw control character in %q", out)
	}
	if strings.Contains(out, "##[") {
		t.Errorf("a CI command in %q", out)
	}
	if strings.Count(out, "\n") != 3 {
		t.Errorf("line breaks of the document changed: %q", out)
	}
	var back map[string]string
	if err := json.Unmarshal(b.Bytes(), &back); err != nil || back["m"] != in {
		t.Errorf("decodes to %q (%v), want %q", back["m"], err, in)
	}
}

// longLine is one line of n findings, each its own name, as a crafted file
// could produce: every fingerprint covers the same (long) line.
func longLine(n int) ([]Diagnostic, Sources) {
	var src strings.Builder
	ds := make([]Diagnostic, 0, n)
	for i := range n {
		name := fmt.Sprintf("N%07d", i)
		off := src.Len()
		src.WriteString(name + " ")
		ds = append(ds, Diagnostic{File: "f.wf", Code: "WF102", Message: "unknown name `" + name + "`",
			Range: Range{Start: MakePos(1, off+1, off), End: MakePos(1, off+9, off+8)}})
	}
	return ds, Sources{"f.wf": src.String()}
}

// TestSARIFLinear: SARIF output grows linearly with the findings on one
// line (fingerprints used to hash the whole line per finding).
func TestSARIFLinear(t *testing.T) {
	scaling.Linear(t, "SARIF, findings on one line", func(n int) {
		ds, src := longLine(n)
		if err := WriteSARIF(&bytes.Buffer{}, ds, src, SARIFOptions{}); err != nil {
			t.Fatal(err)
		}
	}, 2000)
}

// TestFingerprintLineBreaks: the flagged line is found by line number, with
// CR LF and lone CR line breaks alike.
func TestFingerprintLineBreaks(t *testing.T) {
	fp := func(src string) string {
		f := fingerprinter{src: Sources{"f.wf": src}, lines: map[lineKey]string{}, starts: map[string][]int{}}
		return f.of(&Diagnostic{File: "f.wf", Code: "WF102", Message: "m", Range: Range{Start: MakePos(2, 1, 0)}}, "f.wf")
	}
	a, b, c := fp("x\n  flagged  \ny"), fp("x\r\nflagged\r\ny"), fp("x\rflagged\ry")
	if a != b || b != c {
		t.Errorf("fingerprints differ by line breaks: %s %s %s", a, b, c)
	}
	if fp("x\nother\n") == a {
		t.Errorf("fingerprint ignores the line's text")
	}
}

func BenchmarkSARIFOneLine(b *testing.B) {
	ds, src := longLine(20000)
	b.SetBytes(int64(len(src["f.wf"])))
	b.ReportAllocs()
	for b.Loop() {
		if err := WriteSARIF(&bytes.Buffer{}, ds, src, SARIFOptions{}); err != nil {
			b.Fatal(err)
		}
	}
}

// FuzzEscape: whatever the input, Escape's output is UTF-8 without an
// unsafe character, safe text comes back unchanged, and so does the JSON
// writer's document.
func FuzzEscape(f *testing.F) {
	for _, s := range []string{"plain", "a\nb", "\x1b[31m\u202e\u0085\xff", "::warning::x", ""} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		e := Escape(s)
		if !utf8.ValidString(e) || firstUnsafe(e) >= 0 {
			t.Fatalf("Escape(%q) = %q still unsafe", s, e)
		}
		if firstUnsafe(s) < 0 && e != s {
			t.Fatalf("Escape(%q) changed safe text to %q", s, e)
		}
		if l := EscapeLineStart(s); command(l) {
			t.Fatalf("EscapeLineStart(%q) = %q reads as a workflow command", s, l)
		}
		var b bytes.Buffer
		if err := json.NewEncoder(SafeJSON(&b)).Encode(s); err != nil {
			t.Fatal(err)
		}
		var back string
		if err := json.Unmarshal(b.Bytes(), &back); err != nil || back != strings.ToValidUTF8(s, "\uFFFD") && utf8.ValidString(s) {
			t.Fatalf("JSON of %q decodes to %q (%v)", s, back, err)
		}
		if strings.ContainsFunc(b.String(), jsonUnsafe) {
			t.Fatalf("JSON of %q holds a raw control: %q", s, b.String())
		}
	})
}

// command reports whether a line would be read as a workflow command.
func command(line string) bool {
	t := strings.TrimLeft(line, " \t")
	return strings.HasPrefix(t, "::") || strings.HasPrefix(t, "##[")
}

// TestShorten: text up to 40 bytes is kept; longer text is cut to at most
// 37 bytes at a character boundary, then "…".
func TestShorten(t *testing.T) {
	long := strings.Repeat("a", 36) + "ééé"
	for _, c := range []struct{ in, want string }{
		{"", ""},
		{strings.Repeat("x", 40), strings.Repeat("x", 40)},
		{strings.Repeat("x", 41), strings.Repeat("x", 37) + "…"},
		{long + "b", strings.Repeat("a", 36) + "…"}, // é spans bytes 36–37: cut before it
		{strings.Repeat("a", 35) + "ééé", strings.Repeat("a", 35) + "é…"},
	} {
		if got := Shorten(c.in); got != c.want {
			t.Errorf("Shorten(%q) = %q, want %q", c.in, got, c.want)
		}
	}
}
