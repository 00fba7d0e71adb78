package main

import (
	"fmt"
	"os"
	"reflect"
	"strings"

	"github.com/spf13/cobra"
)

// shells are the shells cobra writes completion scripts for.
var shells = []string{"bash", "zsh", "fish", "powershell"}

// strictUsage makes every usage mistake an error with a one-line reason
// (exit 2) where cobra would print help and exit 0, or a message of its own
// over several lines: `wfc` alone, a mistyped command (also after `wfc
// help`), a wrong number of arguments, and `wfc completion` with no shell or
// an unknown one. It also adds --version.
func strictUsage(root *cobra.Command) {
	root.Version = version()
	root.SetVersionTemplate("wfc {{.Version}}\n")
	root.Args = oneOfCommands("command")
	root.RunE = func(cmd *cobra.Command, args []string) error {
		return usageError(cmd, "a command is required: %s", strings.Join(commandNames(root), ", "))
	}
	root.InitDefaultCompletionCmd()
	strictHelp(root)
	tidyArgs(root)
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

// orList writes names as "`a`", "`a` or `b`", "`a`, `b` or `c`".
func orList(names []string) string {
	q := make([]string, len(names))
	for i, n := range names {
		q[i] = "`" + n + "`"
	}
	if len(q) == 1 {
		return q[0]
	}
	return strings.Join(q[:len(q)-1], ", ") + " or " + q[len(q)-1]
}

// strictHelp makes `wfc help chek` the usage error `wfc chek` is (with its
// suggestion), where cobra would print the root's help and exit 0.
func strictHelp(root *cobra.Command) {
	root.InitDefaultHelpCmd()
	for _, c := range root.Commands() {
		if c.Name() != "help" || c.Run == nil {
			continue
		}
		show := c.Run
		c.RunE = func(cmd *cobra.Command, args []string) error {
			if target, rest, err := root.Find(args); err == nil && len(rest) > 0 && target.HasSubCommands() && target.Args != nil {
				if err := target.Args(target, rest); err != nil {
					return err
				}
			}
			show(cmd, args)
			return nil
		}
	}
}

// helpOfUnknown makes `wfc chek --help` the usage error `wfc chek` is:
// cobra prints the help of the command it found (the root) for --help
// before it looks at the arguments, and exits 0.
func helpOfUnknown(root *cobra.Command, args []string) error {
	help := false
	for _, a := range args {
		if a == "--" {
			break
		}
		help = help || a == "--help" || a == "-h"
	}
	if !help {
		return nil
	}
	target, rest, err := root.Find(args)
	if err != nil || !target.HasSubCommands() || target.Args == nil {
		return nil
	}
	var positional []string
	for _, a := range rest {
		if !strings.HasPrefix(a, "-") {
			positional = append(positional, a)
		}
	}
	if len(positional) == 0 {
		return nil
	}
	return target.Args(target, positional)
}

// suggestDistance is how many edits a mistyped command may be from a real
// one to be suggested (cobra's default, which SuggestionsFor only applies
// when it is set).
const suggestDistance = 2

// tidyArgs walks the command tree: every command declared with cobra.NoArgs
// (wfc version, wfc lsp, cobra's completion commands) gets wfc's message
// instead of cobra's "unknown command" (a func value is compared by its
// code pointer), and every command suggests near misses of its subcommands.
func tidyArgs(c *cobra.Command) {
	if c.Args != nil && reflect.ValueOf(c.Args).Pointer() == reflect.ValueOf(cobra.NoArgs).Pointer() {
		c.Args = noArgs
	}
	c.SuggestionsMinimumDistance = suggestDistance
	for _, sub := range c.Commands() {
		tidyArgs(sub)
	}
}

// commandNames lists the subcommands of c a user runs (not help or
// completion).
func commandNames(c *cobra.Command) []string {
	var names []string
	for _, c := range c.Commands() {
		if c.IsAvailableCommand() && c.Name() != "help" && c.Name() != "completion" {
			names = append(names, c.Name())
		}
	}
	return names
}

// The Args rules below are the only ones wfc's commands use: each says what
// is wrong in one line, names the arguments the command takes and points at
// its --help, where cobra's own rules print "requires at least 1 arg(s)" or a
// multi-line "Did you mean this?". usageError builds every such message.

// usageError is a usage mistake of cmd: reason, then where to read more.
func usageError(cmd *cobra.Command, format string, a ...any) error {
	return fmt.Errorf("%s (see `%s --help`)", fmt.Sprintf(format, a...), cmd.CommandPath())
}

// flagError words a flag that does not parse. On a command that only groups
// others, a mistyped subcommand before the flag is the first mistake: `wfc
// chek --format json` names "chek", not --format.
func flagError(cmd *cobra.Command, err error) error {
	if cmd.HasSubCommands() && cmd.Args != nil {
		if aerr := cmd.Args(cmd, cmd.Flags().Args()); aerr != nil {
			return aerr
		}
	}
	return usageError(cmd, "%v", err)
}

// needPaths is the Args rule of the commands that read PATH...
func needPaths(cmd *cobra.Command, args []string) error {
	if len(args) == 0 {
		return usageError(cmd, "%s needs at least one PATH: a .wf file, a directory, or - for standard input", cmd.CommandPath())
	}
	return nil
}

// atMostOne is the Args rule of a command with one optional argument, what
// (`explain [CODE]`).
func atMostOne(what string) cobra.PositionalArgs {
	return func(cmd *cobra.Command, args []string) error {
		if len(args) > 1 {
			return usageError(cmd, "%s takes at most one %s, not %d: %s", cmd.CommandPath(), what, len(args), strings.Join(args, " "))
		}
		return nil
	}
}

// noArgs is the Args rule of a command that takes no argument. strictUsage
// puts it in place of cobra.NoArgs, whose message reads "unknown command".
func noArgs(cmd *cobra.Command, args []string) error {
	if len(args) > 0 {
		return usageError(cmd, "%s takes no arguments, but got %q", cmd.CommandPath(), args[0])
	}
	return nil
}

// oneOfCommands is the Args rule of a command that only groups others (wfc,
// wfc export): an argument reaching it names no subcommand. noun is what
// the subcommands are called ("command", "target").
func oneOfCommands(noun string) cobra.PositionalArgs {
	return func(cmd *cobra.Command, args []string) error {
		if len(args) == 0 {
			return nil
		}
		if s := cmd.SuggestionsFor(args[0]); len(s) > 0 {
			return usageError(cmd, "unknown %s %q; did you mean %s?", noun, args[0], orList(s))
		}
		return usageError(cmd, "unknown %s %q: use %s", noun, args[0], strings.Join(commandNames(cmd), ", "))
	}
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
