package codegen

import (
	"math"
	"math/big"

	"github.com/wfc-lang/wfc/check"
	"github.com/wfc-lang/wfc/check/timespan"
)

// The bounds of a table beside its budget: a step's `deadline:`, which
// cuts the attempts that would start after it, and TimeSpan's range, past
// which a run stops (docs/language.md, "Running a workflow"). Both are
// computed on the nominal waits, exactly, the way a run without draws
// meets them, so that `wfc schedule` and `wfc test` agree on where a
// table ends.

// Stop is where a run that starts at time 0 leaves TimeSpan's range.
type Stop struct {
	// Attempt is the attempt (a milestone's window) that cannot start, or,
	// when Ends, that starts but cannot end, within TimeSpan.MaxValue.
	Attempt int64
	Ends    bool
	// At is when the run stops: the end of the attempt before (it cannot
	// start) or its start (it cannot end).
	At Ticks
}

// cutAtDeadline bounds a step's attempts by its deadline: those that start
// no later than it after the first one's start (nominal waits, attempts of
// Duration). A budget of the deadline alone becomes that count; a
// `.MaxAttempts(…)` budget it cuts records the first attempt it keeps out.
func (s *Schedule) cutAtDeadline() {
	n := s.Attempts
	if s.Budget == check.BudgetDeadline {
		n = math.MaxInt64
	}
	k := startsBy(s.bigWaits(), n, ratTicks(s.Duration), ratTicks(s.Deadline))
	if k < n {
		if s.Budget != check.BudgetDeadline {
			s.DeadlineCut = k + 1
		}
		s.Attempts = k
	}
}

// startsBy is how many of n attempts start no later than d after the first
// one's start, each taking dur, with w's nominal waits between them.
func startsBy(w *waits, n int64, dur, d *big.Rat) int64 {
	start := new(big.Rat)
	k := int64(1) // attempts that start by d so far
	for k < n {
		j := k // the retry before attempt k+1
		nom := w.capped(w.base(j))
		step := new(big.Rat).Add(dur, nom)
		if w.shape == check.ShapeLinear && (w.cap == nil || nom.Cmp(w.cap) < 0) && w.i.Sign() > 0 {
			return linearStartsBy(w, n, k, start, dur, d)
		}
		if w.shape == check.ShapeNone || w.shape == check.ShapeFixed || (w.cap != nil && nom.Cmp(w.cap) >= 0) || w.base(j) == baseLimit {
			// The same step from here on: closed form.
			if step.Sign() == 0 {
				return n // every attempt starts at once: the deadline cuts none
			}
			q := floorDiv(new(big.Rat).Sub(d, start), step)
			if !q.IsInt64() || q.Int64() >= n-k {
				return n
			}
			return k + q.Int64()
		}
		start.Add(start, step)
		if start.Cmp(d) > 0 {
			return k
		}
		k++
	}
	return n
}

// linearStartsBy is startsBy for a Linear policy below its cap from
// attempt k (which started at start): the last attempt m whose start,
// start + Σ_{j=k..m-1} (dur + min(j·i, cap)), is at most d, found by
// bisection on the closed-form sum.
func linearStartsBy(w *waits, n, k int64, start, dur, d *big.Rat) int64 {
	startOf := func(m int64) *big.Rat {
		if m <= k {
			return start
		}
		x := new(big.Rat).Add(start, new(big.Rat).Mul(dur, new(big.Rat).SetInt64(m-k)))
		return x.Add(x, linearSum(w.i, big.NewRat(1, 1), w.cap, k, m-1))
	}
	lo, hi := k, n // startOf(lo) ≤ d
	if startOf(hi).Cmp(d) <= 0 {
		return n
	}
	for hi-lo > 1 {
		mid := lo + (hi-lo)/2
		if startOf(mid).Cmp(d) <= 0 {
			lo = mid
		} else {
			hi = mid
		}
	}
	return lo
}

// floorDiv is ⌊a/b⌋ for a ≥ 0 and b > 0.
func floorDiv(a, b *big.Rat) *big.Int {
	q := new(big.Rat).Quo(a, b)
	return new(big.Int).Quo(q.Num(), q.Denom())
}

// finishBounds ends a lowered table where a bound ends it: a step gives
// up at its deadline at the latest, and a table whose run would leave
// TimeSpan's range stops there (Stop).
func (s *Schedule) finishBounds() {
	if s.HasDeadline && s.Duration > 0 {
		// An attempt running when the deadline passes is stopped there.
		s.GivesUp, s.GivesUpLatest = min(s.GivesUp, s.Deadline), min(s.GivesUpLatest, s.Deadline)
	}
	if s.Duration < 0 || s.GivesUp < timespan.MaxTicks {
		// The last attempt ends, exactly, before TimeSpan.MaxValue: so
		// does every attempt before it.
		return
	}
	s.Stop = s.findStop()
	if s.Stop == nil {
		return
	}
	// The table ends with the window that cannot end, or before the
	// attempt that cannot start.
	last := s.Stop.Attempt
	if !s.Stop.Ends {
		last--
	}
	for i := range s.Rows {
		if s.Rows[i].To >= last {
			s.Rows = s.Rows[:i+1]
			s.Rows[i].To = last
			s.Truncated = false // the stop, not the row bound, ends it
			break
		}
	}
	s.GivesUp, s.GivesUpLatest = s.Stop.At, s.Stop.At
	if len(s.Timeline) > int(last) {
		s.Timeline = s.Timeline[:last]
	}
}

// findStop walks the table's attempts on their nominal waits, exactly,
// for the first that would start, or end, past TimeSpan.MaxValue.
func (s *Schedule) findStop() *Stop {
	max := ratTicks(timespan.MaxTicks)
	dur := ratTicks(s.Duration)
	if dur.Cmp(max) > 0 {
		return &Stop{Attempt: 1, Ends: true}
	}
	prev := new(big.Rat) // start of the attempt before the row
	for _, r := range s.Rows {
		if r.From == 1 {
			continue
		}
		step := new(big.Rat).Add(dur, ratTicks(r.Wait))
		first := new(big.Rat).Add(prev, step) // start of attempt r.From
		if st := rowStop(first, prev, step, dur, max, r.From, r.To); st != nil {
			return st
		}
		prev = new(big.Rat).Add(first, new(big.Rat).Mul(step, new(big.Rat).SetInt64(r.To-r.From)))
	}
	// Attempts past a truncated Linear table.
	last := s.Rows[len(s.Rows)-1].To
	if last >= s.Attempts {
		return nil
	}
	w := s.bigWaits()
	startOf := func(k int64) *big.Rat { // start of attempt k > last
		x := new(big.Rat).Add(prev, new(big.Rat).Mul(dur, new(big.Rat).SetInt64(k-last)))
		return x.Add(x, linearSum(w.i, big.NewRat(1, 1), w.cap, last, k-1))
	}
	endPast := func(k int64) bool { return new(big.Rat).Add(startOf(k), dur).Cmp(max) > 0 }
	if !endPast(s.Attempts) {
		return nil
	}
	lo, hi := last, s.Attempts // endPast(hi), !endPast(lo)
	for hi-lo > 1 {
		mid := lo + (hi-lo)/2
		if endPast(mid) {
			hi = mid
		} else {
			lo = mid
		}
	}
	if startOf(hi).Cmp(max) > 0 {
		return &Stop{Attempt: hi, At: sat(new(big.Rat).Add(startOf(hi-1), dur))}
	}
	return &Stop{Attempt: hi, Ends: true, At: sat(startOf(hi))}
}

// rowStop finds the first attempt of a row (attempts from..to, the first
// starting at first, each step after the one before; prev the start of
// the attempt before the row) that would start, or end, past max.
func rowStop(first, prev, step, dur, max *big.Rat, from, to int64) *Stop {
	if first.Cmp(max) > 0 {
		return &Stop{Attempt: from, At: sat(new(big.Rat).Add(prev, dur))}
	}
	if new(big.Rat).Add(first, dur).Cmp(max) > 0 {
		return &Stop{Attempt: from, Ends: true, At: sat(first)}
	}
	if step.Sign() == 0 || from == to {
		return nil
	}
	// m attempts after the first: start first + m·step.
	mStart := floorDiv(new(big.Rat).Sub(max, first), step)
	mStart.Add(mStart, big.NewInt(1))
	mEnd := floorDiv(new(big.Rat).Sub(new(big.Rat).Sub(max, dur), first), step)
	mEnd.Add(mEnd, big.NewInt(1))
	n := big.NewInt(to - from)
	switch {
	case mEnd.Cmp(mStart) < 0 && mEnd.Cmp(n) <= 0:
		m := mEnd.Int64()
		at := new(big.Rat).Add(first, new(big.Rat).Mul(step, new(big.Rat).SetInt64(m)))
		return &Stop{Attempt: from + m, Ends: true, At: sat(at)}
	case mStart.Cmp(n) <= 0:
		m := mStart.Int64()
		at := new(big.Rat).Add(first, new(big.Rat).Mul(step, new(big.Rat).SetInt64(m-1)))
		return &Stop{Attempt: from + m, At: sat(at.Add(at, dur))}
	}
	return nil
}

// NominalWait is the policy's nominal wait before attempt k (k ≥ 2) by its
// shape, whatever the table's rows hold: a run reaches attempts past a
// table a deadline cut (a Retry-After shorter than the policy's wait
// brings more attempts within the deadline). Capped, saturated; 0 for
// attempt 1 and for no policy. A cadence (Every) returns its interval:
// the run waits what is left of it since the last start.
func (s *Schedule) NominalWait(k int64) Ticks {
	if k < 2 {
		return 0
	}
	j := k - 1
	var w Ticks
	switch s.Shape {
	case check.ShapeFixed, check.ShapeEvery:
		w = s.Interval
	case check.ShapeLinear:
		w = satMul(s.Interval, j)
	case check.ShapeExponential:
		w = s.Interval
		for e := int64(1); e < j && w > 0 && w < timespan.MaxTicks && !(s.HasCap && w >= s.Cap); e++ {
			w = satMul(w, 2)
		}
	}
	if s.HasCap && w > s.Cap {
		w = s.Cap
	}
	return w
}
