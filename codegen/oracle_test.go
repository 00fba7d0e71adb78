package codegen

import (
	"fmt"
	"math"
	"math/big"
	"testing"

	"github.com/wfc-lang/wfc/check"
	"github.com/wfc-lang/wfc/diag"
)

// An oracle for the schedule arithmetic that shares no code with it:
// closed forms in math/big integers from the policy as written (its own
// reading of the literals, its own saturation), for budgets up to int32's
// largest and caps reached before and after row 10,000.

// oraclePolicy is a policy as a test writes it, in ticks.
type oraclePolicy struct {
	shape    string // Fixed, Linear, Exponential
	interval int64
	cap      int64 // 0: no cap
	attempts int64
	duration int64 // --attempt-duration
}

func (p oraclePolicy) source() string {
	s := fmt.Sprintf("Backoff.%s(TimeSpan.FromMilliseconds(%s)).MaxAttempts(%d)", p.shape, msText(p.interval), p.attempts)
	if p.cap > 0 {
		s += fmt.Sprintf(".Cap(TimeSpan.FromMilliseconds(%s))", msText(p.cap))
	}
	return s
}

// msText writes ticks as an exact decimal number of milliseconds.
func msText(ticks int64) string {
	return new(big.Rat).SetFrac64(ticks, 10000).FloatString(4)
}

var oracleMax = big.NewInt(int64(check.MaxTicks))

func clip(x *big.Int) int64 {
	if x.Cmp(oracleMax) > 0 {
		return int64(check.MaxTicks)
	}
	return x.Int64()
}

// wait is the nominal wait before attempt a ≥ 2, exact, unclipped.
func (p oraclePolicy) wait(a int64) *big.Int {
	w := big.NewInt(p.interval)
	switch p.shape {
	case "Linear":
		w.Mul(w, big.NewInt(a-1))
	case "Exponential":
		w.Lsh(w, uint(min(a-2, 256)))
	}
	if p.cap > 0 && w.Cmp(big.NewInt(p.cap)) > 0 {
		w.SetInt64(p.cap)
	}
	return w
}

// waitSum is Σ wait(a) for a = 2..attempts, in closed form.
func (p oraclePolicy) waitSum() *big.Int {
	m := big.NewInt(p.attempts - 1) // retries
	i := big.NewInt(p.interval)
	c := big.NewInt(p.cap)
	sum := new(big.Int)
	switch {
	case p.interval == 0 || p.attempts < 2:
	case p.shape == "Fixed":
		sum.Mul(m, p.wait(2))
	case p.shape == "Linear":
		// retries j = 1..J below the cap wait j·I; the rest wait the cap.
		j := new(big.Int).Set(m)
		if p.cap > 0 {
			j = bigMin(m, new(big.Int).Quo(c, i))
		}
		tri := new(big.Int).Mul(j, new(big.Int).Add(j, big.NewInt(1)))
		sum.Mul(i, tri.Rsh(tri, 1))
		if p.cap > 0 {
			sum.Add(sum, new(big.Int).Mul(new(big.Int).Sub(m, j), c))
		}
	case p.shape == "Exponential":
		// retries j = 1..J wait I·2^(j-1) ≤ cap; the rest wait the cap.
		var j int64
		for j < p.attempts-1 && j < 256 && (p.cap == 0 || new(big.Int).Lsh(i, uint(j)).Cmp(c) <= 0) {
			j++
		}
		sum.Mul(i, new(big.Int).Sub(new(big.Int).Lsh(big.NewInt(1), uint(j)), big.NewInt(1)))
		rest := new(big.Int).Sub(m, big.NewInt(j))
		if p.cap > 0 {
			sum.Add(sum, rest.Mul(rest, c))
		} else if rest.Sign() > 0 {
			sum.Set(oracleMax) // 2^256 ticks and more: past any range
			sum.Add(sum, big.NewInt(1))
		}
	}
	return sum
}

func bigMin(a, b *big.Int) *big.Int {
	if a.Cmp(b) < 0 {
		return new(big.Int).Set(a)
	}
	return new(big.Int).Set(b)
}

// givesUp is when the last attempt ends: every attempt's duration and every
// wait; or, when a run would leave TimeSpan's range first, when it stops.
func (p oraclePolicy) givesUp() int64 {
	if _, _, at, ok := p.stop(); ok {
		return at
	}
	t := p.waitSum()
	t.Add(t, new(big.Int).Mul(big.NewInt(p.attempts), big.NewInt(p.duration)))
	return clip(t)
}

// stop is the oracle's reading of the one rule past TimeSpan's range: the
// first attempt that would end past it (found by bisection on startOf),
// which stops the run when it starts, or, when it would even start past
// it, at the end of the attempt before.
func (p oraclePolicy) stop() (attempt int64, ends bool, at int64, ok bool) {
	dur := big.NewInt(p.duration)
	endPast := func(a int64) bool { return new(big.Int).Add(p.startOf(a), dur).Cmp(oracleMax) > 0 }
	if !endPast(p.attempts) {
		return 0, false, 0, false
	}
	lo, hi := int64(0), p.attempts // endPast(hi); lo = 0 stands for "none yet"
	for hi-lo > 1 {
		mid := lo + (hi-lo)/2
		if endPast(mid) {
			hi = mid
		} else {
			lo = mid
		}
	}
	if p.startOf(hi).Cmp(oracleMax) > 0 {
		return hi, false, clip(new(big.Int).Add(p.startOf(hi-1), dur)), true
	}
	return hi, true, clip(p.startOf(hi)), true
}

// TestScheduleOracle lowers a grid of policies and compares each table
// with the oracle: the give-up time, and the wait and start of every attempt
// the rows list (for the first 300 attempts, and the last row's).
func TestScheduleOracle(t *testing.T) {
	const tick, msT, day = 1, 10000, 864e9
	intervals := []int64{tick, 7 * msT, 15000 * msT / 10, day}
	budgets := []int64{1, 2, 3, 64, 9999, 10000, 10001, 20001, math.MaxInt32}
	n := 0
	for _, shape := range []string{"Fixed", "Linear", "Exponential"} {
		for _, iv := range intervals {
			// no cap, a cap below the interval, one reached early, one
			// reached after row 10,000 of a Linear table.
			for _, cp := range []int64{0, max(iv/2, 1), iv * 37, iv * 15000} {
				for _, b := range budgets {
					p := oraclePolicy{shape: shape, interval: iv, cap: cp, attempts: b, duration: 3 * msT}
					n++
					t.Run(p.source(), func(t *testing.T) { checkOracle(t, p) })
				}
			}
		}
	}
	if n < 400 {
		t.Fatalf("only %d policies", n)
	}
}

func checkOracle(t *testing.T, p oraclePolicy) {
	t.Helper()
	s := lower(t, stepProgram(p.source()), Options{AttemptDuration: Ticks(p.duration)})
	if s.Interval != Ticks(p.interval) || (p.cap > 0 && s.Cap != Ticks(p.cap)) {
		t.Fatalf("read interval %d cap %d, want %d and %d", s.Interval, s.Cap, p.interval, p.cap)
	}
	if want := Ticks(p.givesUp()); s.GivesUp != want {
		t.Fatalf("gives up at %d ticks, the oracle says %d", s.GivesUp, want)
	}
	next := int64(1)
	for k, r := range s.Rows {
		if r.From != next {
			t.Fatalf("row %d starts at attempt %d, want %d", k, r.From, next)
		}
		next = r.To + 1
		if k >= 300 && k < len(s.Rows)-1 {
			continue // the first 300 rows and the last are compared
		}
		if r.From > 1 {
			if want := clip(p.wait(r.From)); r.Wait != Ticks(want) {
				t.Fatalf("attempt %d waits %d, the oracle says %d", r.From, r.Wait, want)
			}
		}
		if want := clip(p.startOf(r.From)); r.Starts != Ticks(want) {
			t.Fatalf("attempt %d starts at %d, the oracle says %d", r.From, r.Starts, want)
		}
	}
	want := p.attempts
	if a, ends, _, ok := p.stop(); ok {
		want = a
		if !ends {
			want--
		}
		if s.Stop == nil || s.Stop.Attempt != a || s.Stop.Ends != ends {
			t.Fatalf("stops %+v, the oracle says at attempt %d (ends %v)", s.Stop, a, ends)
		}
	} else if s.Stop != nil {
		t.Fatalf("stops %+v, the oracle says it does not", s.Stop)
	}
	if last := next - 1; last != want && !s.Truncated {
		t.Fatalf("rows cover %d of %d attempts", last, want)
	}
	if s.Truncated && len(s.Rows) != MaxRows {
		t.Fatalf("truncated at %d rows, want %d", len(s.Rows), MaxRows)
	}
}

// startOf is when attempt a starts: a−1 durations and the waits before it.
func (p oraclePolicy) startOf(a int64) *big.Int {
	q := p
	q.attempts = a
	t := q.waitSum()
	return t.Add(t, new(big.Int).Mul(big.NewInt(a-1), big.NewInt(p.duration)))
}

// TestOracleSums checks the oracle's closed forms against its own
// attempt-by-attempt sum on small budgets.
func TestOracleSums(t *testing.T) {
	for _, shape := range []string{"Fixed", "Linear", "Exponential"} {
		for _, cp := range []int64{0, 5, 40, 1000} {
			for b := int64(1); b < 40; b++ {
				p := oraclePolicy{shape: shape, interval: 7, cap: cp, attempts: b}
				naive := new(big.Int)
				for a := int64(2); a <= b; a++ {
					naive.Add(naive, p.wait(a))
				}
				if got := p.waitSum(); got.Cmp(naive) != 0 {
					t.Fatalf("%s: closed form %s, naive %s", p.source(), got, naive)
				}
			}
		}
	}
}

// TestOverflowIsReported: a budget whose waits pass TimeSpan's range is
// WF314, however many rows the table would have.
func TestOverflowIsReported(t *testing.T) {
	for _, policy := range []string{
		"Backoff.Linear(TimeSpan.FromDays(1)).MaxAttempts(2147483647)",
		"Backoff.Exponential(TimeSpan.FromSeconds(1)).MaxAttempts(100)",
	} {
		if !hasCode(t, stepProgram(policy), diag.WF314) {
			t.Errorf("%s: no WF314", policy)
		}
	}
	if hasCode(t, stepProgram("Backoff.Linear(TimeSpan.FromDays(1)).MaxAttempts(2147483647).Cap(TimeSpan.FromDays(30))"), diag.WF314) {
		t.Error("a capped policy reported WF314")
	}
}

// TestOverHourThreshold: WF312 fires when a wait passes an hour, not when
// it reaches one exactly.
func TestOverHourThreshold(t *testing.T) {
	// 225 s doubled four times is exactly an hour (attempt 6).
	if hasCode(t, stepProgram("Backoff.Exponential(TimeSpan.FromSeconds(225)).MaxAttempts(6)"), diag.WF312) {
		t.Error("a wait of exactly one hour reported WF312")
	}
	if !hasCode(t, stepProgram("Backoff.Exponential(TimeSpan.FromSeconds(225)).MaxAttempts(7)"), diag.WF312) {
		t.Error("a wait of two hours did not report WF312")
	}
}

func hasCode(t *testing.T, src string, id diag.ID) bool {
	t.Helper()
	s := lower(t, src, Options{})
	for _, d := range LintSchedules([]*Schedule{s}) {
		if d.Code == id {
			return true
		}
	}
	return false
}

// FuzzScheduleOracle compares the give-up time of any unjittered policy,
// with budgets up to int32's largest (the closed-form path), with the
// oracle's.
func FuzzScheduleOracle(f *testing.F) {
	f.Add(uint8(1), uint32(86400000), uint32(0), uint32(math.MaxInt32), false)
	f.Add(uint8(1), uint32(7), uint32(70000), uint32(20001), true)
	f.Add(uint8(2), uint32(1000), uint32(3600000), uint32(1<<30), true)
	f.Add(uint8(0), uint32(1), uint32(0), uint32(5), false)
	f.Fuzz(func(t *testing.T, shape uint8, intervalMS, capMS, budget uint32, hasCap bool) {
		p := oraclePolicy{
			shape:    []string{"Fixed", "Linear", "Exponential"}[shape%3],
			interval: int64(intervalMS%100_000_000) * 10000,
			attempts: int64(budget%math.MaxInt32) + 1,
		}
		if hasCap {
			p.cap = int64(capMS%100_000_000)*10000 + 1
		}
		s := lower(t, stepProgram(p.source()), Options{})
		if want := Ticks(p.givesUp()); s.GivesUp != want {
			t.Fatalf("%s: gives up at %d, the oracle says %d", p.source(), s.GivesUp, want)
		}
	})
}
