package lsp

import (
	"context"
	"slices"
	"strings"

	"github.com/wfc-lang/wfc/diag"
	"github.com/wfc-lang/wfc/lsp/protocol"
)

// toDiagnostics converts one file's diagnostics.
func (s *Server) toDiagnostics(sn *snapshot, ds []diag.Diagnostic) []protocol.Diagnostic {
	out, _ := s.toDiagnosticsCtx(context.Background(), sn, ds)
	return out
}

// toDiagnosticsCtx is toDiagnostics for a request, which may be cancelled.
func (s *Server) toDiagnosticsCtx(ctx context.Context, sn *snapshot, ds []diag.Diagnostic) ([]protocol.Diagnostic, error) {
	out := make([]protocol.Diagnostic, 0, len(ds))
	for i, d := range ds {
		if err := cancelled(ctx, i); err != nil {
			return nil, err
		}
		out = append(out, s.toDiagnostic(sn, d))
	}
	return out, nil
}

// checkEvery is how many items a long loop of a request handles between
// two looks at its context, so $/cancelRequest stops it midway.
const checkEvery = 256

// cancelled is the request's error once it is cancelled, looked at every
// checkEvery items.
func cancelled(ctx context.Context, i int) error {
	if i%checkEvery == 0 {
		return ctx.Err()
	}
	return nil
}

func (s *Server) toDiagnostic(sn *snapshot, d diag.Diagnostic) protocol.Diagnostic {
	sev := protocol.DiagnosticSeverityError
	if d.Severity == diag.Warning {
		sev = protocol.DiagnosticSeverityWarning
	}
	pd := protocol.Diagnostic{
		Range:    sn.rng(d.File, d.Range),
		Severity: sev,
		Source:   protocol.NewOptional("wfc"),
		Message:  protocol.String(d.Message),
	}
	if d.Code != "" {
		pd.Code = protocol.String(d.Code)
		if _, ok := diag.Lookup(d.Code); ok {
			pd.CodeDescription = protocol.CodeDescription{Href: protocol.URI(s.opt.DocsBase + "#" + strings.ToLower(string(d.Code)))}
		}
	}
	for _, r := range d.Related {
		pd.RelatedInformation = append(pd.RelatedInformation, protocol.DiagnosticRelatedInformation{
			Location: sn.location(r.File, r.Range),
			Message:  r.Message,
		})
	}
	return pd
}

// span finds the document of uri and converts r into byte offsets in it.
// A document the server does not know gives ok false and no error; a range
// that is not in the document is an InvalidParams error.
func (sn *snapshot) span(uri protocol.URI, r protocol.Range) (name string, lo, hi int, ok bool, err error) {
	name = nameOf(uri)
	t := sn.texts[name]
	if t == nil {
		return name, 0, 0, false, nil
	}
	lo, err1 := t.offset(r.Start, sn.enc)
	hi, err2 := t.offset(r.End, sn.enc)
	if err1 != nil || err2 != nil {
		return name, 0, 0, false, protocol.Errorf(protocol.CodeInvalidParams, "wfc lsp: range %v is not in the file", r)
	}
	return name, lo, hi, true, nil
}

// rng converts a range of file name into the client's encoding.
func (sn *snapshot) rng(name string, r diag.Range) protocol.Range {
	if t := sn.texts[name]; t != nil {
		return t.rng(r, sn.enc)
	}
	return protocol.Range{}
}

func (sn *snapshot) location(name string, r diag.Range) protocol.Location {
	return protocol.Location{URI: sn.uriOf(name), Range: sn.rng(name, r)}
}

func (sn *snapshot) uriOf(name string) protocol.URI {
	if u, ok := sn.uris[name]; ok {
		return u
	}
	return protocol.FileURI(name)
}

// Diagnostic answers a pull-diagnostics request with the file's full report.
func (s *Server) Diagnostic(ctx context.Context, p *protocol.DocumentDiagnosticParams) (protocol.DocumentDiagnosticReport, error) {
	sn, err := s.ck.snapshot(ctx)
	if err != nil {
		return nil, err
	}
	items, err := s.toDiagnosticsCtx(ctx, sn, sn.byFile[nameOf(p.TextDocument.URI)])
	if err != nil {
		return nil, err
	}
	return &protocol.RelatedFullDocumentDiagnosticReport{
		FullDocumentDiagnosticReport: protocol.FullDocumentDiagnosticReport{Kind: "full", Items: items},
	}, nil
}

// CodeAction offers every fix of every diagnostic touching the range as a
// quickfix (the machine-applicable one preferred) and, when asked for
// source actions, source.fixAll.wfc: every machine-applicable fix of the file.
func (s *Server) CodeAction(ctx context.Context, p *protocol.CodeActionParams) ([]protocol.CommandOrCodeAction, error) {
	sn, err := s.ck.snapshot(ctx)
	if err != nil {
		return nil, err
	}
	name, lo, hi, ok, err := sn.span(p.TextDocument.URI, p.Range)
	if !ok {
		return nil, err
	}
	want := func(k protocol.CodeActionKind) bool {
		if len(p.Context.Only) == 0 {
			return k == protocol.CodeActionKindQuickFix
		}
		for _, o := range p.Context.Only {
			if k == o || strings.HasPrefix(string(k), string(o)+".") {
				return true
			}
		}
		return false
	}
	var out []protocol.CommandOrCodeAction
	if want(protocol.CodeActionKindQuickFix) {
		for i, d := range sn.byFile[name] {
			if err := cancelled(ctx, i); err != nil {
				return nil, err
			}
			if int(d.Range.End.Offset) < lo || int(d.Range.Start.Offset) > hi {
				continue
			}
			for _, f := range d.Fixes {
				out = append(out, s.quickFix(sn, d, f))
			}
		}
	}
	if want(FixAllKind) {
		if a := s.fixAll(sn, name); a != nil {
			out = append(out, a)
		}
	}
	return out, nil
}

func (s *Server) quickFix(sn *snapshot, d diag.Diagnostic, f diag.Fix) *protocol.CodeAction {
	kind := protocol.CodeActionKindQuickFix
	a := &protocol.CodeAction{
		Title:       f.Title,
		Kind:        &kind,
		Diagnostics: []protocol.Diagnostic{s.toDiagnostic(sn, d)},
		Edit:        sn.workspaceEdit(f.Edits),
	}
	if f.MachineApplicable {
		yes := true
		a.IsPreferred = &yes
	}
	return a
}

// fixAll gathers the machine-applicable fixes of a file, skipping any fix
// that overlaps one already taken (as `wfc check --fix` does in one round).
func (s *Server) fixAll(sn *snapshot, name string) *protocol.CodeAction {
	var edits []diag.Edit
	for _, d := range sn.byFile[name] {
		for _, f := range d.Fixes {
			if !f.MachineApplicable || overlaps(edits, f.Edits) {
				continue
			}
			edits = append(edits, f.Edits...)
		}
	}
	if len(edits) == 0 {
		return nil
	}
	kind := FixAllKind
	return &protocol.CodeAction{Title: "Apply every machine-applicable wfc fix", Kind: &kind, Edit: sn.workspaceEdit(edits)}
}

func overlaps(have, add []diag.Edit) bool {
	for _, a := range add {
		for _, h := range have {
			if a.File == h.File && a.Range.Start.Offset < h.Range.End.Offset && h.Range.Start.Offset < a.Range.End.Offset {
				return true
			}
			if a.File == h.File && a.Range.Start.Offset == h.Range.Start.Offset {
				return true
			}
		}
	}
	return false
}

// workspaceEdit converts edits (possibly in several files) into one edit.
func (sn *snapshot) workspaceEdit(es []diag.Edit) *protocol.WorkspaceEdit {
	changes := map[protocol.URI][]protocol.TextEdit{}
	for _, e := range es {
		u := sn.uriOf(e.File)
		changes[u] = append(changes[u], protocol.TextEdit{Range: sn.rng(e.File, e.Range), NewText: e.NewText})
	}
	for u := range changes {
		slices.SortStableFunc(changes[u], func(a, b protocol.TextEdit) int {
			if a.Range.Start.Line != b.Range.Start.Line {
				return int(a.Range.Start.Line) - int(b.Range.Start.Line)
			}
			return int(a.Range.Start.Character) - int(b.Range.Start.Character)
		})
	}
	return &protocol.WorkspaceEdit{Changes: changes}
}
