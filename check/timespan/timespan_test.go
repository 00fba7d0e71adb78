package timespan

import (
	"math"
	"testing"
)

func TestFormat(t *testing.T) {
	tests := []struct {
		t    Ticks
		want string
	}{
		{0, "0s"},
		{2 * TicksPerSecond, "2s"},
		{64 * TicksPerSecond, "1m4s"},
		{128 * TicksPerSecond, "2m8s"},
		{5 * TicksPerMinute, "5m"},
		{TicksPerHour, "1h"},
		{TicksPerDay + 2*TicksPerHour, "1d2h"},
		{1600 * TicksPerMillisecond, "1.6s"},
		{250 * TicksPerMillisecond, "250ms"},
		{4096 * TicksPerSecond, "1h8m16s"},
		{1024 * TicksPerSecond, "17m4s"},
		{TicksPerMinute + 500*TicksPerMillisecond, "1m0.5s"},
		{1, "0.0000001s"},
		{-2 * TicksPerSecond, "-2s"},
		{MaxTicks, "10675199d2h48m5.4775807s"},
		{math.MinInt64, "-10675199d2h48m5.4775808s"},
	}
	for _, tt := range tests {
		if got := Format(tt.t); got != tt.want {
			t.Errorf("Format(%d) = %q, want %q", tt.t, got, tt.want)
		}
	}
}

func TestParse(t *testing.T) {
	good := map[string]Ticks{
		"0": 0, "2s": 2 * TicksPerSecond, "1m30s": 90 * TicksPerSecond, "250ms": 250 * TicksPerMillisecond,
		"1.5s": 1500 * TicksPerMillisecond, "1d2h": TicksPerDay + 2*TicksPerHour, "4s": 4 * TicksPerSecond,
	}
	for in, want := range good {
		got, err := Parse(in)
		if err != nil || got != want {
			t.Errorf("Parse(%q) = %d, %v; want %d", in, got, err, want)
		}
		// It reads what FormatTicks prints.
		if back, err := Parse(Format(want)); err != nil || back != want {
			t.Errorf("round trip of %q: %d, %v", Format(want), back, err)
		}
	}
	for _, bad := range []string{"", "5", "s", "1x", "-2s", "1.2.3s", "99999999999999d"} {
		if _, err := Parse(bad); err == nil {
			t.Errorf("Parse(%q) accepted", bad)
		}
	}
}
