package lsp

import (
	"os"
	"slices"
	"strings"
	"testing"

	"github.com/wfc-lang/wfc/diag"
	"github.com/wfc-lang/wfc/lsp/protocol"
)

var twoFiles = map[string]string{"types.wf": typesWF, "flow.wf": flowWF}

// A type declared in a closed file resolves in an open one; breaking it in
// an open buffer reports in the closed file that uses it.
func TestWorkspaceIsProgram(t *testing.T) {
	c := start(t, twoFiles)
	c.open("flow.wf", flowWF)
	if p := c.version("flow.wf", 1); len(p.Diagnostics) != 0 {
		t.Fatalf("clean workspace: %v", codes(p))
	}
	c.open("types.wf", typesWF)
	// Rename the enum in the buffer only: flow.wf (on disk) breaks.
	r := protocol.Range{Start: at(typesWF, "Decision", 0, 0), End: at(typesWF, "Decision", 0, len("Decision"))}
	c.edit("types.wf", 2, r, "Verdict")
	p := c.diagsFor("flow.wf", func(p *protocol.PublishDiagnosticsParams) bool { return len(p.Diagnostics) > 0 })
	if !slices.Contains(codes(p), "WF103") && len(codes(p)) == 0 {
		t.Fatalf("flow.wf after the enum's rename: %v", codes(p))
	}
	d := p.Diagnostics[0]
	code := string(d.Code.(protocol.String))
	if !strings.HasSuffix(string(d.CodeDescription.Href), "docs/language.md#"+strings.ToLower(code)) {
		t.Errorf("codeDescription %q does not link to %s in docs/language.md", d.CodeDescription.Href, code)
	}
	if src, _ := d.Source.Get(); src != "wfc" || d.Severity != protocol.DiagnosticSeverityError {
		t.Errorf("diagnostic lacks source, codeDescription or severity: %+v", d)
	}
}

// Diagnostic ranges count in the negotiated encoding: an astral character
// (two UTF-16 units, one code point, four bytes) before the error.
func TestAstralPositions(t *testing.T) {
	src := strings.Replace(flowWF, `Message = "job escalated";`, `Message = "😀😀"; Bogus = 1;`, 1)
	line := uint32(strings.Count(src[:strings.Index(src, "Bogus")], "\n"))
	lineStart := strings.LastIndex(src[:strings.Index(src, "Bogus")], "\n") + 1
	prefix := src[lineStart:strings.Index(src, "Bogus")]
	for _, tc := range []struct {
		enc  protocol.PositionEncodingKind
		char int
	}{
		{protocol.PositionEncodingKindUTF16, len([]rune(prefix)) + 2},
		{protocol.PositionEncodingKindUTF32, len([]rune(prefix))},
		{protocol.PositionEncodingKindUTF8, len(prefix)},
	} {
		t.Run(string(tc.enc), func(t *testing.T) {
			c := start(t, map[string]string{"types.wf": typesWF}, tc.enc)
			c.open("flow.wf", src)
			p := c.version("flow.wf", 1)
			var found bool
			for _, d := range p.Diagnostics {
				if d.Code == protocol.String("WF107") {
					found = true
					want := protocol.Range{Start: pos(line, uint32(tc.char)), End: pos(line, uint32(tc.char+len("Bogus")))}
					if d.Range != want {
						t.Errorf("WF107 at %v, want %v", d.Range, want)
					}
				}
			}
			if !found {
				t.Fatalf("no WF107: %v", codes(p))
			}
		})
	}
}

// Incremental edits apply in order, in UTF-16 units, across an astral
// character, and the diagnostics follow the version.
func TestIncrementalEdits(t *testing.T) {
	c := start(t, map[string]string{"types.wf": typesWF})
	src := strings.Replace(flowWF, `"job escalated"`, `"😀 escalated"`, 1)
	c.open("flow.wf", src)
	c.version("flow.wf", 1)
	// Break `goto Running;` into `goto Runnin;`, then fix it again.
	p := at(src, "goto Running", 0, len("goto Runnin"))
	c.edit("flow.wf", 2, protocol.Range{Start: p, End: pos(p.Line, p.Character+1)}, "")
	if got := codes(c.version("flow.wf", 2)); !slices.Contains(got, "WF103") {
		t.Fatalf("after deleting a letter: %v, want WF103", got)
	}
	c.edit("flow.wf", 3, protocol.Range{Start: p, End: p}, "g")
	if got := codes(c.version("flow.wf", 3)); len(got) != 0 {
		t.Fatalf("after restoring it: %v", got)
	}
	// An edit after the astral character: replace `escalated"` inside the string.
	q := at(src, " escalated\"", 0, 1)
	c.edit("flow.wf", 4, protocol.Range{Start: q, End: pos(q.Line, q.Character+uint32(len("escalated")))}, "done")
	c.version("flow.wf", 4)
	c.server.ck.read(func(ws *workspace) {
		got := ws.open[nameOf(c.uri("flow.wf"))].text.src
		if want := strings.Replace(src, "😀 escalated", "😀 done", 1); got != want {
			t.Errorf("buffer after the edit:\n%s", got)
		}
	})
}

// Every code's codeDescription link has its anchor in docs/language.md.
func TestCodeLinksResolve(t *testing.T) {
	doc, err := os.ReadFile("../docs/language.md")
	if err != nil {
		t.Fatal(err)
	}
	for _, c := range diag.Codes {
		if !strings.Contains(string(doc), "\n#### "+string(c.Code)+"\n") {
			t.Errorf("docs/language.md has no heading for %s (anchor #%s)", c.Code, strings.ToLower(string(c.Code)))
		}
	}
}
