package lsp

import (
	"fmt"
	"slices"
	"testing"

	"github.com/wfc-lang/wfc/internal/lsp/protocol"
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
