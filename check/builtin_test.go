package check_test

import (
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/wfc-lang/wfc/check"
	"github.com/wfc-lang/wfc/check/vocab"
	"github.com/wfc-lang/wfc/parser"
)

// builtinSrc writes every word of the vocabulary once where it belongs, and
// some look-alikes where they do not (a workflow setting inside a
// milestone, an outcome of the other milestone kind, a field attribute on
// an entity, a user's event named `Cap`).
const builtinSrc = `[Principal] entity User {
  [Required, MaxLength(80), MinLength(1)] string Name;
  security { allow read, create when IsAuthenticated; deny update, delete; }
}
[Required] entity Job { string Title; }
workflow Flow {
  Initial = A;
  Tracks = Job.Title;
  Autostart = false;
  event Go();
  event Cap();
  state A {
    subscribe Go() {
      Assigned { Within = TimeSpan.FromMinutes(1); Retries = 1; Exhausted { } Unassigned { goto Done; } Unfinished { } }
      Finished {
        Within = TimeSpan.FromDays(1);
        Backoff = Backoff.Linear(TimeSpan.FromHours(1)).MaxAttempts(3).Cap(TimeSpan.FromMilliseconds(5)).Jitter(0.1);
        Initial = A;
        Unfinished { goto Done; }
      }
    }
    subscribe Cap();
    on Go { Workflow.Once("a", retry: Backoff.Exponential(TimeSpan.FromSeconds(1)).MaxAttempts(2)) { X.Y(); } goto Done; }
    on Cap { Workflow.Once("b", retry: Backoff.Fixed(TimeSpan.Zero).MaxAttempts(2)) { X.Y(); } goto Failed; }
  }
  terminal Done { }
  terminal error Failed { Message = "no"; }
}
`

// TestBuiltinWords: the model maps every vocabulary word written where it
// belongs to its Builtin — each word of vocab.Words() at least once — and
// nothing else: look-alikes out of their context are not words.
func TestBuiltinWords(t *testing.T) {
	prog, _ := parser.Parse([]parser.Source{{Name: "b.wf", Src: builtinSrc}}, parser.Options{})
	res := check.Check(prog)
	seen := map[string]int{}
	for _, u := range res.Program.Info.Words {
		if u.Ident.Name != u.Builtin.Word.Name {
			t.Errorf("%v is listed as the word %q", u.Ident, u.Builtin.Word.Qualified)
			continue
		}
		if _, ok := res.Program.Info.Uses[u.Ident]; ok {
			t.Errorf("the word %v is also a use of a name", u.Ident)
		}
		seen[u.Builtin.Word.Qualified]++
	}
	want := map[string]int{}
	for _, w := range vocab.Words() {
		want[w.Qualified] = 1
	}
	// Written more than once in the source above.
	for q, n := range map[string]int{"Within": 2, ".MaxAttempts": 3, "Unfinished": 1, "Initial": 1, "Required": 1,
		"Unassigned": 1, "Exhausted": 1} {
		want[q] = n
	}
	if d := cmp.Diff(want, seen); d != "" {
		t.Errorf("words recognised (-want +got):\n%s", d)
	}
	if check.BuiltinOf(vocab.KindMember, "Cap") == nil || check.BuiltinOf(vocab.KindMember, "Nope") != nil {
		t.Error("BuiltinOf")
	}
}
