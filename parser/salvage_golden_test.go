package parser_test

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/wfc-lang/wfc/ast"
	"github.com/wfc-lang/wfc/parser"
)

// TestSalvage pins the second tier of recovery (parser/recover.go): a
// block whose whole parse fails is parsed again piece by piece, so that
// each broken piece is reported once, the good pieces are kept, and nothing
// after the block is reported unless something is really there. Each
// snippet's diagnostics and salvaged tree are in testdata/salvage.golden
// (-update rewrites it).
func TestSalvage(t *testing.T) {
	snippets := []string{
		// Entities: a broken field between good ones; a broken security rule.
		"entity E { string ; string N; }",
		"entity E { string N; security { allow read when Role == ; deny delete; } }",
		"entity E { string N; security { allow read when Role == ; } string M; }",
		"[Principal] entity E { string ; }",
		"entity E { string ; } trailing",
		// Subscriptions: a broken milestone item, with and without an alias.
		"workflow W { Initial = A; event Go(); state A { subscribe Go() { Finished { Within = ; Unfinished { goto A; } } } on Go { goto A; } } }",
		"workflow W { Initial = A; event Go(); state A { subscribe Go() as G { Finished { Within = ; } Assigned { Within = TimeSpan.FromMinutes(1); } } on G { goto A; } } }",
		"workflow W { Initial = A; event Go(); state A { subscribe Go() { Finished { Within = ; } } extra on Go { goto A; } } }",
		"workflow W { Initial = A; event Go(); state A { subscribe Go() { Finished { Within = ; } oops } on Go { goto A; } } }",
		// Handlers: a broken statement, with and without parameters.
		"workflow W { Initial = A; event Go(int n); state A { subscribe Go(int n); on Go(int n) { Mail.Send(; goto A; } } }",
		"workflow W { Initial = A; event Go(); state A { subscribe Go(); on Go { Mail.Send(; goto A; } } }",
	}
	var b strings.Builder
	for i, src := range snippets {
		prog, ds := parser.Parse([]parser.Source{{Name: "s.wf", Src: src}}, parser.Options{Workers: 1})
		fmt.Fprintf(&b, "# %d: %s\n", i, src)
		for _, d := range ds {
			fmt.Fprintf(&b, "%d:%d-%d:%d %s %s\n", d.Range.Start.Line, d.Range.Start.Column, d.Range.End.Line, d.Range.End.Column, d.Code, d.Message)
		}
		depth := 0
		ast.Inspect(prog.Files[0], func(n ast.Node) bool {
			if n == nil {
				depth--
				return false
			}
			if _, ok := n.(*ast.File); !ok {
				fmt.Fprintf(&b, "%s%s\n", strings.Repeat("  ", depth), describe(n))
			}
			depth++
			return true
		})
	}
	path := filepath.Join("testdata", "salvage.golden")
	if *update {
		if err := os.WriteFile(path, []byte(b.String()), 0o644); err != nil {
			t.Fatal(err)
		}
		return
	}
	want, err := os.ReadFile(path)
	if err != nil {
		t.Fatalf("missing golden file (go test ./parser -run Salvage -update): %v", err)
	}
	if d := cmp.Diff(string(want), b.String()); d != "" {
		t.Errorf("salvage differs from %s (-want +got):\n%s", path, d)
	}
}
