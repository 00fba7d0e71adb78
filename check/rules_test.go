package check_test

import (
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/wfc-lang/wfc/check"
	"github.com/wfc-lang/wfc/internal/golden"
	"github.com/wfc-lang/wfc/parser"
)

// checkWants checks src alone and compares the checker's diagnostics (line:
// code) with its `// want` annotations; syntax errors are not expected.
func checkWants(t *testing.T, src string) {
	t.Helper()
	files := []parser.Source{{Name: "t.wf", Src: src}}
	prog, syntax := parser.Parse(files, parser.Options{Workers: 1})
	if len(syntax) > 0 {
		t.Fatalf("syntax error: %s", syntax[0].Message)
	}
	if diff := cmp.Diff(golden.Wants(files, nil), golden.Got(check.Check(prog).Diags)); diff != "" {
		t.Errorf("-want +got:\n%s", diff)
	}
}

// TestRules: each rule of the second pass on a program that trips it once,
// beside a near miss that must not.
func TestRules(t *testing.T) {
	for name, src := range map[string]string{
		"WF114 member without state, WF113's meant member excepted": `
enum Stage {
  Open, Closed,
  Deleted // want WF114
}
entity Doc { Stage Stage; }
workflow W {
  Tracks = Doc.Stage;
  Initial = Open;
  event Go();
  state Open { subscribe Go(); on Go { goto Closd; } }
  terminal Closd { } // want WF113
}`,
		"WF115 and WF116: terminal states": `
workflow W {
  Initial = Done; // want WF115
  event Go();
  state A { subscribe Go(); on Go { goto Done; } }
  terminal Done { subscribe Go(); on Go { goto A; } } // want WF116 WF116
}`,
		"WF201 unreachable, quiet beside an unknown goto": `
workflow W {
  Initial = A;
  event Go();
  state A { subscribe Go(); on Go { goto Done; } }
  terminal Done { }
  terminal Lost { } // want WF201
}
workflow V {
  Initial = A;
  event Go();
  state A { subscribe Go(); on Go { goto Dne; } } // want WF103
  terminal Done { }
}`,
		"WF202 after goto, nested blocks too": `
enum D { Yes, No }
workflow W {
  Initial = A;
  event Go(D d);
  state A {
    subscribe Go(D d);
    on Go { Yes { goto Done; Mail.Send(); } No { goto Done; } } // want WF202
  }
  terminal Done { }
}`,
		"WF203 and WF204": `
workflow W {
  Initial = A;
  event Go();
  event Ping();
  state A { subscribe Go(); subscribe Ping(); on Go { goto B; } } // want WF203
  state B { subscribe Go(); on Go { Mail.Send(); } } // want WF204
}`,
		"WF205, not when Exhausted moves the run": `
workflow W {
  Initial = A;
  event Go();
  state A {
    subscribe Go() {
      Finished { Within = TimeSpan.FromMinutes(1); } // want WF205
      Assigned { Within = TimeSpan.FromMinutes(1); Exhausted { goto Done; } }
    }
    on Go { goto Done; }
  }
  terminal Done { }
}`,
		"WF206, a misspelled case counts as its member": `
enum Size { S, M, L }
workflow W {
  Initial = A;
  event Go(Size s);
  event Pick(Size s);
  state A {
    subscribe Go(Size s);
    subscribe Pick(Size s);
    on Go { S { goto Done; } } // want WF206
    on Pick { S { goto Done; } Mm { goto Done; } L { goto Done; } } // want WF109
  }
  terminal Done { }
}`,
		"WF207 second principal": `
[Principal] entity A { string N; }
[Principal] entity B { string N; } // want WF207
entity C { string N; }`,
		"WF207 counts only `[Principal]` written bare: another attribute, or Principal with arguments, makes no principal": `
[Primary] entity A { string N; } // want WF110
[Principal(true)] entity B { string N; } // want WF110
[Principal] entity C { string N; }`,
	} {
		t.Run(name, func(t *testing.T) { checkWants(t, src) })
	}
}
