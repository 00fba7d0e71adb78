package main

import (
	"bufio"
	"fmt"
	"io"
	"strings"

	"github.com/spf13/cobra"
	"github.com/wfc-lang/wfc/diag"
	"github.com/wfc-lang/wfc/graph"
)

func newGraphCmd(stdin io.Reader, stdout, stderr io.Writer) *cobra.Command {
	var format string
	cmd := &cobra.Command{
		Use:   "graph [--format mermaid|dot] PATH...",
		Short: "Draw each workflow as a state machine (Mermaid or Graphviz DOT)",
		Long: `graph draws each workflow of the program as a state machine (docs/graph.md):
states as nodes (initial, terminal and terminal-error states marked, unreachable
ones dashed), an edge for every goto and milestone outcome, labelled with the
handler and case that take it or with the milestone's windows and give-up time,
and each state's durable steps with their budgets.

Any program that parses is drawn. When it has errors, the diagnostics go to
standard error, milestones and steps whose policies have errors are drawn
without numbers, and the exit status is 1; a file with syntax errors is not
drawn. Exit 2: a path could not be read.`,
		Args: needPaths,
		RunE: func(cmd *cobra.Command, args []string) error {
			return runGraph(graph.Format(format), args, stdin, stdout, stderr)
		},
	}
	names := make([]string, len(graph.Formats))
	for i, f := range graph.Formats {
		names[i] = string(f)
	}
	cmd.Flags().StringVar(&format, "format", string(graph.Mermaid), "output format: "+strings.Join(names, " or "))
	_ = cmd.RegisterFlagCompletionFunc("format", cobra.FixedCompletions(names, cobra.ShellCompDirectiveNoFileComp))
	return cmd
}

func runGraph(format graph.Format, args []string, stdin io.Reader, stdout, stderr io.Writer) error {
	if format != graph.Mermaid && format != graph.DOT {
		return fmt.Errorf("unknown --format %q: use mermaid or dot", format)
	}
	l := load(args, stdin, "<stdin>", stderr)
	defer limitMemory(l)()
	a := analyzeSummary(l)
	errs, _ := diag.Counts(a.diags)
	syntax := false
	for _, d := range a.diags {
		syntax = syntax || isSyntax(d.Code)
	}
	if errs > 0 {
		if err := diag.WriteText(stderr, a.diags, l.bytes, diag.TextOptions{}); err != nil {
			return err
		}
		writeSummary(stderr, a.diags, len(l.order))
	}
	if syntax {
		fmt.Fprintln(stderr, "wfc: the program has syntax errors, so it is not drawn")
	} else if len(l.order) > 0 {
		w := bufio.NewWriter(stdout)
		in := graph.Input{Program: a.result.Program, Schedules: a.schedules}
		err := graph.Write(w, in, format)
		if err == nil {
			err = w.Flush()
		}
		if err != nil {
			return fmt.Errorf("writing output: %w", err)
		}
	}
	switch {
	case l.failed:
		return exitError{exitUsage}
	case errs > 0:
		return exitError{exitFound}
	}
	return nil
}
