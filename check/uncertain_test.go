package check_test

import (
	"strings"
	"testing"
)

// TestStatesUncertain: a syntax error in a workflow outside its states (a
// bad setting) may hide a state, so WF114 does not claim that a tracked
// member has none; the same workflow without the error gets WF114. A
// rename's fix (WF113) edits in source order, the reference before the
// declaration first.
func TestStatesUncertain(t *testing.T) {
	src := `enum Stage { Open, Closed, Deleted }
entity Doc { Stage Stage; }
workflow W {
  Tracks = Doc.Stage;
  Initial = Open;
  event Go();
  Autostart = = true;
  state Open { subscribe Go(); on Go { goto Closed; } }
  terminal Closed { }
}
`
	runDiagCases(t, []diagCase{
		{name: "a bad setting may hide a state: WF114 stays quiet", src: src, syntaxOK: true},
		{name: "without it, WF114", src: strings.Replace(src, "  Autostart = = true;\n", "", 1),
			want: []string{"1:28 WF114 «Deleted» && member `Deleted` of tracked enum `Stage` has no state"}},
		{name: "a rename's edits in source order",
			src: `enum Stage { Open, Closed }
entity Doc { Stage Stage; }
workflow W {
  Tracks = Doc.Stage;
  Initial = Opn;
  event Go();
  state Opn { subscribe Go(); on Go { goto Closed; } }
  terminal Closed { }
}
`,
			want: []string{"7:9 WF113 «Opn» && did you mean `Open`? && fix rename state `Opn` to `Open` (2 places): 5:13 «Opn»→«Open» 7:9 «Opn»→«Open»"}},
	})
}
