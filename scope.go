package wfc

import (
	"slices"

	"github.com/wfc-lang/wfc/ast"
	"github.com/wfc-lang/wfc/diag"
)

// fileScopes answer, for an ignore comment of one file and a warning code,
// where an error can hide that warning (docs/checker.md lists which errors
// hide what), by the code's scope in the catalogue:
//   - diag.ScopeConsumer (WF306, WF308, WF310–WF316): its milestone or step;
//   - diag.ScopeState (WF202–WF206): its state;
//   - diag.ScopeDecl (WF114, WF201, WF207…): its declaration.
//
// The intervals are collected with one walk of the file, and only for a
// file with ignore comments (the others never ask); the cache keeps them
// with the file's summary, so a file known from the cache alone needs no
// tree. Those of one kind are sorted by start and do not overlap, except
// steps written inside steps (an error).
type fileScopes struct {
	Decls, States, Consumers []diag.Range
}

// scopesOf collects f's intervals.
func scopesOf(f *ast.File) *fileScopes {
	fs := &fileScopes{}
	for _, d := range f.Decls {
		fs.Decls = append(fs.Decls, diag.Range{Start: d.Pos(), End: d.End()})
		ast.Inspect(d, func(n ast.Node) bool {
			switch n.(type) {
			case *ast.State:
				fs.States = append(fs.States, diag.Range{Start: n.Pos(), End: n.End()})
			case *ast.Milestone, *ast.CallStmt:
				fs.Consumers = append(fs.Consumers, diag.Range{Start: n.Pos(), End: n.End()})
			case ast.Expr:
				return false // nothing below an expression is a scope
			}
			return true
		})
	}
	for _, rs := range [][]diag.Range{fs.Decls, fs.States, fs.Consumers} {
		slices.SortStableFunc(rs, func(a, b diag.Range) int { return int(a.Start.Offset - b.Start.Offset) })
	}
	return fs
}

// scope implements diag.SuppressOptions.Scope, from the code's scope in the
// catalogue (diag.ID.Scope).
func (fs *fileScopes) scope(ig diag.Ignore, code diag.ID) (diag.Range, bool) {
	if fs == nil {
		return diag.Range{}, false
	}
	line := ig.TargetLine()
	sc := code.Scope()
	if sc == diag.ScopeConsumer {
		if r, ok := containing(fs.Consumers, line); ok {
			return r, true
		}
	}
	if sc == diag.ScopeConsumer || sc == diag.ScopeState {
		if r, ok := containing(fs.States, line); ok {
			return r, true
		}
	}
	return containing(fs.Decls, line)
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
