package parser

import (
	"github.com/alecthomas/participle/v2"
	plexer "github.com/alecthomas/participle/v2/lexer"

	"github.com/wfc-lang/wfc/ast"
	"github.com/wfc-lang/wfc/diag"
	"github.com/wfc-lang/wfc/lexer"
)

// Leaves of the grammar read by hand, like expressions (expr.go): a type,
// a parameter list, an attribute list and an enum's members. Each is a participle Parseable
// whose value is the ast node itself, so none of them is written twice
// (once as a grammar struct, once as an ast type), and each reports what it
// expected where it knows it.

// typeRef is `Name` or `Name?`.
type typeRef ast.TypeRef

// Parse implements participle.Parseable.
func (t *typeRef) Parse(lex *plexer.PeekingLexer) error {
	p := exprParser{lex: lex}
	if !p.isKind(lex.Peek(), lexer.Ident) {
		return participle.NextMatch
	}
	*t = typeRef(*p.typeRef())
	return nil
}

func (p *exprParser) typeRef() *ast.TypeRef {
	n := ident(p.next())
	tr := &ast.TypeRef{Range: n.Range, Name: n}
	if p.isPunct(p.lex.Peek(), "?") {
		tr.Optional = true
		tr.Range.End = end(p.next())
	}
	return tr
}

// params is `(Type name, …)`, with what the parser noticed without
// stopping: another language's parameter (TypeScript's `name: Type`, a
// trailing comma), read as meant.
type params struct {
	ast.Params
	Soft []softError
}

// Parse implements participle.Parseable.
func (ps *params) Parse(lex *plexer.PeekingLexer) error {
	p := exprParser{lex: lex}
	if !p.isPunct(lex.Peek(), "(") {
		return participle.NextMatch
	}
	lp := p.next()
	ps.Range.Start = start(lp)
	defer func() { ps.Soft = p.soft }()
	for !p.isPunct(lex.Peek(), ")") {
		if len(ps.List) > 0 {
			if !p.isPunct(lex.Peek(), ",") {
				return p.fail("`,` or `)`")
			}
			comma := p.next()
			if p.isPunct(lex.Peek(), ")") {
				r := diag.Range{Start: start(comma), End: end(comma)}
				p.soft = append(p.soft, softError{Range: r, Fix: "",
					Msg:      "a parameter list ends with its last parameter: remove this `,` (as in C#, where only an enum's members may end with one)",
					FixRange: r})
				break
			}
		}
		if !p.isKind(lex.Peek(), lexer.Ident) {
			return p.fail("a parameter (`Type name`) or `)`")
		}
		tr := p.typeRef()
		if !tr.Optional && p.isPunct(lex.Peek(), ":") {
			ps.List = append(ps.List, p.typeScriptParam(tr.Name))
			if ps.List[len(ps.List)-1] == nil {
				return p.fail("the parameter's type")
			}
			continue
		}
		if !p.isKind(lex.Peek(), lexer.Ident) {
			return &expectError{at: *lex.Peek(), want: "a name", after: "the type `" + tr.Name.Name + "`"}
		}
		n := ident(p.next())
		ps.List = append(ps.List, &ast.Param{Range: diag.Range{Start: tr.Range.Start, End: n.End()}, Type: tr, Name: n})
	}
	ps.Range.End = end(p.next())
	return nil
}

// typeScriptParam reads TypeScript's `name: Type` after its name, as the
// parameter `Type name`, reported once with the fix that writes it so.
func (p *exprParser) typeScriptParam(name *ast.Ident) *ast.Param {
	p.next() // `:`
	if !p.isKind(p.lex.Peek(), lexer.Ident) {
		return nil
	}
	tr := p.typeRef()
	r := diag.Range{Start: name.Pos(), End: tr.End()}
	typ := tr.Name.Name
	if tr.Optional {
		typ += "?"
	}
	written := typ + " " + name.Name
	p.soft = append(p.soft, softError{Range: r, Fix: written,
		Msg: "`" + name.Name + ": " + typ + "` is TypeScript's order: a parameter is written type first, as in C#, `" + written + "`"})
	return &ast.Param{Range: r, Type: tr, Name: name}
}

// attrList is `[Name, Name(args), …]`.
type attrList struct {
	List []*ast.Attr
	Soft []softError
}

// Parse implements participle.Parseable.
func (l *attrList) Parse(lex *plexer.PeekingLexer) error {
	p := exprParser{lex: lex}
	if !p.isPunct(lex.Peek(), "[") {
		return participle.NextMatch
	}
	p.next()
	for {
		if !p.isKind(lex.Peek(), lexer.Ident) {
			return p.fail("an attribute name")
		}
		a, err := p.attr()
		if a != nil {
			l.List = append(l.List, a)
		}
		l.Soft = p.soft
		if err != nil {
			return err
		}
		if p.isPunct(lex.Peek(), "]") {
			p.next()
			return nil
		}
		if !p.isPunct(lex.Peek(), ",") {
			return p.fail("`,` or `]`")
		}
		p.next()
	}
}

// attr is one attribute: a name, with arguments or without.
func (p *exprParser) attr() (*ast.Attr, error) {
	n := ident(p.next())
	a := &ast.Attr{Range: n.Range, Name: n}
	if !p.isPunct(p.lex.Peek(), "(") {
		return a, nil
	}
	a.HasArgs = true
	p.next()
	for !p.isPunct(p.lex.Peek(), ")") {
		if len(a.Args) > 0 {
			if !p.isPunct(p.lex.Peek(), ",") {
				return nil, p.fail("`,` or `)`")
			}
			p.next()
		}
		if !p.startsValue() {
			return nil, p.fail("a value")
		}
		x, err := p.binary(1)
		if err != nil {
			return nil, err
		}
		a.Args = append(a.Args, x)
	}
	a.Range.End = end(p.next())
	return a, nil
}

// enumMembers is an enum's members, `A, B, C`: what the grammar wrote
// `( name ( ',' name? )* )?`, so a trailing comma needs no backtracking
// and `A, , B` parses (parseEnum reports the empty member). It always
// matches, possibly nothing, and stops at the first token that does not go
// on with the list, as that grammar did, so the `}` after it fails where
// it failed. Each name was a participle node of its own: a capture, a
// branch per `,`, a copy of the name.
type enumMembers struct {
	List []*ast.Ident
}

// Parse implements participle.Parseable.
func (m *enumMembers) Parse(lex *plexer.PeekingLexer) error {
	isName := func() bool { return lex.Peek().Type == lexer.TokenType(lexer.Ident) }
	if !isName() {
		return nil
	}
	m.List = append(m.List, ident(*lex.Next()))
	for p := lex.Peek(); p.Type == lexer.TokenType(lexer.Punct) && p.Value == ","; p = lex.Peek() {
		lex.Next()
		if isName() {
			m.List = append(m.List, ident(*lex.Next()))
		}
	}
	return nil
}
