// Package max is the mutation runner's test subject: its test kills some
// mutants and, by design, lets others survive.
package max

// Max returns the larger of a and b.
func Max(a, b int) int {
	if a > b {
		return a
	}
	return b
}

// Greet is never tested: every mutant of it survives.
func Greet(name string) string {
	n := len(name)
	n++
	return name + "!" + string(rune('0'+n))
}
