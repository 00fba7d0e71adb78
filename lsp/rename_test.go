package lsp

import (
	"strings"
	"testing"

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
