package lsp

import (
	"testing"

	"github.com/wfc-lang/wfc/lsp/protocol"
)

func TestRequestBeforeInitialize(t *testing.T) {
	c := startRaw(t, nil)
	_, err := c.srv.Hover(c.ctx, &protocol.HoverParams{TextDocumentPositionParams: docPos(c, "a.wf", 0, 0)})
	if code, _ := protocol.ErrorCode(err); code != protocol.CodeServerNotInitialized {
		t.Fatalf("hover before initialize: %v (code %d), want code %d", err, code, protocol.CodeServerNotInitialized)
	}
	res := c.initialize()
	if res.Capabilities.PositionEncoding != protocol.PositionEncodingKindUTF16 {
		t.Errorf("encoding %q, want utf-16 when the client offers none", res.Capabilities.PositionEncoding)
	}
	if _, err := c.srv.Initialize(c.ctx, &protocol.InitializeParams{}); err == nil {
		t.Error("a second initialize succeeded")
	}
}

func TestShutdownThenExit(t *testing.T) {
	c := start(t, nil)
	if err := c.srv.Shutdown(c.ctx); err != nil {
		t.Fatal(err)
	}
	_, err := c.srv.Hover(c.ctx, &protocol.HoverParams{TextDocumentPositionParams: docPos(c, "a.wf", 0, 0)})
	if code, _ := protocol.ErrorCode(err); code != protocol.CodeInvalidRequest {
		t.Errorf("hover after shutdown: %v, want InvalidRequest", err)
	}
	_ = c.srv.Exit(c.ctx)
	if code := <-c.exit; code != 0 {
		t.Errorf("exit after shutdown: status %d, want 0", code)
	}
}

func TestExitWithoutShutdown(t *testing.T) {
	c := start(t, nil)
	_ = c.srv.Exit(c.ctx)
	if code := <-c.exit; code != 1 {
		t.Errorf("exit without shutdown: status %d, want 1", code)
	}
}

func TestNegotiateEncoding(t *testing.T) {
	for _, tc := range []struct {
		offer []protocol.PositionEncodingKind
		want  protocol.PositionEncodingKind
	}{
		{nil, protocol.PositionEncodingKindUTF16},
		{[]protocol.PositionEncodingKind{protocol.PositionEncodingKindUTF16}, protocol.PositionEncodingKindUTF16},
		{[]protocol.PositionEncodingKind{protocol.PositionEncodingKindUTF8, protocol.PositionEncodingKindUTF16}, protocol.PositionEncodingKindUTF8},
		{[]protocol.PositionEncodingKind{protocol.PositionEncodingKindUTF16, protocol.PositionEncodingKindUTF32}, protocol.PositionEncodingKindUTF32},
	} {
		if got := negotiate(tc.offer).kind(); got != tc.want {
			t.Errorf("offer %v: got %q, want %q", tc.offer, got, tc.want)
		}
	}
}

func TestPanicBecomesError(t *testing.T) {
	c := start(t, nil)
	c.server.panicOn.Store(protocol.MethodTextDocumentHover)
	_, err := c.srv.Hover(c.ctx, &protocol.HoverParams{TextDocumentPositionParams: docPos(c, "a.wf", 0, 0)})
	if code, _ := protocol.ErrorCode(err); code != protocol.CodeInternalError {
		t.Fatalf("panicking hover: %v, want InternalError", err)
	}
	c.server.panicOn.Store("")
	if _, err := c.srv.Hover(c.ctx, &protocol.HoverParams{TextDocumentPositionParams: docPos(c, "a.wf", 0, 0)}); err != nil {
		t.Fatalf("the server did not survive the panic: %v", err)
	}
}
