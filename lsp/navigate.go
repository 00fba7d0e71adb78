package lsp

import (
	"context"
	"fmt"

	"github.com/wfc-lang/wfc/lexer"
	"github.com/wfc-lang/wfc/lsp/protocol"
)

// lookup finds the snapshot and the occurrence under a position.
func (s *Server) lookup(ctx context.Context, doc protocol.TextDocumentIdentifier, pos protocol.Position) (*snapshot, *occurrence, int, error) {
	sn, err := s.ck.snapshot(ctx)
	if err != nil {
		return nil, nil, 0, err
	}
	name := nameOf(doc.URI)
	t := sn.texts[name]
	if t == nil || sn.res.Program == nil {
		return sn, nil, 0, nil
	}
	off, err := t.offset(pos, sn.enc)
	if err != nil {
		return nil, nil, 0, protocol.Errorf(protocol.CodeInvalidParams, "wfc lsp: %v", err)
	}
	return sn, sn.at(name, off), off, nil
}

// Definition goes to the declaration of the name under the cursor.
func (s *Server) Definition(ctx context.Context, p *protocol.DefinitionParams) (protocol.DefinitionResult, error) {
	sn, o, _, err := s.lookup(ctx, p.TextDocument, p.Position)
	if err != nil || o == nil {
		return nil, err
	}
	var locs protocol.LocationSlice
	for _, d := range sn.all(o.sym) {
		if d.def {
			locs = append(locs, sn.location(d.file, d.rng))
		}
	}
	if len(locs) == 0 {
		return nil, nil
	}
	return locs, nil
}

// References lists every mention of the name under the cursor in the
// workspace.
func (s *Server) References(ctx context.Context, p *protocol.ReferenceParams) ([]protocol.Location, error) {
	sn, o, _, err := s.lookup(ctx, p.TextDocument, p.Position)
	if err != nil || o == nil {
		return nil, err
	}
	var locs []protocol.Location
	for i, r := range sn.all(o.sym) {
		if err := cancelled(ctx, i); err != nil {
			return nil, err
		}
		if r.def && !p.Context.IncludeDeclaration {
			continue
		}
		locs = append(locs, sn.location(r.file, r.rng))
	}
	return locs, nil
}

// PrepareRename says whether the cursor is on a name that can be renamed.
func (s *Server) PrepareRename(ctx context.Context, p *protocol.PrepareRenameParams) (protocol.PrepareRenameResult, error) {
	sn, o, _, err := s.lookup(ctx, p.TextDocument, p.Position)
	if err != nil || o == nil {
		return nil, err
	}
	r := sn.rng(o.file, o.rng)
	return &r, nil
}

// Rename edits the declaration and every reference in the workspace. The
// new name must be an identifier (for a step, any non-empty string
// without quotes or line breaks).
func (s *Server) Rename(ctx context.Context, p *protocol.RenameParams) (*protocol.WorkspaceEdit, error) {
	sn, o, _, err := s.lookup(ctx, p.TextDocument, p.Position)
	if err != nil {
		return nil, err
	}
	if o == nil {
		return nil, protocol.Errorf(protocol.CodeRequestFailed, "wfc lsp: no name to rename here")
	}
	if err := validName(o.sym.kind, p.NewName); err != nil {
		return nil, protocol.Errorf(protocol.CodeRequestFailed, "wfc lsp: %v", err)
	}
	changes := map[protocol.URI][]protocol.TextEdit{}
	// With Tracks, a state and its enum member are one name: both go.
	syms := append([]symbol{o.sym}, sn.linked(o.sym)...)
	i := 0
	for _, sym := range syms {
		for _, r := range sn.all(sym) {
			if err := cancelled(ctx, i); err != nil {
				return nil, err
			}
			i++
			u := sn.uriOf(r.file)
			changes[u] = append(changes[u], protocol.TextEdit{Range: sn.rng(r.file, r.rng), NewText: p.NewName})
		}
	}
	return &protocol.WorkspaceEdit{Changes: changes}, nil
}

func validName(k symKind, name string) error {
	if k == kStep {
		for _, r := range name {
			if r == '"' || r == '\\' || r == '\n' || r == '\r' {
				return fmt.Errorf("a step name cannot hold %q", r)
			}
		}
		if name == "" {
			return fmt.Errorf("a step name cannot be empty")
		}
		return nil
	}
	res := lexer.Lex("rename", name)
	var toks []lexer.Token
	for _, t := range res.Tokens {
		if t.Kind != lexer.EOF {
			toks = append(toks, t)
		}
	}
	if len(res.Diags) > 0 || len(toks) != 1 || toks[0].Kind != lexer.Ident || int(toks[0].End-toks[0].Off) != len(name) {
		return fmt.Errorf("%q is not a name: a name is a letter or _ followed by letters, digits or _, and not a keyword", name)
	}
	return nil
}
