package codegen

import (
	"regexp"
	"testing"

	"github.com/wfc-lang/wfc/check/timespan"
	"github.com/wfc-lang/wfc/diag"
)

// TestRunawayLimit: WF312's limit is an hour, or ten times the first wait
// when that is longer, saturated at TimeSpan's range.
func TestRunawayLimit(t *testing.T) {
	for _, tc := range []struct{ interval, want Ticks }{
		{2 * timespan.TicksPerSecond, timespan.TicksPerHour},
		{6 * timespan.TicksPerMinute, timespan.TicksPerHour},
		{7 * timespan.TicksPerMinute, 70 * timespan.TicksPerMinute},
		{timespan.TicksPerHour, 10 * timespan.TicksPerHour},
		{12 * timespan.TicksPerHour, 120 * timespan.TicksPerHour},
		{timespan.MaxTicks / 9, timespan.MaxTicks},
	} {
		if got := RunawayLimit(tc.interval); got != tc.want {
			t.Errorf("RunawayLimit(%s) = %s, want %s", timespan.Format(tc.interval), timespan.Format(got), timespan.Format(tc.want))
		}
	}
}

// remedy is the cap and the budget WF312 suggests.
var (
	remedy      = regexp.MustCompile("add `\\.Cap\\(([^`]*)\\)`.* lower the budget to `([^`]*)`")
	maxAttempts = regexp.MustCompile(`\.MaxAttempts\(\d+\)`)
)

// TestRunawayRemedies: each remedy WF312 suggests keeps the schedule the
// author asked for — with the suggested cap every wait up to the limit is
// as written, with the suggested budget every wait in it is — and draws no
// WF312 itself; a policy whose longest wait stays within the limit draws
// none at all.
func TestRunawayRemedies(t *testing.T) {
	for _, policy := range []string{
		"Backoff.Exponential(TimeSpan.FromSeconds(2)).MaxAttempts(13)",
		"Backoff.Linear(TimeSpan.FromMinutes(1)).MaxAttempts(70)",
		"Backoff.Exponential(TimeSpan.FromHours(1)).MaxAttempts(6)",
		"Backoff.Linear(TimeSpan.FromHours(12)).MaxAttempts(12)",
		"Backoff.Exponential(TimeSpan.FromMinutes(30)).Jitter(0.2).MaxAttempts(8)",
	} {
		s := lower(t, stepProgram(policy), Options{})
		var msg string
		for _, d := range LintSchedules([]*Schedule{s}) {
			if d.Code == diag.WF312 {
				msg = d.Message
			}
		}
		m := remedy.FindStringSubmatch(msg)
		if m == nil {
			t.Errorf("%s: no WF312 with both remedies: %q", policy, msg)
			continue
		}
		limit := s.facts.runawayLimit
		capped := lower(t, stepProgram(policy+".Cap("+m[1]+")"), Options{})
		shorter := maxAttempts.ReplaceAllLiteralString(policy, m[2])
		fewer := lower(t, stepProgram(shorter), Options{})
		for k := int64(2); k <= fewer.Attempts; k++ {
			if fewer.WaitBefore(k) != s.WaitBefore(k) {
				t.Errorf("%s: the wait before attempt %d is %s, was %s", shorter, k, timespan.Format(fewer.WaitBefore(k)), timespan.Format(s.WaitBefore(k)))
			}
		}
		if fewer.Attempts >= s.Attempts || hasCode(t, stepProgram(shorter), diag.WF312) {
			t.Errorf("%s: the suggested budget keeps %d attempts of %d, or still draws WF312", shorter, fewer.Attempts, s.Attempts)
		}
		for k := int64(2); k <= s.Attempts; k++ {
			if w := s.WaitBefore(k); w <= limit && capped.WaitBefore(k) != w {
				t.Errorf("%s with .Cap(%s): the wait before attempt %d is %s, was %s", policy, m[1], k, timespan.Format(capped.WaitBefore(k)), timespan.Format(w))
			}
		}
		if hasCode(t, stepProgram(policy+".Cap("+m[1]+")"), diag.WF312) {
			t.Errorf("%s with the suggested cap still draws WF312", policy)
		}
	}
	for _, policy := range []string{
		"Backoff.Linear(TimeSpan.FromHours(1)).MaxAttempts(4)",
		"Backoff.Linear(TimeSpan.FromDays(1)).MaxAttempts(3)",
		"Backoff.Linear(TimeSpan.FromDays(2)).MaxAttempts(3)",
		"Backoff.Linear(TimeSpan.FromHours(12)).MaxAttempts(4)",
		"Backoff.Exponential(TimeSpan.FromHours(1)).MaxAttempts(4)",
		"Backoff.Exponential(TimeSpan.FromSeconds(225)).MaxAttempts(6)",
	} {
		if hasCode(t, stepProgram(policy), diag.WF312) {
			t.Errorf("%s: its longest wait is within ten times its first, yet WF312", policy)
		}
	}
}
