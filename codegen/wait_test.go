package codegen

import (
	"testing"

	"github.com/wfc-lang/wfc/check/timespan"
)

// WaitBefore reads the wait that the table prints for every attempt, and
// past a truncated Linear table continues its arithmetic.
func TestWaitBefore(t *testing.T) {
	const s, m = timespan.TicksPerSecond, timespan.TicksPerMinute
	tests := []struct {
		policy string
		want   map[int64]Ticks // attempt → wait
	}{
		{"Backoff.Exponential(TimeSpan.FromSeconds(2)).Cap(TimeSpan.FromMinutes(5)).MaxAttempts(12)",
			map[int64]Ticks{0: 0, 1: 0, 2: 2 * s, 3: 4 * s, 9: 256 * s, 10: 5 * m, 12: 5 * m, 13: 0}},
		{"Backoff.Fixed(TimeSpan.FromSeconds(7)).MaxAttempts(2147483647)",
			map[int64]Ticks{2: 7 * s, 1_000_000: 7 * s, 2147483647: 7 * s, 2147483648: 0}},
		{"Backoff.Linear(TimeSpan.FromSeconds(1)).MaxAttempts(30000)",
			map[int64]Ticks{2: s, 3: 2 * s, 10001: 10000 * s, 10002: 10001 * s, 30000: 29999 * s}},
		{"Backoff.Linear(TimeSpan.FromSeconds(1)).Cap(TimeSpan.FromHours(5)).MaxAttempts(30000)",
			map[int64]Ticks{18001: 5 * 3600 * s, 25000: 5 * 3600 * s, 30000: 5 * 3600 * s}},
		{"Backoff.Linear(TimeSpan.FromDays(10000000)).MaxAttempts(20000)",
			map[int64]Ticks{2: 10000000 * timespan.TicksPerDay, 3: timespan.MaxTicks, 19999: timespan.MaxTicks}},
		{"Backoff.Exponential(TimeSpan.FromSeconds(1)).Jitter(0.5).MaxAttempts(4)",
			map[int64]Ticks{2: s, 3: 2 * s, 4: 4 * s}},
	}
	for _, tt := range tests {
		sch := lower(t, milestoneProgram("Within = TimeSpan.FromMinutes(1); Backoff = "+tt.policy+";"), Options{})
		for k, want := range tt.want {
			if got := sch.WaitBefore(k); got != want {
				t.Errorf("%s: WaitBefore(%d) = %s, want %s", tt.policy, k, timespan.Format(got), timespan.Format(want))
			}
		}
		// Every attempt inside the rows reads its row.
		for _, r := range sch.Rows[1:] {
			for _, k := range []int64{r.From, r.To} {
				if got := sch.WaitBefore(k); got != r.Wait {
					t.Errorf("%s: WaitBefore(%d) = %d, row says %d", tt.policy, k, got, r.Wait)
				}
			}
		}
	}
}
