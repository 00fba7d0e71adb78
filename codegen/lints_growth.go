package codegen

import (
	"fmt"
	"math/big"

	"github.com/wfc-lang/wfc/check"
	"github.com/wfc-lang/wfc/check/timespan"
	"github.com/wfc-lang/wfc/check/vocab"
)

// The numbers the policy lints advise (docs/language.md, Decisions, "Policy
// lints give numbers"): a warning that says "raise the cap" says to what,
// computed from the policy's own waits, exact in rationals.

// GiveUpLimit is how long a policy's waits may add up to within its
// budget before WF318 warns: 30 days. Past it, whatever the retries were for has
// usually been forgotten or handled by hand, and a run that quietly keeps
// a workflow open for months is a surprise (docs/language.md, Decisions).
const GiveUpLimit = 30 * timespan.TicksPerDay

// capAdvice says what cap keeps the jitter's spread on every attempt in
// budget, for WF313: the last retry's least and most jittered waits before
// the cap. A cap above the least keeps some of the spread; one of at least
// the most keeps all of it. It returns "" when no cap in TimeSpan's range
// keeps all of it (then only fewer attempts help).
func (s *Schedule) capAdvice() string {
	w := s.bigWaits()
	base := w.base(s.Attempts - 1)
	lo, hi := sat(new(big.Rat).Mul(base, w.lo)), sat(new(big.Rat).Mul(base, w.hi))
	some, all := roundedAbove(lo), roundedAtLeast(hi)
	if all >= timespan.MaxTicks || some >= timespan.MaxTicks {
		return ""
	}
	return fmt.Sprintf("`.Cap(%s)` keeps some of the spread on every attempt and `.Cap(%s)` keeps all of it", timespan.Format(some), timespan.Format(all))
}

// grain is the unit a suggested cap is rounded to: whole seconds, or
// milliseconds for waits under ten seconds.
func grain(t Ticks) Ticks {
	if t >= 10*timespan.TicksPerSecond {
		return timespan.TicksPerSecond
	}
	return timespan.TicksPerMillisecond
}

// roundedAbove is the least multiple of the grain strictly above t.
func roundedAbove(t Ticks) Ticks {
	g := grain(t)
	if t > timespan.MaxTicks-g {
		return timespan.MaxTicks
	}
	return t/g*g + g
}

// roundedAtLeast is the least multiple of the grain at or above t.
func roundedAtLeast(t Ticks) Ticks {
	g := grain(t)
	if t > timespan.MaxTicks-g {
		return timespan.MaxTicks
	}
	return (t + g - 1) / g * g
}

// lockstepMessage is WF313's message: from which attempt the cap clips
// the jitter away, and the two remedies in numbers — the caps that keep
// the spread, and the most attempts that keep some of it under this cap.
func (s *Schedule) lockstepMessage() string {
	msg := fmt.Sprintf("the cap clips the jitter away: from %s every run waits exactly %s, so runs that failed together retry in lockstep again (%s)",
		attempt(s.facts.lockstepFrom), timespan.Format(s.Cap), check.AttemptsBothWays(s.Attempts))
	if advice := s.capAdvice(); advice != "" {
		msg += "; " + advice
	}
	return msg + fmt.Sprintf("; or keep this cap and make at most %d attempts, whose waits all stay below it", s.facts.lockstepFrom)
}

// runawayMessage is WF312's message: where the waits run away from the
// first one, and the two remedies that keep every wait the author meant —
// a cap at the limit (each wait up to it stays as written), or the budget
// that stops before the first wait past it.
func (s *Schedule) runawayMessage() string {
	limit := s.facts.runawayLimit
	keep := check.Count(s.facts.runawayAt) // the attempts whose waits stay within the limit
	budget := keep.MaxAttempts()
	if s.Budget == check.BudgetRetries {
		budget = keep.RetriesSetting()
	}
	return fmt.Sprintf("%s without a cap grows past an hour and past ten times its first wait: %s waits %s (%s); add `.Cap(%s)`, which leaves every wait up to %s as written, or keep the waits and lower the budget to %s",
		growthName(s), attempt(s.facts.runawayAt), timespan.Format(s.facts.runawayWait), check.AttemptsBothWays(s.Attempts),
		vocab.SpanSource(limit), timespan.Format(limit), budget)
}

// growthName is how WF312 names a growing shape.
func growthName(s *Schedule) string {
	switch s.Shape {
	case check.ShapeLinear:
		return fmt.Sprintf("`Linear(%s)`", timespan.Format(s.Interval))
	}
	return fmt.Sprintf("`Exponential(%s)`", timespan.Format(s.Interval))
}

// grows reports whether the shape's waits grow with the attempt.
func grows(shape check.Shape) bool {
	return shape == check.ShapeLinear || shape == check.ShapeExponential
}

// waitsTotal is the least total of the waits in budget, the policy's part
// of the give-up time: the earliest give-up less the attempts themselves
// (a milestone's windows, a step's --attempt-duration), saturated.
func (s *Schedule) waitsTotal() Ticks {
	// In int64: it runs for every policy, and big.Rat allocates.
	saturated := s.GivesUp >= timespan.MaxTicks
	if s.Duration == 0 || s.Attempts <= 0 {
		return s.GivesUp
	}
	if s.Duration > timespan.MaxTicks/s.Attempts {
		return 0 // the attempts alone saturate: the waits' part is unknown
	}
	if saturated {
		return timespan.MaxTicks
	}
	return max(s.GivesUp-s.Duration*s.Attempts, 0)
}
