package check

import (
	"fmt"
	"math"
	"math/big"
	"strconv"

	"github.com/wfc-lang/wfc/ast"
	"github.com/wfc-lang/wfc/diag"
)

// Ticks is a duration in .NET TimeSpan ticks (100 ns), the unit and range
// of .NET's TimeSpan: ±10675199d2h48m5.4775807s is ±MaxInt64 ticks.
type Ticks = int64

// Tick units.
const (
	TicksPerMillisecond Ticks = 10_000
	TicksPerSecond            = 1000 * TicksPerMillisecond
	TicksPerMinute            = 60 * TicksPerSecond
	TicksPerHour              = 60 * TicksPerMinute
	TicksPerDay               = 24 * TicksPerHour
)

// MaxTicks is TimeSpan.MaxValue.
const MaxTicks Ticks = math.MaxInt64

var timeSpanUnits = map[string]Ticks{
	"FromMilliseconds": TicksPerMillisecond,
	"FromSeconds":      TicksPerSecond,
	"FromMinutes":      TicksPerMinute,
	"FromHours":        TicksPerHour,
	"FromDays":         TicksPerDay,
}

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
	rat   *big.Rat
	isInt bool
	bad   bool // malformed literal, already reported
}

// numLit evaluates `42`, `0.2`, `-5`, `(3)`.
func numLit(e ast.Expr) (num, bool) {
	switch e := ast.Unparen(e).(type) {
	case *ast.IntLit:
		if e.Bad {
			return num{bad: true}, true
		}
		return num{rat: new(big.Rat).SetInt64(e.Value), isInt: true}, true
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
		if ok && !n.bad {
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
		if sel.Sel.Name == "Zero" {
			return 0, true
		}
		if _, isUnit := timeSpanUnits[sel.Sel.Name]; isUnit {
			c.report(sel.Range, diag.WF304, "`TimeSpan.%s` needs its argument: write `TimeSpan.%s(5)`", sel.Sel.Name, sel.Sel.Name)
			return 0, false
		}
		c.report(sel.Sel.Range, diag.WF304, "unknown `TimeSpan.%s`: write `TimeSpan.FromSeconds(n)` (or FromMilliseconds, FromMinutes, FromHours, FromDays) or `TimeSpan.Zero`%s", sel.Sel.Name, c.didYouMean(sel.Sel.Range, sel.Sel.Name, append(keys(timeSpanUnits), "Zero")))
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
	unit, ok := timeSpanUnits[sel.Sel.Name]
	if !ok {
		c.report(sel.Sel.Range, diag.WF304, "unknown `TimeSpan.%s`: write `TimeSpan.FromSeconds(n)` (or FromMilliseconds, FromMinutes, FromHours, FromDays) or `TimeSpan.Zero`%s", sel.Sel.Name, c.didYouMean(sel.Sel.Range, sel.Sel.Name, append(keys(timeSpanUnits), "Zero")))
		return 0, false
	}
	if len(call.Args) != 1 || call.Args[0].Label != nil {
		c.report(call.Range, diag.WF304, "`TimeSpan.%s` takes one number, as in `TimeSpan.%s(5)`", sel.Sel.Name, sel.Sel.Name)
		return 0, false
	}
	n, ok := numLit(call.Args[0].Value)
	if !ok {
		if !ast.HasBad(call.Args[0].Value) {
			c.report(call.Args[0].Range, diag.WF304, "`TimeSpan.%s` takes a number (an int or a decimal), as in `TimeSpan.%s(5)`; found `%s`", sel.Sel.Name, sel.Sel.Name, ast.Compact(c.file.Text(call.Args[0].Range)))
		}
		return 0, false
	}
	if n.bad {
		return 0, false
	}
	v := new(big.Rat).Mul(n.rat, new(big.Rat).SetInt64(unit))
	// Round to the nearest tick, halves away from zero.
	num, den := v.Num(), v.Denom()
	q, r := new(big.Int).QuoRem(num, den, new(big.Int))
	if new(big.Int).Mul(new(big.Int).Abs(r), big.NewInt(2)).Cmp(den) >= 0 {
		q.Add(q, big.NewInt(int64(num.Sign())))
	}
	if !q.IsInt64() || q.Int64() == math.MinInt64 {
		c.report(call.Range, diag.WF304, "`%s` is beyond TimeSpan's range (at most 10675199d2h48m5.4775807s)", ast.Compact(c.file.Text(call.Range)))
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
		return fmt.Sprintf("write `TimeSpan.FromSeconds(%s)`", ast.Compact(c.file.Text(e.Rng())))
	}
	return "write `TimeSpan.FromSeconds(n)` (or FromMilliseconds, FromMinutes, FromHours, FromDays)"
}

// FormatTicks prints a duration compactly, largest unit first, zero parts
// left out (docs/language.md, Durations): 2s, 1m4s, 1d2h, 1.6s, 250ms, 0s.
func FormatTicks(t Ticks) string {
	if t == 0 {
		return "0s"
	}
	neg := t < 0
	var u uint64
	if neg {
		u = uint64(-(t + 1)) + 1
	} else {
		u = uint64(t)
	}
	days := u / uint64(TicksPerDay)
	u %= uint64(TicksPerDay)
	hours := u / uint64(TicksPerHour)
	u %= uint64(TicksPerHour)
	mins := u / uint64(TicksPerMinute)
	u %= uint64(TicksPerMinute)
	secs := u / uint64(TicksPerSecond)
	frac := u % uint64(TicksPerSecond) // in ticks
	s := ""
	if neg {
		s = "-"
	}
	if days > 0 {
		s += strconv.FormatUint(days, 10) + "d"
	}
	if hours > 0 {
		s += strconv.FormatUint(hours, 10) + "h"
	}
	if mins > 0 {
		s += strconv.FormatUint(mins, 10) + "m"
	}
	switch {
	case secs > 0 && frac > 0:
		s += strconv.FormatUint(secs, 10) + "." + trimZeros(fmt.Sprintf("%07d", frac)) + "s"
	case secs > 0:
		s += strconv.FormatUint(secs, 10) + "s"
	case frac > 0 && s == "" || frac > 0 && s == "-":
		if frac%uint64(TicksPerMillisecond) == 0 {
			s += strconv.FormatUint(frac/uint64(TicksPerMillisecond), 10) + "ms"
		} else {
			s += "0." + trimZeros(fmt.Sprintf("%07d", frac)) + "s"
		}
	case frac > 0:
		s += "0." + trimZeros(fmt.Sprintf("%07d", frac)) + "s"
	}
	return s
}

func trimZeros(s string) string {
	for len(s) > 0 && s[len(s)-1] == '0' {
		s = s[:len(s)-1]
	}
	return s
}

var durationUnits = []struct {
	name  string
	ticks Ticks
}{{"ms", TicksPerMillisecond}, {"d", TicksPerDay}, {"h", TicksPerHour}, {"m", TicksPerMinute}, {"s", TicksPerSecond}}

// ParseDuration reads the compact form FormatTicks prints (`2s`, `1m4s`,
// `1.5s`, `250ms`, `1d2h`), for command-line flags. It is exact and refuses
// negative values and values beyond TimeSpan's range.
func ParseDuration(s string) (Ticks, error) {
	if s == "0" {
		return 0, nil
	}
	orig := s
	total := new(big.Rat)
	if s == "" {
		return 0, fmt.Errorf("empty duration: write it like 2s, 1m30s, 250ms or 1d")
	}
	for s != "" {
		i := 0
		for i < len(s) && (s[i] >= '0' && s[i] <= '9' || s[i] == '.') {
			i++
		}
		if i == 0 {
			return 0, fmt.Errorf("bad duration %q: write it like 2s, 1m30s, 250ms or 1d", orig)
		}
		n, ok := new(big.Rat).SetString(s[:i])
		if !ok {
			return 0, fmt.Errorf("bad number in duration %q", orig)
		}
		s = s[i:]
		var unit Ticks
		for _, u := range durationUnits {
			if len(s) >= len(u.name) && s[:len(u.name)] == u.name {
				unit = u.ticks
				s = s[len(u.name):]
				break
			}
		}
		if unit == 0 {
			return 0, fmt.Errorf("bad duration %q: each number needs a unit (d, h, m, s or ms)", orig)
		}
		total.Add(total, n.Mul(n, new(big.Rat).SetInt64(unit)))
	}
	// Round to the nearest tick, halves up, as TimeSpan literals round
	// (durations here are never negative).
	q, r := new(big.Int).QuoRem(total.Num(), total.Denom(), new(big.Int))
	if r.Lsh(r, 1).Cmp(total.Denom()) >= 0 {
		q.Add(q, big.NewInt(1))
	}
	if !q.IsInt64() {
		return 0, fmt.Errorf("duration %q is beyond TimeSpan's range", orig)
	}
	return q.Int64(), nil
}
