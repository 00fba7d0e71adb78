package parser

import (
	"strings"

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

func (cp *chunkParser) name(g *name) *ast.Ident {
	if g == nil || g.Name == "" {
		return nil
	}
	return (*ast.Ident)(g)
}

func (cp *chunkParser) convAttrs(lists []*attrList) []*ast.Attr {
	var out []*ast.Attr
	for _, l := range lists {
		if l != nil {
			cp.soft(l.Soft)
			out = append(out, l.List...)
		}
	}
	return out
}

func (cp *chunkParser) convEntity(g *gEntity, e *ast.Entity) {
	// Appended, not assigned: salvageEntity converts member by member after
	// the attributes, and must not lose them (`[Principal]` feeds WF207).
	e.Attrs = append(e.Attrs, cp.convAttrs(g.Attrs)...)
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
					rule.When = cp.expr(r.When)
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

func (cp *chunkParser) convType(g *typeRef) *ast.TypeRef {
	if g == nil || g.Name == nil {
		return nil
	}
	return (*ast.TypeRef)(g)
}

func (cp *chunkParser) convParams(g *params) *ast.Params {
	if g == nil {
		return nil
	}
	cp.soft(g.Soft)
	return &g.Params
}

func (cp *chunkParser) convEvent(g *gEvent, r diag.Range) *ast.Event {
	return &ast.Event{Range: r, Name: cp.name(g.Name), Params: cp.convParams(g.Params)}
}

func (cp *chunkParser) convSetting(g *gSetting, r diag.Range) *ast.Setting {
	return &ast.Setting{Range: r, Name: cp.name(g.Name), Value: cp.expr(g.Value)}
}

func (cp *chunkParser) convSubscribe(g *gSubscribe, r diag.Range) *ast.Subscribe {
	s := &ast.Subscribe{
		Range: r, Event: cp.name(g.Event),
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
		ms.Settings = append(ms.Settings, &ast.Setting{Range: cp.rng(it.Pos, it.EndPos), Name: cp.name(it.Name), Value: cp.expr(it.Value)})
	}
}

func (cp *chunkParser) convHandler(g *gHandler, r diag.Range) *ast.Handler {
	return &ast.Handler{Range: r, Name: cp.name(g.Name), Params: cp.convParams(g.Params), Body: cp.convBlock(g.Body)}
}

func (cp *chunkParser) convBlock(g *gBlock) *ast.Block {
	if g == nil {
		return nil
	}
	b := &ast.Block{Range: cp.rng(g.Pos, g.EndPos)}
	chain := false // the statement before was an `if` (or its `else`)
	for _, s := range g.Stmts {
		if at, ok := cp.ifStatement(s); ok {
			// Another language's `if … else if … else`, where a handler
			// chooses by case: one report for the chain, and the block is
			// read as broken, so what the chain holds is not reported.
			if written := cp.src[cp.toks[at].Off:cp.toks[at].End]; !chain || written == "if" && !cp.afterElse(at) {
				if cp.afterElse(at) {
					written = "else if"
				}
				cp.syntax(cp.tokRange(at), "`"+written+"` is not a statement here: a handler chooses by its event's enum parameter, with a case per member (`Ok { … }`) and `default { … }` for the rest")
			}
			chain, b.Bad = true, true
			continue
		}
		chain = false
		if st := cp.convStmt(s); st != nil {
			b.Stmts = append(b.Stmts, st)
		} else if s != nil {
			b.Bad = true
		}
	}
	if b.Bad {
		cp.badBlocks++
	}
	return b
}

// ifStatement reports whether g is an `if (…) { … }` (or the `else { … }`,
// `else if`, `elif` that continue one, read as `if`: foreign.go), and the
// token of its head.
func (cp *chunkParser) ifStatement(g *gStmt) (int, bool) {
	if g == nil || g.Expr == nil || g.Body == nil {
		return 0, false
	}
	at := cp.indexAt(g.Pos.Offset)
	if at >= len(cp.toks)-1 || cp.kind(at) != lexer.Ident || cp.word(at) != "if" {
		return 0, false
	}
	return at, true
}

// afterElse reports whether the `if` at i was written `else if` (its
// `else` dropped in foreign.go).
func (cp *chunkParser) afterElse(i int) bool {
	src := strings.TrimRight(cp.src[:cp.toks[i].Off], " \t\r\n")
	return strings.HasSuffix(src, "else")
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
		x := cp.postfix(g.Expr)
		if x == nil {
			return nil
		}
		if n, ok := x.(*ast.Name); ok && g.Body != nil {
			if g.Catch != nil {
				k := cp.at(g.Catch.Pos)
				cp.syntax(diag.Range{Start: k, End: diag.Pos{Line: k.Line, Column: k.Column + 5, Offset: k.Offset + 5}},
					"`catch` follows a durable step's block (`Workflow.Once(\"name\", …) { … } catch { … }`), not a case's")
			}
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
		if g.Catch != nil {
			cs.Catch = cp.convCatch(g.Catch)
		}
		return cs
	}
	return nil
}

// convCatch converts `catch { cases }`: each case is `default { … }` or a
// label, a name or `Enum.Member`, and its block.
func (cp *chunkParser) convCatch(g *gCatch) *ast.Catch {
	k := cp.at(g.Pos)
	c := &ast.Catch{Range: cp.rng(g.Pos, g.EndPos),
		Keyword: diag.Range{Start: k, End: diag.Pos{Line: k.Line, Column: k.Column + 5, Offset: k.Offset + 5}}}
	for _, gc := range g.Cases {
		if gc == nil {
			continue
		}
		r := cp.rng(gc.Pos, gc.EndPos)
		if gc.Default != nil {
			c.Cases = append(c.Cases, &ast.CatchCase{Range: r, Default: true, Body: cp.convBlock(gc.Default)})
			continue
		}
		x := cp.postfix(gc.Label)
		if x == nil {
			c.Bad = true
			continue
		}
		if !catchLabel(x) {
			cp.syntax(x.Rng(), "a catch's case is a reason (`Exhausted { … }`), an error kind (`Declined { … }` or `ChargeError.Declined { … }`) or `default { … }`; found `"+ast.Compact(cp.file.Text(x.Rng()))+"`")
			c.Bad = true
			continue
		}
		c.Cases = append(c.Cases, &ast.CatchCase{Range: r, Label: x, Body: cp.convBlock(gc.Body)})
	}
	return c
}

// catchLabel reports whether x can label a catch's case: a name, or a
// name's member (`ChargeError.Declined`).
func catchLabel(x ast.Expr) bool {
	switch x := x.(type) {
	case *ast.Name:
		return true
	case *ast.Selector:
		_, ok := x.X.(*ast.Name)
		return ok && x.Sel != nil
	}
	return false
}

// expr reports what the expression parser noticed without stopping and
// returns the expression (nil when absent or failed).
func (cp *chunkParser) expr(g *expr) ast.Expr {
	if g == nil {
		return nil
	}
	cp.soft(g.Soft)
	return g.X
}

func (cp *chunkParser) postfix(g *postfix) ast.Expr {
	if g == nil {
		return nil
	}
	cp.soft(g.Soft)
	return g.X
}

func (cp *chunkParser) soft(es []softError) {
	for _, e := range es {
		msg := e.Msg
		if e.Quote {
			msg += "`" + ast.Compact(cp.file.Text(e.Range)) + "`"
		}
		if e.Fix == "" && e.FixRange == (diag.Range{}) {
			cp.syntax(e.Range, msg)
			continue
		}
		if cp.reportable(e.Range) {
			d := cp.diags.Add(cp.file.Name, e.Range, diag.WF001, msg)
			at := e.Range
			if e.FixRange != (diag.Range{}) {
				at = e.FixRange
			}
			title := "write `" + e.Fix + "`"
			if e.Fix == "" {
				title = "remove `" + ast.Compact(cp.file.Text(at)) + "`"
			}
			d.Fixes = []diag.Fix{{Title: title, MachineApplicable: true,
				Edits: []diag.Edit{{File: cp.file.Name, Range: at, NewText: e.Fix}}}}
		}
	}
}
