package wfc

import (
	"slices"

	"github.com/wfc-lang/wfc/ast"
	"github.com/wfc-lang/wfc/diag"
)

// scopes answers, for an ignore comment and a warning code, where an error
// can hide that warning (docs/checker.md lists which errors hide what),
// by the code's scope in the catalogue:
//   - diag.ScopeConsumer (WF306, WF308, WF310–WF316): its milestone or step;
//   - diag.ScopeState (WF202–WF206): its state;
//   - diag.ScopeDecl (WF114, WF201, WF207…): its declaration.
//
// The intervals of each file are collected once, with one walk, when first
// asked for, so many ignores cost a binary search each.
type scopes struct {
	files map[string]*ast.File
	index map[string]*fileScopes
}

// fileScopes are a file's intervals by kind, each sorted by start; those of
// one kind do not overlap, except steps written inside steps (an error).
type fileScopes struct {
	decls, states, consumers []diag.Range
}

func newScopes(prog *ast.Program) *scopes {
	s := &scopes{files: map[string]*ast.File{}, index: map[string]*fileScopes{}}
	for _, f := range prog.Files {
		s.files[f.Name] = f
	}
	return s
}

// scope implements diag.SuppressOptions.Scope, from the code's scope in the
// catalogue (diag.ID.Scope).
func (s *scopes) scope(ig diag.Ignore, code diag.ID) (diag.Range, bool) {
	fs := s.of(ig.File)
	if fs == nil {
		return diag.Range{}, false
	}
	line := ig.TargetLine()
	sc := code.Scope()
	if sc == diag.ScopeConsumer {
		if r, ok := containing(fs.consumers, line); ok {
			return r, true
		}
	}
	if sc == diag.ScopeConsumer || sc == diag.ScopeState {
		if r, ok := containing(fs.states, line); ok {
			return r, true
		}
	}
	return containing(fs.decls, line)
}

func (s *scopes) of(name string) *fileScopes {
	if fs, ok := s.index[name]; ok {
		return fs
	}
	f := s.files[name]
	if f == nil {
		return nil
	}
	fs := &fileScopes{}
	for _, d := range f.Decls {
		fs.decls = append(fs.decls, diag.Range{Start: d.Pos(), End: d.End()})
		ast.Inspect(d, func(n ast.Node) bool {
			switch n.(type) {
			case *ast.State:
				fs.states = append(fs.states, diag.Range{Start: n.Pos(), End: n.End()})
			case *ast.Milestone, *ast.CallStmt:
				fs.consumers = append(fs.consumers, diag.Range{Start: n.Pos(), End: n.End()})
			case ast.Expr:
				return false // nothing below an expression is a scope
			}
			return true
		})
	}
	for _, rs := range [][]diag.Range{fs.decls, fs.states, fs.consumers} {
		slices.SortStableFunc(rs, func(a, b diag.Range) int { return int(a.Start.Offset - b.Start.Offset) })
	}
	s.index[name] = fs
	return fs
}

// containing returns the last interval starting at or before line, if it
// reaches line.
func containing(rs []diag.Range, line int32) (diag.Range, bool) {
	k, _ := slices.BinarySearchFunc(rs, line, func(r diag.Range, l int32) int {
		if r.Start.Line <= l {
			return -1
		}
		return 1
	})
	if k == 0 || rs[k-1].End.Line < line {
		return diag.Range{}, false
	}
	return rs[k-1], true
}
