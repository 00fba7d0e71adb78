package main

import (
	"fmt"
	"os"
	"strings"

	"github.com/spf13/cobra"
)

// shells are the shells cobra writes completion scripts for.
var shells = []string{"bash", "zsh", "fish", "powershell"}

// strictUsage makes every usage mistake an error with a one-line reason
// (exit 2) where cobra would print help and exit 0: `wfc` alone, and
// `wfc completion` with no shell or an unknown one. It also adds --version.
func strictUsage(root *cobra.Command) {
	root.Version = version()
	root.SetVersionTemplate("wfc {{.Version}}\n")
	root.RunE = func(cmd *cobra.Command, args []string) error {
		return fmt.Errorf("a command is required: %s (see `wfc --help`)", strings.Join(commandNames(root), ", "))
	}
	root.InitDefaultCompletionCmd()
	for _, c := range root.Commands() {
		if c.Name() != "completion" {
			continue
		}
		c.Args = cobra.ArbitraryArgs
		c.RunE = func(cmd *cobra.Command, args []string) error {
			if len(args) == 0 {
				return fmt.Errorf("completion needs a shell: %s", strings.Join(shells, ", "))
			}
			return fmt.Errorf("no completion for the shell %q: use %s", args[0], strings.Join(shells, ", "))
		}
	}
}

// commandNames lists the commands a user runs (not help or completion).
func commandNames(root *cobra.Command) []string {
	var names []string
	for _, c := range root.Commands() {
		if c.IsAvailableCommand() && c.Name() != "help" && c.Name() != "completion" {
			names = append(names, c.Name())
		}
	}
	return names
}

// needPaths is the Args rule of the commands that read PATH...
func needPaths(cmd *cobra.Command, args []string) error {
	if len(args) == 0 {
		return fmt.Errorf("%s needs at least one PATH: a .wf file, a directory, or - for standard input (see `%s --help`)", cmd.CommandPath(), cmd.CommandPath())
	}
	return nil
}

// colorAuto decides --color auto: a terminal, unless NO_COLOR is set or TERM
// says the terminal has no colors (TERM=dumb).
func colorAuto(isTerminal bool, getenv func(string) string) bool {
	return isTerminal && getenv("NO_COLOR") == "" && getenv("TERM") != "dumb"
}

// isTerminal reports whether w is a terminal.
func isTerminal(w any) bool {
	f, ok := w.(*os.File)
	if !ok {
		return false
	}
	st, err := f.Stat()
	return err == nil && st.Mode()&os.ModeCharDevice != 0
}
