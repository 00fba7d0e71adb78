package main

import "testing"

// TestColorAuto: --color auto colors a terminal only, and never when
// NO_COLOR is set or TERM=dumb.
func TestColorAuto(t *testing.T) {
	tests := []struct {
		name     string
		terminal bool
		env      map[string]string
		want     bool
	}{
		{"terminal", true, map[string]string{"TERM": "xterm-256color"}, true},
		{"no TERM", true, nil, true},
		{"not a terminal", false, map[string]string{"TERM": "xterm"}, false},
		{"NO_COLOR", true, map[string]string{"NO_COLOR": "1", "TERM": "xterm"}, false},
		{"TERM=dumb", true, map[string]string{"TERM": "dumb"}, false},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if got := colorAuto(tt.terminal, func(k string) string { return tt.env[k] }); got != tt.want {
				t.Errorf("colorAuto = %v, want %v", got, tt.want)
			}
		})
	}
}
