package parser

import (
	"strconv"

	"github.com/wfc-lang/wfc/ast"
	"github.com/wfc-lang/wfc/diag"
	"github.com/wfc-lang/wfc/lexer"
)

// parseTest parses `test "name" { items }` (docs/language.md, "Tests"): the
// shell by hand, like a workflow's, and each item with participle.
func (cp *chunkParser) parseTest(s span) ast.Decl {
	t := &ast.Test{File: cp.file, Range: cp.spanRange(s.lo, s.hi), Keyword: cp.tokRange(s.lo)}
	nt := cp.toks[s.lo+1]
	t.Name = &ast.StringLit{Range: cp.tokRange(s.lo + 1), Value: lexer.Unquote(cp.src[nt.Off:nt.End])}
	head := "test " + diag.Shorten(cp.text(s.lo+1))
	what := "test " + strconv.Quote(diag.Shorten(t.Name.Value))
	closeAt := cp.body(s.lo+2, s.hi, head, nil, what,
		"after the end of "+what+": expected "+prodDecl.want(),
		func(m span) { cp.parseTestItem(t, m) })
	if closeAt < 0 {
		t.Bad = true
	} else {
		t.Range = cp.spanRange(s.lo, closeAt+1)
	}
	return t
}

// parseTestItem parses one item of a test: `Name = value;` or `Call(…);`.
func (cp *chunkParser) parseTestItem(t *ast.Test, m span) {
	if !cp.checkNesting(m) {
		t.Bad = true
		return
	}
	g, err := parsePiece(cp, getParsers().testItem.get(), m)
	if err != nil {
		p := prodTestItem
		if cp.kind(m.lo) == lexer.Ident && m.lo+1 < m.hi && cp.isPunct(m.lo+1, "=") {
			p = prodSetting
		}
		cp.reportParse(err, m, p)
		t.Bad = true
		return
	}
	r := cp.rng(g.Pos, g.EndPos)
	x := cp.postfix(g.Expr)
	if x == nil {
		t.Bad = true
		return
	}
	if g.Value != nil {
		n, ok := x.(*ast.Name)
		if !ok {
			cp.syntax(x.Rng(), "expected a setting's name before `=`, found `"+ast.Compact(cp.file.Text(x.Rng()))+"`: a test's setting is `Workflow = Name;`")
			t.Bad = true
			return
		}
		t.Settings = append(t.Settings, &ast.Setting{Range: r, Name: &ast.Ident{Range: n.Range, Name: n.Name}, Value: cp.expr(g.Value)})
		return
	}
	call, ok := x.(*ast.Call)
	if !ok {
		cp.syntax(x.Rng(), "`"+ast.Compact(cp.file.Text(x.Rng()))+"` is not a test item: write `Workflow = Name;`, an action such as `Send(Event(), at: TimeSpan.FromMinutes(1));` or an expectation such as `Expect.State(S, at: …);`")
		t.Bad = true
		return
	}
	t.Stmts = append(t.Stmts, &ast.CallStmt{Range: r, Call: call})
}
