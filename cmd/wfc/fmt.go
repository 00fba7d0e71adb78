package main

import (
	"bufio"
	"errors"
	"fmt"
	"io"
	"os"
	"strings"

	"github.com/spf13/cobra"
	"github.com/wfc-lang/wfc/diag"
	"github.com/wfc-lang/wfc/format"
)

// fmtStdinName names standard input in fmt's messages.
const fmtStdinName = "<stdin>"

type fmtFlags struct {
	list, write, diff, check bool
}

func newFmtCmd(stdin io.Reader, stdout, stderr io.Writer) *cobra.Command {
	var f fmtFlags
	cmd := &cobra.Command{
		Use:   "fmt [-l] [-w] [-d] [--check] PATH...",
		Short: "Lay out workflow files in the canonical form",
		Long: `fmt lays out each file in the canonical form (docs/fmt.md): only white space
changes, comments keep their place. PATH is a file, a directory (every *.wf
below it) or - for standard input. Without flags it prints the formatted text.

Exit status: 0 done; 1 a file has syntax errors (it is not formatted) or, with
--check, a file is not formatted; 2 a path could not be read or written.`,
		Args: needPaths,
		RunE: func(cmd *cobra.Command, args []string) error {
			return runFmt(f, args, stdin, stdout, stderr, osFS)
		},
	}
	fl := cmd.Flags()
	fl.BoolVarP(&f.list, "list", "l", false, "list the files whose layout differs from the canonical one")
	fl.BoolVarP(&f.write, "write", "w", false, "rewrite the files that differ, in place (atomically)")
	fl.BoolVarP(&f.diff, "diff", "d", false, "print a unified diff of the changes")
	fl.BoolVar(&f.check, "check", false, "exit 1 if any file is not formatted (for CI), naming each as -l does (-d shows the diff instead)")
	return cmd
}

// runFmt formats every file of args. Each file is handled on its own: one
// with syntax errors or one that cannot be written does not stop the rest.
func runFmt(f fmtFlags, args []string, stdin io.Reader, stdout, stderr io.Writer, fsys fileSystem) error {
	l := loadFiles(args, stdin, fmtStdinName, stderr, true) // test files are source to lay out too
	out := bufio.NewWriter(stdout)
	printing := !f.list && !f.write && !f.diff && !f.check
	status := exitOK
	raise := func(s int) { status = max(status, s) }
	for _, name := range l.order {
		src := l.bytes[name]
		formatted, err := format.Source(name, src)
		var se *format.SyntaxError
		if errors.As(err, &se) {
			if werr := diag.WriteText(stderr, se.Diags, l.bytes, diag.TextOptions{}); werr != nil {
				return werr
			}
		}
		if err != nil {
			notef(stderr, "not formatting %s: it has %s", name, strings.TrimPrefix(err.Error(), "the source has "))
			raise(exitFound)
			continue
		}
		changed := formatted != src
		isStdin := l.fromStdin && name == fmtStdinName
		if printing || f.write && isStdin {
			out.WriteString(formatted)
		}
		if !changed {
			continue
		}
		// --check names what fails it, as gofmt -l does, unless a diff
		// (-d) names it already.
		if f.list || f.check && !f.diff {
			fmt.Fprintln(out, diag.EscapeLineStart(name)) // a name may hold a line break or ESC
		}
		if f.diff {
			out.WriteString(guardUntrusted(unifiedDiff(name, src, formatted), os.Getenv))
		}
		if f.check {
			raise(exitFound)
		}
		if f.write && !isStdin {
			if err := l.write(fsys, name, formatted); err != nil {
				notef(stderr, "cannot write %s: %v", name, err)
				raise(exitUsage)
			}
		}
	}
	if err := out.Flush(); err != nil {
		return fmt.Errorf("writing output: %w", err)
	}
	if l.failed {
		raise(exitUsage)
	}
	if status != exitOK {
		return exitError{status}
	}
	return nil
}
