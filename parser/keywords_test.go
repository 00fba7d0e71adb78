package parser

import (
	"fmt"
	"testing"
)

// A name is read as a keyword only where that keyword may stand, followed by
// its shape, and close enough; each guess is one WF001 at the name.
func TestMisspelledKeywords(t *testing.T) {
	wrap := func(body string) string {
		return "workflow W {\n  Initial = A;\n  event Go();\n" + body + "  terminal Done { }\n}\n"
	}
	for _, tc := range []struct {
		src  string
		want string // "line:col word→keyword" of the one guess, or "" for none
	}{
		{wrap("  evnet Stop();\n  state A { subscribe Go(); on Go { goto Done; } }\n"), "4:3 evnet→event"},
		{wrap("  Sate A { subscribe Go(); on Go { goto Done; } }\n"), "4:3 Sate→state"},
		{wrap("  state A { subscribe Go() as J { Finished { Within = TimeSpan.FromMinutes(1); Unfinished { goto Done; } } }\n    On J(int n) { default { goto Done; } } }\n"), "5:5 On→on"},
		{wrap("  state A { Subscribe Go(); on Go { goto Done; } }\n"), "4:13 Subscribe→subscribe"},
		{wrap("  state A { subscribe Go(); on Go { Goto Done; } }\n"), "4:37 Goto→goto"},
		{wrap("  Terminal error B { Message = \"x\"; }\n  state A { subscribe Go(); on Go { goto Done; } }\n"), "4:3 Terminal→terminal"},
		{"Enitty E { string S; }\n", "1:1 Enitty→entity"},
		{"entity E { string S; Security { allow read; } }\n", "1:22 Security→security"},
		// Refused: a shape that does not fit, a word too far, a case label.
		{wrap("  Sate = A;\n  state A { subscribe Go(); on Go { goto Done; } }\n"), ""},
		{wrap("  stateful A { }\n"), ""},
		{wrap("  state A { subscribe Go(); on Go { Default { goto Done; } } }\n"), ""},
		{"entity E { sring S; }\n", ""},
	} {
		f, ds := parseOne(t, tc.src)
		got := ""
		for _, d := range ds {
			if d.Code == "WF001" && len(d.Fixes) == 1 {
				got = fmt.Sprintf("%d:%d %s→%s", d.Range.Start.Line, d.Range.Start.Column, f.Text(d.Range), d.Fixes[0].Edits[0].NewText)
			}
		}
		if got != tc.want {
			t.Errorf("%q: got guess %q, want %q (all: %v)", tc.src, got, tc.want, ds)
		}
	}
}
