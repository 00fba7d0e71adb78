package codegen

import (
	"math/rand/v2"
	"testing"

	"github.com/wfc-lang/wfc/check"
	"github.com/wfc-lang/wfc/check/timespan"
)

// sameTotals reports how a table cut at a row bound differs from the whole
// table, in what must not differ: the totals, the lints' facts, the first
// rows, and the wait before every attempt (WaitBefore, which the
// interpreter reads).
//
// A table of a negative window is kept for its lints only and never shown
// (LowerLintOnly): its starts can fall back below TimeSpan.MaxValue after
// saturating, where the whole table, which stops adding once the waits
// saturate, and the closed form past a cut differ. Its totals are not
// compared.
func sameTotals(t *testing.T, cut, full *Schedule, probes []int64) {
	t.Helper()
	if full.Duration >= 0 && (cut.GivesUp != full.GivesUp || cut.GivesUpLatest != full.GivesUpLatest) {
		t.Fatalf("gives up %d..%d, want %d..%d", cut.GivesUp, cut.GivesUpLatest, full.GivesUp, full.GivesUpLatest)
	}
	if cut.facts != full.facts {
		t.Fatalf("facts %+v, want %+v", cut.facts, full.facts)
	}
	if len(cut.Rows) > len(full.Rows) {
		t.Fatalf("%d rows, the whole table has %d", len(cut.Rows), len(full.Rows))
	}
	for k := range cut.Rows {
		if cut.Rows[k] != full.Rows[k] {
			t.Fatalf("row %d: %+v, want %+v", k, cut.Rows[k], full.Rows[k])
		}
	}
	if cut.Truncated != (len(cut.Rows) < len(full.Rows) || full.Truncated) {
		t.Fatalf("truncated %v with %d of %d rows", cut.Truncated, len(cut.Rows), len(full.Rows))
	}
	for _, k := range probes {
		if g, w := cut.WaitBefore(k), full.WaitBefore(k); g != w {
			t.Fatalf("WaitBefore(%d) = %d, want %d", k, g, w)
		}
	}
}

// probes are the attempts whose waits are compared: every row's ends in
// the whole table, and some random ones up to the budget.
func probes(r *rand.Rand, full *Schedule) []int64 {
	var ks []int64
	for _, row := range full.Rows {
		ks = append(ks, row.From, row.To, row.To+1)
	}
	for range 20 {
		ks = append(ks, r.Int64N(full.Attempts+2))
	}
	return append(ks, full.Attempts, full.Attempts+1)
}

// TestRowBoundKeepsTotals: a table cut at Options.MaxRows (what check and
// the language server lower) has the whole table's totals, lint facts,
// first rows and waits, for every shape, in both arithmetics; only Linear
// tables are cut, and no other table has more than maxShapeRows rows.
func TestRowBoundKeepsTotals(t *testing.T) {
	r := rand.New(rand.NewPCG(7, 2026))
	n := 3000
	if testing.Short() {
		n = 400
	}
	cuts := 0
	for k := range n {
		g := genPolicyOf(r)
		if g.shape == check.ShapeLinear && g.attempts > 3000 && k%20 != 0 {
			g.attempts = 1 + g.attempts%3000
		}
		c, opt := g.consumer()
		full := lowerOne(c, opt)
		if g.shape != check.ShapeLinear && len(full.Rows) > maxShapeRows {
			t.Fatalf("%s: %d rows", g, len(full.Rows))
		}
		for _, bound := range []int{1, 2, 3, 17, SummaryRows} {
			opt.MaxRows = bound
			cut := lowerOne(c, opt)
			if g.shape != check.ShapeLinear && len(cut.Rows) != len(full.Rows) {
				t.Fatalf("%s: a %s table was cut", g, g.shape)
			}
			if cut.Truncated && !full.Truncated {
				cuts++
			}
			t.Run("", func(t *testing.T) {
				defer func() {
					if t.Failed() {
						t.Logf("%s bound %d", g, bound)
					}
				}()
				sameTotals(t, cut, full, probes(r, full))
				// lowerBig cuts alike.
				sameTotals(t, lowerBig(c, opt), full, nil)
			})
		}
	}
	if cuts == 0 {
		t.Fatal("no table was cut")
	}
}

// TestRowBoundLints: the lints read off a cut table are the whole table's,
// for policies whose facts lie past the cut (the cap reached, TimeSpan's
// range left, lockstep, an hour passed, all after retry 32).
func TestRowBoundLints(t *testing.T) {
	policies := []string{
		"Backoff.Linear(TimeSpan.FromSeconds(1)).MaxAttempts(10000)",
		"Backoff.Linear(TimeSpan.FromSeconds(1)).Jitter(0.2).Cap(TimeSpan.FromMinutes(30)).MaxAttempts(5000)",
		"Backoff.Linear(TimeSpan.FromSeconds(1)).Jitter(0.5).Cap(TimeSpan.FromHours(5)).MaxAttempts(50000)",
		"Backoff.Linear(TimeSpan.FromDays(100000)).Jitter(0.1).MaxAttempts(2147483647)",
		"Backoff.Linear(TimeSpan.FromMinutes(1)).MaxAttempts(100)",
	}
	for _, p := range policies {
		for _, src := range []string{stepProgram(p), milestoneProgram("Within = TimeSpan.FromMinutes(1); Backoff = " + p + ";")} {
			full := lower(t, src, Options{})
			cut := lower(t, src, Options{MaxRows: SummaryRows})
			if !cut.Truncated && cut.Stop == nil {
				t.Fatalf("%s: not cut", p)
			}
			sameTotals(t, cut, full, probes(rand.New(rand.NewPCG(1, 2)), full))
			a, b := LintSchedules([]*Schedule{cut}), LintSchedules([]*Schedule{full})
			if len(a) != len(b) {
				t.Fatalf("%s: %d lints, want %d", p, len(a), len(b))
			}
			for k := range a {
				if a[k].Code != b[k].Code || a[k].Message != b[k].Message {
					t.Errorf("%s: %s %s, want %s %s", p, a[k].Code, a[k].Message, b[k].Code, b[k].Message)
				}
			}
		}
	}
	// The lockstep and the hour lie past row 32 here, and are found.
	s := lower(t, stepProgram(policies[2]), Options{MaxRows: SummaryRows})
	if s.facts.lockstepFrom != 36000 {
		t.Errorf("lockstep from %d, want 36000", s.facts.lockstepFrom)
	}
	if s.facts.overHourAt != 3601 || s.facts.overHourWait != 3601*timespan.TicksPerSecond {
		t.Errorf("over an hour at %d (%d), want 3601", s.facts.overHourAt, s.facts.overHourWait)
	}
}

// FuzzRowBound is TestRowBoundKeepsTotals over any seed and bound.
func FuzzRowBound(f *testing.F) {
	f.Add(uint64(1), uint64(2), uint8(3))
	f.Add(uint64(7), uint64(2026), uint8(32))
	f.Fuzz(func(t *testing.T, s1, s2 uint64, bound uint8) {
		r := rand.New(rand.NewPCG(s1, s2))
		g := genPolicyOf(r)
		if g.shape == check.ShapeLinear && g.attempts > 3000 {
			g.attempts = 1 + g.attempts%3000
		}
		c, opt := g.consumer()
		full := lowerOne(c, opt)
		opt.MaxRows = int(bound)
		sameTotals(t, lowerOne(c, opt), full, probes(r, full))
	})
}
