package codegen

import (
	"fmt"
	"math/big"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/wfc-lang/wfc/check"
	"github.com/wfc-lang/wfc/check/timespan"
	"github.com/wfc-lang/wfc/diag"
	"github.com/wfc-lang/wfc/parser"
)

// stepProgram wraps a retry policy in a durable step.
func stepProgram(policy string) string {
	return `workflow W { Initial = A; event Go();
  state A { subscribe Go(); on Go { Workflow.Once("s", retry: ` + policy + `) { X.Y(); } goto Done; } }
  terminal Done { } }`
}

func milestoneProgram(settings string) string {
	return `workflow W { Initial = A; event Go();
  state A { subscribe Go() { Finished { ` + settings + ` Unfinished { goto Done; } } } }
  terminal Done { } }`
}

// lower checks src and lowers its one consumer.
func lower(t testing.TB, src string, opt Options) *Schedule {
	t.Helper()
	prog, ds := parser.Parse([]parser.Source{{Name: "t.wf", Src: src}}, parser.Options{Workers: 1})
	res := check.Check(prog)
	ds = append(ds, res.Diags...)
	for _, d := range ds {
		if d.Severity == diag.Error {
			t.Fatalf("%s: %s", d.Code, d.Message)
		}
	}
	ss := Lower(res, opt)
	if len(ss) != 1 {
		t.Fatalf("want one consumer, got %d", len(ss))
	}
	return ss[0]
}

// waits expands the rows into the nominal wait before each attempt 2..n.
func expandWaits(s *Schedule) []string {
	var out []string
	for _, r := range s.Rows {
		if r.From == 1 {
			continue
		}
		for k := r.From; k <= r.To; k++ {
			out = append(out, timespan.Format(r.Wait))
		}
	}
	return out
}

func msList(ts []Ticks) []int64 {
	var out []int64
	for _, t := range ts {
		out = append(out, ms(t))
	}
	return out
}

// TestSeed000Sequences: the sequences of seed 000, which is the authority.
func TestSeed000Sequences(t *testing.T) {
	tests := []struct {
		policy string
		want   string
	}{
		// "Backoff.Exponential(TimeSpan.FromSeconds(2)).Cap(TimeSpan.FromMinutes(5))
		//  // 2s, 4s, 8s, 16s, 32s, 64s, 2m8s, 4m16s, 5m, 5m, 5m …" (64s prints as 1m4s)
		{"Backoff.Exponential(TimeSpan.FromSeconds(2)).Cap(TimeSpan.FromMinutes(5)).MaxAttempts(12)", "2s 4s 8s 16s 32s 1m4s 2m8s 4m16s 5m 5m 5m"},
		{"Backoff.Linear(TimeSpan.FromSeconds(2)).MaxAttempts(5)", "2s 4s 6s 8s"},
		{"Backoff.Fixed(TimeSpan.FromSeconds(2)).MaxAttempts(5)", "2s 2s 2s 2s"},
		{"TimeSpan.FromSeconds(2)", ""}, // a bare TimeSpan needs MaxAttempts on a step: tested as milestone below
	}
	for _, tt := range tests {
		if tt.want == "" {
			continue
		}
		s := lower(t, stepProgram(tt.policy), Options{})
		if got := strings.Join(expandWaits(s), " "); got != tt.want {
			t.Errorf("%s: waits %s, want %s", tt.policy, got, tt.want)
		}
	}
	// "Backoff.Exponential(2s) on its tenth attempt waits 17 minutes; on its fifteenth, 9 hours."
	// Seed 000 counts retries; wfc counts attempts in total, so retry 10 is attempt 11.
	s := lower(t, stepProgram("Backoff.Exponential(TimeSpan.FromSeconds(2)).MaxAttempts(16)"), Options{})
	w := expandWaits(s)
	if w[9] != "17m4s" || w[14] != "9h6m8s" {
		t.Errorf("retry 10 waits %s (want 17m4s), retry 15 waits %s (want 9h6m8s)", w[9], w[14])
	}
}

// TestSection1Example: LANGUAGE.md §6 — the §1 example opens its windows at
// 0, 10m and 25m and gives up at 30m.
func TestSection1Example(t *testing.T) {
	s := lower(t, milestoneProgram(`Within = TimeSpan.FromMinutes(5);
        Backoff = Backoff.Exponential(TimeSpan.FromMinutes(5)).MaxAttempts(3).Cap(TimeSpan.FromHours(1));`), Options{Draws: []float64{0}})
	if diff := cmp.Diff([]int64{0, 600000, 1500000}, msList(s.Timeline)); diff != "" {
		t.Errorf("windows open (-want +got):\n%s", diff)
	}
	if s.GivesUp != 30*timespan.TicksPerMinute || s.Budget != check.BudgetMaxAttempts || s.Attempts != 3 {
		t.Errorf("gives up %s, budget %s %d", timespan.Format(s.GivesUp), s.Budget, s.Attempts)
	}
	// The same policy written the other way round (seed 000): Retries = 2.
	r := lower(t, milestoneProgram(`Within = TimeSpan.FromMinutes(5); Retries = 2;
        Backoff = Backoff.Exponential(TimeSpan.FromMinutes(5));`), Options{})
	if r.GivesUp != s.GivesUp || r.Attempts != 3 || r.Budget != check.BudgetRetries {
		t.Errorf("Retries = 2: gives up %s after %d attempts (%s)", timespan.Format(r.GivesUp), r.Attempts, r.Budget)
	}
}

// TestSeed002Timelines: every timeline of seed 002 the language can express.
// Offsets there are when each attempt starts (or, for attempts that sleep
// first, when the sleep ends).
func TestSeed002Timelines(t *testing.T) {
	tests := []struct {
		name   string
		policy string
		opt    Options
		offset Ticks // added to each start: the seed logs after an attempt's own sleep
		want   []int64
	}{
		// exponential(1s) |> limit_retries(3): [0, 1000, 3000, 7000]
		{"exponential backoff", "Backoff.Exponential(TimeSpan.FromSeconds(1)).MaxAttempts(4)", Options{}, 0, []int64{0, 1000, 3000, 7000}},
		// spaced(1s) |> limit_retries(2), failing for ever: [0, 1000, 2000]
		{"exhausted retries", "Backoff.Fixed(TimeSpan.FromSeconds(1)).MaxAttempts(3)", Options{}, 0, []int64{0, 1000, 2000}},
		// spaced(10s) |> limit_retries(2), attempts sleeping 4s: [4000, 18000, 32000]
		{"spaced with attempts that take time", "Backoff.Fixed(TimeSpan.FromSeconds(10)).MaxAttempts(3)", Options{AttemptDuration: 4 * timespan.TicksPerSecond}, 4 * timespan.TicksPerSecond, []int64{4000, 18000, 32000}},
		// spaced(10s) |> jitter(0.5) |> limit_retries(2), draws [0.0, 0.75]: [0, 5000, 17500]
		{"jitter with replayed draws", "Backoff.Fixed(TimeSpan.FromSeconds(10)).Jitter(0.5).MaxAttempts(3)", Options{Draws: []float64{0.0, 0.75}}, 0, []int64{0, 5000, 17500}},
		// exponential(1s) |> cap_delay(3s) |> limit_retries(4): [0, 1000, 3000, 6000, 9000]
		{"capped backoff", "Backoff.Exponential(TimeSpan.FromSeconds(1)).Cap(TimeSpan.FromSeconds(3)).MaxAttempts(5)", Options{}, 0, []int64{0, 1000, 3000, 6000, 9000}},
		// recurs(2): retries without delay, three attempts
		{"immediate retries", "Backoff.Fixed(TimeSpan.Zero).MaxAttempts(3)", Options{}, 0, []int64{0, 0, 0}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			opt := tt.opt
			if opt.Draws == nil {
				opt.Draws = []float64{0.5}
			}
			s := lower(t, stepProgram(tt.policy), opt)
			var got []int64
			for _, st := range s.Timeline {
				got = append(got, ms(st+tt.offset))
			}
			if diff := cmp.Diff(tt.want, got); diff != "" {
				t.Errorf("timeline (-want +got):\n%s", diff)
			}
			// Without jitter the table's starts are the timeline.
			if s.Jitter == nil {
				var starts []int64
				for _, r := range s.Rows {
					for k := r.From; k <= r.To; k++ {
						starts = append(starts, ms(r.Starts+Ticks(k-r.From)*(s.Duration+r.Wait)+tt.offset))
					}
				}
				if diff := cmp.Diff(tt.want, starts); diff != "" {
					t.Errorf("table starts (-want +got):\n%s", diff)
				}
			}
		})
	}
}

func TestJitterBoundsInTable(t *testing.T) {
	// Fixed(10s) ±50%: each wait lies in [5s, 15s).
	s := lower(t, stepProgram("Backoff.Fixed(TimeSpan.FromSeconds(10)).Jitter(0.5).MaxAttempts(3)"), Options{})
	want := []Row{
		{From: 1, To: 1},
		{From: 2, To: 3, Wait: 10 * timespan.TicksPerSecond, Min: 5 * timespan.TicksPerSecond, Max: 15 * timespan.TicksPerSecond, Starts: 5 * timespan.TicksPerSecond, StartsLatest: 15 * timespan.TicksPerSecond},
	}
	if diff := cmp.Diff(want, s.Rows); diff != "" {
		t.Errorf("rows (-want +got):\n%s", diff)
	}
	if s.GivesUp != 10*timespan.TicksPerSecond || s.GivesUpLatest != 30*timespan.TicksPerSecond {
		t.Errorf("gives up %s..%s", timespan.Format(s.GivesUp), timespan.Format(s.GivesUpLatest))
	}
}

// TestHugeBudgets: MaxAttempts(2147483647) costs what MaxAttempts(10) costs,
// and arithmetic saturates rather than wrapping.
func TestHugeBudgets(t *testing.T) {
	tests := []struct {
		policy  string
		maxRows int
	}{
		{"Backoff.Exponential(TimeSpan.FromSeconds(2)).Cap(TimeSpan.FromMinutes(5)).MaxAttempts(2147483647)", 12},
		{"Backoff.Fixed(TimeSpan.FromSeconds(2)).MaxAttempts(2147483647)", 2},
		{"Backoff.Linear(TimeSpan.FromSeconds(2)).Cap(TimeSpan.FromMinutes(1)).MaxAttempts(2147483647)", 32},
		{"Backoff.Exponential(TimeSpan.FromDays(10000)).Cap(TimeSpan.FromDays(10675199)).Jitter(0.5).MaxAttempts(2147483647)", 40},
		{"Backoff.Linear(TimeSpan.FromSeconds(2)).MaxAttempts(2147483647)", MaxRows},
	}
	for _, tt := range tests {
		s := lower(t, stepProgram(tt.policy), Options{})
		if len(s.Rows) > tt.maxRows {
			t.Errorf("%s: %d rows, want at most %d", tt.policy, len(s.Rows), tt.maxRows)
		}
		if s.GivesUp < 0 || s.GivesUpLatest < s.GivesUp {
			t.Errorf("%s: gives up %d..%d", tt.policy, s.GivesUp, s.GivesUpLatest)
		}
		if s.Rows[len(s.Rows)-1].To != s.Attempts && !s.Truncated && s.Stop == nil {
			t.Errorf("%s: rows end at %d of %d attempts", tt.policy, s.Rows[len(s.Rows)-1].To, s.Attempts)
		}
	}
	// Past TimeSpan's range the run stops, and the table with it: 2^31
	// retries of 10000 days exceed it at attempt 1069, which would start
	// after TimeSpan.MaxValue; the table ends with attempt 1068.
	s := lower(t, stepProgram("Backoff.Fixed(TimeSpan.FromDays(10000)).MaxAttempts(2147483647)"), Options{})
	if s.Stop == nil || s.Stop.Attempt != 1069 || s.Stop.Ends || s.Stop.At != 1067*10000*timespan.TicksPerDay || s.GivesUp != s.Stop.At ||
		s.Rows[len(s.Rows)-1].To != 1068 {
		t.Errorf("stop %+v, gives up %d, rows to %d", s.Stop, s.GivesUp, s.Rows[len(s.Rows)-1].To)
	}
	// The uncapped Linear's exact total: Σ_{j=1}^{n-1} 2s·j = 2s·n(n-1)/2, saturated.
	s = lower(t, stepProgram("Backoff.Linear(TimeSpan.FromMilliseconds(1)).MaxAttempts(20001)"), Options{})
	if !s.Truncated {
		t.Fatalf("20001 distinct waits should be cut at %d rows", MaxRows)
	}
	if want := Ticks(20000*20001/2) * timespan.TicksPerMillisecond; s.GivesUp != want {
		t.Errorf("truncated total %d, want %d", s.GivesUp, want)
	}
}

func BenchmarkLowerHugeBudget(b *testing.B) {
	for _, n := range []int{10, 2147483647} {
		b.Run(fmt.Sprint(n), func(b *testing.B) {
			src := stepProgram(fmt.Sprintf("Backoff.Exponential(TimeSpan.FromSeconds(2)).Cap(TimeSpan.FromMinutes(5)).Jitter(0.2).MaxAttempts(%d)", n))
			prog, _ := parser.Parse([]parser.Source{{Name: "t.wf", Src: src}}, parser.Options{Workers: 1})
			res := check.Check(prog)
			b.ReportAllocs()
			for b.Loop() {
				Lower(res, Options{})
			}
		})
	}
}

// naive computes the per-attempt (nominal, least, most) waits and earliest
// and latest starts directly, attempt by attempt, for comparison.
func naive(p *check.Policy, attempts int64, dur Ticks) (waits [][3]*big.Rat, starts [][2]*big.Rat) {
	one := big.NewRat(1, 1)
	f := new(big.Rat)
	if p.Jitter != nil {
		f = p.Jitter
	}
	lo, hi := new(big.Rat).Sub(one, f), new(big.Rat).Add(one, f)
	i := ratTicks(p.Interval)
	capf := func(x *big.Rat) *big.Rat {
		if p.HasCap() && x.Cmp(ratTicks(p.Cap)) > 0 {
			return ratTicks(p.Cap)
		}
		return x
	}
	s0, s1 := new(big.Rat), new(big.Rat)
	waits = append(waits, [3]*big.Rat{new(big.Rat), new(big.Rat), new(big.Rat)})
	starts = append(starts, [2]*big.Rat{new(big.Rat), new(big.Rat)})
	for j := int64(1); j < attempts; j++ {
		var b *big.Rat
		switch p.Shape {
		case check.ShapeFixed:
			b = i
		case check.ShapeLinear:
			b = new(big.Rat).Mul(i, new(big.Rat).SetInt64(j))
		default:
			b = new(big.Rat).Mul(i, new(big.Rat).SetInt(new(big.Int).Lsh(big.NewInt(1), uint(j-1))))
		}
		w := [3]*big.Rat{capf(b), capf(new(big.Rat).Mul(b, lo)), capf(new(big.Rat).Mul(b, hi))}
		waits = append(waits, w)
		s0 = new(big.Rat).Add(s0, new(big.Rat).Add(ratTicks(dur), w[1]))
		s1 = new(big.Rat).Add(s1, new(big.Rat).Add(ratTicks(dur), w[2]))
		starts = append(starts, [2]*big.Rat{s0, s1})
	}
	return waits, starts
}

// FuzzSchedule checks the table's properties over random policies: waits
// within [least, most], least ≤ nominal ≤ most, never above the cap,
// non-decreasing for unjittered Linear and Exponential, starts
// non-decreasing, and compression lossless: expanding the rows gives the
// naive per-attempt computation.
func FuzzSchedule(f *testing.F) {
	f.Add(uint8(2), uint32(2000), uint32(300000), uint8(20), uint16(12), uint32(0), true)
	f.Add(uint8(1), uint32(1500), uint32(0), uint8(0), uint16(40), uint32(100), false)
	f.Add(uint8(2), uint32(1), uint32(0), uint8(37), uint16(9999), uint32(0), false)
	f.Add(uint8(1), uint32(7), uint32(90000), uint8(99), uint16(9999), uint32(3), true)
	f.Add(uint8(0), uint32(10000), uint32(5000), uint8(50), uint16(3), uint32(4000), true)
	f.Fuzz(func(t *testing.T, shape uint8, intervalMS, capMS uint32, jitterPct uint8, attempts uint16, durMS uint32, hasCap bool) {
		shapes := []string{"Fixed", "Linear", "Exponential"}
		n := int64(attempts%10000) + 1 // budgets up to 10,000 (issue 4)
		policy := fmt.Sprintf("Backoff.%s(TimeSpan.FromMilliseconds(%d)).MaxAttempts(%d)", shapes[shape%3], intervalMS%10_000_000, n)
		if j := jitterPct % 101; j > 0 && j < 100 {
			policy += fmt.Sprintf(".Jitter(0.%02d)", j)
		}
		if hasCap {
			policy += fmt.Sprintf(".Cap(TimeSpan.FromMilliseconds(%d))", capMS%100_000_000)
		}
		prog, _ := parser.Parse([]parser.Source{{Name: "t.wf", Src: stepProgram(policy)}}, parser.Options{Workers: 1})
		res := check.Check(prog)
		ss := Lower(res, Options{AttemptDuration: Ticks(durMS%100000) * timespan.TicksPerMillisecond})
		if len(ss) != 1 {
			t.Fatalf("%s: %d schedules", policy, len(ss))
		}
		s := ss[0]
		p := s.Consumer.Policy
		waits, starts := naive(p, n, s.Duration)
		k := int64(0)
		var prev Row
		for _, r := range s.Rows {
			if r.From != k+1 || r.To < r.From {
				t.Fatalf("%s: row %d–%d after attempt %d", policy, r.From, r.To, k)
			}
			if r.Min > r.Wait || r.Wait > r.Max || (s.HasCap && r.Max > s.Cap) {
				t.Fatalf("%s: row %+v breaks least ≤ nominal ≤ most ≤ cap", policy, r)
			}
			if s.Jitter == nil && p.Shape != check.ShapeFixed && r.From > 2 && r.Wait < prev.Wait {
				t.Fatalf("%s: waits decrease at attempt %d", policy, r.From)
			}
			if r.Starts < prev.Starts || r.StartsLatest < prev.StartsLatest || r.StartsLatest < r.Starts {
				t.Fatalf("%s: starts decrease at attempt %d", policy, r.From)
			}
			for a := r.From; a <= r.To; a++ {
				w := waits[a-1]
				if sat(w[0]) != r.Wait || sat(w[1]) != r.Min || sat(w[2]) != r.Max {
					t.Fatalf("%s: attempt %d waits %d/%d/%d, naive %s/%s/%s", policy, a, r.Wait, r.Min, r.Max, w[0].FloatString(0), w[1].FloatString(0), w[2].FloatString(0))
				}
			}
			if st := starts[r.From-1]; sat(st[0]) != r.Starts || sat(st[1]) != r.StartsLatest {
				t.Fatalf("%s: attempt %d starts %d..%d, naive %s..%s", policy, r.From, r.Starts, r.StartsLatest, st[0].FloatString(0), st[1].FloatString(0))
			}
			k, prev = r.To, r
		}
		if s.Stop != nil {
			// Past TimeSpan's range: the table ends where the run stops.
			end := s.Stop.Attempt
			if !s.Stop.Ends {
				end--
			}
			if k != end || s.GivesUp != s.Stop.At {
				t.Fatalf("%s: rows cover %d, stop %+v, gives up %d", policy, k, s.Stop, s.GivesUp)
			}
			return
		}
		if k != n {
			t.Fatalf("%s: rows cover %d of %d attempts", policy, k, n)
		}
		last := starts[n-1]
		if want := sat(new(big.Rat).Add(last[0], ratTicks(s.Duration))); s.GivesUp != want {
			t.Fatalf("%s: gives up %d, naive %d", policy, s.GivesUp, want)
		}
	})
}

func TestTruncatedTableRenders(t *testing.T) {
	s := lower(t, stepProgram("Backoff.Linear(TimeSpan.FromMilliseconds(1)).MaxAttempts(20001)"), Options{})
	var text, js strings.Builder
	if err := WriteText(&text, []*Schedule{s}); err != nil {
		t.Fatal(err)
	}
	if err := WriteJSON(&js, []*Schedule{s}); err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(text.String(), "… attempts 10001–20001 each wait longer (the table stops at 10000 rows)") {
		t.Errorf("no truncation line in:\n%.400s", text.String()[len(text.String())-400:])
	}
	if !strings.Contains(js.String(), `"truncated": true`) || strings.Count(js.String(), `"from"`) != MaxRows {
		t.Errorf("JSON: truncated flag or %d rows missing", MaxRows)
	}
	// Untruncated tables do not carry the field.
	s = lower(t, stepProgram("Backoff.Linear(TimeSpan.FromMilliseconds(1)).MaxAttempts(5)"), Options{})
	js.Reset()
	if err := WriteJSON(&js, []*Schedule{s}); err != nil {
		t.Fatal(err)
	}
	if strings.Contains(js.String(), "truncated") {
		t.Errorf("an untruncated table says truncated")
	}
}
