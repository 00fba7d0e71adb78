package lsp

import (
	"context"
	"sort"
	"strconv"
	"strings"

	"github.com/wfc-lang/wfc/ast"
	"github.com/wfc-lang/wfc/diag"
	"github.com/wfc-lang/wfc/lsp/protocol"
)

// DocumentSymbol outlines a file: enums › members, entities › fields,
// workflow › events and states › subscriptions and handlers › milestones.
func (s *Server) DocumentSymbol(ctx context.Context, p *protocol.DocumentSymbolParams) (protocol.DocumentSymbolResult, error) {
	sn, err := s.ck.snapshot(ctx)
	if err != nil || sn.res.Program == nil {
		return nil, err
	}
	name := nameOf(p.TextDocument.URI)
	for _, f := range sn.res.Program.Files {
		if f.Name == name {
			return protocol.DocumentSymbolSlice(outline(sn, f)), nil
		}
	}
	return nil, nil
}

func outline(sn *snapshot, f *ast.File) []protocol.DocumentSymbol {
	sym := func(name string, kind protocol.SymbolKind, r diag.Range, sel *ast.Ident, kids []protocol.DocumentSymbol) protocol.DocumentSymbol {
		selR := r
		if sel != nil {
			selR = sel.Range
		}
		return protocol.DocumentSymbol{Name: name, Kind: kind, Range: sn.rng(f.Name, r), SelectionRange: sn.rng(f.Name, selR), Children: kids}
	}
	var out []protocol.DocumentSymbol
	for _, d := range f.Decls {
		switch d := d.(type) {
		case *ast.Enum:
			var kids []protocol.DocumentSymbol
			for _, m := range d.Members {
				kids = append(kids, sym(m.Name, protocol.SymbolKindEnumMember, m.Range, m, nil))
			}
			out = append(out, sym(d.Name.Name, protocol.SymbolKindEnum, d.Range, d.Name, kids))
		case *ast.Entity:
			var kids []protocol.DocumentSymbol
			for _, fl := range d.Fields {
				if fl.Name != nil {
					kids = append(kids, sym(fl.Name.Name, protocol.SymbolKindField, fl.Range, fl.Name, nil))
				}
			}
			out = append(out, sym(d.Name.Name, protocol.SymbolKindClass, d.Range, d.Name, kids))
		case *ast.Workflow:
			var kids []protocol.DocumentSymbol
			for _, e := range d.Events {
				kids = append(kids, sym(e.Name.Name, protocol.SymbolKindEvent, e.Range, e.Name, nil))
			}
			for _, st := range d.States {
				kids = append(kids, sym(st.Name.Name, protocol.SymbolKindObject, st.Range, st.Name, stateOutline(sym, st)))
			}
			out = append(out, sym(d.Name.Name, protocol.SymbolKindModule, d.Range, d.Name, kids))
		case *ast.Test:
			// A test is a function-like unit named by a string; its
			// selection is the name, string quotes included.
			sel := &ast.Ident{Range: d.Name.Range, Name: d.Name.Value}
			out = append(out, sym("test "+strconv.Quote(d.Name.Value), protocol.SymbolKindFunction, d.Range, sel, nil))
		}
	}
	return out
}

type symFunc func(string, protocol.SymbolKind, diag.Range, *ast.Ident, []protocol.DocumentSymbol) protocol.DocumentSymbol

func stateOutline(sym symFunc, st *ast.State) []protocol.DocumentSymbol {
	var kids []protocol.DocumentSymbol
	for _, sub := range st.Subscribes {
		var ms []protocol.DocumentSymbol
		for _, m := range sub.Milestones {
			ms = append(ms, sym(m.Kind.Name, protocol.SymbolKindProperty, m.Range, m.Kind, nil))
		}
		kids = append(kids, sym("subscribe "+sub.Slot().Name, protocol.SymbolKindEvent, sub.Range, sub.Slot(), ms))
	}
	for _, h := range st.Handlers {
		kids = append(kids, sym("on "+h.Name.Name, protocol.SymbolKindMethod, h.Range, h.Name, nil))
	}
	return kids
}

// Symbols answers workspace/symbol: every declaration, state and event
// whose name holds the query's letters in order (case-insensitive).
func (s *Server) Symbols(ctx context.Context, p *protocol.WorkspaceSymbolParams) (protocol.WorkspaceSymbolResult, error) {
	sn, err := s.ck.snapshot(ctx)
	if err != nil {
		return nil, err
	}
	kinds := map[symKind]protocol.SymbolKind{
		kEnum: protocol.SymbolKindEnum, kMember: protocol.SymbolKindEnumMember, kEntity: protocol.SymbolKindClass,
		kField: protocol.SymbolKindField, kWorkflow: protocol.SymbolKindModule, kState: protocol.SymbolKindObject,
		kEvent: protocol.SymbolKindEvent, kAlias: protocol.SymbolKindVariable, kStep: protocol.SymbolKindFunction,
	}
	var defs []*occurrence
	sn.occurrences(func(o *occurrence) {
		if o.def {
			defs = append(defs, o)
		}
	})
	sn.sortOccurrences(defs)
	var out protocol.WorkspaceSymbolSlice
	for i, o := range defs {
		if err := cancelled(ctx, i); err != nil {
			return nil, err
		}
		short, container := o.sym.name, ""
		if o.sym.kind == kStep {
			container, short, _ = strings.Cut(o.sym.name, ".")
		} else if i := strings.LastIndexByte(short, '.'); i >= 0 {
			short, container = short[i+1:], short[:i]
		}
		if !fuzzy(p.Query, short) {
			continue
		}
		ws := protocol.WorkspaceSymbol{Location: ptrLoc(sn.location(o.file, o.rng))}
		ws.Name, ws.Kind = short, kinds[o.sym.kind]
		if container != "" {
			ws.ContainerName = &container
		}
		out = append(out, ws)
	}
	sort.SliceStable(out, func(i, j int) bool { return out[i].Name < out[j].Name })
	return out, nil
}

func ptrLoc(l protocol.Location) *protocol.Location { return &l }

// fuzzy reports whether the letters of q appear in name in order.
func fuzzy(q, name string) bool {
	q, name = strings.ToLower(q), strings.ToLower(name)
	for _, r := range q {
		i := strings.IndexRune(name, r)
		if i < 0 {
			return false
		}
		name = name[i+1:]
	}
	return true
}
