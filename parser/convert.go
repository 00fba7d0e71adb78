package parser

import (
	"strconv"

	plexer "github.com/alecthomas/participle/v2/lexer"

	"github.com/wfc-lang/wfc/ast"
	"github.com/wfc-lang/wfc/diag"
	"github.com/wfc-lang/wfc/lexer"
)

// Conversion from participle's grammar structs to package ast. Every
// function is nil-safe: on a parse error participle hands back a partial
// tree, and whatever parsed is kept.

func (cp *chunkParser) at(p plexer.Position) diag.Pos {
	return diag.MakePos(p.Line, p.Column, p.Offset)
}

// rng is the range from start to the end of the last token before endPos
// (participle's EndPos is where the next token starts).
func (cp *chunkParser) rng(start, endPos plexer.Position) diag.Range {
	s := cp.at(start)
	k := cp.indexAt(endPos.Offset) - 1
	if k < 0 || int(cp.toks[k].Off) < start.Offset {
		// Empty or partial node: cover its first token.
		if j := cp.indexAt(start.Offset); j < len(cp.toks) && cp.toks[j].Kind != lexer.EOF {
			return diag.Range{Start: s, End: cp.endOf(j)}
		}
		return diag.Range{Start: s, End: s}
	}
	return diag.Range{Start: s, End: cp.endOf(k)}
}

// tokAt returns the token starting at p.
func (cp *chunkParser) tokAt(p plexer.Position) (lexer.Token, int) {
	k := cp.indexAt(p.Offset)
	return cp.toks[k], k
}

func (cp *chunkParser) name(g *gName) *ast.Ident {
	if g == nil || g.Value == "" {
		return nil
	}
	_, k := cp.tokAt(g.Pos)
	return &ast.Ident{Range: cp.tokRange(k), Name: g.Value}
}

func (cp *chunkParser) convAttrs(lists []*gAttrList) []*ast.Attr {
	var out []*ast.Attr
	for _, l := range lists {
		if l == nil {
			continue
		}
		for _, a := range l.Attrs {
			if a == nil || a.Name == nil {
				continue
			}
			at := &ast.Attr{Range: cp.rng(a.Pos, a.EndPos), Name: cp.name(a.Name)}
			if a.Args != nil {
				at.HasArgs = true
				for _, e := range a.Args.List {
					if x := cp.convExpr(e); x != nil {
						at.Args = append(at.Args, x)
					}
				}
			}
			out = append(out, at)
		}
	}
	return out
}

func (cp *chunkParser) convEntity(g *gEntity, e *ast.Entity) {
	e.Attrs = cp.convAttrs(g.Attrs)
	for _, m := range g.Members {
		switch {
		case m == nil:
		case m.Security != nil:
			sec := &ast.Security{Range: cp.rng(m.Security.Pos, m.Security.EndPos)}
			for _, r := range m.Security.Rules {
				if r == nil || r.Kind == "" {
					continue
				}
				rule := &ast.Rule{Range: cp.rng(r.Pos, r.EndPos), Allow: r.Kind == "allow"}
				for _, op := range r.Ops {
					if id := cp.name(op); id != nil {
						rule.Ops = append(rule.Ops, id)
					}
				}
				if r.When != nil {
					rule.When = cp.convExpr(r.When)
				}
				sec.Rules = append(sec.Rules, rule)
			}
			e.Security = append(e.Security, sec)
		case m.Field != nil:
			f := m.Field
			if f.Type == nil || f.Name == nil {
				continue
			}
			e.Fields = append(e.Fields, &ast.Field{
				Range: cp.rng(f.Pos, f.EndPos), Attrs: cp.convAttrs(f.Attrs),
				Type: cp.convType(f.Type), Name: cp.name(f.Name),
			})
		}
	}
}

func (cp *chunkParser) convType(g *gType) *ast.TypeRef {
	if g == nil || g.Name == nil {
		return nil
	}
	return &ast.TypeRef{Range: cp.rng(g.Pos, g.EndPos), Name: cp.name(g.Name), Optional: g.Optional}
}

func (cp *chunkParser) convParams(g *gParams) *ast.Params {
	if g == nil {
		return nil
	}
	ps := &ast.Params{Range: cp.rng(g.Pos, g.EndPos)}
	for _, p := range g.List {
		if p == nil || p.Type == nil || p.Name == nil {
			continue
		}
		ps.List = append(ps.List, &ast.Param{Range: cp.rng(p.Pos, p.EndPos), Type: cp.convType(p.Type), Name: cp.name(p.Name)})
	}
	return ps
}

func (cp *chunkParser) convEvent(g *gEvent) *ast.Event {
	return &ast.Event{Range: cp.rng(g.Pos, g.EndPos), Name: cp.name(g.Name), Params: cp.convParams(g.Params)}
}

func (cp *chunkParser) convSetting(g *gSetting) *ast.Setting {
	return &ast.Setting{Range: cp.rng(g.Pos, g.EndPos), Name: cp.name(g.Name), Value: cp.convExpr(g.Value)}
}

func (cp *chunkParser) convSubscribe(g *gSubscribe) *ast.Subscribe {
	s := &ast.Subscribe{
		Range: cp.rng(g.Pos, g.EndPos), Event: cp.name(g.Event),
		Params: cp.convParams(g.Params), Alias: cp.name(g.Alias),
	}
	for _, m := range g.Milestones {
		if m == nil || m.Kind == nil {
			continue
		}
		s.Milestones = append(s.Milestones, cp.convMilestone(m))
	}
	return s
}

func (cp *chunkParser) convMilestone(m *gMilestone) *ast.Milestone {
	ms := &ast.Milestone{Range: cp.rng(m.Pos, m.EndPos), Kind: cp.name(m.Kind)}
	for _, it := range m.Items {
		cp.addMItem(ms, it)
	}
	return ms
}

// addMItem adds a milestone setting or outcome.
func (cp *chunkParser) addMItem(ms *ast.Milestone, it *gMItem) {
	if it == nil || it.Name == nil {
		return
	}
	if it.Body != nil {
		ms.Outcomes = append(ms.Outcomes, &ast.Outcome{Range: cp.rng(it.Pos, it.EndPos), Name: cp.name(it.Name), Body: cp.convBlock(it.Body)})
	} else {
		ms.Settings = append(ms.Settings, &ast.Setting{Range: cp.rng(it.Pos, it.EndPos), Name: cp.name(it.Name), Value: cp.convExpr(it.Value)})
	}
}

func (cp *chunkParser) convHandler(g *gHandler) *ast.Handler {
	return &ast.Handler{Range: cp.rng(g.Pos, g.EndPos), Name: cp.name(g.Name), Params: cp.convParams(g.Params), Body: cp.convBlock(g.Body)}
}

func (cp *chunkParser) convBlock(g *gBlock) *ast.Block {
	if g == nil {
		return nil
	}
	b := &ast.Block{Range: cp.rng(g.Pos, g.EndPos)}
	for _, s := range g.Stmts {
		if st := cp.convStmt(s); st != nil {
			b.Stmts = append(b.Stmts, st)
		} else if s != nil {
			b.Bad = true
		}
	}
	return b
}

func (cp *chunkParser) convStmt(g *gStmt) ast.Stmt {
	if g == nil {
		return nil
	}
	r := cp.rng(g.Pos, g.EndPos)
	switch {
	case g.Goto != nil:
		return &ast.Goto{Range: r, Target: cp.name(g.Goto)}
	case g.Default != nil:
		return &ast.Default{Range: r, Body: cp.convBlock(g.Default)}
	case g.Expr != nil:
		x := cp.convPostfix(g.Expr)
		if x == nil {
			return nil
		}
		if n, ok := x.(*ast.Name); ok && g.Body != nil {
			return &ast.Case{Range: r, Label: &ast.Ident{Range: n.Range, Name: n.Name}, Body: cp.convBlock(g.Body)}
		}
		call, ok := x.(*ast.Call)
		if !ok {
			// `x;` or `a.b { }`: a statement call must end in arguments.
			after := x.Rng().End
			if g.Body != nil {
				cp.syntax(diag.Range{Start: after, End: after}, "expected `(` after `"+ast.Compact(cp.file.Text(x.Rng()))+"`: a statement is `goto State;`, `default { … }`, a case `Member { … }` or a call such as `Mail.Send(…);`")
			} else {
				cp.syntax(x.Rng(), "`"+ast.Compact(cp.file.Text(x.Rng()))+"` is not a statement: write `goto State;`, `default { … }`, a case `Member { … }` or a call such as `Mail.Send(…);`")
			}
			return nil
		}
		cs := &ast.CallStmt{Range: r, Call: call}
		if g.Body != nil {
			cs.Body = cp.convBlock(g.Body)
		}
		return cs
	}
	return nil
}

// precedence of the binary operators (docs/language.md, Grammar).
func precedence(op string) int {
	switch op {
	case "||":
		return 1
	case "&&":
		return 2
	}
	return 3 // comparisons
}

func (cp *chunkParser) convExpr(g *gExpr) ast.Expr {
	if g == nil {
		return nil
	}
	left := cp.convUnary(g.Left)
	if left == nil {
		return nil
	}
	ops := make([]string, 0, len(g.Rest))
	operands := []ast.Expr{left}
	for _, b := range g.Rest {
		if b == nil {
			return nil
		}
		y := cp.convUnary(b.Right)
		if y == nil {
			return nil
		}
		ops = append(ops, b.Op)
		operands = append(operands, y)
	}
	// Precedence climbing over the flat list.
	k := 0
	var climb func(min int) ast.Expr
	climb = func(min int) ast.Expr {
		x := operands[k]
		for k < len(ops) && precedence(ops[k]) >= min {
			op := ops[k]
			p := precedence(op)
			k++
			next := p + 1 // left associative; comparisons do not chain
			y := climb(next)
			if p == 3 && k < len(ops) && precedence(ops[k]) == 3 {
				cp.syntax(y.Rng(), "comparisons do not chain: `a "+op+" b "+ops[k]+" c` needs `&&`, as in `a "+op+" b && b "+ops[k]+" c`")
			}
			x = &ast.Binary{Range: diag.Range{Start: x.Rng().Start, End: y.Rng().End}, Op: op, X: x, Y: y}
		}
		return x
	}
	return climb(1)
}

func (cp *chunkParser) convUnary(g *gUnary) ast.Expr {
	if g == nil {
		return nil
	}
	x := cp.convPostfix(g.Postfix)
	if x == nil || len(g.Ops) == 0 {
		return x
	}
	// The operators are the tokens from g.Pos on, one each.
	_, first := cp.tokAt(g.Pos)
	for i := len(g.Ops) - 1; i >= 0; i-- {
		x = &ast.Unary{Range: diag.Range{Start: cp.startOf(first + i), End: x.Rng().End}, Op: g.Ops[i], X: x}
	}
	return x
}

func (cp *chunkParser) convPostfix(g *gPostfix) ast.Expr {
	if g == nil {
		return nil
	}
	x := cp.convPrimary(g.Primary)
	if x == nil {
		return nil
	}
	for _, s := range g.Suffixes {
		switch {
		case s == nil:
			return nil
		case s.Sel != nil:
			sel := cp.name(s.Sel)
			if sel == nil {
				return nil
			}
			x = &ast.Selector{Range: diag.Range{Start: x.Rng().Start, End: sel.Range.End}, X: x, Sel: sel}
		case s.Args != nil:
			call := &ast.Call{Range: diag.Range{Start: x.Rng().Start, End: cp.rng(s.Args.Pos, s.Args.EndPos).End}, Fun: x, Lparen: cp.at(s.Args.Pos)}
			for _, a := range s.Args.List {
				arg := cp.convArg(a)
				if arg == nil {
					return nil
				}
				call.Args = append(call.Args, arg)
			}
			x = call
		default:
			return nil
		}
	}
	return x
}

func (cp *chunkParser) convArg(g *gArg) *ast.Arg {
	if g == nil {
		return nil
	}
	first := cp.convExpr(g.First)
	if first == nil {
		return nil
	}
	if g.Value == nil {
		return &ast.Arg{Range: first.Rng(), Value: first}
	}
	v := cp.convExpr(g.Value)
	if v == nil {
		return nil
	}
	n, ok := first.(*ast.Name)
	if !ok {
		cp.syntax(first.Rng(), "an argument label must be a plain name, as in `retry: …`; found `"+ast.Compact(cp.file.Text(first.Rng()))+"`")
		return &ast.Arg{Range: v.Rng(), Value: v}
	}
	return &ast.Arg{Range: diag.Range{Start: first.Rng().Start, End: v.Rng().End}, Label: &ast.Ident{Range: n.Range, Name: n.Name}, Value: v}
}

func (cp *chunkParser) convPrimary(g *gPrimary) ast.Expr {
	if g == nil {
		return nil
	}
	tok, k := cp.tokAt(g.Pos)
	r := cp.tokRange(k)
	switch {
	case g.Int != nil:
		v, _ := strconv.ParseInt(*g.Int, 10, 64)
		return &ast.IntLit{Range: r, Text: *g.Int, Value: v, Bad: tok.Bad}
	case g.Decimal != nil:
		return &ast.DecimalLit{Range: r, Text: *g.Decimal, Bad: tok.Bad}
	case g.String != nil:
		return &ast.StringLit{Range: r, Value: lexer.Unquote(*g.String), Bad: tok.Bad}
	case g.True:
		return &ast.BoolLit{Range: r, Value: true}
	case g.False:
		return &ast.BoolLit{Range: r, Value: false}
	case g.Name != nil:
		return &ast.Name{Range: r, Name: *g.Name}
	case g.Paren != nil:
		x := cp.convExpr(g.Paren)
		if x == nil {
			return nil
		}
		return &ast.Paren{Range: cp.rng(g.Pos, g.EndPos), X: x}
	}
	return nil
}
