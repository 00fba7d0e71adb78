package main

import (
	"io"
	"strings"
	"testing"

	"github.com/spf13/cobra"
)

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

// TestArgsMessages: every command's argument-count mistake is one line in
// wfc's words, ending with where to read more, never cobra's raw text
// ("requires at least 1 arg(s)", "unknown command … for …").
func TestArgsMessages(t *testing.T) {
	root := newRoot(strings.NewReader(""), io.Discard, io.Discard)
	var walk func(c *cobra.Command)
	walk = func(c *cobra.Command) {
		for _, args := range [][]string{nil, {"a", "b"}} {
			err := c.ValidateArgs(args)
			if err == nil {
				continue
			}
			msg := err.Error()
			if strings.Contains(msg, "arg(s)") || strings.Contains(msg, " for \"") || strings.Contains(msg, "\n") ||
				!strings.HasSuffix(msg, "(see `"+c.CommandPath()+" --help`)") {
				t.Errorf("%s %q: %q is not in wfc's style", c.CommandPath(), args, msg)
			}
		}
		for _, sub := range c.Commands() {
			walk(sub)
		}
	}
	walk(root)
}

// TestUnknownCommand: a mistyped command names the near ones, or all of
// them when none is near.
func TestUnknownCommand(t *testing.T) {
	tests := []struct{ args, want string }{
		{"chek x", "wfc: unknown command \"chek\"; did you mean `check`? (see `wfc --help`)\n"},
		{"exp", "wfc: unknown command \"exp\"; did you mean `explain`, `export` or `lsp`? (see `wfc --help`)\n"},
		{"frob", "wfc: unknown command \"frob\": use check, explain, export, fmt, graph, lsp, play, schedule, test, version (see `wfc --help`)\n"},
		{"chek --format json x", "wfc: unknown command \"chek\"; did you mean `check`? (see `wfc --help`)\n"},
		{"export aws x", "wfc: unknown target \"aws\": use temporal (see `wfc export --help`)\n"},
		{"export tempral x", "wfc: unknown target \"tempral\"; did you mean `temporal`? (see `wfc export --help`)\n"},
	}
	for _, tt := range tests {
		var stdout, stderr strings.Builder
		code := run(strings.Fields(tt.args), strings.NewReader(""), &stdout, &stderr)
		if code != exitUsage || stderr.String() != tt.want || stdout.Len() != 0 {
			t.Errorf("wfc %s: exit %d, stderr %q, stdout %q; want exit 2, stderr %q", tt.args, code, stderr.String(), stdout.String(), tt.want)
		}
	}
}
