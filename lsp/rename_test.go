package lsp

import (
	"context"
	"fmt"
	"maps"
	"slices"
	"strings"
	"testing"

	"github.com/wfc-lang/wfc"
	"github.com/wfc-lang/wfc/lsp/protocol"
)

// TestRenameRefusesWhatTheLanguageRefuses: a new name the language does
// not allow is refused with the language's own words — the lexer's
// message for a character no token may hold, the parser's for a reserved
// word — and nothing is edited; one it allows is accepted. A step's name
// is the contents of a string literal: what the lexer refuses there (a NUL
// byte) is refused too.
func TestRenameRefusesWhatTheLanguageRefuses(t *testing.T) {
	for _, tc := range []struct {
		kind symKind
		name string
		want string // in the error; "" when the name is allowed
	}{
		{kState, "Working", ""},
		{kState, "_x9", ""},
		{kState, "goto", "`goto` is a reserved word and cannot be a name: choose another name"},
		{kState, "true", "`true` is a reserved word and cannot be a name"},
		{kState, "Wor\x00king", "unexpected NUL byte"},
		{kState, "\x00", "unexpected NUL byte"},
		{kState, "caf\u00e9", "`é`"},
		{kState, "a\u202eb", "`\\u202e` (U+202E): it cannot start a token"}, // the message escaped, as wfc check prints it
		{kState, "a b", "is not a name"},
		{kState, "9lives", "is not a name"},
		{kState, "a.b", "is not a name"},
		{kState, "", "is not a name"},
		{kState, "a//b", "is not a name"},
		{kStep, "charge-card", ""},
		{kStep, "café au lait", ""},
		{kStep, `tab\there`, ""}, // an escape the language reads
		{kStep, "a\x00b", "unexpected NUL byte inside a string: write `\\0`"},
		{kStep, "\x00", "unexpected NUL byte inside a string"},
		{kStep, `a\qb`, "bad escape `\\q`"},
		{kStep, `a\u12`, "`\\u` takes exactly four hex digits"},
		{kStep, `say "hi"`, "cannot hold `\"`"},
		{kStep, `ends\`, "cannot end in a lone `\\`"},
		{kStep, "two\nlines", "line break"},
		{kStep, "cr\rhere", "line break"},
		{kStep, "", "cannot be empty"},
	} {
		err := validName(tc.kind, tc.name)
		switch {
		case tc.want == "" && err != nil:
			t.Errorf("%v %q: refused: %v", tc.kind, tc.name, err)
		case tc.want != "" && err == nil:
			t.Errorf("%v %q: accepted", tc.kind, tc.name)
		case tc.want != "" && !strings.Contains(err.Error(), tc.want):
			t.Errorf("%v %q: %v, want %q in it", tc.kind, tc.name, err, tc.want)
		}
	}
}

// TestRenameStepToNUL: through the server, a step renamed to a name with a
// NUL byte is refused, and the refusal says what the language says.
func TestRenameStepToNUL(t *testing.T) {
	const flow = `workflow Pay { Autostart = true; Initial = A; event Go();
  state A { subscribe Go(); on Go { Workflow.Once("charge") { Card.Charge(); } goto B; } }
  terminal B { } }
`
	c := start(t, map[string]string{"pay.wf": flow})
	c.open("pay.wf", flow)
	p := at(flow, `"charge"`, 0, 2)
	we, err := c.srv.Rename(c.ctx, &protocol.RenameParams{TextDocumentPositionParams: docPos(c, "pay.wf", p.Line, p.Character), NewName: "char\x00ge"})
	if err == nil {
		t.Fatalf("renamed to a NUL: %+v", we)
	}
	if !strings.Contains(err.Error(), "unexpected NUL byte inside a string") {
		t.Errorf("refused with %q", err)
	}
	if _, err := c.srv.Rename(c.ctx, &protocol.RenameParams{TextDocumentPositionParams: docPos(c, "pay.wf", p.Line, p.Character), NewName: "charge-card"}); err != nil {
		t.Errorf("a good name refused: %v", err)
	}
}

// TestRenameReachesQualifiedMembers: renaming an enum member, or its enum,
// edits every place the program writes it qualified (`Verdict.Ok`): an
// event's argument in a test's Send, an argument of a call the test
// expects, a call's argument in a handler, a policy's error kind, a catch
// label, a test's failure kind. Applied, each rename leaves the program
// without a diagnostic, and the old name nowhere.
func TestRenameReachesQualifiedMembers(t *testing.T) {
	const types = `enum Verdict { Ok, No }
enum ChargeError { Declined, RateLimited }
`
	const flow = `workflow Review {
  Autostart = true;
  Initial   = Waiting;

  event Decide(Verdict verdict);

  state Waiting {
    subscribe Decide(Verdict verdict);
    on Decide(Verdict verdict) {
      Mail.Send(Verdict.Ok);
      Workflow.Once("charge", retry: Backoff.Fixed(TimeSpan.FromSeconds(1)).MaxAttempts(2).NonRetryable(ChargeError.Declined)) {
        Payments.Charge();
      } catch {
        ChargeError.Declined { goto Done; }
        default { goto Done; }
      }
      goto Done;
    }
  }

  terminal Done { }
}
`
	const tests = `test "decided" {
  Workflow = Review;
  Fail("charge", kind: ChargeError.Declined);
  Send(Decide(Verdict.Ok));
  Expect.Call(Mail.Send(Verdict.Ok));
  Expect.State(Done);
}
`
	files := map[string]string{"types.wf": types, "flow.wf": flow, "flow_test.wf": tests}
	if ds := diagnosticsOf(files); len(ds) != 0 {
		t.Fatalf("the program has diagnostics before any rename: %v", ds)
	}
	for _, tc := range []struct {
		at, old, new string
		edits        map[string]int // edits per file
	}{
		{"Ok,", "Verdict.Ok", "Fine", map[string]int{"types.wf": 1, "flow.wf": 1, "flow_test.wf": 2}},
		{"Verdict {", "Verdict", "Ruling", map[string]int{"types.wf": 1, "flow.wf": 4, "flow_test.wf": 2}},
		{"Declined,", "ChargeError.Declined", "Refused", map[string]int{"types.wf": 1, "flow.wf": 2, "flow_test.wf": 1}},
		{"ChargeError {", "ChargeError", "PayError", map[string]int{"types.wf": 1, "flow.wf": 2, "flow_test.wf": 1}},
	} {
		c := start(t, files)
		c.open("types.wf", types)
		c.version("types.wf", 1)
		p := at(types, tc.at, 0, 0)
		we, err := c.srv.Rename(c.ctx, &protocol.RenameParams{TextDocumentPositionParams: docPos(c, "types.wf", p.Line, p.Character), NewName: tc.new})
		if err != nil {
			t.Fatal(err)
		}
		renamed := map[string]string{}
		for name, src := range files {
			if got := len(we.Changes[c.uri(name)]); got != tc.edits[name] {
				t.Errorf("rename %s: %d edits in %s, want %d", tc.old, got, name, tc.edits[name])
			}
			renamed[name] = applyEdits(t, src, we.Changes[c.uri(name)])
			if strings.Contains(renamed[name], tc.old+")") || strings.Contains(renamed[name], tc.old+" {") || strings.Contains(renamed[name], tc.old+";") {
				t.Errorf("rename %s: %s still writes it:\n%s", tc.old, name, renamed[name])
			}
		}
		if ds := diagnosticsOf(renamed); len(ds) != 0 {
			t.Errorf("rename %s: the renamed program has diagnostics: %v\n%s\n%s", tc.old, ds, renamed["flow.wf"], renamed["flow_test.wf"])
		}
	}
}

// diagnosticsOf checks files as one program, as wfc check does, and
// returns its diagnostics, each as "file:line:col CODE message".
func diagnosticsOf(files map[string]string) []string {
	var srcs []wfc.Source
	for _, name := range slices.Sorted(maps.Keys(files)) {
		srcs = append(srcs, wfc.Source{Name: name, Src: files[name]})
	}
	var out []string
	for _, d := range wfc.Run(context.Background(), srcs, wfc.Options{}).Diagnostics {
		out = append(out, fmt.Sprintf("%s:%d:%d %s %s", d.File, d.Range.Start.Line, d.Range.Start.Column, d.Code, d.Message))
	}
	return out
}
