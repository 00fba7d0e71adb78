package check_test

import (
	"testing"

	"github.com/wfc-lang/wfc/check"
)

// TestCountTable: every way a message counts a budget, on a table of
// values. `.MaxAttempts(n)` counts the first try, `Retries = n` the windows
// after it: MaxAttempts = Retries + 1, whichever way a message converts.
func TestCountTable(t *testing.T) {
	for _, c := range []struct {
		attempts, retries  int64
		member, maxAttempt string
		setting, both      string
		windows            string
	}{
		{1, 0, ".MaxAttempts(1)", "`.MaxAttempts(1)`", "`Retries = 0`", "1 attempt: the first try and no retries", "one window"},
		{2, 1, ".MaxAttempts(2)", "`.MaxAttempts(2)`", "`Retries = 1`", "2 attempts: the first try and 1 retry", "2 windows in all"},
		{3, 2, ".MaxAttempts(3)", "`.MaxAttempts(3)`", "`Retries = 2`", "3 attempts: the first try and 2 retries", "3 windows in all"},
		{4, 3, ".MaxAttempts(4)", "`.MaxAttempts(4)`", "`Retries = 3`", "4 attempts: the first try and 3 retries", "4 windows in all"},
		{2147483647, 2147483646, ".MaxAttempts(2147483647)", "`.MaxAttempts(2147483647)`", "`Retries = 2147483646`",
			"2147483647 attempts: the first try and 2147483646 retries", "2147483647 windows in all"},
	} {
		n := check.Count(c.attempts)
		if got := check.CountOfRetries(c.retries); got != n {
			t.Errorf("CountOfRetries(%d) = %d, want %d", c.retries, got, n)
		}
		for _, g := range []struct{ got, want string }{
			{n.Member(), c.member}, {n.MaxAttempts(), c.maxAttempt}, {n.RetriesSetting(), c.setting},
			{n.Attempts("the first try"), c.both}, {check.AttemptsBothWays(c.attempts), c.both}, {n.Windows(), c.windows},
		} {
			if g.got != g.want {
				t.Errorf("%d attempts: got %q, want %q", c.attempts, g.got, g.want)
			}
		}
		if n.Retries() != c.retries {
			t.Errorf("Count(%d).Retries() = %d, want %d", c.attempts, n.Retries(), c.retries)
		}
	}
	if got := check.CountAttempts(3, "the first"); got != "3 attempts: the first and 2 retries" {
		t.Errorf("CountAttempts(3, the first) = %q", got)
	}
}
