package codegen

import (
	"math/big"
	"math/bits"

	"github.com/wfc-lang/wfc/check/timespan"
)

// The int64 lowering (lowerint.go) computes in exact fractions of a tick
// that share one denominator: the jitter's (1 without jitter). A jittered
// wait is w·(1±f) = w·(den±num)/den, and a sum of such waits keeps that
// denominator, so every value of one table is q + r/den with integers q and
// 0 ≤ r < den. No rational is ever reduced, allocated or compared by
// cross-multiplication: that is what makes this path cheap.
//
// Values never go below zero (waits, durations and their sums; lowerInt
// leaves negative durations to the rationals), and only comparisons with
// numbers of TimeSpan's range matter (the cap, an hour, TimeSpan.MaxValue),
// so every value of 2^63 ticks or more is one value, overTicks, that
// compares above all of them. Sums saturate there instead of wrapping.

// overQ is the integer part of overTicks: 2^63, one past timespan.MaxTicks.
const overQ = uint64(timespan.MaxTicks) + 1

// maxDen bounds the jitter denominators the int64 lowering takes, so that
// den+num (at most 2·den) and 2·r fit in a uint64: 10^18 fits, so every
// jitter of up to 18 decimals does.
const maxDen = uint64(1) << 62

// tick is q + r/den ticks, exact, with 0 ≤ r < den; q = overQ (and r = 0)
// stands for every value past TimeSpan's range.
type tick struct{ q, r uint64 }

var overTicks = tick{q: overQ}

// wholeTicks is t ticks (t ≥ 0).
func wholeTicks(t Ticks) tick { return tick{q: uint64(t)} }

// over reports whether x is past 2^63-1 ticks by a whole tick or more.
func (x tick) over() bool { return x.q >= overQ }

// cmp compares x and y: -1, 0 or +1.
func (x tick) cmp(y tick) int {
	switch {
	case x.q < y.q:
		return -1
	case x.q > y.q:
		return 1
	case x.r < y.r:
		return -1
	case x.r > y.r:
		return 1
	}
	return 0
}

// aboveMax reports x > TimeSpan.MaxValue (WF314's test).
func (x tick) aboveMax() bool {
	return x.q > uint64(timespan.MaxTicks) || (x.q == uint64(timespan.MaxTicks) && x.r > 0)
}

// fracs does the arithmetic of one table: den is the shared denominator.
type fracs struct{ den uint64 }

// add is x + y, saturating at overTicks.
func (a fracs) add(x, y tick) tick {
	if x.over() || y.over() {
		return overTicks
	}
	// Both parts are below 2^63, so neither sum wraps.
	q, r := x.q+y.q, x.r+y.r
	if r >= a.den {
		q, r = q+1, r-a.den
	}
	if q >= overQ {
		return overTicks
	}
	return tick{q, r}
}

// scale is w·m/den for a whole number of ticks w, exact, saturating.
func (a fracs) scale(w, m uint64) tick {
	hi, lo := bits.Mul64(w, m)
	if hi >= a.den {
		return overTicks // the quotient has more than 64 bits
	}
	q, r := bits.Div64(hi, lo, a.den)
	if q >= overQ {
		return overTicks
	}
	return tick{q, r}
}

// times is k·x, exact, saturating.
func (a fracs) times(k uint64, x tick) tick {
	if k == 0 {
		return tick{}
	}
	if x.over() {
		return overTicks
	}
	hq, q := bits.Mul64(k, x.q)
	if hq != 0 || q >= overQ {
		return overTicks
	}
	// k·r/den: its quotient and remainder.
	hr, lr := bits.Mul64(k, x.r)
	if hr >= a.den {
		return overTicks
	}
	qr, r := bits.Div64(hr, lr, a.den)
	q, carry := bits.Add64(q, qr, 0)
	if carry != 0 || q >= overQ {
		return overTicks
	}
	return tick{q, r}
}

// sat rounds x to the nearest tick, halves up (every value is at least 0,
// so that is away from zero), and saturates at TimeSpan.MaxValue: the
// rationals' sat, to the tick.
func (a fracs) sat(x tick) Ticks {
	if x.q >= uint64(timespan.MaxTicks) {
		return timespan.MaxTicks
	}
	q := x.q
	if 2*x.r >= a.den { // r < den ≤ 2^62: no wrap
		q++
	}
	return Ticks(q)
}

// rat is x as a rational; overTicks becomes one tick past the range, which
// every later step keeps past it (values only grow).
func (a fracs) rat(x tick) *big.Rat {
	if x.over() {
		return new(big.Rat).SetInt(new(big.Int).SetUint64(overQ))
	}
	r := new(big.Rat).SetFrac(new(big.Int).SetUint64(x.r), new(big.Int).SetUint64(a.den))
	return r.Add(r, new(big.Rat).SetInt(new(big.Int).SetUint64(x.q)))
}
