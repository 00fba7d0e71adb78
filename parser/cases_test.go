package parser_test

import (
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/wfc-lang/wfc/diag"
	"github.com/wfc-lang/wfc/internal/golden"
	"github.com/wfc-lang/wfc/parser"
)

// TestCasesSyntax parses every golden case of testdata/cases and compares
// its syntax diagnostics (the Syntax phase: WF001–WF005) with the `// want`
// annotations of those codes, line by line, so the parser's own tests fail
// when its recovery reports a mistake in the wrong place, twice, or not at
// all (the checker's codes are check's TestCases).
func TestCasesSyntax(t *testing.T) {
	for _, c := range golden.Cases(t, "../testdata") {
		t.Run(c.Base(), func(t *testing.T) {
			_, ds := parser.Parse(c.Files, parser.Options{Workers: 1})
			if d := cmp.Diff(syntaxWants(c.Files), golden.Got(ds)); d != "" {
				t.Errorf("syntax diagnostics differ from the // want annotations (-want +got):\n%s", d)
			}
		})
	}
}

// syntaxWants are the annotated syntax codes, "file:line: CODE", sorted.
func syntaxWants(srcs []parser.Source) []string {
	return golden.Wants(srcs, func(code diag.ID) bool { return code.Phase() == diag.Syntax })
}
