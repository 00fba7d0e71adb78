package parser_test

import (
	"fmt"
	"path/filepath"
	"strings"
	"testing"

	"github.com/wfc-lang/wfc/internal/golden"
	"github.com/wfc-lang/wfc/parser"
)

// TestMisspeltKeywords pins what the parser says about near misses of
// keywords in each context (parser/keywords.go and the grammar table): a
// name within one edit of a keyword of up to four letters, or two of a
// longer one, followed by the shape that keyword needs, is that keyword
// misspelt; anything else is not guessed. Each snippet's diagnostics are
// in testdata/keywords.golden (-update rewrites it).
func TestMisspeltKeywords(t *testing.T) {
	snippets := []string{
		// Declarations.
		"enm Color { Red }",
		"entty Person { string Name; }",
		"wrkflow W { Initial = A; state A { } }",
		// Workflow members: `Name(` for event, `Name {` for state.
		"workflow W { Initial = A; evnt Go(); state A { } }",
		"workflow W { Initial = A; stet A { } }", // two edits from a five-letter keyword
		"workflow W { Initial = A; ste A { } }",  // two letters short of `state`
		"workflow W { Initial = A; stat A; }",    // not the shape of a state
		"workflow W { Initial = A; stat { } }",   // no name: not a state
		"workflow W { Initial = A; terminl B { } }",
		"workflow W { Initial = A; terminal eror B { } }",
		"workflow W { Initial = A; terminl Done Now { } }", // two names: only `terminal error Name {` has two
		// Only entities and fields take attributes: after a stray `[` in a
		// workflow nothing is guessed, the `[` is the one error.
		"workflow W { Initial = A; [evnt Go(); }",
		// State items.
		"workflow W { Initial = A; event Go(); state A { subscrbe Go(); } }",
		"workflow W { Initial = A; event Go(); state A { subscribe Go(); onn Go { } } }",
		"workflow W { Initial = A; event Go(); state A { subscribe Go(); On Go { } } }",
		// Statements.
		"workflow W { Initial = A; event Go(); state A { subscribe Go(); on Go { gto B; } } terminal B { } }",
		"workflow W { Initial = A; event Go(); state A { subscribe Go(); on Go { Goto B; } } terminal B { } }",
		// Security rules: `alow ops when …` or `alow ops;`.
		"entity E { string N; security { alow read when IsAuthenticated; } }",
		"entity E { string N; security { alow read; } }",
		"entity E { string N; security { alow read, create; } }",
		"entity E { string N; security { dny read; } }",
		"entity E { string N; security { alow = 1; } }",
		// Far from every keyword, or too long.
		"workflow W { Initial = A; xyzzy A { } }",
		"workflow W { Initial = A; statestate A { } }",
	}
	var b strings.Builder
	for i, src := range snippets {
		_, ds := parser.Parse([]parser.Source{{Name: "k.wf", Src: src}}, parser.Options{Workers: 1})
		fmt.Fprintf(&b, "# %d: %s\n", i, src)
		for _, d := range ds {
			fmt.Fprintf(&b, "%d:%d-%d:%d %s %s\n", d.Range.Start.Line, d.Range.Start.Column, d.Range.End.Line, d.Range.End.Column, d.Code, d.Message)
			for _, f := range d.Fixes {
				for _, e := range f.Edits {
					fmt.Fprintf(&b, "  fix %q: %d:%d-%d:%d %q\n", f.Title, e.Range.Start.Line, e.Range.Start.Column, e.Range.End.Line, e.Range.End.Column, e.NewText)
				}
			}
		}
	}
	golden.Check(t, filepath.Join("testdata", "keywords.golden"), b.String(), *update, "parser")
}
