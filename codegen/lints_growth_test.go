package codegen

import (
	"testing"

	"github.com/wfc-lang/wfc/check/timespan"
)

// TestSuggestedCaps checks the rounding of the caps WF313 suggests: the
// one that keeps some spread is strictly above the least wait, the one that
// keeps all of it at or above the most, both in whole seconds (whole
// milliseconds under ten seconds), and neither leaves TimeSpan's range.
func TestSuggestedCaps(t *testing.T) {
	const s, ms = timespan.TicksPerSecond, timespan.TicksPerMillisecond
	for _, tc := range []struct {
		t, above, atLeast Ticks
	}{
		{1638*s + 4*s/10, 1639 * s, 1639 * s},
		{60 * s, 61 * s, 60 * s},
		{1500 * ms, 1501 * ms, 1500 * ms},
		{1500*ms + 1, 1501 * ms, 1501 * ms},
		{timespan.MaxTicks - 1, timespan.MaxTicks, timespan.MaxTicks},
	} {
		if got := roundedAbove(tc.t); got != tc.above || got <= tc.t {
			t.Errorf("roundedAbove(%d) = %d, want %d", tc.t, got, tc.above)
		}
		if got := roundedAtLeast(tc.t); got != tc.atLeast || got < tc.t {
			t.Errorf("roundedAtLeast(%d) = %d, want %d", tc.t, got, tc.atLeast)
		}
	}
}
