package parser_test

import (
	"fmt"
	"path/filepath"
	"strings"
	"testing"

	"github.com/wfc-lang/wfc/internal/golden"
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
		// An attribute list left open keeps the entity's chunk going past its
		// `}`: what follows the `}` is reported at its own place, once.
		"[Principal entity E { string ; string N; } trailing",
		// An empty condition: one error where the condition belongs, and
		// `when` is not read as a field name.
		"entity E { string N; security { allow read when ; deny delete when N == \"x\"; } }",
		// A block whose head is not `security` is not read as one: one error.
		"entity E { string N; secure { allow read; } }",
		// Subscriptions: a broken milestone item, with and without an alias.
		"workflow W { Initial = A; event Go(); state A { subscribe Go() { Finished { Within = ; Unfinished { goto A; } } } on Go { goto A; } } }",
		"workflow W { Initial = A; event Go(); state A { subscribe Go() as G { Finished { Within = ; } Assigned { Within = TimeSpan.FromMinutes(1); } } on G { goto A; } } }",
		"workflow W { Initial = A; event Go(); state A { subscribe Go() { Finished { Within = ; } } extra on Go { goto A; } } }",
		"workflow W { Initial = A; event Go(); state A { subscribe Go() { Finished { Within = ; } oops } on Go { goto A; } } }",
		// Something between the parameters and the `{`: too broken to split,
		// one error there; the subscription is still declared.
		"workflow W { Initial = A; event Go(); state A { subscribe Go() : { Finished { Within = TimeSpan.FromMinutes(1); Unfinished { goto A; } } } on Go { goto A; } } }",
		// A subscription cut off after `as` (the next line starts a
		// setting): it declares no alias, and the setting is not taken for one.
		"workflow W {\n  Initial = A;\n  event Go();\n  state A {\n    subscribe Go() as\n    Timeout = 5;\n    on Go { goto A; }\n  }\n}",
		// Handlers: a broken statement, with and without parameters.
		"workflow W { Initial = A; event Go(int n); state A { subscribe Go(int n); on Go(int n) { Mail.Send(; goto A; } } }",
		"workflow W { Initial = A; event Go(); state A { subscribe Go(); on Go { Mail.Send(; goto A; } } }",
	}
	var b strings.Builder
	for i, src := range snippets {
		prog, ds := parser.Parse([]parser.Source{{Name: "s.wf", Src: src}}, parser.Options{Workers: 1})
		fmt.Fprintf(&b, "# %d: %s\n", i, strings.ReplaceAll(src, "\n", `\n`))
		for _, d := range ds {
			fmt.Fprintf(&b, "%d:%d-%d:%d %s %s\n", d.Range.Start.Line, d.Range.Start.Column, d.Range.End.Line, d.Range.End.Column, d.Code, d.Message)
		}
		writeTree(&b, prog.Files[0])
	}
	golden.Check(t, filepath.Join("testdata", "salvage.golden"), b.String(), *update, "parser")
}
