package lsp

import (
	"context"
	"fmt"

	"github.com/wfc-lang/wfc/check"
	"github.com/wfc-lang/wfc/diag"
	"github.com/wfc-lang/wfc/lsp/protocol"
)

// InlayHint shows, after `Retries = N` and after a policy, the attempts in
// total and when the consumer gives up: `3 attempts · gives up at 30m`.
func (s *Server) InlayHint(ctx context.Context, p *protocol.InlayHintParams) ([]protocol.InlayHint, error) {
	sn, err := s.ck.snapshot(ctx)
	if err != nil || sn.res.Program == nil {
		return nil, err
	}
	name, lo, hi, ok, err := sn.span(p.TextDocument.URI, p.Range)
	if !ok {
		return nil, err
	}
	t := sn.texts[name]
	var out []protocol.InlayHint
	yes := true
	add := func(at diag.Pos, label string) {
		if int(at.Offset) < lo || int(at.Offset) > hi {
			return
		}
		out = append(out, protocol.InlayHint{Position: t.position(int(at.Offset), sn.enc), Label: protocol.String(label), PaddingLeft: &yes})
	}
	for _, sc := range sn.res.Schedules {
		c := sc.Consumer
		if c.FileName() != name {
			continue
		}
		label := hintLabel(sc.Attempts, sc.GivesUp, sc.GivesUpLatest)
		if c.RetriesValue != nil {
			add(c.RetriesValue.Rng().End, label)
		}
		if c.Policy != nil && c.Policy.Expr != nil {
			add(c.Policy.Expr.Rng().End, label)
		}
	}
	return out, nil
}

func hintLabel(attempts int64, givesUp, latest check.Ticks) string {
	word := "attempts"
	if attempts == 1 {
		word = "attempt"
	}
	at := check.FormatTicks(givesUp)
	if latest != givesUp {
		at += "–" + check.FormatTicks(latest)
	}
	return fmt.Sprintf("%d %s · gives up at %s", attempts, word, at)
}
