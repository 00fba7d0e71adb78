package wfctemporal

import (
	"math"
	"math/big"
	"slices"
	"strings"
	"testing"

	"github.com/wfc-lang/wfc/check"
	"github.com/wfc-lang/wfc/codegen"
	export "github.com/wfc-lang/wfc/codegen/temporal"
	"github.com/wfc-lang/wfc/diag"
)

// The proof's oracle: what a policy means, worked out here from the
// policy's parameters alone, in exact integers, sharing no code with the
// lowering (codegen) or the export (codegen/temporal). The proof compares
// the engine with this, not with the table under test, so a table that
// rounds or counts wrongly cannot agree with an engine that runs it; and the
// set of entries the proof skips is this oracle's, not the export's.

// policy is one consumer's policy, as written.
type policy struct {
	step     bool
	shape    check.Shape
	interval int64 // ticks
	cap      int64 // ticks, when hasCap
	hasCap   bool
	jitter   bool
	attempts int64
	duration int64 // ticks one attempt takes: the window of a milestone, 0 for a step
}

// policyOf reads the policy of a lowered schedule: the values the checker
// resolved, none of the table's rows or totals.
func policyOf(s *codegen.Schedule) policy {
	return policy{
		step: s.Consumer.Step != nil, shape: s.Shape, interval: int64(s.Interval), cap: int64(s.Cap),
		hasCap: s.HasCap, jitter: s.Jitter != nil && s.Jitter.Sign() > 0,
		attempts: s.Attempts, duration: int64(s.Duration),
	}
}

var (
	bigMaxTicks    = big.NewInt(int64(check.MaxTicks))
	bigMaxDuration = big.NewInt(math.MaxInt64 / 100) // the last whole tick in time.Duration
)

// wait is the exact nominal wait before attempt a (a ≥ 2) in ticks:
// Fixed I, Linear I·(a−1), Exponential I·2^(a−2), capped, then clipped to
// TimeSpan's range (as docs/language.md says: arithmetic saturates there).
func (p policy) wait(a int64) *big.Int {
	w := big.NewInt(p.interval)
	switch p.shape {
	case check.ShapeNone:
		return new(big.Int)
	case check.ShapeLinear:
		w.Mul(w, big.NewInt(a-1))
	case check.ShapeExponential:
		// Past 2^200 every wait is beyond any cap and TimeSpan's range.
		w.Lsh(w, uint(min(a-2, 200)))
	}
	if p.hasCap && w.Cmp(big.NewInt(p.cap)) > 0 {
		w.SetInt64(p.cap)
	}
	if w.Cmp(bigMaxTicks) > 0 {
		w.Set(bigMaxTicks)
	}
	return w
}

// retries says whether the policy ever waits: more than one attempt and a
// policy at all.
func (p policy) retries() bool { return p.attempts > 1 && p.shape != check.ShapeNone }

// wantCodes is the set of WF4xx warnings the export must report, derived
// from the policy and Temporal's documented model: no jitter (WF402);
// durations end at time.Duration (WF404); 0 means "default" (WF403); no
// linear growth (WF401); float64 nanoseconds (WF405).
func (p policy) wantCodes() []diag.ID {
	var out []diag.ID
	if !p.retries() {
		if !p.step && big.NewInt(p.duration).Cmp(bigMaxDuration) > 0 {
			out = append(out, export.CodeTooLong)
		}
		return out
	}
	first, last := p.wait(2), p.wait(p.attempts) // waits never shrink
	tooLong := last.Cmp(bigMaxDuration) > 0 || (!p.step && big.NewInt(p.duration).Cmp(bigMaxDuration) > 0)
	if p.jitter {
		out = append(out, export.CodeJitter)
	}
	if tooLong {
		out = append(out, export.CodeTooLong)
	}
	if !p.step {
		return out
	}
	linear := p.shape == check.ShapeLinear && last.Cmp(first) > 0
	switch {
	case first.Sign() == 0:
		out = append(out, export.CodeZero)
	case linear:
		out = append(out, export.CodeLinear)
	case !tooLong && !exactFloat(first.Int64()*100):
		// Temporal computes every wait from the first in float64
		// nanoseconds; doubling is exact, so only a first wait that
		// float64 cannot hold comes out wrong.
		out = append(out, export.CodeFloat)
	}
	slices.Sort(out)
	return out
}

// exactFloat says whether float64 holds n nanoseconds exactly.
func exactFloat(n int64) bool {
	f := float64(n)
	return f < math.MaxInt64 && int64(f) == n
}

// starts is when each of the first n attempts starts, from the first, in
// ticks, and when the run gives up after the last attempt of the budget;
// only the attempts that start within time.Duration (what a test
// environment can run) are listed.
func (p policy) starts(n int64) (starts []int64, givesUp *big.Int) {
	at := new(big.Int)
	d := big.NewInt(p.duration)
	for a := int64(1); a <= n; a++ {
		if a > 1 {
			at.Add(at, d)
			at.Add(at, p.wait(a))
		}
		if at.Cmp(bigMaxDuration) > 0 {
			return starts, nil
		}
		starts = append(starts, at.Int64())
	}
	if n < p.attempts {
		return starts, nil
	}
	return starts, new(big.Int).Add(at, d)
}

// checkCodes asserts the export reported exactly the oracle's warnings for
// an entry: any other skip, or a missing one, fails the proof.
func checkCodes(t *testing.T, e *export.Entry) {
	t.Helper()
	if beyondOracle(e.Schedule.Consumer) != "" {
		return // WF406, WF407 and the bounds: beyond the oracle
	}
	want := policyOf(e.Schedule).wantCodes()
	got := slices.Clone(e.Unsupported)
	slices.Sort(got)
	if !slices.Equal(got, want) {
		t.Errorf("the export reports %v, the policy calls for %v", got, want)
	}
}

// compareOracle asserts the engine's run equals the oracle's, attempt by
// attempt, with the attempt count from the policy, and the give-up time
// when the whole budget ran within time.Duration.
func compareOracle(t *testing.T, p policy, r run, n int64) {
	t.Helper()
	want, givesUp := p.starts(n)
	if len(r.starts) != len(want) {
		t.Fatalf("the engine ran %d attempts, the policy calls for %d", len(r.starts), len(want))
	}
	for k, d := range r.starts {
		got, whole := ticks(d)
		if !whole || int64(got) != want[k] {
			t.Fatalf("attempt %d started at %v, the policy says %s", k+1, d, check.FormatTicks(check.Ticks(want[k])))
		}
	}
	if givesUp == nil || givesUp.Cmp(bigMaxDuration) > 0 || int64(len(want)) < p.attempts {
		return
	}
	if !r.gaveUp {
		t.Fatalf("the engine did not give up after %d attempts", p.attempts)
	}
	if got, whole := ticks(r.givesUp); !whole || int64(got) != givesUp.Int64() {
		t.Fatalf("gave up at %v, the policy says %s", r.givesUp, check.FormatTicks(check.Ticks(givesUp.Int64())))
	}
}

// oracleRun is how many attempts the proof runs for a policy: the whole
// budget up to maxRun, those that start within time.Duration.
func oracleRun(p policy) int64 {
	s, _ := p.starts(min(p.attempts, maxRun))
	return int64(len(s))
}

// literalTicks reads a grid literal, `TimeSpan.FromUnit(n)`, as the
// language defines it: n an exact decimal, rounded to the nearest tick,
// halves away from zero. Its own arithmetic, not the checker's.
func literalTicks(t *testing.T, lit string) int64 {
	t.Helper()
	unit, num, ok := strings.Cut(strings.TrimSuffix(strings.TrimPrefix(lit, "TimeSpan.From"), ")"), "(")
	perUnit := map[string]int64{"Milliseconds": 1e4, "Seconds": 1e7, "Minutes": 60e7, "Hours": 3600e7, "Days": 86400e7}[unit]
	r, okNum := new(big.Rat).SetString(num)
	if !ok || perUnit == 0 || !okNum || r.Sign() < 0 {
		t.Fatalf("not a grid literal: %q", lit)
	}
	r.Mul(r, new(big.Rat).SetInt64(perUnit))
	q, m := new(big.Int).QuoRem(r.Num(), r.Denom(), new(big.Int))
	if new(big.Int).Lsh(m, 1).Cmp(r.Denom()) >= 0 {
		q.Add(q, big.NewInt(1))
	}
	return q.Int64()
}

// checkLiterals asserts the lowered interval and cap are the grid's
// literals, rounded as the language says.
func checkLiterals(t *testing.T, e *export.Entry, interval, capCall string) {
	t.Helper()
	if got, want := int64(e.Schedule.Interval), literalTicks(t, interval); got != want {
		t.Errorf("%s lowered to %d ticks, want %d", interval, got, want)
	}
	if capCall == "" {
		if e.Schedule.HasCap {
			t.Errorf("a cap without .Cap")
		}
		return
	}
	lit := strings.TrimSuffix(strings.TrimPrefix(capCall, ".Cap("), ")")
	if got, want := int64(e.Schedule.Cap), literalTicks(t, lit); !e.Schedule.HasCap || got != want {
		t.Errorf("%s lowered to %d ticks, want %d", capCall, got, want)
	}
}

func TestLiteralTicks(t *testing.T) {
	for lit, want := range map[string]int64{
		"TimeSpan.FromMilliseconds(0.00009)":          1,
		"TimeSpan.FromMilliseconds(0.00005)":          1, // half: away from zero
		"TimeSpan.FromMilliseconds(0.000049)":         0,
		"TimeSpan.FromSeconds(1.6)":                   16e6,
		"TimeSpan.FromMilliseconds(43200000000.0001)": 432000000000001,
		"TimeSpan.FromDays(3)":                        3 * 864e9,
	} {
		if got := literalTicks(t, lit); got != want {
			t.Errorf("%s = %d ticks, want %d", lit, got, want)
		}
	}
}

func TestOracleCodes(t *testing.T) {
	day := int64(24 * 3600 * 1e7)
	for _, tc := range []struct {
		name string
		p    policy
		want []diag.ID
	}{
		{"one attempt", policy{step: true, shape: check.ShapeLinear, interval: 10, attempts: 1}, nil},
		{"Linear grows", policy{step: true, shape: check.ShapeLinear, interval: 10, attempts: 3}, []diag.ID{export.CodeLinear}},
		{"Linear capped at its interval is Fixed", policy{step: true, shape: check.ShapeLinear, interval: 10, cap: 10, hasCap: true, attempts: 5}, nil},
		{"two attempts of Linear wait once", policy{step: true, shape: check.ShapeLinear, interval: 10, attempts: 2}, nil},
		{"zero", policy{step: true, shape: check.ShapeFixed, attempts: 2}, []diag.ID{export.CodeZero}},
		{"jitter", policy{step: true, shape: check.ShapeFixed, interval: 10, jitter: true, attempts: 2}, []diag.ID{export.CodeJitter}},
		{"beyond time.Duration", policy{step: true, shape: check.ShapeExponential, interval: day, attempts: 40}, []diag.ID{export.CodeTooLong}},
		{"a window beyond time.Duration", policy{shape: check.ShapeNone, attempts: 1, duration: 300 * 365 * day}, []diag.ID{export.CodeTooLong}},
		{"float64 cannot hold it", policy{step: true, shape: check.ShapeExponential, interval: 432000000000001, attempts: 3}, []diag.ID{export.CodeFloat}},
		{"capped below the inexact interval", policy{step: true, shape: check.ShapeExponential, interval: 432000000000001, cap: 30 * day, hasCap: true, attempts: 3}, nil},
	} {
		if got := tc.p.wantCodes(); !slices.Equal(got, tc.want) {
			t.Errorf("%s: %v, want %v", tc.name, got, tc.want)
		}
	}
}

// beyondOracle says why the oracle does not model an exported policy: a
// step's timeout, deadline or catch, error kinds and a cadence (WF406,
// WF407 and the bounds) are the interpreter workflow's, which runs them
// itself (TestDecisionsOnTemporal, TestTestdataSameOnTemporal); what the
// export makes of them is checked by codegen/temporal's own tests.
func beyondOracle(c *check.Consumer) string {
	st := c.Step
	switch {
	case st != nil && (st.Timeout > 0 || st.HasDeadline || st.Catch != nil):
		return "a step's timeout, deadline or catch at " + codegen.Place(c)
	case c.Policy != nil && (c.Policy.NonRetryableM != nil || c.Policy.RetryOnM != nil || c.Policy.Shape == check.ShapeEvery):
		return "error kinds or a cadence at " + codegen.Place(c)
	}
	return ""
}
