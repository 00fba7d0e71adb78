// Package codegen lowers every policy consumer of a checked program — each
// milestone and each durable step — into the resolved schedule table of
// docs/language.md ("The schedule table"): the normalised policy, the budget, and per attempt the wait
// before it and when it starts. The policy lints WF310–WF316 are read off the
// same table (lints.go), so the numbers in a warning are the numbers in the
// table.
//
// Arithmetic is exact in 100 ns ticks and saturates at .NET's
// TimeSpan.MaxValue; it never wraps. It runs in uint64 fractions over the
// jitter's denominator (lowerint.go, tickmath.go) and falls back to
// math/big rationals (lowerBig, also the reference the int64 path is tested
// against) only where a value leaves that range: a jitter of more than 18
// decimals, a negative duration, a wait past 2^64 ticks under jitter. Rows are run-length compressed and the
// work is bounded by the number of distinct waits, not by the budget, so
// `.MaxAttempts(2147483647)` costs what `.MaxAttempts(10)` costs.
package codegen

import (
	"math/big"

	"github.com/wfc-lang/wfc/check"
	"github.com/wfc-lang/wfc/check/timespan"
)

// Ticks are 100 ns units (package timespan).
type Ticks = timespan.Ticks

// MaxRows bounds the rows of one table. Only a Linear policy without a cap
// it reaches has a distinct wait on every attempt; past MaxRows rows its
// table is cut (Truncated) while the totals stay exact.
const MaxRows = 10000

// SummaryRows is the row bound (Options.MaxRows) of the commands that show
// at most the first rows of a table — `wfc check`, the language server's
// hover — but need its totals and lints, which stay exact. It keeps their
// cost per consumer small and constant: 160 steps of
// `Backoff.Linear(…).MaxAttempts(10000)` once cost `wfc check` 250 MB.
const SummaryRows = 32

// maxShapeRows bounds the rows of a table that is not Linear, whatever
// its budget: an Exponential wait settles (at its cap, at TimeSpan's
// range, or at baseLimit = 2^200 ticks) within about 260 retries, Fixed and
// none in one. Only Linear tables are cut at Options.MaxRows, since only
// their totals past the cut have a closed form (finishLinear).
const maxShapeRows = 300

// MaxTimeline bounds the attempts of a concrete timeline.
const MaxTimeline = 10000

// Options tune lowering.
type Options struct {
	// AttemptDuration is how long each attempt of a durable step takes.
	AttemptDuration Ticks
	// Draws, if set, are the uniform draws in [0,1) that jitter uses, in
	// order; they restart for each consumer and repeat when they run out.
	Draws []float64
	// Seed, if HasSeed, draws pseudo-randomly instead.
	Seed    uint64
	HasSeed bool
	// MaxRows, if positive and below MaxRows, cuts Linear tables at this
	// many rows instead (SummaryRows for check and the language server).
	// The totals (GivesUp, GivesUpLatest), the lints' facts and WaitBefore
	// stay exact; only the rows shown are fewer. Other shapes are never cut:
	// they have at most a few hundred rows (maxShapeRows).
	MaxRows int
}

// rowLimit is the number of rows after which a table of shape sh is cut.
func (o Options) rowLimit(sh check.Shape) int {
	if sh == check.ShapeLinear && o.MaxRows > 0 && o.MaxRows < MaxRows {
		return max(o.MaxRows, 2)
	}
	return MaxRows
}

// Row is a run of attempts with the same wait before each.
type Row struct {
	From, To int64
	Wait     Ticks // nominal wait before each attempt of the row (capped)
	Min, Max Ticks // least and most under jitter, capped after jitter
	// Starts and StartsLatest: when attempt From starts, earliest and latest.
	Starts, StartsLatest Ticks
}

// Schedule is one consumer's resolved table.
type Schedule struct {
	Consumer *check.Consumer
	Shape    check.Shape
	Interval Ticks
	Cap      Ticks
	HasCap   bool
	Jitter   *big.Rat // nil or 0: no jitter
	Attempts int64
	Budget   check.Budget
	Window   Ticks // milestones only
	// Duration is what one attempt takes: the window, or --attempt-duration.
	Duration Ticks

	Rows      []Row
	Truncated bool // more rows than the row bound (the totals are still exact)

	GivesUp, GivesUpLatest Ticks
	Timeline               []Ticks // with Draws or Seed: the start of each attempt

	// Timeout is a step's `timeout:` (0: none): an attempt longer than
	// it ends at it, so Duration is at most Timeout. Deadline is its
	// `deadline:`, when HasDeadline: the table holds the attempts that
	// start no later than it after the first one's start, and DeadlineCut
	// is the first attempt in the policy's budget it keeps from starting
	// (0 when it cuts none); the step gives up at the deadline at the
	// latest (GivesUp).
	Timeout     Ticks
	Deadline    Ticks
	HasDeadline bool
	DeadlineCut int64
	// Stop, when set, is the first window or attempt that a run starting
	// at time 0 cannot have within TimeSpan's range: the run stops there
	// (docs/language.md, "Limits"), and the table ends with it.
	Stop *Stop

	// facts are what the lints read, found while the table is built.
	facts lintFacts
}

// lintFacts are the facts of a table the lints (lints.go) read. Lowering
// records them as it walks the attempts, so the lints need no second pass
// and their numbers are the table's.
type lintFacts struct {
	// overflowAt is the first retry whose most wait exceeds TimeSpan's
	// range (0 if none): WF314.
	overflowAt int64
	// overHourAt is the first retry whose nominal wait passes an hour (0 if
	// none), with that wait: WF312 reads it for uncapped Exponential
	// policies, whose tables are never truncated.
	overHourAt   int64
	overHourWait Ticks
	// lockstepFrom is the first retry from which every jittered wait is
	// exactly the cap (0 if never in budget): WF313.
	lockstepFrom int64
}

var (
	maxTicksRat = new(big.Rat).SetInt64(timespan.MaxTicks)
	// baseLimit bounds the exponential base: past it every jittered bound
	// has long saturated, because 1-f is at least 10^-28 (the lexer reports
	// a literal with more than lexer.MaxFractionDigits = 28 decimals as
	// WF004 and the checker drops it; TestBaseLimitCoversFractionDigits).
	baseLimit = new(big.Rat).SetInt(new(big.Int).Lsh(big.NewInt(1), 200))
)

// Lower lowers every valid consumer of a checked program, in source order.
func Lower(res *check.Result, opt Options) []*Schedule {
	var out []*Schedule
	_ = LowerEach(res, opt, func(s *Schedule) error {
		out = append(out, s)
		return nil
	})
	return out
}

// LowerEach is Lower one table at a time: it hands each valid consumer's
// table to f, in source order, and stops at f's first error. A caller that
// writes each table and drops it (`wfc schedule`) holds one table at a
// time, however many consumers of 10,000 rows the program has.
func LowerEach(res *check.Result, opt Options, f func(*Schedule) error) error {
	for _, c := range res.Consumers {
		if !c.Valid {
			continue
		}
		if err := f(lowerOne(c, opt)); err != nil {
			return err
		}
	}
	return nil
}

// LowerForLints is LowerLintOnly (lints.go) with lowering options: the
// tables of the consumers whose schedule is not valid but whose policy and
// budget are (a negative `Within`), lowered for their lints alone. Callers
// that cut tables (Options.MaxRows) cut these too: 640 milestones of a
// negative window and `Linear(…).MaxAttempts(10000)` cost `wfc check`
// 630 MB while only their valid tables were cut. The lints do not depend
// on the cut.
func LowerForLints(res *check.Result, opt Options) []*Schedule {
	var out []*Schedule
	for _, c := range res.Consumers {
		if c.Lintable && !c.Valid {
			out = append(out, lowerOne(c, opt))
		}
	}
	return out
}

// policyTerm computes the nominal, least and most wait before retry j (the
// wait before attempt j+1), exact, capped, not yet saturated.
type waits struct {
	shape  check.Shape
	i      *big.Rat
	cap    *big.Rat // nil: none
	lo, hi *big.Rat // 1-f and 1+f
}

func (w *waits) base(j int64) *big.Rat {
	switch w.shape {
	case check.ShapeFixed:
		return w.i
	case check.ShapeLinear:
		return new(big.Rat).Mul(w.i, new(big.Rat).SetInt64(j))
	case check.ShapeExponential:
		if w.i.Sign() == 0 {
			return w.i
		}
		// i·2^(j-1), clamped far above saturation.
		e := j - 1
		if e > 260 {
			e = 260
		}
		b := new(big.Rat).Mul(w.i, new(big.Rat).SetInt(new(big.Int).Lsh(big.NewInt(1), uint(e))))
		if b.Cmp(baseLimit) > 0 {
			return baseLimit
		}
		return b
	}
	return new(big.Rat) // none: no wait
}

func (w *waits) capped(x *big.Rat) *big.Rat {
	if w.cap != nil && x.Cmp(w.cap) > 0 {
		return w.cap
	}
	return x
}

// at returns (nominal, least, most) for retry j, capped after jitter.
func (w *waits) at(j int64) (nom, lo, hi *big.Rat) {
	b := w.base(j)
	return w.capped(b), w.capped(new(big.Rat).Mul(b, w.lo)), w.capped(new(big.Rat).Mul(b, w.hi))
}

// stable reports whether the waits of retry j, (nom, lo, hi) = w.at(j),
// repeat for every later retry.
func (w *waits) stable(j int64, nom, lo, hi *big.Rat) bool {
	switch w.shape {
	case check.ShapeNone, check.ShapeFixed:
		return true
	}
	if w.i.Sign() == 0 {
		return true
	}
	if w.cap != nil && lo.Cmp(w.cap) >= 0 {
		return true // every bound is at the cap
	}
	if w.lo.Sign() == 0 {
		// Jitter(1): the least is always 0; the rest settle at the cap or saturate.
		return (w.cap != nil && nom.Cmp(w.cap) >= 0 && hi.Cmp(w.cap) >= 0) || w.base(j) == baseLimit
	}
	return lo.Cmp(maxTicksRat) >= 0 || w.base(j) == baseLimit
}

func sat(x *big.Rat) Ticks {
	if x.Cmp(maxTicksRat) >= 0 {
		return timespan.MaxTicks
	}
	if x.Sign() <= 0 {
		return 0
	}
	// Round to the nearest tick.
	n := new(big.Int).Mul(x.Num(), big.NewInt(2))
	n.Add(n, x.Denom())
	n.Quo(n, new(big.Int).Mul(x.Denom(), big.NewInt(2)))
	return n.Int64()
}

var hourRat = ratTicks(timespan.TicksPerHour)

// record notes the facts of retry j, whose nominal, least and most waits
// are nom, lo and hi (capped); jitter says whether the policy has any.
func (f *lintFacts) record(w *waits, j int64, nom, lo, hi *big.Rat, jitter bool) {
	if f.overflowAt == 0 && hi.Cmp(maxTicksRat) > 0 {
		f.overflowAt = j
	}
	if f.overHourAt == 0 && nom.Cmp(hourRat) > 0 {
		f.overHourAt, f.overHourWait = j, sat(nom)
	}
	if f.lockstepFrom == 0 && jitter && w.cap != nil && lo.Cmp(w.cap) >= 0 {
		f.lockstepFrom = j
	}
}

func ratTicks(t Ticks) *big.Rat { return new(big.Rat).SetInt64(t) }

// lowerOne lowers one consumer: in int64 ticks (lowerInt) unless a value
// leaves their range, else in exact rationals (lowerBig). Both give the
// same table to the tick (TestLowerIntMatchesBig).
func lowerOne(c *check.Consumer, opt Options) *Schedule {
	if s, ok := lowerInt(c, opt); ok {
		return s
	}
	return lowerBig(c, opt)
}

// newSchedule is a consumer's table before lowering: the normalised policy,
// the budget and the attempt duration.
func newSchedule(c *check.Consumer, opt Options) *Schedule {
	s := &Schedule{Consumer: c, Attempts: c.Attempts, Budget: c.Budget}
	if p := c.Policy; p != nil {
		s.Shape, s.Interval = p.Shape, p.Interval
		if p.HasCap() {
			s.Cap, s.HasCap = p.Cap, true
		}
		if p.Jitter != nil && p.Jitter.Sign() > 0 {
			s.Jitter = p.Jitter
		}
	}
	if c.IsStep() {
		s.Duration = opt.AttemptDuration
		if st := c.Step; st != nil {
			s.Timeout, s.Deadline, s.HasDeadline = st.Timeout, st.Deadline, st.HasDeadline
			if s.Timeout > 0 && s.Duration > s.Timeout {
				s.Duration = s.Timeout // an attempt longer than its timeout ends at it
			}
		}
	} else {
		s.Window = c.Window
		s.Duration = c.Window
	}
	if s.HasDeadline && s.Duration >= 0 {
		s.cutAtDeadline()
	}
	return s
}

// bigWaits are a table's waits as exact rationals.
func (s *Schedule) bigWaits() *waits {
	w := &waits{shape: check.ShapeNone, i: new(big.Rat), lo: big.NewRat(1, 1), hi: big.NewRat(1, 1)}
	if s.Consumer.Policy == nil {
		return w
	}
	w.shape, w.i = s.Shape, ratTicks(s.Interval)
	if s.Shape == check.ShapeEvery {
		// A cadence: the wait is what is left of the interval after an
		// attempt (a window) of Duration.
		w.shape, w.i = check.ShapeFixed, ratTicks(max(0, s.Interval-max(s.Duration, 0)))
	}
	if s.HasCap {
		w.cap = ratTicks(s.Cap)
	}
	if s.Jitter != nil {
		w.lo = new(big.Rat).Sub(big.NewRat(1, 1), s.Jitter)
		w.hi = new(big.Rat).Add(big.NewRat(1, 1), s.Jitter)
	}
	return w
}

// lowerBig lowers one consumer in exact rationals of ticks. It is the
// reference the int64 lowering is tested against, and its fallback when a
// value leaves int64 (a jitter of more than 18 decimals, a wait past
// 2^64 ticks that jitter may still bring back into range).
func lowerBig(c *check.Consumer, opt Options) *Schedule {
	s := newSchedule(c, opt)
	w := s.bigWaits()
	dur := ratTicks(s.Duration)
	// Attempt 1.
	s.Rows = append(s.Rows, Row{From: 1, To: 1})
	start, latest := new(big.Rat), new(big.Rat) // start of the previous attempt
	n := s.Attempts
	j := int64(1) // retry index: the wait before attempt j+1
	limit := opt.rowLimit(s.Shape)
	for j <= n-1 {
		if len(s.Rows) >= limit {
			s.Truncated = true
			break
		}
		nom, lo, hi := w.at(j)
		r := j
		if w.stable(j, nom, lo, hi) {
			r = n - 1
		}
		s.facts.record(w, j, nom, lo, hi, s.Jitter != nil)
		// Starts of attempt j+1: previous start + duration + wait.
		start.Add(start, dur).Add(start, lo)
		latest.Add(latest, dur).Add(latest, hi)
		s.Rows = append(s.Rows, Row{
			From: j + 1, To: r + 1,
			Wait: sat(nom), Min: sat(lo), Max: sat(hi),
			Starts: sat(start), StartsLatest: sat(latest),
		})
		// Advance over the rest of the run: (r-j) more attempts of the same wait.
		if k := r - j; k > 0 {
			kk := new(big.Rat).SetInt64(k)
			start.Add(start, new(big.Rat).Mul(kk, new(big.Rat).Add(dur, lo)))
			latest.Add(latest, new(big.Rat).Mul(kk, new(big.Rat).Add(dur, hi)))
		}
		j = r + 1
	}
	if s.Truncated {
		// Finish the sums exactly: the remaining retries j..n-1 of a Linear
		// policy that has not reached its cap.
		start, latest = s.finishLinear(w, j, n-1, start, latest, dur)
	}
	s.GivesUp = sat(new(big.Rat).Add(start, dur))
	s.GivesUpLatest = sat(new(big.Rat).Add(latest, dur))
	if opt.HasSeed || opt.Draws != nil {
		s.Timeline = timeline(w, n, dur, opt)
	}
	s.finishBounds()
	return s
}

// finishLinear adds the waits of retries a..b of a Linear policy to the
// starts, in closed form per bound: below the cap the sum of j·i·c, at it
// the cap times the count. The lints' facts that lie in these retries are
// found in closed form too, so a table cut early (Options.MaxRows) lints
// as the whole table would.
func (s *Schedule) finishLinear(w *waits, a, b int64, start, latest, dur *big.Rat) (*big.Rat, *big.Rat) {
	count := new(big.Rat).SetInt64(b - a + 1)
	start = new(big.Rat).Add(start, new(big.Rat).Mul(count, dur))
	latest = new(big.Rat).Add(latest, new(big.Rat).Mul(count, dur))
	start.Add(start, linearSum(w.i, w.lo, w.cap, a, b))
	latest.Add(latest, linearSum(w.i, w.hi, w.cap, a, b))
	if a > b {
		return start, latest
	}
	nom, lo, hi := w.at(b) // the waits grow with j: the last is the largest
	if s.facts.overflowAt == 0 && hi.Cmp(maxTicksRat) > 0 {
		// The first retry past the range: hi(j) = j·i·(1+f) > Max.
		s.facts.overflowAt = firstAbove(w.i, w.hi, maxTicksRat, a, b)
	}
	if s.facts.overHourAt == 0 && nom.Cmp(hourRat) > 0 {
		j := firstAbove(w.i, big.NewRat(1, 1), hourRat, a, b)
		n, _, _ := w.at(j)
		s.facts.overHourAt, s.facts.overHourWait = j, sat(n)
	}
	if s.facts.lockstepFrom == 0 && s.Jitter != nil && w.cap != nil && lo.Cmp(w.cap) >= 0 {
		// The first retry whose least wait reaches the cap: j·i·(1-f) ≥ cap.
		s.facts.lockstepFrom = firstAtLeast(w.i, w.lo, w.cap, a, b)
	}
	return start, latest
}

// linearSum is Σ_{j=a..b} min(j·i·c, cap) (cap nil: none), exact.
func linearSum(i, c, cap *big.Rat, a, b int64) *big.Rat {
	step := new(big.Rat).Mul(i, c)
	if step.Sign() == 0 {
		return new(big.Rat)
	}
	m := b // last j below the cap
	if cap != nil {
		// j·step < cap ⇔ j < cap/step.
		q := new(big.Rat).Quo(cap, step)
		fl := new(big.Int).Quo(q.Num(), q.Denom())
		if new(big.Rat).SetInt(fl).Cmp(q) == 0 {
			fl.Sub(fl, big.NewInt(1))
		}
		if fl.IsInt64() && fl.Int64() < m {
			m = fl.Int64()
		}
	}
	sum := new(big.Rat)
	if m >= a {
		// step · (a+m)(m-a+1)/2
		t := new(big.Int).Mul(big.NewInt(a+m), big.NewInt(m-a+1))
		sum.Mul(step, new(big.Rat).SetFrac(t, big.NewInt(2)))
	}
	if cap != nil && b > max(m, a-1) {
		sum.Add(sum, new(big.Rat).Mul(cap, new(big.Rat).SetInt64(b-max(m, a-1))))
	}
	return sum
}

// firstAbove returns the least j in [a,b] with j·i·c > limit.
func firstAbove(i, c, limit *big.Rat, a, b int64) int64 {
	step := new(big.Rat).Mul(i, c)
	if step.Sign() == 0 {
		return b
	}
	q := new(big.Rat).Quo(limit, step)
	fl := new(big.Int).Quo(q.Num(), q.Denom())
	fl.Add(fl, big.NewInt(1))
	if !fl.IsInt64() || fl.Int64() > b {
		return b
	}
	return max(a, fl.Int64())
}

// firstAtLeast returns the least j in [a,b] with j·i·c ≥ limit; the caller
// knows that b's is.
func firstAtLeast(i, c, limit *big.Rat, a, b int64) int64 {
	step := new(big.Rat).Mul(i, c)
	if step.Sign() <= 0 {
		return b
	}
	q := new(big.Rat).Quo(limit, step) // j ≥ q
	fl := new(big.Int).Quo(q.Num(), q.Denom())
	if new(big.Rat).SetInt(fl).Cmp(q) != 0 {
		fl.Add(fl, big.NewInt(1))
	}
	if !fl.IsInt64() || fl.Int64() > b {
		return b
	}
	return max(a, fl.Int64())
}

// timeline computes the concrete start of every attempt (at most
// MaxTimeline) for replayed or seeded draws: draw u scales a wait w by
// 1-f+2f·u, then the cap applies, and the wait is rounded to the tick, as
// a run with the same draws waits it (DrawnWait).
func timeline(w *waits, n int64, dur *big.Rat, opt Options) []Ticks {
	k := min(n, MaxTimeline)
	out := make([]Ticks, 0, k)
	out = append(out, 0)
	d := newDrawer(opt)
	start := new(big.Rat)
	f := new(big.Rat).Sub(w.hi, big.NewRat(1, 1)) // the jitter fraction
	for j := int64(1); j < k; j++ {
		wait := w.capped(w.base(j))
		if f.Sign() > 0 {
			wait = drawn(w, j, d.next())
		}
		// Each wait is a whole number of ticks, as a run waits it.
		start.Add(start, dur).Add(start, ratTicks(sat(wait)))
		out = append(out, sat(start))
	}
	return out
}

// drawn is the wait before retry j with the jitter drawn as u: the
// uncapped wait scaled by 1-f+2f·u, then capped, exact.
func drawn(w *waits, j int64, u float64) *big.Rat {
	b := w.base(j)
	f := new(big.Rat).Sub(w.hi, big.NewRat(1, 1)) // the jitter fraction
	if f.Sign() == 0 {
		return w.capped(b)
	}
	ur := new(big.Rat)
	ur.SetFloat64(u)
	scale := new(big.Rat).Sub(big.NewRat(1, 1), f)
	scale.Add(scale, new(big.Rat).Mul(new(big.Rat).Mul(big.NewRat(2, 1), f), ur))
	return w.capped(new(big.Rat).Mul(b, scale))
}
