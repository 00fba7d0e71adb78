package lsp

import (
	"flag"
	"path/filepath"
	"strings"
	"testing"

	goldenfile "github.com/wfc-lang/wfc/internal/golden"
	"github.com/wfc-lang/wfc/lsp/protocol"
)

var update = flag.Bool("update", false, "rewrite the golden files")

// golden compares got with testdata/name, or rewrites it with -update.
func golden(t *testing.T, name, got string) {
	t.Helper()
	goldenfile.Check(t, filepath.Join("testdata", name), got, *update, "lsp")
}

// TestHoverGolden keeps the rendered hovers (a schedule with jitter and a
// step, a declaration, a code, words of the vocabulary alone and inside a
// policy) in a golden file.
func TestHoverGolden(t *testing.T) {
	src := strings.Replace(flowWF, ".Cap(TimeSpan.FromHours(1))", ".Cap(TimeSpan.FromHours(1)).Jitter(0.2)", 1)
	src = strings.Replace(src, "Retry { goto Queued; }",
		`Retry { Workflow.Once("notify", retry: Backoff.Linear(TimeSpan.FromSeconds(2)).MaxAttempts(4)) { Mail.Send(); } goto Queued; }`, 1)
	src = strings.Replace(src, "  Tracks", "  // wfc:ignore WF310\n  Tracks", 1)
	c := start(t, map[string]string{"types.wf": typesWF})
	c.open("flow.wf", src)
	c.version("flow.wf", 1)
	var b strings.Builder
	for _, h := range []struct {
		needle string
		delta  int
	}{{"Finished", 0}, {"Workflow.Once", 0}, {"Backoff.Linear", 0}, {"Escalated; }", 0}, {"Worker(", 0}, {"WF310", 0},
		{"Within", 0}, {"Tracks", 0}, {"Message", 0}, {"Unfinished", 0}, {"FromSeconds(2)", 0}, {"Jitter", 0}} {
		p := at(src, h.needle, 0, h.delta)
		res, err := c.srv.Hover(c.ctx, &protocol.HoverParams{TextDocumentPositionParams: docPos(c, "flow.wf", p.Line, p.Character)})
		if err != nil {
			t.Fatal(err)
		}
		b.WriteString("## hover on `" + h.needle + "`\n\n")
		if res == nil {
			b.WriteString("(none)\n\n")
			continue
		}
		b.WriteString(res.Contents.(*protocol.MarkupContent).Value + "\n\n")
	}
	golden(t, "hover.golden.md", b.String())
}
