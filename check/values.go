package check

import (
	"fmt"
	"math"
	"math/big"

	"github.com/wfc-lang/wfc/ast"
	"github.com/wfc-lang/wfc/check/timespan"
	"github.com/wfc-lang/wfc/check/vocab"
)

// Durations live in package timespan, shared with codegen; these names stay
// for the callers that use them from here.

// Ticks is timespan.Ticks: 100 ns units.
type Ticks = timespan.Ticks

// Tick units and TimeSpan.MaxValue, as in package timespan.
const (
	TicksPerMillisecond = timespan.TicksPerMillisecond
	TicksPerSecond      = timespan.TicksPerSecond
	TicksPerMinute      = timespan.TicksPerMinute
	TicksPerHour        = timespan.TicksPerHour
	TicksPerDay         = timespan.TicksPerDay
	MaxTicks            = timespan.MaxTicks
)

// FormatTicks is timespan.Format.
func FormatTicks(t Ticks) string { return timespan.Format(t) }

// ParseDuration is timespan.Parse.
func ParseDuration(s string) (Ticks, error) { return timespan.Parse(s) }

// timeSpanUnits are the vocabulary's TimeSpan units.
var timeSpanUnits = func() map[string]Ticks {
	m := map[string]Ticks{}
	for _, u := range vocab.Units {
		m[u.Name] = u.Ticks
	}
	return m
}()

// vkind is the type of a value in a setting or argument.
type vkind int

const (
	kUnknown vkind = iota // not a value the checker can type (a name, a call…)
	kInt
	kDecimal
	kString
	kBool
	kTimeSpan
	kPolicy
)

func (k vkind) String() string {
	return [...]string{"a value", "an int", "a decimal", "a string", "a bool", "a TimeSpan", "a Backoff policy"}[k]
}

// num is a numeric literal, possibly negated.
type num struct {
	// rat is the value of a decimal; an int's is made from i when asked
	// for (r): most numbers are ints (budgets, durations), read without
	// big arithmetic.
	rat   *big.Rat
	i     int64 // the value, when isInt
	isInt bool
	bad   bool // malformed literal, already reported
}

// r is the number as a rational.
func (n *num) r() *big.Rat {
	if n.rat == nil {
		n.rat = new(big.Rat).SetInt64(n.i)
	}
	return n.rat
}

// numLit evaluates `42`, `0.2`, `-5`, `(3)`.
func numLit(e ast.Expr) (num, bool) {
	switch e := ast.Unparen(e).(type) {
	case *ast.IntLit:
		if e.Bad {
			return num{bad: true}, true
		}
		return num{i: e.Value, isInt: true}, true
	case *ast.DecimalLit:
		if e.Bad {
			return num{bad: true}, true
		}
		r, ok := new(big.Rat).SetString(e.Text)
		if !ok {
			return num{bad: true}, true
		}
		return num{rat: r}, true
	case *ast.Unary:
		if e.Op != "-" {
			return num{}, false
		}
		n, ok := numLit(e.X)
		switch {
		case !ok || n.bad:
		case n.isInt:
			n.i = -n.i // an int literal is at most MaxInt64: never overflows
		default:
			n.rat = new(big.Rat).Neg(n.rat)
		}
		return n, ok
	}
	return num{}, false
}

// isTimeSpanExpr reports whether e is written as `TimeSpan.…`.
func isTimeSpanExpr(e ast.Expr) bool {
	e = ast.Unparen(e)
	if u, ok := e.(*ast.Unary); ok && u.Op == "-" {
		return isTimeSpanExpr(u.X)
	}
	if call, ok := e.(*ast.Call); ok {
		e = call.Fun
	}
	sel, ok := e.(*ast.Selector)
	if !ok {
		return false
	}
	n, ok := sel.X.(*ast.Name)
	return ok && n.Name == "TimeSpan"
}

// timeSpan evaluates a TimeSpan expression. ok is false when the expression
// is malformed (reported as WF304 here) or holds a malformed literal
// (reported by the lexer).
func (c *checker) timeSpan(e ast.Expr) (Ticks, bool) {
	e = ast.Unparen(e)
	if u, ok := e.(*ast.Unary); ok && u.Op == "-" {
		t, ok := c.timeSpan(u.X)
		if !ok {
			return 0, false
		}
		if t == math.MinInt64 {
			return MaxTicks, true
		}
		return -t, true
	}
	if sel, ok := e.(*ast.Selector); ok {
		if t, ok := vocab.ConstantNamed(sel.Sel.Name); ok {
			c.word(sel.Sel, vocab.KindUnit)
			return t, true
		}
		if _, isUnit := timeSpanUnits[sel.Sel.Name]; isUnit {
			c.wf304(badCall{what: misuseBare, rng: sel.Range, kind: vocab.KindUnit, name: sel.Sel.Name})
			return 0, false
		}
		c.wf304(badCall{what: misuseUnknown, rng: sel.Sel.Range, kind: vocab.KindUnit, name: sel.Sel.Name})
		return 0, false
	}
	call, ok := e.(*ast.Call)
	if !ok {
		return 0, false
	}
	sel, ok := call.Fun.(*ast.Selector)
	if !ok {
		return 0, false
	}
	if _, ok := vocab.ConstantNamed(sel.Sel.Name); ok {
		c.wf304(badCall{what: misuseCalled, rng: call.Range, nameRng: sel.Range})
		return 0, false
	}
	unit, ok := timeSpanUnits[sel.Sel.Name]
	if !ok {
		c.wf304(badCall{what: misuseUnknown, rng: sel.Sel.Range, kind: vocab.KindUnit, name: sel.Sel.Name})
		return 0, false
	}
	c.word(sel.Sel, vocab.KindUnit)
	if len(call.Args) != 1 || call.Args[0].Label != nil {
		c.wf304(badCall{what: misuseArity, rng: call.Range, kind: vocab.KindUnit, name: sel.Sel.Name})
		return 0, false
	}
	n, ok := numLit(call.Args[0].Value)
	if !ok {
		if !ast.HasBad(call.Args[0].Value) {
			c.wf304(badCall{what: misuseArgType, rng: call.Args[0].Range, kind: vocab.KindUnit, name: sel.Sel.Name, arg: call.Args[0].Value})
		}
		return 0, false
	}
	if n.bad {
		return 0, false
	}
	if n.isInt {
		// Exact in int64 unless it overflows (then the rationals say so).
		if t := n.i * unit; t/unit == n.i && t != math.MinInt64 {
			return t, true
		}
	}
	v := new(big.Rat).Mul(n.r(), new(big.Rat).SetInt64(unit))
	// Round to the nearest tick, halves away from zero.
	num, den := v.Num(), v.Denom()
	q, r := new(big.Int).QuoRem(num, den, new(big.Int))
	if new(big.Int).Mul(new(big.Int).Abs(r), big.NewInt(2)).Cmp(den) >= 0 {
		q.Add(q, big.NewInt(int64(num.Sign())))
	}
	if !q.IsInt64() || q.Int64() == math.MinInt64 {
		c.wf304(badCall{what: misuseRange, rng: call.Range})
		return 0, false
	}
	return q.Int64(), true
}

// kindOfExpr guesses the type of an expression from its shape.
func kindOfExpr(e ast.Expr) vkind {
	e = ast.Unparen(e)
	switch e := e.(type) {
	case *ast.IntLit:
		return kInt
	case *ast.DecimalLit:
		return kDecimal
	case *ast.StringLit:
		return kString
	case *ast.BoolLit:
		return kBool
	case *ast.Unary:
		if e.Op == "-" {
			return kindOfExpr(e.X)
		}
		return kBool
	case *ast.Binary:
		return kBool
	}
	if isTimeSpanExpr(e) {
		return kTimeSpan
	}
	if isPolicyExpr(e) {
		return kPolicy
	}
	return kUnknown
}

// isPolicyExpr reports whether e is written as `Backoff.…`.
func isPolicyExpr(e ast.Expr) bool {
	for {
		switch x := ast.Unparen(e).(type) {
		case *ast.Call:
			e = x.Fun
		case *ast.Selector:
			e = x.X
		case *ast.Name:
			return x.Name == "Backoff"
		default:
			return false
		}
	}
}

// timeSpanHint suggests how to write a number as a TimeSpan.
func (c *checker) timeSpanHint(e ast.Expr) string {
	if n, ok := numLit(e); ok && !n.bad {
		return fmt.Sprintf("write `TimeSpan.%s(%s)`", secondsUnit, ast.Compact(c.file.Text(e.Rng())))
	}
	return writeDuration()
}
