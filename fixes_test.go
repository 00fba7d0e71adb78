package wfc_test

import (
	"context"
	"flag"
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
// its diagnostic (one fewer of its code in its file), leaves no error at
// the place it fixed, and adds no error of any code anywhere in the
// program. Every code the catalogue says has a machine-applicable fix
// (diag.MachineFixes) must have one applied here, and a machine-applicable
// fix of any other code fails: the list is the catalogue's promise.
func TestFixesFix(t *testing.T) {
	n := 0
	applied := map[diag.ID]bool{}
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
					if e, ok := errorAtPlace(d, fix, before.Diagnostics, after.Diagnostics); ok {
						t.Errorf("applying %q leaves an error where it fixed %s: %s:%d:%d %s %s", fix.Title, d.Code, e.File, e.Range.Start.Line, e.Range.Start.Column, e.Code, e.Message)
					}
					if fix.MachineApplicable {
						if _, ok := diag.MachineFixes[d.Code]; !ok {
							t.Errorf("%s has a machine-applicable fix (%q) that diag.MachineFixes does not list", d.Code, fix.Title)
						}
						applied[d.Code] = true
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
	if f := flag.Lookup("test.run"); f != nil && strings.Contains(f.Value.String(), "/") {
		return // a subset of the cases: the catalogue's promise needs them all
	}
	for code := range diag.MachineFixes {
		if !applied[code] {
			t.Errorf("diag.MachineFixes lists %s, but no golden case applies a machine-applicable fix of it: add one to testdata/cases", code)
		}
	}
}

// errorAtPlace returns an error of the fixed program that stands where
// the fix was made (in d's file, starting inside d's range or an edit's,
// both as they read after the edits), unless the same error stood at the
// same place before: the fix must not leave its place broken in another
// way.
func errorAtPlace(d diag.Diagnostic, fix diag.Fix, before, after []diag.Diagnostic) (diag.Diagnostic, bool) {
	var edits []diag.Edit
	for _, e := range fix.Edits {
		if e.File == d.File {
			edits = append(edits, e)
		}
	}
	// moved maps an offset of the file before the edits to one after.
	moved := func(o int32) int32 {
		shift := int32(0)
		for _, e := range edits { // in source order (inOrder)
			s, t := e.Range.Start.Offset, e.Range.End.Offset
			switch {
			case o < s || o == s && s < t:
				return o + shift
			case o >= t:
				shift += int32(len(e.NewText)) - (t - s)
			default: // inside the replaced text
				return s + shift
			}
		}
		return o + shift
	}
	type span struct{ lo, hi int32 }
	places := []span{{moved(d.Range.Start.Offset), moved(d.Range.End.Offset)}}
	for _, e := range edits {
		lo := moved(e.Range.Start.Offset)
		places = append(places, span{lo, lo + int32(len(e.NewText))})
	}
	stood := map[string]bool{}
	for _, b := range before {
		if b.File == d.File && b.Severity == diag.Error && !(b.Code == d.Code && b.Range == d.Range) {
			stood[fmt.Sprintf("%s@%d", b.Code, moved(b.Range.Start.Offset))] = true
		}
	}
	for _, a := range after {
		if a.File != d.File || a.Severity != diag.Error || stood[fmt.Sprintf("%s@%d", a.Code, a.Range.Start.Offset)] {
			continue
		}
		for _, p := range places {
			if a.Range.Start.Offset >= p.lo && a.Range.Start.Offset <= p.hi {
				return a, true
			}
		}
	}
	return diag.Diagnostic{}, false
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
