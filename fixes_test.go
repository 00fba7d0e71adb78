package wfc_test

import (
	"context"
	"fmt"
	"strings"
	"testing"

	"github.com/wfc-lang/wfc"
	"github.com/wfc-lang/wfc/diag"
	"github.com/wfc-lang/wfc/internal/golden"
	"github.com/wfc-lang/wfc/parser"
)

// casePrograms are the golden cases (a .wf file, or a directory of them as
// one program) and the wrong example of every catalogued code.
func casePrograms(t *testing.T) map[string][]parser.Source {
	out := map[string][]parser.Source{}
	for _, c := range golden.Cases(t, "testdata") {
		out[c.Name] = c.Files
	}
	for _, c := range diag.Codes {
		out["explain/"+string(c.Code)] = []parser.Source{{Name: "wrong.wf", Src: c.Wrong}}
	}
	return out
}

// TestFixesFix applies every fix of every diagnostic of every case, one at
// a time, re-checks the whole program, and requires that the fix removes
// its diagnostic (one fewer of its code in its file) and adds no error of
// any code anywhere in the program.
func TestFixesFix(t *testing.T) {
	n := 0
	for name, files := range casePrograms(t) {
		before := wfc.Run(context.Background(), files, wfc.Options{})
		for _, d := range before.Diagnostics {
			for _, fix := range d.Fixes {
				n++
				t.Run(fmt.Sprintf("%s/%s@%d:%d/%s", name, d.Code, d.Range.Start.Line, d.Range.Start.Column, fix.Title), func(t *testing.T) {
					inOrder(t, fix)
					fixed := applyFix(t, files, fix)
					for i := range files {
						if allCRLF(files[i].Src) && !allCRLF(fixed[i].Src) {
							t.Errorf("applying %q to %s, whose lines all end in CRLF, leaves a bare LF:\n%q", fix.Title, files[i].Name, fixed[i].Src)
						}
					}
					after := wfc.Run(context.Background(), fixed, wfc.Options{})
					if got, was := count(after.Diagnostics, d.File, d.Code), count(before.Diagnostics, d.File, d.Code); got >= was {
						t.Errorf("applying %q leaves %d %s in %s (was %d)", fix.Title, got, d.Code, d.File, was)
					}
					was, got := errorCounts(before.Diagnostics), errorCounts(after.Diagnostics)
					for code, k := range got {
						if k > was[code] {
							t.Errorf("applying %q adds %s:\n%s", fix.Title, code, describe(after.Diagnostics, code))
						}
					}
				})
			}
		}
	}
	if n < 20 {
		t.Fatalf("only %d fixes found in the cases", n)
	}
}

// allCRLF reports whether src has line breaks and every one is CRLF.
func allCRLF(src string) bool {
	return strings.Contains(src, "\r\n") && strings.Count(src, "\n") == strings.Count(src, "\r\n")
}

// inOrder requires a fix's edits of each file to come in source order,
// without overlaps: an editor applies them as given.
func inOrder(t *testing.T, fix diag.Fix) {
	t.Helper()
	last := map[string]int32{}
	for _, e := range fix.Edits {
		if prev, ok := last[e.File]; ok && e.Range.Start.Offset < prev {
			t.Errorf("fix %q: an edit at offset %d comes after one ending at %d", fix.Title, e.Range.Start.Offset, prev)
		}
		last[e.File] = e.Range.End.Offset
	}
}

// applyFix returns files with the fix's edits applied.
func applyFix(t *testing.T, files []parser.Source, fix diag.Fix) []parser.Source {
	t.Helper()
	byFile := map[string][]diag.Edit{}
	for _, e := range fix.Edits {
		byFile[e.File] = append(byFile[e.File], e)
	}
	out := make([]parser.Source, len(files))
	for i, f := range files {
		out[i] = f
		if es, ok := byFile[f.Name]; ok {
			src, err := diag.ApplyEdits(f.Src, es)
			if err != nil {
				t.Fatal(err)
			}
			out[i].Src = src
			delete(byFile, f.Name)
		}
	}
	for f := range byFile {
		t.Fatalf("an edit names %s, which is not in the program", f)
	}
	return out
}

func count(ds []diag.Diagnostic, file string, code diag.ID) int {
	n := 0
	for _, d := range ds {
		if d.File == file && d.Code == code {
			n++
		}
	}
	return n
}

func errorCounts(ds []diag.Diagnostic) map[diag.ID]int {
	m := map[diag.ID]int{}
	for _, d := range ds {
		if d.Severity == diag.Error {
			m[d.Code]++
		}
	}
	return m
}

func describe(ds []diag.Diagnostic, code diag.ID) string {
	var b strings.Builder
	for _, d := range ds {
		if d.Code == code {
			fmt.Fprintf(&b, "  %s:%d:%d: %s\n", d.File, d.Range.Start.Line, d.Range.Start.Column, d.Message)
		}
	}
	return b.String()
}
