package format

import (
	"flag"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
	goldenfile "github.com/wfc-lang/wfc/internal/golden"
	"github.com/wfc-lang/wfc/lexer"
	"github.com/wfc-lang/wfc/parser"
)

var update = flag.Bool("update", false, "rewrite the golden files")

// tidy formats src, which must lex cleanly.
func tidy(t testing.TB, src string) string {
	t.Helper()
	lx := parser.Lex("t.wf", src)
	out, err := Layout(src, &lx)
	if err != nil {
		t.Fatalf("Layout: %v", err)
	}
	return out
}

// lexemes is the token sequence of src, comments included, for comparing
// before and after: line comments lose trailing blanks, nothing else changes.
func lexemes(src string) []string {
	lx := parser.Lex("t.wf", src)
	var out []string
	ci := 0
	for _, t := range lx.Tokens {
		for ci < len(lx.Comments) && lx.Comments[ci].Off < t.Off {
			c := src[lx.Comments[ci].Off:lx.Comments[ci].End]
			if src[lx.Comments[ci].Off+1] == '/' {
				c = strings.TrimRight(c, " \t\r")
			}
			out = append(out, c)
			ci++
		}
		out = append(out, t.Kind.String()+" "+src[t.Off:t.End])
	}
	return out
}

// checkProperties asserts that formatting src changes only white space and
// that formatting is idempotent.
func checkProperties(t *testing.T, name, src string) {
	t.Helper()
	lx := parser.Lex(name, src)
	if len(lx.Diags) > 0 {
		if _, err := Layout(src, &lx); err != ErrLex {
			t.Errorf("%s: Layout of source with lexical errors: got %v, want ErrLex", name, err)
		}
		return
	}
	if _, err := Layout(src, &lx); err == ErrBinary {
		return
	}
	once := tidy(t, src)
	if diff := cmp.Diff(lexemes(src), lexemes(once)); diff != "" {
		t.Errorf("%s: formatting changed the tokens (-before +after):\n%s\n--- output:\n%s", name, diff, once)
	}
	if twice := tidy(t, once); twice != once {
		t.Errorf("%s: not idempotent:\n%s", name, cmp.Diff(once, twice))
	}
	if diff := cmp.Diff(covered(src), covered(once)); diff != "" {
		t.Errorf("%s: an ignore comment covers other tokens after formatting (-before +after):\n%s\n--- output:\n%s", name, diff, once)
	}
	p, err := layout(src, &lx, true)
	if err != nil {
		t.Fatal(err)
	}
	if got := applyEdits(src, p.edits()); got != once {
		t.Errorf("%s: the edits do not give the formatted text:\n%s", name, cmp.Diff(once, got))
	}
}

// covered lists, for each `wfc:ignore` comment of src, the indices of the
// tokens on the line it covers: what it can silence.
func covered(src string) [][]int {
	lx := parser.Lex("t.wf", src)
	var out [][]int
	for _, ig := range lx.Ignores {
		line := ig.Range.Start.Line
		if !ig.Trailing {
			line++
		}
		toks := []int{}
		for i, t := range lx.Tokens {
			if t.Kind != lexer.EOF && int64(t.Line) == int64(line) {
				toks = append(toks, i)
			}
		}
		out = append(out, toks)
	}
	return out
}

// applyEdits applies edits, which are in order and do not overlap.
func applyEdits(src string, edits []Edit) string {
	var b strings.Builder
	last := 0
	for _, e := range edits {
		b.WriteString(src[last:e.Off])
		b.WriteString(e.New)
		last = e.End
	}
	return b.String() + src[last:]
}

// TestEdits: the edits touch only white space, and a file in canonical form
// has none.
func TestEdits(t *testing.T) {
	src := "workflow W{Initial=A;\r\n  terminal A{}}   "
	edits, err := Edits("e.wf", src)
	if err != nil {
		t.Fatal(err)
	}
	for _, e := range edits {
		if strings.Trim(src[e.Off:e.End], " \t\r\n") != "" || strings.Trim(e.New, " \t\r\n") != "" {
			t.Errorf("edit %+v changes more than white space", e)
		}
	}
	want, _ := Source("e.wf", src)
	if got := applyEdits(src, edits); got != want {
		t.Errorf("got %q, want %q", got, want)
	}
	if edits, err := Edits("e.wf", want); err != nil || len(edits) != 0 {
		t.Errorf("canonical text: %v, %v; want no edits", edits, err)
	}
	if _, err := Edits("bad.wf", "workflow {"); err == nil {
		t.Error("no error for a file with syntax errors")
	}
}

// testdataFiles lists every .wf file under the repository's testdata.
func testdataFiles(t testing.TB) []string {
	var files []string
	err := filepath.WalkDir("../testdata", func(p string, d os.DirEntry, err error) error {
		if err == nil && !d.IsDir() && strings.HasSuffix(p, ".wf") {
			files = append(files, p)
		}
		return err
	})
	if err != nil || len(files) == 0 {
		t.Fatalf("no testdata: %v", err)
	}
	return files
}

// TestTestdataProperties formats every .wf file in testdata (those with
// syntax errors too: the layout needs only tokens) and checks that only
// white space changes and that a second run changes nothing.
func TestTestdataProperties(t *testing.T) {
	for _, f := range testdataFiles(t) {
		b, err := os.ReadFile(f)
		if err != nil {
			t.Fatal(err)
		}
		checkProperties(t, f, string(b))
	}
}

// TestExampleUnchanged: the language's own example is in canonical form.
func TestExampleUnchanged(t *testing.T) {
	b, err := os.ReadFile("../testdata/examples/jobflow/jobflow.wf")
	if err != nil {
		t.Fatal(err)
	}
	got, err := Source("jobflow.wf", string(b))
	if err != nil {
		t.Fatal(err)
	}
	if diff := cmp.Diff(string(b), got); diff != "" {
		t.Errorf("jobflow.wf changed (-want +got):\n%s", diff)
	}
}

// TestGolden formats each testdata/NAME.wf and compares with NAME.golden
// (`go test -update` rewrites them).
func TestGolden(t *testing.T) {
	files, _ := filepath.Glob("testdata/*.wf")
	if len(files) == 0 {
		t.Fatal("no golden inputs")
	}
	for _, f := range files {
		b, err := os.ReadFile(f)
		if err != nil {
			t.Fatal(err)
		}
		got := tidy(t, string(b))
		goldenfile.Check(t, strings.TrimSuffix(f, ".wf")+".golden", got, *update, "format")
		checkProperties(t, f, string(b))
	}
}

// TestRules pins single layout rules on small inputs.
func TestRules(t *testing.T) {
	long := "workflow W { state S { subscribe E() { Finished { Within = TimeSpan.FromMinutes(5); Retries = 2; Unfinished { goto T; } } } } }\n"
	tests := []struct{ name, in, want string }{
		{"empty", "", ""},
		{"blank only", " \n\n\t\n", ""},
		{"crlf, comments verbatim", "a;\r\n/* x\ny\r\nz */ b;", "a;\r\n/* x\ny\r\nz */ b;\r\n"},
		{"tab and form feed in a comment are fine", "a; /* \t\f */", "a; /* \t\f */\n"},
		{"an ignored line stays together", "s {\n a; b; // wfc:ignore WF201 x\nc;}", "s {\n  a; b; // wfc:ignore WF201 x\n  c;\n}\n"},
		{"the line after an ignore stays apart", "s { a;\n// wfc:ignore WF201 x\nb; c;\nd; }", "s {\n  a;\n  // wfc:ignore WF201 x\n  b; c;\n  d;\n}\n"},
		{"a blank line an ignore covers stays blank", "x =\n// wfc:ignore WF201\n\n 5;", "x =\n    // wfc:ignore WF201\n\n    5;\n"},
		{"a lone CR is a line break", "a; // c\rb;\r\rc;", "a; // c\nb;\n\nc;\n"},
		{"lone CRs and an ignore", "s {\r a; b; // wfc:ignore WF201 x\rc;}", "s {\n  a; b; // wfc:ignore WF201 x\n  c;\n}\n"},
		{"bom kept", "\uFEFFenum E{A}", "\uFEFFenum E { A }\n"},
		{"empty block", "terminal T {\n}", "terminal T { }\n"},
		{"unary and calls", "x = ! ( a||-b ) ;", "x = !(a || -b);\n"},
		{"no glue", "x = ! = 1 . 5;", "x = ! = 1 .5;\n"},
		{"minus signs never become a -- comment", "x = - -1;\ny = - - ;\n- -", "x = - -1;\ny = - -;\n- -\n"},
		{"optional type and labels", "string ? N; f(retry : p);", "string? N;\nf(retry: p);\n"},
		{"one blank line kept", "a;\n\n\n\nb;", "a;\n\nb;\n"},
		{"blank lines after { dropped", "w {\n\n a;\n\n}", "w {\n  a;\n}\n"},
		{"multi-line block stays expanded", "s { a;\n}", "s {\n  a;\n}\n"},
		{"too wide one-liner expands", long,
			"workflow W {\n  state S { subscribe E() { Finished { Within = TimeSpan.FromMinutes(5); Retries = 2; Unfinished { goto T; } } } }\n}\n"},
		{"line comment breaks a member", "x = a // c\n&& b;", "x = a // c\n    && b;\n"},
		{"settings align, blank line ends the run", "w {\nA = 1;\nLonger = 2;\n\nB = 3;\n}",
			"w {\n  A      = 1;\n  Longer = 2;\n\n  B = 3;\n}\n"},
		{"one-line blocks align", "m {\nExhausted { }\nUnfinished { goto X; }\n}",
			"m {\n  Exhausted  { }\n  Unfinished { goto X; }\n}\n"},
		{"a step's catch follows its block", "on Go {\nW.Once(\"s\") {\nX.Y(); }\ncatch { Exhausted { goto D; }\ndefault { } }\ngoto D; }",
			"on Go {\n  W.Once(\"s\") {\n    X.Y();\n  } catch {\n    Exhausted { goto D; }\n    default   { }\n  }\n  goto D;\n}\n"},
		{"a one-line step and catch stay on one line", "on Go { W.Once(\"s\") { X.Y(); } catch { default { } } }",
			"on Go { W.Once(\"s\") { X.Y(); } catch { default { } } }\n"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if got := tidy(t, tt.in); got != tt.want {
				t.Errorf("got:\n%q\nwant:\n%q", got, tt.want)
			}
			checkProperties(t, tt.name, tt.in)
		})
	}
}

// TestLayoutRefusesControlCharacters: a comment or string with control
// characters or invalid UTF-8 is not formatted, whether the lexer reports
// them (ErrLex) or lets them pass (ErrBinary).
func TestLayoutRefusesControlCharacters(t *testing.T) {
	for _, src := range []string{"a; // \x01", "a; /* \x02 */", "a; /* \xff */", "x = \"\x1b\";"} {
		lx := parser.Lex("c.wf", src)
		want := ErrBinary
		if len(lx.Diags) > 0 {
			want = ErrLex
		}
		if out, err := Layout(src, &lx); err != want || out != src {
			t.Errorf("%q: got %q, %v; want it unchanged and %v", src, out, err, want)
		}
	}
}

// TestSourceRefusesSyntaxErrors: a file that does not parse is returned
// unchanged, with its syntax errors.
func TestSourceRefusesSyntaxErrors(t *testing.T) {
	src := "workflow W { Initial = ; }"
	got, err := Source("bad.wf", src)
	se, ok := err.(*SyntaxError)
	if !ok || len(se.Diags) == 0 || got != src {
		t.Fatalf("got %q, %v; want the source unchanged and a *SyntaxError", got, err)
	}
}

// FuzzLayout: for any source that lexes, formatting changes only white
// space and is idempotent; it never panics.
func FuzzLayout(f *testing.F) {
	for _, p := range testdataFiles(f) {
		if b, err := os.ReadFile(p); err == nil {
			f.Add(string(b))
		}
	}
	f.Fuzz(func(t *testing.T, src string) {
		checkProperties(t, "fuzz", src)
	})
}

// BenchmarkLayout measures the layout alone (the source is lexed, as the
// parser does, before the timer starts) on the example repeated to 1 MB.
func BenchmarkLayout(b *testing.B) {
	one, err := os.ReadFile("../testdata/examples/jobflow/jobflow.wf")
	if err != nil {
		b.Fatal(err)
	}
	src := strings.Repeat(string(one)+"\n", 1<<20/len(one))
	lx := parser.Lex("bench.wf", src)
	b.SetBytes(int64(len(src)))
	b.ReportAllocs()
	cpu := cpuTime(b)
	for b.Loop() {
		if _, err := Layout(src, &lx); err != nil {
			b.Fatal(err)
		}
	}
	// MB/s of CPU time as well: on a loaded machine wall time mostly
	// measures waiting for a core.
	if cpu := cpuTime(b) - cpu; cpu > 0 {
		b.ReportMetric(float64(len(src))*float64(b.N)/cpu.Seconds()/1e6, "MB/cpu-s")
	}
}

// TestExamplesFormatted: the examples users read first are in the layout
// `wfc fmt` gives, so `wfc fmt -l` on the repository lists none of them.
func TestExamplesFormatted(t *testing.T) {
	n := 0
	for _, p := range testdataFiles(t) {
		if !strings.Contains(filepath.ToSlash(p), "/examples/") {
			continue
		}
		n++
		b, err := os.ReadFile(p)
		if err != nil {
			t.Fatal(err)
		}
		got, err := Source(p, string(b))
		if err != nil {
			t.Errorf("%s: %v", p, err)
		} else if got != string(b) {
			t.Errorf("%s is not formatted: run wfc fmt -w %s", p, p)
		}
	}
	if n == 0 {
		t.Fatal("no examples found")
	}
}
