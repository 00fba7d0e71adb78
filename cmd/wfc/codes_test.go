package main

import (
	"fmt"
	"os"
	"strings"
	"testing"

	"github.com/wfc-lang/wfc/diag"
	goldenfile "github.com/wfc-lang/wfc/internal/golden"
	"github.com/wfc-lang/wfc/parser"
)

// analyzeSource checks one in-memory file.
func analyzeSource(name, src string) *analysis { return analyze(loadedSource(name, src)) }

// loadedSource is one source loaded as from a file.
func loadedSource(name, src string) *loaded {
	return &loaded{
		sources: []parser.Source{{Name: name, Src: src}},
		bytes:   diag.Sources{name: src},
		order:   []string{name},
	}
}

// TestCodeCatalogue: every code has an explanation whose wrong example
// yields it and whose right example is clean, a golden case that expects
// it, and a row in the README's table of diagnostics.
func TestCodeCatalogue(t *testing.T) {
	readme, err := os.ReadFile("../../README.md")
	if err != nil {
		t.Fatal(err)
	}
	var cases strings.Builder
	for _, c := range goldenfile.Cases(t, testdataDir) {
		for _, f := range c.Files {
			cases.WriteString(f.Src)
		}
	}
	seen := map[diag.ID]bool{}
	for _, c := range diag.Codes {
		t.Run(string(c.Code), func(t *testing.T) {
			if seen[c.Code] {
				t.Fatalf("code listed twice")
			}
			seen[c.Code] = true
			if c.Title == "" || c.Explain == "" || c.Wrong == "" || c.Right == "" {
				t.Fatalf("incomplete explanation: %+v", c)
			}
			wrong := catalogueDiags(c.Code, "wrong.wf", c.Wrong)
			found := false
			for _, d := range wrong {
				if d.Code == c.Code {
					found = true
					if d.Severity != c.Severity {
						t.Errorf("reported as %s, catalogued as %s", d.Severity, c.Severity)
					}
				}
			}
			if !found {
				t.Errorf("the wrong example does not yield %s; it yields %v", string(c.Code), codesOf(wrong))
			}
			if right := catalogueDiags(c.Code, "right.wf", c.Right); len(right) != 0 {
				t.Errorf("the right example is not clean: %v", codesOf(right))
			}
			// The export's codes are covered by export_test.go instead.
			if !isExportCode(c.Code) && !goldenfile.Wanted(cases.String(), c.Code) {
				t.Errorf("no golden case in testdata/cases expects %s", string(c.Code))
			}
			if !strings.Contains(string(readme), "| "+string(c.Code)+" |") {
				t.Errorf("README.md has no table row for %s", string(c.Code))
			}
		})
	}
}

func codesOf(ds []diag.Diagnostic) []string {
	var out []string
	for _, d := range ds {
		out = append(out, fmt.Sprintf("%s@%d:%d %s", d.Code, d.Range.Start.Line, d.Range.Start.Column, d.Message))
	}
	return out
}

// TestFixesFix lives in the root package (fixes_test.go): it applies every fix of every
// golden case alone and re-checks the whole program.

func count(ds []diag.Diagnostic, file string, code diag.ID) int {
	n := 0
	for _, d := range ds {
		if d.File == file && d.Code == code {
			n++
		}
	}
	return n
}
