package check

import "fmt"

// Count is a retry budget: how many attempts there are in all, the first
// included (for a milestone, how many windows). The language counts a
// budget two ways — `.MaxAttempts(n)` in total, a milestone's `Retries = n`
// after the first — and mixing them up is the commonest mistake in the
// area, so every message that converts between them, or says one in terms
// of the other, is written here and nowhere else (TestCountTable):
// `MaxAttempts = 2` is `Retries = 1`, `.MaxRetries(3)` is `.MaxAttempts(4)`.
type Count int64

// CountOfRetries is the budget of `Retries = r`: r further windows after
// the first.
func CountOfRetries(r int64) Count { return Count(r + 1) }

// Retries is the count after the first attempt.
func (n Count) Retries() int64 { return int64(n) - 1 }

// Member is the budget as a policy member's source: ".MaxAttempts(4)".
func (n Count) Member() string { return fmt.Sprintf(".MaxAttempts(%d)", int64(n)) }

// MaxAttempts is Member as a message quotes it: "`.MaxAttempts(4)`".
func (n Count) MaxAttempts() string { return "`" + n.Member() + "`" }

// RetriesSetting is the budget as a milestone setting: "`Retries = 3`".
func (n Count) RetriesSetting() string { return fmt.Sprintf("`Retries = %d`", n.Retries()) }

// Attempts counts it both ways, naming the first attempt as first: "4
// attempts: the first try and 3 retries".
func (n Count) Attempts(first string) string {
	switch n {
	case 1:
		return "1 attempt: " + first + " and no retries"
	case 2:
		return "2 attempts: " + first + " and 1 retry"
	}
	return fmt.Sprintf("%d attempts: %s and %d retries", int64(n), first, n.Retries())
}

// Windows counts a milestone's windows: "one window", "3 windows in all".
func (n Count) Windows() string {
	if n == 1 {
		return "one window"
	}
	return fmt.Sprintf("%d windows in all", int64(n))
}

// AttemptsBothWays counts a budget both ways, in total and in retries, as
// messages say it (docs/language.md, Diagnostics): "4 attempts: the first
// try and 3 retries".
func AttemptsBothWays(n int64) string { return Count(n).Attempts("the first try") }

// CountAttempts counts a budget both ways, naming the first attempt as
// first: the schedule table says "3 attempts: the first and 2 retries".
func CountAttempts(n int64, first string) string { return Count(n).Attempts(first) }
