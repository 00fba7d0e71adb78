package temporal

import (
	"fmt"
	"slices"
	"time"

	"github.com/wfc-lang/wfc/check"

	"github.com/wfc-lang/wfc/codegen"
	"github.com/wfc-lang/wfc/diag"
)

// reporter writes the WF4xx warnings of one entry, each at the part of the
// policy Temporal cannot express, and records their codes on the entry.
type reporter struct {
	l *diag.List
	e *Entry
	s *codegen.Schedule
}

func (r *reporter) warn(rng diag.Range, code diag.ID, msg string) {
	r.l.Add(r.s.Consumer.FileName(), rng, code, msg)
	if !slices.Contains(r.e.Unsupported, code) {
		r.e.Unsupported = append(r.e.Unsupported, code)
		slices.Sort(r.e.Unsupported)
	}
}

// policyRange is the whole policy expression, or the consumer's keyword
// when there is none.
func (r *reporter) policyRange() diag.Range {
	c := r.s.Consumer
	if c.Policy != nil && c.Policy.Expr != nil {
		return c.Policy.Expr.Rng()
	}
	return r.consumerRange()
}

// consumerRange is the milestone kind (`Finished`) or `Workflow.Once`.
func (r *reporter) consumerRange() diag.Range {
	c := r.s.Consumer
	end := c.Pos
	end.Column += int32(len(c.Kind.String()))
	end.Offset += int32(len(c.Kind.String()))
	return diag.Range{Start: c.Pos, End: end}
}

func (r *reporter) linear() {
	rng := r.policyRange()
	if p := r.s.Consumer.Policy; p != nil && p.Factory != nil {
		rng = p.Factory.Range
	}
	r.warn(rng, CodeLinear, "Temporal's RetryPolicy has no linear backoff: exported as a fixed interval, so the activity must return its error with NextRetryDelay = attempt × interval (NextRetryDelay in integration/temporal does it) or it waits the first interval every time")
}

func (r *reporter) jitter() {
	rng := r.policyRange()
	if p := r.s.Consumer.Policy; p != nil && p.JitterM != nil {
		rng = p.JitterM.Range
	}
	r.warn(rng, CodeJitter, "Temporal has no jitter: exported without it, every run waits the nominal wait and runs that failed together retry together")
}

func (r *reporter) zero() {
	rng := r.policyRange()
	if p := r.s.Consumer.Policy; p != nil && p.IntervalExpr != nil && p.Interval == 0 {
		rng = p.IntervalExpr.Rng()
	} else if p != nil && p.CapM != nil {
		rng = p.CapM.Range
	}
	r.warn(rng, CodeZero, "Temporal reads a zero retry interval as unset and waits its 1s default: exported as 1ns, the least it honours")
}

// tooLong reports a wait (at the policy) or a window (at the milestone)
// beyond time.Duration.
func (r *reporter) tooLong(rng diag.Range, what string) {
	r.warn(rng, CodeTooLong, what+", longer than Go's time.Duration holds (about 292 years): Temporal's SDK cannot wait that long, exported as the longest it can")
}

func (r *reporter) float(a int64, got time.Duration) {
	rng := r.policyRange()
	if p := r.s.Consumer.Policy; p != nil && p.IntervalExpr != nil {
		rng = p.IntervalExpr.Rng()
	}
	want := r.e.Waits.Before(a)
	wantD, _ := Duration(want)
	diff, how := wantD-got, "less"
	if diff < 0 {
		diff, how = -diff, "more"
	}
	r.warn(rng, CodeFloat, fmt.Sprintf("Temporal computes retry waits in float64 nanoseconds, which cannot hold this interval exactly: before attempt %d it waits %dns %s than the table's %s; round the interval to whole seconds",
		a, int64(diff), how, check.FormatTicks(want)))
}

func (r *reporter) cadence() {
	rng := r.policyRange()
	if p := r.s.Consumer.Policy; p != nil && p.Factory != nil {
		rng = p.Factory.Range
	}
	r.warn(rng, CodeCadence, "Temporal's retries are spaced from a failure, not a cadence: exported as a fixed interval, so the activity must return its error with NextRetryDelay = interval − the attempt's duration (at least 0), or every retry waits the whole interval after the attempt")
}

func (r *reporter) retryOn() {
	p := r.s.Consumer.Policy
	r.warn(p.RetryOnM.Range, CodeRetryOn, "Temporal lists the error types it never retries, not the only ones it retries: `.RetryOn(…)` is exported as NonRetryableErrorTypes listing the other members of its kinds' enums, so a failure of no kind, or of another enum's kind, is retried on Temporal where wfc ends the step; fail such attempts non-retryably (temporal.NewNonRetryableApplicationError)")
}
