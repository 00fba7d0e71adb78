package format

import (
	"flag"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/wfc-lang/wfc/lexer"
)

var update = flag.Bool("update", false, "rewrite the golden files")

// layout formats src, which must lex cleanly.
func layout(t testing.TB, src string) string {
	t.Helper()
	lx := lexer.Lex("t.wf", src)
	out, err := Layout(src, &lx)
	if err != nil {
		t.Fatalf("Layout: %v", err)
	}
	return out
}

// lexemes is the token sequence of src, comments included, for comparing
// before and after: comments lose trailing blanks and CRs before newlines.
func lexemes(src string) []string {
	lx := lexer.Lex("t.wf", src)
	var out []string
	ci := 0
	for _, t := range lx.Tokens {
		for ci < len(lx.Comments) && lx.Comments[ci].Off < t.Off {
			c := src[lx.Comments[ci].Off:lx.Comments[ci].End]
			c = strings.ReplaceAll(strings.TrimRight(c, " \t\r"), "\r\n", "\n")
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
	lx := lexer.Lex(name, src)
	if len(lx.Diags) > 0 {
		if _, err := Layout(src, &lx); err != ErrLex {
			t.Errorf("%s: Layout of source with lexical errors: got %v, want ErrLex", name, err)
		}
		return
	}
	once := layout(t, src)
	if diff := cmp.Diff(lexemes(src), lexemes(once)); diff != "" {
		t.Errorf("%s: formatting changed the tokens (-before +after):\n%s\n--- output:\n%s", name, diff, once)
	}
	if twice := layout(t, once); twice != once {
		t.Errorf("%s: not idempotent:\n%s", name, cmp.Diff(once, twice))
	}
}

// testdataFiles lists every .wf file under the repository's testdata.
func testdataFiles(t testing.TB) []string {
	var files []string
	err := filepath.WalkDir("../../testdata", func(p string, d os.DirEntry, err error) error {
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
	b, err := os.ReadFile("../../testdata/examples/jobflow/jobflow.wf")
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
		got := layout(t, string(b))
		golden := strings.TrimSuffix(f, ".wf") + ".golden"
		if *update {
			if err := os.WriteFile(golden, []byte(got), 0o644); err != nil {
				t.Fatal(err)
			}
			continue
		}
		want, err := os.ReadFile(golden)
		if err != nil {
			t.Fatal(err)
		}
		if diff := cmp.Diff(string(want), got); diff != "" {
			t.Errorf("%s (-want +got):\n%s", f, diff)
		}
		checkProperties(t, f, string(b))
	}
}

// TestRules pins single layout rules on small inputs.
func TestRules(t *testing.T) {
	long := "workflow W { state S { subscribe E() { Finished { Within = TimeSpan.FromMinutes(5); Retries = 2; Unfinished { goto T; } } } } }\n"
	tests := []struct{ name, in, want string }{
		{"empty", "", ""},
		{"blank only", " \n\n\t\n", ""},
		{"bom kept", "\uFEFFenum E{A}", "\uFEFFenum E { A }\n"},
		{"empty block", "terminal T {\n}", "terminal T { }\n"},
		{"unary and calls", "x = ! ( a||-b ) ;", "x = !(a || -b);\n"},
		{"no glue", "x = ! = 1 . 5;", "x = ! = 1 .5;\n"},
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
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if got := layout(t, tt.in); got != tt.want {
				t.Errorf("got:\n%q\nwant:\n%q", got, tt.want)
			}
			checkProperties(t, tt.name, tt.in)
		})
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
	one, err := os.ReadFile("../../testdata/examples/jobflow/jobflow.wf")
	if err != nil {
		b.Fatal(err)
	}
	src := strings.Repeat(string(one)+"\n", 1<<20/len(one))
	lx := lexer.Lex("bench.wf", src)
	b.SetBytes(int64(len(src)))
	b.ReportAllocs()
	for b.Loop() {
		if _, err := Layout(src, &lx); err != nil {
			b.Fatal(err)
		}
	}
}
