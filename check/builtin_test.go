package check_test

import (
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/wfc-lang/wfc/check"
	"github.com/wfc-lang/wfc/check/vocab"
	"github.com/wfc-lang/wfc/diag"
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
enum Kind { Declined, Busy }
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
    on Cap { Workflow.Once("b", retry: Backoff.Fixed(TimeSpan.Zero).MaxAttempts(2).NonRetryable(Kind.Declined), timeout: TimeSpan.MaxValue, deadline: TimeSpan.FromDays(1)) { X.Y(); }
      catch { Exhausted { } Deadline { } Terminal { } Cancelled { } Declined { } default { } }
      Workflow.Once("c", retry: Backoff.Every(TimeSpan.FromSeconds(1)).MaxAttempts(2).RetryOn(Kind.Busy)) { X.Y(); } goto Failed; }
  }
  terminal Done { }
  terminal error Failed { Message = "no"; }
}
test "every statement" {
  Workflow = Flow;
  Start();
  Send(Go());
  Take(Go);
  Fail("a", times: 1);
  Takes("a", TimeSpan.FromSeconds(1));
  Draws(0.5);
  Expect.State(A);
  Expect.End(Done);
  Expect.GaveUp("a");
  Expect.Attempts("a", TimeSpan.Zero);
  Expect.Call(X.Y());
  Expect.Stopped();
}
`

// TestBuiltinWords: the model maps every vocabulary word written where it
// belongs to its Builtin — each word of vocab.Words() at least once — and
// nothing else: look-alikes out of their context are not words.
func TestBuiltinWords(t *testing.T) {
	prog, _ := parser.Parse([]parser.Source{{Name: "b.wf", Src: builtinSrc}}, parser.Options{})
	if in := check.Check(prog).Program.Info; len(in.Words) != 0 || in.Defs != nil || in.Uses != nil {
		t.Errorf("Check records Info without being asked: %d words, %d defs, %d uses", len(in.Words), len(in.Defs), len(in.Uses))
	}
	res := check.CheckWith(prog, check.Options{Info: true})
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
	for q, n := range map[string]int{"Within": 2, ".MaxAttempts": 4, "TimeSpan.FromSeconds": 3, "TimeSpan.Zero": 2, "Unfinished": 1, "Initial": 1, "Required": 1,
		"Unassigned": 1, "Exhausted": 1, "retry:": 3, "TimeSpan.FromDays": 2} {
		want[q] = n
	}
	if d := cmp.Diff(want, seen); d != "" {
		t.Errorf("words recognised (-want +got):\n%s", d)
	}
	if check.BuiltinOf(vocab.KindMember, "Cap") == nil || check.BuiltinOf(vocab.KindMember, "Nope") != nil {
		t.Error("BuiltinOf")
	}
}

// TestWordExamples: the example of every vocabulary word — what `wfc
// explain WORD` prints — checks without an error when written in its place
// in a program (warnings such as a zero interval are the example's point).
func TestWordExamples(t *testing.T) {
	for _, w := range vocab.Words() {
		t.Run(w.Qualified, func(t *testing.T) {
			slot := map[string]string{
				"WF": "Initial = Open;", "SUB": "Finished { Within = TimeSpan.FromMinutes(1); Unfinished { goto Late; } }",
				"POLICY": "Backoff.Fixed(TimeSpan.FromSeconds(1)).MaxAttempts(3)", "ENTITY": "", "ERR": "",
			}
			slot["STEP"], slot["TEST"] = "", ""
			ex := w.Example
			switch w.Kind {
			case vocab.KindSetting:
				switch w.Context {
				case "a workflow":
					if w.Name != "Initial" {
						ex = "Initial = Open; " + ex
					}
					slot["WF"] = ex
				case "a `terminal error` state":
					slot["ERR"] = ex
				default:
					within := "Within = TimeSpan.FromMinutes(1); "
					if w.Name == "Within" {
						within = ""
					}
					slot["SUB"] = "Finished { " + within + ex + " Unfinished { goto Late; } }"
				}
			case vocab.KindMilestone:
				slot["SUB"] = ex
			case vocab.KindOutcome:
				kind := "Finished"
				if w.Name == "Unassigned" {
					kind = "Assigned"
				}
				slot["SUB"] = kind + " { Within = TimeSpan.FromMinutes(1); " + ex + " }"
			case vocab.KindFactory:
				slot["POLICY"] = ex + ".MaxAttempts(3)"
			case vocab.KindMember:
				if w.Name != "MaxAttempts" {
					ex += ".MaxAttempts(3)"
				}
				slot["POLICY"] = "Backoff.Fixed(TimeSpan.FromSeconds(1))" + ex
			case vocab.KindUnit:
				slot["POLICY"] = "Backoff.Fixed(" + ex + ").MaxAttempts(3)"
			case vocab.KindAttr:
				if strings.HasPrefix(ex, "[Principal]") {
					slot["ENTITY"] = ex
				} else {
					slot["ENTITY"] = "entity User { " + ex + " }"
				}
			case vocab.KindSecurityOp:
				slot["ENTITY"] = "entity User { string Name; security { " + ex + " } }"
			case vocab.KindStepArg, vocab.KindReason, vocab.KindCatch:
				// A step laid out on lines (a catch) is indented as in a
				// handler, where the parser reads blocks by indentation.
				slot["STEP"] = strings.ReplaceAll(ex, "\n", "\n    ")
			case vocab.KindTest:
				slot["TEST"] = "test \"t\" { Workflow = W; " + ex + " }"
			default:
				t.Fatalf("no place for a word of kind %v in this test", w.Kind)
			}
			src := `enum Status { Open, Late, Done, Failed }
enum ChargeError { Declined, RateLimited }
entity Order { Status Status; }
` + slot["ENTITY"] + `
workflow W {
  ` + slot["WF"] + `
  event Go();
  state Open {
    subscribe Go() {
      ` + slot["SUB"] + `
    }
    on Go { Workflow.Once("s", retry: ` + slot["POLICY"] + `) { X.Y(); } ` + slot["STEP"] + ` goto Done; }
  }
  state Late { subscribe Go(); on Go { goto Failed; } }
  terminal Done { }
  terminal error Failed { ` + slot["ERR"] + ` }
}
` + slot["TEST"] + "\n"
			prog, syn := parser.Parse([]parser.Source{{Name: "ex.wf", Src: src}}, parser.Options{})
			ds := append(syn, check.Check(prog).Diags...)
			for _, d := range ds {
				if d.Severity == diag.Error {
					t.Errorf("%s: %s\n%s", d.Code, d.Message, src)
				}
				// A reason's example is a case that can run (only
				// Cancelled's never does: that is its point).
				if d.Code == diag.WF208 && w.Kind == vocab.KindReason && w.Name != "Cancelled" {
					t.Errorf("%s: %s\n%s", d.Code, d.Message, src)
				}
			}
			if !strings.Contains(src, strings.ReplaceAll(w.Example, "\n", "\n    ")) {
				t.Errorf("the example %q is not in the program", w.Example)
			}
		})
	}
}
