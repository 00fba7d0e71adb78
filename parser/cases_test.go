package parser_test

import (
	"fmt"
	"os"
	"path/filepath"
	"regexp"
	"sort"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/wfc-lang/wfc/diag"
	"github.com/wfc-lang/wfc/parser"
)

var wantRE = regexp.MustCompile(`// want((?:\s+WF\d{3})+)`)

// TestCasesSyntax parses every golden case of testdata/cases and compares
// its syntax diagnostics (the Syntax phase: WF001–WF005) with the `// want`
// annotations of those codes, line by line, so the parser's own tests fail
// when its recovery reports a mistake in the wrong place, twice, or not at
// all (the checker's codes are the root package's TestCases).
func TestCasesSyntax(t *testing.T) {
	progs := casePrograms(t)
	if len(progs) < 50 {
		t.Fatalf("only %d cases", len(progs))
	}
	for name, srcs := range progs {
		t.Run(name, func(t *testing.T) {
			_, ds := parser.Parse(srcs, parser.Options{Workers: 1})
			var got []string
			for _, d := range ds {
				got = append(got, fmt.Sprintf("%s:%d: %s", d.File, d.Range.Start.Line, d.Code))
			}
			sort.Strings(got)
			if d := cmp.Diff(syntaxWants(srcs), got); d != "" {
				t.Errorf("syntax diagnostics differ from the // want annotations (-want +got):\n%s", d)
			}
		})
	}
}

// syntaxWants are the annotated syntax codes, "file:line: CODE", sorted.
func syntaxWants(srcs []parser.Source) []string {
	var out []string
	for _, s := range srcs {
		for i, line := range strings.Split(s.Src, "\n") {
			for _, m := range wantRE.FindAllStringSubmatch(line, -1) {
				for _, code := range strings.Fields(m[1]) {
					if diag.ID(code).Phase() == diag.Syntax {
						out = append(out, fmt.Sprintf("%s:%d: %s", s.Name, i+1, code))
					}
				}
			}
		}
	}
	sort.Strings(out)
	return out
}

// casePrograms are the golden cases: a .wf file, or a directory of them as
// one program.
func casePrograms(t *testing.T) map[string][]parser.Source {
	out := map[string][]parser.Source{}
	entries, err := os.ReadDir("../testdata/cases")
	if err != nil {
		t.Fatal(err)
	}
	for _, e := range entries {
		p := filepath.Join("../testdata/cases", e.Name())
		var files []string
		switch {
		case e.IsDir():
			files, _ = filepath.Glob(filepath.Join(p, "*.wf"))
			sort.Strings(files)
		case strings.HasSuffix(e.Name(), ".wf"):
			files = []string{p}
		}
		for _, f := range files {
			b, err := os.ReadFile(f)
			if err != nil {
				t.Fatal(err)
			}
			out[e.Name()] = append(out[e.Name()], parser.Source{Name: filepath.ToSlash(f), Src: string(b)})
		}
	}
	return out
}
