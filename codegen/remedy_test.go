package codegen

import (
	"strings"
	"testing"

	"github.com/wfc-lang/wfc/check/timespan"
)

// TestOverHourRemedy: WF312 suggests the hour as the cap when the policy
// starts below it, and never a cap at or below the interval.
func TestOverHourRemedy(t *testing.T) {
	for _, tc := range []struct {
		interval Ticks
		want     string
	}{
		{2 * timespan.TicksPerSecond, "`.Cap(TimeSpan.FromHours(1))`"},
		{59 * timespan.TicksPerMinute, "`.Cap(TimeSpan.FromHours(1))`"},
		{timespan.TicksPerHour, "`Backoff.Fixed(…)` of 1h"},
		{2 * timespan.TicksPerHour, "`Backoff.Fixed(…)` of 2h"},
	} {
		if got := overHourRemedy(tc.interval); !strings.Contains(got, tc.want) {
			t.Errorf("overHourRemedy(%s) = %q, want it to contain %q", timespan.Format(tc.interval), got, tc.want)
		}
	}
}
