package lsp

import (
	"context"
	"fmt"
	"io"
	"net"
	"testing"
	"time"

	"github.com/wfc-lang/wfc/lsp/protocol"
)

func frame(body string) string { return fmt.Sprintf("Content-Length: %d\r\n\r\n%s", len(body), body) }

// FuzzMessages sends a random JSON-RPC frame (and, after it, random raw
// bytes) to an initialized server that has a document open: the server
// must not panic, and must still end when the stream ends.
func FuzzMessages(f *testing.F) {
	for _, s := range []string{
		`{"jsonrpc":"2.0","id":2,"method":"textDocument/hover","params":{"textDocument":{"uri":"file:///w/a.wf"},"position":{"line":99,"character":99}}}`,
		`{"jsonrpc":"2.0","method":"textDocument/didChange","params":{"textDocument":{"uri":"file:///w/a.wf","version":2},"contentChanges":[{"range":{"start":{"line":0,"character":5},"end":{"line":0,"character":2}},"text":"x"}]}}`,
		`{"jsonrpc":"2.0","method":"textDocument/didChange","params":{"textDocument":{"uri":"file:///w/nope.wf","version":2},"contentChanges":[{"text":"workflow"}]}}`,
		`{"jsonrpc":"2.0","id":3,"method":"textDocument/rename","params":{"textDocument":{"uri":"file:///w/a.wf"},"position":{"line":0,"character":0},"newName":""}}`,
		`{"jsonrpc":"2.0","id":4,"method":"textDocument/completion","params":{"textDocument":{"uri":"file:///w/a.wf"},"position":{"line":0,"character":1}}}`,
		`{"jsonrpc":"2.0","id":5,"method":"$/cancelRequest","params":{"id":4}}`,
		`{"jsonrpc":"2.0","id":"x","method":"workspace/symbol","params":{"query":"ö"}}`,
		`{"jsonrpc":"2.0","id":6,"method":"textDocument/codeAction","params":{"textDocument":{"uri":"file:///w/a.wf"},"range":{"start":{"line":0,"character":0},"end":{"line":9,"character":0}},"context":{"diagnostics":[],"only":["source"]}}}`,
		`[{"jsonrpc":"2.0","id":7,"method":"shutdown"}]`,
		`{"jsonrpc":"2.0","id":8,"method":"initialize","params":null}`,
		`{"id":9}`, `null`, `{`, `"\ud800"`,
	} {
		f.Add(s, "")
	}
	f.Add(`{"jsonrpc":"2.0","method":"initialized","params":{}}`, "Content-Length: 99999999999\r\n\r\n{")
	f.Fuzz(func(t *testing.T, body, raw string) {
		a, b := net.Pipe()
		s := New(Options{Debounce: -1})
		done := make(chan int, 1)
		go func() { done <- s.Serve(context.Background(), a) }()
		go io.Copy(io.Discard, b)
		w := func(s string) bool {
			_ = b.SetWriteDeadline(time.Now().Add(300 * time.Millisecond))
			_, err := io.WriteString(b, s)
			return err == nil
		}
		ok := w(frame(`{"jsonrpc":"2.0","id":1,"method":"initialize","params":{"capabilities":{},"workspaceFolders":null}}`)) &&
			w(frame(`{"jsonrpc":"2.0","method":"textDocument/didOpen","params":{"textDocument":{"uri":"file:///w/a.wf","languageId":"wfc","version":1,"text":"enum A { X }\nworkflow 😀 {"}}}`)) &&
			w(frame(body))
		if ok && raw != "" {
			w(raw)
		}
		b.Close()
		select {
		case <-done:
		case <-time.After(10 * time.Second):
			t.Fatal("the server did not end after the stream closed")
		}
	})
}

// FuzzEdits applies random edits to an open document, then asks for every
// position-based feature at a random position: no panic, no hang.
func FuzzEdits(f *testing.F) {
	f.Add(uint32(7), uint32(20), uint32(7), uint32(25), "goto ", uint32(12), uint32(9))
	f.Add(uint32(0), uint32(0), uint32(99), uint32(0), "😀\r\n}", uint32(0), uint32(1))
	f.Add(uint32(3), uint32(4), uint32(3), uint32(2), "", uint32(3), uint32(3))
	f.Fuzz(func(t *testing.T, l1, c1, l2, c2 uint32, text string, pl, pc uint32) {
		c := start(t, map[string]string{"types.wf": typesWF})
		c.open("flow.wf", flowWF)
		err := c.srv.DidChange(c.ctx, &protocol.DidChangeTextDocumentParams{
			TextDocument:   protocol.VersionedTextDocumentIdentifier{TextDocumentIdentifier: protocol.TextDocumentIdentifier{URI: c.uri("flow.wf")}, Version: 2},
			ContentChanges: []protocol.TextDocumentContentChangeEvent{&protocol.TextDocumentContentChangePartial{Range: protocol.Range{Start: pos(l1%40, c1%200), End: pos(l2%40, c2%200)}, Text: text}},
		})
		if err != nil {
			t.Fatal(err)
		}
		tp := docPos(c, "flow.wf", pl%40, pc%200)
		doc := protocol.TextDocumentIdentifier{URI: c.uri("flow.wf")}
		_, _ = c.srv.Hover(c.ctx, &protocol.HoverParams{TextDocumentPositionParams: tp})
		_, _ = c.srv.Definition(c.ctx, &protocol.DefinitionParams{TextDocumentPositionParams: tp})
		_, _ = c.srv.Completion(c.ctx, &protocol.CompletionParams{TextDocumentPositionParams: tp})
		_, _ = c.srv.Rename(c.ctx, &protocol.RenameParams{TextDocumentPositionParams: tp, NewName: "Z"})
		_, _ = c.srv.InlayHint(c.ctx, &protocol.InlayHintParams{TextDocument: doc, Range: protocol.Range{End: tp.Position}})
		_, _ = c.srv.DocumentSymbol(c.ctx, &protocol.DocumentSymbolParams{TextDocument: doc})
		_, err = c.srv.CodeAction(c.ctx, &protocol.CodeActionParams{TextDocument: doc, Range: protocol.Range{Start: tp.Position, End: tp.Position},
			Context: protocol.CodeActionContext{Only: []protocol.CodeActionKind{protocol.CodeActionKindQuickFix, FixAllKind}}})
		if code, _ := protocol.ErrorCode(err); code == protocol.CodeInternalError {
			t.Fatalf("internal error: %v", err)
		}
	})
}
