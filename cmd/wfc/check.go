package main

import (
	"bufio"
	"fmt"
	"io"
	"os"

	"github.com/spf13/cobra"

	"github.com/wfc-lang/wfc/diag"
)

type checkFlags struct {
	format    string
	strict    bool
	color     string
	stdinName string
}

func newCheckCmd(stdin io.Reader, stdout, stderr io.Writer) *cobra.Command {
	var f checkFlags
	cmd := &cobra.Command{
		Use:   "check [flags] PATH...",
		Short: "Report every syntax and meaning problem in workflow files",
		Long: `Check reads the files, directories (recursively *.wf, sorted) and - (standard
input) given, as one program, and reports every problem.

Exit status: 0 no errors; 1 an error diagnostic (with --strict, any warning);
2 a usage error or an unreadable path (the other paths are still checked).`,
		Args: cobra.MinimumNArgs(1),
		ValidArgsFunction: func(*cobra.Command, []string, string) ([]string, cobra.ShellCompDirective) {
			return []string{"wf"}, cobra.ShellCompDirectiveFilterFileExt
		},
		RunE: func(cmd *cobra.Command, args []string) error {
			return runCheck(f, args, stdin, stdout, stderr)
		},
	}
	fl := cmd.Flags()
	fl.StringVar(&f.format, "format", "text", "output format: text or json")
	fl.BoolVar(&f.strict, "strict", false, "warnings also fail (exit 1)")
	fl.StringVar(&f.color, "color", "auto", "color: auto (only on a terminal), always or never")
	fl.StringVar(&f.stdinName, "stdin-filename", "<stdin>", "name used for - (standard input) in diagnostics")
	_ = cmd.RegisterFlagCompletionFunc("format", cobra.FixedCompletions([]string{"text", "json"}, cobra.ShellCompDirectiveNoFileComp))
	_ = cmd.RegisterFlagCompletionFunc("color", cobra.FixedCompletions([]string{"auto", "always", "never"}, cobra.ShellCompDirectiveNoFileComp))
	return cmd
}

func runCheck(f checkFlags, args []string, stdin io.Reader, stdout, stderr io.Writer) error {
	switch f.format {
	case "text", "json":
	default:
		return fmt.Errorf("unknown --format %q: use text or json", f.format)
	}
	color, err := useColor(f.color, stdout)
	if err != nil {
		return err
	}
	l := load(args, stdin, f.stdinName, stderr)
	limitMemory(l)
	a := analyze(l)
	w := bufio.NewWriterSize(stdout, 64<<10)
	switch f.format {
	case "json":
		err = diag.WriteJSON(w, a.diags, len(l.order))
	default:
		err = diag.WriteText(w, a.diags, l.bytes, diag.TextOptions{Color: color})
		if err == nil {
			_, err = fmt.Fprintln(w, diag.Summary(a.diags, len(l.order)))
		}
	}
	if err == nil {
		err = w.Flush()
	}
	if err != nil {
		return fmt.Errorf("writing output: %w", err)
	}
	return exitFor(l, a.diags, f.strict)
}

// exitFor returns the exit status of LANGUAGE.md §8 as an error for cobra.
func exitFor(l *loaded, ds []diag.Diagnostic, strict bool) error {
	if l.failed {
		return exitError{exitUsage}
	}
	errs, warns := diag.Counts(ds)
	if errs > 0 || strict && warns > 0 {
		return exitError{exitFound}
	}
	return nil
}

// useColor decides on ANSI colors: auto means stdout is a terminal and
// NO_COLOR is not set.
func useColor(mode string, stdout io.Writer) (bool, error) {
	switch mode {
	case "always":
		return true, nil
	case "never":
		return false, nil
	case "auto":
		if os.Getenv("NO_COLOR") != "" {
			return false, nil
		}
		f, ok := stdout.(*os.File)
		if !ok {
			return false, nil
		}
		st, err := f.Stat()
		return err == nil && st.Mode()&os.ModeCharDevice != 0, nil
	}
	return false, fmt.Errorf("unknown --color %q: use auto, always or never", mode)
}
