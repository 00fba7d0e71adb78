package check

import (
	"math"
	"testing"
)

func TestFormatTicks(t *testing.T) {
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
		if got := FormatTicks(tt.t); got != tt.want {
			t.Errorf("FormatTicks(%d) = %q, want %q", tt.t, got, tt.want)
		}
	}
}

func TestParseDuration(t *testing.T) {
	good := map[string]Ticks{
		"0": 0, "2s": 2 * TicksPerSecond, "1m30s": 90 * TicksPerSecond, "250ms": 250 * TicksPerMillisecond,
		"1.5s": 1500 * TicksPerMillisecond, "1d2h": TicksPerDay + 2*TicksPerHour, "4s": 4 * TicksPerSecond,
	}
	for in, want := range good {
		got, err := ParseDuration(in)
		if err != nil || got != want {
			t.Errorf("ParseDuration(%q) = %d, %v; want %d", in, got, err, want)
		}
		// It reads what FormatTicks prints.
		if back, err := ParseDuration(FormatTicks(want)); err != nil || back != want {
			t.Errorf("round trip of %q: %d, %v", FormatTicks(want), back, err)
		}
	}
	for _, bad := range []string{"", "5", "s", "1x", "-2s", "1.2.3s", "99999999999999d"} {
		if _, err := ParseDuration(bad); err == nil {
			t.Errorf("ParseDuration(%q) accepted", bad)
		}
	}
}

func TestSuggest(t *testing.T) {
	tests := []struct {
		name  string
		cands []string
		want  string
	}{
		{"Strat", []string{"Start", "Stop"}, "Start"},
		{"Runing", []string{"Running", "Queued"}, "Running"},
		{"FromSecs", []string{"FromDays", "FromSeconds", "FromMinutes"}, "FromSeconds"},
		{"Xyz", []string{"Start"}, ""},
		{"Start", []string{"Start"}, ""},
	}
	for _, tt := range tests {
		if got := closest(tt.name, tt.cands); got != tt.want {
			t.Errorf("closest(%q) = %q, want %q", tt.name, got, tt.want)
		}
	}
}

// TestClosestLeavesCandidates: candidates are often package-level tables
// shared by concurrent checks (milestoneSettings), so closest must not sort
// or otherwise modify them. (A race detector run can miss this: fmt's
// buffer pool orders the goroutines of concurrent checks.)
func TestClosestLeavesCandidates(t *testing.T) {
	cands := []string{"Within", "Retries", "Backoff"}
	closest("Retires", cands)
	if cands[0] != "Within" || cands[1] != "Retries" || cands[2] != "Backoff" {
		t.Errorf("closest reordered its candidates: %v", cands)
	}
	if got := closest("Ab", []string{"Ac", "Aa"}); got != "Aa" {
		t.Errorf("a tie goes to the alphabetically first: got %q", got)
	}
}
