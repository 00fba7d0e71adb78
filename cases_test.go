package wfc_test

import (
	"context"
	"fmt"
	"regexp"
	"sort"
	"strings"
	"testing"
	"unicode/utf8"

	"github.com/google/go-cmp/cmp"

	"github.com/wfc-lang/wfc"
	"github.com/wfc-lang/wfc/diag"
	"github.com/wfc-lang/wfc/parser"
)

var wantRE = regexp.MustCompile(`// want((?:\s+WF\d{3})+)`)

// TestCases runs every golden case of testdata/cases through the pipeline
// and checks its `// want` annotations both ways: each expected code on its
// line, and nothing else. It lives here, with the code that reports, so
// `go test ./check/...` fails when a rule stops reporting (cmd/wfc keeps
// the goldens of the renderings, text and JSON). It also checks that every
// range, related location and fix edit lies inside its file, with a line
// and column that agree with its offset.
func TestCases(t *testing.T) {
	progs := casePrograms(t)
	names := make([]string, 0, len(progs))
	for name := range progs {
		if !strings.HasPrefix(name, "explain/") {
			names = append(names, name)
		}
	}
	sort.Strings(names)
	if len(names) == 0 {
		t.Fatal("no cases")
	}
	for _, name := range names {
		srcs := progs[name]
		t.Run(strings.TrimSuffix(name, ".wf"), func(t *testing.T) {
			r := wfc.Run(context.Background(), srcs, wfc.Options{})
			if diff := cmp.Diff(wants(srcs), gotLines(r.Diagnostics)); diff != "" {
				t.Errorf("diagnostics differ from the // want annotations (-want +got):\n%s", diff)
			}
			checkRanges(t, r.Sources, r.Diagnostics)
		})
	}
}

// wants returns "file:line: CODE" for every `// want` annotation.
func wants(srcs []parser.Source) []string {
	var out []string
	for _, s := range srcs {
		for i, line := range strings.Split(s.Src, "\n") {
			for _, m := range wantRE.FindAllStringSubmatch(line, -1) {
				for _, code := range strings.Fields(m[1]) {
					out = append(out, fmt.Sprintf("%s:%d: %s", s.Name, i+1, code))
				}
			}
		}
	}
	sort.Strings(out)
	return out
}

func gotLines(ds []diag.Diagnostic) []string {
	var out []string
	for _, d := range ds {
		out = append(out, fmt.Sprintf("%s:%d: %s", d.File, d.Range.Start.Line, d.Code))
	}
	sort.Strings(out)
	return out
}

// checkRanges asserts every range lies inside its file and is ordered.
func checkRanges(t testing.TB, srcs diag.Sources, ds []diag.Diagnostic) {
	t.Helper()
	in := func(file string, r diag.Range, what string) {
		src, ok := srcs[file]
		if !ok {
			t.Errorf("%s names unknown file %q", what, file)
			return
		}
		if r.Start.Offset < 0 || int(r.End.Offset) > len(src) || r.Start.Offset > r.End.Offset ||
			r.Start.Line < 1 || r.Start.Column < 1 || r.End.Line < r.Start.Line {
			t.Errorf("%s has range %+v outside %s (%d bytes)", what, r, file, len(src))
			return
		}
		// Line and column must agree with the offset. Lines end at LF,
		// CR LF or a lone CR, as the lexer counts them.
		before := src[:r.Start.Offset]
		line := int32(strings.Count(before, "\n")+strings.Count(before, "\r")-strings.Count(before, "\r\n")) + 1
		lineStart := strings.LastIndexAny(before, "\r\n") + 1
		if lineStart == 0 && strings.HasPrefix(src, "\uFEFF") && r.Start.Offset >= 3 {
			lineStart = 3 // a byte order mark takes no column
		}
		col := int32(utf8.RuneCountInString(src[lineStart:r.Start.Offset])) + 1
		if line != r.Start.Line || col != r.Start.Column {
			t.Errorf("%s starts at offset %d = %d:%d but says %d:%d", what, r.Start.Offset, line, col, r.Start.Line, r.Start.Column)
		}
	}
	for _, d := range ds {
		in(d.File, d.Range, string(d.Code))
		for _, r := range d.Related {
			in(r.File, r.Range, string(d.Code)+" related")
		}
		for _, f := range d.Fixes {
			for _, e := range f.Edits {
				in(e.File, e.Range, string(d.Code)+" fix")
			}
		}
	}
}
