package check_test

import (
	"strconv"
	"testing"
)

// TestTimeSpanLiterals: a TimeSpan's value is its number of units rounded
// to the nearest 100 ns tick, halves away from zero (docs/language.md);
// a TimeSpan that fails (WF304) gives no window.
func TestTimeSpanLiterals(t *testing.T) {
	within := func(ts string) string {
		return inMilestone("        Within = " + ts + ";\n        Retries = 1;")
	}
	cons := func(window int64, valid bool) []string {
		return []string{"A/Go Finished attempts=2 budget=Retries window=" + itoa(window) + " valid=" + map[bool]string{true: "true", false: "false"}[valid] + " lintable=true"}
	}
	runDiagCases(t, []diagCase{
		// 1 ms is 10,000 ticks.
		{name: "1.5 ticks round up to 2", src: within("TimeSpan.FromMilliseconds(0.00015)"), consumers: cons(2, true)},
		{name: "1.4 ticks round down to 1", src: within("TimeSpan.FromMilliseconds(0.00014)"), consumers: cons(1, true)},
		{name: "half a tick rounds away from zero, to 1", src: within("TimeSpan.FromMilliseconds(0.00005)"), consumers: cons(1, true)},
		{name: "a whole number of ticks stays", src: within("TimeSpan.FromMilliseconds(0.0003)"), consumers: cons(3, true)},
		{name: "a negative half tick rounds away from zero, to -1",
			src:       within("TimeSpan.FromMilliseconds(-0.00005)"),
			want:      []string{"10:18 WF305 `Within` is negative (-0.0000001s)"},
			consumers: cons(0, false)},
		// Whole numbers are multiplied in int64, checked for overflow.
		{name: "whole milliseconds are exact", src: within("TimeSpan.FromMilliseconds(3)"), consumers: cons(30000, true)},
		{name: "the most whole days that fit", src: within("TimeSpan.FromDays(10675199)"), consumers: cons(9223371936000000000, true)},
		{name: "a day more does not fit: WF304, and no window",
			src:       within("TimeSpan.FromDays(10675200)"),
			want:      []string{"10:18 WF304 «TimeSpan.FromDays(10675200)»"},
			consumers: cons(0, false)},
		{name: "a negative whole number",
			src:       within("TimeSpan.FromSeconds(-2)"),
			want:      []string{"10:18 WF305 `Within` is negative (-2s)"},
			consumers: cons(0, false)},
		{name: "a constant called as a function: WF304, and no window",
			src:       within("TimeSpan.Zero()"),
			want:      []string{"10:18 WF304 «TimeSpan.Zero()»"},
			consumers: cons(0, false)},
	})
}

// TestQuotedNumbers: a number written in quotes where a policy's member
// takes one is told to drop the quotes, with the fix that does, only when
// the text is a plain decimal as the language writes one.
func TestQuotedNumbers(t *testing.T) {
	jitter := func(arg string) string {
		return inStep(`"s", retry: Backoff.Exponential(TimeSpan.FromSeconds(1)).MaxAttempts(3).Jitter(` + arg + `)`)
	}
	runDiagCases(t, []diagCase{
		{name: "a decimal in quotes", src: jitter(`"0.25"`),
			want: []string{"9:100 WF304 «\"0.25\"» && write `0.25`, the number without its quotes && fix write `0.25`: 9:100 «\"0.25\"»→«0.25» [machine-applicable]"}},
		{name: "an exponent is no decimal of the language", src: jitter(`"1e-1"`),
			want: []string{"9:100 WF304 «\"1e-1\"» `.Jitter` expects a decimal fraction && !without its quotes && !| fix"}},
		{name: "two points", src: jitter(`"0.1.2"`),
			want: []string{"9:100 WF304 «\"0.1.2\"» `.Jitter` expects a decimal fraction && !without its quotes && !| fix"}},
		{name: "a point alone", src: jitter(`"."`),
			want: []string{"9:100 WF304 «\".\"» `.Jitter` expects a decimal fraction && !without its quotes && !| fix"}},
	})
}

func itoa(n int64) string { return strconv.FormatInt(n, 10) }
