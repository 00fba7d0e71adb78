package parser

import (
	"strconv"
	"strings"
	"unicode/utf8"

	"github.com/alecthomas/participle/v2"
	plexer "github.com/alecthomas/participle/v2/lexer"

	"github.com/wfc-lang/wfc/ast"
	"github.com/wfc-lang/wfc/check/timespan"
	"github.com/wfc-lang/wfc/check/vocab"
	"github.com/wfc-lang/wfc/diag"
	"github.com/wfc-lang/wfc/lexer"
)

// Expressions (values of settings, conditions, the `Backoff…` and
// `TimeSpan…` chains, calls in statements) are parsed by hand inside the
// grammar: expr and postfix are participle Parseable nodes that build
// package ast's expressions directly. Expressions are where participle's
// cost per token is highest (a struct and a branch per precedence level and
// per suffix), and where a hand parser knows exactly what it expected, so
// its errors carry their message (expectError).

// expr is a full expression: binary operators with the grammar's precedence
// (`||` < `&&` < comparisons, which do not chain), prefix `!` and `-`,
// selectors, calls and literals.
type expr struct {
	X    ast.Expr
	Soft []softError // reported by the caller; the tree is still built
}

// postfix is a name with selectors and calls: what a statement starts with.
type postfix struct {
	X    ast.Expr
	Soft []softError
}

// softError is a mistake the expression parser reports without stopping.
// With Quote, the message ends with the source text of Range.
type softError struct {
	Range diag.Range
	Msg   string
	Quote bool
	// Fix, when set, replaces Range (or FixRange, when that is set): a
	// machine-applicable fix.
	Fix      string
	FixRange diag.Range
}

// expectError is a syntax error whose expectation is known where it arises.
type expectError struct {
	at    plexer.Token // the unexpected token
	want  string       // what was expected there
	after string       // the token it follows, quoted
}

func (e *expectError) Error() string             { return e.Message() }
func (e *expectError) Position() plexer.Position { return e.at.Pos }
func (e *expectError) Message() string           { return "expected " + e.want + " after " + e.after }

// Parse implements participle.Parseable. It declines (NextMatch) when the
// first token cannot start an expression, so optional and repeated
// expressions work as grammar nodes.
func (e *expr) Parse(lex *plexer.PeekingLexer) error {
	p := exprParser{lex: lex}
	if !p.startsValue() {
		return participle.NextMatch
	}
	x, err := p.binary(1)
	e.X, e.Soft = x, p.soft
	return err
}

// Parse implements participle.Parseable.
func (e *postfix) Parse(lex *plexer.PeekingLexer) error {
	p := exprParser{lex: lex}
	if !p.isKind(p.lex.Peek(), lexer.Ident) {
		return participle.NextMatch
	}
	x, err := p.postfix()
	e.X, e.Soft = x, p.soft
	return err
}

// exprParser reads one expression from participle's token stream. Nesting
// is bounded before parsing starts (checkNesting), so recursion is too.
type exprParser struct {
	lex  *plexer.PeekingLexer
	last plexer.Token // the last token consumed
	soft []softError
}

func (p *exprParser) next() plexer.Token {
	p.last = *p.lex.Next()
	return p.last
}

func (p *exprParser) isKind(t *plexer.Token, k lexer.Kind) bool {
	return t.Type == lexer.TokenType(k) || t.Type == badLiteral(k)
}

func (p *exprParser) isPunct(t *plexer.Token, s string) bool {
	return t.Type == lexer.TokenType(lexer.Punct) && t.Value == s
}

// fail is the error for the next token, when want was expected.
func (p *exprParser) fail(want string) error {
	return &expectError{at: *p.lex.Peek(), want: want, after: "`" + diag.Shorten(p.last.Value) + "`"}
}

// startsValue reports whether the next token can start an operand.
func (p *exprParser) startsValue() bool {
	t := p.lex.Peek()
	switch {
	case p.isKind(t, lexer.Ident), p.isKind(t, lexer.Int), p.isKind(t, lexer.Decimal), p.isKind(t, lexer.String):
		return true
	case t.Type == lexer.TokenType(lexer.Keyword):
		return t.Value == "true" || t.Value == "false"
	}
	return p.isPunct(t, "(") || p.isPunct(t, "!") || p.isPunct(t, "-")
}

// precedence of a binary operator of the grammar, 0 for any other token.
func precedence(t *plexer.Token) int {
	if t.Type != lexer.TokenType(lexer.Punct) {
		return 0
	}
	switch t.Value {
	case "||":
		return 1
	case "&&":
		return 2
	case "==", "!=", "<", "<=", ">", ">=":
		return 3
	}
	return 0
}

// binary parses operands joined by operators of precedence min or more
// (precedence climbing; left associative).
func (p *exprParser) binary(min int) (ast.Expr, error) {
	x, err := p.unary()
	if err != nil {
		return x, err
	}
	for {
		prec := precedence(p.lex.Peek())
		word := ""
		if prec == 0 {
			word, prec = wordOperator(p.lex.Peek())
		}
		if prec == 0 && min <= 3 && p.assignAsEquals() {
			prec = 3
		}
		if prec < min {
			return x, nil
		}
		opTok := p.next()
		op := opTok.Value
		switch {
		case op == "=":
			op = "=="
		case word != "":
			// Python's `and`, `or`: read as the operator they are.
			p.soft = append(p.soft, softError{Range: diag.Range{Start: start(opTok), End: end(opTok)},
				Msg: "`" + op + "` is Python's: the logical operator is written `" + word + "`", Fix: word})
			op = word
		case (op == "==" || op == "!=") && p.isPunct(p.lex.Peek(), "=") && int(p.lex.Peek().Pos.Offset) == opTok.Pos.Offset+2:
			// JavaScript's `===`, `!==`: values are compared by type here.
			eq := p.next()
			p.soft = append(p.soft, softError{Range: diag.Range{Start: start(opTok), End: end(eq)},
				Msg: "`" + op + "=` is JavaScript's strict comparison: write `" + op + "`, which compares values of one type", Fix: op})
		}
		y, err := p.binary(prec + 1)
		if y != nil {
			x = &ast.Binary{Range: diag.Range{Start: x.Pos(), End: y.End()}, Op: op, X: x, Y: y}
		}
		if err != nil {
			return x, err
		}
		if prec == 3 && precedence(p.lex.Peek()) == 3 {
			next := p.lex.Peek().Value
			p.soft = append(p.soft, softError{y.Rng(),
				"comparisons do not chain: `a " + op + " b " + next + " c` needs `&&`, as in `a " + op + " b && b " + next + " c`", false, "", diag.Range{}})
		}
	}
}

// wordOperator is the operator that Python's `and` or `or` at t stands
// for, with its precedence, or "", 0.
func wordOperator(t *plexer.Token) (string, int) {
	if t.Type != lexer.TokenType(lexer.Ident) {
		return "", 0
	}
	switch t.Value {
	case "and":
		return "&&", 2
	case "or":
		return "||", 1
	}
	return "", 0
}

// assignAsEquals reports whether the next token is a `=` written for `==`:
// no expression goes on with `=` (a setting's `=` follows its name, which
// is not an expression), so `Role = "admin"` in a condition is a comparison
// with C's or SQL's spelling. It is reported, with the fix, and read as `==`.
func (p *exprParser) assignAsEquals() bool {
	t := p.lex.Peek()
	if !p.isPunct(t, "=") {
		return false
	}
	r := diag.Range{Start: start(*t), End: end(*t)}
	p.soft = append(p.soft, softError{Range: r, Msg: "`=` is not a comparison: to compare, write `==`", Fix: "=="})
	return true
}

// unary parses prefix operators before a postfix expression. Python's
// `not x` is read as `!x`, reported with the fix.
func (p *exprParser) unary() (ast.Expr, error) {
	t := p.lex.Peek()
	if t.Type == lexer.TokenType(lexer.Ident) && t.Value == "not" {
		back := p.lex.MakeCheckpoint()
		not := p.next()
		if !p.startsValue() || p.isPunct(p.lex.Peek(), "(") || p.isPunct(p.lex.Peek(), "-") {
			p.lex.LoadCheckpoint(back) // `not` is a name here
			return p.postfix()
		}
		p.soft = append(p.soft, softError{Range: diag.Range{Start: start(not), End: end(not)},
			Msg: "`not` is Python's: negation is written `!`", Fix: "!", FixRange: diag.Range{Start: start(not), End: start(*p.lex.Peek())}})
		x, err := p.unary()
		if x == nil {
			return nil, err
		}
		return &ast.Unary{Range: diag.Range{Start: start(not), End: x.End()}, Op: "!", X: x}, err
	}
	if !p.isPunct(t, "!") && !p.isPunct(t, "-") {
		return p.postfix()
	}
	op := p.next()
	if !p.startsValue() {
		return nil, p.fail("a value")
	}
	x, err := p.unary()
	if x == nil {
		return nil, err
	}
	return &ast.Unary{Range: diag.Range{Start: start(op), End: x.End()}, Op: op.Value, X: x}, err
}

// postfix parses an operand followed by `.Name` and `(args)` suffixes.
func (p *exprParser) postfix() (ast.Expr, error) {
	if x, err, ok := p.constructor(); ok {
		return x, err
	}
	x, err := p.primary()
	for err == nil {
		switch t := p.lex.Peek(); {
		case p.isPunct(t, "."):
			p.next()
			if !p.isKind(p.lex.Peek(), lexer.Ident) {
				return x, p.fail("a name")
			}
			sel := ident(p.next())
			x = &ast.Selector{Range: diag.Range{Start: x.Pos(), End: sel.End()}, X: x, Sel: sel}
		case p.isPunct(t, "("):
			x, err = p.call(x)
		default:
			return x, nil
		}
	}
	return x, err
}

// call parses `(args)` after fun.
func (p *exprParser) call(fun ast.Expr) (ast.Expr, error) {
	lp := p.next()
	c := &ast.Call{Fun: fun, Lparen: start(lp)}
	for !p.isPunct(p.lex.Peek(), ")") {
		if len(c.Args) > 0 {
			if !p.isPunct(p.lex.Peek(), ",") {
				return nil, p.fail("`,` or `)`")
			}
			p.next()
		}
		if !p.startsValue() {
			if len(c.Args) == 0 {
				return nil, p.fail("an argument or `)`")
			}
			return nil, p.fail("a value")
		}
		a, err := p.arg()
		if err != nil {
			return nil, err
		}
		c.Args = append(c.Args, a)
	}
	c.Range = diag.Range{Start: fun.Pos(), End: end(p.next())}
	return c, nil
}

// arg parses `value` or `label: value`. A label followed by `=`
// (`retry = policy`, Python's keyword argument) is read as the label it
// is, reported once with the fix to `:`; it is no comparison.
func (p *exprParser) arg() (*ast.Arg, error) {
	if a, err, ok := p.equalsLabel(); ok {
		return a, err
	}
	first, err := p.binary(1)
	if err != nil || !p.isPunct(p.lex.Peek(), ":") {
		if first == nil {
			return nil, err
		}
		return &ast.Arg{Range: diag.Range{Start: first.Pos(), End: first.End()}, Value: first}, err
	}
	p.next()
	if !p.startsValue() {
		return nil, p.fail("a value")
	}
	v, err := p.binary(1)
	if err != nil {
		return nil, err
	}
	n, ok := first.(*ast.Name)
	if !ok {
		p.soft = append(p.soft, softError{diag.Range{Start: first.Pos(), End: first.End()},
			"an argument label must be a plain name, as in `retry: …`; found ", true, "", diag.Range{}})
		return &ast.Arg{Range: diag.Range{Start: v.Pos(), End: v.End()}, Value: v}, nil
	}
	return &ast.Arg{Range: diag.Range{Start: first.Pos(), End: v.End()}, Label: &ast.Ident{Range: n.Range, Name: n.Name}, Value: v}, nil
}

// constructor parses C#'s `new TimeSpan(…)` (ok), reported once: with
// whole-number arguments it is read as the duration they make and the fix
// writes it as this language does (`TimeSpan.FromMinutes(5)`); otherwise it
// is read as a value already reported (HasBad), so nothing else is.
func (p *exprParser) constructor() (ast.Expr, error, bool) {
	t := p.lex.Peek()
	if t.Type != lexer.TokenType(lexer.Ident) || t.Value != "new" {
		return nil, nil, false
	}
	back := p.lex.MakeCheckpoint()
	nw := p.next()
	if !p.isKind(p.lex.Peek(), lexer.Ident) {
		p.lex.LoadCheckpoint(back)
		return nil, nil, false
	}
	x, err := p.postfix()
	if x == nil {
		return nil, err, true
	}
	r := diag.Range{Start: start(nw), End: x.End()}
	call, _ := x.(*ast.Call)
	if call == nil {
		p.soft = append(p.soft, softError{Range: r, Msg: "`new` is C#'s: values are written as they are, with no constructor"})
		return &ast.IntLit{Range: r, Text: "new", Bad: true}, err, true
	}
	ticks, ok := timeSpanCtor(call)
	if n, isName := call.Fun.(*ast.Name); !isName || n.Name != "TimeSpan" || !ok {
		p.soft = append(p.soft, softError{Range: r, Msg: "`new` is C#'s: a duration is written `TimeSpan.FromMinutes(5)` (or FromMilliseconds, FromSeconds, FromHours, FromDays)"})
		return &ast.IntLit{Range: r, Text: "new", Bad: true}, err, true
	}
	src := vocab.SpanSource(ticks)
	p.soft = append(p.soft, softError{Range: r, Msg: "`new TimeSpan(…)` is C#'s constructor: a duration is written `" + src + "`", Fix: src})
	unit, num, _ := strings.Cut(strings.TrimSuffix(strings.TrimPrefix(src, "TimeSpan."), ")"), "(")
	sel := &ast.Selector{Range: r, X: &ast.Name{Range: r, Name: "TimeSpan"}, Sel: &ast.Ident{Range: r, Name: unit}}
	if num == "" { // TimeSpan.Zero
		return sel, err, true
	}
	var arg ast.Expr = &ast.IntLit{Range: r, Text: num}
	if v, perr := strconv.ParseInt(num, 10, 64); perr == nil {
		arg = &ast.IntLit{Range: r, Text: num, Value: v}
	} else {
		arg = &ast.DecimalLit{Range: r, Text: num}
	}
	return &ast.Call{Range: r, Lparen: r.Start, Fun: sel, Args: []*ast.Arg{{Range: r, Value: arg}}}, err, true
}

// timeSpanCtor is the duration of C#'s `TimeSpan(ticks)`, `(h, m, s)`,
// `(d, h, m, s)` or `(d, h, m, s, ms)` with whole-number arguments.
func timeSpanCtor(c *ast.Call) (timespan.Ticks, bool) {
	var v []int64
	for _, a := range c.Args {
		n, ok := a.Value.(*ast.IntLit)
		if !ok || a.Label != nil || n.Bad || n.Value < 0 || n.Value > 1_000_000 {
			return 0, false
		}
		v = append(v, n.Value)
	}
	const s, m, h, d, ms = timespan.TicksPerSecond, 60 * timespan.TicksPerSecond, 3600 * timespan.TicksPerSecond, 86400 * timespan.TicksPerSecond, timespan.TicksPerMillisecond
	switch len(v) {
	case 1:
		return timespan.Ticks(v[0]), true
	case 3:
		return timespan.Ticks(v[0]*h + v[1]*m + v[2]*s), true
	case 4:
		return timespan.Ticks(v[0]*d + v[1]*h + v[2]*m + v[3]*s), true
	case 5:
		return timespan.Ticks(v[0]*d + v[1]*h + v[2]*m + v[3]*s + v[4]*ms), true
	}
	return 0, false
}

// equalsLabel parses `name = value` as an argument: the label written
// with `=` (ok), or nothing when the argument is not of that shape.
func (p *exprParser) equalsLabel() (*ast.Arg, error, bool) {
	if !p.isKind(p.lex.Peek(), lexer.Ident) {
		return nil, nil, false
	}
	back := p.lex.MakeCheckpoint()
	name := p.next()
	if !p.isPunct(p.lex.Peek(), "=") {
		p.lex.LoadCheckpoint(back)
		return nil, nil, false
	}
	eq := p.next()
	if !p.startsValue() {
		p.lex.LoadCheckpoint(back)
		return nil, nil, false
	}
	v, err := p.binary(1)
	if v == nil {
		return nil, err, true
	}
	label := ident(name)
	p.soft = append(p.soft, softError{Range: diag.Range{Start: start(eq), End: end(eq)},
		Msg: "`" + name.Value + " = …` is Python's keyword argument: a named argument is written `" + name.Value + ": …`",
		Fix: ":", FixRange: diag.Range{Start: label.Range.End, End: end(eq)}})
	return &ast.Arg{Range: diag.Range{Start: label.Pos(), End: v.End()}, Label: label, Value: v}, err, true
}

// primary parses a literal, a name or a parenthesised expression.
func (p *exprParser) primary() (ast.Expr, error) {
	if !p.startsValue() {
		return nil, p.fail("a value")
	}
	t := p.next()
	r := diag.Range{Start: start(t), End: end(t)}
	bad := t.Type <= badLiteral(lexer.EOF)
	switch {
	case p.isKind(&t, lexer.Int):
		v, _ := strconv.ParseInt(t.Value, 10, 64)
		return &ast.IntLit{Range: r, Text: t.Value, Value: v, Bad: bad}, nil
	case p.isKind(&t, lexer.Decimal):
		return &ast.DecimalLit{Range: r, Text: t.Value, Bad: bad}, nil
	case p.isKind(&t, lexer.String):
		return &ast.StringLit{Range: r, Value: lexer.Unquote(t.Value), Bad: bad}, nil
	case p.isKind(&t, lexer.Ident):
		return &ast.Name{Range: r, Name: t.Value}, nil
	case t.Type == lexer.TokenType(lexer.Keyword):
		return &ast.BoolLit{Range: r, Value: t.Value == "true"}, nil
	}
	// `(` expression `)`
	if !p.startsValue() {
		return nil, p.fail("a value")
	}
	x, err := p.binary(1)
	if err != nil {
		return nil, err
	}
	if !p.isPunct(p.lex.Peek(), ")") {
		return nil, p.fail("`)`")
	}
	return &ast.Paren{Range: diag.Range{Start: r.Start, End: end(p.next())}, X: x}, nil
}

// start and end are a token's range ends; columns count code points.
func start(t plexer.Token) diag.Pos {
	return diag.MakePos(t.Pos.Line, t.Pos.Column, t.Pos.Offset)
}

func end(t plexer.Token) diag.Pos {
	return diag.MakePos(t.Pos.Line, t.Pos.Column+utf8.RuneCountInString(t.Value), t.Pos.Offset+len(t.Value))
}

func ident(t plexer.Token) *ast.Ident {
	return &ast.Ident{Range: diag.Range{Start: start(t), End: end(t)}, Name: t.Value}
}
