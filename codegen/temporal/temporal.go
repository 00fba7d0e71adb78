// Package temporal exports lowered wfc policies for the Temporal workflow
// engine: per durable step, Temporal's RetryPolicy (in its API's JSON form
// and as Go values), and per milestone the windows and waits that workflow
// code runs (Temporal has no retry policy for waiting on an event).
//
// It has no dependency on Temporal's SDK, so users of the compiler never
// download it; the module integration/temporal adapts these values to the
// SDK and proves, in Temporal's own test environment, that the engine does
// what the schedule table says. What Temporal cannot express is never
// changed silently: Export reports it as a WF4xx warning (docs/temporal.md).
package temporal

import (
	"fmt"
	"math"
	"slices"
	"time"

	"github.com/wfc-lang/wfc/check"
	"github.com/wfc-lang/wfc/codegen"
	"github.com/wfc-lang/wfc/diag"
)

// Ticks are 100 ns units, as in the schedule table.
type Ticks = check.Ticks

// The export's diagnostic codes (catalogued in diag/codes.go).
const (
	CodeLinear  = diag.WF401 // Linear backoff: no RetryPolicy field for it
	CodeJitter  = diag.WF402 // jitter: Temporal has none
	CodeZero    = diag.WF403 // a zero wait: Temporal reads 0 as its 1 s default
	CodeTooLong = diag.WF404 // a wait or window beyond time.Duration
	CodeFloat   = diag.WF405 // a wait Temporal's float64 arithmetic does not keep exact
	CodeCadence = diag.WF406 // Backoff.Every: Temporal's retries are spaced, not a cadence
	CodeRetryOn = diag.WF407 // .RetryOn: Temporal lists the kinds never retried, not the only ones retried
)

// MaxDurationTicks is the longest wait Go's time.Duration holds, in ticks
// (about 292 years).
const MaxDurationTicks Ticks = math.MaxInt64 / 100

// ZeroWait is what a zero wait is exported as: Temporal reads an interval
// of 0 as "unset" and waits its 1 s default, so the export writes the least
// positive interval instead (and says so, WF403).
const ZeroWait = time.Nanosecond

// Duration converts ticks to a time.Duration; ok is false past its range.
func Duration(t Ticks) (d time.Duration, ok bool) {
	if t > MaxDurationTicks {
		return math.MaxInt64, false
	}
	return time.Duration(t) * 100, true
}

// RetryPolicy is Temporal's RetryPolicy for one durable step. Its JSON form
// is the API's (durations as "1.5s"); time.Duration fields map one to one
// onto the SDK's temporal.RetryPolicy.
type RetryPolicy struct {
	InitialInterval    time.Duration
	BackoffCoefficient float64
	MaximumInterval    time.Duration
	MaximumAttempts    int32
	// NonRetryableErrorTypes are the ApplicationError types never
	// retried: the error kinds of `.NonRetryable(…)`, or, for
	// `.RetryOn(…)`, the other members of its kinds' enums (WF407), each
	// named as ErrorType names it.
	NonRetryableErrorTypes []string
}

// ErrorType is the ApplicationError type an activity fails with for error
// kind k: `Enum.Member`, as the transcript writes it.
func ErrorType(k *check.EnumMember) string {
	return k.Enum.Decl.Name.Name + "." + k.Ident.Name
}

// Waits is a policy as wfc lowers it, exact in ticks and without jitter:
// what the milestone window helper and the Linear workaround run.
type Waits struct {
	Shape    check.Shape
	Interval Ticks
	Cap      Ticks
	HasCap   bool
}

// Before returns the nominal wait before attempt a (a ≥ 2; 0 for a ≤ 1),
// exactly as the schedule table computes it, saturating at TimeSpan's range.
func (w Waits) Before(a int64) Ticks {
	if a <= 1 {
		return 0
	}
	j := a - 1 // retry index
	var b Ticks
	switch w.Shape {
	case check.ShapeFixed, check.ShapeEvery:
		b = w.Interval
	case check.ShapeLinear:
		b = satMul(w.Interval, j)
	case check.ShapeExponential:
		b = w.Interval
		for k := int64(1); k < j && b != check.MaxTicks && b != 0; k++ {
			b = satMul(b, 2)
			if w.HasCap && b >= w.Cap {
				break
			}
		}
	}
	if w.HasCap && b > w.Cap {
		b = w.Cap
	}
	return b
}

// NextRetryDelay is what an activity returns as its error's NextRetryDelay
// after attempt a fails: the wait before attempt a+1, clamped to
// time.Duration. It is the workaround for Linear policies (WF401).
func (w Waits) NextRetryDelay(a int32) time.Duration {
	d, _ := Duration(w.Before(int64(a) + 1))
	return d
}

func satMul(t Ticks, k int64) Ticks {
	if t != 0 && t > check.MaxTicks/k {
		return check.MaxTicks
	}
	return t * k
}

// Entry is the export of one policy consumer.
type Entry struct {
	Schedule *codegen.Schedule // the lowered table it comes from
	Step     bool
	Attempts int64
	Waits    Waits
	// Window is a milestone's window (Within); 0 for steps.
	Window Ticks
	// RetryPolicy is a step's policy; nil for milestones.
	RetryPolicy *RetryPolicy
	// NextRetryDelay is set for a Linear step: the activity must return
	// NextRetryDelay = Waits.Before(attempt+1) with its error (WF401); and
	// for a cadence (Every): the interval less the attempt's duration
	// (WF406).
	NextRetryDelay bool
	// StartToCloseTimeout is a step's `timeout:`, ScheduleToCloseTimeout
	// its `deadline:` (0 when it has none).
	StartToCloseTimeout    time.Duration
	ScheduleToCloseTimeout time.Duration
	// Unsupported lists the WF4xx codes reported for this entry, in code
	// order; empty when the engine runs exactly the table.
	Unsupported []diag.ID
}

// Exact reports whether Temporal runs this entry exactly as the table says.
func (e *Entry) Exact() bool { return len(e.Unsupported) == 0 }

// Export maps lowered schedules to Temporal, in order, with a WF4xx warning
// for everything Temporal cannot express.
func Export(ss []*codegen.Schedule) ([]*Entry, []diag.Diagnostic) {
	var l diag.List
	out := make([]*Entry, 0, len(ss))
	for _, s := range ss {
		out = append(out, exportOne(&l, s))
	}
	return out, l.Items
}

func exportOne(l *diag.List, s *codegen.Schedule) *Entry {
	c := s.Consumer
	e := &Entry{Schedule: s, Step: c.IsStep(), Attempts: s.Attempts, Window: s.Window,
		Waits: Waits{Shape: s.Shape, Interval: s.Interval, Cap: s.Cap, HasCap: s.HasCap}}
	r := &reporter{l: l, e: e, s: s}
	retries := s.Attempts > 1 && s.Shape != check.ShapeNone
	largest := e.Waits.Before(s.Attempts) // waits never shrink
	if retries && s.Jitter != nil && s.Jitter.Sign() > 0 {
		r.jitter()
	}
	if retries && largest > MaxDurationTicks {
		r.tooLong(r.policyRange(), fmt.Sprintf("the wait before attempt %d is %s", firstBeyond(e.Waits, s.Attempts), check.FormatTicks(largest)))
	}
	if !c.IsStep() {
		if s.Window > MaxDurationTicks {
			r.tooLong(r.consumerRange(), fmt.Sprintf("the window is %s", check.FormatTicks(s.Window)))
		}
		return e
	}
	attempts := s.Attempts
	if c.Budget == check.BudgetDeadline || s.DeadlineCut > 0 {
		// The deadline bounds the attempts: ScheduleToClose, on Temporal;
		// the policy keeps its own budget (0: unlimited).
		attempts = c.Attempts
		if c.Budget == check.BudgetDeadline {
			attempts = 0
		}
	}
	e.RetryPolicy = stepPolicy(r, e.Waits, attempts, largest, retries || attempts == 0)
	if st := c.Step; st != nil {
		if st.Timeout > 0 {
			e.StartToCloseTimeout, _ = Duration(st.Timeout)
		}
		if st.HasDeadline {
			e.ScheduleToCloseTimeout, _ = Duration(st.Deadline)
		}
	}
	if p := c.Policy; p != nil && e.RetryPolicy != nil {
		for _, k := range p.NonRetryable {
			e.RetryPolicy.NonRetryableErrorTypes = append(e.RetryPolicy.NonRetryableErrorTypes, ErrorType(k))
		}
		if p.RetryOnM != nil {
			r.retryOn()
			for _, en := range policyEnums(p.RetryOn) {
				for _, m := range en.Members {
					if !slices.Contains(p.RetryOn, m) {
						e.RetryPolicy.NonRetryableErrorTypes = append(e.RetryPolicy.NonRetryableErrorTypes, ErrorType(m))
					}
				}
			}
		}
	}
	if s.Shape == check.ShapeEvery && retries {
		r.cadence()
		e.NextRetryDelay = true
	}
	return e
}

// policyEnums are the enums of kinds, in order of first appearance.
func policyEnums(kinds []*check.EnumMember) []*check.Enum {
	var out []*check.Enum
	for _, k := range kinds {
		if !slices.Contains(out, k.Enum) {
			out = append(out, k.Enum)
		}
	}
	return out
}

// stepPolicy maps a step's policy onto RetryPolicy's four fields.
func stepPolicy(r *reporter, w Waits, attempts int64, largest Ticks, retries bool) *RetryPolicy {
	p := &RetryPolicy{MaximumAttempts: int32(min(attempts, math.MaxInt32))}
	if !retries {
		// No retry: Temporal's default is unlimited retries, so say one attempt.
		return p
	}
	first := w.Before(2)
	if first == 0 {
		// Every wait is zero (a zero interval, or a zero cap).
		r.zero()
		p.InitialInterval, p.BackoffCoefficient, p.MaximumInterval = ZeroWait, 1, ZeroWait
		return p
	}
	p.InitialInterval, _ = Duration(first)
	p.MaximumInterval, _ = Duration(max(largest, first))
	switch {
	case w.Shape == check.ShapeFixed, w.Shape == check.ShapeEvery, w.HasCap && w.Cap <= w.Interval:
		// A cap at or below the interval is Fixed(cap): Temporal rejects
		// maximumInterval < initialInterval.
		p.BackoffCoefficient = 1
	case w.Shape == check.ShapeLinear:
		p.BackoffCoefficient = 1
		if largest > first {
			r.linear()
			r.e.NextRetryDelay = true
		}
	default:
		p.BackoffCoefficient = 2
		if w.HasCap {
			// The real cap, even where this budget never reaches it.
			p.MaximumInterval, _ = Duration(w.Cap)
		}
	}
	if !r.e.NextRetryDelay && largest <= MaxDurationTicks {
		if a, got := p.firstInexact(w, attempts); a > 0 {
			r.float(a, got)
		}
	}
	return p
}

// EngineWait is the wait Temporal computes before attempt a (a ≥ 2) from
// the policy alone: initialInterval·coefficient^(a-2) in float64
// nanoseconds, truncated, then capped at maximumInterval (as the Go SDK
// and the server compute it).
func (p RetryPolicy) EngineWait(a int64) time.Duration {
	d := time.Duration(float64(p.InitialInterval) * math.Pow(p.BackoffCoefficient, float64(a-2)))
	if d <= 0 || (p.MaximumInterval > 0 && d > p.MaximumInterval) {
		return p.MaximumInterval
	}
	return d
}

// firstInexact returns the first attempt whose wait the engine computes
// differently from the table, and that wait; 0 if none. Past the cap both
// are the cap, so a few dozen attempts decide it.
func (p *RetryPolicy) firstInexact(w Waits, attempts int64) (int64, time.Duration) {
	for a := int64(2); a <= min(attempts, 80); a++ {
		want, _ := Duration(w.Before(a))
		if got := p.EngineWait(a); got != want {
			return a, got
		}
	}
	return 0, 0
}

// firstBeyond is the first attempt whose wait exceeds time.Duration.
func firstBeyond(w Waits, attempts int64) int64 {
	lo, hi := int64(2), attempts // Before(hi) is beyond; waits never shrink
	for lo < hi {
		mid := lo + (hi-lo)/2
		if w.Before(mid) > MaxDurationTicks {
			hi = mid
		} else {
			lo = mid + 1
		}
	}
	return lo
}
