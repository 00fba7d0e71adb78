package lsp

import (
	"context"

	"github.com/wfc-lang/wfc/format"
	"github.com/wfc-lang/wfc/lsp/protocol"
)

// Formatting lays the document out as `wfc fmt` does: one edit replacing
// the whole text, none when it is already formatted. A file with syntax
// errors is refused, as `wfc fmt` refuses it.
func (s *Server) Formatting(ctx context.Context, p *protocol.DocumentFormattingParams) ([]protocol.TextEdit, error) {
	name := nameOf(p.TextDocument.URI)
	var t *text
	s.ck.read(func(ws *workspace) {
		if d := ws.open[name]; d != nil {
			t = d.text
		}
	})
	if t == nil {
		return nil, protocol.Errorf(protocol.CodeRequestFailed, "wfc lsp: %s is not open", p.TextDocument.URI)
	}
	out, err := format.Source(name, t.src)
	if err != nil {
		return nil, protocol.Errorf(protocol.CodeRequestFailed, "wfc lsp: not formatted: %v", err)
	}
	if out == t.src {
		return []protocol.TextEdit{}, nil
	}
	enc := s.encoding()
	return []protocol.TextEdit{{Range: protocol.Range{End: t.position(len(t.src), enc)}, NewText: out}}, nil
}
