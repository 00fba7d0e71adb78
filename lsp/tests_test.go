package lsp

import (
	"context"
	"fmt"
	"slices"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/wfc-lang/wfc/lsp/protocol"
	"github.com/wfc-lang/wfc/parser"
)

// A test file (docs/language.md, "Tests") is part of the workspace's
// program: its names are checked against the workflows (WF501 in the
// editor), it is outlined, and editing inside a test re-checks it.
func TestTestDeclarations(t *testing.T) {
	const testWF = "test \"escalates\" {\n  Workflow = JobFlow;\n  Send(Strat(), at: TimeSpan.FromMinutes(1));\n  Expect.End(Escalated);\n}\n"
	c := start(t, twoFiles)
	c.open("flow_test.wf", testWF)
	c.diagsFor("flow_test.wf", func(p *protocol.PublishDiagnosticsParams) bool {
		for _, d := range p.Diagnostics {
			if fmt.Sprint(d.Code) == "WF501" && d.Range.Start.Line == 2 && d.Range.Start.Character == 7 {
				return true
			}
		}
		return false
	})
	res, err := c.srv.DocumentSymbol(c.ctx, &protocol.DocumentSymbolParams{TextDocument: protocol.TextDocumentIdentifier{URI: c.uri("flow_test.wf")}})
	if err != nil {
		t.Fatal(err)
	}
	var names []string
	for _, s := range res.(protocol.DocumentSymbolSlice) {
		names = append(names, s.Name)
	}
	if !slices.Equal(names, []string{`test "escalates"`}) {
		t.Errorf("outline of a test file: %v", names)
	}
	// Fix the typo inside the test: the diagnostic goes.
	c.edit("flow_test.wf", 2, protocol.Range{Start: protocol.Position{Line: 2, Character: 7}, End: protocol.Position{Line: 2, Character: 12}}, "Start")
	c.diagsFor("flow_test.wf", func(p *protocol.PublishDiagnosticsParams) bool {
		v, ok := p.Version.Get()
		return ok && v == 2 && len(p.Diagnostics) == 0
	})
}

// Every position-based feature answers at every position of a test file
// without an internal error, and going to the definition of a state named
// in an expectation lands on the state.
func TestTestFilePositions(t *testing.T) {
	const testWF = "test \"t\" {\n  Workflow = JobFlow;\n  Send(Start(), at: TimeSpan.FromMinutes(1));\n  Expect.State(Running);\n}\n"
	c := start(t, twoFiles)
	c.open("flow_test.wf", testWF)
	doc := protocol.TextDocumentIdentifier{URI: c.uri("flow_test.wf")}
	for line, text := range []string{"test \"t\" {", "  Workflow = JobFlow;", "  Send(Start(), at: TimeSpan.FromMinutes(1));", "  Expect.State(Running);", "}"} {
		for ch := 0; ch <= len(text); ch++ {
			tp := docPos(c, "flow_test.wf", uint32(line), uint32(ch))
			_, err1 := c.srv.Hover(c.ctx, &protocol.HoverParams{TextDocumentPositionParams: tp})
			_, err2 := c.srv.Definition(c.ctx, &protocol.DefinitionParams{TextDocumentPositionParams: tp})
			_, err3 := c.srv.Completion(c.ctx, &protocol.CompletionParams{TextDocumentPositionParams: tp})
			_, err4 := c.srv.Rename(c.ctx, &protocol.RenameParams{TextDocumentPositionParams: tp, NewName: "Z"})
			_, err5 := c.srv.CodeAction(c.ctx, &protocol.CodeActionParams{TextDocument: doc, Range: protocol.Range{Start: tp.Position, End: tp.Position}})
			for _, err := range []error{err1, err2, err3, err4, err5} {
				if code, _ := protocol.ErrorCode(err); code == protocol.CodeInternalError {
					t.Fatalf("%d:%d: internal error: %v", line, ch, err)
				}
			}
		}
	}
}

// Names in a test lead to what they name, and renaming a state from a test
// renames it in the workflow and in the test.
func TestTestNavigation(t *testing.T) {
	const testWF = "test \"t\" {\n  Workflow = JobFlow;\n  Send(Start(), at: TimeSpan.FromMinutes(1));\n  Expect.State(Running);\n}\n"
	c := start(t, twoFiles)
	c.open("flow.wf", flowWF)
	c.open("flow_test.wf", testWF)
	p := at(testWF, "Running", 0, 2)
	def, err := c.srv.Definition(c.ctx, &protocol.DefinitionParams{TextDocumentPositionParams: docPos(c, "flow_test.wf", p.Line, p.Character)})
	if err != nil {
		t.Fatal(err)
	}
	locs := def.(protocol.LocationSlice)
	want := protocol.Location{URI: c.uri("flow.wf"), Range: protocol.Range{Start: at(flowWF, "state Running", 0, 6), End: at(flowWF, "state Running", 0, 13)}}
	if len(locs) != 1 || locs[0] != want {
		t.Fatalf("definition of Running from a test: %v, want %v", locs, want)
	}
	we, err := c.srv.Rename(c.ctx, &protocol.RenameParams{TextDocumentPositionParams: docPos(c, "flow_test.wf", p.Line, p.Character), NewName: "Working"})
	if err != nil {
		t.Fatal(err)
	}
	if n := len(we.Changes[c.uri("flow_test.wf")]); n != 1 {
		t.Errorf("rename of Running: %d edits in the test, want 1", n)
	}
	if n := len(we.Changes[c.uri("flow.wf")]); n < 2 {
		t.Errorf("rename of Running: %d edits in the workflow, want its declaration and gotos", n)
	}
	e := at(testWF, "Start()", 0, 1)
	def, err = c.srv.Definition(c.ctx, &protocol.DefinitionParams{TextDocumentPositionParams: docPos(c, "flow_test.wf", e.Line, e.Character)})
	if err != nil {
		t.Fatal(err)
	}
	if locs := def.(protocol.LocationSlice); len(locs) != 1 || locs[0].URI != c.uri("flow.wf") {
		t.Errorf("definition of the event Start from a test: %v", locs)
	}
}

// An edit inside a workflow re-checks the tests that run it: renaming a
// state a test expects makes the test's name unknown (WF501) at once.
func TestTestRecheckedAfterWorkflowEdit(t *testing.T) {
	const testWF = "test \"t\" {\n  Workflow = JobFlow;\n  Expect.State(Running);\n}\n"
	c := start(t, twoFiles)
	c.open("flow.wf", flowWF)
	c.open("flow_test.wf", testWF)
	c.diagsFor("flow_test.wf", func(p *protocol.PublishDiagnosticsParams) bool { return len(p.Diagnostics) == 0 })
	s := at(flowWF, "state Running", 0, 6)
	c.edit("flow.wf", 2, protocol.Range{Start: s, End: at(flowWF, "state Running", 0, 13)}, "Working")
	c.diagsFor("flow_test.wf", func(p *protocol.PublishDiagnosticsParams) bool {
		for _, d := range p.Diagnostics {
			if fmt.Sprint(d.Code) == "WF501" && d.Range.Start.Line == 2 {
				return true
			}
		}
		return false
	})
}

// Tests in the workspace: after each edit of a workflow, the analysis
// (which checks again the edited file and the tests that run its
// workflows) gives what a fresh one gives.
func TestRecheckWithTests(t *testing.T) {
	wf := func(name string) string {
		return "workflow " + name + " {\n  Initial = A;\n  event Go();\n  state A {\n    subscribe Go() { Finished { Within = TimeSpan.FromMinutes(5); Retries = 2; Unfinished { goto Done; } } }\n    on Go { goto Done; }\n  }\n  terminal Done { }\n}\n"
	}
	files := []parser.Source{
		{Name: "a.wf", Src: wf("First") + wf("Second")},
		{Name: "a_test.wf", Src: "test \"first\" {\n  Workflow = First;\n  Expect.State(A);\n}\ntest \"second\" {\n  Workflow = Second;\n  Expect.State(Gone);\n}\n" +
			"test \"which\" {\n  Expect.State(A);\n}\n"},
	}
	an := newAnalysis(nil, nil)
	an.run(context.Background(), files, nil)
	edits := []struct{ from, to string }{
		{"Retries = 2;", "Retries = 3;"}, // inside First
		{"state A {", "state B {"},       // First's A is gone: test "first" reports it
		{"state B {", "state A {"},       // and back
		{"Retries = 2;", "Retries = 4;"}, // inside Second
		{"state A {\n    subscribe Go() { Finished { Within = TimeSpan.FromMinutes(5); Retries = 4;",
			"state Gone {\n    subscribe Go() { Finished { Within = TimeSpan.FromMinutes(5); Retries = 4;"}, // test "second" holds now
	}
	for i, e := range edits {
		files[0].Src = strings.Replace(files[0].Src, e.from, e.to, 1)
		got := an.run(context.Background(), files, nil)
		want := newAnalysis(nil, nil).run(context.Background(), files, nil)
		if d := cmp.Diff(want.Diagnostics, got.Diagnostics); d != "" {
			t.Fatalf("edit %d (%q→%q, re-checked %v): diagnostics differ (-fresh +session):\n%s", i, e.from, e.to, got.Rechecked, d)
		}
	}
}

// A test names a durable step by its string: renaming the step from the
// test renames it in the workflow too, and back.
func TestTestStepNames(t *testing.T) {
	const flow = `workflow Pay { Autostart = true; Initial = A; event Go();
  state A { subscribe Go(); on Go { Workflow.Once("charge", retry: Backoff.Fixed(TimeSpan.FromSeconds(1)).MaxAttempts(3)) { Card.Charge(); } goto B; } }
  terminal B { } }
`
	const test = "test \"t\" {\n  Fail(\"charge\", times: 1);\n  Send(Go(), at: TimeSpan.FromMinutes(1));\n  Expect.End(B);\n}\n"
	c := start(t, map[string]string{"pay.wf": flow, "pay_test.wf": test})
	c.open("pay.wf", flow)
	c.open("pay_test.wf", test)
	p := at(test, `"charge"`, 0, 2)
	we, err := c.srv.Rename(c.ctx, &protocol.RenameParams{TextDocumentPositionParams: docPos(c, "pay_test.wf", p.Line, p.Character), NewName: "charge-card"})
	if err != nil {
		t.Fatal(err)
	}
	gotTest := applyEdits(t, test, we.Changes[c.uri("pay_test.wf")])
	gotFlow := applyEdits(t, flow, we.Changes[c.uri("pay.wf")])
	if !strings.Contains(gotTest, `Fail("charge-card"`) || !strings.Contains(gotFlow, `Workflow.Once("charge-card"`) {
		t.Fatalf("rename of a step from a test:\n%s\n%s", gotTest, gotFlow)
	}
}
