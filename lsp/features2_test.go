package lsp

import (
	"context"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/wfc-lang/wfc/diag"
	"github.com/wfc-lang/wfc/format"
	"github.com/wfc-lang/wfc/lsp/protocol"
)

func hoverText(t *testing.T, c *client, name, src, needle string, delta int) string {
	t.Helper()
	p := at(src, needle, 0, delta)
	h, err := c.srv.Hover(c.ctx, &protocol.HoverParams{TextDocumentPositionParams: docPos(c, name, p.Line, p.Character)})
	if err != nil {
		t.Fatal(err)
	}
	if h == nil {
		t.Fatalf("no hover on %q", needle)
	}
	return h.Contents.(*protocol.MarkupContent).Value
}

func TestHover(t *testing.T) {
	src := strings.Replace(flowWF, "  Tracks", "  // wfc:ignore WF203\n  Tracks", 1)
	c := start(t, map[string]string{"types.wf": typesWF})
	c.open("flow.wf", src)
	c.version("flow.wf", 1)
	for _, tc := range []struct{ needle, want string }{
		{"Finished", "| 3 | 10m | 25m |"},                         // the milestone: the schedule table
		{"Backoff.Exponential", "exponential: 5m"},                // the policy
		{"goto Running", "state Running  // in workflow JobFlow"}, // a name: its declaration
		{"Decision decision);", "enum Decision { Ok, Retry }"},
		{"WF203", "WF203"}, // a code: its explanation
	} {
		delta := 0
		if strings.HasPrefix(tc.needle, "goto ") {
			delta = 6
		}
		if got := hoverText(t, c, "flow.wf", src, tc.needle, delta); !strings.Contains(got, tc.want) {
			t.Errorf("hover on %q:\n%s\nwant it to hold %q", tc.needle, got, tc.want)
		}
	}
}

func TestDefinitionReferencesRename(t *testing.T) {
	c := start(t, twoFiles)
	c.open("flow.wf", flowWF)
	c.version("flow.wf", 1)
	p := at(flowWF, "Decision decision);", 0, 2)
	def, err := c.srv.Definition(c.ctx, &protocol.DefinitionParams{TextDocumentPositionParams: docPos(c, "flow.wf", p.Line, p.Character)})
	if err != nil {
		t.Fatal(err)
	}
	locs := def.(protocol.LocationSlice)
	want := protocol.Location{URI: c.uri("types.wf"), Range: protocol.Range{Start: at(typesWF, "Decision", 0, 0), End: at(typesWF, "Decision", 0, 8)}}
	if len(locs) != 1 || locs[0] != want {
		t.Fatalf("definition of Decision: %v, want %v", locs, want)
	}
	refs, err := c.srv.References(c.ctx, &protocol.ReferenceParams{TextDocumentPositionParams: docPos(c, "flow.wf", p.Line, p.Character), Context: protocol.ReferenceContext{IncludeDeclaration: true}})
	if err != nil {
		t.Fatal(err)
	}
	if len(refs) != 4 { // the declaration, the event's, the subscription's and the handler's parameters
		t.Errorf("references of Decision: %d, want 4: %v", len(refs), refs)
	}
	// Rename the state Running from its goto: the declaration and the goto change.
	g := at(flowWF, "goto Running", 0, 6)
	we, err := c.srv.Rename(c.ctx, &protocol.RenameParams{TextDocumentPositionParams: docPos(c, "flow.wf", g.Line, g.Character), NewName: "Working"})
	if err != nil {
		t.Fatal(err)
	}
	if n := len(we.Changes[c.uri("flow.wf")]); n != 2 {
		t.Errorf("rename of Running: %d edits, want 2", n)
	}
	// Rename the enum across files, and apply it: the program stays clean.
	we, err = c.srv.Rename(c.ctx, &protocol.RenameParams{TextDocumentPositionParams: docPos(c, "flow.wf", p.Line, p.Character), NewName: "Verdict"})
	if err != nil {
		t.Fatal(err)
	}
	if len(we.Changes) != 2 {
		t.Fatalf("rename across files touched %d files, want 2", len(we.Changes))
	}
	files := map[string]string{"types.wf": typesWF, "flow.wf": flowWF}
	for name, src := range files {
		files[name] = applyEdits(t, src, we.Changes[c.uri(name)])
	}
	if !strings.Contains(files["types.wf"], "enum Verdict") || strings.Contains(files["flow.wf"], "Decision") {
		t.Fatalf("after the rename:\n%s\n%s", files["types.wf"], files["flow.wf"])
	}
	if _, err := c.srv.Rename(c.ctx, &protocol.RenameParams{TextDocumentPositionParams: docPos(c, "flow.wf", p.Line, p.Character), NewName: "goto"}); err == nil {
		t.Error("renaming to a keyword succeeded")
	}
}

func applyEdits(t *testing.T, src string, es []protocol.TextEdit) string {
	t.Helper()
	tx := newText(src)
	var des []diag.Edit
	for _, e := range es {
		s, _ := tx.offset(e.Range.Start, utf16Units)
		en, _ := tx.offset(e.Range.End, utf16Units)
		des = append(des, diag.Edit{Range: diag.Range{Start: diag.Pos{Offset: int32(s)}, End: diag.Pos{Offset: int32(en)}}, NewText: e.NewText})
	}
	out, err := diag.ApplyEdits(src, des)
	if err != nil {
		t.Fatal(err)
	}
	return out
}

func TestSymbols(t *testing.T) {
	c := start(t, twoFiles)
	c.open("flow.wf", flowWF)
	c.version("flow.wf", 1)
	res, err := c.srv.DocumentSymbol(c.ctx, &protocol.DocumentSymbolParams{TextDocument: protocol.TextDocumentIdentifier{URI: c.uri("flow.wf")}})
	if err != nil {
		t.Fatal(err)
	}
	syms := res.(protocol.DocumentSymbolSlice)
	var path []string
	var walk func([]protocol.DocumentSymbol, string)
	walk = func(ss []protocol.DocumentSymbol, pre string) {
		for _, s := range ss {
			path = append(path, pre+s.Name)
			walk(s.Children, pre+s.Name+" › ")
		}
	}
	walk(syms, "")
	if !slices.Contains(path, "JobFlow › Running › subscribe Worker › Finished") {
		t.Errorf("outline lacks workflow › state › subscription › milestone: %v", path)
	}
	ws, err := c.srv.Symbols(c.ctx, &protocol.WorkspaceSymbolParams{Query: "jstage"})
	if err != nil {
		t.Fatal(err)
	}
	var names []string
	switch l := ws.(type) { // the client cannot tell the two shapes apart on the wire
	case protocol.WorkspaceSymbolSlice:
		for _, s := range l {
			names = append(names, s.Name)
		}
	case protocol.SymbolInformationSlice:
		for _, s := range l {
			names = append(names, s.Name)
		}
	}
	if !slices.Equal(names, []string{"JobStage"}) {
		t.Errorf("workspace symbol jstage: %v", names)
	}
}

func TestInlayHints(t *testing.T) {
	c := start(t, twoFiles)
	c.open("flow.wf", flowWF)
	c.version("flow.wf", 1)
	hs, err := c.srv.InlayHint(c.ctx, &protocol.InlayHintParams{TextDocument: protocol.TextDocumentIdentifier{URI: c.uri("flow.wf")}, Range: protocol.Range{End: pos(100, 0)}})
	if err != nil {
		t.Fatal(err)
	}
	if len(hs) != 1 || hs[0].Label != protocol.String("3 attempts · gives up at 30m") {
		t.Fatalf("inlay hints: %+v", hs)
	}
	if want := at(flowWF, ".Cap(TimeSpan.FromHours(1))", 0, len(".Cap(TimeSpan.FromHours(1))")); hs[0].Position != want {
		t.Errorf("hint at %v, want %v (after the policy)", hs[0].Position, want)
	}
}

func TestCodeActions(t *testing.T) {
	src := strings.Replace(flowWF, ".Cap(TimeSpan.FromHours(1))", ".Cap(TimeSpan.FromHours(1)).Jitter(0)", 1)
	c := start(t, map[string]string{"types.wf": typesWF})
	c.open("flow.wf", src)
	p := c.version("flow.wf", 1)
	if !slices.Contains(codes(p), "WF310") {
		t.Fatalf("want WF310: %v", codes(p))
	}
	j := at(src, "Jitter(0)", 0, 1)
	acts, err := c.srv.CodeAction(c.ctx, &protocol.CodeActionParams{TextDocument: protocol.TextDocumentIdentifier{URI: c.uri("flow.wf")}, Range: protocol.Range{Start: j, End: j}})
	if err != nil {
		t.Fatal(err)
	}
	if len(acts) == 0 {
		t.Fatal("no quick fix for WF310")
	}
	a := acts[0].(*protocol.CodeAction)
	if *a.Kind != protocol.CodeActionKindQuickFix || a.IsPreferred == nil || !*a.IsPreferred || len(a.Diagnostics) != 1 {
		t.Errorf("quick fix: %+v", a)
	}
	if got := applyEdits(t, src, a.Edit.Changes[c.uri("flow.wf")]); got != flowWF {
		t.Errorf("the fix does not restore the program:\n%s", got)
	}
	acts, err = c.srv.CodeAction(c.ctx, &protocol.CodeActionParams{TextDocument: protocol.TextDocumentIdentifier{URI: c.uri("flow.wf")},
		Context: protocol.CodeActionContext{Only: []protocol.CodeActionKind{protocol.CodeActionKindSourceFixAll}}})
	if err != nil {
		t.Fatal(err)
	}
	if len(acts) != 1 || *acts[0].(*protocol.CodeAction).Kind != FixAllKind {
		t.Fatalf("source.fixAll: %+v", acts)
	}
}

func TestCompletion(t *testing.T) {
	c := start(t, twoFiles)
	src := strings.Replace(flowWF, "Retry { goto Queued; }", "Retry { goto Queued; } ", 1)
	c.open("flow.wf", src)
	c.version("flow.wf", 1)
	for _, tc := range []struct {
		needle string
		delta  int
		want   []string
	}{
		{"goto Queued", 5, []string{"Queued", "Running", "Escalated"}},
		{"subscribe Start", 10, []string{"Start", "Complete"}},
		{"Backoff.Exponential", 8, []string{"Fixed", "Linear", "Exponential"}},
		{"TimeSpan.FromMinutes(5);", 9, timeSpanMethods},
		{".MaxAttempts", 1, policyMembers},
		{"Retry { goto Queued; } ", 23, []string{"Ok", "Retry", "goto"}},
		{"Exhausted  { }", 0, []string{"Within", "Retries", "Backoff", "Exhausted", "Unfinished"}},
		{"Message = ", 0, []string{"Message"}},
	} {
		p := at(src, tc.needle, 0, tc.delta)
		res, err := c.srv.Completion(c.ctx, &protocol.CompletionParams{TextDocumentPositionParams: docPos(c, "flow.wf", p.Line, p.Character)})
		if err != nil {
			t.Fatal(err)
		}
		var got []string
		if items, ok := res.(protocol.CompletionItemSlice); ok {
			for _, it := range items {
				got = append(got, it.Label)
			}
		}
		for _, w := range tc.want {
			if !slices.Contains(got, w) {
				t.Errorf("completion at %q+%d: %v lacks %q", tc.needle, tc.delta, got, w)
			}
		}
	}
}

func TestPullDiagnosticsAndWatchedFiles(t *testing.T) {
	c := start(t, twoFiles)
	c.open("flow.wf", flowWF)
	c.version("flow.wf", 1)
	// A closed file changes on disk: the open one breaks.
	broken := strings.Replace(typesWF, "enum Decision", "enum Verdict", 1)
	if err := os.WriteFile(filepath.Join(c.dir, "types.wf"), []byte(broken), 0o644); err != nil {
		t.Fatal(err)
	}
	err := c.srv.DidChangeWatchedFiles(c.ctx, &protocol.DidChangeWatchedFilesParams{Changes: []protocol.FileEvent{{URI: c.uri("types.wf"), Type: protocol.FileChangeTypeChanged}}})
	if err != nil {
		t.Fatal(err)
	}
	rep, err := c.srv.Diagnostic(c.ctx, &protocol.DocumentDiagnosticParams{TextDocument: protocol.TextDocumentIdentifier{URI: c.uri("flow.wf")}})
	if err != nil {
		t.Fatal(err)
	}
	full := rep.(*protocol.RelatedFullDocumentDiagnosticReport)
	if len(full.Items) == 0 {
		t.Fatal("pull diagnostics after the type vanished on disk: none")
	}
}

// A client that registers watchers dynamically is asked to watch *.wf.
func TestRegistersFileWatcher(t *testing.T) {
	c := startRaw(t, twoFiles)
	yes := true
	p := &protocol.InitializeParams{}
	p.Capabilities.Workspace = &protocol.WorkspaceClientCapabilities{DidChangeWatchedFiles: &protocol.DidChangeWatchedFilesClientCapabilities{DynamicRegistration: &yes}}
	if _, err := c.srv.Initialize(c.ctx, p); err != nil {
		t.Fatal(err)
	}
	if err := c.srv.Initialized(c.ctx, &protocol.InitializedParams{}); err != nil {
		t.Fatal(err)
	}
	deadline := time.Now().Add(10 * time.Second)
	for {
		c.rec.mu.Lock()
		regs := c.rec.registrations
		c.rec.mu.Unlock()
		if len(regs) > 0 {
			if regs[0].Method != protocol.MethodWorkspaceDidChangeWatchedFiles || !strings.Contains(string(regs[0].RegisterOptions), `"**/*.wf"`) {
				t.Errorf("registration: %+v (%s)", regs[0], regs[0].RegisterOptions)
			}
			return
		}
		if time.Now().After(deadline) {
			t.Fatal("no registration for workspace/didChangeWatchedFiles")
		}
		time.Sleep(10 * time.Millisecond)
	}
}

// A closed file with diagnostics that is deleted on disk is cleared.
func TestDeletedFileIsCleared(t *testing.T) {
	broken := strings.Replace(flowWF, "goto Running;", "goto Runing;", 1)
	c := start(t, map[string]string{"types.wf": typesWF, "flow.wf": broken})
	c.open("types.wf", typesWF)
	c.diagsFor("flow.wf", func(p *protocol.PublishDiagnosticsParams) bool { return len(p.Diagnostics) > 0 })
	if err := os.Remove(filepath.Join(c.dir, "flow.wf")); err != nil {
		t.Fatal(err)
	}
	err := c.srv.DidChangeWatchedFiles(c.ctx, &protocol.DidChangeWatchedFilesParams{Changes: []protocol.FileEvent{{URI: c.uri("flow.wf"), Type: protocol.FileChangeTypeDeleted}}})
	if err != nil {
		t.Fatal(err)
	}
	c.diagsFor("flow.wf", func(p *protocol.PublishDiagnosticsParams) bool { return len(p.Diagnostics) == 0 })
}

func TestFormatting(t *testing.T) {
	messy := strings.Replace(typesWF, "enum Decision { Ok, Retry }", "enum   Decision {Ok,Retry}", 1)
	c := start(t, twoFiles)
	c.open("types.wf", messy)
	edits, err := c.srv.Formatting(c.ctx, &protocol.DocumentFormattingParams{TextDocument: protocol.TextDocumentIdentifier{URI: c.uri("types.wf")}})
	if err != nil {
		t.Fatal(err)
	}
	want, err := format.Source("types.wf", messy)
	if err != nil {
		t.Fatal(err)
	}
	if got := applyEdits(t, messy, edits); got != want || got == messy {
		t.Errorf("formatted:\n%s\nwant:\n%s", got, want)
	}
	c.open("flow.wf", "workflow {")
	if _, err := c.srv.Formatting(c.ctx, &protocol.DocumentFormattingParams{TextDocument: protocol.TextDocumentIdentifier{URI: c.uri("flow.wf")}}); err == nil {
		t.Error("a file with syntax errors was formatted")
	}
}

// A request right after initialize, before any change, is answered.
func TestRequestBeforeInitialized(t *testing.T) {
	c := startRaw(t, twoFiles)
	p := &protocol.InitializeParams{}
	p.WorkspaceFolders = protocol.NewNullable([]protocol.WorkspaceFolder{{URI: protocol.FileURI(c.dir), Name: "ws"}})
	if _, err := c.srv.Initialize(c.ctx, p); err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithTimeout(c.ctx, 10*time.Second)
	defer cancel()
	res, err := c.srv.Symbols(ctx, &protocol.WorkspaceSymbolParams{Query: "JobFlow"})
	if err != nil || res == nil {
		t.Fatalf("workspace symbol before initialized: %v, %v", res, err)
	}
}
