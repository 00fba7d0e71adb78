package check_test

import (
	"fmt"
	"strings"
	"testing"

	"github.com/wfc-lang/wfc/check"
	"github.com/wfc-lang/wfc/check/vocab"
	"github.com/wfc-lang/wfc/diag"
	"github.com/wfc-lang/wfc/parser"
)

// TestVocabularyChecks: every word of the vocabulary table checks clean in
// its context, and a word one letter off is reported, so the checker reads
// the table the language server completes from.
func TestVocabularyChecks(t *testing.T) {
	step := func(policy string) string {
		return fmt.Sprintf("enum ChargeError { Declined, RateLimited }\nworkflow W { Initial = A; event Go();\n state A { subscribe Go(); on Go { Workflow.Once(\"s\", retry: %s) { X.Y(); } goto Done; } }\n terminal Done { } }\n", policy)
	}
	milestone := func(kind, outcome string) string {
		return fmt.Sprintf("workflow W { Initial = A; event Go();\n state A { subscribe Go() { %s { Within = TimeSpan.FromMinutes(5); Retries = 1; Backoff = TimeSpan.FromMinutes(1); %s { goto Done; } } } on Go { goto Done; } }\n terminal Done { } }\n", kind, outcome)
	}
	type tc struct{ name, src string }
	var clean, wrong []tc
	for _, m := range vocab.Milestones {
		for _, o := range m.Outcomes() {
			clean = append(clean, tc{m.Kind + "/" + o, milestone(m.Kind, o)})
		}
		wrong = append(wrong, tc{m.Kind + "x", milestone(m.Kind+"x", vocab.Exhausted)})
	}
	for _, f := range vocab.Factories {
		clean = append(clean, tc{f.Name, step("Backoff." + f.Name + "(TimeSpan.FromSeconds(1)).MaxAttempts(3)")})
		wrong = append(wrong, tc{f.Name + "x", step("Backoff." + f.Name + "x(TimeSpan.FromSeconds(1)).MaxAttempts(3)")})
	}
	args := map[vocab.Type]string{vocab.Int: "3", vocab.TimeSpan: "TimeSpan.FromHours(1)", vocab.Decimal: "0.2", vocab.Kinds: "ChargeError.Declined"}
	for _, m := range vocab.Members {
		p := "Backoff.Exponential(TimeSpan.FromSeconds(1))." + m.Name + "(" + args[m.Arg] + ")"
		if m.Name != "MaxAttempts" {
			p += ".MaxAttempts(3)"
		}
		clean = append(clean, tc{m.Name, step(p)})
		wrong = append(wrong, tc{m.Name + "x", step(strings.Replace(p, "."+m.Name+"(", "."+m.Name+"x(", 1))})
	}
	for _, u := range vocab.TimeSpanMembers() {
		arg := "(1)"
		if _, ok := vocab.ConstantNamed(u); ok {
			arg = ""
		}
		clean = append(clean, tc{u, step("Backoff.Fixed(TimeSpan." + u + arg + ").MaxAttempts(3)")})
		wrong = append(wrong, tc{u + "x", step("Backoff.Fixed(TimeSpan." + u + "x" + arg + ").MaxAttempts(3)")})
	}
	for _, op := range vocab.SecurityOps {
		clean = append(clean, tc{op, "entity E { string S; security { allow " + op + " when IsAuthenticated; } }\n"})
		wrong = append(wrong, tc{op + "x", "entity E { string S; security { allow " + op + "x when IsAuthenticated; } }\n"})
	}
	for _, a := range vocab.FieldAttrs {
		attr := a.Name
		if a.Arg == vocab.Int {
			attr += "(3)"
		}
		clean = append(clean, tc{a.Name, "entity E { [" + attr + "] string S; }\n"})
		wrong = append(wrong, tc{a.Name + "x", "entity E { [" + a.Name + "x] string S; }\n"})
	}
	for _, a := range vocab.EntityAttrs {
		clean = append(clean, tc{a.Name, "[" + a.Name + "] entity E { string S; }\n"})
		wrong = append(wrong, tc{a.Name + "x", "[" + a.Name + "x] entity E { string S; }\n"})
	}
	diags := func(src string) int {
		prog, syntax := parser.Parse([]parser.Source{{Name: "v.wf", Src: src}}, parser.Options{Workers: 1})
		if len(syntax) > 0 {
			t.Fatalf("syntax error in %q: %s", src, syntax[0].Message)
		}
		n := 0
		for _, d := range check.Check(prog).Diags {
			if d.Code != diag.WF306 { // TimeSpan.Zero as an interval: a warning about the value, not the word
				n++
			}
		}
		return n
	}
	for _, c := range clean {
		if n := diags(c.src); n != 0 {
			t.Errorf("%s: %d diagnostics, want none:\n%s", c.name, n, c.src)
		}
	}
	for _, c := range wrong {
		if diags(c.src) == 0 {
			t.Errorf("%s: not reported:\n%s", c.name, c.src)
		}
	}
}

// TestKindsMatchVocabulary: the model's typed milestone kinds and outcomes
// spell exactly the vocabulary's words, both ways.
func TestKindsMatchVocabulary(t *testing.T) {
	var kinds, finals []string
	for k := check.MilestoneKind(1); k.String() != ""; k++ {
		kinds = append(kinds, k.String())
	}
	for k := check.OutcomeKind(1); k.String() != ""; k++ {
		finals = append(finals, k.String())
	}
	if got, want := strings.Join(kinds, " "), strings.Join(vocab.MilestoneKinds(), " "); got != want {
		t.Errorf("milestone kinds %q, vocabulary %q", got, want)
	}
	if got, want := strings.Join(finals, " "), strings.Join(vocab.AllOutcomes(), " "); got != want {
		t.Errorf("outcomes %q, vocabulary %q", got, want)
	}
	for _, m := range vocab.Milestones {
		if k, ok := vocab.MilestoneOfFinal(m.Final); !ok || k.Kind != m.Kind {
			t.Errorf("MilestoneOfFinal(%q) = %v", m.Final, k.Kind)
		}
	}
}
