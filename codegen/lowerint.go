package codegen

import (
	"math/bits"

	"github.com/wfc-lang/wfc/check"
	"github.com/wfc-lang/wfc/check/timespan"
)

// intWaits are a policy's waits in exact fractions of a tick over the
// jitter's denominator (tickmath.go): lowerBig's waits, without math/big.
type intWaits struct {
	fracs
	shape    check.Shape
	i        uint64 // the interval
	cap      tick
	hasCap   bool
	lom, him uint64 // den-num and den+num: the factors of 1-f and 1+f
}

// intWaits are s's waits in int64 ticks, or false when the jitter's
// denominator is too large for them (more than 18 decimals).
func (s *Schedule) intWaits() (intWaits, bool) {
	w := intWaits{fracs: fracs{den: 1}, shape: check.ShapeNone, lom: 1, him: 1}
	if s.Consumer.Policy == nil {
		return w, true
	}
	if s.Interval < 0 || s.Cap < 0 {
		return w, false // not a valid policy; the rationals say what it means
	}
	w.shape, w.i = s.Shape, uint64(s.Interval)
	if s.Shape == check.ShapeEvery {
		// A cadence: what is left of the interval after an attempt.
		if s.Duration < 0 {
			return w, false
		}
		w.shape, w.i = check.ShapeFixed, uint64(max(0, s.Interval-s.Duration))
	}
	w.cap, w.hasCap = wholeTicks(s.Cap), s.HasCap
	if f := s.Jitter; f != nil {
		num, den := f.Num(), f.Denom()
		if !den.IsUint64() || den.Uint64() > maxDen || !num.IsUint64() || num.Uint64() > den.Uint64() {
			return w, false
		}
		w.den = den.Uint64()
		w.lom, w.him = w.den-num.Uint64(), w.den+num.Uint64()
	}
	return w, true
}

// base is the nominal wait before retry j, uncapped, or false past 2^64-1
// ticks.
func (w *intWaits) base(j int64) (uint64, bool) {
	switch w.shape {
	case check.ShapeFixed:
		return w.i, true
	case check.ShapeLinear:
		hi, lo := bits.Mul64(w.i, uint64(j))
		return lo, hi == 0
	case check.ShapeExponential:
		if w.i == 0 {
			return 0, true
		}
		e := uint64(j - 1)
		if e >= 64 || uint64(bits.Len64(w.i))+e > 64 {
			return 0, false
		}
		return w.i << e, true
	}
	return 0, true // none: no wait
}

func (w *intWaits) capped(x tick) tick {
	if w.hasCap && x.cmp(w.cap) > 0 {
		return w.cap
	}
	return x
}

// at is lowerBig's waits.at: (nominal, least, most) for retry j, capped
// after jitter. It is false when the wait leaves 2^64 ticks while jitter
// could still bring its least back into range; the rationals take over.
func (w *intWaits) at(j int64) (nom, lo, hi tick, ok bool) {
	b, ok := w.base(j)
	if !ok {
		if w.lom != w.den {
			return tick{}, tick{}, tick{}, false
		}
		// Without jitter every bound is the wait, past the range.
		x := w.capped(overTicks)
		return x, x, x, true
	}
	nom = overTicks
	if b < overQ {
		nom = tick{q: b}
	}
	if w.lom == w.den { // no jitter
		nom = w.capped(nom)
		return nom, nom, nom, true
	}
	return w.capped(nom), w.capped(w.scale(b, w.lom)), w.capped(w.scale(b, w.him)), true
}

// stable is lowerBig's waits.stable: whether retry j's waits (nom, lo, hi)
// repeat for every later retry. The rationals' other way to be stable, a
// base at baseLimit (2^200), is never reached here: at gives up first.
func (w *intWaits) stable(nom, lo, hi tick) bool {
	switch w.shape {
	case check.ShapeNone, check.ShapeFixed:
		return true
	}
	if w.i == 0 {
		return true
	}
	if w.hasCap && lo.cmp(w.cap) >= 0 {
		return true // every bound is at the cap
	}
	if w.lom == 0 {
		// Jitter(1): the least is always 0; the rest settle at the cap.
		return w.hasCap && nom.cmp(w.cap) >= 0 && hi.cmp(w.cap) >= 0
	}
	return lo.q >= uint64(timespan.MaxTicks)
}

var hourTick = wholeTicks(timespan.TicksPerHour)

// recordInt is lintFacts.record for the int64 waits.
func (f *lintFacts) recordInt(w *intWaits, j int64, nom, lo, hi tick, jitter bool) {
	if f.overflowAt == 0 && hi.aboveMax() {
		f.overflowAt = j
	}
	if f.overHourAt == 0 && nom.cmp(hourTick) > 0 {
		f.overHourAt, f.overHourWait = j, w.sat(nom)
	}
	if f.lockstepFrom == 0 && jitter && w.hasCap && lo.cmp(w.cap) >= 0 {
		f.lockstepFrom = j
	}
}

// lowerInt is lowerBig in int64 ticks. It is false, and the caller lowers
// in rationals, when a value leaves what uint64 fractions hold: a jitter
// denominator past 2^62, a negative duration (a lint-only table of a
// negative window), or a wait past 2^64 ticks under jitter.
func lowerInt(c *check.Consumer, opt Options) (*Schedule, bool) {
	s := newSchedule(c, opt)
	w, ok := s.intWaits()
	if !ok || s.Duration < 0 {
		return nil, false
	}
	dur := wholeTicks(s.Duration)
	// Most tables have a row per attempt up to a few dozen, or two.
	rows := min(s.Attempts, 16)
	if w.shape == check.ShapeNone || w.shape == check.ShapeFixed {
		rows = min(s.Attempts, 2)
	}
	s.Rows = make([]Row, 1, rows)
	s.Rows[0] = Row{From: 1, To: 1} // attempt 1
	var start, latest tick          // start of the previous attempt
	n := s.Attempts
	j := int64(1) // retry index: the wait before attempt j+1
	limit := opt.rowLimit(s.Shape)
	for j <= n-1 {
		if len(s.Rows) >= limit {
			s.Truncated = true
			break
		}
		nom, lo, hi, ok := w.at(j)
		if !ok {
			return nil, false
		}
		r := j
		if w.stable(nom, lo, hi) {
			r = n - 1
		}
		s.facts.recordInt(&w, j, nom, lo, hi, s.Jitter != nil)
		// Starts of attempt j+1: previous start + duration + wait.
		start = w.add(w.add(start, dur), lo)
		latest = w.add(w.add(latest, dur), hi)
		s.Rows = append(s.Rows, Row{
			From: j + 1, To: r + 1,
			Wait: w.sat(nom), Min: w.sat(lo), Max: w.sat(hi),
			Starts: w.sat(start), StartsLatest: w.sat(latest),
		})
		// Advance over the rest of the run: (r-j) more attempts of the same wait.
		if k := r - j; k > 0 {
			start = w.add(start, w.times(uint64(k), w.add(dur, lo)))
			latest = w.add(latest, w.times(uint64(k), w.add(dur, hi)))
		}
		j = r + 1
	}
	if s.Truncated {
		// A Linear table cut at its row bound: its closed-form sums are done
		// once, in rationals, as lowerBig does them.
		bdur := ratTicks(s.Duration)
		bs, bl := s.finishLinear(s.bigWaits(), j, n-1, w.rat(start), w.rat(latest), bdur)
		s.GivesUp = sat(bs.Add(bs, bdur))
		s.GivesUpLatest = sat(bl.Add(bl, bdur))
	} else {
		s.GivesUp = w.sat(w.add(start, dur))
		s.GivesUpLatest = w.sat(w.add(latest, dur))
	}
	if opt.HasSeed || opt.Draws != nil {
		s.Timeline = timeline(s.bigWaits(), n, ratTicks(s.Duration), opt)
	}
	s.finishBounds()
	return s, true
}
