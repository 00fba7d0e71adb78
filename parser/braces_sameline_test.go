package parser

import "testing"

// TestBracesOpenedOnOneLine: when several blocks open on one line, a `}`
// level with that line may close any of them, so closing three on an
// indented line is not an extra `}`.
func TestBracesOpenedOnOneLine(t *testing.T) {
	src := `workflow W { Initial = A; event Go();
  state A { subscribe Go() { Finished { Within = TimeSpan.FromMinutes(5);
      Unfinished { goto Done; } } }
    on Go {
      goto Done;
    }
  }
  terminal Done { } }
`
	_, ds := Parse([]Source{{Name: "f.wf", Src: src}}, Options{Workers: 1})
	for _, d := range ds {
		t.Errorf("%d:%d: %s %s", d.Range.Start.Line, d.Range.Start.Column, d.Code, d.Message)
	}
}
