package codegen

import (
	"fmt"
	"math"
	"math/big"
	"math/rand/v2"
	"reflect"
	"strings"
	"testing"

	"github.com/wfc-lang/wfc/check"
	"github.com/wfc-lang/wfc/check/timespan"
)

// genPolicy is a consumer with a policy as the checker would build it, so
// that the differential tests lower thousands without parsing any.
type genPolicy struct {
	shape    check.Shape // ShapeNone: no policy
	interval Ticks
	cap      Ticks
	hasCap   bool
	jitter   string // a decimal literal; "" for none
	attempts int64
	duration Ticks // the window of a milestone, the attempt duration of a step
	step     bool
}

func (g genPolicy) String() string {
	return fmt.Sprintf("%s(%d) cap %v:%d jitter %q attempts %d duration %d step %v", g.shape, g.interval, g.hasCap, g.cap, g.jitter, g.attempts, g.duration, g.step)
}

// consumer and options are g as lowerOne takes it.
func (g genPolicy) consumer() (*check.Consumer, Options) {
	c := &check.Consumer{Attempts: g.attempts, Budget: check.BudgetMaxAttempts, Valid: true, Kind: check.KindFinished, Window: g.duration}
	var opt Options
	if g.step {
		c.Kind, c.Window, opt.AttemptDuration = check.KindStep, 0, g.duration
	}
	if g.shape != check.ShapeNone {
		p := &check.Policy{Shape: g.shape, Interval: g.interval, Valid: true}
		if g.hasCap {
			p.Cap, p.CapM = g.cap, &check.Member{}
		}
		if g.jitter != "" {
			f, ok := new(big.Rat).SetString(g.jitter)
			if !ok {
				panic(g.jitter)
			}
			p.Jitter, p.JitterM = f, &check.Member{}
		}
		c.Policy = p
	}
	return c, opt
}

// genTicks draws a duration from every magnitude that matters: zero, a
// tick, milliseconds to days, near an hour, near TimeSpan's range.
func genTicks(r *rand.Rand) Ticks {
	switch r.IntN(10) {
	case 0:
		return 0
	case 1:
		return Ticks(1 + r.IntN(3))
	case 2:
		return timespan.MaxTicks - Ticks(r.IntN(3))
	case 3:
		return timespan.MaxTicks / Ticks(1+r.IntN(1000))
	case 4:
		return timespan.TicksPerHour + Ticks(r.IntN(3)) - 1
	case 5:
		return Ticks(r.Int64N(1 << 62))
	}
	return Ticks(r.Int64N(1000)) * []Ticks{timespan.TicksPerMillisecond, timespan.TicksPerSecond, timespan.TicksPerMinute, timespan.TicksPerHour, timespan.TicksPerDay}[r.IntN(5)]
}

// genJitter draws a jitter literal: none, 0, 1, short fractions, long ones
// up to the 28 decimals the lexer takes (past 18 the rationals lower it),
// and fractions near 0 and 1.
func genJitter(r *rand.Rand) string {
	switch r.IntN(10) {
	case 0, 1, 2:
		return ""
	case 3:
		return []string{"0", "1", "0.5", "0.2", "0.25"}[r.IntN(5)]
	case 4:
		return "0." + strings.Repeat("9", 1+r.IntN(28))
	case 5:
		return "0." + strings.Repeat("0", r.IntN(27)) + "1"
	}
	digits := 1 + r.IntN(28)
	if r.IntN(2) == 0 {
		digits = 1 + r.IntN(18)
	}
	var b strings.Builder
	b.WriteString("0.")
	for range digits {
		b.WriteByte(byte('0' + r.IntN(10)))
	}
	return b.String()
}

func genAttempts(r *rand.Rand) int64 {
	switch r.IntN(8) {
	case 0:
		return []int64{1, 2, 3}[r.IntN(3)]
	case 1:
		return math.MaxInt32 - int64(r.IntN(2))
	case 2:
		return 9999 + int64(r.IntN(3))
	case 3:
		return r.Int64N(math.MaxInt32) + 1
	}
	return r.Int64N(100) + 1
}

func genPolicyOf(r *rand.Rand) genPolicy {
	g := genPolicy{
		shape:    []check.Shape{check.ShapeNone, check.ShapeFixed, check.ShapeLinear, check.ShapeExponential, check.ShapeExponential, check.ShapeLinear}[r.IntN(6)],
		interval: genTicks(r),
		hasCap:   r.IntN(2) == 0,
		cap:      genTicks(r),
		jitter:   genJitter(r),
		attempts: genAttempts(r),
		duration: genTicks(r),
		step:     r.IntN(2) == 0,
	}
	if r.IntN(20) == 0 {
		g.duration = -g.duration // a lint-only table of a negative window
	}
	if r.IntN(4) == 0 {
		g.duration = 0
	}
	return g
}

// sameSchedule reports how a and b differ, or "" if they are equal.
func sameSchedule(a, b *Schedule) string {
	if reflect.DeepEqual(a, b) {
		return ""
	}
	if len(a.Rows) != len(b.Rows) {
		return fmt.Sprintf("%d rows, want %d", len(a.Rows), len(b.Rows))
	}
	for k := range a.Rows {
		if a.Rows[k] != b.Rows[k] {
			return fmt.Sprintf("row %d: %+v, want %+v", k, a.Rows[k], b.Rows[k])
		}
	}
	return fmt.Sprintf("truncated %v gives up %d..%d timeline %v facts %+v, want truncated %v gives up %d..%d timeline %v facts %+v",
		a.Truncated, a.GivesUp, a.GivesUpLatest, a.Timeline, a.facts, b.Truncated, b.GivesUp, b.GivesUpLatest, b.Timeline, b.facts)
}

// TestLowerIntMatchesBig: the int64 lowering gives lowerBig's table to the
// tick — rows, totals, truncation, timeline and the lints' facts — over
// thousands of policies from a fixed seed, huge budgets and long jitters
// included; and every policy the int64 path declines, the rationals lower.
func TestLowerIntMatchesBig(t *testing.T) {
	r := rand.New(rand.NewPCG(21, 2026))
	n, declined, truncated := 4000, 0, 0
	if testing.Short() {
		n = 500
	}
	for k := range n {
		g := genPolicyOf(r)
		c, opt := g.consumer()
		// A Linear table has up to 10,000 rows, each ~30µs in rationals:
		// keep most of them short, and timelines to short budgets.
		if g.shape == check.ShapeLinear && g.attempts > 300 && k%40 != 0 {
			g.attempts = 1 + g.attempts%300
			c.Attempts = g.attempts
		}
		if k%10 == 0 && g.attempts <= 300 {
			opt.Draws = []float64{0, 0.25, 0.999}
		}
		want := lowerBig(c, opt)
		got, ok := lowerInt(c, opt)
		if !ok {
			declined++
			if s := lowerOne(c, opt); sameSchedule(s, want) != "" {
				t.Fatalf("%s: lowerOne differs from lowerBig", g)
			}
			continue
		}
		if want.Truncated {
			truncated++
		}
		if d := sameSchedule(got, want); d != "" {
			t.Fatalf("%s: %s", g, d)
		}
		// The lints' first waits (WF310, WF311), in ticks and in rationals.
		if g.shape != check.ShapeNone {
			w := bounds{got.Interval, got.Interval}
			if f := got.Jitter; f != nil {
				i := ratTicks(got.Interval)
				w = bounds{sat(new(big.Rat).Mul(i, new(big.Rat).Sub(big.NewRat(1, 1), f))), sat(new(big.Rat).Mul(i, new(big.Rat).Add(big.NewRat(1, 1), f)))}
			}
			if fw := got.firstWaits(); fw != w {
				t.Fatalf("%s: first waits %+v, want %+v", g, fw, w)
			}
		}
	}
	t.Logf("%d policies: %d declined by the int64 path, %d truncated", n, declined, truncated)
	// The int64 path must be the common one, and the fallback exercised.
	if declined == 0 || declined > n/3 || truncated == 0 {
		t.Errorf("%d of %d policies declined by the int64 path, %d truncated", declined, n, truncated)
	}
}

// FuzzLowerIntMatchesBig is TestLowerIntMatchesBig over any seed.
func FuzzLowerIntMatchesBig(f *testing.F) {
	f.Add(uint64(1), uint64(2))
	f.Add(uint64(21), uint64(0))
	f.Fuzz(func(t *testing.T, s1, s2 uint64) {
		g := genPolicyOf(rand.New(rand.NewPCG(s1, s2)))
		if g.attempts > MaxRows/10 && g.shape == check.ShapeLinear {
			g.attempts = MaxRows / 10
		}
		c, opt := g.consumer()
		got, ok := lowerInt(c, opt)
		if !ok {
			return
		}
		if d := sameSchedule(got, lowerBig(c, opt)); d != "" {
			t.Fatalf("%s: %s", g, d)
		}
	})
}

// TestLowerIntCases: the edges of the int64 arithmetic, named.
func TestLowerIntCases(t *testing.T) {
	const maxT = timespan.MaxTicks
	tests := []struct {
		name     string
		g        genPolicy
		declined bool
	}{
		{"the benchmark's policy", genPolicy{shape: check.ShapeExponential, interval: 2 * timespan.TicksPerSecond, hasCap: true, cap: 5 * timespan.TicksPerMinute, jitter: "0.2", attempts: math.MaxInt32, step: true}, false},
		{"no policy", genPolicy{attempts: 3, duration: timespan.TicksPerMinute}, false},
		{"uncapped exponential saturates", genPolicy{shape: check.ShapeExponential, interval: 1, attempts: math.MaxInt32}, false},
		{"uncapped exponential at the range", genPolicy{shape: check.ShapeExponential, interval: maxT, attempts: 5, duration: maxT, step: true}, false},
		{"half-tick rounding", genPolicy{shape: check.ShapeFixed, interval: 1, jitter: "0.5", attempts: 7, duration: 0, step: true}, false},
		{"a sum one tick past the range", genPolicy{shape: check.ShapeFixed, interval: maxT / 2, attempts: 3, duration: 1, step: true}, false},
		{"18 decimals", genPolicy{shape: check.ShapeExponential, interval: 3, jitter: "0.123456789012345678", attempts: 200}, false},
		{"19 decimals", genPolicy{shape: check.ShapeExponential, interval: 3, jitter: "0.1234567890123456789", attempts: 200}, true},
		{"Jitter(1) uncapped past 2^64", genPolicy{shape: check.ShapeExponential, interval: timespan.TicksPerSecond, jitter: "1", attempts: 300}, true},
		{"Jitter(1) capped", genPolicy{shape: check.ShapeExponential, interval: timespan.TicksPerSecond, jitter: "1", hasCap: true, cap: timespan.TicksPerHour, attempts: 300}, false},
		{"a negative window", genPolicy{shape: check.ShapeFixed, interval: 5, attempts: 3, duration: -timespan.TicksPerMinute}, true},
		{"truncated linear", genPolicy{shape: check.ShapeLinear, interval: timespan.TicksPerMillisecond, jitter: "0.3", attempts: math.MaxInt32, step: true}, false},
		{"truncated linear past the range", genPolicy{shape: check.ShapeLinear, interval: timespan.TicksPerDay, attempts: math.MaxInt32, step: true, duration: 7}, false},
		{"cap zero", genPolicy{shape: check.ShapeLinear, interval: 9, hasCap: true, jitter: "0.7", attempts: 50}, false},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			c, opt := tt.g.consumer()
			want := lowerBig(c, opt)
			got, ok := lowerInt(c, opt)
			if ok == tt.declined {
				t.Fatalf("int64 path taken: %v, want %v", ok, !tt.declined)
			}
			if !ok {
				got = lowerOne(c, opt)
			}
			if d := sameSchedule(got, want); d != "" {
				t.Fatal(d)
			}
		})
	}
}

// TestTickMath checks the fractions' operations against big.Rat on
// random and edge operands, saturation included.
func TestTickMath(t *testing.T) {
	r := rand.New(rand.NewPCG(7, 7))
	maxRat := new(big.Rat).SetInt64(timespan.MaxTicks)
	// norm is x as the fractions hold it: past the range, overTicks.
	norm := func(x *big.Rat) *big.Rat {
		if x.Cmp(new(big.Rat).SetInt(new(big.Int).SetUint64(overQ))) >= 0 {
			return new(big.Rat).SetInt(new(big.Int).SetUint64(overQ))
		}
		return x
	}
	for range 20000 {
		dens := []uint64{1, 2, 5, 10, 1e18, maxDen, uint64(r.Int64N(1<<40)) + 1}
		a := fracs{den: dens[r.IntN(len(dens))]}
		gen := func() tick {
			switch r.IntN(4) {
			case 0:
				return overTicks
			case 1:
				return tick{q: uint64(timespan.MaxTicks) - uint64(r.IntN(2)), r: r.Uint64N(a.den)}
			}
			return tick{q: r.Uint64N(overQ) >> r.IntN(64), r: r.Uint64N(a.den)}
		}
		x, y := gen(), gen()
		k := r.Uint64N(math.MaxInt32) >> r.IntN(32)
		w, m := r.Uint64()>>r.IntN(64), r.Uint64N(2*a.den+1)
		bx, by := a.rat(x), a.rat(y)
		expect := func(op string, got tick, want *big.Rat) {
			t.Helper()
			if a.rat(got).Cmp(norm(want)) != 0 {
				t.Fatalf("den %d: %s = %s, want %s", a.den, op, a.rat(got).RatString(), norm(want).RatString())
			}
			if s := a.sat(got); s != sat(want) {
				t.Fatalf("den %d: sat(%s) = %d, want %d", a.den, op, s, sat(want))
			}
			if got.aboveMax() != (want.Cmp(maxRat) > 0) {
				t.Fatalf("den %d: %s above the range: %v", a.den, op, got.aboveMax())
			}
		}
		expect(fmt.Sprintf("%v + %v", x, y), a.add(x, y), new(big.Rat).Add(bx, by))
		expect(fmt.Sprintf("%d · %v", k, x), a.times(k, x), new(big.Rat).Mul(new(big.Rat).SetInt(new(big.Int).SetUint64(k)), bx))
		expect(fmt.Sprintf("%d · %d / den", w, m), a.scale(w, m), new(big.Rat).SetFrac(new(big.Int).Mul(new(big.Int).SetUint64(w), new(big.Int).SetUint64(m)), new(big.Int).SetUint64(a.den)))
		if got, want := x.cmp(y), bx.Cmp(by); got != want && !(x.over() && y.over()) {
			t.Fatalf("cmp(%v, %v) = %d, want %d", x, y, got, want)
		}
	}
}
