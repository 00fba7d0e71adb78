package ast

import (
	"strings"

	"github.com/wfc-lang/wfc/diag"
)

// Expr is an expression node.
type Expr interface {
	Node
	exprNode()
	Rng() diag.Range
}

// IntLit is an integer literal. Bad literals (out of range) were reported
// by the lexer (WF004) and must not be complained about again.
type IntLit struct {
	Range diag.Range
	Text  string
	Value int64
	Bad   bool
}

func (n *IntLit) Pos() diag.Pos { return n.Range.Start }
func (n *IntLit) End() diag.Pos { return n.Range.End }

// DecimalLit is a decimal literal such as `0.2`.
type DecimalLit struct {
	Range diag.Range
	Text  string
	Bad   bool
}

func (n *DecimalLit) Pos() diag.Pos { return n.Range.Start }
func (n *DecimalLit) End() diag.Pos { return n.Range.End }

// StringLit is a string literal; Value is unquoted.
type StringLit struct {
	Range diag.Range
	Value string
	Bad   bool
}

func (n *StringLit) Pos() diag.Pos { return n.Range.Start }
func (n *StringLit) End() diag.Pos { return n.Range.End }

// BoolLit is `true` or `false`.
type BoolLit struct {
	Range diag.Range
	Value bool
}

func (n *BoolLit) Pos() diag.Pos { return n.Range.Start }
func (n *BoolLit) End() diag.Pos { return n.Range.End }

// Name is an identifier used as an expression.
type Name struct {
	Range diag.Range
	Name  string
}

func (n *Name) Pos() diag.Pos { return n.Range.Start }
func (n *Name) End() diag.Pos { return n.Range.End }

// Selector is `X.Sel`.
type Selector struct {
	Range diag.Range
	X     Expr
	Sel   *Ident
}

func (n *Selector) Pos() diag.Pos { return n.Range.Start }
func (n *Selector) End() diag.Pos { return n.Range.End }
func (n *Selector) children(c *children) {
	c.add(n.X)
	c.add(n.Sel)
}

// Call is `Fun(args)`. Lparen and Rparen are the positions of the parentheses.
type Call struct {
	Range  diag.Range
	Fun    Expr
	Args   []*Arg
	Lparen diag.Pos
}

func (n *Call) Pos() diag.Pos { return n.Range.Start }
func (n *Call) End() diag.Pos { return n.Range.End }
func (n *Call) children(c *children) {
	c.add(n.Fun)
	addAll(c, n.Args)
}

// Arg is `[Label:] Value`.
type Arg struct {
	Range diag.Range
	Label *Ident // nil when unlabelled
	Value Expr
}

func (n *Arg) Pos() diag.Pos { return n.Range.Start }
func (n *Arg) End() diag.Pos { return n.Range.End }
func (n *Arg) children(c *children) {
	c.add(n.Label)
	c.add(n.Value)
}

// Unary is `!X` or `-X`.
type Unary struct {
	Range diag.Range
	Op    string
	X     Expr
}

func (n *Unary) Pos() diag.Pos { return n.Range.Start }
func (n *Unary) End() diag.Pos { return n.Range.End }
func (n *Unary) children(c *children) {
	c.add(n.X)
}

// Binary is `X op Y`.
type Binary struct {
	Range diag.Range
	Op    string
	X, Y  Expr
}

func (n *Binary) Pos() diag.Pos { return n.Range.Start }
func (n *Binary) End() diag.Pos { return n.Range.End }
func (n *Binary) children(c *children) {
	c.add(n.X)
	c.add(n.Y)
}

// Paren is `(X)`.
type Paren struct {
	Range diag.Range
	X     Expr
}

func (n *Paren) Pos() diag.Pos { return n.Range.Start }
func (n *Paren) End() diag.Pos { return n.Range.End }
func (n *Paren) children(c *children) {
	c.add(n.X)
}

func (*IntLit) exprNode()     {}
func (*DecimalLit) exprNode() {}
func (*StringLit) exprNode()  {}
func (*BoolLit) exprNode()    {}
func (*Name) exprNode()       {}
func (*Selector) exprNode()   {}
func (*Call) exprNode()       {}
func (*Unary) exprNode()      {}
func (*Binary) exprNode()     {}
func (*Paren) exprNode()      {}

func (e *IntLit) Rng() diag.Range     { return e.Range }
func (e *DecimalLit) Rng() diag.Range { return e.Range }
func (e *StringLit) Rng() diag.Range  { return e.Range }
func (e *BoolLit) Rng() diag.Range    { return e.Range }
func (e *Name) Rng() diag.Range       { return e.Range }
func (e *Selector) Rng() diag.Range   { return e.Range }
func (e *Call) Rng() diag.Range       { return e.Range }
func (e *Unary) Rng() diag.Range      { return e.Range }
func (e *Binary) Rng() diag.Range     { return e.Range }
func (e *Paren) Rng() diag.Range      { return e.Range }

// DottedName returns `A.B.C` for a chain of names and selectors, and false
// for anything else.
func DottedName(e Expr) (string, bool) {
	switch e := e.(type) {
	case *Name:
		return e.Name, true
	case *Selector:
		x, ok := DottedName(e.X)
		if !ok {
			return "", false
		}
		return x + "." + e.Sel.Name, true
	}
	return "", false
}

// Unparen strips parentheses.
func Unparen(e Expr) Expr {
	for {
		p, ok := e.(*Paren)
		if !ok {
			return e
		}
		e = p.X
	}
}

// HasBad reports whether e contains a literal already reported as malformed,
// so type checks can stay quiet about it (one root cause, one diagnostic).
func HasBad(e Expr) bool {
	switch e := e.(type) {
	case nil:
		return true
	case *IntLit:
		return e.Bad
	case *DecimalLit:
		return e.Bad
	case *StringLit:
		return e.Bad
	case *Selector:
		return HasBad(e.X)
	case *Call:
		if HasBad(e.Fun) {
			return true
		}
		for _, a := range e.Args {
			if HasBad(a.Value) {
				return true
			}
		}
	case *Unary:
		return HasBad(e.X)
	case *Binary:
		return HasBad(e.X) || HasBad(e.Y)
	case *Paren:
		return HasBad(e.X)
	}
	return false
}

// Text returns the source text of a range of file f.
func (f *File) Text(r diag.Range) string {
	if r.Start.Offset < 0 || int(r.End.Offset) > len(f.Src) || r.Start.Offset > r.End.Offset {
		return ""
	}
	return f.Src[r.Start.Offset:r.End.Offset]
}

// Compact returns s with runs of white space folded to one space, for quoting
// source in messages.
func Compact(s string) string { return strings.Join(strings.Fields(s), " ") }
