// Package timespan is .NET's TimeSpan as the language uses it: durations in
// ticks of 100 ns, their range, and the compact text form the schedule
// table prints and command-line flags read (`2s`, `1m4s`, `250ms`, `1d2h`).
// The checker evaluates `TimeSpan.FromSeconds(…)` into Ticks; codegen does
// its arithmetic and prints them.
package timespan

import (
	"fmt"
	"math"
	"math/big"
	"strconv"
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

// Format prints a duration compactly, largest unit first, zero parts
// left out (docs/language.md, Durations): 2s, 1m4s, 1d2h, 1.6s, 250ms, 0s.
func Format(t Ticks) string {
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

// Parse reads the compact form Format prints (`2s`, `1m4s`,
// `1.5s`, `250ms`, `1d2h`), for command-line flags. It is exact and refuses
// negative values and values beyond TimeSpan's range.
func Parse(s string) (Ticks, error) {
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
	// (durations here are never negative): 0.00009ms is one tick.
	q, r := new(big.Int).QuoRem(total.Num(), total.Denom(), new(big.Int))
	if r.Lsh(r, 1).Cmp(total.Denom()) >= 0 {
		q.Add(q, big.NewInt(1))
	}
	if !q.IsInt64() {
		return 0, fmt.Errorf("duration %q is beyond TimeSpan's range", orig)
	}
	return q.Int64(), nil
}
