package lexer

import (
	"strings"
	"testing"
)

// TestGluedNumberHint: only a duration unit is told to write a TimeSpan, and
// with its own unit; `1e308` is not told `TimeSpan.FromSeconds(1)`.
func TestGluedNumberHint(t *testing.T) {
	for _, tt := range []struct{ digits, rest, want string }{
		{"5", "s", "`TimeSpan.FromSeconds(5)`"},
		{"250", "ms", "`TimeSpan.FromMilliseconds(250)`"},
		{"1.5", "h", "`TimeSpan.FromHours(1.5)`"},
		{"1", "e308", "exponent notation"},
		{"2", "E", "exponent notation"},
		{"3", "abc", "put a space"},
	} {
		got := gluedNumberHint(tt.digits, tt.rest)
		if !strings.Contains(got, tt.want) {
			t.Errorf("%s%s: %q does not say %s", tt.digits, tt.rest, got, tt.want)
		}
		if tt.want[0] != '`' && strings.Contains(got, "TimeSpan") {
			t.Errorf("%s%s: %q suggests a TimeSpan", tt.digits, tt.rest, got)
		}
	}
}
