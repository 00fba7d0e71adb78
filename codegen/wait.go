package codegen

import (
	"github.com/wfc-lang/wfc/check"
	"github.com/wfc-lang/wfc/check/timespan"
)

// WaitBefore returns the nominal wait before attempt k (k ≥ 2) of the
// schedule: the wait of the row that holds k, the number the table prints.
// Past a truncated Linear table it continues the table's arithmetic: the
// interval times the retry, capped, saturated. Attempt 1 and attempts past
// the budget wait 0. Jitter is not drawn: this is the wait at a draw of ½.
func (s *Schedule) WaitBefore(k int64) Ticks {
	if k < 2 || k > s.Attempts {
		return 0
	}
	rows := s.Rows
	lo, hi := 0, len(rows)
	for lo < hi {
		mid := (lo + hi) / 2
		if rows[mid].To < k {
			lo = mid + 1
		} else {
			hi = mid
		}
	}
	if lo < len(rows) && rows[lo].From <= k {
		return rows[lo].Wait
	}
	// Beyond the rows of a truncated table: only Linear below its cap.
	if s.Shape != check.ShapeLinear {
		return rows[len(rows)-1].Wait
	}
	j := k - 1
	w := timespan.MaxTicks
	if s.Interval == 0 {
		w = 0
	} else if j <= timespan.MaxTicks/s.Interval {
		w = s.Interval * j
	}
	if s.HasCap && w > s.Cap {
		w = s.Cap
	}
	return w
}

// DrawnWait is the wait before attempt k (k ≥ 2) with the jitter drawn
// as u, a uniform draw in [0, 1): the policy's uncapped wait scaled by
// 1 - f + 2f·u, then capped, rounded to the nearest tick. It is the wait
// a concrete timeline (Options.Draws) adds before attempt k, and the one a
// run with the same draws waits. Without jitter it is NominalWait(k).
func (s *Schedule) DrawnWait(k int64, u float64) Ticks {
	if k < 2 {
		return 0
	}
	if s.Jitter == nil {
		return s.NominalWait(k)
	}
	return sat(drawn(s.bigWaits(), k-1, u))
}
