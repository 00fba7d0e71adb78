package ghrunner

import (
	"reflect"
	"testing"
)

// TestScan: the forms the runner acts on, and the near misses it ignores.
func TestScan(t *testing.T) {
	cases := []struct {
		out  string
		want []string // command names
	}{
		{"::warning::x", []string{"warning"}},
		{"  ::error file=a::x", []string{"error"}},
		{"\u00a0\u2003\u3000\u0085\u1680\u202f\u205f::warning::x", []string{"warning"}}, // .NET TrimStart
		{"a ::warning::x", nil},                                                         // not at the start
		{"::nosuch::x", nil},                                                            // not registered
		{":::: a.wf:1:2", nil},                                                          // empty name
		{"text ##[error]x", []string{"error"}},                                          // legacy, anywhere
		{"text ##[ERROR]x", []string{"ERROR"}},                                          // case-insensitive
		{"#\u00ad#[error]x", []string{"error"}},                                         // ICU ignores the soft hyphen
		{"#\\x23[error]x", nil},                                                         // wfc's escape
		{"a\rb\r\n::debug::x\n", []string{"debug"}},                                     // CR ends a line
		{"::stop-commands::tok\n::warning::x\n##[error]y\n::tok::\n::warning::z", []string{"stop-commands", "tok", "warning"}},
		{"::add-mask::secret", []string{"add-mask"}},
	}
	for _, c := range cases {
		var got []string
		for _, cmd := range Scan(c.out) {
			got = append(got, cmd.Name)
		}
		if !reflect.DeepEqual(got, c.want) {
			t.Errorf("Scan(%q) = %q, want %q", c.out, got, c.want)
		}
	}
}

func TestLines(t *testing.T) {
	got := Lines("a\r\nb\rc\n\nd")
	want := []string{"a", "b", "c", "", "d"}
	if !reflect.DeepEqual(got, want) {
		t.Errorf("Lines = %q, want %q", got, want)
	}
}
