package lsp

import (
	"context"
	"fmt"
	"strings"

	"github.com/wfc-lang/wfc/diag"
	"github.com/wfc-lang/wfc/lexer"
	"github.com/wfc-lang/wfc/lsp/protocol"
	"github.com/wfc-lang/wfc/parser"
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
// new name must be one the language allows there (validName): an
// identifier, or for a step the contents of a string literal.
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

// validName refuses a new name the language does not allow, in the
// language's own words: the lexer decides, as it does for a source file,
// and the grammar's table which words are reserved (parser.Lex).
// A name must lex as one identifier — a character no token may hold gets
// the lexer's message (WF003), a reserved word the parser's (WF001). A
// step's name is the contents of a string literal, inserted as typed: it
// must lex, between quotes, as one string with no diagnostic (a NUL byte
// gets the lexer's "write `\0`"), and be one line and not empty (WF118).
func validName(k symKind, name string) error {
	if k == kStep {
		return validStepName(name)
	}
	res := parser.Lex("rename", name) // reserved words are the grammar's
	if len(res.Diags) > 0 {
		return fmt.Errorf("%q is not a name: %s", name, diag.Escape(res.Diags[0].Message))
	}
	toks := res.Tokens[:len(res.Tokens)-1] // the last is EOF
	whole := len(toks) == 1 && toks[0].Off == 0 && int(toks[0].End) == len(name)
	if whole && toks[0].Kind == lexer.Keyword {
		return fmt.Errorf("`%s` is a reserved word and cannot be a name: choose another name", name)
	}
	if !whole || toks[0].Kind != lexer.Ident {
		return fmt.Errorf("%q is not a name: a name is a letter or _ followed by letters, digits or _", name)
	}
	return nil
}

// validStepName: see validName.
func validStepName(name string) error {
	if name == "" {
		return fmt.Errorf("a step's name is its durable identity (its idempotency key) and cannot be empty")
	}
	if strings.ContainsAny(name, "\r\n") {
		return fmt.Errorf("a step's name cannot hold a line break: a string ends with its line; write `\\n` for one")
	}
	quoted := `"` + name + `"`
	res := parser.Lex("rename", quoted)
	toks := res.Tokens[:len(res.Tokens)-1]
	for _, d := range res.Diags {
		if d.Code == diag.WF002 { // unterminated: the name's last `\` took the closing quote
			return fmt.Errorf("a step's name cannot end in a lone `\\`: write `\\\\` for a backslash")
		}
		return fmt.Errorf("%q cannot be a step's name: %s", name, diag.Escape(d.Message))
	}
	if len(toks) != 1 || toks[0].Kind != lexer.String || int(toks[0].End) != len(quoted) {
		return fmt.Errorf("a step's name cannot hold `\"`, which ends the string: write `\\\"`")
	}
	return nil
}
